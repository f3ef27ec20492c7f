"""A workplace said by what it is, after the town (在杭州一家做跨境电商的公司上班, 在上海一家外企
做财务): the town where the user works and the workplace as said — never "杭州一家"."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


@pytest.mark.parametrize(
    ("text", "town", "workplace"),
    [
        ("我在杭州一家做跨境电商的公司上班，做运营", "杭州", "一家做跨境电商的公司"),
        ("我在上海一家外企做财务", "上海", "一家外企"),
        ("我现在在深圳一家小公司上班", "深圳", "一家小公司"),
    ],
)
def test_the_town_and_the_workplace_apart(
    mem: MemoryService, text: str, town: str, workplace: str
) -> None:
    say(mem, text)
    employers = [str(n.value_json) for n in stored(mem) if n.key == "employer"]
    assert employers == [f'"{workplace}"'] or workplace in " ".join(employers), employers
    assert not any(town in e for e in employers), employers
    assert town in later(mem, "周末附近有什么好玩的")
