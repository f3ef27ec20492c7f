"""Take-backs that keep part of what they take back: a detail of a kept statement (小区名字去掉吧
of 我住在南京江宁区翠屏小区; forget the road name, just keep the city), a detail said beside a
fact that no memory holds (光谷大道那个地址别记了 leaves 武汉), everything but what the user
names (刚才说的都不算，只记目标就好; never mind all of that, just keep the goal), and what the
user said about a thing named by another form of its word (scratch what I said about
swimming). The kept part stays, the rest goes, and nothing is written for the take-back
itself; a question with the same words, or "I keep forgetting…", changes nothing."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def keys(mem: MemoryService) -> dict[str, str]:
    return {str(n.key): f"{n.value_json} {n.title} {n.content}" for n in stored(mem)}


def test_an_estate_name_taken_back_leaves_the_city(mem: MemoryService) -> None:
    say(mem, "我住在南京江宁区翠屏小区，每天坐地铁上班", "小区名字去掉吧")
    held = keys(mem)
    assert "南京江宁区" in held["city"] and "翠屏" not in held["city"]
    assert "commute" in held  # said beside it, not taken back
    context = later(mem, "周末附近有什么好玩的")
    assert "南京" in context and "翠屏" not in context


def test_an_estate_name_taken_back_in_a_later_conversation(mem: MemoryService) -> None:
    say(mem, "记住，我住在苏州吴中区太湖花园")
    say(mem, "上次说的那个花园名字删了吧", session="s2")
    held = keys(mem)
    assert "苏州" in held["city"] and "太湖" not in held["city"]


def test_a_street_taken_back_leaves_the_city(mem: MemoryService) -> None:
    say(mem, "I live at 40 Hill Road in Sheffield.", "forget the road name, just keep the city")
    held = keys(mem)
    assert "sheffield" in held["city"].casefold() and "hill" not in held["city"].casefold()


def test_a_detail_no_memory_holds_leaves_the_fact_said_beside_it(mem: MemoryService) -> None:
    say(mem, "我人在武汉，看中的房子在光谷大道附近", "光谷大道那个地址别记了")
    held = keys(mem)
    assert "武汉" in held["city"] and "光谷" not in " ".join(held.values())


def test_a_take_back_of_the_whole_city_still_takes_it(mem: MemoryService) -> None:
    say(mem, "我住在杭州", "住的地方别记了")
    assert "city" not in keys(mem)
    say(mem, "I live in Leeds.", "forget where I live", session="s2")
    assert "city" not in keys(mem)


def test_everything_but_the_goal_taken_back_in_chinese(mem: MemoryService) -> None:
    say(mem, "我今年的目标是拿到驾照。我住在青岛，喜欢喝咖啡。", "刚才说的都不算，只记目标就好")
    assert set(keys(mem)) == {"goal"}
    assert "驾照" in keys(mem)["goal"]
    context = later(mem, "帮我排一下这个月的计划")
    assert "驾照" in context and "青岛" not in context


def test_everything_but_the_goal_taken_back_in_english(mem: MemoryService) -> None:
    say(
        mem,
        "My goal is to learn the cello this year. I live in Cardiff and I love ramen.",
        "never mind all of that, just keep the goal",
    )
    assert set(keys(mem)) == {"goal"}
    context = later(mem, "plan my week")
    assert "cello" in context and "Cardiff" not in context


def test_what_was_said_about_a_thing_named_by_another_form_of_its_word(
    mem: MemoryService,
) -> None:
    say(
        mem,
        "I swim at lunchtime every weekday and I'm saving for a trip to Peru",
        "scratch what I said about swimming, that was ages ago",
    )
    held = keys(mem)
    assert "routine" not in held and "peru" in held["goal"].casefold()


def test_a_question_about_taking_a_detail_back_changes_nothing(mem: MemoryService) -> None:
    say(mem, "我住在南京江宁区翠屏小区", "要不要把小区名字删了？")
    assert "翠屏" in keys(mem)["city"]


def test_deleting_something_of_ones_own_is_no_take_back(mem: MemoryService) -> None:
    say(mem, "我住在南京江宁区", "我把微信删了")
    assert "南京" in keys(mem)["city"]


def test_keep_forgetting_is_no_keep(mem: MemoryService) -> None:
    say(mem, "I live in Sheffield. I just keep forgetting my keys lol")
    assert "sheffield" in keys(mem)["city"].casefold()


@pytest.mark.parametrize(
    ("first", "then", "gone", "kept"),
    [
        ("我最近在吃褪黑素助眠，另外我住在厦门", "褪黑素那个你就当没听见吧", "medication", "city"),
        (
            "I take melatonin to sleep, and I live in Tampa.",
            "pretend I didn't mention the melatonin",
            "medication",
            "city",
        ),
        (
            "I'm flying to Lisbon on the 20th and my dog is called Pepper.",
            "hold off on saving the Lisbon trip, it might get cancelled",
            "travel_plan",
            "pet",
        ),
        (
            "I work at Deloitte and I have two kids.",
            "actually leave my job out of it",
            "employer",
            "family_member",
        ),
        ("我每周三晚上打羽毛球，最近在减肥", "减肥的事忽略吧", "personal_fact", "routine"),
        (
            "I'm training for a 10k, and I'm learning Korean",
            "the Korean thing was a joke, ignore it",
            "personal_fact",
            "goal",
        ),
    ],
)
def test_a_take_back_in_other_words_takes_only_what_it_names(
    mem: MemoryService, first: str, then: str, gone: str, kept: str
) -> None:
    say(mem, first)
    assert gone in keys(mem)
    say(mem, then)
    held = keys(mem)
    assert gone not in held and kept in held


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("I live in Tampa.", "my cat scratches the sofa, I just ignore it"),
        ("我住在厦门", "他骂我，我就当没听见"),
        ("我住在厦门", "我忽略了他的消息"),
    ],
)
def test_ignoring_something_in_ones_life_takes_nothing_back(
    mem: MemoryService, first: str, then: str
) -> None:
    say(mem, first, then)
    assert "city" in keys(mem)
