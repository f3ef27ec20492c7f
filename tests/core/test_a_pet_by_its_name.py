"""A pet's name said alone later ("Biscuit hates the rain" after "my dog's name is Biscuit") is
the pet, never a person called Biscuit; a person's name still points to that person."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import say, stored


@pytest.mark.parametrize(
    "later_said",
    ["wait no, Biscuit was my old dog, this one's Pepper", "Biscuit hates the rain"],
)
def test_a_pets_name_is_no_person(mem: MemoryService, later_said: str) -> None:
    say(mem, "my dog's name is Biscuit", later_said)
    people = [n for n in stored(mem) if n.domain == "人物"]
    assert not any("biscuit" in str(n.value_json).casefold() for n in people), [
        n.title for n in people
    ]


def test_a_persons_name_still_points_to_them(mem: MemoryService) -> None:
    say(mem, "my daughter Maya is 7", "Maya loves dinosaurs")
    assert any(n.key == "likes" and "dinosaurs" in str(n.value_json) for n in stored(mem)), [
        n.title for n in stored(mem)
    ]
