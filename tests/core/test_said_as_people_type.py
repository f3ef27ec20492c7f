"""What people type in a chat: Chinese clauses parted by spaces instead of commas, a sound
before the clause (哎, 嗯), a chore that is due now (房租该交了), another thing to do added
with 另外/也得, and English work told done in the past of its own verb ("called the
plumber")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ekko_memory import MemoryService
from ekko_memory.service.extraction.statements import read_statements
from tests.core.test_statement_kinds import later, say, stored

NOW = datetime(2026, 3, 2, 10, tzinfo=UTC)


def _clauses(text: str) -> list[str]:
    return [st.text for st in read_statements(text, NOW)]


@pytest.mark.parametrize(
    ("text", "clauses"),
    [
        ("今天好累 晚上不想做饭 点外卖算了", ["今天好累", "晚上不想做饭", "点外卖算了"]),
        ("嗯 另外下个月还有个年检", ["另外下个月还有个年检"]),
        # Held together: a word that wants what follows, a day and its time or work.
        ("我叫 林晓 明天 下午去面试", ["我叫 林晓", "明天 下午去面试"]),
        ("周五前 把方案发给老板", ["周五前 把方案发给老板"]),
        # A space beside a Latin word is no comma.
        ("我在 Google 上班", ["我在 Google 上班"]),
    ],
)
def test_a_space_between_chinese_words_parts_clauses_as_a_comma(
    text: str, clauses: list[str]
) -> None:
    assert _clauses(text) == clauses


def test_a_take_back_after_a_sound_and_a_space_is_still_one(mem: MemoryService) -> None:
    """哎 那条别记了: the sound is no clause of its own that the take-back would be read in."""
    say(mem, "帮我记一下 我现在每天抽半包烟", "唉 那条别记了 说出来怪丢人的")
    assert not [n for n in stored(mem) if "烟" in n.title + n.content]


def test_spaced_chinese_states_each_clause(mem: MemoryService) -> None:
    """A message typed with spaces: the task and its deadline of one clause, not the
    sentence run together."""
    say(mem, "好 我先把预算表做了 周四前发给财务")
    [task] = [n for n in stored(mem) if n.type == "task"]
    assert "周四前发给财务" in task.title and "预算表" in task.content
    assert datetime.fromisoformat(task.value_json["due"].upper()).weekday() == 3  # a Thursday


def test_a_chore_due_now_is_a_task_and_paying_it_closes_it(mem: MemoryService) -> None:
    say(mem, "下周要去派出所换身份证，还有物业费也该交了")
    tasks = [n.value_json["task"] for n in stored(mem) if n.type == "task"]
    assert any("身份证" in t for t in tasks) and any("物业费" in t for t in tasks), tasks
    say(mem, "物业费交好了", session="s2")
    tasks = [n.value_json["task"] for n in stored(mem) if n.type == "task"]
    assert [t for t in tasks if "身份证" in t] and not [t for t in tasks if "物业费" in t]
    assert "身份证" in later(mem, "我还有什么事没办？")


@pytest.mark.parametrize("text", ["我该睡觉了", "天气也该暖和了吧", "我觉得他们早该分手了"])
def test_due_now_needs_a_thing_and_its_work(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert not [n for n in stored(mem) if n.type == "task"]


def test_another_thing_to_do_added_after_a_task_is_one_too(mem: MemoryService) -> None:
    """…，另外年检也得约一下: no date and no object word, but it adds to the task before."""
    say(mem, "这个月得把信用卡账单还了，另外年检也得约一下，车都快到期了")
    tasks = [n.value_json["task"] for n in stored(mem) if n.type == "task"]
    assert any("信用卡" in t for t in tasks) and any("年检" in t for t in tasks), tasks


def test_a_must_without_a_task_before_it_is_no_task(mem: MemoryService) -> None:
    say(mem, "最近腰疼，也得注意一下坐姿")
    assert not [n for n in stored(mem) if n.type == "task"]


def test_work_told_done_in_the_past_of_its_verb_leaves_the_tasks(mem: MemoryService) -> None:
    say(mem, "things to sort out: email the landlord about the boiler, renew the car insurance")
    say(mem, "emailed the landlord this morning, he's sending someone friday", session="s2")
    tasks = [n.value_json["task"] for n in stored(mem) if n.type == "task"]
    assert any("insurance" in t for t in tasks) and not any("landlord" in t for t in tasks), tasks
    context = later(mem, "What's still on my plate?")
    assert "insurance" in context and "landlord" not in context


@pytest.mark.parametrize(
    "report",
    [
        "my landlord emailed me back",  # someone else did it
        "I still need to email the landlord",  # still to do
        "did you email the landlord?",  # a question
        "emailed my sister about the party",  # another thing
    ],
)
def test_the_verb_alone_or_said_by_another_closes_nothing(mem: MemoryService, report: str) -> None:
    say(mem, "I need to email the landlord about the boiler this week")
    say(mem, report, session="s2")
    assert [n for n in stored(mem) if n.type == "task" and "landlord" in n.value_json["task"]]


@pytest.mark.parametrize(
    "text",
    [
        "帮我写个短篇故事：女主叫林夏，住在大连，是个对猫毛过敏的兽医",
        "给我编个睡前故事吧，主人公是只叫米粒的小仓鼠，它最怕黑",
        "write me a poem about a retired sailor who lives in Lisbon and hates the sea",
        "Can you come up with a character for my D&D game? She's a vegetarian elf from Oslo",
    ],
)
def test_what_a_requested_story_says_is_not_the_user(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert stored(mem) == []


def test_what_the_user_says_before_asking_for_a_story_stays_theirs(mem: MemoryService) -> None:
    say(mem, "我住在青岛，帮我写首小诗夸夸青岛的海")
    assert [n for n in stored(mem) if n.key == "city" and "青岛" in str(n.value_json)]


def test_a_correction_after_a_space_reads_its_clause(mem: MemoryService) -> None:
    """啊不对 他8岁了: 不对 ends its clause; the age corrected is the son's."""
    say(mem, "我儿子7岁 明年上二年级", "啊不对 他8岁了 上周刚过的生日")
    ages = [str(n.value_json) for n in stored(mem) if n.key == "age"]
    assert any("8" in a for a in ages) and not any("7" in a for a in ages), ages


def test_it_is_the_one_kind_of_pet_the_user_has(mem: MemoryService) -> None:
    say(mem, "我家猫叫年年 英短", "之前说的名字打错了 它叫念念")
    names = [n.value_json.get("called") for n in stored(mem) if n.key == "pet"]
    assert names == ["念念"], names


def test_it_without_a_pet_names_nothing(mem: MemoryService) -> None:
    say(mem, "它叫什么来着 想不起来了")
    assert not [n for n in stored(mem) if n.key == "pet"]


@pytest.mark.parametrize(
    "text",
    [
        "今天风好大啊 出门差点被吹跑",
        "最近雨下得没完没了，衣服都晾不干",
        "it's so windy today, nearly lost my hat",
    ],
)
def test_the_weather_is_no_state_of_the_user(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert stored(mem) == []


def test_a_state_beside_the_weather_stays(mem: MemoryService) -> None:
    say(mem, "今天发烧了 天又冷")
    assert [n for n in stored(mem) if n.key == "temporary_state" or n.key == "health_condition"]


def test_a_clause_set_against_the_user_is_someone_elses(mem: MemoryService) -> None:
    """…最近练琴老是磨蹭，我自己五音不全: what comes before 我自己 is of the one spoken of."""
    say(mem, "我女儿在学大提琴", "最近练琴老偷懒，我自己不懂音乐也管不了")
    assert not [n for n in stored(mem) if n.key == "temporary_state"]
    say(mem, "今天加班到十点，我自己都快撑不住了", session="s2")
    assert [n for n in stored(mem) if n.key == "temporary_state"]


def test_a_deadline_then_a_space_then_the_work(mem: MemoryService) -> None:
    say(mem, "周三前 把合同寄给法务", "I've got to renew my passport")
    tasks = [n.value_json["task"] for n in stored(mem) if n.type == "task"]
    assert any("合同" in t for t in tasks) and any("passport" in t for t in tasks), tasks
    assert not [n for n in stored(mem) if n.key == "vehicle"]
