"""Reads of what the store records about its memories: audit events, pending items
(changes waiting for the user) and usage records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from ekko_memory.models import AuditEvent, NodeUsage, PendingItem, UsageRecord
from ekko_memory.store import tables as t
from ekko_memory.store.filters import like_escape
from ekko_memory.store.reader_base import PENDING_COLUMNS, PENDING_SELECT, ReaderBase, chunks
from ekko_memory.timeutil import from_db, from_db_required, to_db


def row_to_audit(row: Any) -> AuditEvent:
    """An audit event from its row."""
    return AuditEvent.model_construct(
        id=row["id"],
        event_type=row["event_type"],
        node_id=row["node_id"],
        session_id=row["session_id"],
        workspace_id=row["workspace_id"],
        user_id=row["user_id"],
        actor=row["actor"],
        reason=row["reason"],
        payload=None if row["payload_json"] is None else json.loads(row["payload_json"]),
        created_at=from_db_required(row["created_at"]),
    )


def row_to_usage(row: Any) -> UsageRecord:
    """A usage record from its row."""
    return UsageRecord.model_construct(
        id=row["id"],
        node_id=row["node_id"],
        message_id=row["message_id"],
        session_id=row["session_id"],
        workspace_id=row["workspace_id"],
        used_at=from_db_required(row["used_at"]),
    )


def row_to_pending(row: Any) -> PendingItem:
    """A pending item from its row."""
    return PendingItem.model_construct(
        id=row["id"],
        kind=row["kind"],
        status=row["status"],
        operation=row["operation"],
        node=None if row["node_json"] is None else json.loads(row["node_json"]),
        target_ids=json.loads(row["target_ids_json"]),
        current_head_id=row["current_head_id"],
        rule=row["rule"],
        reason=row["reason"],
        requester=row["requester"],
        session_id=row["session_id"],
        workspace_id=row["workspace_id"],
        user_id=row["user_id"],
        source_message_ids=json.loads(row["source_message_ids_json"]),
        created_at=from_db_required(row["created_at"]),
        decided_by=row["decided_by"],
        decided_at=from_db(row["decided_at"]),
        decision_note=row["decision_note"],
        result_node_id=row["result_node_id"],
        store=None,
    )


class LedgerReads(ReaderBase):
    """Audit events, pending items and usage records."""

    # --- audit ----------------------------------------------------------------------

    def audit_for_node(self, node_id: str, limit: int = 500) -> list[AuditEvent]:
        """A node's audit events, newest first."""
        a = t.memory_audit_events
        rows = self.conn.execute(
            select(a)
            .where(a.c.node_id == node_id)
            .order_by(a.c.created_at.desc(), a.c.id.desc())
            .limit(limit)
        ).mappings()
        return [row_to_audit(r) for r in rows]

    def audit_since(
        self, since: datetime | None, limit: int = 1000, after_id: str | None = None
    ) -> list[AuditEvent]:
        """Audit events at or after a moment, oldest first (all when ``since`` is None).

        ``after_id``: the next page after the event (``since``, ``after_id``), the last of
        the previous page; events are ordered by (time, id), and many share one time (a
        bulk write stamps all its events with one moment)."""
        a = t.memory_audit_events
        q = select(a)
        if since is not None and after_id is not None:
            at = to_db(since)
            q = q.where((a.c.created_at > at) | ((a.c.created_at == at) & (a.c.id > after_id)))
        elif since is not None:
            q = q.where(a.c.created_at >= to_db(since))
        rows = self.conn.execute(q.order_by(a.c.created_at, a.c.id).limit(limit)).mappings()
        return [row_to_audit(r) for r in rows]

    def count_audit(self) -> int:
        """How many audit events the store holds."""
        return int(
            self.conn.execute(select(func.count()).select_from(t.memory_audit_events)).scalar() or 0
        )

    # --- pending --------------------------------------------------------------------

    def list_pending(self, statuses: Sequence[str] | None = ("pending",)) -> list[PendingItem]:
        """Pending items, oldest first."""
        p = t.memory_pending
        q = select(p)
        if statuses is not None:
            q = q.where(p.c.status.in_(list(statuses)))
        rows = self.conn.execute(q.order_by(p.c.created_at, p.c.id)).mappings()
        return [row_to_pending(r) for r in rows]

    def waiting_proposals(
        self, *, requester: str, user_id: str | None, workspace_id: str | None, limit: int
    ) -> list[PendingItem]:
        """The newest ``limit`` writes still waiting that ``requester`` proposed in this
        user's (and workspace's) conversations, newest first (the status index serves it)."""
        rows = self._rows(
            f"{PENDING_SELECT} WHERE status = 'pending' AND kind = 'write'"
            " AND requester = :requester"
            " AND (CAST(:user_id AS TEXT) IS NULL OR user_id IS NULL OR user_id = :user_id)"
            " AND (CAST(:workspace_id AS TEXT) IS NULL OR workspace_id IS NULL"
            " OR workspace_id = :workspace_id)"
            " ORDER BY created_at DESC, id DESC LIMIT :limit",
            {
                "requester": requester,
                "user_id": user_id,
                "workspace_id": workspace_id,
                "limit": limit,
            },
        )
        return [row_to_pending(dict(zip(PENDING_COLUMNS, r, strict=True))) for r in rows]

    def pending_about(self, node_ids: Sequence[str]) -> list[PendingItem]:
        """Items still waiting that were filed against one of ``node_ids`` or name one as a
        target."""
        if not node_ids:
            return []
        # On every delete, so straight on the driver: the expression layer cost ~0.3 ms,
        # more than the delete itself.
        params: dict[str, Any] = {}
        about = []
        for i, node_id in enumerate(node_ids):
            params[f"n{i}"] = node_id
            params[f"l{i}"] = "%" + like_escape(json.dumps(node_id)) + "%"
            about.append(f"current_head_id = :n{i} OR target_ids_json LIKE :l{i} ESCAPE '\\'")
        rows = self._rows(
            f"{PENDING_SELECT} WHERE status = 'pending' AND ({' OR '.join(about)})"
            " ORDER BY created_at, id",
            params,
        )
        return [row_to_pending(dict(zip(PENDING_COLUMNS, r, strict=True))) for r in rows]

    def pending_proposing(self, node_id: str) -> PendingItem | None:
        """The newest item (of any status) whose proposed node carries ``node_id``: the id
        a proposal showed while it waited, looked up when no memory holds it."""
        p = t.memory_pending
        rows = self.conn.execute(
            select(p)
            .where(p.c.node_json.contains(json.dumps(node_id), autoescape=True))
            .order_by(p.c.created_at.desc(), p.c.id.desc())
        ).mappings()
        items = (row_to_pending(r) for r in rows)
        return next((i for i in items if i.node is not None and i.node.get("id") == node_id), None)

    def get_pending(self, pending_id: str) -> PendingItem | None:
        """One pending item by id."""
        p = t.memory_pending
        row = self.conn.execute(select(p).where(p.c.id == pending_id)).mappings().first()
        return None if row is None else row_to_pending(row)

    # --- usage ----------------------------------------------------------------------

    def usage_for_node(self, node_id: str, recent: int = 10) -> NodeUsage:
        """How often and when a node fed a reply."""
        u = t.memory_usage
        count, last = self.conn.execute(
            select(func.count(), func.max(u.c.used_at)).where(u.c.node_id == node_id)
        ).one()
        ids = (
            self.conn.execute(
                select(u.c.message_id)
                .where(u.c.node_id == node_id)
                .order_by(u.c.used_at.desc())
                .limit(recent)
            )
            .scalars()
            .all()
        )
        return NodeUsage(
            node_id=node_id,
            count=int(count or 0),
            last_used_at=from_db(last),
            recent_message_ids=list(ids),
        )

    def last_used(self, node_ids: Sequence[str]) -> dict[str, datetime]:
        """When each of ``node_ids`` last fed a reply (nodes never used are left out)."""
        u = t.memory_usage
        out: dict[str, datetime] = {}
        for chunk in chunks(node_ids):
            q = (
                select(u.c.node_id, func.max(u.c.used_at))
                .where(u.c.node_id.in_(chunk))
                .group_by(u.c.node_id)
            )
            for node_id, last in self.conn.execute(q).all():
                when = from_db(last)
                if when is not None:
                    out[str(node_id)] = when
        return out

    def usage_for_message(self, message_id: str) -> list[str]:
        """Node ids that fed one reply."""
        u = t.memory_usage
        return list(
            self.conn.execute(select(u.c.node_id).where(u.c.message_id == message_id)).scalars()
        )
