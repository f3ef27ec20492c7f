"""How the user wants their code and texts written (以后注释用英文, always write commit
messages in English): a standing wish kept in their words and given with every context, not
a one-off request for this answer nor a question."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _conventions(mem: MemoryService) -> list[str]:
    return [n.title for n in stored(mem) if n.key == "writing_convention"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("以后写代码的时候注释用英文，解释用中文哈，我们组代码要开源的", "注释用英文"),
        ("跟我说话用中文就行，但代码里的注释请写英文，我看着习惯", "注释请写英文"),
        (
            "from now on write code comments in English, I share my code with friends abroad",
            "code comments in English",
        ),
    ],
)
def test_a_standing_wish_about_writing_is_kept(mem: MemoryService, text: str, said: str) -> None:
    say(mem, text)
    assert any(said in t for t in _conventions(mem)), _conventions(mem)


def test_it_reaches_a_coding_request_in_other_words(mem: MemoryService) -> None:
    say(mem, "以后写代码的时候注释用英文，解释用中文哈")
    assert "注释用英文" in later(mem, "写个 Python 函数，给列表去重")


@pytest.mark.parametrize(
    "text",
    ["帮我写个快排，注释用英文", "注释用中文还是英文好？", "如果注释都用英文会不会更好"],
)
def test_a_one_off_request_or_a_question_is_no_convention(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert _conventions(mem) == []


def test_how_a_thing_is_said_with_yao_de_is_no_task(mem: MemoryService) -> None:
    say(mem, "以后写代码的时候注释用英文，我们组代码要开源的")
    assert [n.title for n in stored(mem) if n.type == "task"] == []


def test_a_bare_always_after_a_liking_adds_no_routine(mem: MemoryService) -> None:
    say(mem, "I like docstrings in English, always")
    assert [n.title for n in stored(mem) if n.key == "routine"] == []
