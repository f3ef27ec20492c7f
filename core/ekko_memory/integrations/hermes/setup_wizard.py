"""``hermes memory setup ekko``: the provider's settings asked one by one.

Hermes 0.19 walks a provider's ``get_config_schema()`` only from its picker; naming the
provider (``hermes memory setup ekko``) runs the provider's ``post_setup`` instead. This
walks the same schema there: each field with its current value as the default (Enter
keeps it), choices by name, secrets unechoed, fields shown only ``when`` another has a
value. Settings go to ``memory.ekko`` in config.yaml and ``memory.provider`` becomes
``ekko``; fields with an ``env_var`` (the extraction endpoint) go to ``$HERMES_HOME/.env``
only, which Hermes loads into the environment Ekko reads them from.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ekko_memory.integrations.hermes import hermes_config
from ekko_memory.integrations.hermes.settings import PROVIDER_NAME

Ask = Callable[[str], str]


@dataclass
class Answers:
    """What the user chose: settings for config.yaml, variables for .env."""

    settings: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)


def ask_all(
    schema: list[dict[str, Any]],
    current: Mapping[str, Any],
    *,
    ask: Ask = input,
    ask_secret: Ask = getpass.getpass,
    say: Callable[[str], None] = print,
) -> Answers:
    """Ask each field of ``schema`` (Enter keeps the current value, EOF keeps them all)."""
    answers = Answers()
    for spec in schema:
        key = spec["key"]
        when = spec.get("when") or {}
        if any(answers.settings.get(k, current.get(k)) != v for k, v in when.items()):
            continue
        env_var = spec.get("env_var")
        now = current.get(key)
        if now is None and env_var:
            now = os.environ.get(env_var)
        if now is None:
            now = spec.get("default")
        value = _ask_one(spec, now, ask, ask_secret, say)
        if value is None:
            continue
        if env_var:  # the endpoint: in .env only, where Ekko's own settings are read
            answers.env[env_var] = value
        else:
            answers.settings[key] = value
    return answers


def _ask_one(
    spec: dict[str, Any], now: Any, ask: Ask, ask_secret: Ask, say: Callable[[str], None]
) -> str | None:
    """The field's new value (None: unchanged and nothing to write)."""
    label = spec.get("description", spec["key"])
    choices = spec.get("choices")
    if choices:
        label += f" [{'/'.join(choices)}]"
    shown = "(set)" if spec.get("secret") and now else (now or "")
    while True:
        try:
            raw = (ask_secret if spec.get("secret") else ask)(f"  {label} [{shown}]: ")
        except EOFError:
            raw = ""
        value = raw.strip()
        if not value:
            return None if spec.get("secret") or now in (None, "") else str(now)
        if choices and value not in choices:
            say(f"  choose one of: {', '.join(choices)}")
            continue
        return value


def save(hermes_home: Path, answers: Answers) -> None:
    """``memory.provider: ekko`` and ``memory.ekko`` in config.yaml (every other setting
    kept), the endpoint variables in ``.env`` (mode 0600)."""

    def change(data: MutableMapping[str, Any]) -> bool:
        memory = hermes_config.section(data, "memory")
        memory["provider"] = PROVIDER_NAME
        hermes_config.section(memory, PROVIDER_NAME).update(answers.settings)
        return True

    hermes_config.edit_config(hermes_config.config_path(hermes_home), change)
    if answers.env:
        write_env(hermes_home / ".env", answers.env)


def write_env(path: Path, values: Mapping[str, str]) -> None:
    """Set ``KEY=value`` lines in a dotenv file, keeping its other lines."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    left = dict(values)
    out = []
    for line in lines:
        name = line.split("=", 1)[0].strip() if "=" in line else ""
        if name in left:
            out.append(f"{name}={left.pop(name)}")
        else:
            out.append(line)
    out += [f"{name}={value}" for name, value in left.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    path.chmod(0o600)
