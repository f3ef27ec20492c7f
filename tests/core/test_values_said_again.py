"""A value said again in place of the one just said: repaired mid-sentence (下周三，哦不，周四上午;
next Wednesday, no wait, Thursday; 两千，啊不，三千), or given anew in the next message with only
the new value (scratch that, $1000 max; wait, make it 2 grand; 改成八百吧; 不对，是周六上午).
The new value replaces the old one — a one-valued fact such as a budget keeps exactly one —
the week or the words said around the old value stay, and a question or a supposition with
the same words changes nothing."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def values(mem: MemoryService, key: str) -> list[str]:
    return [str(n.value_json) for n in stored(mem) if n.key == key]


def tasks(mem: MemoryService) -> list[dict[str, str]]:
    return [n.value_json for n in stored(mem) if n.key == "task_status"]  # type: ignore[misc]


def due(task: dict[str, str]) -> date:
    return datetime.fromisoformat(task["due"].upper()).astimezone().date()


def next_week(day: date) -> bool:
    """``day`` falls in the week after this one."""
    today = datetime.now().astimezone().date()
    monday = today - timedelta(days=today.weekday())
    return 7 <= (day - monday).days < 14


def test_a_weekday_repaired_mid_sentence_keeps_the_week_said(mem: MemoryService) -> None:
    say(mem, "下周二，啊不对，周五下午要去牙科补牙")
    [task] = tasks(mem)
    assert due(task).weekday() == 4 and next_week(due(task)) and "周二" not in task["task"]
    context = later(mem, "下周有什么安排")
    assert "补牙" in context and "周二" not in context


def test_an_english_weekday_repaired_mid_sentence(mem: MemoryService) -> None:
    say(mem, "next Tuesday, no wait, Wednesday I have to get the boiler serviced")
    [task] = tasks(mem)
    assert due(task).weekday() == 2 and "tuesday" not in task["task"].casefold()


def test_an_amount_repaired_mid_sentence(mem: MemoryService) -> None:
    say(mem, "想买个投影仪，预算两千，啊不，三千")
    assert values(mem, "budget") == ["三千"]


def test_a_routines_day_corrected_by_the_value_alone(mem: MemoryService) -> None:
    say(mem, "我每周二晚上练普拉提", "周二，哦不，周五")
    assert values(mem, "routine") == ["我每周五晚上练普拉提"]


def test_a_routine_moved_by_its_new_time_alone(mem: MemoryService) -> None:
    say(mem, "我每周一下午上书法课", "改成周日上午")
    assert values(mem, "routine") == ["我每周日上午上书法课"]


@pytest.mark.parametrize(
    ("first", "then", "new", "old"),
    [
        (
            "I'm shopping for a camera, budget around $1500.",
            "scratch that, $900 max",
            "$900",
            "1500",
        ),
        ("My budget for the move is 3000 euros.", "wait, make it 2 grand", "2 grand", "3000"),
        ("budget for the new desk is 400", "actually make it 650", "650", "400"),
        ("想换个电视，预算四千左右", "算了，预算就两千五吧", "两千五", "四千"),
        ("给我妈买个按摩椅，预算三千", "改成五千吧", "五千", "三千"),
    ],
)
def test_a_budget_said_only_as_a_correction_replaces_the_old_one(
    mem: MemoryService, first: str, then: str, new: str, old: str
) -> None:
    say(mem, first, then)
    [budget] = values(mem, "budget")
    assert new in budget and old not in budget


def test_a_budget_corrected_in_a_later_session(mem: MemoryService) -> None:
    say(mem, "装修预算二十万")
    say(mem, "上次说错了，装修预算其实是二十五万", session="s2")
    assert values(mem, "budget") == ["二十五万"]
    context = later(mem, "装修怎么分配钱")
    assert "二十五万" in context and "二十万" not in context


def test_the_appointment_with_my_dentist_is_mine_and_its_date_is_corrected(
    mem: MemoryService,
) -> None:
    say(mem, "My dentist appointment is on the 12th.", "wait no, it's the 14th")
    assert [n for n in stored(mem) if n.domain == "人物"] == []  # nothing of the dentist
    [task] = tasks(mem)
    assert due(task).day == 14 and "12th" not in task["task"]


@pytest.mark.parametrize(
    ("first", "then", "key", "kept"),
    [
        ("my budget for the sofa is 900", "should I make it 1200?", "budget", "900"),
        ("budget for the trip is 3000", "what if I make it 2000?", "budget", "3000"),
        ("预算一千", "如果改成八百呢？", "budget", "一千"),
        ("预算一千", "改成八百能买到好的吗？", "budget", "一千"),
        ("我每周二上钢琴课", "改成周六上午怎么样？", "routine", "我每周二上钢琴课"),
    ],
)
def test_a_new_value_asked_or_supposed_changes_nothing(
    mem: MemoryService, first: str, then: str, key: str, kept: str
) -> None:
    say(mem, first, then)
    assert values(mem, key) == [kept]


def test_no_that_is_not_a_repair_changes_nothing(mem: MemoryService) -> None:
    say(mem, "I said no, Friday doesn't work for me")
    assert tasks(mem) == []


def test_a_name_said_again_with_its_verb_replaces_the_old_name(mem: MemoryService) -> None:
    say(mem, "我儿子叫乐乐", "打错了，叫豆豆")
    [member] = [n.value_json for n in stored(mem) if n.key == "family_member"]
    assert member == {"called": "豆豆", "person": "儿子"}


def test_a_name_asked_about_changes_nothing(mem: MemoryService) -> None:
    say(mem, "我儿子叫乐乐", "叫豆豆好听吗？")
    [member] = [n.value_json for n in stored(mem) if n.key == "family_member"]
    assert member == {"called": "乐乐", "person": "儿子"}


def test_a_part_of_the_day_said_anew_keeps_every_day(mem: MemoryService) -> None:
    say(mem, "我每天早上6点遛狗", "现在改成晚上遛了")
    assert values(mem, "routine") == ["我每天晚上遛狗"]


def test_a_part_of_the_day_asked_about_changes_nothing(mem: MemoryService) -> None:
    say(mem, "我每天早上6点遛狗", "要不要改成晚上遛？")
    assert values(mem, "routine") == ["我每天早上6点遛狗"]


def test_an_update_names_the_routine_in_another_form_of_its_word(mem: MemoryService) -> None:
    say(mem, "I swim laps on Mondays")
    say(mem, "heads up, my laps are now on Thursdays", session="s2")
    [routine] = values(mem, "routine")
    assert "thursdays" in routine and "mondays" not in routine


def test_a_teams_routine_is_the_workspaces_and_its_update_replaces_it(
    mem: MemoryService,
) -> None:
    say(mem, "our team releases on Mondays")
    [rule] = [n for n in stored(mem) if n.key == "team_rule"]
    assert rule.scope == "workspace"
    say(mem, "heads up, releases are now on Thursdays", session="s2")
    context = later(mem, "when is the next release?")
    assert "Thursdays" in context and "Mondays" not in context


def test_the_users_own_routine_with_we_stays_theirs(mem: MemoryService) -> None:
    say(mem, "we go hiking every Sunday")
    assert [n.scope for n in stored(mem) if n.key == "routine"] == ["user"]


def test_a_value_drawn_as_a_conclusion_later_in_the_message(mem: MemoryService) -> None:
    say(
        mem,
        "I'm vegan, any quick lunch ideas?",
        "honestly I still have omelettes now and then, which makes me vegetarian technically. "
        "I tell people vegan because it's simpler",
    )
    assert values(mem, "dietary_restriction") == ["vegetarian"]
    assert not any("vegan" in f"{n.title} {n.content}".casefold() for n in stored(mem))


def test_a_value_drawn_as_a_conclusion_in_chinese(mem: MemoryService) -> None:
    say(mem, "我吃全素，推荐点早餐", "其实我吃鸡蛋和牛奶，所以算蛋奶素吧")
    [diet] = values(mem, "dietary_restriction")
    assert "蛋奶素" in diet and "全素" not in diet


def test_so_tired_really_is_no_correction(mem: MemoryService) -> None:
    say(mem, "I'm vegan, what's a good high-protein dinner?", "long day, so tired really")
    assert values(mem, "dietary_restriction") == ["vegan"]


@pytest.mark.parametrize(
    ("first", "then", "now", "before"),
    [
        ("My flight to Dublin is at 6pm on Friday.", "correction: it's 7:30pm", "7:30pm", "6pm"),
        (
            "I'm meeting Priya on Tuesday at 3",
            "actually it got pushed to Wednesday",
            "wednesday",
            "tuesday",
        ),
        ("我周四要交报告", "改到周五了", "周五", "周四"),
    ],
)
def test_a_time_moved_by_the_next_message(
    mem: MemoryService, first: str, then: str, now: str, before: str
) -> None:
    say(mem, first, then)
    [task] = tasks(mem)
    assert now in task["task"].casefold() and before not in task["task"].casefold()


@pytest.mark.parametrize(
    ("first", "then", "key", "now"),
    [
        ("我每天喝两杯咖啡", "最近改成一杯了", "routine", "一杯"),
        ("my daughter is in 3rd grade", "oops, 4th grade", "school", "4th grade"),
    ],
)
def test_a_count_or_a_grade_said_anew(
    mem: MemoryService, first: str, then: str, key: str, now: str
) -> None:
    say(mem, first, then)
    [value] = values(mem, key)
    assert now in value


@pytest.mark.parametrize(
    ("first", "then", "key", "kept"),
    [
        ("我周四要交报告", "能不能改到周五？", "task_status", "周四"),
        (
            "I'm meeting Priya on Tuesday at 3",
            "what if it got pushed to Wednesday?",
            "task_status",
            "tuesday",
        ),
        ("我每天喝两杯咖啡", "如果改成一杯会不会好点", "routine", "两杯"),
        ("my daughter is in 3rd grade", "is 4th grade harder?", "school", "3rd grade"),
    ],
)
def test_a_change_asked_or_supposed_moves_nothing(
    mem: MemoryService, first: str, then: str, key: str, kept: str
) -> None:
    say(mem, first, then)
    [value] = values(mem, key)
    assert kept in value.casefold()


def test_turns_out_gives_the_new_value(mem: MemoryService) -> None:
    say(mem, "my call with Ana is on Thursday at 4pm", "turns out it's Friday")
    [task] = tasks(mem)
    assert "friday" in task["task"] and "thursday" not in task["task"]


def test_an_allergy_found_to_be_another_keeps_no_fragment(mem: MemoryService) -> None:
    say(mem, "我对阿莫西林过敏")
    say(mem, "后来去医院查了，原来是对磺胺过敏，阿莫西林没事", session="s2")
    assert values(mem, "allergy") == ["磺胺"]


def test_a_town_keeps_its_state_and_the_state_is_corrected(mem: MemoryService) -> None:
    say(
        mem,
        "I'm in Richmond, Virginia, any good day trips?",
        "sorry, I meant Richmond, Kentucky, not Virginia",
    )
    [city] = values(mem, "city")
    assert city == "richmond, kentucky"
    context = later(mem, "what's the weather like where I live in spring?")
    assert "Kentucky" in context and "Virginia" not in context


@pytest.mark.parametrize(
    "said", ["I'm in Toronto, and it's cold", "I live in Leeds, with my partner"]
)
def test_no_state_from_what_follows_a_comma(mem: MemoryService, said: str) -> None:
    say(mem, said)
    [city] = values(mem, "city")
    assert "," not in city


@pytest.mark.parametrize(
    ("first", "again", "now", "gone"),
    [
        (
            "my book club meets the first Tuesday of every month",
            "sorry, I meant the first Thursday",
            "first Thursday",
            "Tuesday",
        ),
        ("我们读书会每个月第一个周二聚", "我说错了，是第一个周四", "第一个周四", "周二"),
    ],
)
def test_an_ordinal_weekday_said_again_changes_only_the_day(
    mem: MemoryService, first: str, again: str, now: str, gone: str
) -> None:
    say(mem, first, again)
    titles = [n.title or "" for n in stored(mem)]
    assert any(now in t for t in titles), titles
    assert not any(gone in t for t in titles), titles
