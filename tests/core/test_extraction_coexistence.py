"""Background extraction beside the agent's own writes, and when a store cannot be written.

- A store that is locked while the extraction's operations are applied leaves the messages
  to be extracted again (nothing lost), and the later run writes each memory once.
- The extractor does not copy what the agent already wrote from the same message, and never
  lets an older message's value replace a newer one (docs/extraction.md).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ekko_memory import MemoryService, open_memory
from tests.core.conftest import Clock
from tests.core.helpers import COOKING, every_node, flavor, propose

# --- a locked store during extraction ------------------------------------------------


@pytest.fixture
def quick_mem(
    tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> Iterator[MemoryService]:
    """SQLite files whose busy timeout is short, so a held lock fails a write quickly."""
    from ekko_memory.store import sqlite_dialect

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    mem.clock = clock
    yield mem
    mem.close()


@pytest.mark.sqlite_only(reason="a second connection holds the user store's file lock")
def test_a_locked_user_store_loses_nothing_and_writes_each_memory_once(
    quick_mem: MemoryService, tmp_path: Path, clock: Clock
) -> None:
    mem = quick_mem
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    # One workspace memory (written at once) and two user memories (the store is locked).
    s.append_message(
        "user", "我们数据库决定用 PostgreSQL。以后做饭别给我推荐香菜，我喜欢少油少辣。"
    )
    s.append_message("assistant", "好的。")
    blocker = sqlite3.connect(tmp_path / "home" / "memory.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        locked = s.after_reply()
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert [o["status"] for o in locked.outcomes] == ["created"]  # the decision, workspace
    assert len(locked.queued_jobs) == 1 and "unavailable" in locked.errors[-1]
    assert mem.user_store.list_active_nodes(limit=10) == []

    # The lock is gone: the next run reads the same messages again.
    again = s.after_reply()
    assert sorted(o["status"] for o in again.outcomes) == ["created", "created", "duplicate"]
    user = {n.key: n.value_json for n in mem.user_store.list_active_nodes(limit=10)}
    assert user == {"avoid_ingredient": "香菜", "flavor_profile": {"oil": "low", "spicy": "low"}}

    # The queued job finds nothing left to do and leaves the queue.
    clock.advance(minutes=5)
    retried = mem.retry_failed_work()
    assert len(retried.retried_jobs) == 1 and retried.outcomes == []
    with mem.workspace_store.read() as r:
        assert r.count_jobs() == 0
    assert sorted((n.key, n.status) for n in every_node(mem)) == [
        ("avoid_ingredient", "active"),
        ("database", "active"),
        ("flavor_profile", "active"),
    ]


@pytest.mark.sqlite_only(reason="a second connection holds the user store's file lock")
def test_the_retry_job_extracts_what_a_lock_held_back(
    quick_mem: MemoryService, tmp_path: Path, clock: Clock
) -> None:
    mem = quick_mem
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，我以后做饭不要香菜。")
    blocker = sqlite3.connect(tmp_path / "home" / "memory.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        assert s.after_reply().queued_jobs
        clock.advance(minutes=5)
        still = mem.retry_failed_work()  # locked again: backs off, keeps the messages
        assert still.retried_jobs == [] and still.errors
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    clock.advance(hours=1)
    retried = mem.retry_failed_work()
    assert len(retried.retried_jobs) == 1
    [node] = mem.user_store.list_active_nodes(limit=10)
    assert node.value_json == "香菜"


# --- the agent's writes and the extractor ----------------------------------------------


def test_extraction_does_not_copy_what_the_agent_wrote_from_the_same_message(
    mem: MemoryService,
) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    cat = {
        "scope": "user",
        "domain": "生活",
        "type": "fact",
        "title": "用户的猫叫咪咪",
        "content": "用户养了一只猫，名字叫咪咪。",
        "entities": ["咪咪"],
    }
    indent = {
        "scope": "workspace",
        "domain": "项目",
        "type": "constraint",
        "title": "代码缩进用 4 个空格",
        "content": "这个项目的代码缩进用 4 个空格。",
    }
    written = []
    for says, node in (
        ("记住，我的猫叫咪咪。", cat),
        ("记住，这个项目的代码缩进用 4 个空格。", indent),
    ):
        result = propose(s, says, **node)
        assert result["status"] == "created", result
        written.append(result["nodeId"])
        s.append_message("assistant", "记住了。")
        report = s.after_reply()
        assert [(o["status"], o.get("nodeId")) for o in report.outcomes] == [
            ("duplicate", result["nodeId"])
        ], report
    assert sorted(n.id for n in every_node(mem)) == sorted(written)


def test_the_extractor_adds_only_what_the_agent_left_out(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    # The message says two things; the agent records one of them, in its own words.
    result = propose(
        s,
        "以后做饭别给我推荐香菜，我喜欢少油少辣。",
        scope="user",
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        title="不吃香菜",
        content="做饭不要放香菜",
    )
    assert result["status"] == "created", result
    s.after_reply()
    nodes = every_node(mem)
    assert len(nodes) == 2
    [extracted] = [n for n in nodes if n.id != result["nodeId"]]
    assert extracted.key == "flavor_profile"


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("Remember: no cilantro please, and I prefer less spicy food.", "cilantro"),
        ("记住，以后做饭别放芫荽，我喜欢少油少辣。", "芫荽"),
    ],
)
def test_the_agents_word_for_an_ingredient_is_the_same_statement(
    mem: MemoryService, message: str, said: str
) -> None:
    """The agent keeps the user's word (cilantro, 芫荽); the extractor files the same
    ingredient as 香菜: one memory, not two."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    result = propose(
        s,
        message,
        scope="user",
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        key="avoid_ingredient",
        valueJson=said,
        title=f"User avoids {said}",
        entities=[said],
    )
    assert result["status"] == "created", result
    s.after_reply()
    avoid = [n for n in every_node(mem) if n.key == "avoid_ingredient"]
    assert [n.id for n in avoid] == [result["nodeId"]]
    assert [n.key for n in every_node(mem) if n.id != result["nodeId"]] == ["flavor_profile"]


def test_an_older_message_never_replaces_the_agents_newer_value(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "以后都少辣。")  # the agent records nothing for this one
    newer = propose(s, "记住，从现在起我喜欢重辣。", **flavor({"spicy": "high"}, "重辣"))
    assert newer["status"] == "created", newer
    report = s.after_reply()
    assert {o["status"] for o in report.outcomes} == {"rejected", "duplicate"}, report
    assert any(o.get("rule") == "outdated" for o in report.outcomes)
    [node] = [n for n in every_node(mem) if n.key == "flavor_profile"]
    assert node.id == newer["nodeId"] and node.status == "active"
    assert [e.actor for e in mem.history(node.id).audit] == ["agent"]


def test_re_extraction_leaves_the_agents_chain_alone(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    low = propose(s, "以后都少辣。", **flavor({"spicy": "low"}, "少辣"))
    high = propose(s, "从现在起我喜欢重辣。", **flavor({"spicy": "high"}, "重辣"))
    assert (low["status"], high["status"]) == ("created", "superseded"), (low, high)
    report = s.after_reply()
    assert {o["status"] for o in report.outcomes} == {"duplicate"}, report
    chain = mem.chain(high["nodeId"])
    assert [n.id for n in chain] == [low["nodeId"], high["nodeId"]]
    assert all(e.actor == "agent" for n in chain for e in mem.history(n.id).audit)


def test_a_later_message_still_replaces_an_earlier_memory(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    low = propose(s, "以后都少辣。", **flavor({"spicy": "low"}, "少辣"))
    s.after_reply()
    s.append_message("user", "其实我现在喜欢重辣了，记住。")
    report = s.after_reply()
    assert [o["status"] for o in report.outcomes] == ["superseded"], report
    head = mem.head_of(low["nodeId"])
    assert head.value_json == {"spicy": "high"} and head.supersedes_id == low["nodeId"]
