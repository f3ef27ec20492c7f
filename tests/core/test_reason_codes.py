"""Reasons carry a stable code and params beside the English agents read: errors, a write
that did nothing, audit events and decision notes (``ekko_memory.models.reasons``)."""

from __future__ import annotations

import pytest

from ekko_memory import Conflict, MemoryService
from ekko_memory.models.reasons import STORED_REASONS, read_stored_reason, stored_reason
from tests.core.helpers import COOKING, propose
from tests.core.test_pending_replan import low_then_held_hot

PARAMS = {"when": "2026-01-02 03:04", "id": "mem_1", "detail": "no MySQL", "said": "算了"}


@pytest.mark.parametrize("code", sorted(STORED_REASONS))
def test_a_stored_reason_reads_back_to_its_code(code: str) -> None:
    """The English is written from the template and read back to the same code: a record
    keeps its code in the wording agents and older releases read."""
    names = [n for n in PARAMS if "{" + n + "}" in STORED_REASONS[code]]
    params = {n: PARAMS[n] for n in names}
    assert read_stored_reason(stored_reason(code, **params)) == (code, params)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (
            "withdrawn by the user's words: took back what they had just said (said: “算了”)",
            "withdrawn.just_said",
        ),
        (
            "withdrawn by the user's words: asked to forget it (said: “算了”)",
            "withdrawn.asked_to_forget",
        ),
        ("withdrawn by the user's words: no MySQL (said: “算了”)", "withdrawn.took_back"),
        ("reverted to the version of 2026-01-02 03:04 (mem_1)", "user.reverted"),
    ],
)
def test_other_wordings_read_back_to_their_code(text: str, code: str) -> None:
    """The extraction pipeline words a withdrawal its own way; an older release wrote a
    revert's time without UTC: the same codes."""
    assert read_stored_reason(text)[0] == code


def test_a_decided_item_says_so_by_code(mem: MemoryService) -> None:
    _, _, held = low_then_held_hot(mem)
    mem.decide(held["pendingId"], approve=False, actor="user")
    with pytest.raises(Conflict) as raised:
        mem.decide(held["pendingId"], approve=True, actor="user")
    assert raised.value.reason_code == "pending.already_decided"
    assert raised.value.reason_args == {"id": held["pendingId"], "status": "rejected"}
    # The rejection's audit event says who by code; a note the user typed would have none.
    [event] = [e for e in mem.browse.audit_since(None) if e.event_type == "reject"]
    assert (event.reason_code, event.reason_params) == ("user.rejected", {})


def test_a_revert_and_a_duplicate_carry_their_codes(mem: MemoryService) -> None:
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
    first = propose(s, "记住，我以后做饭不要香菜。", **node)
    again = propose(s, "记住，我以后做饭不要香菜。", **node)
    assert again["status"] == "duplicate"
    assert again["reasonCode"] == "write.already_remembered" and again["reasonParams"] == {}
    edited = mem.actions.edit(first["nodeId"], {"title": "不吃香菜"})
    reverted = mem.actions.revert(first["nodeId"])
    assert edited.accepted and reverted.accepted and reverted.node_id
    event = next(e for e in mem.history(reverted.node_id).audit if e.reason.startswith("reverted"))
    assert event.reason_code == "user.reverted"
    assert event.reason_params["id"] == first["nodeId"]
    with pytest.raises(Conflict) as raised:
        mem.actions.edit(first["nodeId"], {"title": "旧版本"})
    assert raised.value.reason_code == "node.old_version"
    assert raised.value.reason_args == {"id": first["nodeId"], "head": reverted.node_id}


def test_a_tool_error_carries_its_reason_code(mem: MemoryService) -> None:
    """An agent's call refused for a reason with a code (an old version) says the code
    beside the English message."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    node = {
        "scope": "workspace",
        "domain": "项目",
        "categoryPath": ["项目"],
        "type": "decision",
        "key": "database",
        "valueJson": "SQLite",
        "title": "数据库用 SQLite",
    }
    first = propose(s, "记住，数据库用 SQLite。", **node)
    mem.actions.edit(first["nodeId"], {"title": "数据库：SQLite"})
    s.append_message("user", "把它过期吧")
    out = s.call_tool(
        "memory_propose_update",
        {"operation": "expire", "targetId": first["nodeId"], "reason": "用户说过期"},
    )
    assert out["error"]["code"] == "conflict", out
    assert out["error"]["reasonCode"] == "node.old_version"
    assert out["error"]["reasonParams"]["id"] == first["nodeId"]
    assert "old version" in out["error"]["message"]
