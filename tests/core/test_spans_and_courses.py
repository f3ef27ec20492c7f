"""How long a state or a course of treatment lasts, said as a span (接下来三周, for the next
month, 要吃七天, these two days): the memory ends when the span does; the span said as its own
clause is no task and no state of its own; a sentence kept as a value keeps its "no"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ekko_memory import MemoryService
from ekko_memory.service.extraction.statements import read_statements
from ekko_memory.service.extraction.time_expressions import find_times
from tests.core.conftest import Clock
from tests.core.test_statement_kinds import say, stored

NOW = datetime(2026, 3, 2, 10, tzinfo=UTC)


def _days_left(mem: MemoryService, expires: datetime | None) -> float:
    assert expires is not None
    return (expires - mem.now()) / timedelta(days=1)


@pytest.mark.parametrize(
    ("text", "span", "days"),
    [
        ("接下来三周我都不喝奶茶", "接下来三周", 21),
        ("未来两周在外地培训", "未来两周", 14),
        ("这药还得吃五天", "五天", 5),
        ("avoid dairy for the next month", "for the next month", 30),
        ("for the next few weeks I'm off caffeine", "for the next few weeks", 21),
        ("staying at my parents' for the coming week", "for the coming week", 7),
    ],
)
def test_a_span_ends_where_its_words_say(text: str, span: str, days: int) -> None:
    [mention] = [t for t in find_times(text, NOW) if t.role == "until"]
    assert mention.text == span
    assert mention.ends is not None
    assert abs((mention.ends - NOW) / timedelta(days=1) - days) < 1.5


@pytest.mark.parametrize(
    "text", ["plans for next week?", "我上个月加班了五天", "每周三天去健身房", "三天前刚换的轮胎"]
)
def test_a_span_of_the_past_or_a_date_is_no_end(text: str) -> None:
    assert not [t for t in find_times(text, NOW) if t.role == "until"]


def test_a_medicine_taken_for_a_course_ends_with_it_and_the_span_is_no_task(
    mem: MemoryService, clock: Clock
) -> None:
    say(mem, "最近在吃阿莫西林，医生说得吃一周")
    say(mem, "I'm on a course of antibiotics, have to take them for 10 days", session="s2")
    nodes = stored(mem)
    [zh] = [n for n in nodes if n.key == "medication" and "阿莫西林" in str(n.value_json)]
    [en] = [n for n in nodes if n.key == "medication" and "antibiotic" in str(n.value_json)]
    assert 6 <= _days_left(mem, zh.expires_at) <= 8.5
    assert 9 <= _days_left(mem, en.expires_at) <= 11.5
    # The span alone says nothing: no task "得吃一周", no state "have to take them…".
    assert not [n for n in nodes if n.type == "task" or n.key == "temporary_state"], [
        n.title for n in nodes
    ]


def test_a_prescription_is_a_medicine_not_a_condition(mem: MemoryService) -> None:
    say(mem, "医生给我开了点消炎药")
    nodes = stored(mem)
    assert [n.key for n in nodes] == ["medication"]
    assert "消炎药" in str(nodes[0].value_json)


def test_a_condition_of_these_two_days_is_over_in_a_few(mem: MemoryService) -> None:
    say(mem, "这两天喉咙发炎，说话都疼")
    [sore] = [n for n in stored(mem) if n.key == "health_condition"]
    assert _days_left(mem, sore.expires_at) <= 4


def test_a_state_kept_in_words_keeps_its_no(mem: MemoryService) -> None:
    say(mem, "no alcohol for me for two weeks, doctor's orders")
    nodes = stored(mem)
    [state] = [n for n in nodes if n.key == "temporary_state"]
    assert str(state.value_json).startswith("no alcohol")
    assert 13 <= _days_left(mem, state.expires_at) <= 15.5
    # "doctor's orders" is the doctor's thing said in passing: nothing about a doctor.
    assert not [n for n in nodes if n.key == "person_fact"], [n.title for n in nodes]


def test_a_food_avoided_for_a_span_is_avoided_only_then(mem: MemoryService, clock: Clock) -> None:
    say(mem, "Skip gluten in anything you suggest for the next month please")
    [avoid] = [n for n in stored(mem) if n.key == "avoid_ingredient"]
    assert 29 <= _days_left(mem, avoid.expires_at) <= 31.5


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("我非常喜欢吃辣", False),
        ("我在莫斯科工作", False),
        ("未来两周在外地", False),
        ("最近在吃阿莫西林", False),
        ("我不吃辣", True),
        ("莫急，慢慢来", True),
    ],
)
def test_negation_is_a_word_not_a_character_of_another(text: str, negated: bool) -> None:
    assert read_statements(text, NOW)[0].negated is negated
