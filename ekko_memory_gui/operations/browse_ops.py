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
    NodeUsage,
    SessionSummaryInfo,
)
from ekko_memory_gui.operations import shown_search
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
    if f.text and f.text.strip():
        # What the list shows is found too (values): see shown_search.
        mem = runner.memory

        def search() -> list[MemoryNode]:
            hits = shown_search.search_shown(mem, f, limit)
            if sort is not None:
                hits.sort(key=lambda n: mem.browse.sort_key(n, sort[0]), reverse=sort[1])
            return hits

        return await runner.call(search), None
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
        # The core counts the uses of one version: an edit made a new one and "Used in"
        # emptied. The memory's uses are those of all its versions.
        usages = [history.usage] if history.usage else []
        for version in history.chain:
            if version.id != node_id:
                earlier = mem.history(version.id).usage
                if earlier is not None:
                    usages.append(earlier)
        usage = merge_usage(node_id, usages)
        replies = mem.browse.messages_by_id(usage.recent_message_ids)
        replies.sort(key=lambda m: (m.created_at, m.id))  # oldest first, as the core gives
        replies = replies[-RECENT_REPLIES:]
        usage = usage.model_copy(update={"recent_message_ids": [m.id for m in reversed(replies)]})
        return history.model_copy(update={"usage": usage}), replies

    return await runner.call(work)


# Replies listed under "Used in" (the core keeps the latest ten of each version).
RECENT_REPLIES = 10


def merge_usage(node_id: str, usages: list[NodeUsage]) -> NodeUsage:
    """The uses of a memory's versions together: counts added, the latest time, every
    recent reply once."""
    last = [u.last_used_at for u in usages if u.last_used_at is not None]
    ids = list(dict.fromkeys(i for u in usages for i in u.recent_message_ids))
    return NodeUsage(
        node_id=node_id,
        count=sum(u.count for u in usages),
        last_used_at=max(last) if last else None,
        recent_message_ids=ids,
    )


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
