"""The ``ekko`` memory provider: Hermes Agent's ``MemoryProvider`` interface over the
bridge. This is the one module that imports Hermes, and only Hermes imports it (through
``register`` in this package's ``__init__``).

Each hook hands its arguments to ``HermesBridge`` (bridge.py), which never raises; the
Hermes-specific parts live here: the user's words recovered from a skill invocation, the
model endpoint Hermes is configured with, ``memory.ekko`` in config.yaml.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent.memory_provider import MemoryProvider

from ekko_memory.integrations.hermes import hermes_config, setup_wizard
from ekko_memory.integrations.hermes.bridge import HermesBridge, StartInfo, hermes_tool_schemas
from ekko_memory.integrations.hermes.settings import (
    DEFAULT_PREFETCH_TOKENS,
    EXTRACTIONS,
    PROVIDER_NAME,
    HermesSettings,
)
from ekko_memory.service.config import LlmConfig
from ekko_memory.service.paths import default_user_home

log = logging.getLogger("ekko_memory.hermes")

# Hermes's own name for its shared workspace (agent_init passes it to initialize).
HERMES_WORKSPACE = "hermes"


class EkkoMemoryProvider(MemoryProvider):  # type: ignore[misc]  # Hermes ships no types
    """Ekko Memory as Hermes's external memory provider."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        self._config = dict(config) if config is not None else None
        self._hermes_home: str | None = None
        self._agent_workspace: str | None = None
        self._bridge = HermesBridge(self._settings(None))

    @property
    def name(self) -> str:
        return PROVIDER_NAME

    def is_available(self) -> bool:
        """Always: Ekko is local (no credentials, no network)."""
        return True

    def _settings(self, hermes_home: str | None) -> HermesSettings:
        values = self._config
        if values is None:
            values = hermes_config.provider_values(hermes_home or _hermes_home())
        settings, warnings = HermesSettings.from_mapping(values)
        for warning in warnings:
            log.warning("%s", warning)
        return settings

    # --- lifecycle ------------------------------------------------------------------

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        """Open the stores and bind the session (see settings.py for where they are)."""
        self._hermes_home = _text(kwargs.get("hermes_home")) or _hermes_home()
        self._agent_workspace = _text(kwargs.get("agent_workspace"))
        settings = self._settings(self._hermes_home)
        self._bridge.shutdown()  # initialized again: let go of what the last start opened
        self._bridge = HermesBridge(settings)
        self._bridge.start(
            StartInfo(
                session_id=session_id,
                hermes_home=self._hermes_home,
                agent_workspace=self._agent_workspace,
                agent_context=_text(kwargs.get("agent_context")) or "primary",
                user_id=_text(kwargs.get("user_id")),
                hermes_llm=hermes_llm() if settings.extraction == "hermes" else None,
            )
        )

    def shutdown(self) -> None:
        self._bridge.shutdown()

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        self._bridge.end_session()

    def on_session_switch(
        self,
        new_session_id: str,
        *,
        parent_session_id: str = "",
        reset: bool = False,
        rewound: bool = False,
        **kwargs: Any,
    ) -> None:
        self._bridge.switch_session(new_session_id, rewound=rewound)

    # --- each turn ------------------------------------------------------------------

    def system_prompt_block(self) -> str:
        return self._bridge.system_prompt()

    def on_turn_start(self, turn_number: int, message: str, **kwargs: Any) -> None:
        text = user_words(message)
        if text:
            self._bridge.begin_turn(text)

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        # session_id arrives empty from Hermes 0.19: the bridge keeps the current one.
        return self._bridge.prefetch(query)

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        """Nothing to warm: a prefetch takes milliseconds."""

    def sync_turn(
        self,
        user_content: str,
        assistant_content: str,
        *,
        session_id: str = "",
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        self._bridge.sync_turn(user_content, assistant_content)

    def on_pre_compress(self, messages: list[dict[str, Any]]) -> str:
        return self._bridge.pre_compress()

    # --- tools ----------------------------------------------------------------------

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return hermes_tool_schemas()

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        return json.dumps(self._bridge.call_tool(tool_name, args), ensure_ascii=False)

    def on_memory_write(
        self,
        action: str,
        target: str,
        content: str,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        old_text = (metadata or {}).get("old_text")
        try:
            self._bridge.mirror_write(action, target, content, str(old_text) if old_text else None)
        except Exception as e:  # Hermes only logs it at debug level
            log.warning("Ekko could not mirror a built-in memory write: %s", e)

    # --- setup ----------------------------------------------------------------------

    def get_config_schema(self) -> list[dict[str, Any]]:
        """What ``hermes memory setup`` asks (saved under ``memory.ekko`` in config.yaml)."""
        return [
            {
                "key": "workspace",
                "description": "Folder of the workspace store (conversations, project "
                "memories); blank: $HERMES_HOME/ekko/hermes. $EKKO_WORKSPACE overrides it",
                "default": "",
            },
            {
                "key": "user_home",
                "description": "Folder of the user store (your long-term memories, shared "
                "with other agents using Ekko). $EKKO_HOME overrides it",
                "default": "~/.ekko",
            },
            {
                "key": "extraction",
                "description": "Who extracts memories after each reply: ekko (Ekko's own "
                "setting: the endpoint below, else local rules), hermes (the model Hermes "
                "chats with), rules (local rules only, no model call)",
                "default": "ekko",
                "choices": list(EXTRACTIONS),
            },
            {
                "key": "llm_base_url",
                "description": "OpenAI-compatible endpoint for extraction (blank: local rules)",
                "env_var": "EKKO_LLM_BASE_URL",
                "when": {"extraction": "ekko"},
            },
            {
                "key": "llm_model",
                "description": "Model name at that endpoint",
                "env_var": "EKKO_LLM_MODEL",
                "when": {"extraction": "ekko"},
            },
            {
                "key": "llm_api_key",
                "description": "API key for that endpoint",
                "secret": True,
                "env_var": "EKKO_LLM_API_KEY",
                "when": {"extraction": "ekko"},
            },
            {
                "key": "prefetch_tokens",
                "description": "Token budget of the memories added to each user message",
                "default": str(DEFAULT_PREFETCH_TOKENS),
            },
        ]

    def save_config(self, values: dict[str, Any], hermes_home: str) -> None:
        """Write ``memory.ekko`` in config.yaml (the endpoint fields go to .env, where
        Hermes's setup puts them and Ekko reads them)."""
        kept = {k: v for k, v in values.items() if not k.startswith("llm_")}

        def change(data: Any) -> bool:
            memory = hermes_config.section(data, "memory")
            ekko = hermes_config.section(memory, PROVIDER_NAME)
            ekko.update(kept)
            return True

        hermes_config.edit_config(hermes_config.config_path(hermes_home), change)

    def post_setup(self, hermes_home: str, config: dict[str, Any]) -> None:
        """``hermes memory setup ekko``: ask the settings of ``get_config_schema`` (Hermes
        walks them only from its picker), save them and select ``ekko``."""
        memory = config.get("memory") if isinstance(config, dict) else None
        current = memory.get(PROVIDER_NAME) if isinstance(memory, dict) else None
        print("\n  Ekko Memory: local, auditable long-term memory (Enter keeps a value)\n")
        answers = setup_wizard.ask_all(
            self.get_config_schema(), current if isinstance(current, dict) else {}
        )
        setup_wizard.save(Path(hermes_home), answers)
        settings, _ = HermesSettings.from_mapping({**(current or {}), **answers.settings})
        workspace = settings.workspace_dir(
            hermes_home=hermes_home, agent_workspace=HERMES_WORKSPACE
        )
        home = settings.user_home_dir(hermes_home=hermes_home) or default_user_home()
        print(f"\n  Memory provider: {PROVIDER_NAME} (saved to config.yaml)")
        print(f"  Workspace store: {workspace / '.ekko' / 'memory.db'}")
        print(f"  User store:      {home / 'memory.db'}")
        print("  Start a new session to use it.\n")

    def backup_paths(self) -> list[str]:
        """The folders of the two stores (resolved from settings, without initialize)."""
        home = self._hermes_home or _hermes_home()
        return self._bridge.backup_folders(
            hermes_home=home, agent_workspace=self._agent_workspace or HERMES_WORKSPACE
        )


def user_words(message: Any) -> str | None:
    """The user's own words of a turn: a skill invocation carries the skill's whole text
    around them (None: a bare invocation, nothing the user said)."""
    if not isinstance(message, str):
        return None
    try:
        from agent.skill_commands import extract_user_instruction_from_skill_message
    except ImportError:  # an older Hermes
        return message
    words = extract_user_instruction_from_skill_message(message)
    return words if isinstance(words, str) else None


def hermes_llm() -> LlmConfig | None:
    """The chat-completions endpoint Hermes is configured with (None when it has none or
    speaks another API: Anthropic messages, Codex responses…)."""
    try:
        from hermes_cli.config import load_config
        from hermes_cli.runtime_provider import resolve_runtime_provider

        runtime = resolve_runtime_provider()
        if runtime.get("api_mode") not in (None, "chat_completions"):
            return None
        model_cfg = load_config().get("model")
        if isinstance(model_cfg, dict):
            model = model_cfg.get("default") or model_cfg.get("model")
        else:
            model = model_cfg
        base_url = runtime.get("base_url")
        if not base_url or not model:
            return None
        return LlmConfig(
            base_url=str(base_url), model=str(model), api_key=runtime.get("api_key") or None
        )
    except Exception as e:  # no provider configured, a credential that cannot be read...
        log.warning("Ekko cannot use Hermes's model for extraction: %s", e)
        return None


def _hermes_home() -> str | None:
    try:
        from hermes_constants import get_hermes_home

        return str(get_hermes_home())
    except Exception:
        return None


def _text(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None
