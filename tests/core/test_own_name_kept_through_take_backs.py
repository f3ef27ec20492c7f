"""The name the user goes by (我叫王小雨; my name's Priya; call me Jo) is kept as
`preferred_name`; a take-back of another thing said with it (电话号码就不用存了) leaves it, and a new
name said as the right one replaces the old. A question, a negation or a supposition with the
same words stores no name, nor does "call me later" or 我叫外卖了."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def names(mem: MemoryService) -> list[str]:
    return [str(n.value_json) for n in stored(mem) if n.key == "preferred_name"]


def test_a_name_said_with_a_number_taken_back_stays(mem: MemoryService) -> None:
    say(mem, "我叫王小雨，电话是13900001111，想请你帮忙改改简历", "电话号码就不用存了")
    assert names(mem) == ["王小雨"]
    assert not any("13900001111" in f"{n.title} {n.content}" for n in stored(mem))
    assert "王小雨" in later(mem, "帮我写封求职信的开头")


def test_an_english_name_and_its_correction(mem: MemoryService) -> None:
    say(mem, "my name is Priya")
    say(mem, "my name's Maya actually, Priya was a typo", session="s2")
    assert names(mem) == ["maya"]


@pytest.mark.parametrize(
    "said", ["我叫什么名字？", "我不叫小雨", "如果我叫王小雨呢", "call me later", "我叫外卖了"]
)
def test_no_name_from_a_question_a_negation_or_other_calls(mem: MemoryService, said: str) -> None:
    say(mem, said)
    assert names(mem) == []
