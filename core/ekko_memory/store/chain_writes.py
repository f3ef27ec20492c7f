"""Steps of a write transaction that keep a memory's chain and the changes waiting on it
consistent: supersede, delete, settle a pending item."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from ekko_memory.errors import InvalidInput
from ekko_memory.models import MemoryNode, PendingItem
from ekko_memory.store.marks import carry_marks
from ekko_memory.store.writer import StoreWriter, written
from ekko_memory.timeutil import utcnow


def supersede_in(
    w: StoreWriter, old: MemoryNode, new: MemoryNode, *, actor: str, reason: str
) -> None:
    """Inside a write transaction: old → superseded, new inserted with ``supersedesId``, both audited."""
    if new.supersedes_id != old.id:
        new = new.model_copy(update={"supersedes_id": old.id})
    w.set_node_status(old.id, "superseded", new.created_at)
    w.insert_nodes([new])
    # A pin (and a pair said to be no duplicate) stays with the memory.
    carry_marks(w.conn, old.id, new.id)
    w.add_audit(
        "supersede",
        actor=actor,
        reason=reason,
        node=old,
        at=new.created_at,
        payload={"supersededBy": new.id},
    )
    w.add_audit(
        "create",
        actor=actor,
        reason=reason,
        node=new,
        at=new.created_at,
        payload={"supersedes": old.id, "node": written(new)},
    )


def delete_in(
    w: StoreWriter,
    node: MemoryNode,
    *,
    mode: Literal["soft", "hard"],
    actor: str,
    reason: str,
    at: datetime | None = None,
    settle: bool = True,
) -> None:
    """Inside a write transaction: soft or hard delete one node, audited (at ``at``, default now).

    Changes to the node that wait for the user (a new version, an expiry) no longer apply:
    they are settled as expired (``settle``; a purge removes them instead). Deletes that
    wait stay: a soft-deleted memory can still be deleted for good, an approved delete
    skips what is gone, and the approval of a delete runs through here itself.
    """
    now = at or utcnow()
    if mode == "soft":
        if node.status == "deleted":
            return
        w.set_node_status(node.id, "deleted", now)
        w.add_audit(
            "delete",
            actor=actor,
            reason=reason,
            node=node,
            at=now,
            payload={"mode": "soft", "from": node.status},
        )
    elif mode == "hard":
        w.hard_delete_nodes([node.id])
        w.add_audit(
            "hard_delete",
            actor=actor,
            reason=reason,
            node_id=node.id,
            at=now,
            session_id=node.session_id,
            workspace_id=node.workspace_id,
            user_id=node.user_id,
            payload={"mode": "hard"},
        )
    else:
        raise InvalidInput(f"unknown delete mode {mode!r}")
    if settle:
        gone = "deleted for good" if mode == "hard" else "deleted"
        # Changes filed against an older version wait for this memory too (an edit since
        # moved it on); the chain back is short.
        chain = [node.id]
        older = node.supersedes_id
        while older is not None and older not in chain and len(chain) < SETTLE_CHAIN:
            chain.append(older)
            previous = w.get_node(older)
            older = previous.supersedes_id if previous is not None else None
        for item in w.pending_about(chain):
            if item.operation != "delete":
                settle_pending(
                    w,
                    item,
                    reason=f"no longer applies: the memory it would change ({node.id}) was {gone}",
                    actor=actor,
                    at=now,
                )


def settle_pending(
    w: StoreWriter, item: PendingItem, *, reason: str, actor: str, at: datetime | None = None
) -> bool:
    """Inside a write transaction: close a pending item that no longer applies (status
    ``expired``, the reason as its note), audited; False if it was decided meanwhile."""
    now = at or utcnow()
    if not w.decide_pending(
        item.id, status="expired", decided_by=actor, at=now, note=reason, result_node_id=None
    ):
        return False
    w.add_audit(
        "expire",
        actor=actor,
        reason=f"pending item {item.id} {reason}",
        node_id=item.current_head_id or next(iter(item.target_ids), None),
        session_id=item.session_id,
        workspace_id=item.workspace_id,
        user_id=item.user_id,
        at=now,
        payload={"pendingId": item.id, "kind": item.kind, "rule": item.rule, "status": "expired"},
    )
    return True


# How far back a delete looks for changes filed against older versions of the memory.
SETTLE_CHAIN = 50
