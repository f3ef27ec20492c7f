"""Ekko as the memory of the real Hermes Agent (hermes-agent from the package index):
installed by ``ekko-memory hermes install``, found by Hermes's own loader, driven by
Hermes's own ``AIAgent`` loop against a scripted model on loopback, all offline.
The test process reads the Ekko stores as the app does, while Hermes runs."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ekko_memory import MemoryNode, MemoryService, open_memory
from ekko_memory.integrations.hermes.hermes_config import read_config
from tests.hermes.conftest import Hermes
from tests.hermes.scripted_llm import ScriptedLLM, ToolCall

T = TypeVar("T")
EKKO_TOOLS = ["memory_search", "memory_get", "memory_propose_update", "memory_forget"]
CONTEXT = re.compile(r"<memory-context>(.*?)</memory-context>", re.S)


def stores(root: Path) -> MemoryService:
    """The stores a test's Hermes agents use, opened as the app opens them."""
    return open_memory(root / "ws", user_home=root / "home")


def eventually(read: Callable[[], T | None], seconds: float = 15.0) -> T:
    """``read()`` once it gives something (Hermes logs and extracts in the background)."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if value:
            return value
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)


def active(mem: MemoryService, value: str) -> list[MemoryNode]:
    return [n for n in mem.list_active_nodes(limit=100) if n.value_json == value]


def tool_results(turn: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(m["content"]) for m in turn["messages"] if m["role"] == "tool"]


def user_contents(request: dict[str, Any]) -> list[str]:
    return [str(m["content"]) for m in request["messages"] if m["role"] == "user"]


def test_hermes_finds_and_loads_the_installed_provider(hermes: Hermes, hermes_home: Path) -> None:
    found = hermes.send("discover")
    assert found["providers"]["ekko"] is True  # listed by Hermes, and available
    assert found["class"] == "ekko_memory.integrations.hermes.provider.EkkoMemoryProvider"
    assert "agent.memory_provider.MemoryProvider" in found["bases"]
    assert (found["name"], found["available"], found["tools"]) == ("ekko", True, EKKO_TOOLS)
    # `hermes backup` is told where the stores are (before any session: from settings).
    assert found["backup_paths"] == [
        str(hermes_home / "ekko" / "hermes" / ".ekko"),
        str(Path(os.environ["HOME"]).resolve() / ".ekko"),
    ]
    # Hermes's general plugin loader leaves it to the memory loader (no PluginContext error).
    assert found["plugin_manager"]["kind"] == "exclusive"
    config = hermes_home / "config.yaml"
    assert read_config(config)["memory"]["provider"] == "ekko"
    assert config.read_text(encoding="utf-8").startswith("# a user's Hermes settings")


def test_a_remembered_preference_reaches_the_model_in_a_new_session(
    hermes: Hermes, llm: ScriptedLLM, tmp_path: Path
) -> None:
    started = hermes.agent("cook-1", tmp_path)
    assert started["providers"] == ["ekko"]
    assert set(EKKO_TOOLS) <= set(started["tools"])
    llm.script("好的，以后做饭不放香菜。")
    said = hermes.send("turn", text="记住，我以后做饭不要香菜。")
    assert said["final"] == "好的，以后做饭不放香菜。"
    # While Hermes runs, the app's view of the stores has the turn and the memory.
    mem = stores(tmp_path)
    (node,) = eventually(lambda: active(mem, "香菜"))
    log = mem.list_recent_messages("cook-1", 10)
    assert [(m.role, m.content) for m in log] == [
        ("user", "记住，我以后做饭不要香菜。"),
        ("assistant", "好的，以后做饭不放香菜。"),
    ]
    assert node.scope == "user" and node.source_message_ids == [log[0].id]
    assert node.origin == "user_explicit"
    hermes.send("end")

    hermes.agent("cook-2", tmp_path)
    llm.script("今晚做番茄炒蛋吧，不放香菜。", "明天做清蒸鲈鱼。")
    hermes.send("turn", text="今晚吃什么？")
    system = str(llm.chats[0]["messages"][0]["content"])
    assert "# Ekko memory" in system and "memory_propose_update" in system
    first = user_contents(llm.chats[0])[-1]
    assert first.startswith("今晚吃什么？")
    (context,) = CONTEXT.findall(first)
    assert "香菜" in context
    hermes.send("turn", text="那明天呢？")
    asked = user_contents(llm.chats[1])
    # Not injected again: the first turn's context stays in the history Hermes replays.
    assert asked[-1] == "那明天呢？"
    assert "香菜" in CONTEXT.findall(asked[0])[0]
    hermes.send("end")
    replies = [m for m in mem.list_recent_messages("cook-2", 10) if m.role == "assistant"]
    assert [(r.metadata or {}).get("usedMemoryIds") for r in replies] == [[node.id], []]
    summary = mem.get_latest_summary("cook-2")  # the session's end closed its summary
    assert summary is not None and "清蒸鲈鱼" in summary.summary
    assert llm.unexpected == []
    mem.close()


def test_a_memory_search_tool_call_returns_ekkos_json(
    hermes: Hermes, llm: ScriptedLLM, tmp_path: Path
) -> None:
    mem = stores(tmp_path)
    earlier = mem.session("earlier")
    earlier.append_message("user", "记住，我以后做饭不要香菜。")
    earlier.after_reply()
    hermes.agent("search-1", tmp_path)
    llm.script(ToolCall("memory_search", {"queryText": "香菜"}), "你做饭不要香菜。")
    said = hermes.send("turn", text="我做饭有什么忌口吗？")
    (result,) = tool_results(said)
    found = [*result["exact"], *result["relevant"]]
    assert any(n["valueJson"] == "香菜" and n["scope"] == "user" for n in found), result
    assert {"exact", "relevant", "omitted"} <= set(result)
    # The model read exactly that JSON as the tool's answer.
    (sent,) = [m for m in llm.chats[1]["messages"] if m["role"] == "tool"]
    assert json.loads(sent["content"]) == result
    hermes.send("end")
    mem.close()


def test_a_proposal_without_intent_waits_and_no_tool_call_approves_it(
    hermes: Hermes, llm: ScriptedLLM, tmp_path: Path
) -> None:
    no_scallion = {
        "operation": "create",
        "reason": "用户不吃葱",
        "node": {
            "scope": "user",
            "domain": "生活技能",
            "type": "preference",
            "key": "avoid_ingredient",
            "valueJson": "葱",
            "title": "做饭不要葱",
            "content": "用户做饭不要葱",
        },
        # The model claims the user asked; Hermes logged what the user really said.
        "userMessage": "记住，我以后做饭不要葱。",
    }

    def approve(request: dict[str, Any]) -> ToolCall:
        # The model read the pendingId and tries to approve its own proposal.
        held = json.loads([m for m in request["messages"] if m["role"] == "tool"][-1]["content"])
        return ToolCall(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "用户同意了",
                "pendingId": held["pendingId"],
                "approve": True,
                "node": no_scallion["node"],
            },
        )

    hermes.agent("pending-1", tmp_path)
    llm.script(ToolCall("memory_propose_update", no_scallion), approve, "已提交，等你确认。")
    said = hermes.send("turn", text="今晚吃什么？")
    assert said["final"] == "已提交，等你确认。"
    held, refused = tool_results(said)
    assert held["accepted"] is False and held["status"] == "pending", held
    assert refused["error"]["code"] == "permission_denied", refused
    mem = stores(tmp_path)
    (item,) = mem.pending()
    assert item.id == held["pendingId"] and item.status == "pending"
    log = mem.list_recent_messages("pending-1", 10)
    assert log[0].content == "今晚吃什么？" and item.source_message_ids == [log[0].id]
    assert active(mem, "葱") == []
    hermes.send("end")
    # The user decides, in the app or the CLI.
    decided = mem.decide(item.id, approve=True, actor="user")
    assert [n.id for n in active(mem, "葱")] == [decided["nodeId"]]
    mem.close()


def test_a_built_in_memory_write_is_mirrored_into_ekko(
    hermes: Hermes, llm: ScriptedLLM, tmp_path: Path, hermes_home: Path
) -> None:
    started = hermes.agent("builtin-1", tmp_path)
    assert "memory" in started["tools"]  # Hermes's own MEMORY.md / USER.md tool
    coffee = "用户每天早上喝一杯美式咖啡"
    llm.script(
        ToolCall("memory", {"action": "add", "target": "user", "content": coffee}),
        "好的，我记下了。",
    )
    said = hermes.send("turn", text="我每天早上都喝一杯美式咖啡。")
    (wrote,) = tool_results(said)
    assert wrote.get("success") is True, wrote
    assert coffee in (hermes_home / "memories" / "USER.md").read_text(encoding="utf-8")
    mem = stores(tmp_path)
    # The user did not ask to remember it: in Ekko it waits for them, with its source
    # (beside whatever Ekko's own extraction made of the message).
    (item,) = [i for i in mem.pending() if i.node and "hermes" in i.node["tags"]]
    assert item.node is not None and item.node["content"] == coffee
    assert item.node["scope"] == "user"
    log = mem.list_recent_messages("builtin-1", 10)
    assert (
        item.source_message_ids == [log[0].id] and log[0].content == "我每天早上都喝一杯美式咖啡。"
    )
    hermes.send("end")
    mem.close()


def test_extraction_can_use_the_model_hermes_chats_with(
    hermes: Hermes, llm: ScriptedLLM, tmp_path: Path
) -> None:
    llm.json_replies = [
        {
            "summaryPatch": None,
            "nodes": [
                {
                    "operation": "create",
                    "reason": "用户要求记住",
                    "node": {
                        "scope": "user",
                        "domain": "生活技能",
                        "type": "preference",
                        "key": "avoid_ingredient",
                        "valueJson": "花生",
                        "title": "不吃花生（模型抽取）",
                        "content": "用户不吃花生。",
                    },
                }
            ],
        }
    ]
    hermes.agent("llm-1", tmp_path, ekko={"extraction": "hermes"})
    llm.script("好的，不放花生。")
    hermes.send("turn", text="记住，我不吃花生。")
    hermes.send("end")
    asked = [r for r in llm.json_requests if "extract" in r["messages"][0]["content"]]
    assert asked and asked[0]["model"] == "scripted"
    mem = stores(tmp_path)
    (node,) = active(mem, "花生")
    assert node.title == "不吃花生（模型抽取）" and node.origin == "user_explicit"
    mem.close()


def test_a_corrupt_ekko_store_leaves_the_hermes_turn_completing(
    hermes: Hermes, llm: ScriptedLLM, tmp_path: Path
) -> None:
    (tmp_path / "ws" / ".ekko").mkdir(parents=True)
    (tmp_path / "ws" / ".ekko" / "memory.db").write_bytes(b"not a database " * 4000)
    hermes.agent("broken-1", tmp_path)
    note = {
        "operation": "create",
        "reason": "项目约定",
        "node": {
            "scope": "workspace",
            "domain": "项目",
            "type": "constraint",
            "title": "提交前跑测试",
            "content": "每次提交前都要跑完整测试。",
        },
    }
    llm.script(
        ToolCall("memory_propose_update", note),
        ToolCall("memory_search", {"queryText": "测试"}),
        "好的，我知道了。",
    )
    said = hermes.send("turn", text="记住，这个项目每次提交前都要跑完整测试。")
    assert said["final"] == "好的，我知道了。"
    wrote, found = tool_results(said)
    assert wrote["accepted"] is False and "disabled" in wrote["error"]["message"], wrote
    assert any("workspace store" in w for w in found["warnings"]), found
    hermes.send("end")
    assert "Ekko's workspace store is disabled" in hermes.log()
    assert (tmp_path / "ws" / ".ekko" / "memory.db").read_bytes()[:15] == b"not a database "


def test_a_locked_ekko_store_leaves_the_hermes_turn_completing(
    hermes: Hermes, llm: ScriptedLLM, tmp_path: Path
) -> None:
    stores(tmp_path).close()
    hermes.agent("locked-1", tmp_path, busy_timeout_ms=300)
    blocker = sqlite3.connect(tmp_path / "ws" / ".ekko" / "memory.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        llm.script(
            ToolCall(
                "memory_propose_update",
                {
                    "operation": "create",
                    "reason": "今天的口味",
                    "node": {
                        "scope": "session",
                        "domain": "生活技能",
                        "type": "constraint",
                        "key": "flavor_profile",
                        "valueJson": {"spicy": "low"},
                        "title": "今天少辣",
                        "content": "今天做饭少放辣。",
                    },
                },
            ),
            "好的，今天少放辣。",
        )
        said = hermes.send("turn", text="今天做饭少放点辣。")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert said["final"] == "好的，今天少放辣。"
    (wrote,) = tool_results(said)
    assert wrote["accepted"] is False and "locked" in wrote["reason"], wrote
    hermes.send("end")
    assert "locked" in hermes.log()
