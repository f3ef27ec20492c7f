"""Write side: governed proposals, permissions, pending approvals, forgetting."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import MemoryQuery, MemoryService, PermissionDenied
from tests.backends import Backend, leaked_rows, raw_page_hits
from tests.core.helpers import COOKING, flavor, promotion_held, propose, user_write

CILANTRO = {
    "scope": "user",
    "domain": "生活技能",
    "categoryPath": COOKING,
    "type": "preference",
    "key": "avoid_ingredient",
    "valueJson": "香菜",
    "title": "用户不吃香菜",
    "content": "用户明确要求以后做饭推荐不要香菜。",
    "status": "active",
    "confidence": 0.99,
    "importance": 0.95,
    "tags": ["忌口", "菜谱推荐"],
    "entities": ["香菜"],
}


def audit_types(mem: MemoryService, node_id: str) -> list[str]:
    return [e.event_type for e in mem.history(node_id).audit]


def test_explicit_write_example_end_to_end(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    msg = s.append_message("user", "记住，我以后做饭不要香菜。")
    res = s.call_tool(
        "memory_propose_update",
        {"operation": "create", "node": CILANTRO, "reason": "用户明确要求记录长期饮食偏好"},
    )
    assert res["accepted"] is True and res["status"] == "created"
    node = mem.get_node(res["nodeId"])
    assert node is not None
    assert (node.scope, node.key, node.value_json, node.status) == (
        "user",
        "avoid_ingredient",
        "香菜",
        "active",
    )
    assert node.source_message_ids == [msg.id] and node.origin == "user_explicit"
    assert node.user_id == "u1"
    assert audit_types(mem, node.id) == ["create"]
    event = mem.history(node.id).audit[0]
    assert event.actor == "agent" and event.reason == "用户明确要求记录长期饮食偏好"


def test_same_fact_twice_is_one_node(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    first = propose(s, "记住，我不吃香菜", **{**CILANTRO, "key": "avoid_food"})
    second = propose(s, "记住：以后都别放香菜！", **CILANTRO)
    assert first["status"] == "created" and second["status"] == "duplicate"
    assert second["nodeId"] == first["nodeId"]
    active = mem.retrieve(
        MemoryQuery(key="avoid_ingredient", domain="生活技能", types=["preference"])
    )
    assert len(active.exact) == 1


def test_one_ingredient_in_other_words_is_one_memory(mem: MemoryService) -> None:
    """The agent's "Cilantro" and the user's 香菜 name one thing: the second is a duplicate,
    an exact query for either finds it, and a correction in the other language expires it
    (before, the cilantro memory outlived "现在可以吃香菜了" and kept steering replies)."""
    s = mem.session("s1", user_id="u1")
    english = {**CILANTRO, "valueJson": "Cilantro", "title": "Avoids cilantro"}
    first = propose(s, "Remember: no cilantro for me.", **{**english, "entities": []})
    assert mem.get_node(first["nodeId"]).value_json == "cilantro"  # type: ignore[union-attr]
    again = propose(s, "记住，我不吃芫荽", **{**CILANTRO, "valueJson": "芫荽"})
    assert again["status"] == "duplicate" and again["nodeId"] == first["nodeId"]
    for said in ("香菜", "coriander"):
        found = mem.retrieve(MemoryQuery(user_id="u1", key="avoid_ingredient", value_json=said))
        assert [n.id for n in found.exact] == [first["nodeId"]], said

    later = mem.session("s2", user_id="u1")
    later.append_message("user", "现在可以吃香菜了")
    later.append_message("assistant", "好的。")
    report = later.after_reply()
    assert [(o["operation"], o["status"]) for o in report.outcomes] == [("expire", "expired")]
    assert mem.get_node(first["nodeId"]).status == "expired"  # type: ignore[union-attr]
    ctx = mem.session("s3", user_id="u1").build_context("今晚吃什么？")
    assert first["nodeId"] not in ctx.used_memory_ids


def test_english_words_are_not_cut_as_prefixes(mem: MemoryService) -> None:
    """ "no"/"like"/"love" are dropped only as words: noodles stay noodles (were "odles")."""
    s = mem.session("s1", user_id="u1")
    kept = {"Noodles": "noodles", "nori": "nori", "Avoid garlic": "garlic", "no peanuts": "peanuts"}
    for said, stored in kept.items():
        res = propose(s, f"Remember: {said}", **{**CILANTRO, "valueJson": said, "title": said})
        assert mem.get_node(res["nodeId"]).value_json == stored, said  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("rival_scope", "moved_from"), [("user", "workspace"), ("workspace", "session")]
)
def test_a_move_into_a_scope_replaces_what_it_held_under_the_key(
    mem: MemoryService, rival_scope: str, moved_from: str
) -> None:
    """Moving a memory into a scope that already holds its one-value key (across files,
    and within one) leaves one active version there: the other is expired, audited."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")

    def flavor_in(scope: str, spicy: str, said: str, **call: str) -> dict:  # type: ignore[type-arg]
        node = {**CILANTRO, "key": "flavor_profile", "entities": [], "scope": scope}
        node.update(valueJson={"spicy": spicy}, title=f"辣度 {spicy}")
        s.append_message("user", said)
        return s.call_tool(
            "memory_propose_update",
            {"operation": "create", "node": node, "reason": "t", **call},
        )

    held = flavor_in(rival_scope, "high", "记住，我以后做饭都要特辣")
    moved = flavor_in(moved_from, "low", "记住，这个项目里做饭少辣")
    assert held.get("status") == moved.get("status") == "created", (held, moved)
    result = flavor_in(
        rival_scope,
        "medium",
        "记住，以后我做饭都微辣",
        operation="update",
        targetId=moved["nodeId"],
    )
    assert result["status"] == "superseded", result
    active = mem.retrieve(MemoryQuery(user_id="u1", session_id="s1", key="flavor_profile"))
    assert [(n.scope, n.value_json) for n in active.exact] == [(rival_scope, {"spicy": "medium"})]
    assert mem.get_node(held["nodeId"]).status == "expired"  # type: ignore[union-attr]
    audit = mem.history(held["nodeId"]).audit
    assert [e.reason for e in audit if e.event_type == "expire"] == [
        f"replaced by {result['nodeId']}, moved into {rival_scope} scope"
    ]


def test_schema_normalization_maps_synonyms(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    res = propose(
        s,
        "记住我不喜欢葱",
        domain="cooking",
        type="preference",
        key="Disliked-Ingredient",
        valueJson="不吃葱",
        title="不吃葱",
    )
    node = mem.get_node(res["nodeId"])
    assert node is not None
    assert (node.domain, node.key, node.value_json, node.category_path) == (
        "生活技能",
        "avoid_ingredient",
        "葱",
        COOKING,
    )
    res2 = propose(
        s,
        "记住，以后少油少辣",
        domain="生活技能",
        type="preference",
        key="taste",
        valueJson=["少油", "微辣"],
        title="少油微辣",
    )
    assert mem.get_node(res2["nodeId"]).value_json == {"oil": "low", "spicy": "mild"}  # type: ignore[union-attr]


def test_unknown_key_is_refused_with_the_allowed_list(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    res = propose(
        s,
        "记住",
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        key="favorite_color",
        valueJson="蓝色",
        title="喜欢蓝色",
    )
    assert res["accepted"] is False and "avoid_ingredient" in res["reason"]


def test_an_unknown_argument_names_the_fields_the_tool_takes(mem: MemoryService) -> None:
    """A model that guessed a field name (query for queryText, titel for title) is told what
    to send, and nothing is written."""
    s = mem.session("s1", user_id="u1")
    res = s.call_tool("memory_search", {"query": "香菜"})
    assert res["error"]["code"] == "invalid_arguments" and res["exact"] == []
    assert "query: unknown field; did you mean queryText?" in res["reason"]
    forget = s.call_tool("memory_forget", {"id": "mem_x", "reason": "r", "hard": True})
    assert forget["deletedIds"] == [] and "hard: unknown field" in forget["reason"]
    assert "mode" in forget["reason"].split("fields:")[1]
    s.append_message("user", "记住，我以后做饭不要葱。")
    node = {
        "domain": "生活技能",
        "categoryPath": COOKING,
        "type": "preference",
        "key": "avoid_ingredient",
        "title": "不吃葱",
        # Partial<MemoryNode>: fields the service fills are accepted and ignored.
        "id": "mem_from_the_agent",
        "createdAt": "2020-01-01T00:00:00Z",
    }
    for typo, hint in (("valueJSON", "did you mean valueJson?"), ("titel", "did you mean title?")):
        res = s.call_tool(
            "memory_propose_update",
            {"operation": "create", "reason": "r", "node": {**node, "valueJson": "葱", typo: "葱"}},
        )
        assert res["accepted"] is False and f"node: {typo}: unknown field; {hint}" in res["reason"]
    # A keyed memory without its value says nothing: refused, nothing written.
    res = s.call_tool("memory_propose_update", {"operation": "create", "reason": "r", "node": node})
    assert res["accepted"] is False and "needs a value (node.valueJson)" in res["reason"]
    assert mem.retrieve(MemoryQuery(user_id="u1", key="avoid_ingredient")).exact == []
    res = s.call_tool(
        "memory_propose_update",
        {"operation": "create", "reason": "r", "node": {**node, "valueJson": "葱"}},
    )
    assert res["accepted"] is True and res["nodeId"] != "mem_from_the_agent"


def test_a_refused_proposal_is_an_error_result(mem: MemoryService) -> None:
    """PRODUCT.md: malformed arguments return an error result (README: "key
    'avoid_ingredient' needs a value"), whichever check caught them: a refusal says so in
    ``error`` with the core's code, as an unknown field does; a held or duplicate proposal
    is an answer, not an error."""
    s = mem.session("s1", user_id="u1")
    s.append_message("user", "记住，我以后做饭不要葱。")
    scallion = {**CILANTRO, "valueJson": "葱", "title": "不吃葱"}
    for args, code in (
        ({"node": {k: v for k, v in scallion.items() if k != "valueJson"}}, "invalid_input"),
        ({"node": {"title": "没有类型"}}, "invalid_input"),
        ({"operation": "delete"}, "invalid_input"),  # no targetId
        ({"operation": "expire", "targetId": "mem_01M8VWABJ5EZ4MAC14NPMPNC0X"}, "not_found"),
        ({"node": {**scallion, "scope": "global"}}, "invalid_input"),
        ({"sourceMessageIds": ["msg_nope"], "node": scallion}, "invalid_input"),
    ):
        res = s.call_tool("memory_propose_update", {"operation": "create", "reason": "r", **args})
        assert res["accepted"] is False and res["status"] == "rejected", res
        error = dict(res["error"])
        # A reason with a code says it beside the message (global scope: read-only).
        assert error.pop("reasonCode", None) in (None, "node.global_read_only"), res
        error.pop("reasonParams", None)
        assert error == {"code": code, "message": res["reason"]}, res
    assert "'msg_nope'] are not message ids" in res["reason"], res  # the last call's
    seed = "mem_00000000000000000000000001"
    res = s.call_tool(
        "memory_propose_update",
        {"operation": "update", "targetId": seed, "node": {"title": "改"}, "reason": "r"},
    )
    assert res["error"]["code"] == "invalid_input" and "read-only" in res["reason"]
    created = s.call_tool(
        "memory_propose_update", {"operation": "create", "reason": "r", "node": scallion}
    )
    again = s.call_tool(
        "memory_propose_update", {"operation": "create", "reason": "r", "node": scallion}
    )
    assert created["status"] == "created" and again["status"] == "duplicate"
    s.append_message("user", "我爱吃牛肉")
    held = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "r",
            "node": {
                **scallion,
                "key": "preferred_ingredient",
                "valueJson": "牛肉",
                "title": "爱吃牛肉",
            },
        },
    )
    assert held["status"] == "pending"
    assert not any("error" in r for r in (created, again, held))


def test_a_forget_that_names_nothing_is_an_error_result(mem: MemoryService) -> None:
    """A forget call that names no memory is malformed, as memory_get's is: an error
    result; one that names a memory nobody has is an answer (nothing to delete)."""
    s = mem.session("s1", user_id="u1")
    s.append_message("user", "忘掉它")
    res = s.call_tool("memory_forget", {"reason": "r"})
    assert res["deletedIds"] == [] and res["error"]["code"] == "invalid_input", res
    assert res["error"]["message"] == res["reason"] and "name the memory" in res["reason"]
    assert s.call_tool("memory_get", {})["error"]["code"] == "invalid_input"
    none = s.call_tool("memory_forget", {"key": "avoid_ingredient", "reason": "r"})
    assert none["deletedIds"] == [] and "error" not in none, none
    # Malformed arguments keep the design doc's result shape: deletedIds and mode.
    for args, mode in (({"id": "mem_x"}, "soft"), ({"id": "mem_x", "mode": "hard"}, "hard")):
        bad = s.call_tool("memory_forget", args)  # no reason
        assert bad["error"]["code"] == "invalid_arguments", bad
        assert bad["deletedIds"] == [] and bad["mode"] == mode, bad
    assert s.call_tool("memory_forget", "not json")["mode"] == "soft"


def test_lone_surrogates_anywhere_in_a_call_are_cleaned(mem: MemoryService) -> None:
    """JSON can spell a lone surrogate ("\\ud800"), which no store can hold: it becomes
    U+FFFD at the door, so every tool, retrieve and the context answer normally."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    res = propose(
        s,
        "记住，我以后做饭不要香菜。",
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        key="avoid_ingredient",
        valueJson="香菜",
        title="不吃香菜",
    )
    assert res["accepted"] is True
    lone = "\ud800"
    forget = s.call_tool(
        "memory_forget",
        {"domain": "生活技能", "key": "avoid_ingredient", "valueJson": lone, "reason": lone},
    )
    assert "error" not in forget and forget["reason"].startswith("no matching memory")
    found = s.call_tool("memory_search", {"queryText": lone + "香菜", "domain": lone})
    assert "error" not in found and found["exact"] == []
    got = s.call_tool("memory_get", {"key": "avoid_ingredient", "valueJson": lone})
    assert got == {"found": False, "reason": "no such memory"}
    assert mem.retrieve(MemoryQuery(domain=lone, key=lone, user_id=lone)).exact == []
    ctx = s.build_context(lone + "香菜")
    assert ctx.diagnostics.store_status == "ok" and ctx.diagnostics.warnings == []
    assert res["nodeId"] in ctx.used_memory_ids
    # Cleaning touches text only: a Python caller's datetime still reaches the model.
    until = mem.now() + timedelta(hours=3)
    res = propose(
        s,
        "今天别做辣的",
        domain="生活技能",
        type="constraint",
        key="flavor_profile",
        valueJson="不辣",
        title="今天不吃辣" + lone,
        expiresAt=until,
    )
    node = mem.get_node(res["nodeId"])
    assert node is not None and node.expires_at == until and node.title == "今天不吃辣\ufffd"


def test_technical_constraint_defaults_to_workspace(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    res = propose(
        s,
        "我们的接口必须兼容 Python 3.11",
        scope="user",
        domain="项目",
        type="constraint",
        key="compatibility",
        valueJson="Python 3.11",
        title="兼容 Python 3.11",
    )
    node = mem.get_node(res["nodeId"])
    assert (
        res["accepted"]
        and node is not None
        and node.scope == "workspace"
        and node.workspace_id == "w1"
    )


def test_temporary_state_stays_out_of_the_users_scope(mem: MemoryService) -> None:
    """今天有点胃不舒服 proposed for the user's long-term scope stays a temporary state of
    the workspace (its conversations of the day share it) and expires."""
    s = mem.session("s1", user_id="u1")
    res = propose(
        s,
        "今天有点胃不舒服",
        scope="user",
        domain="生活技能",
        type="constraint",
        key="flavor_profile",
        valueJson="清淡",
        title="今天胃不舒服，吃清淡点",
    )
    node = mem.get_node(res["nodeId"])
    assert res["accepted"] and node is not None
    # It keeps the conversation it came from (purging that session takes it along).
    assert node.scope == "workspace" and node.session_id == "s1" and node.expires_at is not None


def test_a_temporary_state_asked_to_be_remembered_still_expires(mem: MemoryService) -> None:
    # 没有 expiresAt 的临时状态不能进入长期 user-scope, whether or not the user said 记住:
    # today's state must neither become a lasting memory nor replace the lasting one.
    s = mem.session("s1", user_id="u1")
    lasting = propose(
        s, "记住，我喜欢少油少辣", **flavor({"oil": "low", "spicy": "low"}, "用户偏好少油少辣")
    )
    res = propose(
        s,
        "记住，我今天胃不舒服，今天别放辣",
        **flavor({"spicy": "none"}, "今天不吃辣", content="今天不要辣"),
    )
    node = mem.get_node(res["nodeId"])
    assert res["accepted"] and node is not None
    assert node.scope == "workspace" and node.expires_at is not None
    old = mem.get_node(lasting["nodeId"])
    assert old is not None and old.status == "active"


def test_from_today_on_is_no_temporary_state(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    veg = propose(
        s,
        "记住，从今天开始我吃素",
        scope="user",
        domain="生活技能",
        type="preference",
        key="dietary_restriction",
        valueJson="素食",
        title="从今天开始吃素",
    )
    rule = propose(
        s,
        "今天起提交前必须跑测试",
        scope="workspace",
        domain="项目",
        type="constraint",
        key="coding_rule",
        valueJson="提交前必须跑测试",
        title="提交前必须跑测试",
    )
    for res, scope in ((veg, "user"), (rule, "workspace")):
        node = mem.get_node(res["nodeId"])
        assert node is not None and node.scope == scope and node.expires_at is None
    # The extractor reads 从今天开始… as the user's lasting word, like 从现在开始.
    s2 = mem.session("s2", user_id="u1", workspace_id="w1")
    s2.append_message("user", "从今天开始我不吃辣")
    [outcome] = s2.after_reply().outcomes
    node = mem.get_node(outcome["nodeId"])
    assert outcome["accepted"] and node is not None
    assert node.scope == "user" and node.expires_at is None


def test_inferred_preference_waits_and_agent_cannot_approve(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    res = propose(
        s,
        "我昨天做了红烧肉，挺好吃的。",
        scope="user",
        domain="生活技能",
        type="preference",
        key="preferred_ingredient",
        valueJson="猪肉",
        title="用户喜欢红烧肉",
        confidence=0.6,
    )
    assert (
        res["accepted"] is False
        and res["status"] == "pending"
        and res["rule"] == "user_scope_without_intent"
    )
    pending_id = res["pendingId"]
    assert [p.id for p in mem.pending()] == [pending_id]
    assert (
        mem.retrieve(
            MemoryQuery(key="preferred_ingredient", domain="生活技能", types=["preference"])
        ).exact
        == []
    )
    # Agents have no way to approve: not a tool, not an argument, not an actor.
    for attempt in (
        s.call_tool("memory_approve", {"pendingId": pending_id}),
        s.call_tool(
            "memory_propose_update",
            {
                "operation": "update",
                "pendingId": pending_id,
                "approve": True,
                "reason": "approve it",
            },
        ),
    ):
        assert "error" in attempt
    with pytest.raises(PermissionDenied):
        mem.decide(pending_id, approve=True, actor="agent")
    assert mem.pending()[0].status == "pending"
    decided = mem.decide(pending_id, approve=True, actor="user")
    assert decided["status"] == "approved" and mem.pending() == []
    node = mem.get_node(decided["nodeId"])
    assert node is not None and node.status == "active" and node.scope == "user"
    assert "approve" in audit_types(mem, node.id)


def test_words_that_refuse_or_ask_about_remembering_are_no_request(mem: MemoryService) -> None:
    """Explicit intent is judged from the user's words: 别记住这个, 你记住了吗？ and "don't
    remember this" name 记住/remember but ask for nothing, so a long-term memory from them
    waits for the user (as any unasked one does), and the extractor writes no 记住… note."""
    tea = {
        "scope": "user",
        "domain": "生活技能",
        "type": "preference",
        "key": "preferred_ingredient",
        "valueJson": "茶叶",
        "title": "喜欢茶",
    }
    for i, words in enumerate(
        ("别记住这个：我喜欢喝茶", "你记住了吗？我喜欢喝茶", "Don't remember this: I like tea")
    ):
        res = propose(mem.session(f"s{i}", user_id=f"u{i}"), words, **tea)
        assert res["status"] == "pending" and res["rule"] == "user_scope_without_intent", res
    asked = propose(mem.session("asked", user_id="ua"), "别忘了，我喜欢喝茶", **tea)
    assert asked["status"] == "created", asked
    s = mem.session("cat", user_id="cat-owner")
    s.append_message("user", "别记住这个：我的猫叫咪咪")
    s.append_message("assistant", "好的，不记。")
    s.after_reply()
    assert mem.retrieve(MemoryQuery(user_id="cat-owner", query_text="咪咪")).relevant == []
    assert [p.node for p in mem.pending() if p.user_id == "cat-owner"] == []


def test_an_approved_move_into_the_users_scope_moves_the_memory(mem: MemoryService) -> None:
    """A session memory the agent proposes to keep for the long term, value unchanged,
    waits (scope_promotion); the user's approval moves it: the user-scope version is
    active and the session one superseded. Before, the unchanged value read as "already
    remembered" and the approval wrote nothing."""
    s = mem.session("s1", user_id="u1")
    s.append_message("user", "今天别放葱")
    today = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "r",
            "node": {
                **CILANTRO,
                "scope": "session",
                "valueJson": "葱",
                "title": "不吃葱",
                "confidence": 0.7,
            },
        },
    )
    s.append_message("user", "我一直不太吃葱")
    held = s.call_tool(
        "memory_propose_update",
        {
            "operation": "update",
            "targetId": today["nodeId"],
            "node": {"scope": "user"},
            "reason": "长期",
        },
    )
    assert held["rule"] == "scope_promotion", held
    decided = mem.decide(held["pendingId"], approve=True, actor="user")
    assert decided["nodeId"] != today["nodeId"], decided
    moved = mem.get_node(decided["nodeId"])
    assert moved is not None and moved.scope == "user" and moved.status == "active"
    assert moved.value_json == "葱" and moved.supersedes_id == today["nodeId"]
    assert mem.get_node(today["nodeId"]).status == "superseded"  # type: ignore[union-attr]


def test_the_same_proposal_waits_once_per_user(mem: MemoryService) -> None:
    """A proposal that is already waiting is not stored twice — but only the same user's:
    another user of a shared store saying the same thing gets an item of their own, and
    approving one user's item never writes the other's memory."""
    tea = {
        "scope": "user",
        "domain": "生活技能",
        "type": "preference",
        "key": "preferred_ingredient",
        "valueJson": "茶叶",
        "title": "喜欢茶",
    }
    alice, bob = mem.session("a", user_id="alice"), mem.session("b", user_id="bob")
    first = propose(alice, "我喜欢喝茶", **tea)
    again = propose(alice, "我喜欢喝茶", **tea)
    other = propose(bob, "I like tea", **tea)
    assert first["status"] == again["status"] == other["status"] == "pending"
    assert again["pendingId"] == first["pendingId"] and "already waiting" in again["reason"]
    assert other["pendingId"] != first["pendingId"], other
    assert {p.id: p.user_id for p in mem.pending()} == {
        first["pendingId"]: "alice",
        other["pendingId"]: "bob",
    }
    mem.decide(other["pendingId"], approve=True, actor="user")
    for user, expected in (("alice", []), ("bob", ["bob"])):
        found = mem.retrieve(MemoryQuery(user_id=user, key="preferred_ingredient")).exact
        assert [n.user_id for n in found] == expected


def test_reject_and_edit_and_approve(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    a = propose(
        s,
        "我挺喜欢吃鱼的",
        scope="user",
        domain="生活技能",
        type="preference",
        key="preferred_ingredient",
        valueJson="鱼",
        title="用户喜欢鱼",
    )
    b = propose(
        s,
        "我挺喜欢吃虾",
        scope="user",
        domain="生活技能",
        type="preference",
        key="preferred_ingredient",
        valueJson="虾",
        title="用户喜欢虾",
    )
    assert mem.decide(a["pendingId"], approve=False, actor="user") == {
        "pendingId": a["pendingId"],
        "status": "rejected",
    }
    edited = mem.decide(
        b["pendingId"],
        approve=True,
        actor="user",
        edits={"valueJson": "虾仁", "title": "用户喜欢虾仁"},
    )
    node = mem.get_node(edited["nodeId"])
    assert node is not None and node.value_json == "虾仁" and node.origin == "user_edit"
    assert {p.status for p in mem.pending(status=None)} == {"rejected", "approved"}
    with pytest.raises(Exception, match="already"):
        mem.decide(a["pendingId"], approve=True, actor="user")


def test_sensitive_data_waits(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    res = propose(
        s,
        "记住我的手机号 13812345678",
        scope="user",
        domain="个人",
        type="fact",
        key="phone",
        valueJson="13812345678",
        title="用户手机号",
    )
    assert res["status"] == "pending" and res["rule"] == "sensitive_data"
    res2 = propose(
        s,
        "记住我对花生过敏",
        scope="user",
        domain="生活技能",
        type="preference",
        key="dietary_restriction",
        valueJson="花生过敏",
        title="花生过敏",
    )
    assert res2["status"] == "pending" and res2["rule"] == "sensitive_data"


@pytest.mark.parametrize(
    ("words", "title", "content"),
    [
        ("记住我的电话 010-12345678", "用户电话", "010-12345678"),  # a landline, area code
        ("remember my phone is 415-555-2671", "Phone", "415-555-2671"),
        ("remember my phone is (415) 555-2671", "Phone", "(415) 555-2671"),
        ("记住我住在上海浦东新区张江镇", "用户住址", "上海浦东新区张江镇"),  # no street number
        ("记住我家在朝阳区望京", "用户的家", "用户家在朝阳区望京"),
    ],
)
def test_phone_numbers_and_addresses_in_other_forms_wait(
    mem: MemoryService, words: str, title: str, content: str
) -> None:
    """Sensitive data waits for the user (PRODUCT.md: phone numbers, addresses) in the
    forms people write it, not only mobile numbers and street numbers."""
    res = propose(
        mem.session("s1", user_id="u1"),
        words,
        scope="user",
        domain="个人",
        type="fact",
        title=title,
        content=content,
    )
    assert res["status"] == "pending" and res["rule"] == "sensitive_data", res


@pytest.mark.parametrize(
    "words",
    ["记住我有哮喘", "记住我乳糖不耐受", "remember that I am diabetic", "remember: I have asthma"],
)
def test_health_in_other_words_waits(mem: MemoryService, words: str) -> None:
    """Health data waits for the user (PRODUCT.md) in Chinese and English alike."""
    res = propose(
        mem.session("s1", user_id="u1"),
        words,
        scope="user",
        domain="个人",
        type="fact",
        title="健康状况",
        content=words.split("记住")[-1].split("remember")[-1].strip(" :，"),
    )
    assert res["status"] == "pending" and res["rule"] == "sensitive_data", res
    assert "health" in res["reason"], res


def test_global_scope_is_refused(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    res = propose(
        s,
        "记住，所有人都爱吃辣",
        scope="global",
        domain="生活技能",
        type="fact",
        title="大家都爱吃辣",
    )
    assert res["accepted"] is False and "read-only" in res["reason"]
    # Forgetting a shipped global memory says why it cannot, as proposing does.
    seed = "mem_00000000000000000000000001"
    assert mem.get_node(seed) is not None
    res = s.call_tool("memory_forget", {"id": seed, "reason": "用户不想要"})
    assert res["deletedIds"] == [] and "read-only" in res["reason"], res
    assert res["error"]["code"] == "invalid_input", res
    assert mem.get_node(seed) is not None


def test_supersede_example(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    old = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)["nodeId"]
    s.append_message("user", "香菜现在可以接受一点，但不要太多。")
    res = s.call_tool(
        "memory_propose_update",
        {
            "operation": "supersede",
            "targetId": old,
            "reason": "用户纠正",
            "node": {
                "key": "limit_ingredient",
                "valueJson": {"ingredient": "香菜", "amount": "少量"},
                "title": "用户可接受少量香菜",
                "content": "香菜可以放一点，但不要太多。",
            },
        },
    )
    assert res["accepted"] and res["supersededId"] == old
    assert mem.get_node(old).status == "superseded"  # type: ignore[union-attr]
    new = mem.get_node(res["nodeId"])
    assert new is not None and new.supersedes_id == old and new.status == "active"
    assert [n.id for n in mem.chain(old)] == [old, new.id]
    assert audit_types(mem, new.id)[:2] == ["create", "supersede"]
    ctx = s.build_context("今晚吃什么")
    assert old not in ctx.used_memory_ids and new.id in ctx.used_memory_ids


def test_overwriting_high_confidence_without_clear_intent_waits(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    old = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)["nodeId"]
    s.append_message("user", "今天的汤真好喝")
    res = s.call_tool(
        "memory_propose_update",
        {
            "operation": "update",
            "targetId": old,
            "reason": "模型推断",
            "node": {"key": "preferred_ingredient", "valueJson": "香菜", "title": "用户喜欢香菜"},
        },
    )
    assert res["status"] == "pending" and res["rule"] == "overwrite_high_confidence"
    assert mem.get_node(old).status == "active"  # type: ignore[union-attr]


def test_update_of_an_old_version_is_refused(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    old = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)["nodeId"]
    s.append_message("user", "其实香菜可以少放一点")
    new = s.call_tool(
        "memory_propose_update",
        {
            "operation": "update",
            "targetId": old,
            "reason": "纠正",
            "node": {
                "key": "limit_ingredient",
                "valueJson": {"ingredient": "香菜"},
                "title": "可少量香菜",
            },
        },
    )["nodeId"]
    res = s.call_tool(
        "memory_propose_update", {"operation": "expire", "targetId": old, "reason": "x"}
    )
    assert res["accepted"] is False and new in res["reason"]


def test_expire_and_delete_operations(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    task = propose(
        s,
        "帮我记一下：周五前完成数据库迁移",
        scope="workspace",
        domain="项目",
        type="task",
        key="task_status",
        valueJson={"task": "数据库迁移", "status": "doing"},
        title="完成数据库迁移",
    )
    s.append_message("user", "数据库迁移已经做完了，删掉这个任务吧")
    res = s.call_tool(
        "memory_propose_update",
        {"operation": "expire", "targetId": task["nodeId"], "reason": "完成"},
    )
    assert res["accepted"] and res["status"] == "expired"
    assert mem.get_node(task["nodeId"]).status == "expired"  # type: ignore[union-attr]
    assert "expire" in audit_types(mem, task["nodeId"])


def test_forget_one_hit_soft_deletes(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    node_id = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)["nodeId"]
    s.append_message("user", "忘掉我不吃香菜这件事。")
    res = s.call_tool(
        "memory_forget",
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPathPrefix": COOKING,
            "type": "preference",
            "key": "avoid_ingredient",
            "valueJson": "香菜",
            "mode": "soft",
            "reason": "用户明确要求忘记该饮食偏好",
        },
    )
    assert res == {"deletedIds": [node_id], "mode": "soft", "reason": "forgot 1 memory"}
    assert mem.get_node(node_id).status == "deleted"  # type: ignore[union-attr]
    assert audit_types(mem, node_id)[0] == "delete"


def test_forget_several_hits_requires_confirmation(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    for food in ("香菜", "葱", "姜"):
        propose(
            s, f"记住，以后不要{food}", **{**CILANTRO, "valueJson": food, "title": f"不吃{food}"}
        )
    s.append_message("user", "删除我的做饭偏好")
    res = s.call_tool(
        "memory_forget", {"domain": "生活技能", "categoryPathPrefix": COOKING, "reason": "用户要求"}
    )
    assert res["requiresConfirmation"] is True and res["deletedIds"] == []
    assert len(res["candidates"]) == 3 and res["pendingId"]
    assert all(n.status == "active" for n in mem.list_active_nodes(limit=10))
    approved = mem.decide(res["pendingId"], approve=True, actor="user")
    assert len(approved["deletedIds"]) == 3


def test_hard_delete_waits_then_leaves_no_trace_in_the_file(
    mem: MemoryService, backend: Backend, tmp_path: Path
) -> None:
    s = mem.session("s1", user_id="u1")
    secret = "绝密配方ZQXJ蘸料"
    # Memories kept around it share its table pages (PostgreSQL's VACUUM frees a dead row
    # version's space, but its bytes stay while a live row holds the page).
    for i in range(3):
        kept = propose(
            s,
            f"记住，我爱吃菜{i}",
            scope="user",
            domain="生活技能",
            type="fact",
            title=f"爱吃菜{i}",
        )
        assert kept["accepted"], kept
    first = propose(
        s,
        f"记住，我的{secret}要少放盐",
        scope="user",
        domain="生活技能",
        type="recipe",
        title=f"{secret}做法",
        content=f"{secret}：酱油、醋、少盐。",
        entities=[secret],
    )
    s.append_message("user", f"其实{secret}要加糖")
    upd = s.call_tool(
        "memory_propose_update",
        {
            "operation": "update",
            "targetId": first["nodeId"],
            "reason": "改",
            "node": {"content": f"{secret}：酱油、醋、少盐、加糖。"},
        },
    )
    assert upd["accepted"], upd
    later = propose(
        s, "记住，我也爱吃豆腐", scope="user", domain="生活技能", type="fact", title="爱吃豆腐"
    )
    assert later["accepted"], later
    s.append_message("user", f"把{secret}彻底删掉")
    res = s.call_tool(
        "memory_forget", {"id": upd["nodeId"], "mode": "hard", "reason": "用户要求彻底删除"}
    )
    assert res["requiresConfirmation"] and res["deletedIds"] == []
    assert mem.get_node(upd["nodeId"]) is not None
    decided = mem.decide(res["pendingId"], approve=True, actor="user")
    assert set(decided["deletedIds"]) == {first["nodeId"], upd["nodeId"]}
    assert mem.get_node(first["nodeId"]) is None and mem.get_node(upd["nodeId"]) is None
    # (Semantic recall may still bring the kept recipes: near in meaning, not the secret.)
    found = [n.id for n in mem.retrieve(MemoryQuery(query_text=secret)).relevant]
    assert first["nodeId"] not in found and upd["nodeId"] not in found
    needles = (secret, "ZQXJ", "zqxj")
    if backend.is_postgres:
        # No row of any table (index table included) holds the text, and no dead row
        # version either: the store VACUUMed after the delete.
        assert leaked_rows(mem.user_store, needles) == []
        assert raw_page_hits(mem.user_store, needles) == {}
        mem.close()
        return
    mem.close()
    for path in (tmp_path / "home").glob("memory.db*"):
        data = path.read_bytes()
        for needle in needles:
            assert needle.encode() not in data, f"{needle} left in {path.name}"


def test_a_hard_delete_reaches_a_memory_forgotten_before(mem: MemoryService) -> None:
    """忘掉… (a soft delete), then 彻底删除…: the soft-deleted memory is still in the file,
    and the hard delete the user asks for reaches it, by id and by description."""
    s = mem.session("s1", user_id="u1")
    durian = propose(
        s, "记住，我不吃榴莲。", **{**CILANTRO, "valueJson": "榴莲", "title": "不吃榴莲"}
    )
    scallion = propose(s, "记住，我不吃葱。", **{**CILANTRO, "valueJson": "葱", "title": "不吃葱"})
    for node in (durian, scallion):
        s.append_message("user", "忘掉这条忌口")
        gone = s.call_tool("memory_forget", {"id": node["nodeId"], "reason": "用户要求"})
        assert gone["deletedIds"] == [node["nodeId"]], gone
    again = s.call_tool("memory_forget", {"id": durian["nodeId"], "reason": "再忘一次"})
    assert again["deletedIds"] == [] and "already deleted" in again["reason"], again
    s.append_message("user", "把榴莲那条彻底删掉")
    by_id = s.call_tool(
        "memory_forget", {"id": durian["nodeId"], "mode": "hard", "reason": "彻底删除"}
    )
    by_value = s.call_tool(
        "memory_forget",
        {"key": "avoid_ingredient", "valueJson": "葱", "mode": "hard", "reason": "彻底删除"},
    )
    for res, node in ((by_id, durian), (by_value, scallion)):
        assert res.get("requiresConfirmation") is True, res
        assert [c["id"] for c in res["candidates"]] == [node["nodeId"]]
        decided = mem.decide(res["pendingId"], approve=True, actor="user")
        assert decided["deletedIds"] == [node["nodeId"]]
        assert mem.get_node(node["nodeId"]) is None


def test_write_failure_reports_not_accepted(
    mem: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ekko_memory.store.writer import StoreWriter

    s = mem.session("s1", user_id="u1")
    s.append_message("user", "记住，我以后做饭不要香菜。")

    def boom(self: StoreWriter, *a: object, **k: object) -> None:
        raise OSError("disk full (injected)")

    monkeypatch.setattr(StoreWriter, "add_audit", boom)
    res = s.call_tool(
        "memory_propose_update", {"operation": "create", "node": CILANTRO, "reason": "r"}
    )
    monkeypatch.undo()
    assert res["accepted"] is False and "error" in res
    assert mem.user_store.list_active_nodes(limit=10) == []


def test_user_edits_revert_and_restore(mem: MemoryService) -> None:
    node_id = user_write(
        mem,
        scope="user",
        domain="生活技能",
        category_path=COOKING,
        type="preference",
        key="avoid_ingredient",
        value_json="香菜",
        title="用户不吃香菜",
    )
    assert mem.get_node(node_id).origin == "user_edit"  # type: ignore[union-attr]


def test_update_of_title_or_content_alone_makes_a_new_version(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    first = propose(
        s,
        "记住：提交前必须跑测试",
        scope="workspace",
        domain="项目",
        type="constraint",
        key="coding_rule",
        valueJson="提交前跑测试",
        title="提交前必须跑测试",
        confidence=0.8,
    )
    s.append_message("user", "把这条规则的说明改清楚一点")
    res = s.call_tool(
        "memory_propose_update",
        {
            "operation": "update",
            "targetId": first["nodeId"],
            "reason": "说明更清楚",
            "node": {"content": "每次提交前运行 make test。"},
        },
    )
    assert res["status"] == "superseded" and res["nodeId"] != first["nodeId"]
    assert mem.get_node(res["nodeId"]).content == "每次提交前运行 make test。"  # type: ignore[union-attr]
    same = s.call_tool(
        "memory_propose_update",
        {
            "operation": "update",
            "targetId": res["nodeId"],
            "reason": "again",
            "node": {"content": "每次提交前运行 make test。"},
        },
    )
    assert same["status"] == "duplicate" and same["nodeId"] == res["nodeId"]


def _avoid_both(
    call: Callable[[str, dict[str, Any]], dict[str, Any]], asked: str
) -> list[dict[str, Any]]:
    """Two proposals of one turn (不吃香菜, 不吃葱), each passing the user's words."""
    return [
        call(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "test",
                "userMessage": asked,
                "node": {
                    "scope": "user",
                    "domain": "生活技能",
                    "type": "preference",
                    "key": "avoid_ingredient",
                    "valueJson": value,
                    "title": f"不吃{value}",
                },
            },
        )
        for value in ("香菜", "葱")
    ]


def test_user_message_through_call_tool_is_the_agents_report_kept_once(
    mem: MemoryService,
) -> None:
    """PRODUCT §4: through call_tool, intent comes only from the session log. An agent's
    userMessage "记住…" asks nothing of the service: the user-scope proposals wait for
    the user, each resting on one kept report (role tool, reportedBy agent) the inbox
    shows; reads keep no report; nothing is logged as the user's."""
    s = mem.session("mcp", user_id="u1")
    asked = "记住，我不吃香菜，也不吃葱"
    held = _avoid_both(s.call_tool, asked)
    assert [r["status"] for r in held] == ["pending", "pending"], held
    assert {r["rule"] for r in held} == {"user_scope_without_intent"}
    s.call_tool("memory_search", {"queryText": "香菜", "userMessage": "我是不是不吃香菜？"})
    s.call_tool("memory_get", {"key": "avoid_ingredient", "userMessage": "我是不是不吃葱？"})
    log = mem.list_recent_messages(session_id="mcp", limit=10)
    assert [(m.role, m.content, m.reported_by_agent) for m in log] == [("tool", asked, True)]
    assert [p.source_message_ids for p in mem.pending()] == [[log[0].id], [log[0].id]]
    assert s.latest_user_message() is None


def test_user_message_a_host_vouches_for_is_logged_as_the_users_once(
    mem: MemoryService,
) -> None:
    """An MCP server started with --trust-user-message (its client keeps no log) takes
    userMessage as the user's own words: logged once as theirs, read for intent, also
    on reads."""
    from ekko_memory.interfaces.tools import dispatch

    s = mem.session("mcp", user_id="u1")

    def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
        return dispatch(s, name, args, trust_user_message=True)

    asked = "记住，我不吃香菜，也不吃葱"
    assert [r["accepted"] for r in _avoid_both(call, asked)] == [True, True]
    question = "我是不是不吃香菜？"
    found = call("memory_search", {"queryText": "香菜", "userMessage": question})
    assert "香菜" in [n.get("valueJson") for n in found["exact"] + found["relevant"]]
    got = call(
        "memory_get", {"key": "avoid_ingredient", "valueJson": "葱", "userMessage": question}
    )
    assert got["found"] is True and got["valueJson"] == "葱"
    log = mem.list_recent_messages(session_id="mcp", limit=10)
    assert [(m.role, m.content) for m in log] == [("user", asked), ("user", question)]


def _quoting(mem: MemoryService, text: str) -> dict[str, int]:
    """Tables of either store (messages aside) with a row quoting ``text``."""
    found: dict[str, int] = {}
    for name, store in mem.stores():
        with store.read() as r:
            for table, n in r.text_occurrences(text).items():
                if table != "memory_messages":
                    found[f"{name}:{table}"] = n
    return found


def test_hard_delete_of_an_approved_proposal_scrubs_the_proposals_audit(
    mem: MemoryService,
) -> None:
    """The audit row of the proposal names the proposed node's id, not the id the approval
    gave the memory: the agent's reason in it outlived the hard delete."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    secret = "糖尿病QZX"
    s.append_message("user", f"记住，我有{secret}，做饭少糖。")
    held = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": f"用户说自己有{secret}",
            "node": {
                "scope": "user",
                "domain": "生活技能",
                "type": "fact",
                "title": f"用户有{secret}",
                "content": f"用户有{secret}，做饭少糖。",
            },
        },
    )
    assert held["status"] == "pending" and held["rule"] == "sensitive_data", held
    node_id = mem.decide(held["pendingId"], approve=True, actor="user")["nodeId"]
    assert _quoting(mem, secret)
    assert mem.actions.delete(node_id, "hard") == [node_id]
    assert _quoting(mem, secret) == {}


def test_hard_delete_scrubs_a_promotion_waiting_in_the_other_store(mem: MemoryService) -> None:
    """A proposal to move a session memory into the user's scope waits in the user store;
    hard deleting the session memory settles it and scrubs its text there too."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    secret = "私房辣酱ZQV"
    today, held = promotion_held(s, f"长期偏好，配{secret}", f"少辣，配{secret}")
    assert _quoting(mem, secret)
    mem.actions.delete(today, "hard")
    assert _quoting(mem, secret) == {}
    assert mem.pending() == []
    (item,) = mem.pending(None)
    assert item.id == held["pendingId"] and item.status == "expired"


@pytest.mark.sqlite_only(
    reason="migration backups are SQLite files (a server's are its operator's)"
)
def test_hard_delete_removes_the_migration_backups_that_hold_the_memory(
    mem: MemoryService,
) -> None:
    """An upgrade copies the file to ``backups/`` first: a copy of the memory too."""
    older = mem.user_store.dialect.backup(6)  # from before the memory was written
    secret = "绝密配方ZQB"
    node_id = user_write(
        mem, scope="user", domain="生活技能", type="recipe", title=secret, content=f"{secret}做法"
    )
    holding = mem.user_store.dialect.backup(6)
    assert older is not None and holding is not None and holding != older
    assert secret.encode() in holding.read_bytes()
    mem.actions.delete(node_id, "hard")
    assert not holding.exists()
    assert older.exists()  # it never held the memory


@pytest.mark.parametrize(
    "said",
    ["香菜那条记忆让它过期吧。", "不吃香菜这条已经作废了。", "Let the cilantro note expire."],
)
def test_a_user_asking_a_memory_to_expire_is_clear_intent(mem: MemoryService, said: str) -> None:
    """The expire operation: a user who asks for a memory to expire (让它过期, 作废) asks as
    clearly as one who says 忘掉 — the high-confidence memory expires, it does not wait."""
    s = mem.session("s1", user_id="u1")
    old = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)["nodeId"]
    s.append_message("user", said)
    res = s.call_tool(
        "memory_propose_update",
        {"operation": "expire", "targetId": old, "node": {}, "reason": "用户要求过期"},
    )
    assert res["accepted"] is True, res
    assert mem.get_node(old).status == "expired"  # type: ignore[union-attr]
