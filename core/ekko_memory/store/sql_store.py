"""One database (a SQLite file, an in-memory database, or a PostgreSQL schema) opened
safely, with the design doc's store operations.

Opening never raises: a directory where the file should be, a corrupt or foreign
file, a read-only file, an unreachable server, a newer schema or a failed migration
each give a store whose ``health`` says what is wrong (disabled or read-only) and the
agent goes on.

Its parts live beside it: ``opening`` (open a file, memory or server schema),
``health`` (``StoreHealth``), ``transactions`` (the read, write and snapshot context
managers), ``chain_writes`` (supersede, delete and settle inside a write) and
``driver_errors``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from sqlalchemy import Engine

from ekko_memory.errors import Conflict, EkkoMemoryError, InvalidInput, NotFound, StoreUnavailable
from ekko_memory.models import MemoryMessage, MemoryNode, MemorySummary
from ekko_memory.store import migrations, opening
from ekko_memory.store.chain_writes import delete_in, supersede_in
from ekko_memory.store.dialect import Dialect
from ekko_memory.store.driver_errors import db_errors, driver_message
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.health import StoreHealth
from ekko_memory.store.problem import Problem
from ekko_memory.store.reader import StoreReader
from ekko_memory.store.thread_pins import ThreadPins
from ekko_memory.store.transactions import PinnedWrite, Snapshot, Transaction
from ekko_memory.store.writer import StoreWriter, written
from ekko_memory.timeutil import utcnow

T = TypeVar("T")
# Results a frozen store remembers (per question; a question is a few hundred bytes).
FROZEN_MEMO_ENTRIES = 1024
# Results a store keeps until anyone commits to it (``kept``): an agent's repeated questions
# (an entry is up to two windows of rows: ~200 rows, a few hundred KB at most).
KEPT_ENTRIES = 16
_MISSING = object()
# How often a store disabled for a passing reason (its server down, its file locked at
# open) tries to open again, in the background.
REOPEN_EVERY_S = 5.0


@dataclass
class Compaction:
    """What ``SqlStore.compact`` ran and the store's size before and after (bytes: of the
    SQLite files, or of a PostgreSQL schema's tables with their indexes and TOAST)."""

    ran: list[str]
    warnings: list[str]
    bytes_before: int | None
    bytes_after: int | None
    # SQLite: every file (database, write-ahead log) with its bytes before and after.
    files: list[tuple[Path, int, int]] = field(default_factory=list)


def _file_sizes(paths: Sequence[Path]) -> dict[Path, int]:
    sizes = {}
    for p in paths:
        try:
            sizes[p] = p.stat().st_size
        except FileNotFoundError:
            continue
    return sizes


class SqlStore:
    """A memory store over one database; thread-safe (a connection per operation)."""

    def __init__(self, engine: Engine | None, dialect: Dialect, health: StoreHealth) -> None:
        self.engine = engine
        self.dialect = dialect
        self._health = health
        # Opens the store again, for one disabled for a passing reason (``_reopenable``).
        self._reopen: Callable[[], SqlStore] | None = None
        self._next_reopen = 0.0
        self._reopening = False
        self._reopen_lock = threading.Lock()
        # Set (``freeze``) when nothing can change what a read returns: no writes, no
        # node that will expire.
        self.frozen = False
        self._memo: dict[Hashable, Any] = {}
        # ``kept``: results as of ``_kept_at``, the dialect and its change count (None:
        # nothing kept yet).
        self._kept: dict[Hashable, Any] = {}
        self._kept_at: tuple[Dialect, int] | None = None
        self._kept_lock = threading.Lock()
        self._closed = False
        # An in-memory store is one connection (the database lives in it): its users
        # take turns, as sqlite3 cannot run one connection on two threads at once.
        self._serial: threading.RLock | None = None
        # Connections held between the snapshot reads of the threads that read most.
        self._pins = ThreadPins()
        # Told the ids of the nodes each committed write inserted or rewrote (semantic
        # recall's indexer); called on the writing thread, after the commit: keep it short.
        self.write_listeners: list[Callable[[list[str]], None]] = []

    def tell_written(self, node_ids: list[str]) -> None:
        """Tell the write listeners which nodes a commit inserted or rewrote."""
        for listener in list(self.write_listeners):
            try:
                listener(node_ids)
            except Exception:  # a listener's bug must not fail a write that committed
                continue

    @property
    def health(self) -> StoreHealth:
        """Whether the store can be read and written (and if not, why).

        A store that could not open for a passing reason (the server was down or the file
        locked by another program) tries again in the background, at most every
        ``REOPEN_EVERY_S``, when asked: it had stayed disabled for the life of the process
        (an MCP server started before its database), although a store that lost its
        server after opening came back by itself.
        """
        if self._reopen is not None:
            self._reopen_if_due()
        return self._health

    @health.setter
    def health(self, value: StoreHealth) -> None:
        self._health = value

    def _reopenable(self, reopen: Callable[[], SqlStore]) -> SqlStore:
        """This (disabled) store, set to open again with ``reopen`` (see ``health``)."""
        self._reopen = reopen
        self._next_reopen = time.monotonic() + REOPEN_EVERY_S
        return self

    def _reopen_if_due(self) -> None:
        now = time.monotonic()
        with self._reopen_lock:
            reopen = self._reopen
            if reopen is None or self._closed or self._reopening or now < self._next_reopen:
                return
            self._reopening = True
            self._next_reopen = now + REOPEN_EVERY_S
        # In the background: a server that does not answer takes its connect timeout, and
        # no caller (a turn's context above all) waits for it.
        threading.Thread(
            target=self._try_reopen, args=(reopen,), name="ekko-store-reopen", daemon=True
        ).start()

    def _try_reopen(self, reopen: Callable[[], SqlStore]) -> None:
        try:
            fresh = reopen()  # a store that cannot open comes back disabled
        except Exception:  # opening never raises; should it, the next ask tries again
            with self._reopen_lock:
                self._reopening = False
            return
        with self._reopen_lock:
            self._reopening = False
            if fresh.engine is not None and not self._closed:
                # Adopted whole, the health last: a caller that sees it ok finds the engine.
                self.dialect.close()
                self.engine, self.dialect, self._reopen = fresh.engine, fresh.dialect, None
                self._health = fresh._health
                return
            if self._closed:
                self._reopen = None
            else:
                self._health = fresh._health  # the newest reason
                if fresh._reopen is None:
                    self._reopen = None  # no longer a passing reason (a wrong password)
        if fresh.engine is not None:
            fresh.close()  # this store was closed meanwhile

    def freeze(self) -> None:
        """Declare that what reads return never changes again (read-only data with no
        expiring node): ``remembered`` then answers each question once."""
        self.frozen = True

    def remembered(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, once per ``key`` for a frozen store (every time otherwise)."""
        if not self.frozen:
            return compute()
        try:
            return self._memo[key]  # type: ignore[no-any-return]
        except KeyError:
            pass
        value = compute()
        if len(self._memo) >= FROZEN_MEMO_ENTRIES:
            self._memo.clear()
        self._memo[key] = value
        return value

    def kept(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, kept per ``key`` until anyone commits to the store (its change
        count moves: this process's connections or another process's); every time when
        the store cannot count its changes (PostgreSQL, in memory). Once per ``key`` for a
        frozen store. ``compute`` reads in a transaction of its own, begun after the count
        is taken, so what it read is never older than the count it is kept under. The
        value is shared by the callers: immutable rows in lists nobody changes."""
        if self.frozen:
            return self.remembered(key, compute)
        dialect = self.dialect
        count = self.change_count()
        if count is None or dialect.file_problem() is not None:
            # A file replaced under the store: its reads say so, as they did.
            return compute()
        # A store opened again counts anew, on its new dialect: never a match of the old.
        at = (dialect, count)
        with self._kept_lock:
            kept_at = self._kept_at
            if kept_at is None or kept_at[0] is not dialect or kept_at[1] != count:
                self._kept.clear()
                self._kept_at = at
            found = self._kept.get(key, _MISSING)
        if found is not _MISSING:
            return found  # type: ignore[no-any-return]
        value = compute()
        with self._kept_lock:
            if self._kept_at == at:
                if len(self._kept) >= KEPT_ENTRIES:
                    del self._kept[next(iter(self._kept))]  # the oldest
                self._kept[key] = value
        return value

    def forget_kept(self) -> None:
        """Drop what ``kept`` holds (a benchmark's cold reads)."""
        with self._kept_lock:
            self._kept.clear()

    # --- opening (store/opening.py) -----------------------------------------------

    @classmethod
    def open_sqlite(cls, path: Path) -> SqlStore:
        """Open (creating and migrating) the SQLite file at ``path``; never raises."""
        return opening.open_sqlite(cls, path)

    @classmethod
    def open_in_memory(cls) -> SqlStore:
        """A private in-memory store (tests, read-only seed data)."""
        return opening.open_in_memory(cls)

    @classmethod
    def open_postgres(cls, url: str, *, schema: str) -> SqlStore:
        """Open (creating and migrating) the store in ``schema`` of the PostgreSQL database at
        ``url``; never raises: an unreachable server or a refused migration disables it."""
        return opening.open_postgres(cls, url, schema=schema)

    def _analyze_if_needed(self, report: migrations.MigrationReport) -> None:
        # Without planner statistics the planner picks indexes by ORDER BY, not by
        # selectivity: a duplicate check went from 0.05 to 3 ms at 10k nodes. An upgrade
        # may add indexes, which have none until analyzed (a turn went from 1 to 30 ms at
        # 100k nodes after schema version 7).
        upgraded = 0 < report.from_version < report.to_version
        with self.raw() as raw:
            if upgraded or not self.dialect.has_statistics(raw):
                self.dialect.analyze(raw)

    def analyze(self) -> None:
        """Refresh planner statistics (after bulk loads)."""
        if self.engine is None or not self.health.writable:
            return
        with self.raw() as raw:
            self.dialect.analyze(raw)

    def close(self) -> None:
        """Release connections (a WAL checkpoint happens on the last close); later use
        raises (a closed service's late background work must not reopen its stores)."""
        with self._reopen_lock:  # a store opened again meanwhile is closed whole
            self._closed = True
            dialect, engine = self.dialect, self.engine
        self._pins.close()
        dialect.close()
        if engine is not None:
            engine.dispose()

    # --- transactions ---------------------------------------------------------------

    def _require(self, *, write: bool) -> Engine:
        if self._closed:
            raise StoreUnavailable(f"memory store at {self.health.location} is closed")
        if self.engine is None or not self.health.readable:
            raise self._unavailable(f"memory store disabled: {self.health.reason}")
        problem = self.dialect.file_problem()
        if problem is not None:
            # Lasting: the file this store's connections hold is not the user's any more.
            replaced = Problem("file_replaced", problem, {"path": self.health.location})
            self.health.set_problem("disabled", replaced)
            raise self._unavailable(f"memory store disabled: {problem}")
        if write and not self.health.writable:
            raise self._unavailable(
                f"memory store at {self.health.location} is {self.health.status}: {self.health.reason}",
                located=True,
            )
        return self.engine

    def _unavailable(self, message: str, *, located: bool = False) -> StoreUnavailable:
        """A refusal for the reason the store's health gives, with its code attached
        (``located``: the message names the store's location before the reason)."""
        error = StoreUnavailable(message)
        error.located = located
        health = self._health
        error.status = health.status
        error.reason_code = health.reason_code
        error.reason_args = dict(health.reason_args)
        return error

    def change_count(self) -> int | None:
        """A number that changes whenever anyone commits to this store (None when the
        store cannot say: then a reader must read again)."""
        if self._closed or self.engine is None:
            return None
        return self.dialect.change_count()

    def others_version(self) -> tuple[object, int] | None:
        """(the calling thread's kept connection, its ``PRAGMA data_version``): the same
        pair later means no other connection — another process, another thread, another
        store object, the pool — committed to the file meanwhile; only this thread's own
        writes on that connection may have (SQLite leaves the number alone for those).
        None when there is no idle kept connection at hand (PostgreSQL, a nested read, a
        closed store): then a reader must read again. ~10–20 µs (the statement opens a
        read of the log index), against ~30–40 for a read through ``snapshot``."""
        engine = self.engine
        if self._closed or engine is None or self._serial is not None:
            return None
        if not self.dialect.pins_reads or not self.health.readable:
            return None
        try:
            pin = self._pins.take(engine)
        except db_errors(self.dialect):
            return None
        if pin is None:
            return None
        if pin.retire:
            self._pins.give_back(pin)  # the next snapshot replaces it
            return None
        try:
            row = pin.driver.execute("PRAGMA data_version").fetchone()
        except db_errors(self.dialect):
            self._pins.give_back(pin, broken=True)
            return None
        self._pins.give_back(pin)
        return (pin.driver, int(row[0]))

    def read(self) -> Transaction[StoreReader]:
        """A read transaction (one consistent snapshot): ``with store.read() as r: ...``."""
        return Transaction(self, StoreReader, write=False)

    def snapshot(self) -> Snapshot | Transaction[StoreReader]:
        """As ``read``, for the hot path (a turn's context, a search): on a SQLite file, on
        a connection this thread keeps between reads (``thread_pins``), begun and ended
        on the driver; elsewhere, exactly ``read``."""
        if self._serial is None and self.dialect.pins_reads:
            return Snapshot(self)
        return self.read()

    def write(self) -> PinnedWrite | Transaction[StoreWriter]:
        """A write transaction: commits when the block ends, rolls back on any exception.
        On a SQLite file, on the connection this thread keeps (``PinnedWrite``)."""
        if self._serial is None and self.dialect.pins_reads:
            return PinnedWrite(self)
        return Transaction(self, StoreWriter, write=True)

    @contextmanager
    def raw(self) -> Iterator[Any]:
        """The driver's own connection in autocommit, outside any transaction (maintenance)."""
        engine = self._require(write=True)
        with self._serial or nullcontext(), self._translate_errors():
            pooled = engine.raw_connection()
            try:
                yield pooled.driver_connection
            finally:
                pooled.close()

    @contextmanager
    def _translate_errors(self) -> Iterator[None]:
        try:
            yield
        except EkkoMemoryError:
            raise
        except db_errors(self.dialect) as e:
            raise self._translated(e) from e

    def _translated(self, e: BaseException) -> EkkoMemoryError:
        """What a driver error means to the caller (and to the store's health)."""
        kind = self.dialect.classify_error(e)
        if kind == "busy":
            return (
                StoreUnavailable(
                    f"memory store at {self.health.location} stayed locked by another process"
                )
                .unwritten(retry=True)
                .because("store.locked", path=self.health.location)
            )
        if kind == "unreachable":
            # Not a lasting state: the pool reconnects once the server is back.
            return (
                StoreUnavailable(
                    f"memory store at {self.health.location} cannot be reached ({driver_message(e)})"
                )
                .unwritten(retry=True)
                .because("store.unreachable", path=self.health.location, detail=driver_message(e))
            )
        if kind == "readonly":
            self.health.set_problem(
                "readonly",
                Problem(
                    "became_read_only",
                    f"{self.health.location} became read-only ({driver_message(e)})",
                    {"location": self.health.location, "detail": driver_message(e)},
                ),
            )
            return self._unavailable(self.health.reason or "").unwritten()
        if kind == "io":
            # Not a lasting state (the file itself passed its checks): try again later.
            return (
                StoreUnavailable(
                    f"memory store at {self.health.location} could not read or write its file"
                    f" ({driver_message(e)}: a full disk or quota, a file size limit or a failing drive)"
                )
                .unwritten(retry=True)
                .because("store.io", path=self.health.location, detail=driver_message(e))
            )
        if kind == "corrupt":
            self.health.set_problem(
                "degraded",
                Problem(
                    "damaged",
                    f"{self.health.location} is damaged ({driver_message(e)})",
                    {"location": self.health.location, "detail": driver_message(e)},
                ),
            )
            return self._unavailable(self.health.reason or "")
        if kind == "integrity":
            return Conflict(f"write refused by the database: {driver_message(e)}")
        return StoreUnavailable(f"memory store error: {driver_message(e)}")

    # --- the design doc's MemoryStore -----------------------------------------------

    def append_message(
        self, message: MemoryMessage, *, after_latest: bool = False
    ) -> MemoryMessage:
        """Append one raw message; ``after_latest`` makes its parent the session's newest
        message, read in the same transaction (so two writers never fork the log)."""
        with self.write() as w:
            if after_latest:
                parent = w.latest_message_id(message.session_id)
                message = message.model_copy(update={"parent_id": parent})
            w.insert_message(message)
        return message

    def list_recent_messages(self, *, session_id: str, limit: int) -> list[MemoryMessage]:
        """The session's last ``limit`` messages, oldest first."""
        with self.read() as r:
            return r.list_recent_messages(session_id, limit)

    def append_summary(self, summary: MemorySummary) -> None:
        """Append a summary to its session's chain; its parent must be a link of that chain."""
        parent = summary.parent_summary_id
        with self.write() as w:
            if parent is not None and w.summary_session(parent) != summary.session_id:
                raise InvalidInput(
                    f"parentSummaryId {parent} is not a summary of session {summary.session_id}"
                )
            w.insert_summary(summary)

    def get_latest_summary(self, *, session_id: str) -> MemorySummary | None:
        """The session's newest summary."""
        with self.read() as r:
            return r.get_latest_summary(session_id)

    def upsert_node(
        self, node: MemoryNode, *, actor: str = "system", reason: str = "upsert"
    ) -> None:
        """Insert a node, or rewrite the row with the same id; audited either way."""
        with self.write() as w:
            if w.get_node(node.id) is None:
                w.insert_nodes([node])
                w.add_audit(
                    "create",
                    actor=actor,
                    reason=reason,
                    node=node,
                    payload={"node": written(node)},
                )
            else:
                w.replace_node(node)
                w.add_audit(
                    "update",
                    actor=actor,
                    reason=reason,
                    node=node,
                    payload={"node": written(node)},
                )

    def supersede_node(
        self,
        *,
        old_node_id: str,
        new_node: MemoryNode,
        actor: str = "system",
        reason: str = "supersede",
    ) -> None:
        """Mark the old node superseded and insert the new one pointing to it, atomically."""
        with self.write() as w:
            old = w.get_node(old_node_id)
            if old is None:
                raise NotFound(f"no memory {old_node_id}")
            if old.status != "active":
                raise Conflict(
                    f"memory {old_node_id} is {old.status}, not active; supersede its head"
                )
            supersede_in(w, old, new_node, actor=actor, reason=reason)

    def delete_node(
        self, *, node_id: str, mode: Literal["soft", "hard"], reason: str, actor: str = "system"
    ) -> bool:
        """Soft delete (status deleted) or hard delete (row, index, usage gone); False if absent."""
        with self.write() as w:
            node = w.get_node(node_id)
            if node is None:
                return False
            delete_in(w, node, mode=mode, actor=actor, reason=reason)
        if mode == "hard":
            self.scrub()
        return True

    def list_active_nodes(
        self,
        *,
        limit: int,
        user_id: str | None = None,
        session_id: str | None = None,
        workspace_id: str | None = None,
        domain: str | None = None,
        category_path: Sequence[str] | None = None,
        types: Sequence[str] | None = None,
        now: datetime | None = None,
    ) -> list[MemoryNode]:
        """Active, unexpired nodes by the design doc's order (importance, confidence, recency)."""
        f = NodeFilter(
            user_id=user_id,
            session_id=session_id,
            workspace_id=workspace_id,
            domain=domain,
            category_prefix=category_path,
            types=types,
            live_at=now or utcnow(),
        )
        with self.read() as r:
            return r.find_nodes(f, limit=limit)

    def search_nodes(
        self,
        *,
        query: str,
        limit: int,
        user_id: str | None = None,
        session_id: str | None = None,
        workspace_id: str | None = None,
        domain: str | None = None,
        tags: Sequence[str] | None = None,
        now: datetime | None = None,
    ) -> list[MemoryNode]:
        """Full-text search over active, unexpired nodes (Chinese words included)."""
        f = NodeFilter(
            user_id=user_id,
            session_id=session_id,
            workspace_id=workspace_id,
            domain=domain,
            tags=tags,
            live_at=now or utcnow(),
        )
        with self.read() as r:
            return [hit.node for hit in r.search_nodes(query, f, limit=limit)]

    # --- housekeeping ---------------------------------------------------------------

    def files(self) -> list[Path]:
        """The files that hold this store's bytes (none for an in-memory or server database)."""
        return self.dialect.storage_files()

    def backups(self) -> list[Path]:
        """Migration backups of this store, oldest first."""
        return self.dialect.backup_files()

    def compact(self) -> Compaction:
        """Give the space of deleted records back: SQLite merges the search index, VACUUMs
        and truncates the write-ahead log; PostgreSQL runs VACUUM (FULL, ANALYZE).

        Nothing is read or changed but the layout. Raises StoreUnavailable when it could
        not run (a lock held by another program, a full disk): the store is as it was.
        """
        self._require(write=True)
        files_before = _file_sizes(self.files())
        with self.raw() as raw:
            before = self.dialect.storage_bytes(raw)
            ran, warnings = self.dialect.compact(raw)
            after = self.dialect.storage_bytes(raw)
        files_after = _file_sizes(self.files())
        files = [
            (path, files_before.get(path, 0), files_after.get(path, 0))
            for path in sorted({*files_before, *files_after})
        ]
        return Compaction(ran, warnings, before, after, files)

    def optimize_search_index(self) -> None:
        """Merge the full-text index into one segment, dropping deleted entries (~0.1 s at
        50k nodes). After a bulk load this spares the next writes the load's pending
        merges (one write paid ~160 ms for them at 100k nodes)."""
        with self.write() as w:
            self.dialect.compact_search_index(w.conn)

    def scrub(self, *, vacuum: bool = False) -> list[str]:
        """After a hard delete: drop deleted index entries and the WAL's old pages (and VACUUM).

        Returns warnings (a checkpoint blocked by a reader leaves old pages in the WAL
        until the next one).
        """
        warnings: list[str] = []
        self.optimize_search_index()
        with self.raw() as raw:
            if vacuum and not self.dialect.checkpoint_vacuums:
                self.dialect.vacuum(raw)
            if not self.dialect.checkpoint(raw):
                warnings.append(self.dialect.checkpoint_warning)
        return warnings
