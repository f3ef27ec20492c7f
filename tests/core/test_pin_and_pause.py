"""What the user lets agents do: a pinned memory is read but never changed by an agent's
tool call or the extractor (reason code ``node.pinned``); paused memory is neither read
nor written by any agent entry point (``memory.paused``). The user's own actions work."""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory import MemoryService, PauseState
from ekko_memory.service.runtime import AgentRuntime
from tests.backends import Backend
from tests.core.helpers import every_node, propose
from tests.core.sample_data import CILANTRO

TOOLS_THAT_WRITE = ("memory_propose_update", "memory_forget")


def _cilantro(mem: MemoryService) -> tuple[Any, str]:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    res = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)
    assert res["accepted"], res
    return s, str(res["nodeId"])


def _refused_as_pinned(result: dict[str, Any], node_id: str) -> None:
    assert "error" in result, result
    assert result["error"]["code"] == "permission_denied", result
    assert result["error"]["reasonCode"] == "node.pinned", result
    assert result["error"]["reasonParams"] == {"id": node_id}


# --- pins -----------------------------------------------------------------------------


def test_every_agent_tool_call_that_would_change_a_pinned_memory_is_refused(
    mem: MemoryService,
) -> None:
    s, node_id = _cilantro(mem)
    assert mem.actions.pin(node_id) is True
    assert mem.actions.pin(node_id) is False  # already pinned: nothing changes
    assert mem.actions.is_pinned(node_id) and node_id in mem.actions.pinned()
    s.append_message("user", "记住，我现在可以吃香菜了，忘掉不吃香菜这件事。")
    calls: list[tuple[str, dict[str, Any]]] = [
        ("memory_propose_update", {"operation": op, "targetId": node_id, "reason": "r"})
        for op in ("expire", "delete")
    ]
    calls += [
        (
            "memory_propose_update",
            {
                "operation": op,
                "targetId": node_id,
                "reason": "r",
                "node": {"title": "用户可以吃香菜", "valueJson": "香菜"},
            },
        )
        for op in ("update", "supersede")
    ]
    calls += [
        ("memory_forget", {"id": node_id, "reason": "r"}),
        ("memory_forget", {"id": node_id, "reason": "r", "mode": "hard"}),
        ("memory_forget", {"key": "avoid_ingredient", "valueJson": "香菜", "reason": "r"}),
    ]
    before = {n.id: n for n in every_node(mem)}
    for name, args in calls:
        _refused_as_pinned(s.call_tool(name, args), node_id)
    # A create that would supersede the pinned memory (the same key, another value of
    # a key that holds one) is refused too; one that says the same is a duplicate.
    s.append_message("user", "记住，我喜欢吃辣")
    mem.actions.pin(
        propose(
            s,
            None,
            **{
                "scope": "user",
                "domain": "生活技能",
                "categoryPath": CILANTRO["categoryPath"],
                "type": "preference",
                "key": "flavor_profile",
                "valueJson": {"spicy": "high"},
                "title": "喜欢吃辣",
            },
        )["nodeId"]
    )
    spicy = next(n for n in every_node(mem) if n.key == "flavor_profile")
    s.append_message("user", "记住，以后不要辣")
    refused = propose(
        s,
        None,
        scope="user",
        domain="生活技能",
        categoryPath=CILANTRO["categoryPath"],
        type="preference",
        key="flavor_profile",
        valueJson={"spicy": "none"},
        title="不吃辣",
    )
    _refused_as_pinned(refused, spicy.id)
    same = propose(s, None, **CILANTRO)
    assert same["status"] == "duplicate" and same["nodeId"] == node_id
    after = {n.id: n for n in every_node(mem) if n.id in before}
    assert after == before  # nothing was written to the pinned memory
    assert not [p for p in mem.pending() if node_id in p.target_ids]  # nor held for later
    assert mem.get_node(node_id) is not None and mem.get_node(node_id).status == "active"
    # The agent still reads it.
    got = s.call_tool("memory_get", {"id": node_id})
    assert got["found"] and got["id"] == node_id


def test_the_extractor_leaves_a_pinned_memory_alone(mem: MemoryService) -> None:
    s, node_id = _cilantro(mem)
    mem.actions.pin(node_id)
    s.append_message("user", "我现在可以吃香菜了，不用再避开香菜。")
    report = s.after_reply(final=True)
    assert not report.paused
    refused = [o for o in report.outcomes if o.get("reasonCode") == "node.pinned"]
    assert refused, report.to_json()
    assert all(o["accepted"] is False for o in refused)
    node = mem.get_node(node_id)
    assert node is not None and node.status == "active"
    assert mem.head_of(node_id).id == node_id


def test_the_user_still_edits_and_deletes_a_pinned_memory_and_the_pin_follows(
    mem: MemoryService,
) -> None:
    s, node_id = _cilantro(mem)
    mem.actions.pin(node_id)
    outcome = mem.actions.edit(node_id, {"content": "用户不吃香菜，也不吃芫荽叶。"})
    assert outcome.accepted and outcome.node_id is not None
    new_id = outcome.node_id
    assert mem.actions.is_pinned(new_id) and not mem.actions.is_pinned(node_id)
    # The agent still cannot touch the new version.
    s.append_message("user", "忘掉香菜这件事")
    _refused_as_pinned(s.call_tool("memory_forget", {"id": new_id, "reason": "r"}), new_id)
    # Unpinned, the usual rules apply again.
    assert mem.actions.unpin(new_id) is True and mem.actions.unpin(new_id) is False
    res = s.call_tool("memory_forget", {"id": new_id, "reason": "r"})
    assert "error" not in res, res
    # The user deletes a pinned memory (and its pin goes with it for good).
    other = mem.actions.create(
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": CILANTRO["categoryPath"],
            "type": "preference",
            "title": "喜欢番茄",
        },
        user_id="u1",
    )
    assert other.node_id is not None
    mem.actions.pin(other.node_id)
    assert mem.actions.delete(other.node_id, "hard") == [other.node_id]
    assert other.node_id not in mem.actions.pinned()


def test_pin_and_unpin_are_audited(mem: MemoryService) -> None:
    _, node_id = _cilantro(mem)
    mem.actions.pin(node_id)
    mem.actions.unpin(node_id)
    events = [e for e in mem.history(node_id).audit if e.event_type in ("pin", "unpin")]
    assert [e.event_type for e in reversed(events)] == ["pin", "unpin"]
    assert {e.reason_code for e in events} == {"user.pinned", "user.unpinned"}
    assert all(e.actor == "user" for e in events)


def test_an_old_version_or_a_global_memory_cannot_be_pinned(mem: MemoryService) -> None:
    from ekko_memory import Conflict, InvalidInput, NotFound

    _, node_id = _cilantro(mem)
    new = mem.actions.edit(node_id, {"content": "不吃香菜。"}).node_id
    with pytest.raises(Conflict) as e:
        mem.actions.pin(node_id)
    assert e.value.reason_code == "node.old_version" and new is not None
    with pytest.raises(InvalidInput):
        mem.actions.pin("mem_00000000000000000000000001")  # a shipped global memory
    with pytest.raises(NotFound):
        mem.actions.pin("mem_nothing")


# --- pause ----------------------------------------------------------------------------


def test_pause_is_persisted_audited_and_seen_by_another_process(
    mem: MemoryService, backend: Backend, tmp_path: Any
) -> None:
    assert mem.pause_state() == PauseState()
    state = mem.pause()
    assert state.paused and state.by == "user" and state.reason_code == "memory.paused"
    assert state.since is not None
    other = backend.open_memory(tmp_path)  # the same stores, as another process opens them
    assert other.pause_state().paused
    assert other.resume().paused is False
    assert not mem.pause_state().paused  # the first one sees the other's resume
    for _, store in mem.stores():
        with store.read() as r:
            kinds = [a.event_type for a in r.iter_audit() if a.event_type in ("pause", "resume")]
        assert kinds == ["pause", "resume"]


def test_while_paused_the_agent_neither_reads_nor_writes(mem: MemoryService) -> None:
    s, node_id = _cilantro(mem)
    before = {n.id: n for n in every_node(mem)}
    count = len(mem.list_recent_messages("s1", 100))
    mem.pause()
    # The context is empty and says why.
    ctx = s.build_context("今晚吃什么？")
    assert ctx.diagnostics.enabled is False
    assert ctx.diagnostics.reason_code == "memory.paused"
    assert ctx.render() == "" and ctx.recent_messages == [] and ctx.rendered_memory_ids == []
    # Every tool refuses, reads too.
    for name, args in (
        ("memory_search", {"queryText": "香菜"}),
        ("memory_get", {"id": node_id}),
        ("memory_propose_update", {"operation": "create", "reason": "r", "node": CILANTRO}),
        ("memory_forget", {"id": node_id, "reason": "r"}),
    ):
        res = s.call_tool(name, args)
        assert res["error"]["reasonCode"] == "memory.paused", (name, res)
        assert res["error"]["code"] == "permission_denied"
    # The runtime goes on without memory: nothing logged, nothing extracted.
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn = rt.before_model("记住，我不吃葱。")
    assert turn.prompt == "" and turn.context.diagnostics.reason_code == "memory.paused"
    rt.after_model("好的。", turn)
    report = s.after_reply(final=True)
    assert report.paused and report.outcomes == [] and report.to_json()["paused"] is True
    assert mem.retry_failed_work(force=True).paused
    assert len(mem.list_recent_messages("s1", 100)) == count
    assert {n.id: n for n in every_node(mem)} == before
    # The user's own actions still work while paused.
    assert mem.actions.pin(node_id)
    created = mem.actions.create(
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": CILANTRO["categoryPath"],
            "type": "preference",
            "title": "喜欢番茄",
        },
        user_id="u1",
    )
    assert created.accepted
    # Resumed, the agent reads and writes again.
    mem.resume()
    assert s.call_tool("memory_get", {"id": node_id})["found"]
    resumed = rt.before_model("今晚吃什么？").context
    assert resumed.diagnostics.enabled and resumed.diagnostics.reason_code is None
    assert resumed.diagnostics.store_status == "ok", resumed.diagnostics
    assert node_id in resumed.rendered_memory_ids or "香菜" in resumed.render()


def test_a_pin_follows_a_memory_the_user_moves_into_the_other_store(mem: MemoryService) -> None:
    created = mem.actions.create(
        {
            "scope": "workspace",
            "domain": "项目",
            "type": "decision",
            "key": "database",
            "valueJson": "PostgreSQL",
            "title": "数据库用 PostgreSQL",
        },
        workspace_id="w1",
        user_id="u1",
    )
    assert created.node_id is not None
    mem.actions.pin(created.node_id)
    moved = mem.actions.edit(created.node_id, {"scope": "user"})
    assert moved.accepted and moved.node_id is not None, moved
    node = mem.get_node(moved.node_id)
    assert node is not None and node.scope == "user"
    assert mem.actions.is_pinned(moved.node_id)
    assert set(mem.actions.pinned()) == {moved.node_id}
