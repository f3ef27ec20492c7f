"""``ekko-memory hermes install`` / ``uninstall``: the provider's folder in Hermes's plugins
and its selection in ``config.yaml``.

Hermes Agent finds memory providers by folder (``$HERMES_HOME/plugins/<name>/`` with an
``__init__.py`` naming ``register_memory_provider`` and a ``plugin.yaml``), not by entry
point. The folder written here holds no code of its own: its ``__init__.py`` imports the
installed package, so upgrading ekko-memory needs no new install. Both commands are
idempotent and keep every other setting of ``config.yaml`` (hermes_config.py).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ekko_memory.errors import InvalidInput
from ekko_memory.integrations.hermes import hermes_config
from ekko_memory.integrations.hermes.settings import PROVIDER_NAME

MARKER = "Written by `ekko-memory hermes install`"

SHIM_INIT = f'''"""Ekko Memory as Hermes Agent's memory provider "{PROVIDER_NAME}".

{MARKER}: this folder only points at the installed
ekko-memory package (its register() calls ctx.register_memory_provider), so upgrading
ekko-memory needs no new install. Remove it with `ekko-memory hermes uninstall`.
"""

from ekko_memory.integrations.hermes import register  # noqa: F401
'''


def shim_manifest(version: str) -> str:
    """The folder's ``plugin.yaml``."""
    return (
        f"# {MARKER}.\n"
        f"name: {PROVIDER_NAME}\n"
        f'version: "{version}"\n'
        "kind: exclusive\n"
        'description: "Ekko Memory: local, auditable long-term memory. Every turn is '
        "remembered and recalled; long-term memories the user did not ask for wait for "
        'their approval in the Ekko Memory app."\n'
    )


@dataclass(frozen=True)
class InstallReport:
    """What ``install`` or ``uninstall`` did."""

    hermes_home: Path
    plugin_dir: Path
    # installed / updated / unchanged (install); removed / absent (uninstall)
    plugin: str
    # The provider config.yaml selects afterwards ("" = Hermes's built-in memory only),
    # and before; None when config.yaml was not touched.
    provider: str | None = None
    previous_provider: str | None = None
    hermes_importable: bool = True

    def to_json(self) -> dict[str, Any]:
        """For ``--json``."""
        return {
            "hermesHome": str(self.hermes_home),
            "pluginDir": str(self.plugin_dir),
            "plugin": self.plugin,
            "provider": self.provider,
            "previousProvider": self.previous_provider,
            "hermesImportable": self.hermes_importable,
            "python": sys.executable,
        }


def resolve_hermes_home(explicit: str | os.PathLike[str] | None) -> Path:
    """``--hermes-home``, else Hermes's own answer (its profiles) when Hermes is installed
    here, else ``$HERMES_HOME``, else ``~/.hermes``."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    try:
        from hermes_constants import get_hermes_home

        return Path(get_hermes_home()).expanduser().resolve()
    except Exception:  # Hermes not installed in this Python
        pass
    env = os.environ.get("HERMES_HOME", "").strip()
    return Path(env).expanduser().resolve() if env else Path.home() / ".hermes"


def install(hermes_home: Path, *, activate: bool) -> InstallReport:
    """Write the provider's folder (and with ``activate`` select it in config.yaml)."""
    from ekko_memory import __version__

    plugin_dir = hermes_home / "plugins" / PROVIDER_NAME
    files = {"__init__.py": SHIM_INIT, "plugin.yaml": shim_manifest(__version__)}
    if plugin_dir.exists() and not _ours(plugin_dir):
        raise InvalidInput(
            f"{plugin_dir} exists and was not written by ekko-memory; move it away first"
        )
    if activate:  # fail before anything is written
        hermes_config.check_editable(hermes_config.config_path(hermes_home))
    existed = plugin_dir.is_dir()
    changed = False
    plugin_dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = plugin_dir / name
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        tmp = path.with_name(f".{name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        changed = True
    state = "unchanged" if existed and not changed else ("updated" if existed else "installed")
    provider = previous = None
    if activate:
        previous = _set_provider(hermes_home, PROVIDER_NAME, only_if=None)
        provider = PROVIDER_NAME
    return InstallReport(
        hermes_home, plugin_dir, state, provider, previous, hermes_importable=_hermes_here()
    )


def uninstall(hermes_home: Path) -> InstallReport:
    """Remove the provider's folder; a config.yaml that selects ``ekko`` goes back to
    Hermes's built-in memory. The ``memory.ekko`` settings and the memories stay."""
    plugin_dir = hermes_home / "plugins" / PROVIDER_NAME
    state = "absent"
    if plugin_dir.exists():
        if not _ours(plugin_dir):
            raise InvalidInput(f"{plugin_dir} was not written by ekko-memory; it was left as it is")
        shutil.rmtree(plugin_dir)
        state = "removed"
    provider = previous = None
    if hermes_config.config_path(hermes_home).is_file():
        previous = _set_provider(hermes_home, "", only_if=PROVIDER_NAME)
        provider = "" if previous == PROVIDER_NAME else previous
    return InstallReport(
        hermes_home, plugin_dir, state, provider, previous, hermes_importable=_hermes_here()
    )


def _set_provider(hermes_home: Path, name: str, *, only_if: str | None) -> str | None:
    """Set ``memory.provider`` (when it is ``only_if``, if given); the value before."""
    before: list[str | None] = [None]

    def change(data: MutableMapping[str, Any]) -> bool:
        memory = data.get("memory")
        current = memory.get("provider") if isinstance(memory, MutableMapping) else None
        before[0] = None if current is None else str(current)
        if only_if is not None and current != only_if:
            return False
        if current == name:
            return False
        hermes_config.section(data, "memory")["provider"] = name
        return True

    hermes_config.edit_config(hermes_config.config_path(hermes_home), change)
    return before[0]


def _ours(plugin_dir: Path) -> bool:
    """The folder is one this module wrote (its ``__init__.py`` carries the marker)."""
    init = plugin_dir / "__init__.py"
    try:
        return plugin_dir.is_dir() and MARKER in init.read_text(encoding="utf-8")
    except OSError:
        return False


def _hermes_here() -> bool:
    """Hermes Agent can be imported by this Python (where the provider will run)."""
    try:
        return importlib.util.find_spec("agent.memory_provider") is not None
    except (ImportError, ValueError):
        return False
