"""Changes to several memories at once (a multi-selection in the list): trash, restore,
move to a category, pin. Each runs on the memory worker in one call, memory by memory
(the core's user actions, actor ``user``), then asks the change watcher to look once.

A memory that cannot take the change (a global one, a version no longer current, one
deleted meanwhile) is skipped and named in the result: the others still change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ekko_memory import BrowseFilter, EkkoMemoryError, MemoryNode
from ekko_memory_gui.controller import AppController


@dataclass
class BatchResult:
    """What a batch did: ``done`` maps each memory asked for to the id it has now (a new
    version after a move), ``previous`` to the version it had before; ``skipped`` holds
    (id, why) for the others, ``why`` a code: global, not_current, deleted, refused."""

    done: dict[str, str] = field(default_factory=dict)
    previous: dict[str, str] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    errors: list[tuple[str, BaseException]] = field(default_factory=list)


def _current(mem: Any, node_id: str) -> tuple[MemoryNode | None, str | None]:
    """The memory if it can be changed by the user now, else why not."""
    node = mem.get_node(node_id)
    if node is None:
        return None, "deleted"
    if node.scope == "global":
        return None, "global"
    if node.status == "deleted":
        return None, "deleted"
    if mem.head_of(node_id).id != node_id:
        return None, "not_current"
    return node, None


async def trash(c: AppController, ids: list[str]) -> BatchResult:
    """Move the memories to the trash (restore undoes it)."""
    mem = c.runner.memory

    def work() -> BatchResult:
        out = BatchResult()
        for node_id in ids:
            node, why = _current(mem, node_id)
            if node is None:
                out.skipped.append((node_id, why or "refused"))
                continue
            try:
                deleted = mem.actions.delete(node_id, "soft")
            except EkkoMemoryError as e:
                out.errors.append((node_id, e))
                continue
            if node_id in deleted:
                out.done[node_id] = node_id
        return out

    result = await c.runner.call(work)
    await c.refresh_after_write()
    return result


async def restore(c: AppController, ids: list[str]) -> BatchResult:
    """Bring trashed memories back (the undo of ``trash``)."""
    mem = c.runner.memory

    def work() -> BatchResult:
        out = BatchResult()
        for node_id in ids:
            try:
                outcome = mem.actions.restore(node_id)
            except EkkoMemoryError as e:
                out.errors.append((node_id, e))
                continue
            if outcome.accepted:
                out.done[node_id] = outcome.node_id or node_id
            else:
                out.skipped.append((node_id, "refused"))
        return out

    result = await c.runner.call(work)
    await c.refresh_after_write()
    return result


async def move(c: AppController, ids: list[str], path: list[str]) -> BatchResult:
    """Put the memories in the category ``path`` (its first part is the domain): each
    gets a new version there; the earlier one stays in its history."""
    mem = c.runner.memory

    def work() -> BatchResult:
        out = BatchResult()
        for node_id in ids:
            node, why = _current(mem, node_id)
            if node is None:
                out.skipped.append((node_id, why or "refused"))
                continue
            if list(node.category_path) == path and node.domain == path[0]:
                out.done[node_id] = node_id
                continue
            changes: dict[str, Any] = {"categoryPath": path}
            if node.domain != path[0]:
                changes["domain"] = path[0]
            try:
                outcome = mem.actions.edit(node_id, changes)
            except EkkoMemoryError as e:
                out.errors.append((node_id, e))
                continue
            if outcome.accepted and outcome.node_id:
                out.done[node_id] = outcome.node_id
                out.previous[node_id] = node_id
            else:
                out.skipped.append((node_id, "refused"))
        return out

    result = await c.runner.call(work)
    await c.refresh_after_write()
    return result


async def revert_moves(c: AppController, previous: dict[str, str], made: dict[str, str]) -> int:
    """Undo a move: each moved memory back to its earlier version, unless it changed
    again since (then it is left as it is). Returns how many went back."""
    mem = c.runner.memory

    def work() -> int:
        back = 0
        for asked, old in previous.items():
            new = made.get(asked)
            try:
                if new is None or mem.head_of(old).id != new:
                    continue
                if mem.actions.revert(old).accepted:
                    back += 1
            except EkkoMemoryError:
                continue
        return back

    result = await c.runner.call(work)
    await c.refresh_after_write()
    return result


def can_pin(c: AppController) -> bool:
    """Whether this core can pin memories (``mem.actions.pin``, issue 27)."""
    actions = c.runner.memory.actions
    return callable(getattr(actions, "pin", None)) and callable(getattr(actions, "unpin", None))


async def pin(c: AppController, ids: list[str], *, on: bool = True) -> BatchResult:
    """Pin (agents may read, never change or delete) or unpin the memories."""
    mem = c.runner.memory

    def work() -> BatchResult:
        out = BatchResult()
        act = mem.actions.pin if on else mem.actions.unpin
        for node_id in ids:
            node, why = _current(mem, node_id)
            if node is None:
                out.skipped.append((node_id, why or "refused"))
                continue
            try:
                act(node_id)
            except EkkoMemoryError as e:
                out.errors.append((node_id, e))
                continue
            out.done[node_id] = node_id
        return out

    result = await c.runner.call(work)
    await c.refresh_after_write()
    return result


async def categories(c: AppController) -> list[list[str]]:
    """The category paths in use (active memories), for "Move to category"."""
    mem = c.runner.memory

    def work() -> list[list[str]]:
        counts = mem.browse.category_counts(BrowseFilter())
        paths = {tuple(cc.category_path) for cc in counts if cc.category_path}
        return [list(p) for p in sorted(paths)]

    return await c.runner.call(work)
