"""Facts of the user said on the way to a question: the floor they live on and the lift, what
they studied and where, what their kitchen has, a car named inside a plan, a language said
after where they grew up, where they work "alone" in a city. Near-misses keep nothing of the
user: a meeting on the third floor, a question about an appliance, a day one cannot do."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from tests.core.test_statement_kinds import later, say, stored


def _own(mem: MemoryService) -> list[MemoryNode]:
    return [n for n in stored(mem) if n.domain != "人物"]


def _said(mem: MemoryService) -> str:
    return " ".join(f"{n.title} {n.value_json}" for n in _own(mem))


@pytest.mark.parametrize(
    ("said", "words", "question"),
    [
        ("想换个沙发，我住的是老公房九楼，没电梯，好搬吗", ["九楼", "没电梯"], "买张床要注意啥"),
        (
            "I live on the 3rd floor, no elevator, so is a piano a bad idea?",
            ["3rd floor"],
            "moving tips?",
        ),
    ],
)
def test_the_floor_and_the_lift_are_kept(
    mem: MemoryService, said: str, words: list[str], question: str
) -> None:
    say(mem, said)
    assert all(w in _said(mem) for w in words), _said(mem)
    assert words[0] in later(mem, question)


@pytest.mark.parametrize("said", ["我在四楼会议室开会", "你们公司在几楼？"])
def test_a_floor_one_is_at_is_no_home(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert "楼" not in _said(mem)


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("我硕士是在华中科技大学读的，现在做芯片验证", "华中科技大学"),
        ("我本科学的是护理，后来转去做医药销售", "护理"),
        ("I studied architecture at Cardiff, now I do UX", "architecture"),
        ("I have a degree in physics from Durham", "physics"),
    ],
)
def test_what_and_where_one_studied_is_kept(mem: MemoryService, said: str, word: str) -> None:
    say(mem, said)
    assert any(n.key == "school" and word.casefold() in str(n.value_json) for n in _own(mem)), (
        _said(mem)
    )


@pytest.mark.parametrize("said", ["本科要读几年？", "我侄子本科在南大读的"])
def test_a_degree_asked_or_someone_elses_is_not_the_users(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in _own(mem) if n.key == "school"]


@pytest.mark.parametrize(
    ("said", "words", "question"),
    [
        ("出租屋只有一口小电锅，连烤箱都没有，能做点啥", ["电锅", "烤箱"], "晚饭做什么"),
        ("all I've got is a hob, I only have a wok and a kettle", ["wok"], "dinner ideas?"),
        ("we don't have a microwave, what's the best way to reheat rice?", ["microwave"], "lunch?"),
    ],
)
def test_what_the_kitchen_has_is_kept(
    mem: MemoryService, said: str, words: list[str], question: str
) -> None:
    say(mem, said)
    assert all(w in _said(mem) for w in words), _said(mem)
    assert words[0] in later(mem, question)


@pytest.mark.parametrize(
    "said", ["要不要买个空气炸锅？", "如果只有电饭煲能做蛋糕吗", "my sister only has a microwave"]
)
def test_an_appliance_asked_supposed_or_someone_elses_is_not_the_users(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert not [n for n in _own(mem) if n.key == "personal_fact"]


def test_a_car_named_inside_a_plan_is_the_users(mem: MemoryService) -> None:
    say(mem, "need to take my old Toyota Yaris in for its MOT on Thursday")
    assert any(n.key == "vehicle" and "toyota" in str(n.value_json) for n in _own(mem))
    assert "Yaris" in later(mem, "my car's making a rattling noise, any idea?")


@pytest.mark.parametrize(
    "said",
    ["should I drive my Honda to the airport tomorrow?", "my dad will drive his Volvo up Friday"],
)
def test_a_car_in_a_question_or_someone_elses_plan_is_not_the_users(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert not [n for n in _own(mem) if n.key == "vehicle"]


def test_a_language_after_where_one_grew_up_and_one_picked_up(mem: MemoryService) -> None:
    say(
        mem,
        "I was raised in Lyon so French is my first language, and I've got some Italian from work",
    )
    langs = " ".join(str(n.value_json) for n in _own(mem) if n.key == "language")
    assert "french" in langs and "italian" in langs


def test_some_money_or_friends_are_no_language(mem: MemoryService) -> None:
    say(mem, "I've got some cash from my parents", "I have some Spanish friends")
    assert not [n for n in _own(mem) if n.key == "language"]


def test_working_alone_in_a_city_is_where_one_works(mem: MemoryService) -> None:
    say(mem, "我一个人在合肥上班，每周回一次家")
    assert "合肥" in _said(mem)


def test_a_day_one_cannot_do_is_no_dislike_and_a_sigh_leaves_the_task(
    mem: MemoryService,
) -> None:
    say(mem, "ugh I need to phone the garage to move my booking, can't do the 9th anymore")
    assert not [n for n in _own(mem) if n.key in ("dislikes", "disliked_thing")], _said(mem)
    assert any(n.key == "task_status" and "garage" in n.title for n in _own(mem))


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("我属猴，今年本命年", "属猴"),
        ("我是双鱼座的", "双鱼座"),
        ("I'm a Capricorn, apparently that explains a lot", "capricorn"),
        ("I'm left-handed so most scissors are a pain", "left-handed"),
    ],
)
def test_what_kind_of_person_one_is_is_kept(mem: MemoryService, said: str, word: str) -> None:
    say(mem, said)
    assert word in _said(mem).casefold() or word in _said(mem)


@pytest.mark.parametrize("said", ["我不是左撇子", "are you a Capricorn?", "我女儿属猴"])
def test_a_kind_denied_asked_or_someone_elses_is_not_the_users(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert not [n for n in _own(mem) if n.key == "personal_fact"]


def test_an_age_said_without_sui_is_an_age(mem: MemoryService) -> None:
    say(mem, "我今年41了，膝盖大不如前")
    assert any(n.key == "age" and "41" in str(n.value_json) for n in _own(mem))


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("作为一名药剂师，这种药能一起吃吗？", "药剂师"),
        ("as a paramedic, how do I sleep after night shifts?", "paramedic"),
    ],
)
def test_the_job_one_speaks_as_is_kept(mem: MemoryService, said: str, word: str) -> None:
    say(mem, said)
    assert any(n.key == "occupation" and word in str(n.value_json) for n in _own(mem))


@pytest.mark.parametrize("said", ["作为朋友，我该怎么劝他", "as a result, we moved the meeting"])
def test_as_a_friend_or_as_a_result_is_no_job(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in _own(mem) if n.key == "occupation"]


def test_pets_counted_at_home_without_a_verb(mem: MemoryService) -> None:
    say(mem, "我家三只兔子，过年回老家谁来喂？")
    assert any(n.key == "pet" and "兔" in str(n.value_json) for n in _own(mem))


def test_a_toddler_had_is_family(mem: MemoryService) -> None:
    say(mem, "I've got a toddler at home, any quick dinners?")
    assert any(n.key == "family_member" for n in stored(mem))


def test_someone_elses_floor_is_theirs_and_no_city(mem: MemoryService) -> None:
    say(mem, "我有个同事住七楼没电梯")
    assert not [n for n in stored(mem) if n.key == "city"]
    assert not [n for n in _own(mem) if "七楼" in _said(mem)]


@pytest.mark.parametrize(
    ("said", "key", "word"),
    [
        ("I'm trying to cut out sugar, any snack ideas?", "dietary_restriction", "sugar"),
        ("我每天吃半片优甲乐", "medication", "优甲乐"),
        ("我结婚七年了，有个儿子", "relationship_status", "结婚"),
        ("we've been in Porto about two years now", "city", "porto"),
        ("heading back home to Accra for Christmas", "travel_plan", "accra"),
    ],
)
def test_more_facts_in_ordinary_words(mem: MemoryService, said: str, key: str, word: str) -> None:
    say(mem, said)
    assert any(n.key == key and word in str(n.value_json).casefold() for n in _own(mem)), _said(mem)


def test_a_dose_is_no_medicine_and_a_daughter_had_is_the_users(mem: MemoryService) -> None:
    say(mem, "我每天吃一片优甲乐", "我结婚五年了，有个女儿")
    assert not [n for n in _own(mem) if n.key == "medication" and "一片" in str(n.value_json)]
    assert any(n.key == "family_member" and "女儿" in str(n.value_json) for n in stored(mem))


@pytest.mark.parametrize(
    "said", ["I lived in Austin for two years, back in college", "should I cut out sugar?"]
)
def test_a_past_home_or_a_question_is_no_fact(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in _own(mem) if n.key in ("city", "dietary_restriction")]


def test_zai_typed_as_zai_before_a_city_and_work_is_where_one_works(mem: MemoryService) -> None:
    say(mem, "我再苏州上班，问下周末去哪玩")
    assert "苏州" in _said(mem)


@pytest.mark.parametrize("said", ["我再想想上班的事", "我在想想工作的事"])
def test_thinking_over_work_is_no_workplace(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in _own(mem) if n.key == "employer"]


@pytest.mark.parametrize(
    ("said", "key", "word"),
    [
        ("my hometown is Tromsø, way up north", "hometown", "troms"),
        ("my flat's in Stockbridge, top floor", "city", "stockbridge"),
        ("I grew up in Galway but live in Limerick now", "city", "limerick"),
        ("I'm an air traffic controller, shifts are brutal", "occupation", "controller"),
    ],
)
def test_home_and_job_said_as_people_say_them(
    mem: MemoryService, said: str, key: str, word: str
) -> None:
    say(mem, said)
    assert any(n.key == key and word in str(n.value_json).casefold() for n in _own(mem)), _said(mem)


def test_a_mum_of_three_has_children_and_a_new_dad_no_job(mem: MemoryService) -> None:
    say(mem, "I'm a mum of three, so evenings are chaos", "I'm a new dad, send help")
    assert any(n.key == "family_member" and "three" in str(n.value_json) for n in stored(mem))
    assert not [n for n in _own(mem) if n.key == "occupation"]


def test_years_lived_in_a_city_make_it_home(mem: MemoryService) -> None:
    say(mem, "我是西北人，在厦门待了八年了")
    assert any(n.key == "city" and "厦门" in str(n.value_json) for n in _own(mem))


def test_hours_in_a_room_are_no_home(mem: MemoryService) -> None:
    say(mem, "我在会议室待了三个小时")
    assert not [n for n in _own(mem) if n.key == "city"]
