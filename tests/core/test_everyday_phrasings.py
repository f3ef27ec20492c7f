"""Ordinary phrasings the extractor used to misread: a take-back later in the same message,
an age said right after the pet or child it belongs to, how a task stands said beside it,
"on call" (no call to make), and a booking said after its time (下周二上午十点约了体检)."""

from __future__ import annotations

from ekko_memory import MemoryService
from tests.core.conftest import Clock
from tests.core.test_statement_kinds import later, say, stored


def test_a_take_back_later_in_the_message_takes_back_the_sentence_before_it(
    mem: MemoryService,
) -> None:
    say(mem, "我住在杭州。", "我喜欢吃辣。算了，这条别记了")
    assert [n.key for n in stored(mem)] == ["city"]
    context = later(mem, "晚饭做点什么？")
    assert "辣" not in context


def test_a_take_back_in_english_leaves_the_message_before_it_alone(mem: MemoryService) -> None:
    say(
        mem,
        "I live in Boston.",
        "I'm allergic to shellfish. Actually scratch that, forget I said it",
    )
    assert [(n.key, n.value_json) for n in stored(mem)] == [("city", "boston")]
    assert "shellfish" not in later(mem, "What should I cook tonight?").casefold()


def test_a_take_back_that_names_one_sentence_keeps_the_others(mem: MemoryService) -> None:
    say(mem, "我住在成都。家里养了只猫叫花卷。猫的事别记了")
    assert [n.key for n in stored(mem)] == ["city"]
    say(mem, "My dog is called Pepper. Actually forget that", session="s2")
    assert not [n for n in stored(mem) if "pepper" in str(n.value_json).casefold()]


def test_an_age_after_a_pet_or_child_is_theirs_not_the_users(mem: MemoryService) -> None:
    say(mem, "我家有只柯基叫豆豆，三岁了")
    say(mem, "我有个女儿，五岁了", session="s2")
    ages = [n for n in stored(mem) if n.key == "age"]
    assert sorted(str(n.value_json["person"]) for n in ages) == ["女儿", "柯基"]
    assert all(isinstance(n.value_json, dict) for n in ages)


def test_what_the_user_does_after_naming_the_pet_stays_theirs(mem: MemoryService) -> None:
    say(mem, "我家里养了条狗，已经十岁了，每天早上要遛")
    [age] = [n for n in stored(mem) if n.key == "age"]
    assert isinstance(age.value_json, dict) and age.value_json["person"] == "狗"
    [walk] = [n for n in stored(mem) if n.key == "routine"]
    assert "遛" in walk.title and not isinstance(walk.value_json, dict)


def test_a_childs_liking_is_not_the_users(mem: MemoryService) -> None:
    say(mem, "我有个弟弟，今年刚满18，很爱打游戏")
    likes = [n for n in stored(mem) if n.key == "likes"]
    assert likes and all(
        isinstance(n.value_json, dict) and n.value_json["person"] == "弟弟" for n in likes
    )
    say(mem, "I have a corgi named Bean, she's three", session="s2")
    assert not [n for n in stored(mem) if n.key == "age" and not isinstance(n.value_json, dict)]


def test_how_a_task_stands_is_no_second_task(mem: MemoryService) -> None:
    say(mem, "下周五前要把季度报告交给老板，还没开始写")
    say(mem, "I have to file my taxes by next Friday, haven't even started", session="s2")
    tasks = [n for n in stored(mem) if n.type == "task"]
    assert len(tasks) == 2, [t.title for t in tasks]
    assert not [t for t in tasks if "没开始" in t.title]


def test_returning_a_thing_is_still_a_task_beside_another(mem: MemoryService) -> None:
    say(mem, "周末要把借的相机还给小李，还要去趟超市")
    titles = sorted(n.title for n in stored(mem) if n.type == "task")
    assert len(titles) == 2 and any("相机" in t for t in titles), titles


def test_on_call_is_a_state_not_a_call_to_make(mem: MemoryService) -> None:
    say(mem, "I'm on call until Friday so keep answers short pls")
    assert not [n for n in stored(mem) if n.type == "task"]
    say(mem, "gotta call my landlord on Sunday about the boiler", session="s2")
    [task] = [n for n in stored(mem) if n.type == "task"]
    assert "landlord" in task.title


def test_a_booking_said_after_its_time_is_ahead(mem: MemoryService) -> None:
    say(mem, "下周二上午十点约了体检，别让我忘了")
    [task] = [n for n in stored(mem) if n.type == "task"]
    assert "体检" in task.title and isinstance(task.value_json, dict)
    assert str(task.value_json["due"]).endswith("10:00+08:00") or "10:00" in task.title
    assert "体检" in later(mem, "下周有什么安排？")


def test_a_booking_made_yesterday_is_no_task(mem: MemoryService) -> None:
    say(mem, "昨天约了牙医")
    assert not [n for n in stored(mem) if n.type == "task"]


def test_a_car_sold_or_stolen_is_no_car(mem: MemoryService) -> None:
    say(mem, "我上周把车卖了，现在天天骑电动车上班")
    say(mem, "我家那辆旧车被偷了，烦死了", session="s2")
    assert not [n for n in stored(mem) if n.key == "vehicle"]
    say(mem, "我开一辆白色的特斯拉", session="s3")
    [car] = [n for n in stored(mem) if n.key == "vehicle"]
    assert "特斯拉" in str(car.value_json)


def test_what_holds_now_after_what_used_to(mem: MemoryService) -> None:
    say(mem, "I used to live in Denver but now I live in Boise")
    [city] = [n for n in stored(mem) if n.key == "city"]
    assert city.value_json == "boise"
    say(mem, "I used to teach, currently I work at Canva", session="s2")
    [job] = [n for n in stored(mem) if n.key == "employer"]
    assert job.value_json == "canva"
    assert "Canva" in later(mem, "Help me write a short bio")


def test_what_goes_into_a_drink_is_no_rule_for_dishes(mem: MemoryService) -> None:
    say(mem, "我平时喝茶从来不放糖，放点蜂蜜就行")
    say(mem, "I take my coffee black, no sugar", session="s2")
    assert not [n for n in stored(mem) if n.key in ("avoid_ingredient", "flavor_profile")]
    assert "糖" not in later(mem, "晚饭做个什么菜？")
    say(mem, "我不吃香菜，喝咖啡也不加奶", session="s3")
    [herb] = [n for n in stored(mem) if n.key == "avoid_ingredient"]
    assert herb.value_json == "香菜"


def test_an_errand_named_without_the_is_a_task(mem: MemoryService) -> None:
    say(mem, "this week I need to book hotels for the conference")
    say(mem, "这个月得交停车费", session="s2")
    titles = [n.title for n in stored(mem) if n.type == "task"]
    assert any("hotels" in t for t in titles) and any("停车费" in t for t in titles), titles
    say(mem, "这周要少喝奶茶", "I need to eat vegetables this week", session="s3")
    assert len([n for n in stored(mem) if n.type == "task"]) == 2


def test_money_sent_or_a_thing_fetched_closes_its_task(mem: MemoryService) -> None:
    say(mem, "下周五前要把物业费转给物业")
    say(mem, "I have to pick up the parcel at the post office on Saturday", session="s2")
    assert len([n for n in stored(mem) if n.type == "task"]) == 2
    say(mem, "物业费已经转过去了", session="s3")
    say(mem, "got the parcel, finally", session="s4")
    assert not [n for n in stored(mem) if n.type == "task" and n.status == "active"]
    assert "物业费" not in later(mem, "我还有什么要办的？")


def test_a_whole_month_dates_a_trip_or_a_deadline(mem: MemoryService) -> None:
    say(mem, "we're flying to Seoul in early October")
    [trip] = [n for n in stored(mem) if n.key == "travel_plan"]
    assert isinstance(trip.value_json, dict) and str(trip.value_json["when"])[5:7] == "10"
    say(mem, "十一月底前要把年度总结交上去", session="s2")
    [task] = [n for n in stored(mem) if n.type == "task"]
    assert isinstance(task.value_json, dict) and str(task.value_json["due"])[5:10] == "11-30"


def test_a_month_gone_dates_nothing_ahead(mem: MemoryService) -> None:
    say(mem, "I was in Lisbon in February, loved it")
    say(mem, "我8月去过青岛", session="s2")
    assert not [n for n in stored(mem) if n.type == "task" or n.key == "travel_plan"]


def test_a_guess_of_what_someone_would_do_is_no_fact_of_them(mem: MemoryService) -> None:
    say(mem, "haha that's so cute, my niece would love it")
    say(mem, "我爸估计会不高兴", session="s2")
    assert not [n for n in stored(mem) if n.domain == "人物"]
    say(mem, "my niece loves unicorns", session="s3")
    [likes] = [n for n in stored(mem) if n.domain == "人物"]
    assert isinstance(likes.value_json, dict) and likes.value_json.get("thing") == "unicorns"


def test_no_interest_is_a_dislike_and_no_question(mem: MemoryService) -> None:
    say(mem, "老实说我对广场舞没啥兴趣")
    say(mem, "我儿子对乐高特别感兴趣", session="s2")
    mine = [n for n in stored(mem) if n.key == "dislikes"]
    assert [n.value_json for n in mine] == ["广场舞"]
    [son] = [n for n in stored(mem) if n.key == "likes"]
    assert son.value_json == {"person": "儿子", "thing": "乐高"}
    say(mem, "我今天对吃饭没啥兴趣", "你对什么感兴趣？", session="s3")
    assert len([n for n in stored(mem) if n.key in ("likes", "dislikes")]) == 2


def test_not_drinking_one_drink_is_not_teetotal(mem: MemoryService) -> None:
    say(mem, "I don't drink tea, it keeps me up")
    assert not [n for n in stored(mem) if n.key == "dietary_restriction"]
    say(mem, "I don't drink at all, never have", session="s2")
    [diet] = [n for n in stored(mem) if n.key == "dietary_restriction"]
    assert "drink" in str(diet.value_json)


def test_so_so_is_no_routine(mem: MemoryService) -> None:
    say(mem, "我室友超爱吃辣，我倒是一般")
    assert not [n for n in stored(mem) if n.key == "routine"]
    say(mem, "我一般晚上十点半睡觉", session="s2")
    [habit] = [n for n in stored(mem) if n.key == "routine"]
    assert "十点半" in habit.title


def test_a_span_from_next_week_ends_in_that_week(mem: MemoryService, clock: Clock) -> None:
    from datetime import timedelta

    from ekko_memory.service.extraction.time_expressions import find_times

    clock.advance(days=(1 - mem.now().astimezone().weekday()) % 7)  # said on a Tuesday
    say(mem, "我下周一开始请假，请到周三")
    [state] = [n for n in stored(mem) if n.key == "temporary_state"]
    [monday] = find_times("下周一", mem.now())
    assert state.expires_at is not None and monday.starts is not None
    # The Wednesday after that Monday, not the one before it.
    gap = state.expires_at.astimezone(monday.starts.tzinfo).date() - monday.starts.date()
    assert timedelta(days=2) <= gap <= timedelta(days=3), (state.expires_at, monday.starts)


def test_a_weekday_beside_a_deadline_keeps_its_own_week() -> None:
    from datetime import datetime, timedelta

    from ekko_memory.service.extraction.time_expressions import find_times

    now = datetime(2026, 3, 5, 10, 0).astimezone()  # a Thursday
    deadline, draft = find_times("下周五前交，周三先给初稿", now)
    assert draft.starts is not None and deadline.starts is not None
    assert draft.starts - now < timedelta(days=8)
    [start, end] = find_times("from next Monday to Friday", now)
    assert start.starts is not None and end.starts is not None
    assert timedelta(days=3) < end.starts - start.starts < timedelta(days=5)


def test_an_hour_said_bare_is_the_afternoons_unless_morning_is_said() -> None:
    from datetime import datetime

    from ekko_memory.service.extraction.time_expressions import find_times

    now = datetime(2026, 3, 2, 10, 0).astimezone()
    hours = {
        said: [t.starts.hour for t in find_times(said, now) if t.starts is not None]
        for said in (
            "周四三点面试",
            "interview on Thursday at 2",
            "明早六点的高铁",
            "Friday at 5 am",
        )
    }
    assert hours == {
        "周四三点面试": [15],
        "interview on Thursday at 2": [14],
        "明早六点的高铁": [6],
        "Friday at 5 am": [5],
    }


def test_the_age_of_a_friends_pet_is_nobodys_to_keep(mem: MemoryService) -> None:
    say(mem, "我同事养了条狗，五岁了，特别乖")
    assert not [n for n in stored(mem) if n.key == "age"]


def test_what_the_user_thought_would_happen_is_no_plan(mem: MemoryService) -> None:
    say(mem, "I thought I'd be in Madrid next week, but the trip fell through")
    say(mem, "我以为下周要去广州出差，结果不用去了", session="s2")
    assert not [n for n in stored(mem) if n.type == "task" or n.key == "travel_plan"]


def test_a_task_for_tonight_leaves_with_the_day(mem: MemoryService, clock: Clock) -> None:
    say(mem, "今晚得给房东打个电话")
    [task] = [n for n in stored(mem) if n.type == "task"]
    assert task.expires_at is not None and (task.expires_at - mem.now()).days < 3
    assert "房东" in later(mem, "我今晚有什么事？")
    clock.advance(days=4)
    assert "房东" not in later(mem, "我今晚有什么事？")


def test_two_pets_named_one_after_the_other(mem: MemoryService) -> None:
    say(mem, "我养了两只兔子，一只叫雪球一只叫奶糖")
    names = sorted(
        str(n.value_json.get("called"))
        for n in stored(mem)
        if n.key == "pet" and isinstance(n.value_json, dict)
    )
    assert names == ["奶糖", "雪球"]


def test_a_food_the_user_cannot_eat_is_left_out(mem: MemoryService) -> None:
    say(mem, "I can't eat shrimp, it makes me sick")
    [avoid] = [n for n in stored(mem) if n.key == "avoid_ingredient"]
    assert "shrimp" in avoid.title.casefold()
    say(mem, "can't wait to eat pizza tonight lol", session="s2")
    assert len([n for n in stored(mem) if n.key == "avoid_ingredient"]) == 1


def test_work_the_boss_sets_is_the_users_task(mem: MemoryService) -> None:
    say(mem, "my manager wants me to review the budget by next Friday")
    say(mem, "老板要我下周三前把合同改好", session="s2")
    titles = [n.title for n in stored(mem) if n.type == "task"]
    assert any("budget" in t for t in titles) and any("合同" in t for t in titles), titles
    assert not [n for n in stored(mem) if n.domain == "人物"]
    say(mem, "my doctor wants me to rest for a week", session="s3")
    assert len([n for n in stored(mem) if n.type == "task"]) == 2


def test_a_job_got_is_the_employer_unless_given_up(mem: MemoryService) -> None:
    say(mem, "I got a new job at Atlassian, starting in two weeks")
    [job] = [n for n in stored(mem) if n.key == "employer"]
    assert job.value_json == "atlassian"
    say(mem, "I got a job at Netflix once but turned it down", session="s2")
    say(mem, "I got an offer from Spotify, still thinking", session="s3")
    assert [n.value_json for n in stored(mem) if n.key == "employer"] == ["atlassian"]
