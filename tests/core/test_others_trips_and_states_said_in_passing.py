"""What people say in passing, read by the structure of the sentence: someone else's health,
diet or allergy is theirs (never a name, never the user's); "every day" inside a week or two
is a state for that while; a trip with its time is a travel plan, not a bare to-do; what a
boss or client wants by a time is the user's task; a job said as "dev" or as where one is
now after leaving a job; children had along with their ages, a knee bad since an operation
and a birthday said by its day, though asked beside a request. Near-misses store nothing
about the user: questions, suppositions, negations, someone else's plans, a shop one is at."""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from tests.core.conftest import Clock
from tests.core.test_statement_kinds import later, say, stored


def _theirs(mem: MemoryService, who: str) -> list[MemoryNode]:
    return [
        n
        for n in stored(mem)
        if isinstance(n.value_json, dict) and who in str(n.value_json.get("person", ""))
    ]


def _users(mem: MemoryService) -> list[MemoryNode]:
    return [n for n in stored(mem) if n.domain != "人物"]


def _text(n: MemoryNode) -> str:
    return f"{n.title} {n.content} {n.value_json}"


# --- someone else's facts ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "who", "word", "question"),
    [
        ("我爸血糖偏高，甜的得少吃", "爸", "血糖", "过年回家给我爸做点什么菜？"),
        ("我婆婆吃长素，初一十五还要斋戒", "婆婆", "吃长素", "婆婆来住一周，菜单怎么安排？"),
        ("our new hire Priya is allergic to tree nuts", "priya", "tree nuts", "team lunch ideas?"),
        ("my husband's vegan, so no butter in anything", "husband", "vegan", "dinner ideas?"),
    ],
)
def test_someone_elses_health_or_diet_is_theirs_and_comes_back(
    mem: MemoryService, said: str, who: str, word: str, question: str
) -> None:
    say(mem, said)
    theirs = _theirs(mem, who)
    assert theirs and all(n.domain == "人物" for n in theirs), [_text(n) for n in stored(mem)]
    # Never read as their name (我爸叫血糖偏高) nor kept as the user's own.
    assert not [n for n in theirs if n.key == "family_member" and word in str(n.value_json)]
    assert not [n for n in _users(mem) if word.casefold() in _text(n).casefold()]
    assert word.casefold() in later(mem, question).casefold()


def test_clauses_going_on_about_someone_stay_with_them(mem: MemoryService) -> None:
    say(mem, "我哥是个钓鱼迷，用的是达瓦的竿子，周末基本都在水库边")
    say(mem, "my sister is a huge tea nerd, only buys oolong, brews it gongfu style")
    assert "达瓦" in later(mem, "我哥生日快到了，送他什么？")
    assert "oolong" in later(mem, "gift ideas for my sister?")
    # What he uses and does is not the user's.
    assert not [n for n in _users(mem) if "达瓦" in _text(n) or "oolong" in _text(n)]


def test_someone_of_the_users_group_is_named_as_theirs(mem: MemoryService) -> None:
    say(mem, "我们科室的老孙对青霉素过敏")
    assert _theirs(mem, "老孙")
    assert not [n for n in _users(mem) if "青霉素" in _text(n)]


def test_a_pet_spoken_of_as_it_keeps_its_name_and_age(mem: MemoryService) -> None:
    say(mem, "我家兔子最近不爱吃草，它叫年糕，两岁了")
    assert any(n.key == "pet" and "年糕" in str(n.value_json) for n in stored(mem))
    # 两岁 is the rabbit's age, never the user's.
    assert not [n for n in _users(mem) if n.key == "age"]


# --- temporary states -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "within_days"),
    [
        ("这礼拜天天熬夜改稿子", 7),
        ("这两周在喝中药调理", 15),
        ("this week I'm up at 5 every morning for the audit", 7),
    ],
)
def test_every_day_inside_a_bounded_while_is_a_state_for_that_while(
    mem: MemoryService, clock: Clock, said: str, within_days: int
) -> None:
    say(mem, said)
    states = [n for n in stored(mem) if n.key == "temporary_state"]
    assert states, [(n.key, n.title) for n in stored(mem)]
    assert not [n for n in stored(mem) if n.key == "routine"]
    assert 0 <= (states[0].expires_at - mem.now()).days <= within_days  # type: ignore[operator]
    clock.advance(days=within_days + 2)
    assert said[:4] not in later(mem, "今天吃什么好？ what should I eat?")


def test_every_day_lately_stays_a_habit(mem: MemoryService) -> None:
    say(mem, "我最近每天晚上都去游泳")
    assert any(n.key == "routine" for n in stored(mem))


# --- trips ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "place", "question"),
    [
        ("国庆准备回老家看看", "老家", "国庆假期有什么安排来着？"),
        ("下个月打算去大理住几天", "大理", "下个月要带什么衣服？"),
        ("heading to Lisbon in June for a wedding", "Lisbon", "what do I need to pack?"),
    ],
)
def test_a_trip_with_its_time_is_a_travel_plan(
    mem: MemoryService, said: str, place: str, question: str
) -> None:
    say(mem, said)
    [trip] = [n for n in stored(mem) if n.key == "travel_plan"]
    assert place.casefold() in str(trip.value_json).casefold()
    assert trip.expires_at is not None
    assert not [n for n in stored(mem) if n.key == "task_status"]
    assert place in later(mem, question)


def test_a_month_long_trip_says_the_month_not_its_first_day(mem: MemoryService) -> None:
    say(mem, "flying out to Seoul in September")
    [trip] = [n for n in stored(mem) if n.key == "travel_plan"]
    assert "September" in trip.title and "Sep 1" not in trip.title


@pytest.mark.parametrize(
    "said",
    [
        "五一要不要去青岛？",
        "如果国庆去西安的话，住哪里方便",
        "we're not going to Lisbon in June after all",
        "my parents are flying to Rome next month",
    ],
)
def test_a_trip_asked_supposed_denied_or_someone_elses_is_none_of_the_users(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert not [n for n in _users(mem) if n.key in ("travel_plan", "task_status")]


# --- work set by someone else -----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("my manager wants the slide deck before Thursday", "slide deck"),
        ("the client needs the revised quote by the 20th", "revised quote"),
        ("主管要周三之前看到排期表", "排期表"),
        ("甲方催着月底前要终稿", "终稿"),
    ],
)
def test_what_a_boss_or_client_wants_by_a_time_is_the_users_task(
    mem: MemoryService, said: str, word: str
) -> None:
    say(mem, said)
    [task] = [n for n in stored(mem) if n.key == "task_status"]
    assert task.domain != "人物" and word in task.title
    assert isinstance(task.value_json, dict) and task.value_json.get("due")


@pytest.mark.parametrize(
    "said",
    [
        "老板周五要请全组吃饭",
        "does my manager want the deck by Thursday?",
        "my boss wants a bigger office",
    ],
)
def test_a_boss_doing_or_wanting_without_a_deadline_is_no_task(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert not [n for n in stored(mem) if n.key == "task_status"]


# --- job and employer -------------------------------------------------------------------


def test_a_job_said_as_dev_with_its_employer(mem: MemoryService) -> None:
    say(mem, "quick one: I'm a mobile dev at Monzo, mostly Kotlin")
    keys = {n.key: _text(n) for n in _users(mem)}
    assert "Monzo".casefold() in keys.get("employer", "").casefold()
    assert "mobile dev" in keys.get("occupation", "")


def test_where_one_is_now_after_leaving_a_job_is_the_employer(mem: MemoryService) -> None:
    say(mem, "quit Deloitte in the spring, I'm at Atlassian now")
    assert any(n.key == "employer" and "atlassian" in str(n.value_json) for n in stored(mem))


@pytest.mark.parametrize("said", ["I'm at Costco now", "I'm at Gatwick now, gate changed again"])
def test_a_place_one_is_at_is_no_employer(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in stored(mem) if n.key == "employer"]


def test_working_in_a_city_alone_is_where_one_works(mem: MemoryService) -> None:
    say(mem, "我一个人在厦门上班，家里人都在东北")
    assert any("厦门" in _text(n) for n in _users(mem))


# --- facts beside a request -------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "ages"),
    [
        ("帮我找个亲子餐厅，我带着两个孩子，大的6岁小的3岁", ["6岁", "3岁"]),
        ("any rainy-day ideas? I've got two kids (ages 4 and 10)", ["4", "10"]),
    ],
)
def test_children_had_along_are_kept_with_their_ages(
    mem: MemoryService, said: str, ages: list[str]
) -> None:
    say(mem, said)
    [kids] = [n for n in stored(mem) if n.key == "family_member"]
    assert all(a in kids.title for a in ages), kids.title
    assert not [n for n in _users(mem) if n.key == "age"]


def test_no_children_and_a_question_about_them_store_nothing(mem: MemoryService) -> None:
    say(mem, "我没有孩子", "我有两个孩子的话要换大车吗？")
    assert not [n for n in stored(mem) if n.key == "family_member"]


def test_a_body_part_bad_since_an_operation_is_a_condition(mem: MemoryService) -> None:
    say(mem, "could you put together a gentle workout? my right hip's been dodgy since the op")
    [cond] = [n for n in stored(mem) if n.key == "health_condition"]
    assert "hip" in str(cond.value_json) and cond.domain == "个人"
    assert "hip" in later(mem, "what exercise should I do this week?")


@pytest.mark.parametrize(
    "said",
    [
        "is my hip bad or is it just tight?",
        "my hip isn't dodgy anymore",
        "my dad's hip has been bad since the fall",
        "my shoulder is sore from climbing today",
    ],
)
def test_a_body_part_asked_denied_someone_elses_or_sore_today_is_no_condition(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert not [n for n in _users(mem) if n.key == "health_condition"]


@pytest.mark.parametrize(
    ("said", "who"),
    [
        ("下周五我生日，想在家请几个朋友吃火锅", ""),
        ("my birthday's next Tuesday, thinking of a small dinner", ""),
        ("下周二是我闺女的生日", "闺女"),
    ],
)
def test_a_birthday_said_by_its_day_is_that_date(mem: MemoryService, said: str, who: str) -> None:
    say(mem, said)
    [bday] = [n for n in stored(mem) if n.key == "birthday"]
    value: Any = bday.value_json
    if who:
        assert isinstance(value, dict) and value.get("person") == who
    else:
        assert bday.domain == "个人"
    # A date (月/日 or a month name), not the words "next Tuesday".
    assert "next" not in str(value) and "下周" not in str(value)


@pytest.mark.parametrize("said", ["下周五是我生日吗？", "如果下周五是我生日就好了"])
def test_a_birthday_asked_or_wished_is_none(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in stored(mem) if n.key == "birthday"]


def test_a_consequence_of_a_routine_is_part_of_it_not_a_task(mem: MemoryService) -> None:
    say(mem, "我每天早上五点半起来跑步，所以晚上九点半前就得睡")
    assert not [n for n in stored(mem) if n.key == "task_status"]
    assert any(n.key == "routine" and "九点半" in n.title for n in stored(mem))


def test_tomorrow_night_at_ten_is_the_evening(mem: MemoryService) -> None:
    say(mem, "明晚十点前把稿子发给编辑")
    [task] = [n for n in stored(mem) if n.key == "task_status"]
    assert isinstance(task.value_json, dict) and "22:00" in str(task.value_json.get("due"))


def test_a_workplace_in_a_town_keeps_the_town(mem: MemoryService) -> None:
    say(mem, "I work for a tiny design studio in Bath")
    assert any("Bath" in f"{n.title}" for n in stored(mem) if n.key != "employer")


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("到月底都要上夜班", "夜班"),
        ("下个月之前都在外地驻场", "驻场"),
        ("I'm on call all weekend so nothing fancy", "on call"),
    ],
)
def test_what_goes_on_until_a_time_is_a_state_not_a_task(
    mem: MemoryService, said: str, word: str
) -> None:
    say(mem, said)
    assert not [n for n in stored(mem) if n.key == "task_status"]
    [state] = [n for n in stored(mem) if n.key == "temporary_state"]
    assert word in state.title and state.expires_at is not None


def test_before_next_month_ends_when_this_month_does(mem: MemoryService) -> None:
    say(mem, "下个月之前都在外地驻场")
    [state] = [n for n in stored(mem) if n.key == "temporary_state"]
    # Until next month begins: within this month, not through the next one.
    assert state.expires_at is not None and (state.expires_at - mem.now()).days <= 31
    assert state.expires_at.month == mem.now().month or (state.expires_at - mem.now()).days < 2


def test_a_deadline_for_everything_stays_a_task(mem: MemoryService) -> None:
    say(mem, "周五之前材料都要交齐")
    assert [n for n in stored(mem) if n.key == "task_status"]


@pytest.mark.parametrize(
    ("said", "who", "word"),
    [
        ("婆婆膝盖不好，上下楼费劲", "婆婆", "膝盖"),
        ("孩子他妈对虾过敏", "孩子他妈", "虾"),
        ("my wife's brother Dan is coeliac", "wife", "coeliac"),
    ],
)
def test_someone_said_by_their_body_or_through_the_child_is_theirs(
    mem: MemoryService, said: str, who: str, word: str
) -> None:
    say(mem, said)
    assert _theirs(mem, who.casefold()) or _theirs(mem, who), [_text(n) for n in stored(mem)]
    assert not [n for n in _users(mem) if word in _text(n)]


@pytest.mark.parametrize(
    "said",
    ["班里有个同学对芒果过敏", "the new girl in accounts is allergic to sesame", "隔壁阿姨不吃葱"],
)
def test_someone_unnamed_never_becomes_the_user(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in _users(mem) if n.key in ("avoid_ingredient", "allergy", "diet")], [
        _text(n) for n in _users(mem)
    ]


def test_a_trip_over_a_range_of_days_lasts_to_its_end(mem: MemoryService) -> None:
    say(mem, "下周二到周四我在武汉培训")
    [trip] = [n for n in stored(mem) if n.key == "travel_plan"]
    assert "武汉" in str(trip.value_json) and "—" in trip.title
    assert trip.expires_at is not None and (trip.expires_at - mem.now()).days >= 3


@pytest.mark.parametrize(
    ("said", "who", "word", "question"),
    [
        ("帮我挑个礼物给我岳父，他今年七十，爱下象棋", "岳父", "象棋", "岳父生日送什么好？"),
        ("what should I cook for my sister? she's doing keto", "sister", "keto", "dinner ideas?"),
    ],
)
def test_he_or_she_after_someone_named_in_a_request_is_them(
    mem: MemoryService, said: str, who: str, word: str, question: str
) -> None:
    say(mem, said)
    assert any(word in _text(n) for n in _theirs(mem, who)), [_text(n) for n in stored(mem)]
    assert not [n for n in _users(mem) if word in _text(n)]
    assert word in later(mem, question)
