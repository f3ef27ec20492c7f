"""A clause read with the words around it: being somewhere to work is no home (在上海工作
is not 住在上海), and "how often" alone (一周三次) is kept with what it is of, or not at all."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


@pytest.mark.parametrize("said", ["我在上海工作。", "我在上海读书。"])
def test_being_somewhere_to_do_something_is_not_living_there(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in stored(mem) if n.key == "city"], [n.title for n in stored(mem)]
    assert not [n for n in stored(mem) if "住在" in n.title + n.content]


def test_a_place_said_alone_is_still_where_one_is(mem: MemoryService) -> None:
    say(mem, "我人在上海。")
    assert [n for n in stored(mem) if n.key == "city" and "上海" in str(n.value_json)]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("主要练力量，一周三次。", "主要练力量，一周三次"),
        ("I mostly lift, three times a week.", "I mostly lift, three times a week"),
    ],
)
def test_how_often_is_kept_with_what_it_is_of(mem: MemoryService, said: str, kept: str) -> None:
    say(mem, said)
    routines = [n.title for n in stored(mem) if n.key == "routine"]
    assert routines == [kept], [n.title for n in stored(mem)]


def test_how_often_alone_is_not_a_memory(mem: MemoryService) -> None:
    say(mem, "一周三次吧。")
    assert not [n for n in stored(mem) if n.key == "routine"], [n.title for n in stored(mem)]


@pytest.mark.parametrize(
    "said", ["早啊 今天天儿真好", "是啊 今天天真好，春天终于来了", "最近这天忽冷忽热的，烦死了"]
)
def test_a_greeting_about_the_weather_is_not_a_state_of_the_user(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert not stored(mem), [n.title for n in stored(mem)]


def test_an_answer_about_the_users_cat_is_the_cats(mem: MemoryService) -> None:
    """它几岁、叫什么名字？ → 叫煤球，三岁了，英短蓝猫: the cat is three and called 煤球; the
    user is not three, and 英短蓝猫 is a breed, not a cat called 蓝猫."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "我家猫最近掉毛掉得厉害，沙发上全是毛，咋整啊")
    s.append_message(
        "assistant", "换毛期掉毛多是正常的。方便说下它几岁、是长毛还是短毛，叫什么名字吗？"
    )
    s.after_reply()
    s.append_message("user", "叫煤球，三岁了，英短蓝猫，平时挺懒的就知道睡")
    s.append_message("assistant", "英短掉毛确实比较明显，每天梳五分钟就行。")
    s.after_reply()
    pets = [n.value_json for n in stored(mem) if n.key == "pet"]
    assert pets == [{"species": "猫", "called": "煤球"}], pets
    assert not [n for n in stored(mem) if n.title.startswith("我三岁")]


def test_a_breed_before_its_kind_is_no_subject(mem: MemoryService) -> None:
    say(mem, "柯基犬很可爱")
    assert not stored(mem), [n.title for n in stored(mem)]


@pytest.mark.parametrize(
    ("said", "key", "title"),
    [
        ("写代码我习惯用 vim，IDE 太重了", "likes", "写代码我习惯用 vim"),
        ("I'm more of a tea person honestly, coffee makes me jittery", "likes", "Likes tea"),
        ("Anything but horror please, I can't do jump scares.", "dislikes", "Dislikes horror"),
        ("俺不爱坐飞机，起飞降落耳朵疼得受不了，能坐高铁就坐高铁", "likes", "能坐高铁就坐高铁"),
    ],
)
def test_preferences_said_the_way_people_say_them(
    mem: MemoryService, said: str, key: str, title: str
) -> None:
    say(mem, said)
    assert title in [n.title for n in stored(mem) if n.key == key], [n.title for n in stored(mem)]
    # 疼得受不了 is pain, not a dislike of 起飞降落耳朵.
    assert not [n for n in stored(mem) if "耳朵" in n.title]


def test_someones_words_about_the_user_are_not_the_users_topic(mem: MemoryService) -> None:
    say(mem, "他说我很胖")
    assert not stored(mem), [n.title for n in stored(mem)]


@pytest.mark.parametrize(
    "said",
    ["数据库最后选了 PostgreSQL，MongoDB 那套方案被否了", "We went with Postgres for the database"],
)
def test_a_choice_made_is_a_decision(mem: MemoryService, said: str) -> None:
    say(mem, said)
    [decision] = [n for n in stored(mem) if n.type == "decision"]
    assert "postgres" in str(decision.value_json).casefold()


@pytest.mark.parametrize(
    "said", ["今天跟房东聊了下，他说不涨租，我这个月底前得去把房租合同续签了", "周五前得把猫粮买了"]
)
def test_a_deadline_with_a_must_is_a_task_whatever_the_work(mem: MemoryService, said: str) -> None:
    say(mem, said)
    tasks = [n for n in stored(mem) if n.type == "task"]
    assert len(tasks) == 1 and tasks[0].value_json["due"], [n.title for n in stored(mem)]


@pytest.mark.parametrize("said", ["我跑得很快", "嗓子哑得说不出话"])
def test_de_after_a_verb_is_no_must(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in stored(mem) if n.type == "task"]


def test_a_state_beside_a_plan_is_kept_too(mem: MemoryService) -> None:
    """这周在成都出差，周六才回北京: where the user is this week, and when they go back."""
    say(mem, "这周在成都出差，周六才回北京")
    titles = [n.title for n in stored(mem)]
    assert "这周在成都出差" in titles and any(t.endswith("回北京") for t in titles), titles
    assert "成都" in later(mem, "晚上附近有啥好吃的推荐")


def test_a_liking_that_names_nothing_is_not_kept(mem: MemoryService) -> None:
    """我闺女不吃胡萝卜，我倒是挺爱吃: the daughter's dislike; "爱吃" alone names no food."""
    say(mem, "我闺女不吃胡萝卜，我倒是挺爱吃")
    assert not [n for n in stored(mem) if n.key == "likes" and n.title in ("喜欢吃", "吃")]
