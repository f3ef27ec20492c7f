"""Work said loosely: a must made urgent by what runs out (驾照快到期了得去换证), a list
opened by "backlog:" or "这周三件事：", a remark after a list item that is no item (公司报销的),
a sound before the task (ugh, I need to…), and work told done with 过了 (押金转过了) or
of a thing named only before the task (护照快过期了，得赶紧去续 … 护照续过了)."""

from __future__ import annotations

from datetime import datetime

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _tasks(mem: MemoryService) -> list[str]:
    return [n.title for n in stored(mem) if n.type == "task"]


def test_a_must_made_urgent_by_an_expiry_is_a_task(mem: MemoryService) -> None:
    say(mem, "我驾照快到期了得去换证，还有居住证也要续，不知道先弄哪个")
    tasks = _tasks(mem)
    assert any("换证" in t for t in tasks), tasks
    assert any("居住证" in t for t in tasks), tasks
    assert "居住证" in later(mem, "这个月还有什么证件要办的吗？")


@pytest.mark.parametrize(
    "text", ["信用卡快到期了", "会员快到期了要不要续啊？", "我去过那家店了", "套餐快用完了"]
)
def test_an_expiry_alone_or_asked_is_no_task(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert _tasks(mem) == []


def test_a_list_counted_in_the_lead_is_no_weekday(mem: MemoryService) -> None:
    say(mem, "这周三件事：交房租、取快递、给猫打疫苗")
    tasks = [n for n in stored(mem) if n.type == "task"]
    assert len(tasks) == 3
    # 这周 (the week), not 周三 (Wednesday): each is due at the week's end, a Sunday.
    dues = {datetime.fromisoformat(str(n.value_json["due"])).weekday() for n in tasks}
    assert dues == {6}, dues


def test_a_remark_after_an_item_is_no_item(mem: MemoryService) -> None:
    say(mem, "这周两件事：周三前给房东转押金，还有周五前约个体检，公司报销的")
    tasks = _tasks(mem)
    assert len(tasks) == 2, tasks
    assert not any("报销" in t for t in tasks), tasks


def test_done_with_guo_le_closes_the_task(mem: MemoryService) -> None:
    say(mem, "这周两件事：周三前给房东转押金，还有周五前约个体检")
    say(mem, "押金转过了，房东也确认了")
    tasks = _tasks(mem)
    assert not any("押金" in t for t in tasks), tasks
    assert any("体检" in t for t in tasks), tasks


def test_a_backlog_lead_opens_a_list_of_tasks(mem: MemoryService) -> None:
    say(
        mem,
        "side project backlog: migrate my blog to Hugo before end of month, "
        "and write a proper README for my CLI tool",
    )
    assert len(_tasks(mem)) == 2, _tasks(mem)
    say(mem, "blog migration is done, the Hugo site is live")
    tasks = _tasks(mem)
    assert len(tasks) == 1 and "README" in tasks[0], tasks


def test_a_sound_before_the_task_is_no_part_of_it(mem: MemoryService) -> None:
    say(mem, "ugh I need to call the dentist to reschedule my cleaning, what do I even say lol")
    [task] = _tasks(mem)
    assert task.startswith("I need to call the dentist"), task


@pytest.mark.parametrize(
    ("first", "done"),
    [
        ("护照下个月快过期了，得赶紧去续", "护照续过了"),
        ("my passport expires soon so I need to renew it", "renewed the passport yesterday"),
    ],
)
def test_work_on_a_thing_named_before_the_task_is_closed_by_it(
    mem: MemoryService, first: str, done: str
) -> None:
    say(mem, first)
    assert _tasks(mem)
    say(mem, done)
    assert not any("续" in t or "renew" in t for t in _tasks(mem)), _tasks(mem)


@pytest.mark.parametrize(
    ("text", "question", "detail"),
    [
        (
            "I'm in charge of Mia's 30th, need to book a venue by end of month, about 25 people.",
            "what should I prioritize this week?",
            "Mia",
        ),
        (
            "planning to repaint the kids' bedroom this weekend, going with a light green.",
            "what do I need from the hardware store?",
            "green",
        ),
        ("周五前要把季度报告交了，老板盯得紧", "这周要忙啥", "老板盯得紧"),
    ],
)
def test_a_task_keeps_the_details_said_around_it(
    mem: MemoryService, text: str, question: str, detail: str
) -> None:
    say(mem, text)
    assert detail in later(mem, question)


@pytest.mark.parametrize(
    ("text", "not_in_task"),
    [
        ("导师让我周三前把论文初稿发他，另外下周五组会轮到我汇报", "初稿"),  # another thing
        ("下周三，哦不对，周四上午要去医院复查", "周三"),  # a time taken back
        ("我们组的老张下个月退休，大家要凑份子给他办个欢送会", "退休"),  # someone else's
        ("周五前交报告，你觉得用什么模板好？", "模板"),  # a question
    ],
)
def test_what_is_no_detail_of_the_task_stays_out(
    mem: MemoryService, text: str, not_in_task: str
) -> None:
    say(mem, text)
    tasks = [n for n in stored(mem) if n.type == "task" and "初稿" not in (n.title or "")]
    assert tasks
    for node in tasks:
        assert not_in_task not in (node.content or ""), node.content


def test_someone_of_our_group_is_someone_else(mem: MemoryService) -> None:
    say(mem, "我们组的老张下个月退休，大家要凑份子给他办个欢送会")
    [retiring] = [n for n in stored(mem) if "退休" in (n.title or "")]
    assert retiring.value_json["person"] == "老张"
    assert any(n.type == "task" and "欢送会" in n.title for n in stored(mem))


def test_a_detail_after_other_work_done_is_no_detail_of_the_task(mem: MemoryService) -> None:
    say(mem, "周六我爸生日，得买个礼物，还要订个蛋糕")
    say(mem, "礼物买了，一个颈椎按摩仪，蛋糕还没订")
    [task] = [n for n in stored(mem) if n.type == "task"]
    assert "蛋糕" in task.title
    assert "按摩仪" not in (task.content or "")


@pytest.mark.parametrize(
    "text", ["每次回家都得飞五个多小时，好累", "I have to take my meds every morning"]
)
def test_a_must_said_of_every_time_is_no_task(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert _tasks(mem) == []
