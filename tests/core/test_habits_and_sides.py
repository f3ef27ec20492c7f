"""Habits said as what one does not (or seldom) do (我不太喝咖啡, I rarely watch TV), the
side one is on (我是猫派, 甜食控), likes and dislikes said without a verb ("big fan of",
"not a fan of"), and a bare "keep that in mind" that has no content of its own."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _titles(mem: MemoryService, key: str) -> list[str]:
    return [n.title for n in stored(mem) if n.key == key]


def _all_titles(mem: MemoryService) -> list[str]:
    return [n.title for n in stored(mem)]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("我不太喝咖啡，喝了晚上睡不着", "不太喝咖啡"),
        ("我从来不抽烟", "从来不抽烟"),
        ("平时基本不看直播", "不看直播"),
        ("我不怎么玩手游，费时间", "不怎么玩手游"),
        ("I don't really drink alcohol", "drink alcohol"),
        ("Honestly I never listen to podcasts", "never listen to podcasts"),
        ("I rarely watch TV these days", "rarely watch TV"),
    ],
)
def test_what_one_seldom_does_is_kept_as_said(mem: MemoryService, text: str, said: str) -> None:
    say(mem, text)
    assert any(said in t for t in _titles(mem, "dislikes")), _all_titles(mem)


def test_a_habit_is_recalled_for_a_question_in_other_words(mem: MemoryService) -> None:
    say(mem, "我不太喝咖啡，喝了晚上睡不着")
    assert "咖啡" in later(mem, "下午犯困喝点什么提神好")


def test_not_doing_it_is_no_liking_read_into_it(mem: MemoryService) -> None:
    say(mem, "Honestly I don't really eat breakfast")
    assert _titles(mem, "dislikes") == ["I don't really eat breakfast"]
    assert _titles(mem, "likes") == []


@pytest.mark.parametrize(
    "text",
    [
        "我今天不喝咖啡了",  # today only
        "我不太看得懂英文",  # an ability, no habit
        "你不喝酒吗？",  # a question
        "你从来不看新闻吗",
        "我不看这个",  # this one thing
        "I don't eat much at night",  # an amount
        "I don't watch it anymore",  # a thing said elsewhere
        "If I didn't drink coffee I'd be a mess",  # a hypothetical
    ],
)
def test_near_misses_keep_no_habit(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert _titles(mem, "dislikes") == [], _all_titles(mem)
    assert _titles(mem, "likes") == [], _all_titles(mem)


def test_someone_elses_habit_is_theirs(mem: MemoryService) -> None:
    say(mem, "我老公很少看电视")
    [node] = [n for n in stored(mem) if n.key == "dislikes"]
    assert node.value_json == {"person": "老公", "thing": "电视"}
    assert node.title == "我老公很少看电视"


def test_bu_zenme_is_no_question(mem: MemoryService) -> None:
    """不怎么 (not much) is no 怎么 (how): the clause is a statement."""
    say(mem, "我不怎么吃零食")
    assert any("零食" in t for t in _titles(mem, "dislikes")), _all_titles(mem)


@pytest.mark.parametrize(
    ("text", "said"),
    [("我是猫派，狗太闹了", "猫派"), ("我是个甜食控", "甜食控")],
)
def test_the_side_one_is_on(mem: MemoryService, text: str, said: str) -> None:
    say(mem, text)
    assert any(said in t for t in _titles(mem, "likes")), _all_titles(mem)


def test_a_side_that_is_no_taste_stores_nothing(mem: MemoryService) -> None:
    say(mem, "我是保守派")
    assert _titles(mem, "likes") == []


@pytest.mark.parametrize(
    ("text", "key", "thing"),
    [
        ("Big fan of Studio Ghibli films", "likes", "Studio Ghibli films"),
        ("Not a fan of horror movies at all", "dislikes", "horror movies"),
        ("说实话我挺讨厌开会的", "dislikes", "开会"),
        ("我一向不爱凑热闹", "dislikes", "凑热闹"),
        ("对了，我这人特别怕冷", "dislikes", "冷"),
    ],
)
def test_likes_said_without_the_usual_verb(
    mem: MemoryService, text: str, key: str, thing: str
) -> None:
    say(mem, text)
    values = [str(n.value_json) for n in stored(mem) if n.key == key]
    assert any(thing.casefold() == v.strip('"').casefold() for v in values), values


def test_fewer_emojis_is_a_reply_style(mem: MemoryService) -> None:
    say(mem, "回复的时候别用那么多emoji")
    assert _titles(mem, "reply_style")


def test_keep_that_in_mind_adds_no_note_of_its_own(mem: MemoryService) -> None:
    say(mem, "I've been vegan for about two years now, so keep that in mind for recipes")
    titles = _all_titles(mem)
    assert not any("keep that in mind" in t for t in titles), titles
    assert any("vegan" in t.casefold() for t in titles), titles


def test_keep_that_in_mind_alone_keeps_the_statement_before(mem: MemoryService) -> None:
    say(mem, "我的储物柜密码是左三右七", "记住这个")
    assert "我的储物柜密码是左三右七" in _all_titles(mem)
    assert "记住这个" not in " ".join(_all_titles(mem))


def test_keep_that_in_mind_after_a_question_keeps_nothing(mem: MemoryService) -> None:
    say(mem, "北京到上海的高铁要多久？", "remember that")
    say(mem, "so keep that in mind for recipes", session="s2")
    assert _all_titles(mem) == []


@pytest.mark.parametrize(
    ("text", "key", "said"),
    [
        ("I'm not really a coffee drinker, tea all the way", "dislikes", "Not a coffee drinker"),
        ("I'm not really a coffee drinker, tea all the way", "likes", "tea"),
        ("I'm not much of a reader", "dislikes", "Not a reader"),
        ("can't do mornings, I'm useless before 10", "dislikes", "mornings"),
        (
            "I'd rather take the train than fly, flying stresses me out",
            "likes",
            "Rather take the train than fly",
        ),
        ("Honestly I'm a sucker for anything with truffle", "likes", "truffle"),
        ("I'm a huge Arsenal fan, been supporting them since I was a kid", "likes", "Arsenal fan"),
        ("我喝奶茶只要三分糖", "likes", "三分糖"),
        ("我看书喜欢看实体书，kindle看着眼睛累", "likes", "实体书"),
        ("旅游我更喜欢自由行", "likes", "自由行"),
    ],
)
def test_tastes_said_in_other_shapes(mem: MemoryService, text: str, key: str, said: str) -> None:
    say(mem, text)
    assert any(said in t for t in _titles(mem, key)), _all_titles(mem)


@pytest.mark.parametrize(
    "text",
    [
        "Friday is a no for me",  # one day, no taste
        "I'd rather not talk about it",
        "which would you rather, tea or coffee?",
        "I walked all the way home",
        "他看书喜欢看漫画",  # someone unnamed
        "奶茶要三分糖吗？",
    ],
)
def test_near_misses_of_those_shapes_keep_no_taste(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert _titles(mem, "likes") == [] and _titles(mem, "dislikes") == [], _all_titles(mem)


def test_de_hua_after_a_topic_is_no_supposition(mem: MemoryService) -> None:
    """吃饭的话我比较随便 is "as for eating"; 有空的话我就去 is a supposition."""
    say(mem, "吃饭的话我比较随便，就是别太油")
    assert any(n.key == "flavor_profile" for n in stored(mem)), _all_titles(mem)
    say(mem, "有空的话我就去健身房办张卡", session="s2")
    assert not any("健身" in t for t in _all_titles(mem))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("我不喜欢别人叫我全名，叫我小李就行", "小李"),
        ("以后叫我阿杰吧", "阿杰"),
        ("just call me Liz, nobody calls me Elizabeth", "Liz"),
    ],
)
def test_the_name_the_user_wants_to_be_called(mem: MemoryService, text: str, name: str) -> None:
    say(mem, text)
    [title] = _titles(mem, "preferred_name")
    assert name in title
    assert name in later(
        mem, "帮我写封邮件的落款" if "\u4e00" <= text[0] <= "\u9fff" else "sign this email for me"
    )


@pytest.mark.parametrize(
    "text", ["明早七点叫我起床", "call me tomorrow if you can", "你叫我什么？", "他们都叫我小胖"]
)
def test_no_name_to_be_called_by(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert _titles(mem, "preferred_name") == []


@pytest.mark.parametrize(
    ("text", "key", "said"),
    [
        ("I'm big on hiking", "likes", "hiking"),
        ("my go-to is oat milk", "likes", "oat milk"),
        ("I lean towards minimalist design", "likes", "minimalist design"),
        ("I'd pick Android over iPhone any day", "likes", "Android over iPhone"),
        ("我最近迷上了露营", "likes", "露营"),
        ("音乐的话我主要听民谣", "likes", "民谣"),
        ("推荐餐厅的话，我偏爱日料", "preferred_cuisine", "日料"),
    ],
)
def test_more_shapes_of_a_liking(mem: MemoryService, text: str, key: str, said: str) -> None:
    say(mem, text)
    assert any(said in t for t in _titles(mem, key)), _all_titles(mem)


def test_a_light_palate_is_a_flavor(mem: MemoryService) -> None:
    say(mem, "我口味偏淡")
    [node] = [n for n in stored(mem) if n.key == "flavor_profile"]
    assert node.value_json == {"oil": "low", "salt": "low"}


def test_a_supposition_with_de_hua_still_keeps_nothing(mem: MemoryService) -> None:
    say(mem, "下雨的话，就不去爬山了")
    assert _all_titles(mem) == []
