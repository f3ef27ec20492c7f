"""What the user is working towards, said with its horizon or as a goal (想两年内攒够学费,
今年的小目标是跑个半马, my goal is to…, I'm saving up for…): kept in their words, several at
once; a supposition or a question about one is none."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _goals(mem: MemoryService) -> list[str]:
    return [str(n.value_json) for n in stored(mem) if n.key == "goal"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("我打算两年内把房贷还清", "房贷还清"),
        ("今年的小目标是跑个半马", "半马"),
        ("my big goal this year is to get my driving licence", "driving licence"),
        ("we're saving up for a trip to Japan", "Japan"),
        ("I hope to be fluent in German by the end of next year", "German"),
    ],
)
def test_a_goal_is_kept_in_the_users_words(mem: MemoryService, text: str, words: str) -> None:
    say(mem, text)
    assert any(words.casefold() in g.casefold() for g in _goals(mem)), _goals(mem)


def test_goals_stand_together_and_come_back(mem: MemoryService) -> None:
    say(mem, "想三年内攒够首付", "另外我打算明年考个CPA")
    assert len(_goals(mem)) == 2
    assert "首付" in later(mem, "帮我规划一下明年的开销")


@pytest.mark.parametrize(
    "text", ["如果我想三年内攒够首付，每个月要存多少？", "我想今年考过N2吗", "我弟打算明年考研"]
)
def test_a_supposed_asked_or_someone_elses_goal_is_not_the_users(
    mem: MemoryService, text: str
) -> None:
    say(mem, text)
    assert _goals(mem) == []


def test_a_goal_said_first_and_buying_a_car_is_no_car(mem: MemoryService) -> None:
    say(mem, "攒钱买房是我这辈子最大的心愿")
    assert any("攒钱买房" in g for g in _goals(mem))
    say(mem, "攒钱换车是我今年的目标", session="s2")
    assert not [n for n in stored(mem) if n.key == "vehicle"]
