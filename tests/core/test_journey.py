"""Defects a long bilingual conversation showed, each as the smallest conversation that
shows it (through the agent runtime, on real stores)."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from ekko_memory.service.permissions import names_decision_topic
from ekko_memory.service.runtime import AgentRuntime


def say(rt: AgentRuntime, user: str, reply: str = "好的。") -> str:
    """One turn; returns the prompt the model got for it."""
    t = rt.before_model(user)
    rt.after_model(reply, t)
    return t.prompt


def decisions(mem: MemoryService, key: str) -> list[object]:
    return [n.value_json for n in mem.workspace_store.list_active_nodes(limit=50) if n.key == key]


@pytest.mark.parametrize(
    "correction",
    [
        "不对，我是说数据库改用 MySQL。",
        "数据库换成 MySQL。",
        "Actually, we switched the database to MySQL.",
    ],
)
def test_a_correction_naming_the_database_replaces_the_decision(
    mem: MemoryService, correction: str
) -> None:
    # The user corrects the database choice without naming the old one: it was held for
    # approval ("overwrite a high-confidence memory without a clear request"), or, in
    # English, not read at all — the next "这个项目用什么数据库？" still got PostgreSQL.
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, "我们这个项目数据库决定用 PostgreSQL。")
    assert decisions(mem, "database") == ["postgresql"]
    say(rt, correction)
    assert decisions(mem, "database") == ["mysql"]
    assert mem.pending() == []
    prompt = rt.before_model("这个项目用什么数据库？").prompt
    assert "MySQL" in prompt and "PostgreSQL" not in prompt


def test_a_correction_about_something_else_leaves_the_decision_alone(mem: MemoryService) -> None:
    # Naming the topic is what makes the request clear: 不对 about the framework does not
    # let a database write through unasked.
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, "我们这个项目数据库决定用 PostgreSQL。")
    say(rt, "不对，我是说后端框架用 Django。")
    assert decisions(mem, "database") == ["postgresql"]
    assert decisions(mem, "framework") == ["django"]


def test_latin_topic_words_are_whole_words() -> None:
    assert names_decision_topic("database", "the db is mysql now")
    assert not names_decision_topic("ci", "a decision")  # "ci" inside "decision"
    assert not names_decision_topic("database", "feedback")  # "db" inside nothing whole


@pytest.mark.parametrize("said", ["我们不用 Redis 了。", "We stopped using Redis."])
def test_saying_the_project_no_longer_uses_a_technology_expires_its_decision(
    mem: MemoryService, said: str
) -> None:
    # 我们不用 Redis 了 was read as a decision to use it (数据库使用 Redis): 不用 was no
    # negation, and "stopped using" is "using".
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, "数据库用 Redis。")
    assert decisions(mem, "database") == ["redis"]
    say(rt, said)
    assert decisions(mem, "database") == []
    assert mem.pending() == []
    assert "Redis" not in rt.before_model("这个项目用什么数据库？").prompt


def test_not_using_a_technology_is_never_a_decision_to_use_it(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, "我们不用 Redis 了")
    assert decisions(mem, "database") == []
    say(rt, "数据库用 PostgreSQL 不用 MySQL")
    assert decisions(mem, "database") == ["postgresql"]
    # Dropping one for another in one clause: the one switched to is the decision.
    say(rt, "数据库不用 PostgreSQL 了改用 MySQL")
    assert decisions(mem, "database") == ["mysql"]
    assert mem.pending() == []


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("以后少放盐。", "flavor_profile", {"salt": "low"}),
        ("我以后不吃辣了。", "flavor_profile", {"spicy": "none"}),
        ("以后回复我用英文。", "reply_language", "英文"),
    ],
)
def test_yihou_opening_a_standing_request_is_asked_to_remember(
    mem: MemoryService, said: str, key: str, value: object
) -> None:
    # 以后少放盐 waited in the inbox as "a long-term memory the user did not ask to remember",
    # and 以后回复我用英文 was not read at all (a reply language needs a standing request):
    # 以后 counted only before 都/别/不要/要….
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, said)
    assert [n.value_json for n in mem.user_store.list_active_nodes(limit=50) if n.key == key] == [
        value
    ]
    assert mem.pending() == []


def test_yihou_as_after_is_no_request() -> None:
    from ekko_memory.schema.intent import has_explicit_intent

    assert not has_explicit_intent("吃完饭以后用洗碗机")
    assert not has_explicit_intent("以后再说吧")


@pytest.mark.parametrize(
    ("said", "key", "title"),
    [
        ("我生日是5月3号，记住。", "birthday", "我的生日是5月3号"),
        (
            "We decided the API uses REST with JSON, remember that for this project.",
            "team_decision",
            "We decided the API uses REST with JSON",
        ),
        ("My dog is called Rex, keep that in mind.", "pet", "Has a dog named Rex"),
    ],
)
def test_a_request_to_remember_at_the_end_is_no_part_of_the_memory(
    mem: MemoryService, said: str, key: str, title: str
) -> None:
    # The title was "我生日是5月3号，记住" and "We decided the API uses REST with JSON,…"
    # (the request clipped in); now each is read for what it states, without the request.
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, said)
    nodes = [n for _, s in mem.stores() for n in s.list_active_nodes(limit=50)]
    nodes += [MemoryNode.model_validate(p.node) for p in mem.pending() if p.node]
    (node,) = nodes
    assert (node.key, node.title) == (key, title)


@pytest.mark.parametrize(
    ("said", "flavor"),
    [
        ("以后不要太油。", {"oil": "low"}),  # was {"oil": "none"}: 不要 read inside 不要太
        ("以后别推荐太咸的菜。", {"salt": "low"}),  # was {"salt": "none"}, titled 用户偏好不盐
        ("我不太能吃辣，以后少放点。", {"spicy": "low"}),  # was a note
        ("以后菜里少放点糖。", {"sugar": "low"}),  # was a note: 糖/盐 were no flavor words
        ("I can't handle spicy food, remember that.", {"spicy": "none"}),  # was a note
    ],
)
def test_flavor_requests_are_read_at_the_level_said(
    mem: MemoryService, said: str, flavor: dict[str, str]
) -> None:
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, said)
    nodes = mem.user_store.list_active_nodes(limit=50)
    assert [(n.key, n.value_json) for n in nodes] == [("flavor_profile", flavor)]


def test_the_longest_level_word_decides() -> None:
    from ekko_memory.schema.values import parse_flavor_text

    assert parse_flavor_text("不要太咸") == {"salt": "low"}
    assert parse_flavor_text("不太油") == {"oil": "low"}
    assert parse_flavor_text("少放点盐") == {"salt": "low"}
    assert parse_flavor_text("不要辣") == {"spicy": "none"}  # 不要 alone is still none
    assert parse_flavor_text("very very spicy") == {"spicy": "extra"}


@pytest.mark.parametrize(
    "said",
    [
        "数据库从 PostgreSQL 迁移到 MySQL。",
        "数据库从 PostgreSQL 换成 MySQL。",
        "We migrated from PostgreSQL to MySQL.",
    ],
)
def test_moving_from_one_technology_to_another_decides_the_second(
    mem: MemoryService, said: str
) -> None:
    # The longer name was taken (数据库使用 PostgreSQL, the one left behind), or the
    # change waited for approval; "migrated from … to" was no decision at all.
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, "数据库用 PostgreSQL。")
    say(rt, said)
    assert decisions(mem, "database") == ["mysql"]
    assert mem.pending() == []


def test_one_clause_naming_two_kinds_of_technology_decides_both(mem: MemoryService) -> None:
    # 我们用 FastAPI 和 PostgreSQL kept only the longer name's decision.
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, "我们用 FastAPI 和 PostgreSQL。")
    assert decisions(mem, "framework") == ["fastapi"]
    assert decisions(mem, "database") == ["postgresql"]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("我们的数据库是 PostgreSQL。", ["postgresql"]),
        ("Our database is PostgreSQL.", ["postgresql"]),
        ("数据库是 PostgreSQL 吗？", []),
        ("数据库是不是 PostgreSQL？", []),
        ("Our database is not PostgreSQL.", []),
        ("PostgreSQL is slow.", []),
    ],
)
def test_saying_what_the_database_is_decides_it(
    mem: MemoryService, said: str, value: list[str]
) -> None:
    # "我们的数据库是 PostgreSQL" / "Our database is PostgreSQL" were not read: only
    # 用/决定/use… stated a decision.
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, said)
    assert decisions(mem, "database") == value


@pytest.mark.parametrize(
    ("todo", "done"),
    [
        ("接下来要重构支付模块。", "支付模块重构好了。"),
        ("TODO: 上线新版本", "新版本上线了。"),
    ],
)
def test_work_done_in_two_character_verbs_finishes_the_task(
    mem: MemoryService, todo: str, done: str
) -> None:
    # Only 写/做/改/测/弄/搞/修 + 完/好了 finished a task: 重构好了 left it open.
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    say(rt, todo)
    assert [n.type for n in mem.workspace_store.list_active_nodes(limit=50)] == ["task"]
    say(rt, done)
    assert mem.workspace_store.list_active_nodes(limit=50) == []
