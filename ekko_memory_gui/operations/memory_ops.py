"""What the user changes: create, edit (a new version), revert, expire, delete, restore.

Each runs the core's user action (actor ``user``) on the memory worker, then asks the
change watcher to look at once, so every view refreshes from the same change set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ekko_memory import EkkoMemoryError, MemoryNode
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels


@dataclass(frozen=True)
class Outcome:
    """What a user action led to (the core's WriteOutcome in plain fields)."""

    accepted: bool
    status: str
    reason: str
    node_id: str | None = None
    superseded_id: str | None = None
    notes: tuple[str, ...] = ()
    rule: str | None = None  # the refusal's code: a permission rule or an error code
    cause: BaseException | None = field(default=None, compare=False)  # the error that refused it
    code: str | None = None  # the reason's code (a duplicate's, the refusing error's)
    params: Mapping[str, str] = field(default_factory=dict, compare=False)
    detail: str = ""  # the reason without the core's "nothing was written"
    retry: bool = False  # trying again may work

    @property
    def text(self) -> str:
        """Why it was not done (or did nothing), in the UI's language."""
        return labels.outcome_text(
            self.status,
            self.rule,
            self.detail or self.reason,
            self.cause,
            self.code,
            self.params,
            self.retry,
        )


def _outcome(o: Any) -> Outcome:
    return Outcome(
        accepted=bool(o.accepted),
        status=str(o.status),
        reason=str(o.reason),
        node_id=o.node_id,
        superseded_id=o.superseded_id,
        notes=tuple(o.notes or ()),
        rule=getattr(o, "rule", None),
        cause=getattr(o, "cause", None),
        code=getattr(o, "reason_code", None),
        params=dict(getattr(o, "reason_params", None) or {}),
        detail=str(getattr(o, "detail", "") or o.reason),
        retry=bool(getattr(o, "retry", False)),
    )


async def _write_form(c: AppController, action: Any, *args: Any, **kwargs: Any) -> Outcome:
    """Run a write of the edit form; a refusal before the write (fields past the core's
    limits, a newer version meanwhile) is a refused outcome the form shows, like any other."""
    try:
        out = _outcome(await c.runner.call(action, *args, **kwargs))
    except EkkoMemoryError as e:
        return Outcome(
            accepted=False,
            status="rejected",
            reason=str(e),
            rule=e.code,
            cause=e,
            detail=e.detail,
            retry=e.retry,
        )
    await c.refresh_after_write()
    return out


async def create(c: AppController, draft: dict[str, Any], **ids: str | None) -> Outcome:
    """A memory written by hand (camelCase draft fields)."""
    return await _write_form(c, c.runner.memory.actions.create, draft, **ids)


async def edit(c: AppController, node_id: str, changes: dict[str, Any]) -> Outcome:
    """A new version of ``node_id`` with ``changes``; the old one is superseded."""
    return await _write_form(c, c.runner.memory.actions.edit, node_id, changes)


async def revert(c: AppController, version_id: str) -> Outcome:
    """Make an older version the content of a new head."""
    mem = c.runner.memory
    out = _outcome(await c.runner.call(mem.actions.revert, version_id))
    await c.refresh_after_write()
    return out


async def expire(c: AppController, node_id: str) -> Outcome:
    mem = c.runner.memory
    out = _outcome(await c.runner.call(mem.actions.expire, node_id))
    await c.refresh_after_write()
    return out


async def soft_delete(c: AppController, node_id: str) -> list[str]:
    """Move a memory to the trash; returns the ids deleted."""
    mem = c.runner.memory
    deleted = await c.runner.call(mem.actions.delete, node_id, "soft")
    await c.refresh_after_write()
    return list(deleted)


async def hard_delete(c: AppController, node_id: str, *, with_messages: bool = False) -> list[str]:
    """Delete a memory and every version for good (and its source messages on request)."""
    mem = c.runner.memory
    deleted = await c.runner.call(
        mem.actions.delete,
        node_id,
        "hard",
        reason="deleted permanently by the user",
        cascade_messages=with_messages,
    )
    await c.refresh_after_write()
    return list(deleted)


async def restore(c: AppController, node_id: str) -> Outcome:
    mem = c.runner.memory
    out = _outcome(await c.runner.call(mem.actions.restore, node_id))
    await c.refresh_after_write()
    return out


async def load_node(c: AppController, node_id: str) -> MemoryNode | None:
    return await c.runner.call(c.runner.memory.get_node, node_id)


async def load_chain(c: AppController, node_id: str) -> list[MemoryNode]:
    return await c.runner.call(c.runner.memory.chain, node_id)
