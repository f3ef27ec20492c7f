"""Read operations over one connection (one consistent snapshot per transaction)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, literal_column, select
from sqlalchemy.engine import Connection

from ekko_memory.models import (
    AuditEvent,
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    NodeUsage,
    PendingItem,
)
from ekko_memory.store import tables as t
from ekko_memory.store.dialect import Dialect
from ekko_memory.store.filters import NodeFilter, NodeOrder, like_escape, order_sql, where_sql
from ekko_memory.store.rows import (
    MESSAGE_COLUMNS,
    NODE_COLUMNS,
    SUMMARY_COLUMNS,
    node_from_tuple,
    row_to_message,
    row_to_summary,
)
from ekko_memory.timeutil import from_db, from_db_required, to_db

n = t.memory_nodes
_NODE_SELECT = "SELECT " + ", ".join(NODE_COLUMNS) + " FROM memory_nodes"
_NODE_COLUMNS_N = ", ".join("n." + c for c in NODE_COLUMNS)
_MESSAGE_SELECT = "SELECT " + ", ".join(MESSAGE_COLUMNS) + " FROM memory_messages"
_SUMMARY_SELECT = "SELECT " + ", ".join(SUMMARY_COLUMNS) + " FROM memory_summaries"


@dataclass(frozen=True)
class SearchHit:
    """A node found by full-text search and its rank (lower is better)."""

    node: MemoryNode
    rank: float


@dataclass(frozen=True)
class CategoryCount:
    """How many nodes are filed exactly at one category path."""

    domain: str
    category_path: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class SessionInfo:
    """One session's log at a glance."""

    session_id: str
    message_count: int
    first_at: datetime | None
    last_at: datetime | None


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


class StoreReader:
    """Queries bound to one connection; create through ``SqlStore.read()``."""

    def __init__(self, conn: Connection, dialect: Dialect) -> None:
        self.conn = conn
        self.dialect = dialect

    # --- raw-driver reads (the hot path) -------------------------------------------

    def _rows(self, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        return self.dialect.fetch(self.conn, sql, params)

    def _nodes(self, sql: str, params: dict[str, Any]) -> list[MemoryNode]:
        return [node_from_tuple(r) for r in self._rows(sql, params)]

    def _messages(self, sql: str, params: dict[str, Any]) -> list[MemoryMessage]:
        return [
            row_to_message(dict(zip(MESSAGE_COLUMNS, r, strict=False)))
            for r in self._rows(sql, params)
        ]

    def _summaries(self, sql: str, params: dict[str, Any]) -> list[MemorySummary]:
        return [
            row_to_summary(dict(zip(SUMMARY_COLUMNS, r, strict=False)))
            for r in self._rows(sql, params)
        ]

    # --- messages -------------------------------------------------------------------

    def list_recent_messages(self, session_id: str, limit: int) -> list[MemoryMessage]:
        """The session's last ``limit`` messages, oldest first."""
        rows = self._messages(
            f"{_MESSAGE_SELECT} WHERE session_id = :sid ORDER BY created_at DESC, id DESC LIMIT :lim",
            {"sid": session_id, "lim": limit},
        )
        return list(reversed(rows))

    def list_messages(
        self,
        session_id: str,
        *,
        after: datetime | None = None,
        limit: int = 1000,
        offset: int = 0,
    ) -> list[MemoryMessage]:
        """The session's messages in order, optionally only those after a moment."""
        cond = "session_id = :sid" + (" AND created_at > :after" if after is not None else "")
        return self._messages(
            f"{_MESSAGE_SELECT} WHERE {cond} ORDER BY created_at, id LIMIT :lim OFFSET :off",
            {"sid": session_id, "after": to_db(after), "lim": limit, "off": offset},
        )

    def get_messages(self, ids: Sequence[str]) -> list[MemoryMessage]:
        """Messages by id, in creation order; unknown ids are skipped."""
        if not ids:
            return []
        names = {f"m{i}": v for i, v in enumerate(dict.fromkeys(ids))}
        return self._messages(
            f"{_MESSAGE_SELECT} WHERE id IN ({', '.join(':' + k for k in names)}) ORDER BY created_at, id",
            names,
        )

    def count_messages_after(self, session_id: str, after: datetime | None) -> int:
        """How many messages the session has after a moment (all when ``after`` is None)."""
        m = t.memory_messages
        q = select(func.count()).select_from(m).where(m.c.session_id == session_id)
        if after is not None:
            q = q.where(m.c.created_at > to_db(after))
        return int(self.conn.execute(q).scalar() or 0)

    def list_sessions(self, limit: int = 500) -> list[SessionInfo]:
        """Sessions with their message counts, most recently active first."""
        m = t.memory_messages
        rows = self.conn.execute(
            select(
                m.c.session_id,
                func.count().label("n"),
                func.min(m.c.created_at).label("first"),
                func.max(m.c.created_at).label("last"),
            )
            .group_by(m.c.session_id)
            .order_by(literal_column("last").desc())
            .limit(limit)
        ).all()
        return [SessionInfo(r[0], int(r[1]), from_db(r[2]), from_db(r[3])) for r in rows]

    # --- summaries ------------------------------------------------------------------

    def get_latest_summary(
        self, session_id: str, *, include_stale: bool = False
    ) -> MemorySummary | None:
        """The newest summary of the session's chain (skipping stale ones unless asked)."""
        stale = "" if include_stale else " AND stale = 0"
        found = self._summaries(
            f"{_SUMMARY_SELECT} WHERE session_id = :sid{stale} ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id},
        )
        return found[0] if found else None

    def list_summaries(self, session_id: str) -> list[MemorySummary]:
        """The session's summary chain, oldest first."""
        return self._summaries(
            f"{_SUMMARY_SELECT} WHERE session_id = :sid ORDER BY created_at, id",
            {"sid": session_id},
        )

    # --- nodes ----------------------------------------------------------------------

    def get_node(self, node_id: str) -> MemoryNode | None:
        """One node by id, whatever its status."""
        found = self._nodes(f"{_NODE_SELECT} WHERE id = :id", {"id": node_id})
        return found[0] if found else None

    def get_nodes(self, ids: Sequence[str]) -> list[MemoryNode]:
        """Nodes by id (unknown ids skipped), in the order asked."""
        if not ids:
            return []
        cond, params = where_sql(NodeFilter(ids=list(dict.fromkeys(ids)), statuses=None))
        found = {n.id: n for n in self._nodes(f"{_NODE_SELECT} WHERE {cond}", params)}
        return [found[i] for i in ids if i in found]

    def find_nodes(
        self,
        f: NodeFilter,
        *,
        limit: int | None = 100,
        offset: int = 0,
        order: NodeOrder = "priority",
    ) -> list[MemoryNode]:
        """Nodes matching a filter, in the given order."""
        cond, params = where_sql(f)
        sql = f"{_NODE_SELECT} WHERE {cond} ORDER BY {order_sql(order)}"
        if limit is not None:
            sql += " LIMIT :lim OFFSET :off"
            params.update(lim=limit, off=offset)
        return self._nodes(sql, params)

    def page_nodes(
        self, f: NodeFilter, *, after: tuple[str, str] | None, limit: int
    ) -> list[MemoryNode]:
        """Up to ``limit + 1`` nodes after a (updated_at, id) cursor, newest first (keyset paging)."""
        cond, params = where_sql(f)
        if after is not None:
            cond += " AND (updated_at < :k_at OR (updated_at = :k_at AND id < :k_id))"
            params.update(k_at=after[0], k_id=after[1])
        params["lim"] = limit + 1
        return self._nodes(
            f"{_NODE_SELECT} WHERE {cond} ORDER BY updated_at DESC, id DESC LIMIT :lim", params
        )

    def change_marks(self) -> tuple[int, ...]:
        """Numbers that move whenever anything is written (see Dialect.change_marks)."""
        return self.dialect.change_marks(self.conn)

    def count_nodes(self, f: NodeFilter) -> int:
        """How many nodes match a filter."""
        cond, params = where_sql(f)
        return int(self._rows(f"SELECT count(*) FROM memory_nodes WHERE {cond}", params)[0][0])

    def search_nodes(
        self, query: str, f: NodeFilter, *, limit: int = 20, prefix_last: bool = False
    ) -> list[SearchHit]:
        """Full-text search (Chinese included) within a filter, best first.

        The index ranks first and only its best ``cap`` matches are joined with the node
        table; if the filter leaves too few, the search runs again uncapped. A query with
        no searchable word (only punctuation or emoji) falls back to a substring scan.
        """
        cap = max(limit * 5, 100)
        found = self.dialect.search_sql(query, prefix_last=prefix_last, cap=cap)
        if found is None:
            return self._substring_search(query, f, limit)
        hits = self._fts_join(found, f, limit)
        if len(hits) < limit:
            fts_sql, fts_params = found
            matched = self._rows(f"SELECT count(*) FROM ({fts_sql}) AS capped", fts_params)[0][0]
            if matched >= cap:
                uncapped = self.dialect.search_sql(query, prefix_last=prefix_last, cap=None)
                assert uncapped is not None
                hits = self._fts_join(uncapped, f, limit)
        return hits

    def _fts_join(
        self, found: tuple[str, dict[str, Any]], f: NodeFilter, limit: int
    ) -> list[SearchHit]:
        fts_sql, params = found
        cond, filter_params = where_sql(f, alias="n")
        params = {**params, **filter_params, "lim": limit}
        sql = (
            f"SELECT {_NODE_COLUMNS_N}, fts.rank FROM ({fts_sql}) AS fts "
            f"JOIN memory_nodes n ON n.seq = fts.seq WHERE {cond} "
            "ORDER BY fts.rank, n.updated_at DESC LIMIT :lim"
        )
        out = []
        for r in self._rows(sql, params):
            out.append(SearchHit(node_from_tuple(r), float(r[-1])))
        return out

    def _substring_search(self, query: str, f: NodeFilter, limit: int) -> list[SearchHit]:
        needle = query.strip()
        if not needle:
            return []
        cond, params = where_sql(f)
        params.update(needle=f"%{like_escape(needle)}%", lim=limit)
        nodes = self._nodes(
            f"{_NODE_SELECT} WHERE {cond} AND (title LIKE :needle ESCAPE '\\' OR content LIKE :needle ESCAPE '\\')"
            " ORDER BY updated_at DESC LIMIT :lim",
            params,
        )
        return [SearchHit(n, 0.0) for n in nodes]

    def successor_of(self, node_id: str) -> MemoryNode | None:
        """The node that supersedes ``node_id``, if any."""
        found = self._nodes(
            f"{_NODE_SELECT} WHERE supersedes_id = :id ORDER BY created_at LIMIT 1", {"id": node_id}
        )
        return found[0] if found else None

    def cross_links(self) -> list[tuple[str, str, datetime]]:
        """(node, the node it supersedes, when) where the superseded one is not in this store."""
        inner = select(n.c.id).scalar_subquery()
        rows = self.conn.execute(
            select(n.c.id, n.c.supersedes_id, n.c.created_at).where(
                n.c.supersedes_id.is_not(None), n.c.supersedes_id.not_in(inner)
            )
        ).all()
        return [(r[0], r[1], from_db_required(r[2])) for r in rows]

    def node_seqs(self, ids: Sequence[str]) -> dict[str, int]:
        """The full-text handles of nodes."""
        if not ids:
            return {}
        rows = self.conn.execute(select(n.c.id, n.c.seq).where(n.c.id.in_(list(ids)))).all()
        return {r[0]: int(r[1]) for r in rows}

    def category_counts(self, f: NodeFilter) -> list[CategoryCount]:
        """Node counts per exact category path (the tree sums them up)."""
        cond, params = where_sql(f)
        rows = self._rows(
            f"SELECT domain, category_path_text, count(*) FROM memory_nodes WHERE {cond} "
            "GROUP BY domain, category_path_text",
            params,
        )
        return [CategoryCount(r[0], tuple(r[1].split("/")), int(r[2])) for r in rows]

    def node_status_counts(self) -> dict[str, int]:
        """How many nodes have each status."""
        rows = self.conn.execute(select(n.c.status, func.count()).group_by(n.c.status)).all()
        return {r[0]: int(r[1]) for r in rows}

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

    def audit_since(self, since: datetime | None, limit: int = 1000) -> list[AuditEvent]:
        """Audit events at or after a moment, oldest first (all when ``since`` is None)."""
        a = t.memory_audit_events
        q = select(a)
        if since is not None:
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

    def usage_for_message(self, message_id: str) -> list[str]:
        """Node ids that fed one reply."""
        u = t.memory_usage
        return list(
            self.conn.execute(select(u.c.node_id).where(u.c.message_id == message_id)).scalars()
        )

    # --- background cursors ---------------------------------------------------------

    def get_cursor(self, session_id: str, kind: str) -> tuple[str, datetime] | None:
        """(message id, its time) up to which ``kind`` work has read the session's log."""
        c = t.memory_session_cursors
        row = self.conn.execute(
            select(c.c.message_id, c.c.message_created_at).where(
                c.c.session_id == session_id, c.c.kind == kind
            )
        ).first()
        return None if row is None else (row[0], from_db_required(row[1]))

    # --- retry queue ----------------------------------------------------------------

    def due_jobs(self, now: datetime, limit: int = 20) -> list[dict[str, Any]]:
        """Retry-queue jobs whose time has come."""
        r = t.memory_retry_queue
        rows = self.conn.execute(
            select(r)
            .where(r.c.next_attempt_at <= to_db(now))
            .order_by(r.c.next_attempt_at)
            .limit(limit)
        ).mappings()
        return [dict(row) for row in rows]

    def count_jobs(self) -> int:
        """How many jobs wait in the retry queue."""
        return int(
            self.conn.execute(select(func.count()).select_from(t.memory_retry_queue)).scalar() or 0
        )

    def data_version(self) -> int:
        """Changes when another connection commits; cheap to poll."""
        return self.dialect.data_version(self.conn)

    def table_counts(self) -> dict[str, int]:
        """Row counts of every table (for stats and purge reports)."""
        out = {}
        for table in (
            t.memory_messages,
            t.memory_summaries,
            t.memory_nodes,
            t.memory_audit_events,
            t.memory_pending,
            t.memory_usage,
            t.memory_retry_queue,
        ):
            out[table.name] = int(
                self.conn.execute(select(func.count()).select_from(table)).scalar() or 0
            )
        return out
