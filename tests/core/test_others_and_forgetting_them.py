"""People said without "my" (有两个同事不吃牛肉, 麻烦的是小李芒果过敏) are not the user, and
asking to forget all about someone (关于他的都删了吧, forget about him) removes what was said of
them — even with a turn about something else in between — and keeps the rest."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _users_own_food(mem: MemoryService) -> list[str]:
    return [
        str(n.value_json)
        for n in stored(mem)
        if n.key in ("avoid_ingredient", "allergy", "dietary_restriction")
    ]


@pytest.mark.parametrize(
    ("text", "food"),
    [
        ("周末聚餐我来订位 有两个同事不吃羊肉", "羊肉"),
        ("头疼的是小李芒果过敏 得避开", "芒果"),
        ("老周花生过敏挺严重的", "花生"),
        ("我们组有几个朋友不吃辣", "辣"),
    ],
)
def test_people_said_without_my_are_not_the_user(mem: MemoryService, text: str, food: str) -> None:
    say(mem, text)
    assert not [v for v in _users_own_food(mem) if food in v]


def test_all_about_him_is_forgotten_with_a_turn_between(mem: MemoryService) -> None:
    say(
        mem,
        "我前夫叫陈涛，现在在厦门开餐馆",
        "对了我下周要去南京培训",
        "关于他的都删了吧 不想再看到",
    )
    said = " ".join(n.title + n.content for n in stored(mem))
    assert "陈涛" not in said and "厦门" not in said
    assert "南京" in said
    assert "陈涛" not in later(mem, "周末去哪玩")


def test_forget_about_her_names_the_person_spoken_of(mem: MemoryService) -> None:
    say(
        mem,
        "my ex-wife Laura lives in Bristol now and teaches piano",
        "I'm off to Glasgow for a conference on Thursday",
        "actually forget about her, all of it",
    )
    said = " ".join(n.title + n.content for n in stored(mem))
    assert "Laura" not in said and "Bristol" not in said
    assert "Glasgow" in said


def test_forget_all_about_a_relation_named_in_the_take_back(mem: MemoryService) -> None:
    say(mem, "我表哥在成都做律师，我自己在重庆上班")
    say(mem, "关于我表哥的事都别记了", session="s2")
    said = " ".join(n.title + n.content for n in stored(mem))
    assert "表哥" not in said and "律师" not in said
    assert "重庆" in said


def test_people_counted_after_we_are_not_the_user_nor_what_is_left_out_for_them(
    mem: MemoryService,
) -> None:
    """我俩同事对芒果过敏，订水果捞别放芒果: two colleagues, not "the two of us"; leaving the
    mango out is for them."""
    say(mem, "我俩同事对榴莲过敏，订果切别放榴莲")
    assert not [v for v in _users_own_food(mem) if "榴莲" in v]
    say(mem, "我们俩都不吃辣", session="s2")
    assert [n for n in stored(mem) if n.key == "flavor_profile"]
