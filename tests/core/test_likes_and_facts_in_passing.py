"""Likes, dislikes and personal facts said in passing: a dislike said as what one cannot take
(一点辣都吃不了, I can't stand…), a liking said indirectly (comfort food, a tea person, can't
code without…), a fact given inside another topic or a question (刚搬过来, my flat in…, a
birthday said as what kind of person one is, a pet's breed said of all its kind). And what
must store nothing: a question, a supposition, small talk about the sky."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _said(mem: MemoryService) -> str:
    return " | ".join(f"{n.key}:{n.title}:{n.value_json}" for n in stored(mem))


# (what the user says, a key stored, a word its value or title holds, a later question,
# a word the later context holds)
LIKINGS: list[tuple[str, str, str, str, str]] = [
    (
        "周末跟朋友去吃川菜，我是真的一点麻都吃不了，从小就这样",
        "flavor_profile",
        "spicy",
        "推荐个晚饭菜谱",
        "辣",
    ),
    ("羊肉我是真吃不了，一股膻味", "avoid_ingredient", "羊肉", "周末做什么菜好", "羊肉"),
    ("重金属我是真听不来，太吵了", "dislikes", "重金属", "推荐点歌", "重金属"),
    ("说起来我最怕排长队了，宁可换一家吃", "dislikes", "排长队", "周末去哪家店吃饭", "排长队"),
    ("爵士真的太适合看书了", "likes", "爵士", "给我推荐个歌单", "爵士"),
    ("我离不开咖啡，早上不喝就没精神", "likes", "咖啡", "早上有什么提神的", "咖啡"),
    ("每天一杯美式，不过要换椰奶，奶油就别加了", "likes", "椰奶", "帮我点杯咖啡", "椰奶"),
    (
        "I can't stand country music, it all sounds the same to me",
        "dislikes",
        "country music",
        "Make me a road trip playlist",
        "country",
    ),
    ("olives are a hard no from me", "dislikes", "olives", "What pizza should I order?", "olives"),
    (
        "Korean food is my comfort food honestly",
        "likes",
        "Korean food",
        "Where should we eat tonight?",
        "Korean",
    ),
    (
        "I'm pretty much a rooibos person these days",
        "likes",
        "rooibos",
        "What should I drink this afternoon?",
        "rooibos",
    ),
    (
        "I can't write code in any editor without emacs keybindings",
        "likes",
        "emacs keybindings",
        "Set up my new editor",
        "emacs",
    ),
    (
        "bright screens literally hurt my eyes",
        "dislikes",
        "bright screens",
        "Pick a theme for my terminal",
        "bright screens",
    ),
]


@pytest.mark.parametrize(("said", "key", "word", "question", "seen"), LIKINGS)
def test_a_liking_said_indirectly_is_kept(
    mem: MemoryService, said: str, key: str, word: str, question: str, seen: str
) -> None:
    say(mem, said)
    found = [
        n for n in stored(mem) if n.key == key and word.casefold() in str(n.value_json).casefold()
    ]
    assert found, _said(mem)
    assert all(n.expires_at is None for n in found)
    assert seen.casefold() in later(mem, question).casefold()


def test_two_likings_in_one_message_are_both_kept(mem: MemoryService) -> None:
    say(mem, "最近循环坂本龙一，氛围音乐真的太适合写代码了。说唱我是真听不来，太吵")
    said = _said(mem)
    assert "likes:" in said and "氛围音乐" in said, said
    assert "dislikes:" in said and "说唱" in said, said


def test_a_thing_named_before_the_user_is_the_thing_liked(mem: MemoryService) -> None:
    # Read alone, 倒是挺喜欢的 made 倒是 the thing liked.
    say(mem, "游泳我倒是挺喜欢的")
    say(mem, "广场舞我是真不喜欢", session="s2")
    values = {n.key: n.value_json for n in stored(mem)}
    assert values.get("likes") == "游泳", _said(mem)
    assert values.get("dislikes") == "广场舞", _said(mem)


@pytest.mark.parametrize(
    "said",
    [
        "我怕来不及了，先走了",
        "我一个人吃不了那么多",
        "我真受不了他了",
        "Do you like jazz?",
        "你喜欢爵士吗？",
        "如果我一点辣都吃不了怎么办",
        "what if I couldn't stand the heat there?",
        "下雨天最适合睡觉了",
        "这件衣服太适合你了",
        "Python最适合新手了",
        "微信就别加了",
        "the coffee here makes me jittery",
        "Friday is a no for me, I have class",
        "I can't start the car without a jump",
        "这部电影我看不下去",
        "我受不了这种天气",
    ],
)
def test_near_misses_store_no_liking(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in stored(mem) if n.key in ("likes", "dislikes")], _said(mem)


FACTS: list[tuple[str, str, str, str, str]] = [
    (
        "这两天厦门又开始回南天了，前年刚搬过来的时候完全受不了。有啥防潮的办法？",
        "city",
        "厦门",
        "周末附近去哪玩？",
        "厦门",
    ),
    (
        "it's been pouring in Glasgow all week, I only moved here in March",
        "city",
        "Glasgow",
        "Any day trips for Saturday?",
        "Glasgow",
    ),
    (
        "any tips for keeping my flat in Bristol warm this winter?",
        "city",
        "Bristol",
        "Day out ideas?",
        "Bristol",
    ),
    (
        "我同学说我这种11月3号生日的人都很固执，你信吗哈哈",
        "birthday",
        "11月3",
        "我生日那天是星期几",
        "11月3",
    ),
    (
        "So I've got a 2012 Mazda CX-5 with like 120k miles, is it worth fixing the brakes?",
        "vehicle",
        "Mazda",
        "My car is making a noise",
        "Mazda",
    ),
    ("I drive a Tesla Model Y", "vehicle", "Model Y", "Where can I charge my car?", "Model Y"),
    (
        "Been type 2 diabetic since I was 40, does this watch track glucose?",
        "health_condition",
        "diabetic",
        "Suggest a quick breakfast",
        "diabetic",
    ),
    (
        "being a paramedic on permanent nights is brutal, I sleep from 10am to 5pm",
        "occupation",
        "paramedic",
        "Rewrite my bio",
        "paramedic",
    ),
    ("我家年糕最近老是拆家，柴犬是不是都这样啊？", "pet", "柴犬", "帮我挑个狗玩具", "年糕"),
    (
        "my Pepper keeps shedding everywhere, do all huskies do this?",
        "pet",
        "husky",
        "Which vacuum should I buy?",
        "Pepper",
    ),
]


@pytest.mark.parametrize(("said", "key", "word", "question", "seen"), FACTS)
def test_a_fact_said_in_passing_is_kept(
    mem: MemoryService, said: str, key: str, word: str, question: str, seen: str
) -> None:
    say(mem, said)
    found = [
        n
        for n in stored(mem)
        if n.key == key and word.casefold() in (n.title + str(n.value_json)).casefold()
    ]
    assert found, _said(mem)
    assert all(n.domain == "个人" for n in found)
    assert seen.casefold() in later(mem, question).casefold()


def test_languages_and_nationality_in_one_sentence(mem: MemoryService) -> None:
    say(
        mem,
        "I'm Mexican so Spanish is my first language, English is fine, but I've been learning Korean for two years",
    )
    languages = {str(n.value_json).casefold() for n in stored(mem) if n.key == "language"}
    assert {v.rstrip(")") for v in languages} == {
        "spanish (native",
        "english (fine",
        "korean (learning",
    }, _said(mem)
    assert any(str(n.value_json).casefold() == "mexican" for n in stored(mem)), _said(mem)
    # "English is fine" names a language, never a person called English.
    assert not [n for n in stored(mem) if n.domain == "人物"], _said(mem)


def test_children_named_with_their_ages_are_each_their_own(mem: MemoryService) -> None:
    say(
        mem,
        "Quick q — my son Leo (9) keeps arguing with his little sister Ava (she's 5) over the TV. Any tips?",
    )
    people = [n for n in stored(mem) if n.domain == "人物"]
    leo = [n for n in people if "leo" in str(n.value_json).casefold()]
    ava = [n for n in people if "ava" in str(n.value_json).casefold()]
    assert any(n.key == "age" and "9" in str(n.value_json) for n in leo), _said(mem)
    assert any(n.key == "age" and "5" in str(n.value_json) for n in ava), _said(mem)
    assert not any(n.key == "age" and "5" in str(n.value_json) for n in leo), _said(mem)
    # Nobody's age or name becomes the user's own.
    assert not [n for n in stored(mem) if n.domain == "个人" and n.key in ("age", "family_member")]


@pytest.mark.parametrize(
    "said",
    [
        "the sky tonight is unreal, the whole thing is orange",
        "上海和苏州都挺好，刚搬过来的时候不习惯",
        "what if my flat in Bristol floods?",
        "如果我这种11月3号生日的人……",
        "我家小区最近在修路，柯基是不是都这样",
        "my Civic keeps stalling, do all corgis do this?",
        "my old flat in London was tiny",
        "being a mom is hard",
    ],
)
def test_near_misses_store_no_fact(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert not [n for n in stored(mem) if n.key in ("city", "birthday", "pet")], _said(mem)


@pytest.mark.parametrize(
    ("said", "level"),
    [("我不喜欢吃辣", "none"), ("其实我不太爱吃辣", "low"), ("我是真的特别爱吃辣", "high")],
)
def test_a_negated_liking_of_a_flavor_is_never_flipped(
    mem: MemoryService, said: str, level: str
) -> None:
    say(mem, said)
    [flavor] = [n for n in stored(mem) if n.key == "flavor_profile"]
    assert flavor.value_json == {"spicy": level}, _said(mem)


def test_a_negation_after_the_thing_liked_keeps_the_liking(mem: MemoryService) -> None:
    say(mem, "what about caffeine? I'm a tea person, not coffee, mostly oolong")
    say(mem, "游泳我不是很喜欢", session="s2")
    likes = [n.value_json for n in stored(mem) if n.key == "likes"]
    assert likes == ["tea"], _said(mem)
