"""Listing memories in any column's order: keyset pages over both stores that add up to
every matching memory in one order (ties by id), the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, get_args

import pytest

from ekko_memory import BrowseFilter, BrowseSort, InvalidInput, MemoryService
from tests.core.conftest import Clock

TITLES = ["apple", "Apple pie", "Banana", "éclair", "Éclair", "香菜", "做饭", "Zebra", "apple"]
VALUES: list[Any] = ["香菜", 10, 9.5, {"b": 1, "a": "x"}, ["x", "y"], None, "Zed", True, "a"]


def _fill(mem: MemoryService, clock: Clock) -> list[str]:
    ids = []
    for i, title in enumerate(TITLES):
        draft: dict[str, Any] = {
            "title": title,
            "domain": "杂项",
            "categoryPath": ["杂项", "排序"],
            "type": ("fact", "task", "decision")[i % 3],
            "key": None if i % 4 == 0 or VALUES[i] is None else f"k_{(i * 7) % 5}_{i}",
            "valueJson": VALUES[i],
            "content": f"第{i}条 sortable note",
            "scope": ("workspace", "user")[i % 2],
            "confidence": (0.5, 0.9, 0.5)[i % 3],
            "importance": round(0.1 * (i % 4), 2),
        }
        if i % 3 == 1:
            draft["expiresAt"] = (clock() + timedelta(days=10 - i)).isoformat()
        out = mem.actions.create(draft)
        assert out.accepted and out.node_id, out
        ids.append(out.node_id)
        if i % 2:  # some memories share their update time
            clock.advance(seconds=1)
    mem.actions.delete(ids[2])  # a deleted one (in the list with every status)
    return ids


def _pages(mem: MemoryService, f: BrowseFilter, sort: BrowseSort, descending: bool) -> list[str]:
    out: list[str] = []
    cursor = None
    for _ in range(20):
        page = mem.browse.list_nodes(f, after=cursor, limit=2, sort=sort, descending=descending)
        out += [n.id for n in page.nodes]
        cursor = page.next_cursor
        if cursor is None:
            return out
    raise AssertionError("paging did not end")


@pytest.mark.parametrize("descending", [False, True])
def test_every_order_pages_through_every_memory_once(
    mem: MemoryService, clock: Clock, descending: bool
) -> None:
    _fill(mem, clock)
    f = BrowseFilter(statuses=None, domain="杂项")
    every = mem.browse.list_nodes(f, limit=100).nodes
    assert len(every) == len(TITLES)
    for sort in get_args(BrowseSort):
        # The stores' SQL and the Python twin (sort_key) must agree, or pages would merge
        # out of order, skip or repeat memories.
        wanted = sorted(every, key=lambda n, s=sort: mem.browse.sort_key(n, s), reverse=descending)
        assert _pages(mem, f, sort, descending) == [n.id for n in wanted], sort


def test_orders_read_as_people_expect(mem: MemoryService, clock: Clock) -> None:
    _fill(mem, clock)
    f = BrowseFilter(statuses=None, domain="杂项")

    def titles(sort: BrowseSort, descending: bool = False) -> list[str]:
        page = mem.browse.list_nodes(f, limit=100, sort=sort, descending=descending)
        return [n.title for n in page.nodes]

    by_title = titles("title")
    # ASCII case is ignored; other letters keep their code point order.
    assert by_title[:4] == sorted(["apple", "apple", "Apple pie", "Banana"], key=str.lower)
    assert by_title.index("Zebra") < by_title.index("éclair") < by_title.index("香菜")
    page = mem.browse.list_nodes(f, limit=100, sort="expires").nodes
    expiring = [n for n in page if n.expires_at is not None]
    assert page[: len(expiring)] == sorted(expiring, key=lambda n: n.expires_at or 0)
    assert all(n.expires_at is None for n in page[len(expiring) :])  # never: last
    statuses = [
        n.status for n in mem.browse.list_nodes(f, limit=100, sort="status", descending=True).nodes
    ]
    assert statuses[0] == "deleted" and statuses[-1] == "active"
    # The default stays newest first.
    natural = mem.browse.list_nodes(f, limit=100).nodes
    assert [n.updated_at for n in natural] == sorted((n.updated_at for n in natural), reverse=True)


def test_a_search_is_one_page_in_the_order_asked(mem: MemoryService, clock: Clock) -> None:
    _fill(mem, clock)
    f = BrowseFilter(text="sortable", domain="杂项")
    best = mem.browse.list_nodes(f, limit=100)
    assert best.next_cursor is None and len(best.nodes) == len(TITLES) - 1  # not the deleted
    by_title = mem.browse.list_nodes(f, limit=100, sort="title").nodes
    assert sorted(n.id for n in by_title) == sorted(n.id for n in best.nodes)
    assert by_title == sorted(by_title, key=lambda n: mem.browse.sort_key(n, "title"))


def test_a_draft_past_the_limits_is_invalid_input_in_one_line(mem: MemoryService) -> None:
    draft = {"title": "长" * 201, "domain": "杂项", "tags": [f"t{i}" for i in range(65)]}
    with pytest.raises(InvalidInput) as info:
        mem.actions.create(draft)
    text = str(info.value)
    assert "\n" not in text and "pydantic" not in text and "Value error" not in text
    assert "title: is 201 characters long; the limit is 200" in text
    assert "tags: has 65 items; the limit is 64" in text
    node = mem.actions.create({"title": "ok", "domain": "杂项", "type": "fact"})
    assert node.node_id is not None
    with pytest.raises(InvalidInput, match="title"):
        mem.actions.edit(node.node_id, {"title": "x" * 300})
