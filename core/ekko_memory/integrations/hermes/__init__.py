"""Ekko Memory as Hermes Agent's memory provider ``ekko``.

``ekko-memory hermes install [--activate]`` puts a folder in ``$HERMES_HOME/plugins/ekko/``
whose ``__init__.py`` imports ``register`` from here; Hermes's memory-provider loader calls
it with a context that takes ``register_memory_provider``. Hermes itself is imported only
then (provider.py), so this package and the rest of Ekko import without it.

    bridge.py          everything that touches memory (no Hermes import)
    provider.py        Hermes's MemoryProvider interface over the bridge
    settings.py        memory.ekko settings; where the stores live
    installer.py       the plugin folder and the selection in config.yaml
    hermes_config.py   reading and editing config.yaml without losing the user's settings
    shared_memory.py   one open memory per location in a process
"""

from __future__ import annotations

from typing import Any


def register(ctx: Any) -> None:
    """Hermes's plugin entry: hand it the ``ekko`` provider (register_memory_provider)."""
    from ekko_memory.integrations.hermes.provider import EkkoMemoryProvider

    ctx.register_memory_provider(EkkoMemoryProvider())
