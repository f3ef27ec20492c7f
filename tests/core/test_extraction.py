"""The design doc's three conversations through the agent runtime, end to end."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from ekko_memory.service.extraction.pipeline import AfterReplyReport
from ekko_memory.service.runtime import AgentRuntime
from tests.core.conftest import Clock


def turn(rt: AgentRuntime, user: str, reply: str = "好的。") -> None:
    t = rt.before_model(user)
    rt.after_model(reply, t)


def user_nodes(mem: MemoryService) -> list:  # type: ignore[type-arg]
    return mem.user_store.list_active_nodes(limit=50)


def test_three_conversations_become_memories(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)

    # 1. 以后做饭别给我推荐香菜，我喜欢少油少辣。→ the design doc's two nodes.
    turn(rt, "以后做饭别给我推荐香菜，我喜欢少油少辣。", "记住了，以后推荐会避开香菜，少油少辣。")
    nodes = {n.key: n for n in user_nodes(mem)}
    cilantro, flavor = nodes["avoid_ingredient"], nodes["flavor_profile"]
    assert (cilantro.scope, cilantro.value_json, cilantro.title) == ("user", "香菜", "用户不吃香菜")
    assert cilantro.category_path == ["生活技能", "做饭", "饮食偏好"] and cilantro.entities == [
        "香菜"
    ]
    assert (
        flavor.value_json == {"oil": "low", "spicy": "low"} and flavor.title == "用户偏好少油少辣"
    )
    first_msg = mem.list_recent_messages(session_id="s1", limit=10)[0]
    assert cilantro.source_message_ids == [first_msg.id] == flavor.source_message_ids
    assert [e.actor for e in mem.history(cilantro.id).audit] == ["extractor"]

    # 2. 香菜现在可以接受一点，但不要太多。→ supersedes the first.
    turn(rt, "香菜现在可以接受一点，但不要太多。")
    assert mem.get_node(cilantro.id).status == "superseded"  # type: ignore[union-attr]
    head = mem.head_of(cilantro.id)
    assert head.supersedes_id == cilantro.id and head.key == "limit_ingredient"
    assert head.value_json == {"amount": "少量", "ingredient": "香菜"}
    assert [e.event_type for e in mem.history(head.id).audit][:2] == ["create", "supersede"]

    # 3. 最近胃不舒服，先别推荐辣的。→ a temporary constraint with an expiry.
    turn(rt, "最近胃不舒服，先别推荐辣的。")
    temp = [n for n in mem.workspace_store.list_active_nodes(limit=50) if n.type == "constraint"]
    assert len(temp) == 1
    constraint = temp[0]
    assert constraint.scope == "workspace" and constraint.expires_at is not None
    assert constraint.value_json == {"spicy": "none"}
    assert (constraint.expires_at - mem.now()).days in (2, 3)

    # The next turn's context: the constraint first, the allowed-a-little cilantro, the
    # flavor preference; never the superseded "不吃香菜".
    t = rt.before_model("今晚吃什么？")
    ctx = t.context
    assert [n.id for n in ctx.constraints] == [constraint.id]
    assert {n.id for n in ctx.preferences} == {head.id, flavor.id}
    assert cilantro.id not in ctx.used_memory_ids
    assert t.prompt.index("辣") < t.prompt.index("香菜")
    rt.after_model("今晚做清炒时蔬，少油不辣，香菜少放。", t)
    usage = mem.history(constraint.id).usage
    assert usage is not None and usage.count == 1


def test_background_runtime_extracts_after_the_reply(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s2", user_id="u1", workspace_id="w1")
    turn(rt, "记住，我们的数据库决定用 PostgreSQL。")
    assert mem.background.wait_idle(10)
    decisions = [n for n in mem.workspace_store.list_active_nodes(limit=10) if n.type == "decision"]
    assert [(d.key, d.value_json) for d in decisions] == [("database", "postgresql")]


def test_english_conversation(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s3", user_id="u1", background=False)
    turn(rt, "From now on, no cilantro please. I prefer less spicy food.", "Noted.")
    nodes = {n.key: n for n in user_nodes(mem)}
    assert (
        nodes["avoid_ingredient"].value_json == "香菜"
        and nodes["avoid_ingredient"].title == "Avoids cilantro"
    )
    assert nodes["flavor_profile"].value_json == {"spicy": "low"}
    # Titles follow the user's language, corrections and cuisines too, so an English
    # conversation's context reads in English.
    turn(rt, "Actually a little cilantro is fine now, just not too much.", "OK.")
    limit = mem.head_of(nodes["avoid_ingredient"].id)
    assert limit.key == "limit_ingredient" and limit.title == "A little cilantro is fine"
    turn(rt, "From now on remember I like Sichuan food.", "Noted.")
    titles = [n.title for n in user_nodes(mem)]
    assert any(t.startswith("Likes ") for t in titles), titles
    turn(rt, "For this project we decided to use PostgreSQL.", "OK.")
    decision = [n for n in mem.workspace_store.list_active_nodes(limit=50) if n.key == "database"]
    assert [n.title for n in decision] == ["Database: PostgreSQL"]
    prompt = rt.before_model("What should I cook tonight?").prompt
    assert prompt.startswith("Memory (") and "记忆（" not in prompt


def test_nothing_to_remember_writes_nothing(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s4", user_id="u1", background=False)
    for text in ("你好", "今天天气怎么样？", "谢谢"):
        turn(rt, text)
    assert user_nodes(mem) == [] and mem.pending() == []


def test_inferred_user_preference_waits_for_approval(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s5", user_id="u1", background=False)
    turn(rt, "我挺喜欢吃牛肉的")
    assert user_nodes(mem) == []
    [item] = mem.pending()
    assert item.rule == "user_scope_without_intent" and item.node["valueJson"] == "牛肉"  # type: ignore[index]
    assert item.requester == "extractor"


def test_extraction_never_reaches_another_users_memories(mem: MemoryService) -> None:
    """One store, two users: u1's after-reply must not expire or supersede u2's memories,
    nor show them to the extractor (an LLM would receive them)."""
    from ekko_memory.models import MemoryExtraction
    from ekko_memory.service.extraction.protocol import ExtractionInput

    victim = AgentRuntime(mem, "s-u2", user_id="u2", workspace_id="w2", background=False)
    turn(victim, "以后做饭别给我推荐香菜，我喜欢少油少辣。")
    turn(victim, "TODO: 给支付接口写单元测试")
    theirs = {
        n.id: n.status
        for _, store in mem.stores()
        for n in store.list_active_nodes(limit=50)
        if n.user_id == "u2" or n.workspace_id == "w2"
    }
    assert len(theirs) >= 2, theirs

    shown: list[ExtractionInput] = []
    rule_based = mem.extractor

    class Watching:
        def extract(self, data: ExtractionInput) -> MemoryExtraction:
            shown.append(data)
            return rule_based.extract(data)

    mem.extractor = Watching()  # type: ignore[assignment]
    other = AgentRuntime(mem, "s-u1", user_id="u1", workspace_id="w1", background=False)
    turn(other, "香菜现在可以吃了")
    turn(other, "支付接口的单元测试写完了")
    assert shown and not any(n.id in theirs for data in shown for n in data.known_nodes)
    for node_id, status in theirs.items():
        node = mem.get_node(node_id)
        assert node is not None and node.status == status == "active", node

    # An extractor naming another user's memory by id is refused like an agent.
    s = mem.session("s-u1", user_id="u1", workspace_id="w1")
    target = next(iter(theirs))
    res = s.call_tool(
        "memory_propose_update",
        {"operation": "expire", "targetId": target, "reason": "用户说不需要了", "node": {}},
    )
    assert res["accepted"] is False and res["reason"].startswith(f"no memory {target}")
    from ekko_memory.service.governance import Governor
    from ekko_memory.service.write_plan import WriteContext

    outcome = Governor(mem).propose(
        "expire",
        None,  # type: ignore[arg-type]
        WriteContext(actor="extractor", session_id="s-u1", user_id="u1", workspace_id="w1"),
        target_id=target,
    )
    assert not outcome.accepted and f"no memory {target}" in outcome.reason
    assert mem.get_node(target).status == "active"  # type: ignore[union-attr]


# A Chinese temporary state and its English phrasings: (what the user says, the flavor or
# the ingredient, how long it lasts: "today" ends tonight, "days" 3 days, "week" 7 days).
TEMPORARY_STATES = [
    ("今天胃不舒服，少辣。", {"spicy": "low"}, "today"),
    ("I'm sick today, nothing spicy.", {"spicy": "none"}, "today"),
    ("I don't want anything spicy today.", {"spicy": "none"}, "today"),
    ("今晚想吃清淡点。", {"oil": "low", "salt": "low"}, "today"),
    ("Tonight I want something light.", {"oil": "low", "salt": "low"}, "today"),
    ("This evening, go easy on the salt.", {"salt": "low"}, "today"),
    ("最近胃不舒服，先别推荐辣的。", {"spicy": "none"}, "days"),
    ("For now, nothing too spicy.", {"spicy": "low"}, "days"),
    ("Lately my stomach hurts, skip the spice.", {"spicy": "none"}, "days"),
    ("这周别放葱。", "葱", "week"),
    ("This week no scallions please.", "葱", "week"),
]


@pytest.mark.parametrize(("said", "value", "lasts"), TEMPORARY_STATES)
def test_a_temporary_state_becomes_a_constraint_that_expires(
    mem: MemoryService, clock: Clock, said: str, value: object, lasts: str
) -> None:
    """今天胃不舒服，少辣 and "I'm sick today, nothing spicy" alike: a workspace constraint
    (the workspace's other conversations of the day know it too) expiring tonight (最近 /
    for now: in 3 days; 这周 / this week: in 7), in the context today and gone once it
    expired — never a lasting preference."""
    rt = AgentRuntime(mem, "s1", user_id="u1", background=False)
    turn(rt, said)
    nodes = [n for _, st in mem.stores() for n in st.list_active_nodes(limit=50)]
    assert [(n.type, n.scope, n.value_json) for n in nodes] == [("constraint", "workspace", value)]
    until = nodes[0].expires_at
    assert until is not None
    if lasts == "today":
        local = mem.now().astimezone()
        assert until.astimezone(local.tzinfo).date() == local.date()
    else:
        assert (until - mem.now()).days in ((2, 3) if lasts == "days" else (6, 7))
    assert [n.id for n in rt.before_model("What's for dinner?").context.constraints] == [
        nodes[0].id
    ]
    clock.advance(days=8)
    assert rt.before_model("What's for dinner?").context.constraints == []


def test_every_phrasing_the_rules_know_is_extracted_on_its_turn(mem: MemoryService) -> None:
    """The after-reply triggers cannot list every phrasing; what the rule patterns find in
    a message fires extraction on that turn (not one turn later, or never)."""
    said = [
        ("清淡一点", "flavor_profile"),
        ("今天别放葱", "avoid_ingredient"),
        ("提交前必须跑测试", "coding_rule"),
        ("never commit without tests", "coding_rule"),
        ("这个项目用 PostgreSQL", "database"),
    ]

    def one_turn(session_id: str, user_id: str, message: str) -> AfterReplyReport:
        s = mem.session(session_id, user_id=user_id, workspace_id="w1")
        s.append_message("user", message)
        s.append_message("assistant", "好的。")
        return s.after_reply()

    for i, (message, key) in enumerate(said):
        report = one_turn(f"s-{i}", f"u{i}", message)
        # The rules read every turn; the trigger check (for an LLM extractor) sees it too.
        assert report.triggers, (message, report.triggers)
        assert mem.after_reply_runner._memorable(f"s-{i}", mem.browse.messages(f"s-{i}")), message
        waiting = {p.id: p.node or {} for p in mem.pending()}
        keys = [
            n.key
            for o in report.outcomes
            if o.get("nodeId") and (n := mem.get_node(o["nodeId"])) is not None
        ] + [waiting[o["pendingId"]].get("key") for o in report.outcomes if o.get("pendingId")]
        assert key in keys, (message, report.outcomes)
    # Small talk fires nothing.
    report = one_turn("s-chat", "u9", "今天天气不错")
    assert report.outcomes == []
    assert not mem.after_reply_runner._memorable("s-chat", mem.browse.messages("s-chat"))


def test_each_retry_job_keeps_its_own_error(mem: MemoryService) -> None:
    from ekko_memory.service.extraction.protocol import ExtractionFailed

    class Failing:
        name = "failing"

        def __init__(self, message: str) -> None:
            self.message = message

        def extract(self, data):  # type: ignore[no-untyped-def]
            raise ExtractionFailed(self.message)

        def summarize(self, data):  # type: ignore[no-untyped-def]
            raise ExtractionFailed(self.message)

    mem.extractor = Failing("extractor down")  # type: ignore[assignment]
    mem.summarizer = Failing("summarizer down")  # type: ignore[assignment]
    mem.config = mem.config.model_copy(update={"summary_every_messages": 2})
    rt = AgentRuntime(mem, "s1", user_id="u1", background=False)
    turn(rt, "记住，我以后做饭不要香菜。")  # both steps fail in this one run
    with mem.workspace_store.read() as r:
        jobs = {j["kind"]: j for j in r.due_jobs(mem.now().replace(year=9999), limit=10)}
    assert "extractor down" in jobs["extract"]["last_error"], jobs
    assert "summarizer down" in jobs["summarize"]["last_error"], jobs


def test_the_summary_does_not_repeat_what_became_memories(mem: MemoryService, clock: Clock) -> None:
    """A statement that became a memory is told by the memory (and its corrections and
    expiry), not repeated by the summary: the next day, 今天胃不舒服，少辣 must not come back
    through the summary once its constraint expired."""
    rt = AgentRuntime(mem, "s1", user_id="u1", background=False)
    turn(rt, "今天胃不舒服，少辣。", "好的，今天做清淡不辣的。")
    for i in range(4):  # enough messages for a summary
        turn(rt, f"聊点别的话题{i}")
    summary = mem.get_latest_summary(session_id="s1")
    assert summary is not None and "聊点别的话题0" in summary.summary
    assert "胃不舒服" not in summary.summary and "清淡不辣" not in summary.summary
    assert "胃不舒服" in rt.before_model("今晚吃什么？").prompt  # today, as the constraint
    clock.advance(days=2)
    assert "辣" not in rt.before_model("今晚吃什么？").prompt


def test_a_long_rule_after_yihou_is_an_explicit_statement(mem: MemoryService) -> None:
    """以后…都 with a long subject in between (以后这个项目的提交信息都用英文写) asks to remember;
    以后 as "after" in another clause does not."""
    from ekko_memory.schema.intent import has_explicit_intent

    assert has_explicit_intent("以后这个项目的提交信息都用英文写")
    assert has_explicit_intent("以后给我推荐的所有晚餐菜谱都不要放香菜")
    assert not has_explicit_intent("吃完饭以后，我们都去散步吧")
    s = mem.session("s-rule", user_id="u1", workspace_id="w1")
    s.append_message("user", "以后这个项目的提交信息都用英文写")
    s.append_message("assistant", "好的。")
    report = s.after_reply()
    assert "explicit preference" in report.triggers
    (created,) = [mem.get_node(o["nodeId"]) for o in report.outcomes if o.get("nodeId")]
    assert created is not None and created.scope == "workspace"
    assert created.origin == "user_explicit" and "英文" in created.content


def test_the_summary_keeps_the_stated_goal_and_the_work_done(mem: MemoryService) -> None:
    # 摘要应包含：当前目标、已完成工作、未完成事项、已知问题 — in everyday wording too.
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    said = [
        ("user", "我的目标是本周上线登录功能"),
        ("assistant", "好的，先做接口"),
        ("user", "登录接口写完了"),
        ("assistant", "很好"),
        ("user", "还有个问题：登录偶尔超时"),
        ("assistant", "我看看"),
        ("user", "TODO: 修复登录超时"),
        ("assistant", "收到"),
    ]
    for role, text in said:
        s.append_message(role, text)  # type: ignore[arg-type]
    assert s.after_reply().summary_id is not None
    summary = mem.get_latest_summary(session_id="s1")
    assert summary is not None
    assert summary.current_goal == "我的目标是本周上线登录功能"
    assert summary.completed_work == ["登录接口写完了"]
    assert summary.pending_work == ["TODO: 修复登录超时"]
    assert summary.known_issues == ["还有个问题：登录偶尔超时"]


def test_the_summary_lists_the_memories_of_every_turn_it_covers(mem: MemoryService) -> None:
    """摘要应包含关键约束、用户偏好、重要决策: a summary covers several turns, and the
    memories written on its earlier turns (not only on the turn that closed it) are its
    preferences — their words are left out of its text because the memories speak for
    them, so a summary without them would say nothing of them at all."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "以后做饭别给我推荐香菜，我喜欢少油少辣。", "记住了。")
    for i in range(3):  # the fourth turn brings the eight messages of a summary
        turn(rt, f"聊点别的话题{i}")
    summary = mem.get_latest_summary(session_id="s1")
    assert summary is not None and summary.parent_summary_id is None
    assert "香菜" not in summary.summary  # told by the memories, not the text
    assert summary.preferences == ["用户不吃香菜", "用户偏好少油少辣"]


@pytest.mark.parametrize(
    ("todo", "done"),
    [
        ("下一步要写文档。", "文档写完了。"),
        ("TODO: 修复登录超时", "登录超时修好了。"),
        ("接下来要写单元测试。", "单元测试写完了。"),
    ],
)
def test_a_task_said_done_object_first_leaves_the_context(
    mem: MemoryService, todo: str, done: str
) -> None:
    """任务状态发生变化: 文档写完了 (the object first, as Chinese puts it) ends the task 写文档
    — the context must not go on listing it as work in progress."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, todo)
    (task,) = [n for n in mem.workspace_store.list_active_nodes(limit=50) if n.type == "task"]
    turn(rt, done)
    ended = mem.get_node(task.id)
    assert ended is not None and ended.status == "expired", ended
    assert task.title not in rt.before_model("接下来做什么？").prompt


def test_work_still_to_do_is_not_the_summary_s_goal(mem: MemoryService) -> None:
    """摘要的当前目标与未完成事项: 还需要写测试 is work left (pendingWork); it does not
    replace the goal the user stated (我的目标是…) as the summary's currentGoal."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    said = [
        ("user", "我的目标是这周把导入器重构完。"),
        ("assistant", "好的，我们开始。"),
        ("user", "解析模块已经完成了。"),
        ("assistant", "很好。"),
        ("user", "还需要写测试。"),
        ("assistant", "记下了。"),
        ("user", "接下来要更新文档。"),
        ("assistant", "好。"),
    ]
    for role, text in said:
        s.append_message(role, text)  # type: ignore[arg-type]
    assert s.after_reply().summary_id is not None
    summary = mem.get_latest_summary(session_id="s1")
    assert summary is not None
    assert summary.current_goal == "我的目标是这周把导入器重构完。"
    assert summary.pending_work == ["还需要写测试。", "接下来要更新文档。"]


def test_work_reported_done_leaves_the_summary_s_pending_work(mem: MemoryService) -> None:
    """未完成事项 and 已完成工作 do not both hold one piece of work: 还需要写测试, then
    测试也写完了, is done — in the link that hears it and in the links after it."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    mem.config = mem.config.model_copy(update={"summary_every_messages": 4})
    for role, text in [
        ("user", "还需要写测试。"),
        ("assistant", "记下了。"),
        ("user", "接下来要更新文档。"),
        ("assistant", "好。"),
        ("user", "测试也写完了。"),
        ("assistant", "太好了。"),
        ("user", "聊点别的。"),
        ("assistant", "好。"),
    ]:
        s.append_message(role, text)  # type: ignore[arg-type]
        s.after_reply()
    first, second = mem.browse.summaries("s1")
    assert first.pending_work == ["还需要写测试。", "接下来要更新文档。"]
    assert second.parent_summary_id == first.id
    assert second.completed_work == ["测试也写完了。"]
    assert second.pending_work == ["接下来要更新文档。"]


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("决定用 Redis 做缓存。", "tech_choice"),
        ("我们用 Redis 作为消息队列。", "messaging"),
        ("We decided to use Redis as a cache.", "tech_choice"),
    ],
)
def test_a_technology_chosen_for_another_role_leaves_the_database_decision(
    mem: MemoryService, said: str, key: str
) -> None:
    """项目决策: Redis chosen as the cache is a decision of its own — not the project's
    database, which would supersede (or send to the inbox to supersede) 数据库用 PostgreSQL."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "我们决定数据库用 PostgreSQL。")
    turn(rt, said)
    decisions = {
        (n.key, n.value_json)
        for n in mem.workspace_store.list_active_nodes(limit=50)
        if n.type == "decision"
    }
    assert decisions == {("database", "postgresql"), (key, "redis")}
    assert mem.pending() == []


def test_a_temporary_state_restated_in_the_session_replaces_the_earlier_one(
    mem: MemoryService,
) -> None:
    """session-scope 临时记忆不需要确认: the user's own later words about a temporary state
    (少辣 today, then no spice at all for a few days) replace the earlier state at once —
    not held in the inbox while the context goes on saying 少辣."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "今天有点胃不舒服，少辣。")
    (today,) = mem.workspace_store.list_active_nodes(limit=50, types=["constraint"])
    turn(rt, "最近胃不舒服，先别推荐辣的。")
    assert mem.pending() == []
    (now,) = mem.workspace_store.list_active_nodes(limit=50, types=["constraint"])
    assert now.supersedes_id == today.id and now.value_json == {"spicy": "none"}
    prompt = rt.before_model("今晚吃什么？").prompt
    assert "先别推荐辣的" in prompt and "少辣" not in prompt


# The common food allergens, said either way, and the one name each is stored under (so
# 腰果 and cashews are one memory, as 花生 and peanuts are).
ALLERGIES = [
    ("我对花生过敏。", "花生"),
    ("记住，我对虾过敏。", "虾"),
    ("I'm allergic to peanuts.", "花生"),
    ("I have a peanut allergy.", "花生"),
    ("我对腰果过敏。", "腰果"),
    ("I'm allergic to cashews.", "腰果"),
    ("I'm allergic to cashew nuts.", "腰果"),
    ("对杏仁过敏。", "杏仁"),
    ("I'm allergic to almonds.", "杏仁"),
    ("我对芝麻过敏。", "芝麻"),
    ("I'm allergic to sesame.", "芝麻"),
    ("我对大豆过敏。", "大豆"),
    ("我对黄豆过敏。", "大豆"),
    ("I'm allergic to soy.", "大豆"),
    ("I'm allergic to soybeans.", "大豆"),
    ("我对小麦过敏。", "小麦"),
    ("I'm allergic to wheat.", "小麦"),
    ("我对麸质过敏。", "麸质"),
    ("我对面筋过敏。", "麸质"),
    ("I have a gluten allergy.", "麸质"),
    ("我对核桃过敏。", "核桃"),
    ("I'm allergic to walnuts.", "核桃"),
    ("我对榛子过敏。", "榛子"),
    ("I'm allergic to hazelnuts.", "榛子"),
    ("我对开心果过敏。", "开心果"),
    ("I'm allergic to pistachios.", "开心果"),
    ("我对坚果过敏。", "坚果"),
    ("I'm allergic to tree nuts.", "坚果"),
    ("I have a nut allergy.", "坚果"),
    ("我对贝类过敏。", "贝类"),
    ("I'm allergic to shellfish.", "贝类"),
    ("I'm allergic to shrimps.", "虾"),
    ("I'm allergic to prawns.", "虾"),
    ("我对蟹过敏。", "螃蟹"),
    ("I'm allergic to crabs.", "螃蟹"),
    ("我对鱼过敏。", "鱼"),
    ("I'm allergic to fish.", "鱼"),
    ("我对鸡蛋过敏。", "鸡蛋"),
    ("I'm allergic to eggs.", "鸡蛋"),
    ("我对芒果过敏。", "芒果"),
    ("I'm allergic to mangoes.", "芒果"),
    ("I'm allergic to mango.", "芒果"),
]


@pytest.mark.parametrize(("said", "name"), ALLERGIES)
def test_a_food_allergy_becomes_an_ingredient_to_avoid_once_the_user_approves(
    mem: MemoryService, said: str, name: str
) -> None:
    """A food allergy is the strongest 忌口: it is health data, so it waits for the user
    (敏感信息); once approved it is an avoid_ingredient memory under 生活技能/做饭/饮食偏好,
    in the context of 今晚吃什么 — not a note filed where no cooking question finds it."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, said)
    (held,) = mem.pending()
    assert held.rule == "sensitive_data"
    mem.decide(held.id, approve=True, actor="user")
    (node,) = [n for n in user_nodes(mem) if n.key == "avoid_ingredient"]
    assert (node.value_json, node.category_path) == (name, ["生活技能", "做饭", "饮食偏好"])
    other = AgentRuntime(mem, "s2", user_id="u1", workspace_id="w1", background=False)
    assert node.id in other.before_model("今晚吃什么？").context.used_memory_ids


def test_an_allergy_said_in_the_other_language_is_the_same_memory(mem: MemoryService) -> None:
    """腰果 and cashews name one thing: the allergy restated in English is not a second
    memory (nor a second item in the inbox)."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "我对腰果过敏。")
    (held,) = mem.pending()
    mem.decide(held.id, approve=True, actor="user")
    turn(rt, "I'm allergic to cashews.")
    assert mem.pending() == []
    assert [n.value_json for n in user_nodes(mem)] == ["腰果"]


@pytest.mark.parametrize(
    ("said", "wrong"),
    [
        ("我喜欢鱼香肉丝。", {"鱼"}),  # 鱼香: a way of cooking, no fish in it
        ("我不吃鱼香肉丝。", {"鱼"}),
        ("我喜欢杏仁豆腐。", {"杏仁", "豆腐"}),  # a dessert, neither almond nor tofu
        ("我不吃虾皮。", {"虾"}),  # 虾皮 is its own ingredient
        ("我不吃鲍鱼。", {"鱼"}),  # abalone is no fish
        ("I don't want soy sauce.", {"大豆"}),  # 酱油, not soy itself
    ],
)
def test_a_dish_or_another_ingredient_is_not_the_allergen_inside_its_name(
    mem: MemoryService, said: str, wrong: set[str]
) -> None:
    """An allergen's word inside a dish's name (鱼香肉丝, 杏仁豆腐) or another ingredient's
    (虾皮, 鲍鱼, soy sauce) is not that allergen: no memory says the user avoids or likes
    it, and nothing is an allergy."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, said)
    nodes = user_nodes(mem) + [i.node or {} for i in mem.pending()]
    values = {n.get("valueJson") if isinstance(n, dict) else n.value_json for n in nodes}
    assert not values & wrong
    assert all("过敏" not in (n.get("tags") if isinstance(n, dict) else n.tags) for n in nodes)


@pytest.mark.parametrize("said", ["我对花生不过敏。", "I'm not allergic to peanuts."])
def test_no_allergy_is_nothing_to_avoid(mem: MemoryService, said: str) -> None:
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, said)
    assert mem.pending() == [] and user_nodes(mem) == []


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("以后回答我都用中文。", "中文"),
        ("记住，以后都用英文回复我。", "英文"),
        ("From now on, reply in English.", "english"),  # values are case-folded
    ],
)
def test_a_standing_reply_language_is_in_every_later_context(
    mem: MemoryService, said: str, value: str
) -> None:
    """用户级高优先级 preferences: 以后回答我都用中文 is the reply_language preference (its
    rule puts it in every context) — not a 个人/笔记 note that no later question brings back."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, said)
    (node,) = user_nodes(mem)
    assert (node.key, node.value_json, node.category_path) == (
        "reply_language",
        value,
        ["个人", "沟通"],
    )
    other = AgentRuntime(mem, "s2", user_id="u1", workspace_id="w1", background=False)
    assert node.id in other.before_model("帮我写一封邮件").context.used_memory_ids


def test_a_new_reply_language_the_user_asks_for_replaces_the_old_one(mem: MemoryService) -> None:
    """以后都用英文回复我 after 以后回答我都用中文: the user names what the memory is about
    (how to reply), so the new language replaces the old at once, without the inbox."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "以后回答我都用中文。")
    turn(rt, "以后都用英文回复我吧。")
    assert mem.pending() == []
    assert [(n.key, n.value_json) for n in user_nodes(mem)] == [("reply_language", "英文")]


def test_work_done_ends_only_the_task_it_names(mem: MemoryService) -> None:
    """任务状态发生变化 in English: "The tests are finished." names no open task — sharing
    "the" with "write the docs" does not end it; "The docs are done." ends just that one."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "TODO: write the docs")
    turn(rt, "TODO: fix the login timeout")

    def open_tasks() -> set[str]:
        return {n.title for n in mem.workspace_store.list_active_nodes(limit=50, types=["task"])}

    assert open_tasks() == {"write the docs", "fix the login timeout"}
    turn(rt, "The tests are finished.")
    assert open_tasks() == {"write the docs", "fix the login timeout"}
    turn(rt, "The docs are done.")
    assert open_tasks() == {"fix the login timeout"}


def test_a_decision_no_memory_holds_is_among_the_summary_s_decisions(
    mem: MemoryService,
) -> None:
    """摘要应包含重要决策: a decision the rules cannot file under a key (我们决定用
    SQLAlchemy 2) is still one of the summary's decisions, beside those memories hold."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    for role, text in [
        ("user", "我们决定用 SQLAlchemy 2。"),
        ("assistant", "好的。"),
        ("user", "我们决定数据库用 PostgreSQL。"),
        ("assistant", "好的。"),
        ("user", "We decided to drop Windows support."),
        ("assistant", "OK."),
        ("user", "聊点别的。"),
        ("assistant", "好。"),
    ]:
        s.append_message(role, text)  # type: ignore[arg-type]
    assert s.after_reply().summary_id is not None
    summary = mem.get_latest_summary(session_id="s1")
    assert summary is not None
    assert sorted(d.rstrip("。.") for d in summary.decisions) == [
        "We decided to drop Windows support",
        "我们决定用 SQLAlchemy 2",
        "数据库使用 PostgreSQL",
    ]
