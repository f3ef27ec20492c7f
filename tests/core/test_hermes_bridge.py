"""The Hermes provider's logic (integrations/hermes/bridge.py), without Hermes: what a
turn shows, what it logs, whose words count as intent, mirrored built-in writes, other
agent contexts, threads, and a memory that cannot be used. Hermes itself drives the same
code in tests/hermes/."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ekko_memory import MemoryService, open_memory
from ekko_memory.integrations.hermes.bridge import (
    HermesBridge,
    StartInfo,
    hermes_tool_schemas,
)
from ekko_memory.integrations.hermes.settings import HermesSettings
from ekko_memory.integrations.hermes.shared_memory import SharedMemories

NO_CILANTRO = {
    "operation": "create",
    "reason": "用户要求记住",
    "node": {
        "domain": "生活技能",
        "type": "preference",
        "key": "avoid_ingredient",
        "valueJson": "香菜",
        "title": "做饭不要香菜",
        "content": "用户做饭不要香菜",
        "scope": "user",
    },
}


def bridge_on(mem: MemoryService, session_id: str = "h1", **info: str) -> HermesBridge:
    bridge = HermesBridge(HermesSettings())
    bridge.start(StartInfo(session_id=session_id, **info), memory=mem)  # type: ignore[arg-type]
    return bridge


def turn(bridge: HermesBridge, user: str, reply: str) -> str:
    """One Hermes turn as Hermes calls it (no tool calls): its injected context."""
    bridge.begin_turn(user)
    shown = bridge.prefetch(user)
    bridge.sync_turn(user, reply)
    return shown


def log_of(mem: MemoryService, session_id: str) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in mem.list_recent_messages(session_id, 50)]


def remember_cilantro(mem: MemoryService) -> None:
    bridge = bridge_on(mem, "earlier")
    bridge.begin_turn("记住，我以后做饭不要香菜。")
    assert bridge.call_tool("memory_propose_update", NO_CILANTRO)["accepted"] is True
    bridge.sync_turn("记住，我以后做饭不要香菜。", "好的，记住了。")
    bridge.shutdown()


def test_the_tools_offered_to_hermes_take_no_user_message() -> None:
    schemas = hermes_tool_schemas()
    assert [s["name"] for s in schemas] == [
        "memory_search",
        "memory_get",
        "memory_propose_update",
        "memory_forget",
    ]
    for schema in schemas:
        assert "type" not in schema or schema["type"] != "function"  # bare, not wrapped
        assert "userMessage" not in schema["parameters"]["properties"]


def test_every_section_of_the_context_is_shown_once() -> None:
    """Whatever section of the context a memory sits in, once shown it is not shown
    again (the sections are read from MemoryContext: a new one is covered too)."""
    from ekko_memory.integrations.hermes.prefetch import NODE_SECTIONS, render_unseen
    from ekko_memory.models import MemoryContext
    from tests.core.factories import make_node

    nodes = {
        name: make_node(title=f"记忆{i}：{name}", content=f"内容{i}", value_json=f"值{i}")
        for i, name in enumerate(NODE_SECTIONS)
    }
    context = MemoryContext(**{name: [node] for name, node in nodes.items()})
    text, ids = render_unseen(context, set(), 2000)
    assert sorted(ids) == sorted(n.id for n in nodes.values()), text
    assert all(f"内容{i}" in text for i in range(len(nodes)))
    assert render_unseen(context, set(ids), 2000) == ("", [])
    # The budget cuts: what did not fit is not counted as shown.
    small, some = render_unseen(context, set(), 40)
    assert 0 < len(some) < len(nodes) and small


def test_a_remembered_preference_is_shown_once_per_session(mem: MemoryService) -> None:
    remember_cilantro(mem)
    bridge = bridge_on(mem, "h2")
    first = turn(bridge, "今晚吃什么？", "番茄炒蛋。")
    assert "香菜" in first
    # Hermes keeps the first turn's <memory-context> in the history: not again.
    assert "香菜" not in turn(bridge, "那明天中午做什么菜？", "青椒炒肉。")
    # Another session has not seen it.
    bridge.switch_session("h3")
    assert "香菜" in turn(bridge, "晚饭做什么？", "清蒸鱼。")
    # The transcript was cut (/undo): what it showed may be gone, so it shows again.
    bridge.switch_session("h3", rewound=True)
    assert "香菜" in turn(bridge, "晚饭做什么好？", "排骨汤。")
    # The reply records what its turn showed.
    replies = [m for m in mem.list_recent_messages("h2", 10) if m.role == "assistant"]
    used = [(m.metadata or {}).get("usedMemoryIds") for m in replies]
    assert len(used[0]) == 1 and used[1] == [], used
    bridge.shutdown()


def test_a_resumed_session_does_not_show_again_what_it_showed_before(
    mem: MemoryService,
) -> None:
    remember_cilantro(mem)
    first = bridge_on(mem, "h2")
    assert "香菜" in turn(first, "今晚吃什么？", "番茄炒蛋。")
    first.shutdown()
    # A new Hermes process resumes h2: its history holds the earlier context.
    again = bridge_on(mem, "h2")
    assert "香菜" not in turn(again, "今晚吃什么菜？", "土豆丝。")
    again.shutdown()


def test_a_turn_is_logged_with_its_reply_and_extracted(mem: MemoryService) -> None:
    bridge = bridge_on(mem)
    turn(bridge, "记住，我以后做饭不要香菜。", "好的，记住了。")
    assert log_of(mem, "h1") == [
        ("user", "记住，我以后做饭不要香菜。"),
        ("assistant", "好的，记住了。"),
    ]
    user, reply = mem.list_recent_messages("h1", 2)
    assert reply.parent_id == user.id
    assert mem.background.wait_idle(10)
    node = mem.get_node(
        next(n.id for n in mem.list_active_nodes(limit=20) if n.value_json == "香菜")
    )
    assert node is not None and node.scope == "user" and node.source_message_ids == [user.id]
    bridge.shutdown()


def test_intent_comes_from_the_logged_message_never_from_the_model(mem: MemoryService) -> None:
    bridge = bridge_on(mem)
    bridge.begin_turn("今晚吃什么？")
    # The model claims the user asked to remember: the user's logged words did not.
    result = bridge.call_tool(
        "memory_propose_update", {**NO_CILANTRO, "userMessage": "记住，我以后做饭不要香菜。"}
    )
    assert result["accepted"] is False and result["status"] == "pending", result
    assert log_of(mem, "h1") == [("user", "今晚吃什么？")]
    # And no tool call can approve it.
    denied = bridge.call_tool("memory_get", {"pendingId": result["pendingId"], "approve": True})
    assert denied["error"]["code"] == "permission_denied"
    assert [p.status for p in mem.pending()] == ["pending"]
    # The user's own words, logged by Hermes before the write, are explicit.
    bridge.sync_turn("今晚吃什么？", "番茄炒蛋。")
    bridge.begin_turn("记住，我以后做饭不要香菜。")
    assert bridge.call_tool("memory_propose_update", NO_CILANTRO)["accepted"] is True
    bridge.shutdown()


def test_a_late_reply_keeps_the_log_in_conversation_order(mem: MemoryService) -> None:
    """Hermes logs a turn's reply on its background worker; the next turn's first write
    (on the agent's thread) waits for it rather than logging ahead of it."""
    bridge = bridge_on(mem)
    bridge.begin_turn("今晚吃什么？")
    bridge.prefetch("今晚吃什么？")
    bridge.begin_turn("记住，我以后做饭不要香菜。")  # the next turn began before the sync
    late = threading.Timer(0.3, bridge.sync_turn, ("今晚吃什么？", "番茄炒蛋。"))
    late.start()
    assert bridge.call_tool("memory_propose_update", NO_CILANTRO)["accepted"] is True
    late.join()
    bridge.sync_turn("记住，我以后做饭不要香菜。", "记住了。")
    assert [c for _, c in log_of(mem, "h1")] == [
        "今晚吃什么？",
        "番茄炒蛋。",
        "记住，我以后做饭不要香菜。",
        "记住了。",
    ]
    bridge.shutdown()


def test_an_interrupted_turn_is_dropped_and_the_next_one_logged(mem: MemoryService) -> None:
    bridge = bridge_on(mem)
    bridge.begin_turn("写一首很长的诗")  # interrupted: Hermes never syncs it
    turn(bridge, "今晚吃什么？", "番茄炒蛋。")
    turn(bridge, "谢谢", "不客气。")
    assert [c for _, c in log_of(mem, "h1")] == ["今晚吃什么？", "番茄炒蛋。", "谢谢", "不客气。"]
    bridge.shutdown()


@pytest.mark.parametrize("context", ["cron", "subagent", "flush"])
def test_other_agent_contexts_read_but_write_nothing(mem: MemoryService, context: str) -> None:
    remember_cilantro(mem)
    bridge = bridge_on(mem, "job", agent_context=context)
    assert "香菜" in turn(bridge, "今晚吃什么？", "番茄炒蛋。")
    assert (
        bridge.call_tool("memory_search", {"queryText": "香菜"})["exact"]
        or bridge.call_tool("memory_search", {"queryText": "香菜"})["relevant"]
    )
    refused = bridge.call_tool("memory_propose_update", NO_CILANTRO)
    assert refused["error"]["code"] == "permission_denied" and context in refused["reason"]
    bridge.mirror_write("add", "user", "用户喜欢喝咖啡", None)
    bridge.end_session()
    assert log_of(mem, "job") == []
    assert mem.pending() == []
    bridge.shutdown()


def test_built_in_memory_writes_are_mirrored_under_the_same_rules(mem: MemoryService) -> None:
    bridge = bridge_on(mem)
    bridge.begin_turn("我们聊聊咖啡")
    bridge.mirror_write("add", "user", "用户每天早上喝一杯美式咖啡", None)
    # The user did not ask to remember: their long-term memory waits for them.
    (item,) = mem.pending()
    assert item.node is not None and item.node["content"] == "用户每天早上喝一杯美式咖啡"
    assert item.node["scope"] == "user" and item.node["tags"] == ["hermes"]
    # The agent's own notes (MEMORY.md) are the workspace's: written.
    bridge.mirror_write("add", "memory", "这个项目用 uv 管理依赖", None)
    note = next(n for n in mem.list_active_nodes(limit=20) if "uv" in n.content)
    assert note.scope == "workspace" and note.domain == "项目"
    bridge.mirror_write("replace", "memory", "这个项目用 poetry 管理依赖", "用 uv 管理")
    active = [n.content for n in mem.list_active_nodes(limit=20) if "管理依赖" in n.content]
    assert active == ["这个项目用 poetry 管理依赖"]
    assert mem.history(note.id).chain[-1].content == "这个项目用 poetry 管理依赖"
    bridge.mirror_write("remove", "memory", "", "poetry")
    assert not [n for n in mem.list_active_nodes(limit=20) if "管理依赖" in n.content]
    # Every mirrored write rests on the user's logged message.
    assert log_of(mem, "h1") == [("user", "我们聊聊咖啡")]
    bridge.shutdown()


def test_the_session_end_closes_the_summary_with_its_last_turn(mem: MemoryService) -> None:
    bridge = bridge_on(mem)
    turn(bridge, "今晚吃什么？", "番茄炒蛋。")
    bridge.begin_turn("那明天呢？")
    bridge.prefetch("那明天呢？")
    # At exit Hermes ends the session before its worker has synced the last turn.
    bridge.end_session()
    summary = mem.get_latest_summary("h1")
    assert summary is not None and "番茄炒蛋" in summary.summary
    assert "番茄炒蛋" in bridge.pre_compress()
    bridge.sync_turn("那明天呢？", "清蒸鱼。")
    summary = mem.get_latest_summary("h1")
    assert summary is not None and "清蒸鱼" in summary.summary
    # A session that goes on after Hermes compressed it goes back to background work.
    turn(bridge, "后天呢？", "排骨汤。")
    assert mem.background.wait_idle(10)
    bridge.shutdown()


def test_three_threads_at_once(mem: MemoryService) -> None:
    """As Hermes runs a conversation: each turn's prefetch on a thread of its own, the
    tool calls on the agent's thread, each turn's sync on one background worker while
    the next turn already runs."""
    remember_cilantro(mem)
    bridge = bridge_on(mem)
    worker = ThreadPoolExecutor(max_workers=1)
    shown: list[str] = []
    results = []
    turns = 15
    for i in range(turns):
        text = f"第{i}轮：今晚吃什么？" if i % 3 else f"第{i}轮：记住，我不吃葱。"
        bridge.begin_turn(text)
        prefetch = threading.Thread(target=lambda t=text: shown.append(bridge.prefetch(t)))
        prefetch.start()
        prefetch.join(10)
        results.append(bridge.call_tool("memory_search", {"queryText": "香菜"}))
        if i % 3 == 0:
            results.append(
                bridge.call_tool(
                    "memory_propose_update",
                    {
                        **NO_CILANTRO,
                        "node": {
                            **NO_CILANTRO["node"],
                            "valueJson": "葱",
                            "title": "做饭不要葱",
                            "content": "用户做饭不要葱",
                        },
                    },
                )
            )
        worker.submit(bridge.sync_turn, text, f"回答{i}")
    worker.shutdown(wait=True)
    assert all("error" not in r for r in results), [r for r in results if "error" in r]
    assert sum("香菜" in s for s in shown) == 1
    assert sum("不要葱" in s for s in shown) == 1
    log = log_of(mem, "h1")
    assert [role for role, _ in log] == ["user", "assistant"] * turns
    assert [c for _, c in log[1::2]] == [f"回答{i}" for i in range(turns)]
    bridge.shutdown()


@pytest.mark.sqlite_only(reason="a corrupt SQLite file")
def test_a_corrupt_workspace_store_gives_an_empty_prefetch_and_clear_errors(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ws = tmp_path / "ws"
    (ws / ".ekko").mkdir(parents=True)
    (ws / ".ekko" / "memory.db").write_bytes(b"not a database" * 4000)
    bridge = HermesBridge(HermesSettings(workspace=str(ws), user_home=str(tmp_path / "home")))
    with caplog.at_level(logging.WARNING, logger="ekko_memory.hermes"):
        bridge.start(StartInfo(session_id="h1"))
        assert turn(bridge, "今晚吃什么？", "番茄炒蛋。") == ""
        note = {"scope": "workspace", "domain": "项目", "type": "fact", "content": "用 uv"}
        result = bridge.call_tool("memory_propose_update", {**NO_CILANTRO, "node": note})
        found = bridge.call_tool("memory_search", {"queryText": "香菜"})
    assert result["accepted"] is False and "error" in result, result
    assert any("workspace store" in w for w in found["warnings"]), found
    said = caplog.text
    assert "workspace store is disabled" in said and "not a readable" in said
    bridge.shutdown()


def test_a_memory_that_cannot_open_answers_every_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from ekko_memory.integrations.hermes import bridge as bridge_module

    def refuse(*args: object, **kwargs: object) -> MemoryService:
        raise PermissionError(13, "Permission denied", str(tmp_path / "ws"))

    monkeypatch.setattr(bridge_module, "open_memory", refuse)
    bridge = HermesBridge(HermesSettings(workspace=str(tmp_path / "ws")), memories=SharedMemories())
    with caplog.at_level(logging.WARNING, logger="ekko_memory.hermes"):
        bridge.start(StartInfo(session_id="h1"))
    assert "Ekko memory is unavailable: PermissionError" in caplog.text
    assert turn(bridge, "今晚吃什么？", "番茄炒蛋。") == ""
    for name in ("memory_search", "memory_propose_update"):
        result = bridge.call_tool(name, {"queryText": "香菜"})
        assert result["error"]["code"] == "store_unavailable", result
        assert "Ekko memory is unavailable: PermissionError" in result["reason"]
    assert "unavailable" in bridge.system_prompt()
    bridge.mirror_write("add", "user", "用户喜欢喝咖啡", None)
    bridge.end_session()
    assert bridge.pre_compress() == ""
    bridge.shutdown()


@pytest.mark.sqlite_only(reason="SQLite's busy timeout")
def test_a_locked_workspace_store_fails_writes_clearly_and_reads_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ekko_memory.store import sqlite_dialect

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.delenv("EKKO_HOME")  # the setting names the user store
    remember_mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    remember_cilantro(remember_mem)
    remember_mem.close()
    bridge = HermesBridge(
        HermesSettings(workspace=str(tmp_path / "ws"), user_home=str(tmp_path / "home"))
    )
    bridge.start(StartInfo(session_id="h1"))
    blocker = sqlite3.connect(tmp_path / "ws" / ".ekko" / "memory.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program writes
    try:
        bridge.begin_turn("今晚吃什么？")
        assert "香菜" in bridge.prefetch("今晚吃什么？")  # reads are not blocked
        result = bridge.call_tool(
            "memory_propose_update",
            {**NO_CILANTRO, "node": {**NO_CILANTRO["node"], "scope": "session"}},
        )
        bridge.sync_turn("今晚吃什么？", "番茄炒蛋。")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert result["accepted"] is False and "locked" in result["reason"], result
    bridge.shutdown()


@pytest.fixture
def shared() -> Iterator[SharedMemories]:
    yield SharedMemories()


def test_agents_of_one_process_share_one_open_memory(
    tmp_path: Path, shared: SharedMemories, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EKKO_HOME")
    settings = HermesSettings(workspace=str(tmp_path / "ws"), user_home=str(tmp_path / "home"))
    one, two = HermesBridge(settings, memories=shared), HermesBridge(settings, memories=shared)
    one.start(StartInfo(session_id="chat-1"))
    two.start(StartInfo(session_id="chat-2"))
    assert one._mem is two._mem
    memory = one._mem
    assert memory is not None
    one.shutdown()
    assert memory.workspace_store.health.status == "ok"  # still used by the other agent
    turn(two, "今晚吃什么？", "番茄炒蛋。")
    two.shutdown()
    assert shared._open == {}
    reopened = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    assert [c for _, c in log_of(reopened, "chat-2")] == ["今晚吃什么？", "番茄炒蛋。"]
    reopened.close()
