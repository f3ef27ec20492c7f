"""Facts told in the middle of chat: how long one has worked somewhere is no workplace, a
carmaker one works at is no car, a birthday said as the age one turns, a city moved to for
work, a condition found at a check-up, and the steps of a day told after 作息 — each read
as said, and nothing more."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import say, stored


def _keyed(mem: MemoryService, key: str) -> list[str]:
    return [str(n.value_json) for n in stored(mem) if n.key == key]


def test_how_long_one_has_worked_is_no_workplace_and_a_maker_no_car(mem: MemoryService) -> None:
    say(mem, "嗯 在理想汽车，做底盘标定，入职快两年了")
    assert _keyed(mem, "employer") == [] or all("年" not in v for v in _keyed(mem, "employer"))
    assert _keyed(mem, "vehicle") == []
    say(mem, "我开理想L7", session="s2")
    assert any("理想" in v for v in _keyed(mem, "vehicle"))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("So I'm turning 35 on October 9th, feels weird", "october 9th"),
        ("I'm gonna be 50 on 2 May, can't believe it", "2 may"),
    ],
)
def test_the_age_turned_on_a_day_gives_the_birthday(
    mem: MemoryService, text: str, day: str
) -> None:
    say(mem, text)
    assert any(day in v.casefold() for v in _keyed(mem, "birthday")), _keyed(mem, "birthday")


def test_turning_an_age_on_a_weekday_names_no_birthday(mem: MemoryService) -> None:
    say(mem, "I'm turning 30 on Saturday")
    assert _keyed(mem, "birthday") == []


def test_a_city_moved_to_for_work_is_where_the_user_lives(mem: MemoryService) -> None:
    say(mem, "想买个小烤箱 我刚从长沙调到南京这边上班 出租屋小")
    assert any("南京" in v for v in _keyed(mem, "city"))
    assert not any("长沙" in v for v in _keyed(mem, "city"))


def test_someone_elses_move_is_theirs(mem: MemoryService) -> None:
    say(mem, "我表姐刚从沈阳调到大连上班")
    user_cities = [
        n for n in stored(mem) if n.key == "city" and not (n.metadata or {}).get("person")
    ]
    assert all("表姐" in n.title for n in user_cities)


def test_a_condition_found_at_a_check_up(mem: MemoryService) -> None:
    say(mem, "前年体检查出来颈椎病 坐久了脖子就僵")
    assert any("颈椎" in v for v in _keyed(mem, "health_condition"))


def test_the_steps_of_a_day_told_after_its_routine(mem: MemoryService) -> None:
    """我现在作息很固定 早上7点遛狗 …: each step is a routine; the bedtime no task."""
    say(mem, "我现在作息很固定的 早上7点遛狗 中午12点午睡 晚上十点前肯定睡")
    routines = _keyed(mem, "routine")
    assert any("遛狗" in v for v in routines), routines
    assert not [n for n in stored(mem) if n.type == "task"]


def test_a_clock_time_without_a_routine_said_is_no_routine(mem: MemoryService) -> None:
    say(mem, "明天早上7点的高铁 去苏州")
    assert _keyed(mem, "routine") == []
