"""Read side: retrieval, conflict resolution, the per-turn context and its rendering."""

from __future__ import annotations

from datetime import datetime

import pytest

from ekko_memory import InvalidInput, MemoryNode, MemoryQuery, MemoryService
from tests.core.conftest import Clock
from tests.core.helpers import COOKING, keyword_path, propose, user_write


def seed_cooking(mem: MemoryService) -> dict[str, str]:
    ids = {
        "cilantro": user_write(
            mem,
            scope="user",
            domain="生活技能",
            category_path=COOKING,
            type="preference",
            key="avoid_ingredient",
            value_json="香菜",
            title="用户不吃香菜",
            content="推荐菜谱时避免香菜。",
            entities=["香菜"],
        ),
        "flavor": user_write(
            mem,
            scope="user",
            domain="生活技能",
            category_path=COOKING,
            type="preference",
            key="flavor_profile",
            value_json="少油少辣",
            title="用户偏好少油少辣",
            content="推荐菜谱时优先少油少辣。",
            entities=["少油", "少辣"],
        ),
        "money": user_write(
            mem,
            scope="user",
            domain="生活技能",
            category_path=["生活技能", "理财"],
            type="preference",
            title="每月定投指数基金",
            content="用户偏好每月定投。",
            importance=0.99,
        ),
        "travel": user_write(
            mem,
            scope="user",
            domain="出行",
            category_path=["出行", "偏好"],
            type="preference",
            title="出行偏好靠窗座位",
            content="订机票时选靠窗座位。",
            importance=0.95,
        ),
    }
    return ids


def test_read_example_tonight_dinner(mem: MemoryService) -> None:
    ids = seed_cooking(mem)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "今晚吃什么？")
    ctx = s.build_context("今晚吃什么？")
    assert {n.id for n in ctx.preferences} == {ids["cilantro"], ids["flavor"]}
    assert set(ctx.used_memory_ids) == {ids["cilantro"], ids["flavor"]}
    assert not ctx.constraints and not ctx.facts and not ctx.active_tasks and not ctx.relevant_nodes
    text = ctx.render(max_tokens=300)
    assert "推荐菜谱时避免香菜。" in text and "推荐菜谱时优先少油少辣。" in text
    assert "定投" not in text and "靠窗" not in text
    assert ctx.diagnostics.store_status == "ok" and ctx.diagnostics.retrieved_node_count == 2
    assert [m.content for m in ctx.recent_messages] == ["今晚吃什么？"]


def test_retrieve_takes_the_query_or_its_json(mem: MemoryService) -> None:
    """The design doc's MemoryQuery arrives as JSON as often as as a model: the dict gives
    the same answer; a wrong field or type is InvalidInput, never an AttributeError. A
    pending status that does not exist is refused too, not answered with nothing."""
    ids = seed_cooking(mem)
    query = {"userId": "u1", "key": "avoid_ingredient", "valueJson": "香菜"}
    by_model = mem.retrieve(MemoryQuery.model_validate(query))
    by_json = mem.retrieve(query)
    assert [n.id for n in by_json.exact] == [n.id for n in by_model.exact] == [ids["cilantro"]]
    for bad, words in (
        ({"query": "香菜"}, "query"),
        ({"limit": 0}, "limit"),
        (None, "MemoryQuery"),
        ("香菜", "MemoryQuery"),
    ):
        with pytest.raises(InvalidInput, match=words):
            mem.retrieve(bad)  # type: ignore[arg-type]
    assert mem.pending("approved") == []
    with pytest.raises(InvalidInput, match="pending, approved"):
        mem.pending("waiting")


def test_a_query_naming_only_a_key_finds_it_in_any_domain(mem: MemoryService) -> None:
    """A key alone (no domain, no type) is the key some rule allows: the project decision
    ``language`` was read as the 个人 preference synonym of ``reply_language`` and found
    nothing — by memory_search, memory_get and memory_forget alike. A synonym still
    resolves (disliked_ingredient → avoid_ingredient)."""
    ids = seed_cooking(mem)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    made = propose(
        s,
        "记住，这个项目用 Python",
        domain="项目",
        type="decision",
        key="language",
        valueJson="Python",
        title="用 Python",
    )
    assert made["accepted"], made
    found = mem.retrieve(MemoryQuery(workspace_id="w1", key="language"))
    assert [n.id for n in found.exact] == [made["nodeId"]]
    assert s.call_tool("memory_search", {"key": "language"})["exact"][0]["id"] == made["nodeId"]
    got = s.call_tool("memory_get", {"key": "language", "valueJson": "python"})
    assert got["found"] is True and got["id"] == made["nodeId"], got
    synonym = mem.retrieve(MemoryQuery(user_id="u1", key="disliked_ingredient"))
    assert [n.id for n in synonym.exact] == [ids["cilantro"]]
    s.append_message("user", "忘掉项目语言这条")
    gone = s.call_tool("memory_forget", {"key": "language", "reason": "用户要求"})
    assert gone["deletedIds"] == [made["nodeId"]], gone


def test_flavor_value_was_normalized(mem: MemoryService) -> None:
    ids = seed_cooking(mem)
    node = mem.get_node(ids["flavor"])
    assert node is not None and node.value_json == {"oil": "low", "spicy": "low"}


def test_conflict_example_temporary_constraint_ranks_first(mem: MemoryService) -> None:
    sichuan = user_write(
        mem,
        scope="user",
        domain="生活技能",
        category_path=COOKING,
        type="preference",
        key="preferred_cuisine",
        value_json="川菜",
        title="用户喜欢川菜",
        content="用户喜欢川菜。",
    )
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "今天胃不舒服，少辣。")
    res = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "临时状态",
            "node": {
                "domain": "生活技能",
                "type": "constraint",
                "key": "flavor_profile",
                "valueJson": "少辣",
                "title": "今天胃不舒服，少辣",
                "content": "用户今天胃不舒服，推荐菜时少辣。",
            },
        },
    )
    assert res["accepted"], res
    constraint = mem.get_node(res["nodeId"])
    assert (
        constraint is not None
        and constraint.scope == "session"
        and constraint.expires_at is not None
    )
    ctx = s.build_context("晚饭推荐点什么菜？")
    assert [n.id for n in ctx.constraints] == [constraint.id]
    assert [n.id for n in ctx.preferences] == [sichuan]
    text = ctx.render()
    assert text.index("少辣") < text.index("川菜")


def test_session_beats_user_for_the_same_key(mem: MemoryService) -> None:
    user_flavor = user_write(
        mem,
        scope="user",
        domain="生活技能",
        category_path=COOKING,
        type="preference",
        key="flavor_profile",
        value_json={"spicy": "high"},
        title="用户爱吃辣",
    )
    session_flavor = user_write(
        mem,
        scope="session",
        session_id="s1",
        domain="生活技能",
        category_path=COOKING,
        type="preference",
        key="flavor_profile",
        value_json={"spicy": "none"},
        title="这次不要辣",
    )
    result = mem.retrieve(
        MemoryQuery(
            session_id="s1",
            user_id="u1",
            key="flavor_profile",
            domain="生活技能",
            types=["preference"],
        )
    )
    assert [n.id for n in result.exact] == [session_flavor]
    assert {(o.node_id, o.reason) for o in result.omitted} == {(user_flavor, "conflict_lost")}
    ctx = mem.session("s1", user_id="u1").build_context("做饭")
    assert session_flavor in ctx.used_memory_ids and user_flavor not in ctx.used_memory_ids
    assert any(o.node_id == user_flavor and o.reason == "conflict_lost" for o in ctx.omitted)


def test_partial_override_keeps_the_broader_preference_below(mem: MemoryService) -> None:
    broad = user_write(
        mem,
        scope="user",
        domain="生活技能",
        category_path=COOKING,
        type="preference",
        key="flavor_profile",
        value_json="少油少辣",
        title="用户偏好少油少辣",
    )
    today = user_write(
        mem,
        scope="session",
        session_id="s1",
        domain="生活技能",
        category_path=COOKING,
        type="constraint",
        key="flavor_profile",
        value_json="不辣",
        title="今天不吃辣",
    )
    ctx = mem.session("s1", user_id="u1").build_context("今晚做什么菜")
    assert [n.id for n in ctx.constraints] == [today]
    assert [n.id for n in ctx.preferences] == [broad]


def test_ranking_reads_only_the_columns_its_facts_are_remembered_under(
    mem: MemoryService,
) -> None:
    """A row's ranking facts are remembered under ``RANKING_COLUMNS`` alone: changing any
    other column must change neither its priority, its conflict identity, its expiry nor
    its confidence (else a changed row would rank as it did before the change)."""
    from datetime import timedelta

    from ekko_memory.schema.normalize import conflict_identity
    from ekko_memory.service.ranking import priority_key
    from ekko_memory.store.filters import NodeFilter
    from ekko_memory.store.rows import NODE_COLUMNS, RANKING_COLUMNS, NodeRow
    from tests.core.factories import make_node

    now = mem.now()
    nodes = [
        make_node(),
        make_node(key="flavor_profile", value_json={"spicy": "low"}, origin="user_explicit"),
        make_node(type="constraint", key="flavor_profile", expires_at=now + timedelta(hours=1)),
        make_node(key="avoid_ingredient", value_json={"ingredient": "葱"}, scope="user"),
        make_node(key=None, value_json=None, title="番茄炒蛋做法", type="recipe"),
    ]
    with mem.user_store.write() as w:
        w.insert_nodes(nodes)
    with mem.user_store.read() as r:
        rows = r.find_node_rows(NodeFilter(ids=[n.id for n in nodes]), limit=None)
    assert len(rows) == len(nodes)

    def facts(row: NodeRow) -> tuple[object, ...]:
        return (
            priority_key(row, now),
            conflict_identity(mem.registry, row),
            row.is_expired(now),
            row.confidence,
        )

    others = [i for i, name in enumerate(NODE_COLUMNS) if name not in RANKING_COLUMNS]
    assert {NODE_COLUMNS[i] for i in others} >= {"content", "title", "tags_json"}
    for row in rows:
        for i in others:
            changed = list(row)
            value = changed[i]
            changed[i] = (
                "zz" if value is None else value + 1 if isinstance(value, int) else f"{value}zz"
            )
            assert facts(NodeRow(changed)) == facts(row), NODE_COLUMNS[i]


def test_a_context_is_the_model_full_validation_would_build(mem: MemoryService) -> None:
    """The context is assembled without validation (``trusted``): it must equal the same
    values validated, render, and share nothing a caller could change between turns."""
    from pydantic import ValidationError

    from ekko_memory.models import MemoryContext, omission

    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "今晚吃什么？", metadata={"client": {"tags": ["a"]}})
    user_write(
        mem,
        scope="user",
        domain="生活技能",
        category_path=COOKING,
        type="preference",
        key="flavor_profile",
        value_json={"spicy": "low", "oil": "low"},
        title="少油少辣",
        tags=["口味"],
    )
    ctx = s.build_context("今晚吃什么？")
    assert ctx.preferences and ctx.recent_messages
    assert ctx == MemoryContext.model_validate(ctx.model_dump())
    assert "少油少辣" in ctx.render(max_tokens=None)
    # Omissions are read-only reports, shared between turns.
    shared = omission(ctx.preferences[0].id, "over_limit")
    assert shared is omission(ctx.preferences[0].id, "over_limit")
    with pytest.raises(ValidationError, match="frozen"):
        shared.reason = "expired"
    ctx.recent_messages[0].metadata["client"]["tags"].append("改过")
    ctx.preferences[0].tags.append("改过")
    ctx.preferences[0].value_json["spicy"] = "改过"
    again = s.build_context("今晚吃什么？")
    assert again.recent_messages[0].metadata == {"client": {"tags": ["a"]}}
    assert again.preferences[0].tags == ["口味"]
    assert again.preferences[0].value_json == {"spicy": "low", "oil": "low"}


def test_expired_nodes_are_never_injected_and_listed(mem: MemoryService, clock: Clock) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "今天别做辣的")
    res = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "r",
            "node": {
                "domain": "生活技能",
                "type": "constraint",
                "key": "flavor_profile",
                "valueJson": "不辣",
                "title": "今天不吃辣",
            },
        },
    )
    node_id = res["nodeId"]
    assert node_id in s.build_context("吃什么").used_memory_ids
    clock.advance(days=2)
    ctx = s.build_context("吃什么")
    assert node_id not in ctx.used_memory_ids
    assert any(o.node_id == node_id and o.reason == "expired" for o in ctx.omitted)
    result = mem.retrieve(
        MemoryQuery(session_id="s1", key="flavor_profile", domain="生活技能", types=["constraint"])
    )
    assert result.exact == [] and [(o.node_id, o.reason) for o in result.omitted] == [
        (node_id, "expired")
    ]
    with_expired = mem.retrieve(
        MemoryQuery(
            session_id="s1",
            key="flavor_profile",
            domain="生活技能",
            types=["constraint"],
            include_expired=True,
        )
    )
    assert [n.id for n in with_expired.exact] == [node_id]


def test_a_turn_judges_expiry_at_one_instant(mem: MemoryService) -> None:
    """Every query of a turn counts as live what the turn's screening counts as unexpired:
    a clock that moves between the queries must not drop a match silently."""
    from datetime import timedelta
    from itertools import count

    from tests.core.factories import make_node

    start = mem.now()
    # Reachable only through the text search (a user fact: no topic query fetches it).
    price = make_node(
        domain="生活技能",
        category_path=["生活技能", "理财"],
        type="fact",
        key=None,
        value_json=None,
        title="香菜价格每斤八元",
        expires_at=start + timedelta(minutes=20),
    )
    with mem.user_store.write() as w:
        w.insert_nodes([price])
    ticks = count()
    mem.clock = lambda: start + timedelta(minutes=40 * next(ticks))
    ctx = mem.session("s1", user_id="u1", workspace_id="w1").build_context("香菜价格")
    assert price.id in ctx.used_memory_ids, ctx.omitted


def test_expired_matches_never_crowd_a_live_one_out_of_the_keyword_search(
    mem: MemoryService,
) -> None:
    """The keyword search reads only what is live at the turn's instant: more expired
    matches than the search's limit, all ranking above it, leave the live one found."""
    from datetime import timedelta

    from tests.core.factories import make_node

    now = mem.now()

    def price(title: str, **kw: object) -> MemoryNode:
        return make_node(
            category_path=["生活技能", "理财"],
            type="fact",
            key=None,
            value_json=None,
            title=title,
            content=title,
            **kw,
        )

    expired = [
        price(f"香菜价格 香菜价格 第{i}周", expires_at=now - timedelta(hours=1)) for i in range(12)
    ]
    live = price("香菜价格每斤八元", updated_at=now - timedelta(days=30))
    with mem.user_store.write() as w:
        w.insert_nodes([*expired, live])
    ctx = mem.session("s1", user_id="u1", workspace_id="w1").build_context("香菜价格")
    assert live.id in ctx.used_memory_ids, ctx.omitted
    assert not {n.id for n in expired} & set(ctx.used_memory_ids)


def test_other_tenants_never_crowd_out_ones_own_memories(mem: MemoryService) -> None:
    """In a shared store (a team's PostgreSQL schema) other users' and other workspaces'
    memories, however important, are left out by the queries themselves: they never fill
    a limit that the session's own memories needed."""
    from tests.core.factories import make_node

    crowd = [
        make_node(
            user_id="u2",
            value_json=f"菜{i}",
            title=f"别人不吃菜{i}",
            importance=0.99,
            confidence=0.99,
        )
        for i in range(40)
    ]

    def coding_rule(workspace_id: str, text: str, importance: float) -> MemoryNode:
        return make_node(
            scope="workspace",
            workspace_id=workspace_id,
            domain="项目",
            category_path=["项目", "约束"],
            type="constraint",
            key="coding_rule",
            value_json=text,
            title=text,
            importance=importance,
        )

    elsewhere = [coding_rule("w2", f"别的工作区规则{i}", 0.99) for i in range(40)]
    mine = make_node(user_id="u1", value_json="香菜", title="我不吃香菜", importance=0.3)
    rule = coding_rule("w1", "公共函数必须有类型注解", 0.3)
    with mem.user_store.write() as w:
        w.insert_nodes([*crowd, mine])
    with mem.workspace_store.write() as w:
        w.insert_nodes([*elsewhere, rule])
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    ctx = s.build_context("今晚吃什么？")
    assert [n.id for n in ctx.preferences] == [mine.id]
    assert [n.id for n in ctx.constraints] == [rule.id]
    assert not {n.id for n in crowd + elsewhere} & set(ctx.used_memory_ids)
    # The tools read the same way: search, get by key, forget by description.
    found = s.call_tool("memory_search", {"queryText": "不吃", "limit": 5})
    assert [n["id"] for n in found["exact"] + found["relevant"]] == [mine.id]
    got = s.call_tool("memory_get", {"type": "preference", "key": "avoid_ingredient"})
    assert got["found"] is True and got["id"] == mine.id
    got = s.call_tool("memory_get", {"type": "constraint", "key": "coding_rule"})
    assert got["found"] is True and got["id"] == rule.id


def test_superseded_never_injected(mem: MemoryService) -> None:
    ids = seed_cooking(mem)
    s = mem.session("s1", user_id="u1")
    s.append_message("user", "香菜现在可以接受一点，但不要太多。")
    res = s.call_tool(
        "memory_propose_update",
        {
            "operation": "supersede",
            "targetId": ids["cilantro"],
            "reason": "用户纠正",
            "node": {
                "key": "limit_ingredient",
                "valueJson": {"ingredient": "香菜", "amount": "少量"},
                "title": "用户可接受少量香菜",
                "content": "香菜可以放一点，但不要多。",
            },
        },
    )
    assert res["accepted"] and res["status"] == "superseded", res
    ctx = s.build_context("今晚吃什么")
    assert ids["cilantro"] not in ctx.used_memory_ids and res["nodeId"] in ctx.used_memory_ids
    found = mem.retrieve(MemoryQuery(query_text="香菜", user_id="u1"))
    assert ids["cilantro"] not in [n.id for n in found.relevant]
    assert (ids["cilantro"], "superseded") in {(o.node_id, o.reason) for o in found.omitted}


def test_soft_deleted_never_retrieved(mem: MemoryService) -> None:
    ids = seed_cooking(mem)
    assert mem.delete_node(node_id=ids["cilantro"], mode="soft", reason="user")
    found = mem.retrieve(MemoryQuery(query_text="香菜"))
    every = [n.id for n in (*found.exact, *found.relevant)] + [o.node_id for o in found.omitted]
    assert ids["cilantro"] not in every
    assert (
        ids["cilantro"]
        not in mem.session("s1", user_id="u1").build_context("今晚吃什么").used_memory_ids
    )


def test_over_limit_when_the_budget_is_small(mem: MemoryService) -> None:
    for i in range(6):
        user_write(
            mem,
            scope="user",
            domain="生活技能",
            category_path=COOKING,
            type="preference",
            key="avoid_ingredient",
            value_json=f"食材{i}",
            title=f"不吃食材{i}",
            content=f"用户不吃食材{i}，推荐时避开它，这是一条比较长的说明文字。",
        )
    ctx = mem.session("s1", user_id="u1").build_context("今晚吃什么")
    assert len(ctx.preferences) == 6
    text = ctx.render(max_tokens=60)
    over = [o.node_id for o in ctx.omitted if o.reason == "over_limit"]
    assert over and len(ctx.rendered_memory_ids) + len(over) == 6
    from ekko_memory.models.context_render import estimate_tokens

    assert estimate_tokens(text) <= 60
    assert set(ctx.rendered_memory_ids).isdisjoint(over)
    assert any(w.startswith("token budget 60") for w in ctx.diagnostics.warnings)
    # A roomier render reports its own outcome: nothing left out, no stale warning.
    ctx.render(max_tokens=10_000)
    assert len(ctx.rendered_memory_ids) == 6
    assert not [o for o in ctx.omitted if o.reason == "over_limit"]
    assert not [w for w in ctx.diagnostics.warnings if w.startswith("token budget")]


def test_query_languages(mem: MemoryService) -> None:
    zh = user_write(
        mem,
        scope="workspace",
        domain="项目",
        type="decision",
        key="database",
        value_json="PostgreSQL",
        title="数据库选用PostgreSQL",
        content="团队决定用 PostgreSQL 存储会话。",
    )
    en = user_write(
        mem,
        scope="workspace",
        domain="项目",
        type="constraint",
        key="performance",
        value_json="p95 under 200ms",
        title="Latency budget",
        content="API latency must stay under 200 ms.",
    )
    zh_hits = mem.retrieve(MemoryQuery(query_text="数据库"))
    assert [n.id for n in zh_hits.relevant] == [zh]
    en_hits = mem.retrieve(MemoryQuery(query_text="latency"))
    assert [n.id for n in en_hits.relevant] == [en]


def test_a_chat_message_finds_memories_by_its_keywords(mem: MemoryService) -> None:
    """The fourth way of the per-turn context: a sentence is not one phrase; any of its
    words finds a memory, and one shared bigram alone does not bring in an unrelated one."""
    recipe = user_write(
        mem,
        scope="user",
        domain="生活技能",
        category_path=["生活技能", "做饭", "菜谱"],
        type="recipe",
        title="红烧肉做法",
        content="五花肉焯水，炒糖色后小火炖一小时。",
        entities=["红烧肉", "五花肉"],
    )
    skill = user_write(
        mem,
        scope="user",
        domain="编程",
        category_path=["编程", "Python"],
        type="skill",
        title="用pytest写测试",
        content="用户熟悉pytest和hypothesis。",
    )
    braise = user_write(
        mem,
        scope="user",
        domain="cooking",
        type="recipe",
        title="Braised pork belly",
        content="Blanch the pork belly, caramelize sugar, simmer for an hour.",
    )
    umbrella = user_write(
        mem,
        scope="user",
        domain="出行",
        type="fact",
        title="雨季出门带伞",
        content="出门前注意看天气。",
    )
    s = mem.session("s1", user_id="u1")

    def relevant(message: str) -> list[str]:
        ctx = s.build_context(message)
        assert ctx.diagnostics.store_status == "ok", ctx.diagnostics
        return [n.id for n in ctx.relevant_nodes]

    dinner = relevant("我想做红烧肉，有什么要注意的？")
    assert recipe in dinner
    # The prompt names the dish: the recipe's content alone does not.
    assert "红烧肉做法：五花肉焯水" in s.build_context("我想做红烧肉").render()
    # 注意 is shared, but met in passing in the umbrella's content it is no evidence.
    assert umbrella not in dinner
    assert relevant("帮我写几个pytest测试") == [skill]
    # The English recipe by its words; semantic recall adds the Chinese one (the same dish).
    braised = relevant("How do I make braised pork belly tonight?")
    assert braised[0] == braise and set(braised) <= {braise, recipe}
    # Only glue and stop words, punctuation, or FTS syntax: nothing to search, no error.
    assert relevant("继续") == []
    assert relevant("？！") == []
    assert relevant('NEAR("红烧" OR') == [recipe]
    # A word no memory held a moment ago is found as soon as one does (no stale counts).
    # (Semantic recall may bring other food memories to a food question, never first.)
    with keyword_path(mem):
        assert relevant("周末去吃火锅吧") == []
    hotpot = user_write(
        mem, scope="user", domain="生活技能", type="fact", title="常去的火锅店", content="海底捞"
    )
    assert relevant("周末去吃火锅吧")[0] == hotpot
    with keyword_path(mem):
        assert relevant("周末去吃火锅吧") == [hotpot]
    # memory_search: keywords must all match; a sentence falls back to any of its words
    # (semantic recall then adds the nearest in meaning: test_semantic.py).
    with keyword_path(mem):
        found = mem.retrieve(MemoryQuery(query_text="红烧肉 五花肉")).relevant
        assert [n.id for n in found] == [recipe]
        asked = mem.retrieve(MemoryQuery(user_id="u1", query_text="红烧肉要怎么做才好吃"))
        assert [n.id for n in asked.relevant] == [recipe]
        ahead = mem.retrieve(MemoryQuery(query_text="出门前要注意什么")).relevant
        assert [n.id for n in ahead] == [umbrella]
        assert mem.retrieve(MemoryQuery(query_text="最近要注意身体")).relevant == []
    asked = mem.retrieve(MemoryQuery(user_id="u1", query_text="红烧肉要怎么做才好吃"))
    assert asked.relevant[0].id == recipe


def test_a_query_without_text_or_fields_lists_the_scopes_memories(mem: MemoryService) -> None:
    """An agent's bare memory_search (or one with empty lists) is a question, not a miss:
    it gets the scopes' memories in priority order, within the limit."""
    ids = seed_cooking(mem)
    everything = mem.retrieve(MemoryQuery(user_id="u1", scopes=["user"], limit=3))
    listed = [n.id for n in everything.exact]
    assert len(listed) == 3 and [o.reason for o in everything.omitted] == ["over_limit"]
    assert {*listed, everything.omitted[0].node_id} == set(ids.values())
    empty_lists = mem.retrieve(
        MemoryQuery(user_id="u1", types=[], tags=[], category_path_prefix=[], scopes=[])
    )
    assert {n.id for n in empty_lists.exact} >= set(ids.values())


def test_exact_key_and_value(mem: MemoryService) -> None:
    ids = seed_cooking(mem)
    hit = mem.retrieve(
        MemoryQuery(
            user_id="u1",
            key="disliked_ingredient",
            value_json="香菜",
            domain="生活技能",
            types=["preference"],
        )
    )
    assert [n.id for n in hit.exact] == [ids["cilantro"]]
    flavor = mem.retrieve(
        MemoryQuery(
            key="flavor_profile", value_json="少辣", domain="生活技能", types=["preference"]
        )
    )
    assert [n.id for n in flavor.exact] == [ids["flavor"]]
    miss = mem.retrieve(
        MemoryQuery(
            key="avoid_ingredient", value_json="葱", domain="生活技能", types=["preference"]
        )
    )
    assert miss.exact == []


def test_a_key_synonym_finds_the_memory_without_a_domain(mem: MemoryService) -> None:
    # domain is optional in memory_search / memory_get / memory_forget: a synonym of a
    # controlled key must still reach the memory it names (受控 schema: 同义 key 归一).
    ids = seed_cooking(mem)
    hit = mem.retrieve(MemoryQuery(user_id="u1", key="disliked_ingredient", value_json="香菜"))
    assert [n.id for n in hit.exact] == [ids["cilantro"]]
    s = mem.session("s1", user_id="u1")
    got = s.call_tool("memory_get", {"key": "disliked_ingredient", "valueJson": "香菜"})
    assert got["found"] is True and got["id"] == ids["cilantro"]
    found = s.call_tool("memory_search", {"types": ["preference"], "key": "disliked_ingredient"})
    assert [n["id"] for n in found["exact"]] == [ids["cilantro"]]
    s.append_message("user", "忘掉我不吃香菜这件事")
    gone = s.call_tool(
        "memory_forget", {"key": "disliked_ingredient", "valueJson": "香菜", "reason": "用户要求"}
    )
    assert gone["deletedIds"] == [ids["cilantro"]]


def test_usage_is_recorded(mem: MemoryService) -> None:
    ids = seed_cooking(mem)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "今晚吃什么？")
    ctx = s.build_context("今晚吃什么？")
    ctx.render()
    reply = s.record_reply("推荐番茄炒蛋，少油，不放香菜。", ctx)
    assert set(reply.metadata["usedMemoryIds"]) == {ids["cilantro"], ids["flavor"]}  # type: ignore[index]
    usage = mem.history(ids["cilantro"]).usage
    assert usage is not None and usage.count == 1 and usage.recent_message_ids == [reply.id]


@pytest.mark.sqlite_only(
    reason="a broken file (PostgreSQL: an unreachable server, test_postgres.py)"
)
def test_degrades_when_the_workspace_store_is_broken(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ekko_memory import open_memory

    ws = tmp_path / "ws"
    (ws / ".ekko").mkdir(parents=True)
    (ws / ".ekko" / "memory.db").write_bytes(b"not a database at all" * 100)
    mem = open_memory(ws, user_home=tmp_path / "home")
    s = mem.session("s1", user_id="u1")
    ctx = s.build_context("今晚吃什么？")
    assert ctx.diagnostics.store_status == "degraded" and ctx.diagnostics.enabled
    assert any("workspace store disabled" in w for w in ctx.diagnostics.warnings)
    assert [m.content for m in ctx.recent_messages] == ["今晚吃什么？"]
    res = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "r",
            "node": {"scope": "session", "domain": "生活技能", "type": "fact", "title": "x"},
        },
    )
    assert res["accepted"] is False and "nothing was written" in res["reason"]
    mem.close()


@pytest.mark.sqlite_only(reason="directories in place of files")
def test_disabled_everywhere_still_answers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ekko_memory import open_memory

    (tmp_path / "ws" / ".ekko" / "memory.db").mkdir(parents=True)
    (tmp_path / "home" / "memory.db").mkdir(parents=True)
    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    ctx = mem.session("s1").build_context("hello")
    assert ctx.diagnostics.enabled is False and ctx.diagnostics.store_status == "disabled"
    assert ctx.recent_messages[0].content == "hello"
    assert ctx.render() == ""
    mem.close()


def test_untyped_rows_rank_like_the_typed_nodes(mem: MemoryService) -> None:
    """The context ranks store rows (NodeRow) and types only the winners: every field ranking,
    conflicts and visibility read must agree with the typed node's."""
    from datetime import timedelta

    from ekko_memory.schema.normalize import conflict_identity
    from ekko_memory.service.ranking import priority_key
    from ekko_memory.service.retrieval import visible
    from ekko_memory.store.filters import NodeFilter
    from tests.core.factories import make_node

    now = mem.now()
    nodes = [
        make_node(),
        make_node(key="avoid_ingredient", value_json="不吃葱", origin="inferred"),
        make_node(key="avoid_ingredient", value_json={"ingredient": "香菜", "amount": "少量"}),
        make_node(key="flavor_profile", value_json={"spicy": "low", "oil": "low"}),
        make_node(key="servings", value_json=2, importance=0.2, confidence=0.4),
        make_node(key=None, value_json=None, title="番茄炒蛋做法"),
        make_node(
            type="constraint",
            key="flavor_profile",
            value_json={"spicy": "low"},
            expires_at=now + timedelta(hours=3),
            origin="user_explicit",
        ),
        make_node(
            type="constraint",
            key="flavor_profile",
            value_json="少辣",
            expires_at=now - timedelta(hours=1),
        ),
        make_node(status="expired", user_id="u2"),
        make_node(scope="user", user_id=None, value_json="Cilantro "),
        make_node(key="dislikes", value_json={"items": ["香菜", "葱"], "why": {"since": "2020"}}),
    ]
    with mem.user_store.write() as w:
        w.insert_nodes(nodes)
    wanted = NodeFilter(ids=[n.id for n in nodes], statuses=None)
    with mem.user_store.read() as r:
        typed = {n.id: n for n in r.find_nodes(wanted, limit=None)}
        rows = r.find_node_rows(wanted, limit=None)
    assert len(rows) == len(nodes) == len(typed)
    frames = [
        MemoryQuery(session_id="s1", user_id="u1", workspace_id="w1"),
        MemoryQuery(user_id="u2"),
    ]
    for row in rows:
        node = typed[row.id]
        assert row.node() == node
        # Typing a row again (from remembered values) gives a node of its own: changing
        # one node's lists or value changes no other.
        first, again = row.node(), row.node()
        first.tags.append("改过")
        first.category_path.append("改过")
        first.title = "改过"  # the fields set the nodes share only ever gains a name
        assert again.model_fields_set == first.model_fields_set == set(MemoryNode.model_fields)
        if isinstance(first.value_json, dict):
            first.value_json["amount"] = "改过"
            for inner in first.value_json.values():
                if isinstance(inner, (list, dict)):
                    inner.clear()
        assert again == node and row.node() == node
        assert priority_key(row, now) == priority_key(node, now)
        assert conflict_identity(mem.registry, row) == conflict_identity(mem.registry, node)
        assert row.value_identity() == node.value_identity()
        assert row.is_expired(now) == node.is_expired(now)
        assert (row.updated_at, row.expires_at, row.value_json) == (
            node.updated_at,
            node.expires_at,
            node.value_json,
        )
        assert [visible(row, q) for q in frames] == [visible(node, q) for q in frames]


def test_priority_sort_matches_the_priority_key_with_ties(mem: MemoryService) -> None:
    """``ranked`` sorts by keys remembered per row; its order must be ``priority_key``'s at
    the time asked, ties on time, confidence and importance included (broken by id), and
    a changed row is ranked by its new values."""
    from datetime import timedelta
    from random import Random

    from ekko_memory.service.ranking import priority_key, ranked
    from ekko_memory.store.filters import NodeFilter
    from ekko_memory.store.rows import NODE_COLUMNS, NodeRow
    from tests.core.factories import make_node

    now = mem.now()
    rng = Random(3)
    times = [now - timedelta(minutes=m) for m in (0, 5, 5, 60)]
    nodes = [
        make_node(
            scope="user",
            type=rng.choice(["preference", "constraint"]),
            origin=rng.choice(["user_explicit", "inferred"]),
            updated_at=rng.choice(times),
            confidence=rng.choice([0.5, 0.9]),
            importance=rng.choice([0.2, 0.9]),
            expires_at=rng.choice([None, now + timedelta(hours=1), now - timedelta(hours=1)]),
            key=None,
            value_json=None,
            title=f"节点{i}",
        )
        for i in range(60)
    ]
    with mem.user_store.write() as w:
        w.insert_nodes(nodes)
    with mem.user_store.read() as r:
        rows = r.find_node_rows(NodeFilter(ids=[n.id for n in nodes], statuses=None), limit=None)
    # A row read again, with one edit: another row, ranked by what it now says.
    at = NODE_COLUMNS.index("updated_at")
    edited = NodeRow((*rows[0][:at], "2001-01-01T00:00:00.000000Z", *rows[0][at + 1 :]))
    # Later, some live nodes have expired: the same rows rank differently.
    for at in (now, now, now + timedelta(hours=2)):
        for items in (nodes, rows, [edited, *rows[1:]]):
            shuffled = list(items)
            rng.shuffle(shuffled)
            expected = sorted(shuffled, key=lambda n: priority_key(n, at))
            got = ranked(mem.registry, shuffled, at)
            assert [n.id for _, _, n in got] == [n.id for n in expected]


def test_global_seeds_are_searched_once_per_message(mem: MemoryService, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The shipped global memories never change: a turn's search of them is remembered
    per message (no statement runs the second time), and still finds them."""
    import json

    from ekko_memory.service.memory_service import load_global_store

    store = mem.global_store
    assert store is not None and store.frozen
    ran: list[str] = []
    fetch = store.dialect.fetch

    def counting(conn, sql, params, **kw):  # type: ignore[no-untyped-def]
        ran.append(sql)
        return fetch(conn, sql, params, **kw)

    store.dialect.fetch = counting  # type: ignore[method-assign]
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    first = s.build_context("番茄炒蛋怎么做？")
    assert ran, "the first turn searches the global memories"
    ran.clear()
    second = s.build_context("番茄炒蛋怎么做？")
    assert ran == []
    for ctx in (first, second):
        assert "番茄炒蛋" in [n.title for n in ctx.relevant_nodes]
    s.build_context("焯水要多久")
    assert ran, "another message is searched"

    # Seeds with an expiry would leave the search when they expire: never remembered.
    folder = tmp_path / "seeds"
    folder.mkdir()
    node = {
        "id": "mem_00000000000000000000000009",
        "scope": "global",
        "domain": "生活技能",
        "categoryPath": ["生活技能", "做饭", "菜谱"],
        "type": "recipe",
        "title": "限时菜谱",
        "content": "只在本周有效。",
        "confidence": 0.9,
        "importance": 0.2,
        "origin": "seed",
        "createdAt": "2026-07-04T00:00:00Z",
        "updatedAt": "2026-07-04T00:00:00Z",
        "expiresAt": "2099-01-01T00:00:00Z",
    }
    (folder / "x.json").write_text(json.dumps({"nodes": [node]}), encoding="utf-8")
    expiring = load_global_store(folder)
    assert expiring is not None and not expiring.frozen
    assert [expiring.remembered("k", lambda n=n: n) for n in (1, 2)] == [1, 2]
    expiring.close()


def test_build_context_never_raises_on_a_bad_message(mem: MemoryService) -> None:
    """An agent's bug (None or a number for the message) costs it nothing but a warning."""
    from ekko_memory.service.context_builder import ContextBuilder

    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "今晚吃什么？")
    for bad in (None, 123, ["香菜"]):
        ctx = s.build_context(bad)  # type: ignore[arg-type]
        assert ctx.diagnostics.store_status == "degraded"
        assert "not text" in ctx.diagnostics.warnings[0]
        assert ctx.recent_messages[-1].content == "今晚吃什么？"
        ctx.render()

    # Whatever fails inside, the agent gets a context that says why.
    def broken(self, *a, **kw):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    original = ContextBuilder.build
    ContextBuilder.build = broken  # type: ignore[method-assign]
    try:
        ctx = s.build_context("今晚吃什么？")
    finally:
        ContextBuilder.build = original  # type: ignore[method-assign]
    assert ctx.diagnostics.store_status == "degraded"
    assert ctx.diagnostics.warnings == ["memory context failed: RuntimeError: boom"]
    assert ctx.render() == ""
    # 检索失败：只使用最近消息和当前输入 — the log is still the agent's to use.
    assert [m.content for m in ctx.recent_messages] == ["今晚吃什么？"]


def test_render_budget_is_checked_and_none_means_no_budget(mem: MemoryService) -> None:
    from datetime import timedelta

    from ekko_memory.errors import InvalidInput
    from tests.core.factories import make_node

    with mem.user_store.write() as w:
        w.insert_nodes(
            [
                make_node(
                    title=f"用户偏好{i}", content="很长的说明" * 20, key=None, value_json=None
                )
                for i in range(30)
            ]
        )
    with mem.workspace_store.write() as w:
        w.insert_nodes(
            [
                make_node(
                    type="constraint",
                    key=None,
                    value_json=None,
                    title="长期有效的约束",
                    scope="workspace",
                    workspace_id="w1",
                    user_id=None,
                    expires_at=mem.now().replace(year=9998),
                ),
                make_node(
                    type="constraint",
                    key=None,
                    value_json=None,
                    title="近期的约束",
                    scope="workspace",
                    workspace_id="w1",
                    user_id=None,
                    expires_at=mem.now() + timedelta(minutes=5),
                ),
            ]
        )
    ctx = mem.session("s1", user_id="u1", workspace_id="w1").build_context("用户偏好")
    for bad in (-1, "800", 1.5, True):
        with pytest.raises(InvalidInput, match="max_tokens"):
            ctx.render(max_tokens=bad)  # type: ignore[arg-type]
    full = ctx.render(max_tokens=None)
    assert not [o for o in ctx.omitted if o.reason == "over_limit"]
    assert len(full) > len(ctx.render(max_tokens=100))
    assert [o for o in ctx.omitted if o.reason == "over_limit"]
    # A far expiry says its year; a near one need not.
    assert "有效至 9998-" in full
    near = (mem.now() + timedelta(minutes=5)).astimezone()
    assert (
        f"有效至 {near.strftime('%m-%d') if near.year == datetime.now(near.tzinfo).year else near.strftime('%Y-%m-%d')}"
        in full
    )


def test_tools_say_when_a_store_could_not_be_read(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With the user store broken, memory_search and memory_get say so: an empty answer
    must not read as "nothing remembered"."""
    from ekko_memory import open_memory

    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    s = mem.session("s1", user_id="u1")
    made = propose(
        s,
        "记住，我以后做饭不要香菜。",
        scope="user",
        domain="生活技能",
        type="preference",
        key="avoid_ingredient",
        valueJson="香菜",
        title="用户不吃香菜",
    )
    assert made["accepted"], made
    found = s.call_tool("memory_search", {"queryText": "香菜"})
    assert "warnings" not in found and found["exact"] + found["relevant"]
    mem.close()
    with open(home / "memory.db", "r+b") as f:
        f.write(b"X" * 16)  # the SQLite header: not a database any more

    mem = open_memory(ws, user_home=home)
    s = mem.session("s1", user_id="u1")
    searched = s.call_tool("memory_search", {"queryText": "香菜", "scopes": ["user"]})
    assert searched["exact"] == searched["relevant"] == []
    assert len(searched["warnings"]) == 1 and searched["warnings"][0].startswith(
        "user store disabled:"
    )
    # A workspace-only search does not read the user store: nothing to warn about.
    assert "warnings" not in s.call_tool("memory_search", {"scopes": ["workspace"]})
    for args in ({"id": made["nodeId"]}, {"key": "avoid_ingredient", "valueJson": "香菜"}):
        got = s.call_tool("memory_get", args)
        assert got["found"] is False and got["reason"] != "no such memory"
        assert "user store disabled" in got["warnings"][0]
    assert mem.retrieve(MemoryQuery(query_text="香菜")).warnings
    forgot = s.call_tool(
        "memory_forget",
        {"domain": "生活技能", "key": "avoid_ingredient", "valueJson": "香菜", "reason": "不要了"},
    )
    assert forgot["deletedIds"] == [] and "user store disabled" in forgot["warnings"][0]
    mem.close()


def test_the_published_schemas_are_the_tools_the_service_runs() -> None:
    """The schemas (interfaces) and the dispatcher (service) name the same four tools, in
    one order: a tool added to one and not the other is caught here."""
    from ekko_memory import TOOL_NAMES, TOOL_SCHEMAS
    from ekko_memory.service.tool_calls import TOOL_NAMES as RUN

    assert tuple(t["function"]["name"] for t in TOOL_SCHEMAS) == TOOL_NAMES == RUN


def test_memory_search_accepts_the_limit_its_schema_publishes(mem: MemoryService) -> None:
    """The schema an agent reads says how many results it may ask for; the tool and
    ``mem.retrieve`` take exactly that range, and one more is a readable error."""
    from ekko_memory import TOOL_SCHEMAS

    schema = next(t for t in TOOL_SCHEMAS if t["function"]["name"] == "memory_search")
    limit = schema["function"]["parameters"]["properties"]["limit"]
    most = limit["maximum"]
    s = mem.session("s1", user_id="u1")
    assert "error" not in s.call_tool("memory_search", {"queryText": "香菜", "limit": most})
    assert "error" not in s.call_tool("memory_search", {"limit": limit["minimum"]})
    over = s.call_tool("memory_search", {"queryText": "香菜", "limit": most + 1})
    assert over["error"]["code"] == "invalid_arguments" and "limit" in over["reason"]
    assert over["exact"] == [] and over["relevant"] == []
    with pytest.raises(InvalidInput, match="limit"):
        mem.retrieve({"queryText": "香菜", "limit": most + 1})


def test_an_entity_in_another_language_finds_the_memory(mem: MemoryService) -> None:
    """entities is an exact field, and an English-speaking agent names 香菜 "cilantro":
    the entity filter knows the same names that key/valueJson lookups already do."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "以后做饭别给我推荐香菜，我喜欢少油少辣。")
    s.append_message("assistant", "好的。")
    s.after_reply()
    for said in (["香菜"], ["cilantro"], ["Coriander"]):
        res = s.call_tool("memory_search", {"entities": said})
        assert [n["title"] for n in res["exact"]] == ["用户不吃香菜"], (said, res)
    assert s.call_tool("memory_search", {"entities": ["cilantro", "葱"]})["exact"] == []


def test_a_message_finds_a_memory_by_another_name_of_what_it_says(mem: MemoryService) -> None:
    """A recipe comes into the context through the text search: asked in English (or with
    芫荽), the recipe written with 香菜 is found in its other names."""
    recipe = user_write(
        mem,
        scope="user",
        domain="生活技能",
        type="recipe",
        title="香菜拌牛肉",
        content="牛肉切薄片焯熟，拌入香菜和蒜末。",
    )
    unrelated = user_write(
        mem, scope="user", domain="生活技能", type="recipe", title="红烧肉", content="五花肉慢炖。"
    )
    for said in ("Any recipe with cilantro?", "芫荽能做什么菜？"):
        ctx = mem.session("s1", user_id="u1", workspace_id="w1").build_context(said)
        ids = [n.id for n in ctx.relevant_nodes]
        assert recipe in ids, (said, ids)
        # The keyword path leaves the other recipe out; semantic recall may add it (红烧肉
        # is a dish too: the model scores it 0.32 against 芫荽能做什么菜).
        with keyword_path(mem):
            plain = mem.session("s1", user_id="u1", workspace_id="w1").build_context(said)
        plain_ids = [n.id for n in plain.relevant_nodes]
        assert recipe in plain_ids and unrelated not in plain_ids, (said, plain_ids)


def test_category_hints_match_any_of_their_words_literally() -> None:
    """A hint points at its category when any of its words is in the message (case
    folded), words taken literally (not as patterns); a hint without words never does."""
    from ekko_memory.schema.registry import CategoryHint, SchemaRegistry

    reg = SchemaRegistry(
        rules=[],
        category_hints=[
            CategoryHint(("技术", "编程"), ("c++", "a.b", "数据库")),
            CategoryHint(("生活技能", "做饭"), ("吃什么", "cook")),
            CategoryHint(("空",), ()),
        ],
    )
    assert reg.hinted_categories("今晚吃什么？") == [("生活技能", "做饭")]
    assert reg.hinted_categories("What should I COOK with C++?") == [
        ("技术", "编程"),
        ("生活技能", "做饭"),
    ]
    assert reg.hinted_categories("c+ and axb") == []
    assert reg.hinted_categories("") == []
    shipped = SchemaRegistry.load()
    for text in (
        "今晚吃什么？",
        "帮我看看数据库迁移的任务",
        "香菜",
        "What should I cook tonight?",
        "继续",
    ):
        folded = text.casefold()
        assert shipped.hinted_categories(text) == [
            h.category_path for h in shipped.category_hints if any(w in folded for w in h.words)
        ]
