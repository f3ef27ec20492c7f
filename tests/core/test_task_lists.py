"""Several things to do in one breath: each its own task with the time they share, things
not done yet as tasks, and one of them finished later leaving the others."""

from __future__ import annotations

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from tests.core.test_statement_kinds import later, say, stored


def tasks(mem: MemoryService) -> list[MemoryNode]:
    return [n for n in stored(mem) if n.type == "task" and n.status == "active"]


def test_a_list_of_errands_is_one_task_each_with_the_shared_day(mem: MemoryService) -> None:
    say(mem, "errands for saturday: pick up the dry cleaning and return the drill to Sam")
    found = sorted(str(n.value_json["task"]) for n in tasks(mem))  # type: ignore[index]
    assert found == ["pick up the dry cleaning", "return the drill to sam"]
    dues = {n.value_json["due"] for n in tasks(mem)}  # type: ignore[index]
    assert len(dues) == 1  # the Saturday they share
    assert not [n for n in stored(mem) if n.key == "temporary_state"]  # the lead is no state
    say(mem, "returned the drill to Sam this morning", session="s2")
    left = [str(n.value_json["task"]) for n in tasks(mem)]  # type: ignore[index]
    assert left == ["pick up the dry cleaning"]
    context = later(mem, "What's still on my list?")
    assert "dry cleaning" in context and "drill" not in context


def test_things_not_done_yet_are_tasks_and_a_late_parcel_is_not(mem: MemoryService) -> None:
    say(mem, "新家还有两件事：冰箱还没买，网也还没装")
    say(mem, "快递还没到，急死了", session="s2")
    found = sorted(str(n.value_json["task"]) for n in tasks(mem))  # type: ignore[index]
    assert found == ["冰箱还没买", "网也还没装"]
    say(mem, "冰箱今天买好了，双开门的", session="s3")
    left = [str(n.value_json["task"]) for n in tasks(mem)]  # type: ignore[index]
    assert left == ["网也还没装"]


def test_two_tasks_joined_by_and_also_are_two(mem: MemoryService) -> None:
    say(mem, "I need to email the landlord about the leak and also book a plumber")
    found = sorted(str(n.value_json["task"]) for n in tasks(mem))  # type: ignore[index]
    assert len(found) == 2 and any("plumber" in t for t in found)
    assert any("landlord" in t for t in found)
