"""A budget said for what one is buying or planning (买电脑预算八千左右, budget is $1500) is
kept as said, one at a time: a new budget replaces the old; someone else's is theirs."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _budgets(mem: MemoryService) -> list[str]:
    return [str(n.value_json) for n in stored(mem) if n.key == "budget"]


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("换手机 预算三千左右", "三千左右"),
        ("婚礼预算控制在15万以内", "15万以内"),
        ("Looking at e-bikes, budget is $1200", "$1200"),
        ("my budget for the move is about 3k", "3k"),
    ],
)
def test_a_budget_is_kept_as_said(mem: MemoryService, text: str, amount: str) -> None:
    say(mem, text)
    assert any(amount.casefold() in b.casefold() for b in _budgets(mem)), _budgets(mem)


def test_a_new_budget_replaces_the_old(mem: MemoryService) -> None:
    say(mem, "想买个投影仪 预算四千")
    say(mem, "预算降到三千了 最近手头紧", session="s2")
    assert _budgets(mem) == ["三千"]
    assert "三千" in later(mem, "推荐个投影仪") and "四千" not in later(mem, "推荐个投影仪")


def test_someone_elses_budget_is_not_the_users(mem: MemoryService) -> None:
    say(mem, "我表弟买车预算十万")
    assert _budgets(mem) == []


def test_a_budget_for_one_evening_passes_with_it(mem: MemoryService) -> None:
    say(mem, "今晚请客户吃饭，六个人，预算一千五")
    say(mem, "dinner with the in-laws tonight, budget is $200", session="s2")
    assert _budgets(mem) == []
