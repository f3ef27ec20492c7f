"""A new employer said plainly in a later conversation, with the change of jobs around it
(switched jobs, I'm at Stripe now; left Shopify in March, now I'm at Stripe; 上个月跳槽去了字节;
我从腾讯离职了，现在在美团): it replaces the old employer. Being somewhere without a change of
jobs ("I'm at Home now", "left the office early") is no employer."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def employers(mem: MemoryService) -> list[str]:
    return [str(n.value_json) for n in stored(mem) if n.key == "employer"]


@pytest.mark.parametrize(
    ("first", "then", "new", "old"),
    [
        ("I work at Wayfair.", "I switched jobs, I'm at Etsy now", "etsy", "Wayfair"),
        ("I work at Wayfair.", "Left Wayfair in June, now I'm at Etsy.", "etsy", "Wayfair"),
        ("我在网易做测试", "上个月跳槽去了小红书", "小红书", "网易"),
        ("我在网易做测试", "我从网易离职了，现在在小红书", "小红书", "网易"),
    ],
)
def test_a_new_employer_in_a_later_conversation_replaces_the_old(
    mem: MemoryService, first: str, then: str, new: str, old: str
) -> None:
    say(mem, first)
    say(mem, then, session="s2")
    assert employers(mem) == [new]
    context = later(mem, "help me write a short bio" if first.isascii() else "帮我写个自我介绍")
    assert new.casefold() in context.casefold() and old not in context


@pytest.mark.parametrize(
    "said",
    [
        "I'm at Stripe now, left the office early though",
        "I left the party early, now I'm at Home",
        "did you leave Shopify? are you at Stripe now?",
    ],
)
def test_being_somewhere_without_a_change_of_jobs_is_no_employer(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert employers(mem) == []
