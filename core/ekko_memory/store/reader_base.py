"""What every read of a store shares: its connection and dialect, the hot path's
raw-driver helpers, and the store-wide counters."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from ekko_memory.models import MemoryMessage, MemoryNode, MemorySummary
from ekko_memory.store import tables as t
from ekko_memory.store.dialect import Dialect
from ekko_memory.store.rows import (
    MESSAGE_COLUMNS,
    NODE_COLUMNS,
    SUMMARY_COLUMNS,
    NodeRow,
    message_from_tuple,
    node_from_tuple,
    summary_from_tuple,
)

n = t.memory_nodes
NODE_SELECT = "SELECT " + ", ".join(NODE_COLUMNS) + " FROM memory_nodes"
NODE_COLUMNS_N = ", ".join("n." + c for c in NODE_COLUMNS)
MESSAGE_SELECT = "SELECT " + ", ".join(MESSAGE_COLUMNS) + " FROM memory_messages"
PENDING_COLUMNS = tuple(c.name for c in t.memory_pending.columns)
PENDING_SELECT = "SELECT " + ", ".join(PENDING_COLUMNS) + " FROM memory_pending"
SUMMARY_SELECT = "SELECT " + ", ".join(SUMMARY_COLUMNS) + " FROM memory_summaries"

# Ids per IN (...) list: far below every backend's parameter limit.
CHUNK = 500


def chunks(ids: Iterable[str], size: int = CHUNK) -> Iterator[list[str]]:
    """``ids`` in lists of at most ``size``."""
    batch: list[str] = []
    for i in ids:
        batch.append(i)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class ReaderBase:
    """A connection and its dialect, with the driver-level reads every part builds on."""

    def __init__(self, conn: Connection, dialect: Dialect) -> None:
        self.conn = conn
        self.dialect = dialect

    # --- raw-driver reads (the hot path) -------------------------------------------

    def _rows(
        self, sql: str, params: dict[str, Any], *, reuse_plan: bool = True
    ) -> list[tuple[Any, ...]]:
        return self.dialect.fetch(self.conn, sql, params, reuse_plan=reuse_plan)

    def _nodes(self, sql: str, params: dict[str, Any]) -> list[MemoryNode]:
        return [node_from_tuple(r) for r in self._rows(sql, params)]

    def _node_rows(self, sql: str, params: dict[str, Any]) -> list[NodeRow]:
        return [NodeRow(r) for r in self._rows(sql, params)]

    def _messages(self, sql: str, params: dict[str, Any]) -> list[MemoryMessage]:
        return [message_from_tuple(r) for r in self._rows(sql, params)]

    def _summaries(self, sql: str, params: dict[str, Any]) -> list[MemorySummary]:
        return [summary_from_tuple(r) for r in self._rows(sql, params)]

    # --- the store as a whole ------------------------------------------------------

    def change_marks(self) -> tuple[int, ...]:
        """Numbers that move whenever anything is written (see Dialect.change_marks)."""
        return self.dialect.change_marks(self.conn)

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
            t.memory_node_vectors,
        ):
            out[table.name] = int(
                self.conn.execute(select(func.count()).select_from(table)).scalar() or 0
            )
        return out
