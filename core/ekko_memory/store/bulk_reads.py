"""Streamed and chunked reads of whole tables, for export, import and purge."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import or_, select

from ekko_memory.models import (
    AuditEvent,
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    SessionCursor,
    UsageRecord,
)
from ekko_memory.store import tables as t
from ekko_memory.store.filters import NodeFilter, NodeOrder, order_clause, where_clause
from ekko_memory.store.ledger_reads import LedgerReads, row_to_audit, row_to_usage
from ekko_memory.store.log_reads import LogReads
from ekko_memory.store.node_reads import NodeReads
from ekko_memory.store.reader_base import chunks, n
from ekko_memory.store.rows import row_to_message, row_to_node, row_to_summary
from ekko_memory.timeutil import from_db_required

# Rows fetched per round trip when streaming a table.
STREAM_BATCH = 500


class BulkReads(NodeReads, LogReads, LedgerReads):
    """Every node, event, message, summary and usage record, streamed or by id."""

    def _stream(self, q: Any) -> Iterator[Any]:
        # Rows arrive in batches as the caller iterates: a 100k-row table never sits in memory.
        yield from self.conn.execute(q.execution_options(yield_per=STREAM_BATCH)).mappings()

    def iter_nodes(
        self, f: NodeFilter, *, order: NodeOrder = "created_asc"
    ) -> Iterator[MemoryNode]:
        """Every node matching ``f``, streamed in ``order`` (oldest first by default)."""
        for row in self._stream(select(n).where(where_clause(f)).order_by(order_clause(order))):
            yield row_to_node(row)

    def node_ids(self, f: NodeFilter) -> list[str]:
        """Ids of every node matching ``f``."""
        return list(self.conn.execute(select(n.c.id).where(where_clause(f))).scalars())

    def iter_nodes_by_id(self, ids: Iterable[str]) -> Iterator[MemoryNode]:
        """Nodes by id (any status), chunk by chunk, each chunk oldest first."""
        for chunk in chunks(ids):
            yield from self.find_nodes(
                NodeFilter(ids=chunk, statuses=None), limit=None, order="created_asc"
            )

    def chain_neighbours(self, ids: Iterable[str]) -> set[str]:
        """Ids one supersede link away from ``ids`` (older and newer versions), as this store knows them.

        An older version may live in the other store (a session memory promoted to the user).
        """
        out: set[str] = set()
        for chunk in chunks(ids):
            rows = self.conn.execute(
                select(n.c.id, n.c.supersedes_id).where(
                    or_(n.c.id.in_(chunk), n.c.supersedes_id.in_(chunk))
                )
            ).all()
            for node_id, older in rows:
                out.add(node_id)
                if older:
                    out.add(older)
        return out

    def existing_ids(self, table: str, ids: Iterable[str]) -> set[str]:
        """Which of ``ids`` are present in ``table`` (any table with an ``id`` key)."""
        tbl = t.metadata.tables[table]
        found: set[str] = set()
        for chunk in chunks(ids):
            found.update(self.conn.execute(select(tbl.c.id).where(tbl.c.id.in_(chunk))).scalars())
        return found

    def iter_audit(self, node_ids: Iterable[str] | None = None) -> Iterator[AuditEvent]:
        """Every audit event oldest first, or those of some nodes (chunk by chunk)."""
        a = t.memory_audit_events
        if node_ids is None:
            for row in self._stream(select(a).order_by(a.c.created_at, a.c.id)):
                yield row_to_audit(row)
            return
        for chunk in chunks(node_ids):
            q = select(a).where(a.c.node_id.in_(chunk)).order_by(a.c.created_at, a.c.id)
            for row in self.conn.execute(q).mappings():
                yield row_to_audit(row)

    def audit_ids_for_nodes(self, node_ids: Iterable[str]) -> list[str]:
        """Ids of the audit events about some nodes."""
        return [e.id for e in self.iter_audit(node_ids)]

    def iter_messages(self, ids: Iterable[str] | None = None) -> Iterator[MemoryMessage]:
        """Every message oldest first, or some by id."""
        m = t.memory_messages
        if ids is None:
            for row in self._stream(select(m).order_by(m.c.created_at, m.c.id)):
                yield row_to_message(row)
            return
        for chunk in chunks(ids):
            yield from self.get_messages(chunk)

    def iter_summaries(self) -> Iterator[MemorySummary]:
        """Every summary, oldest first."""
        s = t.memory_summaries
        for row in self._stream(select(s).order_by(s.c.created_at, s.c.id)):
            yield row_to_summary(row)

    def iter_usage(self, node_ids: Iterable[str] | None = None) -> Iterator[UsageRecord]:
        """Every usage record, or those of some nodes."""
        u = t.memory_usage
        if node_ids is None:
            for row in self._stream(select(u).order_by(u.c.used_at, u.c.id)):
                yield row_to_usage(row)
            return
        for chunk in chunks(node_ids):
            q = select(u).where(u.c.node_id.in_(chunk)).order_by(u.c.used_at, u.c.id)
            for row in self.conn.execute(q).mappings():
                yield row_to_usage(row)

    def usage_ids(
        self, *, node_ids: Iterable[str] = (), message_ids: Iterable[str] = ()
    ) -> set[str]:
        """Ids of usage records of some nodes or some replies."""
        u = t.memory_usage
        found: set[str] = set()
        for col, ids in ((u.c.node_id, node_ids), (u.c.message_id, message_ids)):
            for chunk in chunks(ids):
                found.update(self.conn.execute(select(u.c.id).where(col.in_(chunk))).scalars())
        return found

    def list_cursors(self) -> list[SessionCursor]:
        """Every session's background cursors."""
        c = t.memory_session_cursors
        rows = self.conn.execute(select(c).order_by(c.c.session_id, c.c.kind)).mappings()
        return [
            SessionCursor.model_construct(
                session_id=r["session_id"],
                kind=r["kind"],
                message_id=r["message_id"],
                message_created_at=from_db_required(r["message_created_at"]),
                updated_at=from_db_required(r["updated_at"]),
            )
            for r in rows
        ]

    def job_ids_for_sessions(self, session_ids: Iterable[str]) -> list[str]:
        """Retry-queue jobs of some sessions (their payloads can quote the messages)."""
        r = t.memory_retry_queue
        out: list[str] = []
        for chunk in chunks(session_ids):
            out += self.conn.execute(select(r.c.id).where(r.c.session_id.in_(chunk))).scalars()
        return out

    def summaries_covering(self, msgs: Sequence[MemoryMessage]) -> set[str]:
        """Summaries built on any of ``msgs``: those whose range includes one of them, and
        every later link of their chains — a summary is built from the one before it, so
        its words (a rule summary carries the text forward) live on in the links after."""
        ids = {m.id for m in msgs}
        out: set[str] = set()
        for session_id in {m.session_id for m in msgs}:
            times = [m.created_at for m in msgs if m.session_id == session_id]
            for summary in self.list_summaries(session_id):  # oldest first: parents first
                if summary.parent_summary_id in out:
                    out.add(summary.id)
                    continue
                bounds = {
                    x.id: x.created_at
                    for x in self.get_messages([summary.from_message_id, summary.to_message_id])
                }
                lo = bounds.get(summary.from_message_id)
                hi = bounds.get(summary.to_message_id)
                if (
                    any((lo is None or lo <= at) and (hi is None or at <= hi) for at in times)
                    or summary.from_message_id in ids
                    or summary.to_message_id in ids
                ):
                    out.add(summary.id)
        return out
