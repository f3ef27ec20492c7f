"""Tastes said sideways: only ever reading or watching one kind of thing (我基本只看科幻, I
only watch documentaries), not being a kind of person ("not a morning person"), being a
wimp with something, and a wish about replies asked as a question (回答能不能短一点)."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _titles(mem: MemoryService, key: str) -> list[str]:
    return [n.title for n in stored(mem) if n.key == key]


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("我基本只看悬疑", "悬疑"),
        ("我平时只听播客", "播客"),
        ("I only watch documentaries", "documentaries"),
    ],
)
def test_only_one_kind_of_thing_is_a_liking(mem: MemoryService, text: str, thing: str) -> None:
    say(mem, text)
    assert any(thing in t for t in _titles(mem, "likes")), _titles(mem, "likes")


def test_not_a_kind_of_person_is_kept_as_said(mem: MemoryService) -> None:
    say(mem, "honestly I'm not a night person, I'm useless after 9pm")
    assert "Not a night person" in _titles(mem, "dislikes")
    assert "night person" in later(mem, "Help me plan a study schedule")


def test_a_wimp_with_something_dislikes_it(mem: MemoryService) -> None:
    say(mem, "I'm such a wimp when it comes to horror films")
    assert any("horror films" in t for t in _titles(mem, "dislikes"))


def test_a_wish_about_replies_asked_as_a_question(mem: MemoryService) -> None:
    say(mem, "你回复能不能简洁一点 我看着累")
    assert _titles(mem, "reply_style")
    say(mem, "could you keep your answers shorter?", session="s2")
    assert any("shorter" in t for t in _titles(mem, "reply_style")), _titles(mem, "reply_style")


@pytest.mark.parametrize(
    "text",
    ["能不能详细说说量子计算？", "你能告诉我怎么煮溏心蛋吗", "can you explain how taxes work?"],
)
def test_a_question_about_something_else_is_no_reply_style(mem: MemoryService, text: str) -> None:
    say(mem, text)
    assert _titles(mem, "reply_style") == []
