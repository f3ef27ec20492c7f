"""Each kind of statement through the runtime, in Chinese and English: what is stored (type,
key, value, scope, whose it is, expiry, supersede links) and what the next conversation's
context holds — and that questions, suppositions, small talk and take-backs store nothing."""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from tests.core.conftest import Clock


def say(mem: MemoryService, *said: str, session: str = "s1") -> None:
    s = mem.session(session, user_id="u1", workspace_id="w1")
    for text in said:
        s.append_message("user", text)
        s.append_message(
            "assistant", "好的。" if any("\u4e00" <= c <= "\u9fff" for c in text) else "OK."
        )
        report = s.after_reply()
        assert not report.errors, report.errors


def stored(mem: MemoryService) -> list[MemoryNode]:
    """Active memories and those waiting for the user (as nodes)."""
    active = [n for _, st in mem.stores() for n in st.list_active_nodes(limit=100)]
    waiting = [MemoryNode.model_validate(p.node) for p in mem.pending() if p.node]
    return active + waiting


def later(mem: MemoryService, question: str) -> str:
    """The context a new conversation gets for ``question``."""
    return mem.session("later", user_id="u1", workspace_id="w1").build_context(question).render()


def only(mem: MemoryService, key: str, value: Any) -> MemoryNode:
    [node] = [n for n in stored(mem) if n.key == key and str(value) in str(n.value_json)]
    return node


FACTS: list[tuple[str, str, Any, str, str]] = [
    ("我住在杭州，家里养了一只叫团子的猫。", "city", "杭州", "周末带娃去哪玩？", "杭州"),
    ("I live in Leeds.", "city", "leeds", "Any ideas for a day out?", "Leeds"),
    ("我在美团做后端开发。", "employer", "美团", "帮我写个自我介绍", "美团"),
    ("I'm a nurse at St Mary's.", "occupation", "nurse", "Rewrite my LinkedIn headline", "nurse"),
    ("我母语是粤语，英文只能看看。", "language", "粤语", "去日本沟通难吗", "粤语"),
    (
        "I speak Portuguese and Spanish fluently.",
        "language",
        "portuguese",
        "Where in South America?",
        "Portuguese",
    ),
    ("我对青霉素过敏。", "allergy", "青霉素", "感冒了吃什么药", "青霉素"),
    (
        "I'm type 1 diabetic btw.",
        "health_condition",
        "type 1 diabetic",
        "Snacks for a hike?",
        "diabetic",
    ),
]


@pytest.mark.parametrize(("said", "key", "value", "question", "word"), FACTS)
def test_a_fact_about_the_user_is_the_users_and_rides_along(
    mem: MemoryService, said: str, key: str, value: Any, question: str, word: str
) -> None:
    """Without 记住 / remember: stored for the user (waiting for their approval), and in the
    next conversation's context, marked unconfirmed, though the question shares no word."""
    say(mem, said)
    node = only(mem, key, value)
    assert (node.scope, node.type) == ("user", "fact")
    assert node.domain == "个人"
    assert word.casefold() in later(mem, question).casefold()


@pytest.mark.parametrize(
    ("said", "who", "word"),
    [
        ("我儿子对花生过敏。", "儿子", "花生"),
        ("My son is allergic to peanuts.", "son", "peanuts"),
        ("同事小王不吃牛肉，小李吃素。", "小李", "吃素"),
        ("my boss hates long emails", "boss", "long emails"),
    ],
)
def test_someone_elses_fact_is_theirs_never_the_users(
    mem: MemoryService, said: str, who: str, word: str
) -> None:
    say(mem, said)
    theirs = [
        n
        for n in stored(mem)
        if isinstance(n.value_json, dict) and n.value_json.get("person") == who
    ]
    assert theirs and all(n.domain == "人物" and n.category_path[0] == "人物" for n in theirs)
    # Nothing about them is filed as the user's own.
    assert not [n for n in stored(mem) if n.domain != "人物" and word in f"{n.title}{n.value_json}"]
    assert word in later(
        mem, "有什么要注意的？" if "\u4e00" <= said[0] <= "\u9fff" else "Anything to keep in mind?"
    )


@pytest.mark.parametrize(
    ("said", "ends_in_days"),
    [
        ("今天有点累，晚饭想简单点。", 0),
        ("I sprained my ankle, no running for two weeks.", 14),
        ("这周在减肥，晚上只吃沙拉。", 7),
    ],
)
def test_a_temporary_state_holds_until_it_ends(
    mem: MemoryService, clock: Clock, said: str, ends_in_days: int
) -> None:
    say(mem, said)
    [state] = [n for n in stored(mem) if n.expires_at is not None]
    assert state.scope == "workspace" and state.type == "constraint"
    assert 0 <= (state.expires_at - mem.now()).days <= ends_in_days  # type: ignore[operator]
    assert state.title[:4] in later(mem, "吃什么好？")
    clock.advance(days=ends_in_days + 2)
    assert state.title[:4] not in later(mem, "吃什么好？")


@pytest.mark.parametrize(
    ("said", "done", "left", "gone"),
    [
        (
            "这周要干三件事：交水电费、给车续保险、周五前交周报。",
            "水电费交完了。",
            "周报",
            "水电费",
        ),
        (
            "Need to buy a present for Dad before Sunday and mow the lawn before the in-laws come over.",
            "got Dad a new fishing reel, sorted",
            "lawn",
            "present",
        ),
    ],
)
def test_a_task_keeps_its_deadline_and_leaves_when_done(
    mem: MemoryService, said: str, done: str, left: str, gone: str
) -> None:
    say(mem, said)
    tasks = [n for n in stored(mem) if n.type == "task"]
    assert len(tasks) >= 2 and all(n.scope == "workspace" for n in tasks)
    say(mem, done, session="s2")
    context = later(mem, "还有啥要做的？")
    assert left in context and gone not in context


@pytest.mark.parametrize(
    "said", ["周五前要把季度报告交上去。", "I need to submit the grant application by Friday."]
)
def test_a_deadline_is_kept_as_a_date(mem: MemoryService, said: str) -> None:
    """周五前 / by Friday: the task's due date is the coming Friday, spelled in its title."""
    from datetime import datetime

    say(mem, said)
    [task] = [n for n in stored(mem) if n.type == "task"]
    due = datetime.fromisoformat(task.value_json["due"].upper())  # type: ignore[index]
    assert due.weekday() == 4 and 0 <= (due.date() - mem.now().astimezone().date()).days <= 7
    assert ("周五" if "周五" in said else "Fri") in task.title


@pytest.mark.parametrize(
    ("first", "then", "key", "new", "old"),
    [
        ("我住在苏州。", "啊sorry打错了，是无锡不是苏州", "city", "无锡", "苏州"),
        (
            "I work at Deloitte as an auditor.",
            "correction: it's KPMG, not Deloitte.",
            "employer",
            "kpmg",
            "Deloitte",
        ),
        ("我生日5月12……不对不对，是5月21。", None, "birthday", "5月21", "5月12"),
    ],
)
def test_a_correction_replaces_the_old_value_later_in_other_words(
    mem: MemoryService, first: str, then: str | None, key: str, new: str, old: str
) -> None:
    say(mem, first)
    if then is not None:
        say(mem, then, session="s2")  # another conversation, days later
    [node] = [n for n in stored(mem) if n.key == key]
    assert node.value_json == new
    context = later(mem, "帮我写个简介" if "\u4e00" <= first[0] <= "\u9fff" else "Write my bio")
    assert old not in context


def test_a_one_value_fact_said_anew_in_a_later_conversation_replaces_the_old(
    mem: MemoryService,
) -> None:
    """我在广州 then, twelve days later, 我上周搬去佛山了: the city is 佛山, 广州 is gone."""
    say(mem, "我在广州，天河这边。")
    say(mem, "跟你说一声，我上周搬去佛山了，禅城这边。", session="s2")
    context = later(mem, "周末去哪喝早茶？")
    assert "佛山" in context and "广州" not in context


@pytest.mark.parametrize(
    ("said", "takeback", "word"),
    [
        ("我喜欢鸭血。", "别记我喜欢鸭血了", "鸭血"),
        ("I love sushi, especially salmon nigiri.", "please forget the sushi thing", "sushi"),
        ("记住我下周二要去北京出差。", "算了，那条不用记了", "北京"),
    ],
)
def test_a_retraction_leaves_nothing_behind_and_writes_no_opposite(
    mem: MemoryService, said: str, takeback: str, word: str
) -> None:
    say(mem, said)
    say(mem, takeback)
    assert [
        n
        for n in stored(mem)
        if word.casefold() in f"{n.title}{n.content}{n.value_json}".casefold()
    ] == []
    assert word not in later(mem, "晚饭吃什么？")


@pytest.mark.parametrize(
    "said",
    [
        "如果我不吃辣的话，川菜还能吃什么？",
        "What if I moved to Berlin? Would rent be cheaper?",
        "酸奶能喝吗？",
        "Is it ok to drink coffee at night?",
        "今天天气真不错，阳光好好。",
        "Thanks, you're a star!",
        "I booked a flight to Tokyo.",  # "flight" holds no "light": no 少油少盐
    ],
)
def test_questions_suppositions_and_small_talk_store_nothing(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert [n for n in stored(mem) if n.domain not in ("个人",) or n.key != "travel_plan"] == []
