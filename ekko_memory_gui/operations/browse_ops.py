"""Reading: pages of memories, the category counts, a memory's story, sessions."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ekko_memory import (
    BrowseFilter,
    BrowseSort,
    CategoryCount,
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    NodeHistory,
    SessionSummaryInfo,
)
from ekko_memory_gui.operations.runner import OperationRunner


async def load_page(
    runner: OperationRunner,
    f: BrowseFilter,
    after: Any = None,
    limit: int = 200,
    sort: tuple[BrowseSort, bool] | None = None,
) -> tuple[list[MemoryNode], Any]:
    """One page of memories and the next cursor: newest first (ranked hits for a text
    filter), or in the order ``sort`` (a column's sort, descending)."""
    order: dict[str, Any] = {} if sort is None else {"sort": sort[0], "descending": sort[1]}
    page = await runner.call(runner.memory.browse.list_nodes, f, after=after, limit=limit, **order)
    return page.nodes, page.next_cursor


async def count(runner: OperationRunner, f: BrowseFilter) -> int:
    """How many memories match."""
    return await runner.call(runner.memory.browse.count, f)


@dataclass(frozen=True)
class CategoryCounts:
    """Counts for the tree: active memories per path, all versions per path, the trash."""

    active: list[CategoryCount]
    every: list[CategoryCount] | None
    trash: int
    total_active: int


async def category_counts(
    runner: OperationRunner, f: BrowseFilter, *, with_history: bool
) -> CategoryCounts:
    """Active counts under ``f``'s scopes (and all statuses when ``with_history``)."""
    browse = runner.memory.browse

    def work() -> CategoryCounts:
        active_f = f.model_copy(update={"statuses": ["active"]})
        active = browse.category_counts(active_f)
        every = (
            browse.category_counts(f.model_copy(update={"statuses": None}))
            if with_history
            else None
        )
        trash = browse.count(f.model_copy(update={"statuses": ["deleted"], "hide_expired": False}))
        return CategoryCounts(active, every, trash, sum(c.count for c in active))

    return await runner.call(work)


async def load_nodes(runner: OperationRunner, ids: Iterable[str]) -> dict[str, MemoryNode | None]:
    """Current state of memories by id (None for those that are gone)."""
    mem = runner.memory
    wanted = list(ids)
    return await runner.call(lambda: {i: mem.get_node(i) for i in wanted})


async def load_history(runner: OperationRunner, node_id: str) -> NodeHistory:
    """A memory's versions, audit, sources and usage."""
    return await runner.call(runner.memory.history, node_id)


async def load_history_with_replies(
    runner: OperationRunner, node_id: str
) -> tuple[NodeHistory, list[MemoryMessage]]:
    """A memory's story, and the latest replies that used it (for "Used in")."""
    mem = runner.memory

    def work() -> tuple[NodeHistory, list[MemoryMessage]]:
        history = mem.history(node_id)
        ids = history.usage.recent_message_ids if history.usage else []
        return history, mem.browse.messages_by_id(ids)

    return await runner.call(work)


async def sessions(runner: OperationRunner) -> list[SessionSummaryInfo]:
    return await runner.call(runner.memory.browse.sessions)


async def messages(
    runner: OperationRunner, session_id: str, offset: int = 0, limit: int = 200
) -> list[MemoryMessage]:
    return await runner.call(runner.memory.browse.messages, session_id, offset=offset, limit=limit)


async def summaries(runner: OperationRunner, session_id: str) -> list[MemorySummary]:
    return await runner.call(runner.memory.browse.summaries, session_id)


async def status_counts(runner: OperationRunner) -> dict[str, Any]:
    """Per-store counts and health (for the status line)."""
    return await runner.call(runner.memory.browse.stats)


async def row_extras(
    runner: OperationRunner, node_ids: list[str]
) -> tuple[dict[str, datetime], set[str]]:
    """For the list's badges: when each memory last fed a reply, and the memories a change
    waiting in the inbox is about."""
    mem = runner.memory

    def work() -> tuple[dict[str, datetime], set[str]]:
        used = mem.browse.last_used(node_ids)
        waiting: set[str] = set()
        for item in mem.pending():
            waiting.update(item.target_ids)
            if item.current_head_id:
                waiting.add(item.current_head_id)
        return used, waiting

    return await runner.call(work)


async def used_in_reply(runner: OperationRunner, message_id: str) -> list[MemoryNode]:
    """The memories that fed one reply."""
    return await runner.call(runner.memory.browse.used_in_reply, message_id)
