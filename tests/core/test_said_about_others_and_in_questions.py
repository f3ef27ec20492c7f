"""What is not the user's lasting state, task or routine, and what a question gives away:
a thing done once tonight; someone else's plan or routine (他们, the neighbours' dog); a
pet of the user's inside a question (the question itself is not kept); rest ordered for a
span (a state until it ends, never a task); languages with their level; a pet's weight;
the taste of a meal said only where eating is spoken of."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ekko_memory import MemoryService
from tests.core.conftest import Clock
from tests.core.test_statement_kinds import later, say, stored


def keys(mem: MemoryService) -> list[str | None]:
    return [n.key for n in stored(mem)]


@pytest.mark.parametrize(
    "said",
    [
        "今晚点了外卖",
        "今天去了趟超市，买了一堆零食",
        "I ordered a pizza tonight.",
        "This morning I went for a run.",
    ],
)
def test_a_thing_done_once_today_is_no_state(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert "temporary_state" not in keys(mem), [(n.key, n.title) for n in stored(mem)]


@pytest.mark.parametrize("said", ["今天累了一天，脑子都木了", "I'm exhausted today."])
def test_how_the_user_is_today_is_still_a_state(mem: MemoryService, said: str) -> None:
    say(mem, said)
    [state] = [n for n in stored(mem) if n.key == "temporary_state"]
    assert state.expires_at is not None and state.expires_at - mem.now() < timedelta(days=1)


@pytest.mark.parametrize(
    "said",
    [
        "他们最后定了，下周搬家",
        "They finally decided: they're moving next week.",
        "她下周三出差",
        "他们不吃辣",
    ],
)
def test_someone_unnamed_is_not_the_user(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert stored(mem) == [], [(n.key, n.title) for n in stored(mem)]
    assert "搬家" not in later(mem, "下周有什么安排？")


@pytest.mark.parametrize(
    "said",
    ["他们让我周五前交报告", "他们说我下周要出差", "They want me to send the report by Friday."],
)
def test_what_someone_unnamed_has_the_user_do_is_the_users(mem: MemoryService, said: str) -> None:
    say(mem, said)
    [task] = [n for n in stored(mem) if n.key == "task_status"]
    assert task.expires_at is not None


def test_a_pronoun_of_someone_named_before_stays_theirs(mem: MemoryService) -> None:
    say(mem, "我老公最近很忙，他下周出差")
    assert all(n.key != "task_status" for n in stored(mem))
    assert any(n.key == "person_fact" and "老公" in str(n.value_json) for n in stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "邻居家的狗天天叫",
        "隔壁的小孩每天都哭",
        "同事的孩子每周六学钢琴",
        "The neighbours' dog barks every night.",
    ],
)
def test_someone_elses_routine_is_not_the_users(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert "routine" not in keys(mem)
    assert all(n.key != "pet" for n in stored(mem))


@pytest.mark.parametrize("said", ["我每天早上遛狗", "Every morning I walk the dog."])
def test_the_users_own_routine_is_kept(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert "routine" in keys(mem)


@pytest.mark.parametrize(
    ("said", "species"),
    [
        ("我家柯基掉毛正常吗？", "柯基"),
        ("我家柯基掉毛很厉害，正常吗？", "柯基"),
        ("My corgi sheds a lot, is that normal?", "corgi"),
        ("Can my cat eat tuna?", "cat"),
    ],
)
def test_a_pet_named_in_a_question_is_the_users_and_nothing_more(
    mem: MemoryService, said: str, species: str
) -> None:
    say(mem, said)
    [pet] = stored(mem)
    assert pet.key == "pet" and pet.value_json == {"species": species}


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("I'm vegetarian, is that ok?", "dietary_restriction"),
        ("我吃素，这样正常吗？", "dietary_restriction"),
    ],
)
def test_what_the_user_says_of_themselves_before_asking_stays(
    mem: MemoryService, said: str, key: str
) -> None:
    say(mem, said)
    assert key in keys(mem)


@pytest.mark.parametrize(
    "said",
    ["你觉得我该养猫吗？", "我家要不要养只猫？", "Should I get a dog?", "我家狗走丢了怎么办？"],
)
def test_a_question_about_a_pet_to_come_or_gone_states_none(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert stored(mem) == [], [(n.key, n.title) for n in stored(mem)]


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("医生让我得休息三天", 3),
        ("医生叫我在家休息一周", 7),
        ("The doctor told me to rest for three days.", 3),
        ("My doctor said I need to rest for a week.", 7),
    ],
)
def test_rest_for_a_span_is_a_state_until_it_ends_not_a_task(
    mem: MemoryService, clock: Clock, said: str, days: int
) -> None:
    say(mem, said)
    assert "task_status" not in keys(mem)
    [state] = [n for n in stored(mem) if n.key == "temporary_state"]
    assert state.expires_at is not None
    assert timedelta(days=days - 1) < state.expires_at - mem.now() <= timedelta(days=days + 1)
    word = "休息" if "休息" in said else "rest"
    assert word in later(mem, "周末安排点什么？" if word == "休息" else "Plan my weekend")
    clock.advance(days=days + 2)
    assert word not in later(mem, "周末安排点什么？" if word == "休息" else "Plan my weekend")


def test_rest_someone_else_must_take_is_not_the_users(mem: MemoryService) -> None:
    say(mem, "我老婆得休息三天")
    assert all(n.key not in ("temporary_state", "task_status") for n in stored(mem))


@pytest.mark.parametrize(
    ("said", "values"),
    [
        ("Mandarin (native), English (fluent)", {"mandarin (native)", "english (fluent)"}),
        ("I speak Spanish (native), French (basic).", {"spanish (native)", "french (basic)"}),
        ("我母语是中文，英语一般", {"中文(母语)", "英语(一般)"}),
        ("普通话（母语），英语（流利）", {"普通话(母语)", "英语(流利)"}),
        ("我英语很一般", {"英语(一般)"}),
    ],
)
def test_languages_keep_their_level(mem: MemoryService, said: str, values: set[str]) -> None:
    say(mem, said)
    assert {n.value_json for n in stored(mem) if n.key == "language"} == values
    assert "routine" not in keys(mem)  # 一般 of "so-so" is no "usually"


def test_usually_is_still_a_routine(mem: MemoryService) -> None:
    say(mem, "我一般七点起床")
    assert "routine" in keys(mem)


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("我家兔子6斤", {"species": "兔子", "weight": "6斤"}),
        ("我养的兔子6斤", {"species": "兔子", "weight": "6斤"}),
        ("My rabbit weighs 3 kg.", {"species": "rabbit", "weight": "3 kg"}),
        ("我家狗一个月吃5斤狗粮", {"species": "狗"}),
        ("My dog eats 2 kg of food a week.", {"species": "dog"}),
    ],
)
def test_a_pets_weight_is_kept_with_it(
    mem: MemoryService, said: str, value: dict[str, str]
) -> None:
    say(mem, said)
    [pet] = [n for n in stored(mem) if n.key == "pet"]
    assert pet.value_json == value


def test_a_weight_said_later_goes_to_the_pet_known_by_name(mem: MemoryService) -> None:
    say(mem, "我家有只兔子，叫团子")
    say(mem, "我家兔子6斤了")
    [pet] = [n for n in stored(mem) if n.key == "pet"]
    assert pet.value_json == {"species": "兔子", "called": "团子", "weight": "6斤"}
    assert "6斤" in pet.title and "团子" in pet.title


@pytest.mark.parametrize("said", ["Hoping for a mild winter this year.", "明天的航班很早"])
def test_no_taste_where_eating_is_not_spoken_of(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert "flavor_profile" not in keys(mem)


@pytest.mark.parametrize("said", ["我是无辣不欢的人", "我吃饭无辣不欢"])
def test_no_meal_without_spice_is_a_love_of_spice(mem: MemoryService, said: str) -> None:
    say(mem, said)
    [taste] = [n for n in stored(mem) if n.key == "flavor_profile"]
    assert taste.value_json == {"spicy": "high"}
