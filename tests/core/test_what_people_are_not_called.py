"""What someone is or has is not their name (我妈是老师 is no mother called 老师; 我老婆预产期是3月
is no wife called 预产期), and an ex's home is not the user's."""

from __future__ import annotations

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import say, stored


def _names(mem: MemoryService) -> list[str]:
    return [
        str(n.value_json.get("called") or n.value_json.get("name") or "")
        for n in stored(mem)
        if n.key == "family_member" and isinstance(n.value_json, dict)
    ]


def test_a_job_after_is_is_no_name(mem: MemoryService) -> None:
    say(mem, "我妈是老师，我爸是医生")
    say(mem, "我媳妇林晓是护士", session="s2")
    names = _names(mem)
    assert not {"老师", "医生", "护士"} & set(names), names
    assert "林晓" in names


def test_a_name_said_with_is_is_still_a_name(mem: MemoryService) -> None:
    say(mem, "我女儿是朵朵")
    assert "朵朵" in _names(mem)


def test_what_someone_has_is_no_name(mem: MemoryService) -> None:
    say(mem, "我老婆预产期是3月")
    say(mem, "我女儿名字叫小雨", session="s2")
    names = _names(mem)
    assert "预产期" not in names and "名字" not in names, names
    assert "小雨" in names


def test_an_exs_city_is_not_the_users(mem: MemoryService) -> None:
    say(mem, "My ex, Tom, lives in Leeds now")
    say(mem, "我前任现在住在成都", session="s2")
    own = [
        n
        for n in stored(mem)
        if n.key == "city" and not (isinstance(n.value_json, dict) and n.value_json.get("person"))
    ]
    assert not own, [(n.title, n.value_json) for n in own]
