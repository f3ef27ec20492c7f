"""Write primitives over one transaction; every caller appends its audit event in the same one."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update

from ekko_memory.ids import new_id
from ekko_memory.models import (
    AuditEvent,
    AuditEventType,
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    PendingItem,
    SessionCursor,
    UsageRecord,
    trusted,
)
from ekko_memory.models.reasons import read_stored_reason
from ekko_memory.store import tables as t
from ekko_memory.store.marks import drop_marks
from ekko_memory.store.reader import StoreReader
from ekko_memory.store.reader_base import chunks
from ekko_memory.store.rows import (
    SUMMARY_LISTS,
    dumps,
    message_to_row,
    node_to_row,
    summary_to_row,
)
from ekko_memory.store.text_reads import holding
from ekko_memory.store.vectors import VectorRow
from ekko_memory.timeutil import to_db, utcnow

n = t.memory_nodes
_NODE_INSERT_COLUMNS = [c.name for c in n.columns]
_INSERT_NODE = (
    f"INSERT INTO memory_nodes ({', '.join(_NODE_INSERT_COLUMNS)}) "
    f"VALUES ({', '.join(':' + c for c in _NODE_INSERT_COLUMNS)})"
)
_AUDIT_COLUMNS = [c.name for c in t.memory_audit_events.columns]
_INSERT_AUDIT = (
    f"INSERT INTO memory_audit_events ({', '.join(_AUDIT_COLUMNS)}) "
    f"VALUES ({', '.join(':' + c for c in _AUDIT_COLUMNS)})"
)

REDACTED = "[redacted]"


def written(node: MemoryNode) -> dict[str, Any]:
    """What an audit event records of a written node: enough to read the trail without the
    row (the row itself holds every field; a full snapshot doubled the cost of a write)."""
    out: dict[str, Any] = {"title": node.title, "scope": node.scope, "type": node.type}
    if node.key is not None:
        out["key"] = node.key
        out["valueJson"] = node.value_json
    if node.expires_at is not None:
        out["expiresAt"] = node.expires_at.isoformat()
    return out


class StoreWriter(StoreReader):
    """Reads and writes inside one write transaction; create through ``SqlStore.write()``."""

    # Ids of the nodes this transaction inserted or rewrote (their text is new): what the
    # store's commit listeners hear about (semantic recall embeds them).
    written_node_ids: list[str] | None = None

    def _wrote(self, ids: Iterable[str]) -> None:
        if self.written_node_ids is None:
            self.written_node_ids = []
        self.written_node_ids.extend(ids)

    def insert_message(self, msg: MemoryMessage) -> None:
        """Append one raw message (never updated afterwards)."""
        self.conn.execute(t.memory_messages.insert().values(**message_to_row(msg)))

    def insert_summary(self, summary: MemorySummary) -> None:
        """Append one summary to its chain."""
        self.conn.execute(t.memory_summaries.insert().values(**summary_to_row(summary)))

    def delete_messages(self, ids: Sequence[str], *, actor: str, reason: str) -> tuple[int, int]:
        """Delete messages for good; summaries covering them lose their text and turn stale.

        Returns (messages deleted, summaries made stale). A stale summary keeps its place
        in the chain, so the next summary can be rebuilt from the messages that remain.
        """
        msgs = self.get_messages(ids)
        if not msgs:
            return 0, 0
        stale = self.summaries_covering(msgs)
        self.blank_summaries(stale)
        m = t.memory_messages
        found = [x.id for x in msgs]
        self.conn.execute(delete(m).where(m.c.id.in_(found)))
        self.conn.execute(delete(t.memory_usage).where(t.memory_usage.c.message_id.in_(found)))
        self.add_audit(
            "hard_delete",
            actor=actor,
            reason=reason,
            session_id=msgs[0].session_id if len({x.session_id for x in msgs}) == 1 else None,
            payload={"messages": len(found), "staleSummaries": sorted(stale)},
        )
        return len(found), len(stale)

    def unlist_from_summaries(self, titles: Iterable[str], session_ids: Iterable[str]) -> int:
        """Take memories' titles out of the lists of the sessions' summaries (constraints,
        preferences, decisions name the memories written from their messages); returns
        how many summaries changed."""
        gone = set(titles)
        s = t.memory_summaries
        changed = 0
        for session_id in sorted(set(session_ids)):
            for summary in self.list_summaries(session_id):
                lists = {
                    name: getattr(summary, name)
                    for name in ("constraints", "preferences", "decisions")
                }
                kept = {name: [x for x in items if x not in gone] for name, items in lists.items()}
                if kept == lists:
                    continue
                self.conn.execute(
                    update(s)
                    .where(s.c.id == summary.id)
                    .values(**{f"{name}_json": dumps(items) for name, items in kept.items()})
                )
                changed += 1
        return changed

    def blank_summaries(self, ids: Iterable[str]) -> None:
        """Erase summaries' text and mark them stale; they keep their place in the chain."""
        s = t.memory_summaries
        empty = {f"{name}_json": "[]" for name in SUMMARY_LISTS}
        for chunk in chunks(ids):
            self.conn.execute(
                update(s)
                .where(s.c.id.in_(chunk))
                .values(stale=1, summary="", current_goal=None, **empty)
            )

    def _next_seq(self) -> int:
        # Inside the write transaction (the store's write lock), so no one else takes it.
        return int(self._rows("SELECT coalesce(max(seq), 0) FROM memory_nodes", {})[0][0]) + 1

    def insert_nodes(self, nodes: Sequence[MemoryNode]) -> None:
        """Insert nodes and index them for full-text search."""
        if not nodes:
            return
        seq = self._next_seq()
        rows = []
        for i, node in enumerate(nodes):
            row = node_to_row(node)
            row["seq"] = seq + i
            rows.append(row)
        with self.dialect.bulk_write(self.conn, len(rows)):
            self.dialect.execute(self.conn, _INSERT_NODE, rows)
            # One batch into the full-text index, not a statement per node.
            self.dialect.index_nodes(
                self.conn,
                [
                    (row["seq"], node.title, node.content, node.tags, node.entities)
                    for row, node in zip(rows, nodes, strict=True)
                ],
                new=True,
            )
        self._wrote(node.id for node in nodes)

    def replace_node(self, node: MemoryNode) -> None:
        """Rewrite a node's row in place and reindex it (``upsert_node`` on an existing id)."""
        row = node_to_row(node)
        row.pop("id")
        self.conn.execute(update(n).where(n.c.id == node.id).values(**row))
        seq = self.node_seqs([node.id])[node.id]
        self.dialect.index_node(self.conn, seq, node.title, node.content, node.tags, node.entities)
        # Its vector said the old text: embedded again (the node is found by keyword meanwhile).
        self.conn.execute(
            delete(t.memory_node_vectors).where(t.memory_node_vectors.c.node_id == node.id)
        )
        self._wrote([node.id])

    def set_node_status(
        self, node_id: str, status: str, at: datetime, *, expires_at: datetime | None = None
    ) -> bool:
        """Change a node's status (and optionally its expiry); False if it does not exist."""
        values: dict[str, Any] = {"status": status, "updated_at": to_db(at)}
        if expires_at is not None:
            values["expires_at"] = to_db(expires_at)
        res = self.conn.execute(update(n).where(n.c.id == node_id).values(**values))
        return bool(res.rowcount)

    def set_supersedes(self, node_id: str, older_id: str | None) -> None:
        """Make ``older_id`` the version ``node_id`` supersedes (a link, nothing else moves)."""
        self.conn.execute(update(n).where(n.c.id == node_id).values(supersedes_id=older_id))

    def hard_delete_nodes(self, ids: Sequence[str]) -> list[str]:
        """Remove nodes, their index rows and usage rows, and scrub their audit and pending text.

        Audit rows stay (who deleted what and when) but lose reasons and payloads, which
        can quote the deleted text. Returns the ids actually removed.
        """
        seqs = self.node_seqs(ids)
        if not seqs:
            return []
        found = list(seqs)
        self.dialect.unindex_nodes(self.conn, list(seqs.values()))
        self.conn.execute(delete(n).where(n.c.id.in_(found)))
        self.conn.execute(delete(t.memory_usage).where(t.memory_usage.c.node_id.in_(found)))
        self.conn.execute(
            delete(t.memory_node_vectors).where(t.memory_node_vectors.c.node_id.in_(found))
        )
        self.redact_references(found)
        drop_marks(self.conn, found)
        # Later versions keep their link, but the old text is gone.
        self.conn.execute(update(n).where(n.c.supersedes_id.in_(found)).values(supersedes_id=None))
        return found

    def put_vectors(self, rows: Sequence[VectorRow]) -> int:
        """Store vectors (replacing a node's earlier one) for nodes that still hold the
        text they were embedded from; returns how many were stored. A node deleted or
        rewritten while its text was being embedded gets none (it is embedded again)."""
        if not rows:
            return 0
        v = t.memory_node_vectors
        current = self.vector_texts([r.node_id for r in rows])
        fresh = [r for r in rows if current.get(r.node_id) == r.text_hash]
        if not fresh:
            return 0
        ids = [r.node_id for r in fresh]
        for chunk in chunks(ids):
            self.conn.execute(delete(v).where(v.c.node_id.in_(chunk)))
        # vids grow per model (what a reader loads by): the (model, vid) index answers.
        models = {r.model for r in fresh}
        vid = max(
            int(
                self._rows(
                    "SELECT coalesce(max(vid), 0) FROM memory_node_vectors WHERE model = :m",
                    {"m": m},
                )[0][0]
            )
            for m in models
        )
        now = to_db(utcnow())
        self.conn.execute(
            v.insert(),
            [
                {
                    "node_id": r.node_id,
                    "vid": vid + i + 1,
                    "model": r.model,
                    "dim": r.dim,
                    "text_hash": r.text_hash,
                    "scale": r.scale,
                    "vector": r.vector,
                    "created_at": now,
                }
                for i, r in enumerate(fresh)
            ],
        )
        return len(fresh)

    def delete_vectors(self, model: str | None = None) -> int:
        """Drop every vector (of ``model`` only, if given): a model change embeds anew."""
        v = t.memory_node_vectors
        q = delete(v) if model is None else delete(v).where(v.c.model == model)
        return int(self.conn.execute(q).rowcount or 0)

    def redact_references(self, node_ids: Sequence[str]) -> None:
        """Scrub what this store says about nodes deleted for good (here, or in the other
        store): their audit rows lose reasons and payloads, and the pending items filed
        against them or approved into them lose their proposals — with the audit rows of
        those proposals, which name the proposed node's own id before it was approved."""
        p = t.memory_pending
        proposed: list[str] = []
        for chunk in chunks(node_ids):
            about = p.c.current_head_id.in_(chunk) | p.c.result_node_id.in_(chunk)
            for (node_json,) in self.conn.execute(
                select(p.c.node_json).where(about, p.c.node_json.is_not(None))
            ):
                node = json.loads(node_json)
                if isinstance(node, dict) and isinstance(node.get("id"), str):
                    proposed.append(node["id"])
            self.conn.execute(update(p).where(about).values(node_json=None, reason=REDACTED))
        self.redact_audit(node_ids=[*node_ids, *proposed])

    def redact_audit(self, *, node_ids: Iterable[str] = (), ids: Iterable[str] = ()) -> None:
        """Keep audit rows (who did what, when) but drop their reasons and payloads, which
        can quote deleted text: the rows of some nodes, or some rows by id."""
        a = t.memory_audit_events
        for col, values in ((a.c.node_id, node_ids), (a.c.id, ids)):
            for chunk in chunks(values):
                self.conn.execute(
                    update(a).where(col.in_(chunk)).values(reason=REDACTED, payload_json=None)
                )

    def forget_identities_in_audit(self, text_: str, reasons: Sequence[str]) -> int:
        """Clear the session, workspace and user ids that hold ``text_`` in the audit rows
        whose reason is one of ``reasons`` (a purge's own rows, the rows it scrubbed): a
        purge of a word must not leave it in the record of that purge. Rows changed."""
        a = t.memory_audit_events
        changed = 0
        for col in (a.c.session_id, a.c.workspace_id, a.c.user_id):
            result = self.conn.execute(
                update(a)
                .where(a.c.reason.in_(list(reasons)), holding([col], text_))
                .values({col.name: None})
            )
            changed += result.rowcount or 0
        return changed

    def add_audit(
        self,
        event_type: AuditEventType,
        *,
        actor: str,
        reason: str,
        node: MemoryNode | None = None,
        node_id: str | None = None,
        payload: dict[str, Any] | None = None,
        session_id: str | None = None,
        workspace_id: str | None = None,
        user_id: str | None = None,
        at: datetime | None = None,
    ) -> AuditEvent:
        """Append an audit event (inside the caller's transaction)."""
        code, params = read_stored_reason(reason)
        event = trusted(
            AuditEvent,
            dict(
                id=new_id("aud"),
                event_type=event_type,
                node_id=node.id if node is not None else node_id,
                session_id=session_id
                if session_id is not None
                else (node.session_id if node else None),
                workspace_id=workspace_id
                if workspace_id is not None
                else (node.workspace_id if node else None),
                user_id=user_id if user_id is not None else (node.user_id if node else None),
                actor=actor,
                reason=reason,
                payload=payload,
                created_at=at or utcnow(),
                reason_code=code,
                reason_params=params,
            ),
        )
        self.dialect.execute(
            self.conn,
            _INSERT_AUDIT,
            {
                "id": event.id,
                "event_type": event.event_type,
                "node_id": event.node_id,
                "session_id": event.session_id,
                "workspace_id": event.workspace_id,
                "user_id": event.user_id,
                "actor": event.actor,
                "reason": event.reason,
                "payload_json": None if payload is None else dumps(payload),
                "created_at": to_db(event.created_at),
            },
        )
        return event

    def insert_audit_events(self, events: Sequence[AuditEvent]) -> None:
        """Insert audit events as they are (import keeps their ids)."""
        if not events:
            return
        self.conn.execute(
            t.memory_audit_events.insert(),
            [
                {
                    "id": e.id,
                    "event_type": e.event_type,
                    "node_id": e.node_id,
                    "session_id": e.session_id,
                    "workspace_id": e.workspace_id,
                    "user_id": e.user_id,
                    "actor": e.actor,
                    "reason": e.reason,
                    "payload_json": None if e.payload is None else dumps(e.payload),
                    "created_at": to_db(e.created_at),
                }
                for e in events
            ],
        )

    def insert_pending(self, item: PendingItem) -> None:
        """Store a pending item."""
        self.conn.execute(
            t.memory_pending.insert().values(
                id=item.id,
                kind=item.kind,
                status=item.status,
                operation=item.operation,
                node_json=None if item.node is None else dumps(item.node),
                target_ids_json=dumps(item.target_ids),
                current_head_id=item.current_head_id,
                rule=item.rule,
                reason=item.reason,
                requester=item.requester,
                session_id=item.session_id,
                workspace_id=item.workspace_id,
                user_id=item.user_id,
                source_message_ids_json=dumps(item.source_message_ids),
                created_at=to_db(item.created_at),
                decided_by=item.decided_by,
                decided_at=to_db(item.decided_at),
                decision_note=item.decision_note,
                result_node_id=item.result_node_id,
            )
        )

    def decide_pending(
        self,
        pending_id: str,
        *,
        status: str,
        decided_by: str,
        at: datetime,
        note: str | None,
        result_node_id: str | None,
    ) -> bool:
        """Record a decision; False if the item was no longer pending (decided elsewhere)."""
        p = t.memory_pending
        res = self.conn.execute(
            update(p)
            .where(p.c.id == pending_id, p.c.status == "pending")
            .values(
                status=status,
                decided_by=decided_by,
                decided_at=to_db(at),
                decision_note=note,
                result_node_id=result_node_id,
            )
        )
        return bool(res.rowcount)

    def record_usage(
        self,
        message_id: str,
        node_ids: Sequence[str],
        *,
        session_id: str | None,
        workspace_id: str | None,
        at: datetime,
    ) -> None:
        """Remember which nodes fed one reply."""
        if not node_ids:
            return
        self.conn.execute(
            t.memory_usage.insert(),
            [
                {
                    "id": new_id("use"),
                    "node_id": node_id,
                    "message_id": message_id,
                    "session_id": session_id,
                    "workspace_id": workspace_id,
                    "used_at": to_db(at),
                }
                for node_id in dict.fromkeys(node_ids)
            ],
        )

    def set_cursor(self, session_id: str, kind: str, message: MemoryMessage, at: datetime) -> None:
        """Move a session's background cursor to ``message`` (never backwards)."""
        c = t.memory_session_cursors
        current = self.get_cursor(session_id, kind)
        if current is not None and current[1] >= message.created_at:
            return
        values = {
            "message_id": message.id,
            "message_created_at": to_db(message.created_at),
            "updated_at": to_db(at),
        }
        if current is None:
            self.conn.execute(c.insert().values(session_id=session_id, kind=kind, **values))
        else:
            self.conn.execute(
                update(c).where(c.c.session_id == session_id, c.c.kind == kind).values(**values)
            )

    def add_job(
        self, kind: str, session_id: str | None, payload: dict[str, Any], at: datetime
    ) -> str:
        """Queue a job for retry; returns its id."""
        job_id = new_id("job")
        self.conn.execute(
            t.memory_retry_queue.insert().values(
                id=job_id,
                kind=kind,
                session_id=session_id,
                payload_json=dumps(payload),
                attempts=0,
                last_error=None,
                next_attempt_at=to_db(at),
                created_at=to_db(at),
            )
        )
        return job_id

    def reschedule_job(self, job_id: str, *, error: str, next_at: datetime) -> None:
        """Count a failed attempt and set the next one."""
        r = t.memory_retry_queue
        self.conn.execute(
            update(r)
            .where(r.c.id == job_id)
            .values(
                attempts=r.c.attempts + 1, last_error=error[:2000], next_attempt_at=to_db(next_at)
            )
        )

    def redact_job_errors(self) -> int:
        """Drop the error texts of failed jobs (the jobs stay, and are retried): an error can
        quote what a model answered about any memory it was shown, so after a hard delete
        nobody can tell which of them still hold the deleted text. Returns how many."""
        r = t.memory_retry_queue
        done = self.conn.execute(
            update(r)
            .where(r.c.last_error.is_not(None), r.c.last_error != REDACTED)
            .values(last_error=REDACTED)
        )
        return int(done.rowcount or 0)

    def remove_job(self, job_id: str) -> None:
        """Drop a finished job."""
        r = t.memory_retry_queue
        self.conn.execute(delete(r).where(r.c.id == job_id))

    # --- bulk writes (import, purge) --------------------------------------------------

    def insert_messages(self, msgs: Sequence[MemoryMessage]) -> None:
        """Append messages as they are (import keeps their ids)."""
        if msgs:
            self.conn.execute(t.memory_messages.insert(), [message_to_row(m) for m in msgs])

    def insert_summaries(self, summaries: Sequence[MemorySummary]) -> None:
        """Append summaries as they are (import keeps their ids)."""
        if summaries:
            self.conn.execute(t.memory_summaries.insert(), [summary_to_row(x) for x in summaries])

    def insert_usage(self, records: Sequence[UsageRecord]) -> None:
        """Insert usage records as they are (import keeps their ids)."""
        if not records:
            return
        self.conn.execute(
            t.memory_usage.insert(),
            [
                {
                    "id": u.id,
                    "node_id": u.node_id,
                    "message_id": u.message_id,
                    "session_id": u.session_id,
                    "workspace_id": u.workspace_id,
                    "used_at": to_db(u.used_at),
                }
                for u in records
            ],
        )

    def insert_cursor(self, cursor: SessionCursor) -> bool:
        """Store a session cursor unless that session already has one of its kind."""
        if self.get_cursor(cursor.session_id, cursor.kind) is not None:
            return False
        self.conn.execute(
            t.memory_session_cursors.insert().values(
                session_id=cursor.session_id,
                kind=cursor.kind,
                message_id=cursor.message_id,
                message_created_at=to_db(cursor.message_created_at),
                updated_at=to_db(cursor.updated_at),
            )
        )
        return True

    def delete_rows(self, table: str, ids: Iterable[str]) -> int:
        """Delete rows by id from a table keyed by ``id`` (pending, usage, summaries, jobs)."""
        tbl = t.metadata.tables[table]
        removed = 0
        for chunk in chunks(ids):
            removed += self.conn.execute(delete(tbl).where(tbl.c.id.in_(chunk))).rowcount or 0
        return removed

    def rewind_cursor(self, session_id: str, kind: str) -> None:
        """Move a session's cursor back to the end of its newest summary that still stands
        (or remove it when none does): the work after it — the stale links' messages — is
        done again from the messages that remain."""
        c = t.memory_session_cursors
        where = (c.c.session_id == session_id) & (c.c.kind == kind)
        latest = self.get_latest_summary(session_id)
        last = self.get_messages([latest.to_message_id]) if latest is not None else []
        if not last:
            self.conn.execute(delete(c).where(where))
            return
        self.conn.execute(
            update(c)
            .where(where)
            .values(message_id=last[0].id, message_created_at=to_db(last[0].created_at))
        )

    def delete_cursors(self, session_ids: Iterable[str]) -> int:
        """Forget the background cursors of some sessions."""
        c = t.memory_session_cursors
        removed = 0
        for chunk in chunks(session_ids):
            removed += self.conn.execute(delete(c).where(c.c.session_id.in_(chunk))).rowcount or 0
        return removed
