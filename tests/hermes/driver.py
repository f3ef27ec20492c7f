"""Runs inside hermes-agent's own environment (build/hermes-venv): Hermes's real loader
and its real ``AIAgent`` loop, driven by the tests one JSON command per line on stdin,
one JSON answer per line on the original stdout (Hermes's own output goes to stderr).

    {"op": "discover"}                         Hermes's loaders on $HERMES_HOME
    {"op": "agent", "session": "s1", "env": {...}, "ekko": {...}, "busy_timeout_ms": 300}
                                               a new AIAgent (the previous one ended)
    {"op": "turn", "text": "..."}              one user turn; the messages after it
    {"op": "end"}                              Hermes's session end (provider shutdown)
    {"op": "exit"}

Standard library and Hermes only: no test framework in this environment.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

ANSWERS = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
os.dup2(2, 1)  # whatever Hermes prints goes to stderr
sys.stdout = sys.stderr


from ekko_memory.store.sqlite_dialect import BUSY_TIMEOUT_MS  # noqa: E402


class Driver:
    def __init__(self, llm_url: str) -> None:
        self.llm_url = llm_url
        self.agent: Any = None
        self.history: list[dict[str, Any]] = []

    def discover(self, _: dict[str, Any]) -> dict[str, Any]:
        from hermes_cli.plugins import get_plugin_manager
        from plugins.memory import discover_memory_providers, load_memory_provider

        found = {name: available for name, _, available in discover_memory_providers()}
        provider = load_memory_provider("ekko")
        manager = get_plugin_manager()
        manager.discover_and_load(force=True)
        listed = {p["name"]: p for p in manager.list_plugins()}
        return {
            "providers": found,
            "class": f"{type(provider).__module__}.{type(provider).__qualname__}",
            "bases": [f"{b.__module__}.{b.__qualname__}" for b in type(provider).__mro__],
            "name": provider.name,
            "available": provider.is_available(),
            "tools": [t["name"] for t in provider.get_tool_schemas()],
            "backup_paths": provider.backup_paths(),
            "plugin_manager": {
                k: listed.get("ekko", {}).get(k) for k in ("kind", "enabled", "error")
            },
        }

    def agent_op(self, cmd: dict[str, Any]) -> dict[str, Any]:
        self.end({})
        for key, value in cmd.get("env", {}).items():
            os.environ[key] = value
        from ekko_memory.store import sqlite_dialect

        # A test of a locked store need not wait Ekko's full 10 s busy timeout per write.
        sqlite_dialect.BUSY_TIMEOUT_MS = int(cmd.get("busy_timeout_ms", BUSY_TIMEOUT_MS))
        self._ekko_settings(cmd.get("ekko", {}))
        from run_agent import AIAgent

        self.agent = AIAgent(
            base_url=self.llm_url,
            api_key="sk-scripted",
            provider="custom",
            model="scripted",
            quiet_mode=True,
            skip_context_files=True,
            session_id=cmd["session"],
            max_iterations=8,
        )
        self.history = []
        manager = self.agent._memory_manager
        return {
            "providers": [p.name for p in manager.providers] if manager else [],
            "tools": sorted(t["function"]["name"] for t in self.agent.tools),
        }

    def _ekko_settings(self, values: dict[str, Any]) -> None:
        """memory.ekko in config.yaml, as `hermes memory setup` leaves it (through the
        provider's own save_config)."""
        from ekko_memory.integrations.hermes import hermes_config
        from ekko_memory.integrations.hermes.provider import EkkoMemoryProvider

        home = os.environ["HERMES_HOME"]

        def clear(data: Any) -> bool:
            hermes_config.section(data, "memory").pop("ekko", None)
            return True

        hermes_config.edit_config(hermes_config.config_path(home), clear)
        if values:
            EkkoMemoryProvider(config={}).save_config(values, home)

    def turn(self, cmd: dict[str, Any]) -> dict[str, Any]:
        result = self.agent.run_conversation(cmd["text"], conversation_history=self.history)
        before = len(self.history)
        self.history = result["messages"]
        return {
            "final": result.get("final_response"),
            "messages": _plain(self.history[before:]),
        }

    def end(self, _: dict[str, Any]) -> dict[str, Any]:
        if self.agent is not None:
            self.agent.shutdown_memory_provider(self.history)
            self.agent = None
        return {}


def _plain(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keep = ("role", "content", "tool_calls", "tool_call_id", "name")
    return [{k: m.get(k) for k in keep if m.get(k) is not None} for m in messages]


def main() -> None:
    driver = Driver(sys.argv[1])
    ops = {
        "discover": driver.discover,
        "agent": driver.agent_op,
        "turn": driver.turn,
        "end": driver.end,
    }
    ANSWERS.write(json.dumps({"ready": True, "python": sys.executable}) + "\n")
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd["op"] == "exit":
            driver.end({})
            break
        try:
            answer = {"ok": ops[cmd["op"]](cmd)}
        except Exception:
            answer = {"error": traceback.format_exc()}
        ANSWERS.write(json.dumps(answer, ensure_ascii=False, default=str) + "\n")


if __name__ == "__main__":
    main()
