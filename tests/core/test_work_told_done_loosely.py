"""Work told done loosely: "oil change: done ✅" (the work in the sentence, not the clause),
报上了 / 办下来了 / 换好盆了 (a verb's complement before 了), "invoice is out the door", and a
thing said first as the topic (卡办下来了). Not when it is still not done or only asked."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import say, stored


def _tasks(mem: MemoryService) -> list[str]:
    return [n.title for n in stored(mem) if n.type == "task"]


@pytest.mark.parametrize(
    ("task", "done"),
    [
        ("need to get my car's oil changed before the road trip", "oil change: done ✅"),
        ("have to send the invoice to Acme by Thursday", "invoice is out the door"),
        ("这个月还要给孩子报个游泳班", "游泳班报上了"),
        ("周末要把阳台的花换盆", "花都换好盆了"),
        ("明天得去银行办张卡", "卡办下来了"),
        ("下周一之前要把车险续了", "搞定了，车险续了一年"),
    ],
)
def test_work_told_done_loosely_leaves_the_tasks(mem: MemoryService, task: str, done: str) -> None:
    say(mem, task)
    assert _tasks(mem), "the task is stored first"
    say(mem, done)
    assert _tasks(mem) == []


@pytest.mark.parametrize(
    ("task", "said"),
    [
        ("周五前要把报告交了", "报告还没交上，卡住了"),
        ("have to send the invoice to Acme by Thursday", "the invoice isn't out the door yet"),
        ("明天得去银行办张卡", "卡还没办下来"),
        ("need to pick up the kids at 4", "the kids are off to school already"),
        ("这周要把阳台的花换盆", "你觉得花换好盆了要浇多少水？"),
    ],
)
def test_work_not_done_or_only_asked_stays(mem: MemoryService, task: str, said: str) -> None:
    say(mem, task)
    before = _tasks(mem)
    assert before
    say(mem, said)
    assert _tasks(mem) == before
