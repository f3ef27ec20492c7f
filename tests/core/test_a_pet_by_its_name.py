"""A pet's name said alone later (团子对鸡肉过敏 after 我家猫叫团子, "Mochi is allergic to
chicken" after "my cat's name is Mochi") speaks of the pet: kept as the pet's, never as the
user's allergy nor as a person's; a person's name still points to that person."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import say, stored


@pytest.mark.parametrize(
    ("named", "later_said", "pet", "food"),
    [
        ("我家猫叫团子", "团子对鸡肉过敏", "团子", "鸡肉"),
        ("my cat's name is Mochi", "Mochi is allergic to chicken", "mochi", "chicken"),
    ],
)
def test_what_is_said_of_a_pet_by_name_is_the_pets(
    mem: MemoryService, named: str, later_said: str, pet: str, food: str
) -> None:
    say(mem, named, later_said)
    nodes = stored(mem)
    # Never the user's own allergy or food rule.
    assert not any(n.key == "avoid_ingredient" for n in nodes), [n.title for n in nodes]
    theirs = [n for n in nodes if isinstance(n.value_json, dict) and n.value_json.get("person")]
    assert any(
        pet in str(n.value_json["person"]).casefold() and food in str(n.value_json) for n in theirs
    ), [n.value_json for n in theirs]


def test_a_pets_name_said_alone_is_no_human(mem: MemoryService) -> None:
    say(mem, "my dog's name is Biscuit", "Biscuit hates the rain")
    people = [n.value_json for n in stored(mem) if isinstance(n.value_json, dict)]
    said_of = [str(v["person"]) for v in people if "person" in v]
    # Kept as the dog's, and as nobody else's.
    assert said_of and all(p.startswith("dog") for p in said_of), people
    assert any("rain" in str(v) for v in people if "person" in v), people


def test_a_persons_name_still_points_to_them(mem: MemoryService) -> None:
    say(mem, "my daughter Maya is 7", "Maya loves dinosaurs")
    assert any(n.key == "likes" and "dinosaurs" in str(n.value_json) for n in stored(mem)), [
        n.title for n in stored(mem)
    ]
