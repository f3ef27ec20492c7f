"""Reads of the conversation log: messages, sessions, summaries, the background
cursors and the retry queue."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, literal_column, select

from ekko_memory.models import MemoryMessage, MemorySummary
from ekko_memory.store import tables as t
from ekko_memory.store.reader_base import MESSAGE_SELECT, SUMMARY_SELECT, ReaderBase
from ekko_memory.timeutil import from_db, from_db_required, to_db


@dataclass(frozen=True)
class SessionInfo:
    """One session's log at a glance."""

    session_id: str
    message_count: int
    first_at: datetime | None
    last_at: datetime | None


class LogReads(ReaderBase):
    """Messages, summaries, cursors and retry jobs."""

    # --- messages -------------------------------------------------------------------

    def list_recent_messages(self, session_id: str, limit: int) -> list[MemoryMessage]:
        """The session's last ``limit`` messages, oldest first."""
        rows = self._messages(
            f"{MESSAGE_SELECT} WHERE session_id = :sid ORDER BY created_at DESC, id DESC LIMIT :lim",
            {"sid": session_id, "lim": limit},
        )
        return list(reversed(rows))

    def latest_message_id(self, session_id: str) -> str | None:
        """The id of the session's newest message, if any."""
        rows = self._rows(
            "SELECT id FROM memory_messages WHERE session_id = :sid"
            " ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id},
        )
        return str(rows[0][0]) if rows else None

    def latest_user_message(self, session_id: str) -> MemoryMessage | None:
        """The session's newest user message (however far back), if any."""
        rows = self._messages(
            f"{MESSAGE_SELECT} WHERE session_id = :sid AND role = 'user'"
            " ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id},
        )
        return rows[0] if rows else None

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
            f"{MESSAGE_SELECT} WHERE {cond} ORDER BY created_at, id LIMIT :lim OFFSET :off",
            {"sid": session_id, "after": to_db(after), "lim": limit, "off": offset},
        )

    def last_user_message_before(self, session_id: str, at: datetime) -> MemoryMessage | None:
        """The session's newest message from the user written before ``at``, if any."""
        found = self._messages(
            f"{MESSAGE_SELECT} WHERE session_id = :sid AND role = 'user' AND created_at < :at"
            " ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id, "at": to_db(at)},
        )
        return found[0] if found else None

    def get_messages(self, ids: Sequence[str]) -> list[MemoryMessage]:
        """Messages by id, in creation order; unknown ids are skipped."""
        if not ids:
            return []
        names = {f"m{i}": v for i, v in enumerate(dict.fromkeys(ids))}
        return self._messages(
            f"{MESSAGE_SELECT} WHERE id IN ({', '.join(':' + k for k in names)}) ORDER BY created_at, id",
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
            f"{SUMMARY_SELECT} WHERE session_id = :sid{stale} ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id},
        )
        return found[0] if found else None

    def summary_session(self, summary_id: str) -> str | None:
        """The session a summary belongs to; None when there is no such summary."""
        found = self._rows(
            "SELECT session_id FROM memory_summaries WHERE id = :id", {"id": summary_id}
        )
        return found[0][0] if found else None

    def list_summaries(self, session_id: str) -> list[MemorySummary]:
        """The session's summary chain, oldest first."""
        return self._summaries(
            f"{SUMMARY_SELECT} WHERE session_id = :sid ORDER BY created_at, id",
            {"sid": session_id},
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
