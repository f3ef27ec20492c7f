"""The inbox: items waiting for the user, with what they would replace, and decisions.

Decisions go through ``mem.decide(..., actor="user")``: the core records them in the
audit history. Agents have no way to this function (it is not a tool).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ekko_memory import MemoryMessage, MemoryNode, PendingItem
from ekko_memory_gui.controller import AppController


@dataclass(frozen=True)
class InboxEntry:
    """A pending item with the memory it would replace, the memories a delete would take,
    and the user's words it rests on."""

    item: PendingItem
    current: MemoryNode | None = None
    targets: list[MemoryNode] = field(default_factory=list)
    sources: list[MemoryMessage] = field(default_factory=list)


async def load_inbox(c: AppController) -> list[InboxEntry]:
    """Every waiting item, oldest first, with its context."""
    mem = c.runner.memory

    def work() -> list[InboxEntry]:
        out = []
        for item in mem.pending():
            current = mem.get_node(item.current_head_id) if item.current_head_id else None
            if current is not None and current.status == "superseded":
                current = mem.head_of(current.id)
            targets = [n for i in item.target_ids if (n := mem.get_node(i)) is not None]
            sources = mem.browse.messages_by_id(item.source_message_ids)
            out.append(InboxEntry(item, current, targets, sources))
        return out

    return await c.runner.call(work)


async def count_waiting(c: AppController) -> int:
    mem = c.runner.memory
    return len(await c.runner.call(mem.pending))


async def decide(
    c: AppController,
    pending_id: str,
    *,
    approve: bool,
    edits: dict[str, Any] | None = None,
    note: str | None = None,
    remove_from_log: bool = False,
) -> dict[str, Any]:
    """The user's decision on one item (``remove_from_log``: a rejection that also purges
    the messages the item came from)."""
    mem = c.runner.memory
    result = await c.runner.call(
        mem.decide,
        pending_id,
        approve,
        "user",
        edits=edits or None,
        note=note,
        remove_from_log=remove_from_log,
    )
    await c.refresh_after_write()
    return dict(result)


async def load_item(c: AppController, pending_id: str) -> PendingItem | None:
    """One item as it is now, whatever its status (None once it is gone): whether another
    program decided it while the user looked at it."""
    mem = c.runner.memory

    def work() -> PendingItem | None:
        return next((p for p in mem.pending(status=None) if p.id == pending_id), None)

    return await c.runner.call(work)


@dataclass
class BatchResult:
    """How a batch decision went: per item, done or the error."""

    done: list[str] = field(default_factory=list)
    # (pending id, the core's error): the view words it in the UI's language.
    failed: list[tuple[str, Exception]] = field(default_factory=list)


async def decide_many(c: AppController, pending_ids: list[str], *, approve: bool) -> BatchResult:
    """Approve or reject several items (each its own decision; one failing stops none)."""
    mem = c.runner.memory

    def work() -> BatchResult:
        result = BatchResult()
        for pid in pending_ids:
            try:
                mem.decide(pid, approve, "user", note="decided in a batch by the user")
                result.done.append(pid)
            except Exception as e:  # reported per item, the batch goes on
                result.failed.append((pid, e))
        return result

    result = await c.runner.call(work)
    await c.refresh_after_write()
    return result
