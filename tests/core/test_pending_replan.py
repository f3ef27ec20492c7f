"""Approving a write that waited while the memory moved on, and pending items whose memory
was deleted.

An approval is re-planned against the memories as they are now: it replaces the current
version of a one-value key (the user's decision is the newest statement, and the audit
names the version it was filed against), is the same memory as an equal value already
written (no second active node), and an item whose memory was deleted is settled
(expired, audited) instead of lingering in the inbox.
"""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory import Conflict, MemoryQuery, MemoryService, MemorySession
from ekko_memory.models import AuditEvent
from tests.core.helpers import COOKING, flavor, propose


def low_then_held_hot(
    mem: MemoryService, **low_extra: Any
) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """少辣, said explicitly; then the agent's guess 重辣 against it, held for the user."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    low = propose(s, "记住，我以后都要少辣。", **flavor({"spicy": "low"}, "少辣", **low_extra))
    s.append_message("user", "嗯，随便聊聊，重辣的菜看起来挺好吃")
    held = s.call_tool(
        "memory_propose_update",
        {
            "operation": "supersede",
            "targetId": low["nodeId"],
            "node": flavor({"spicy": "high"}, "重辣"),
            "reason": "推测",
        },
    )
    assert held["status"] == "pending", held
    return s, low, held


def active(mem: MemoryService, key: str) -> list[str]:
    return [n.id for n in mem.user_store.list_active_nodes(limit=50) if n.key == key]


def approve_event(mem: MemoryService, node_id: str) -> AuditEvent:
    [event] = [e for e in mem.history(node_id).audit if e.event_type == "approve"]
    return event


def test_an_old_one_value_proposal_approved_replaces_the_current_value(
    mem: MemoryService,
) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    held = propose(s, "重辣的菜看起来不错", **flavor({"spicy": "high"}, "重辣"))
    assert held["status"] == "pending", held
    low = propose(s, "记住，我以后都要少辣。", **flavor({"spicy": "low"}, "少辣"))
    assert low["status"] == "created", low

    decided = mem.decide(held["pendingId"], approve=True, actor="user")
    assert decided["status"] == "approved"
    assert active(mem, "flavor_profile") == [decided["nodeId"]]
    head = mem.head_of(low["nodeId"])
    assert head.id == decided["nodeId"] and head.value_json == {"spicy": "high"}
    result = mem.retrieve(MemoryQuery(user_id="u1", key="flavor_profile"))
    assert [n.id for n in result.exact] == [decided["nodeId"]]
    event = approve_event(mem, decided["nodeId"])
    assert event.payload is not None and event.payload["supersedes"] == low["nodeId"]
    assert low["nodeId"] in event.reason and "after this was proposed" in event.reason


def held_then_stated(mem: MemoryService) -> tuple[MemorySession, dict[str, Any], dict[str, Any]]:
    """不吃香菜 proposed on a guess (held for approval), then stated by the user (stored):
    (the session, the held proposal, the stored one)."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    node = {
        "scope": "user",
        "domain": "生活技能",
        "categoryPath": COOKING,
        "type": "preference",
        "key": "avoid_ingredient",
        "valueJson": "香菜",
        "title": "用户不吃香菜",
    }
    held = propose(s, "香菜味道怪怪的", **node)
    assert held["status"] == "pending", held
    explicit = propose(s, "记住，我以后做饭不要香菜。", **node)
    assert explicit["status"] == "created", explicit
    return s, held, explicit


def test_an_approved_proposal_equal_to_a_later_write_is_that_memory(mem: MemoryService) -> None:
    _, held, explicit = held_then_stated(mem)

    decided = mem.decide(held["pendingId"], approve=True, actor="user")
    assert decided == {
        "pendingId": held["pendingId"],
        "status": "approved",
        "nodeId": explicit["nodeId"],
    }
    assert active(mem, "avoid_ingredient") == [explicit["nodeId"]]
    event = approve_event(mem, explicit["nodeId"])
    assert event.payload is not None and event.payload["duplicateOf"] == explicit["nodeId"]


def test_a_proposal_filed_against_an_old_version_says_what_it_replaced(
    mem: MemoryService,
) -> None:
    s, low, held = low_then_held_hot(mem, confidence=0.99)
    medium = propose(s, "记住，从现在起我要中辣。", **flavor({"spicy": "medium"}, "中辣"))
    assert medium["status"] == "superseded", medium

    decided = mem.decide(held["pendingId"], approve=True, actor="user")
    assert active(mem, "flavor_profile") == [decided["nodeId"]]
    assert [n.id for n in mem.chain(decided["nodeId"])] == [
        low["nodeId"],
        medium["nodeId"],
        decided["nodeId"],
    ]
    # The newer 中辣 was replaced in the open: the approval names both versions.
    event = approve_event(mem, decided["nodeId"])
    assert event.payload is not None
    assert event.payload["filedAgainst"] == low["nodeId"]
    assert event.payload["supersedes"] == medium["nodeId"]
    assert medium["nodeId"] in event.reason and low["nodeId"] in event.reason
    [supersede] = [
        e
        for e in mem.history(medium["nodeId"]).audit
        if e.event_type == "supersede" and e.node_id == medium["nodeId"]
    ]
    assert low["nodeId"] in supersede.reason


# --- the id a proposal shows while it waits -------------------------------------------


def shown_id(mem: MemoryService, pending_id: str) -> str:
    """The memory id the inbox shows for a waiting proposal."""
    [item] = [i for i in mem.pending() if i.id == pending_id]
    assert item.node is not None
    return str(item.node["id"])


def test_an_approved_proposal_keeps_the_id_it_showed_while_waiting(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    held = propose(s, "重辣的菜看起来不错", **flavor({"spicy": "high"}, "重辣"))
    assert held["status"] == "pending", held
    shown = shown_id(mem, held["pendingId"])
    waiting = s.call_tool("memory_get", {"id": shown})
    assert waiting["found"] is False and "waiting for the user's approval" in waiting["reason"]

    decided = mem.decide(held["pendingId"], approve=True, actor="user")
    assert decided["nodeId"] == shown
    got = s.call_tool("memory_get", {"id": shown})
    assert got["found"] is True and got["valueJson"] == {"spicy": "high"}
    # Its history holds where the user first saw it: proposed and held, then approved.
    events = {e.event_type for e in mem.history(shown).audit}
    assert {"pending", "create", "approve"} <= events


def test_an_approved_replacement_edited_by_the_user_keeps_its_id(mem: MemoryService) -> None:
    _, low, held = low_then_held_hot(mem, confidence=0.99)
    shown = shown_id(mem, held["pendingId"])
    decided = mem.decide(
        held["pendingId"], approve=True, actor="user", edits={"valueJson": {"spicy": "medium"}}
    )
    assert decided["nodeId"] == shown
    assert [n.id for n in mem.chain(shown)] == [low["nodeId"], shown]
    assert active(mem, "flavor_profile") == [shown]


def test_the_id_of_a_proposal_that_became_another_memory_says_which(mem: MemoryService) -> None:
    s, held, explicit = held_then_stated(mem)
    shown = shown_id(mem, held["pendingId"])
    mem.decide(held["pendingId"], approve=True, actor="user")

    got = s.call_tool("memory_get", {"id": shown})
    assert got["found"] is False and got["approvedAs"] == explicit["nodeId"]
    assert explicit["nodeId"] in got["reason"]
    # Another user's session learns nothing about it.
    other = mem.session("s2", user_id="u2", workspace_id="w1")
    assert other.call_tool("memory_get", {"id": shown}) == {
        "found": False,
        "reason": "no such memory",
    }


def test_the_id_of_a_rejected_proposal_says_it_was_rejected(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    held = propose(s, "重辣的菜看起来不错", **flavor({"spicy": "high"}, "重辣"))
    shown = shown_id(mem, held["pendingId"])
    mem.decide(held["pendingId"], approve=False, actor="user")
    got = s.call_tool("memory_get", {"id": shown})
    assert got["found"] is False and "rejected" in got["reason"]
    assert got["pendingId"] == held["pendingId"]


# --- pending items whose memory was deleted --------------------------------------------


def held_overwrite(mem: MemoryService) -> tuple[str, str]:
    """An explicit 少辣 and a waiting overwrite of it; returns (node id, pending id)."""
    _, low, held = low_then_held_hot(mem, confidence=0.99)
    assert held.get("rule") == "overwrite_high_confidence", held
    return low["nodeId"], held["pendingId"]


@pytest.mark.parametrize("mode", ["soft", "hard"])
def test_deleting_a_memory_settles_the_changes_waiting_for_it(
    mem: MemoryService, mode: str
) -> None:
    node_id, pending_id = held_overwrite(mem)
    assert mem.actions.delete(node_id, mode) == [node_id]  # type: ignore[arg-type]
    assert mem.pending() == []
    [item] = [p for _, store in mem.stores() for p in store_items(store)]
    assert item.id == pending_id and item.status == "expired"
    assert item.decided_by == "user" and node_id in (item.decision_note or "")
    with pytest.raises(Conflict, match="already expired"):
        mem.decide(pending_id, approve=True, actor="user")
    events = [e for _, store in mem.stores() for e in store_audit(store)]
    assert any(
        (e.payload or {}).get("pendingId") == pending_id for e in events if e.event_type == "expire"
    )


def test_an_item_filed_against_an_older_version_of_a_deleted_memory_is_a_conflict(
    mem: MemoryService,
) -> None:
    node_id, pending_id = held_overwrite(mem)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    medium = propose(s, "记住，从现在起我要中辣。", **flavor({"spicy": "medium"}, "中辣"))
    assert medium["supersededId"] == node_id
    mem.actions.delete(medium["nodeId"], "soft")
    with pytest.raises(Conflict, match="no longer applies"):
        mem.decide(pending_id, approve=True, actor="user")
    assert mem.pending() == []
    assert active(mem, "flavor_profile") == []


def store_items(store: Any) -> list[Any]:
    with store.read() as r:
        return list(r.list_pending(statuses=None))


def store_audit(store: Any) -> list[AuditEvent]:
    with store.read() as r:
        return list(r.iter_audit())


def test_an_approval_filed_against_an_expired_memory_replaces_the_active_one(
    mem: MemoryService,
) -> None:
    """Filed against 少辣, which the user then expired; 中辣 was said since: the approved 重辣
    replaces 中辣 (one active value), not the expired 少辣 beside it."""
    s, low, held = low_then_held_hot(mem)
    mem.actions.expire(low["nodeId"])
    medium = propose(s, "记住，从现在起我要中辣。", **flavor({"spicy": "medium"}, "中辣"))
    decided = mem.decide(held["pendingId"], approve=True, actor="user")
    assert active(mem, "flavor_profile") == [decided["nodeId"]]
    assert mem.head_of(medium["nodeId"]).id == decided["nodeId"]
    ctx = s.build_context("今晚吃什么？")
    assert [n.value_json for n in ctx.preferences if n.key == "flavor_profile"] == [
        {"spicy": "high"}
    ]


def test_an_approved_expire_or_delete_follows_the_memory_the_user_edited(
    mem: MemoryService,
) -> None:
    """The agent's expire / delete waited; the user edited the memory meanwhile: approving
    applies to the current version (and says so), never reports a change it did not make."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    low = propose(s, "记住，我以后都要少辣。", **flavor({"spicy": "low"}, "少辣"))
    cilantro = propose(
        s,
        "记住，我不吃香菜。",
        scope="user",
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        key="avoid_ingredient",
        valueJson="香菜",
        title="用户不吃香菜",
    )
    s.append_message("user", "今天天气不错")
    expire = s.call_tool(
        "memory_propose_update",
        {"operation": "expire", "targetId": low["nodeId"], "reason": "推测过期"},
    )
    delete = s.call_tool(
        "memory_propose_update",
        {"operation": "delete", "targetId": cilantro["nodeId"], "reason": "推测不需要"},
    )
    assert expire["status"] == delete["status"] == "pending", (expire, delete)
    mem.actions.edit(low["nodeId"], {"title": "少辣（改）"})
    mem.actions.edit(cilantro["nodeId"], {"title": "不吃香菜（改）"})
    edited_low, edited_cilantro = mem.head_of(low["nodeId"]), mem.head_of(cilantro["nodeId"])
    mem.decide(expire["pendingId"], approve=True, actor="user")
    decided = mem.decide(delete["pendingId"], approve=True, actor="user")
    assert decided["deletedIds"] == [edited_cilantro.id]
    after = mem.get_node(edited_low.id)
    assert after is not None and after.status == "expired"
    gone = mem.get_node(edited_cilantro.id)
    assert gone is None or gone.status == "deleted"
    expired = [e for e in mem.history(edited_low.id).audit if e.event_type == "expire"]
    assert expired and "applies to the current version" in (expired[0].reason or ""), expired


def test_deleting_an_edited_memory_settles_changes_filed_against_its_older_version(
    mem: MemoryService,
) -> None:
    _, low, held = low_then_held_hot(mem)
    mem.actions.edit(low["nodeId"], {"title": "少辣（改）"})
    edited = mem.head_of(low["nodeId"])
    assert edited.id != low["nodeId"]
    mem.actions.delete(edited.id)
    assert [p.id for p in mem.pending()] == []
    [item] = [p for p in mem.pending(status=None) if p.id == held["pendingId"]]
    assert item.status == "expired" and edited.id in (item.decision_note or "")
    with pytest.raises(Conflict):
        mem.decide(held["pendingId"], approve=True, actor="user")
