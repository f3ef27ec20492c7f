"""The ``ekko`` provider's settings (``memory.ekko`` in Hermes's ``config.yaml``) and where
its two stores live.

Workspace store (sessions, messages, summaries, session and workspace memories):
``$EKKO_WORKSPACE`` if set, else the ``workspace`` setting, else the folder Hermes's
workspace name gives (``$HERMES_HOME/ekko/<agent_workspace>``; an absolute path is used as
it is), else the current folder. User store (the user's long-term memories, shared with
every other agent that uses Ekko): ``$EKKO_HOME`` if set, else the ``user_home`` setting,
else ``~/.ekko``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

PROVIDER_NAME = "ekko"
WORKSPACE_ENV = "EKKO_WORKSPACE"
USER_HOME_ENV = "EKKO_HOME"
# Hermes keeps each turn's injected context in the history for every later turn: small.
DEFAULT_PREFETCH_TOKENS = 300
MAX_PREFETCH_TOKENS = 4000

# Who extracts memories after each reply: Ekko's own setting (an endpoint in
# .ekko/config.json or EKKO_LLM_BASE_URL / EKKO_LLM_MODEL, else the local rules), the model
# Hermes chats with, or the local rules only (no model call).
Extraction = Literal["ekko", "hermes", "rules"]
EXTRACTIONS: tuple[str, ...] = get_args(Extraction)

_SAFE_NAME = re.compile(r"[^\w.-]+")


@dataclass(frozen=True)
class HermesSettings:
    """What ``memory.ekko`` in config.yaml says (defaults for what it does not)."""

    workspace: str | None = None
    user_home: str | None = None
    extraction: Extraction = "ekko"
    prefetch_tokens: int = DEFAULT_PREFETCH_TOKENS

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> tuple[HermesSettings, list[str]]:
        """Settings from config values (Hermes's setup writes them as text); a value that
        does not fit keeps its default and adds a warning, never an error: a typo in
        config.yaml must not cost the user their memory."""
        values = values or {}
        warnings: list[str] = []
        workspace = _text(values.get("workspace"))
        user_home = _text(values.get("user_home"))
        extraction: Extraction = "ekko"
        raw = _text(values.get("extraction"))
        if raw is not None:
            if raw in EXTRACTIONS:
                extraction = raw  # type: ignore[assignment]
            else:
                warnings.append(
                    f"memory.ekko.extraction {raw!r} is not one of {', '.join(EXTRACTIONS)}; "
                    "using ekko"
                )
        tokens = DEFAULT_PREFETCH_TOKENS
        raw_tokens = values.get("prefetch_tokens")
        if raw_tokens not in (None, ""):
            try:
                tokens = int(str(raw_tokens))
                if not 50 <= tokens <= MAX_PREFETCH_TOKENS:
                    raise ValueError
            except ValueError:
                tokens = DEFAULT_PREFETCH_TOKENS
                warnings.append(
                    f"memory.ekko.prefetch_tokens {raw_tokens!r} is not a number from 50 to "
                    f"{MAX_PREFETCH_TOKENS}; using {DEFAULT_PREFETCH_TOKENS}"
                )
        return cls(workspace, user_home, extraction, tokens), warnings

    def workspace_dir(self, *, hermes_home: str | None, agent_workspace: str | None) -> Path:
        """The folder whose ``.ekko/memory.db`` is the workspace store."""
        env = os.environ.get(WORKSPACE_ENV, "").strip()
        if env:
            return _expand(env, hermes_home)
        if self.workspace:
            return _expand(self.workspace, hermes_home)
        name = (agent_workspace or "").strip()
        if name:
            as_path = Path(name).expanduser()
            if as_path.is_absolute():
                return as_path
            if hermes_home:
                # Hermes names its workspace ("hermes"); its folder lives in the profile.
                return Path(hermes_home).expanduser() / "ekko" / _safe_name(name)
        return Path.cwd()

    def user_home_dir(self, *, hermes_home: str | None) -> Path | None:
        """The folder of the user store (None: Ekko's default, ``~/.ekko``)."""
        env = os.environ.get(USER_HOME_ENV, "").strip()
        if env:
            return Path(env).expanduser()
        if self.user_home:
            return _expand(self.user_home, hermes_home)
        return None


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _expand(value: str, hermes_home: str | None) -> Path:
    """``~``, ``$HERMES_HOME`` and other variables expanded, as Hermes's own settings are."""
    if hermes_home:
        value = value.replace("${HERMES_HOME}", hermes_home).replace("$HERMES_HOME", hermes_home)
    return Path(os.path.expandvars(value)).expanduser()


def _safe_name(name: str) -> str:
    """A workspace name as one folder name (no separators, no ``..``)."""
    cleaned = _SAFE_NAME.sub("_", name).strip("._") or "default"
    return cleaned[:80]
