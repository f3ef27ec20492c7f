"""What the user only passes on, doubts, imagines or says in irony is not remembered as
theirs: hearsay (听说…, 网上说…, I heard that…, studies show…); a claim closed by asking if it
is true (…，真的假的 / …, is that true?); another life (下辈子…, in my next life…); 老 before
a verb ("always": 我哥老说我…), which names nobody; a self-crowning exclamation beside a
mishap (我真是个天才，又把…); 把 before 车 (又把伞落在车里了), which names no car."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from tests.core.test_statement_kinds import say, stored


def held_as_own(mem: MemoryService) -> list[MemoryNode]:
    """The memories about the user themself (not ones kept as another person's)."""
    return [
        n
        for n in stored(mem)
        if not (isinstance(n.value_json, dict) and n.value_json.get("person"))
        and (n.category_path or [""])[0] not in ("人物", "People")
    ]


def shown(nodes: list[MemoryNode]) -> list[tuple[str | None, str | None]]:
    return [(n.key, n.title) for n in nodes]


@pytest.mark.parametrize(
    "said",
    [
        "听人说每周吃两次深海鱼能护心",
        "刷到一个帖子说每天冷水洗脸能紧致皮肤",
        "书上说每晚十点前睡最养肝，而且能长寿",
        "I heard that people who swim every week live longer",
        "Apparently you should stretch every morning.",
        "Studies show people who cycle every day are happier.",
    ],
)
def test_hearsay_is_no_habit_of_the_user(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("据说散步能降血糖，我每天晚饭后都走半小时", "走半小时"),
        ("Apparently walking helps digestion, and I walk every evening after dinner.", "walk"),
    ],
)
def test_the_users_own_habit_beside_hearsay_stays(mem: MemoryService, said: str, word: str) -> None:
    say(mem, said)
    assert any(word in f"{n.title} {n.value_json}" for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "每天喝点醋能软化血管，真的假的",
        "每晚泡脚能治失眠，是真的吗？",
        "People who nap every afternoon live longer, is that true?",
        "Drinking celery juice every morning cures acne, is it true?",
    ],
)
def test_a_claim_asked_about_is_not_kept(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


def test_the_same_habit_said_plainly_is_kept(mem: MemoryService) -> None:
    say(mem, "我每天睡前都泡脚")
    assert any("泡脚" in (n.title or "") for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "下辈子想做只海豚，天天在海里玩",
        "上辈子我大概是条狗，每天都想出门",
        "In my next life I'll be a sloth, napping every afternoon.",
        "In another life I was a baker, up at four every day.",
    ],
)
def test_another_life_is_not_the_users(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


@pytest.mark.parametrize("said", ["我哥老说我乱花钱", "我媳妇老嫌我做饭太咸", "我爸老催我早点结婚"])
def test_always_before_a_verb_names_nobody(mem: MemoryService, said: str) -> None:
    say(mem, said)
    called = [n.value_json for n in stored(mem) if isinstance(n.value_json, dict)]
    named = [v for v in called if str(v.get("called", "")).startswith("老")]
    assert named == [], shown(stored(mem))


def test_a_nickname_after_a_relation_is_still_a_name(mem: MemoryService) -> None:
    say(mem, "我同事老刘不吃香菜")
    assert any(
        isinstance(n.value_json, dict) and n.value_json.get("called") == "老刘" for n in stored(mem)
    ), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "我真是个天才，又把雨伞落在出租车上了",
        "我可真是个大厨，今天把锅烧糊了",
        "I'm such a brilliant cook, set off the smoke alarm twice today.",
        "Yeah I'm totally a genius, missed my stop again this morning.",
    ],
)
def test_a_self_crowning_exclamation_is_no_state(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


def test_a_label_with_its_own_time_is_still_a_state(mem: MemoryService) -> None:
    say(mem, "I'm such a wreck this week, down with a fever.")
    assert any(n.key == "temporary_state" for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize("said", ["我又把伞落在车里了", "我老是把钥匙忘在车上"])
def test_ba_before_the_car_names_no_car(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert all(n.key != "vehicle" for n in stored(mem)), shown(stored(mem))


def test_a_car_said_plainly_is_kept(mem: MemoryService) -> None:
    say(mem, "我开一辆比亚迪")
    assert any(n.key == "vehicle" for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "我以前每周打三次篮球，后来膝盖伤了就不打了",
        "上大学的时候每天晚上都去图书馆",
        "I used to swim every Saturday morning.",
        "When I was a student I cycled to campus every day.",
    ],
)
def test_a_habit_of_a_time_gone_by_is_no_routine(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert all(n.key != "routine" for n in stored(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "你刚才说每周要练三次力量，我先试试",
        "你之前建议每天早上吃个鸡蛋",
        "You said I should stretch every evening, right?",
        "You mentioned walking every day helps, good to know.",
    ],
)
def test_the_assistants_words_handed_back_are_not_the_users(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert all(n.key != "routine" for n in stored(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said", ["好嘞，我记下了", "嗯嗯我都记住了，谢谢", "Got it, I'll remember that."]
)
def test_the_user_noting_something_themself_asks_nothing(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


def test_a_request_to_remember_still_counts(mem: MemoryService) -> None:
    say(mem, "帮我记住，我的工位在三楼靠窗")
    assert any("三楼" in f"{n.title} {n.content}" for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "等我搬到郊区以后，每周末都去徒步",
        "等到孩子上了小学，我每天送完就去健身房",
        "Once I retire I'll play golf every Tuesday.",
        "When we move out of the city we'll hike every weekend.",
    ],
)
def test_a_habit_waiting_for_a_day_to_come_is_no_routine(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert all(n.key != "routine" for n in stored(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "真希望我每天都能早点下班",
        "但愿每周都能有一天不用开会",
        "I wish I could meditate every morning.",
        "If only I got to sleep in every Sunday.",
    ],
)
def test_a_wish_is_no_routine(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


@pytest.mark.parametrize(
    ("said", "word"),
    [
        ("I wish I could join, but I teach every Saturday.", "teach"),
        ("我每天饭后散步半小时", "散步"),
    ],
)
def test_the_users_routine_after_a_wish_stays(mem: MemoryService, said: str, word: str) -> None:
    say(mem, said)
    assert any(word in (n.title or "") for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "假装你是我室友，我们住在厦门，每天一起做早饭",
        "你演一个面试官，我演一个刚毕业的会计",
        "编一段对话：一个在青岛开民宿的老板，每天早上去赶海",
        "Pretend I'm a dentist from Cork who cycles every morning.",
        "Let's role-play: you're my landlord and I live in a flat in Leeds.",
        "Act as my coach; I'm a 50-year-old plumber training for a triathlon.",
    ],
)
def test_a_play_set_up_is_not_the_users_life(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


@pytest.mark.parametrize(
    ("said", "word"),
    [("I act as the team lead on weekends.", "team lead"), ("我住在厦门，帮我写一段对话", "厦门")],
)
def test_the_users_own_words_beside_a_play_stay(mem: MemoryService, said: str, word: str) -> None:
    say(mem, said)
    assert any(word in f"{n.title} {n.content}" for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "很多人每周吃三次火锅吧",
        "亲戚们都觉得我应该每个月回一趟老家",
        "Most people stretch every morning, I think.",
        "Do most people floss every night",
        "Is cycling 20 km every day too much",
    ],
)
def test_people_at_large_and_their_view_of_the_user_are_no_routine(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert all(n.key != "routine" for n in stored(mem)), shown(stored(mem))


def test_the_user_dropping_the_subject_after_a_time_is_still_the_user(
    mem: MemoryService,
) -> None:
    say(mem, "我每天六点起床，朋友们都觉得我疯了")
    assert any("六点起床" in (n.title or "") for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "哈哈，我每天都盼着你讲笑话",
        "我每晚都在想你上次说的那句话",
        "Yeah right, like I'd ever jog every morning.",
        "I would cook every night if I had a bigger kitchen.",
    ],
)
def test_a_routine_of_the_chat_or_of_a_would_is_none(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert all(n.key != "routine" for n in stored(mem)), shown(stored(mem))


def test_you_know_in_passing_leaves_the_routine(mem: MemoryService) -> None:
    say(mem, "I swim every Thursday, you know, at the public pool.")
    assert any("swim" in (n.title or "") for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    ["剧里那个女主每天凌晨四点起床练琴", "对面那位阿姨天天跳广场舞", "这几个实习生每周五都请假"],
)
def test_someone_pointed_at_is_not_the_user(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert all(n.key != "routine" for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    ("said", "word"), [("这个月每天都加班", "加班"), ("这款软件每天都用", "软件")]
)
def test_a_time_or_a_thing_pointed_at_leaves_the_user(
    mem: MemoryService, said: str, word: str
) -> None:
    say(mem, said)
    assert any(word in (n.title or "") for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "帮我表哥写个自我介绍：我在成都做设计，养了一只布偶猫",
        "替我室友写段话：我下个月搬去苏州，每天通勤两小时",
        "Write a short bio for my cousin: I'm a pharmacist in Leeds and I swim every Sunday.",
        "Could you draft a note for my roommate: I'm allergic to walnuts.",
    ],
)
def test_words_drafted_for_someone_else_are_not_the_users(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


def test_the_users_own_fact_before_a_draft_for_someone_stays(mem: MemoryService) -> None:
    say(mem, "我住在成都。帮我表哥写个自我介绍：他做设计")
    assert any("成都" in f"{n.title} {n.value_json}" for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "恨不得在床上躺一个月",
        "巴不得天天都是周末",
        "I could nap for a whole month.",
        "I'd hibernate till spring.",
    ],
)
def test_a_figure_of_speech_is_no_state_nor_liking(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


def test_a_plain_dislike_is_still_kept(mem: MemoryService) -> None:
    say(mem, "我恨榴莲")
    assert any("榴莲" in str(n.value_json) for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    ["仓鼠每天要喂几次", "一周吃几顿鱼比较好", "养布偶好还是英短好", "租房划算还是买房划算"],
)
def test_a_question_with_no_mark_keeps_nothing(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


def test_still_doing_it_is_no_choice_asked(mem: MemoryService) -> None:
    say(mem, "我还是每天游泳")
    assert any("游泳" in (n.title or "") for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "Sure, because I absolutely love commuting two hours every day.",
        "Oh joy, I just adore ironing shirts every Sunday.",
        "Yeah right, I'm totally loving this heatwave.",
    ],
)
def test_a_liking_blown_up_after_mock_agreement_is_irony(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


@pytest.mark.parametrize(
    ("said", "word"),
    [("Oh yeah, I love dumplings.", "dumplings"), ("I totally love rock climbing.", "climbing")],
)
def test_a_plain_liking_stays(mem: MemoryService, said: str, word: str) -> None:
    say(mem, said)
    assert any(word in str(n.value_json) for n in held_as_own(mem)), shown(stored(mem))


@pytest.mark.parametrize(
    "said",
    [
        "昨晚梦到我住在海岛上，每天潜水",
        "我在游戏里是个铁匠，每天打铁",
        "I dreamt I lived in Oslo and skied every morning.",
        "In the game I'm a pilot who flies every night.",
    ],
)
def test_a_dream_or_a_game_is_not_the_users_life(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert held_as_own(mem) == [], shown(held_as_own(mem))


@pytest.mark.parametrize(
    ("said", "word"),
    [("我每天在游戏里花一小时", "游戏"), ("I play chess online every night.", "chess")],
)
def test_playing_games_is_still_a_routine(mem: MemoryService, said: str, word: str) -> None:
    say(mem, said)
    assert any(word in (n.title or "") for n in held_as_own(mem)), shown(stored(mem))
