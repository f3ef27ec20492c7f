"""One database (a SQLite file, an in-memory database, or a PostgreSQL schema) opened
safely, with the design doc's store operations.

Opening never raises: a directory where the file should be, a corrupt or foreign
file, a read-only file, an unreachable server, a newer schema or a failed migration
each give a store whose ``health`` says what is wrong (disabled or read-only) and the
agent goes on.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from sqlalchemy import Engine, exc
from sqlalchemy.engine import Connection, RootTransaction

from ekko_memory.errors import Conflict, EkkoMemoryError, InvalidInput, NotFound, StoreUnavailable
from ekko_memory.models import MemoryMessage, MemoryNode, MemorySummary, PendingItem
from ekko_memory.store import migrations, postgres_dialect, sqlite_dialect
from ekko_memory.store.dialect import Dialect
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.postgres_dialect import PostgresDialect
from ekko_memory.store.problem import Problem, ReasonCode
from ekko_memory.store.reader import StoreReader
from ekko_memory.store.sqlite_dialect import SqliteDialect, make_engine
from ekko_memory.store.thread_pins import Pin, ThreadPins
from ekko_memory.store.writer import StoreWriter, written
from ekko_memory.timeutil import utcnow

HealthStatus = Literal["ok", "readonly", "degraded", "disabled"]
T = TypeVar("T")
# Results a frozen store remembers (per question; a question is a few hundred bytes).
FROZEN_MEMO_ENTRIES = 1024
# How often a store disabled for a passing reason (its server down, its file locked at
# open) tries to open again, in the background.
REOPEN_EVERY_S = 5.0


@dataclass
class StoreHealth:
    """Whether a store can be read and written, and if not, why and how to fix it."""

    status: HealthStatus
    location: str
    reason: str | None = None
    schema_version: int | None = None
    backup: Path | None = None
    warnings: list[str] = field(default_factory=list)
    # The kind of problem ``reason`` words and the specifics it names (see
    # ``store.problem``): for an interface that says it in the user's language.
    reason_code: ReasonCode | None = None
    reason_args: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        status: HealthStatus,
        location: str,
        problem: Problem,
        schema_version: int | None = None,
    ) -> StoreHealth:
        """A store's health with ``problem`` as its reason (its sentence, code and specifics)."""
        return cls(
            status,
            location,
            problem.text,
            schema_version,
            reason_code=problem.code,
            reason_args=dict(problem.args),
        )

    def set_problem(self, status: HealthStatus, problem: Problem) -> None:
        """The store turned ``status`` for ``problem`` (found while it was in use)."""
        self.status = status
        self.reason = problem.text
        self.reason_code = problem.code
        self.reason_args = dict(problem.args)

    @property
    def readable(self) -> bool:
        """Reads are possible (ok, read-only or degraded)."""
        return self.status != "disabled"

    @property
    def writable(self) -> bool:
        """Writes are possible."""
        return self.status == "ok"


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


def mounted_read_only(folder: Path) -> bool:
    """The folder lies on a file system mounted read-only (no permission would help)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): say what the permissions say
        return False


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

    # --- opening --------------------------------------------------------------------

    @classmethod
    def open_sqlite(cls, path: Path) -> SqlStore:
        """Open (creating and migrating) the SQLite file at ``path``; never raises."""
        path = Path(path)
        location = str(path)
        dialect = SqliteDialect(path)

        def disabled(code: ReasonCode, reason: str, **args: str) -> SqlStore:
            problem = Problem(code, reason, {"path": location, **args})
            return cls(None, dialect, StoreHealth.of("disabled", location, problem))

        if path.is_dir():
            return disabled(
                "directory", f"{path} is a directory, not a database file; move it away"
            )
        try:
            if not path.parent.exists():
                # The folder holds private data: only its owner may list or read it.
                path.parent.mkdir(parents=True, mode=0o700, exist_ok=True)
        except OSError as e:
            detail = str(e.strerror or e)
            return disabled(
                "folder_uncreatable",
                f"cannot create {path.parent}: {detail}",
                path=str(path.parent),
                detail=detail,
            )
        exists = path.exists()
        if (exists and not os.access(path, os.W_OK)) or not os.access(path.parent, os.W_OK):
            mounted = mounted_read_only(path.parent)
            if not exists:
                return disabled(
                    "folder_on_read_only_mount" if mounted else "folder_not_writable",
                    f"{path.parent} is on a file system mounted read-only and holds no database yet"
                    if mounted
                    else f"{path.parent} is not writable and holds no database yet",
                    path=str(path.parent),
                )
            return cls._open_read_only(path, dialect, mounted=mounted)
        engine = make_engine(path)
        try:
            report = migrations.migrate(engine, dialect)
            cls._probe(engine)
        except migrations.MigrationError as e:
            engine.dispose()
            return cls(None, dialect, StoreHealth.of("disabled", location, e.problem))
        except _db_errors(dialect) as e:
            engine.dispose()
            kind = dialect.classify_error(e)
            if kind == "busy":
                seconds = f"{sqlite_dialect.BUSY_TIMEOUT_MS / 1000:g}"
                return disabled(
                    "locked",
                    f"{path} is locked by another program, which kept it for"
                    f" {seconds} s; close that program (or wait) and open it again",
                    seconds=seconds,
                )._reopenable(lambda: cls.open_sqlite(path))
            if kind == "io":
                return disabled(
                    "io",
                    f"{path} could not be read or written ({_orig(e)}: a full disk or quota,"
                    " a file size limit or a failing drive); free some space and open it again",
                    detail=_orig(e),
                )._reopenable(lambda: cls.open_sqlite(path))
            return disabled(
                "not_a_database",
                f"{path} is not a readable Ekko Memory database ({_orig(e)})",
                detail=_orig(e),
            )
        dialect.pin_file()
        # The file holds private data: readable by its owner only (SQLite creates it, and its
        # -wal and -shm files, with the process umask).
        for private in (
            path,
            path.with_name(path.name + "-wal"),
            path.with_name(path.name + "-shm"),
        ):
            try:
                if private.exists() and private.stat().st_mode & 0o077:
                    private.chmod(0o600)
            except OSError:
                pass
        store = cls(
            engine, dialect, StoreHealth("ok", location, None, report.to_version, report.backup)
        )
        store._analyze_if_needed(report)
        return store

    @classmethod
    def _open_read_only(cls, path: Path, dialect: SqliteDialect, *, mounted: bool) -> SqlStore:
        location = str(path)
        last_error = ""
        for mode in ("ro", "immutable"):
            engine = make_engine(path, mode=mode)  # type: ignore[arg-type]
            try:
                with engine.connect() as conn:
                    version = migrations.current_version(conn)
                    conn.exec_driver_sql("SELECT count(*) FROM memory_nodes").scalar()
            except _db_errors(dialect) as e:
                engine.dispose()
                last_error = _orig(e)
                continue
            latest = migrations.latest_version()
            if version != latest:
                engine.dispose()
                needs_upgrade = Problem(
                    "readonly_needs_upgrade",
                    f"{path} is read-only and has schema version {version}, but this release "
                    f"needs {latest}; make it writable to upgrade it",
                    {"path": location, "version": str(version), "latest": str(latest)},
                )
                return cls(None, dialect, StoreHealth.of("disabled", location, needs_upgrade))
            dialect.pin_file()
            read_only = (
                Problem(
                    "read_only_mount",
                    f"{path} is on a file system mounted read-only: memories can be read but"
                    " not changed (mount it read-write to write)",
                    {"path": location},
                )
                if mounted
                else Problem(
                    "read_only_file",
                    f"{path} is read-only: memories can be read but not changed "
                    "(fix the file's permissions to write)",
                    {"path": location},
                )
            )
            return cls(engine, dialect, StoreHealth.of("readonly", location, read_only, version))
        unreadable = Problem(
            "read_only_unreadable",
            f"{path} is read-only and cannot be opened ({last_error})",
            {"path": location, "detail": last_error},
        )
        return cls(None, dialect, StoreHealth.of("disabled", location, unreadable))

    @classmethod
    def open_in_memory(cls) -> SqlStore:
        """A private in-memory store (tests, read-only seed data)."""
        dialect = SqliteDialect(None)
        engine = make_engine(None)
        report = migrations.migrate(engine, dialect)
        store = cls(engine, dialect, StoreHealth("ok", ":memory:", None, report.to_version))
        store._serial = threading.RLock()
        return store

    @classmethod
    def open_postgres(cls, url: str, *, schema: str) -> SqlStore:
        """Open (creating and migrating) the store in ``schema`` of the PostgreSQL database at
        ``url``; never raises: an unreachable server or a refused migration disables it."""
        try:
            url = postgres_dialect.normalize_url(url)
            dialect = PostgresDialect(url, schema)
        except ValueError as e:
            bad_url = Problem("bad_url", str(e), {"detail": str(e)})
            return cls(None, _NoDialect(), StoreHealth.of("disabled", "postgresql", bad_url))
        location = dialect.location

        def disabled(problem: Problem) -> SqlStore:
            return cls(None, dialect, StoreHealth.of("disabled", location, problem))

        try:
            engine = postgres_dialect.make_engine(url, schema)
        except ImportError:
            return disabled(
                Problem(
                    "no_driver",
                    "PostgreSQL support needs psycopg: pip install 'ekko-memory[postgres]'",
                )
            )
        try:
            with engine.connect() as conn:
                problem = dialect.server_problem(conn)
                read_only = dialect.is_read_only(conn)
            if problem is not None:
                engine.dispose()
                return disabled(problem)
            if read_only:
                return cls._open_server_read_only(engine, dialect)
            report = migrations.migrate(engine, dialect)
            cls._probe(engine)
        except migrations.MigrationError as e:
            engine.dispose()
            return disabled(e.problem)
        except exc.DBAPIError as e:
            engine.dispose()
            store = disabled(dialect.describe_error(e))
            if dialect.classify_error(e) in ("unreachable", "busy"):
                # The server may be starting, or restarting: try again (see ``health``).
                store._reopenable(lambda: cls.open_postgres(url, schema=schema))
            return store
        store = cls(
            engine, dialect, StoreHealth("ok", location, None, report.to_version, report.backup)
        )
        store._analyze_if_needed(report)
        return store

    @classmethod
    def _open_server_read_only(cls, engine: Engine, dialect: PostgresDialect) -> SqlStore:
        location = dialect.location
        with engine.connect() as conn:
            version = migrations.current_version(conn)
        latest = migrations.latest_version()
        if version != latest:
            engine.dispose()
            needs_upgrade = Problem(
                "server_readonly_needs_upgrade",
                f"the server is read-only (a standby?) and the store has schema version "
                f"{version}, but this release needs {latest}",
                {"version": str(version), "latest": str(latest)},
            )
            return cls(None, dialect, StoreHealth.of("disabled", location, needs_upgrade))
        read_only = Problem(
            "server_read_only",
            "the server is read-only (a standby?): memories can be read but not changed",
        )
        return cls(engine, dialect, StoreHealth.of("readonly", location, read_only, version))

    @staticmethod
    def _probe(engine: Engine) -> None:
        # Touch every table once so a truncated or foreign file is caught at open.
        with engine.connect() as conn:
            for table in ("memory_nodes", "memory_messages", "memory_audit_events"):
                conn.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar()

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
                f"memory store at {self.health.location} is {self.health.status}: {self.health.reason}"
            )
        return self.engine

    def _unavailable(self, message: str) -> StoreUnavailable:
        """A refusal for the reason the store's health gives, with its code attached."""
        error = StoreUnavailable(message)
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

    def read(self) -> _Transaction[StoreReader]:
        """A read transaction (one consistent snapshot): ``with store.read() as r: ...``."""
        return _Transaction(self, StoreReader, write=False)

    def snapshot(self) -> _Snapshot | _Transaction[StoreReader]:
        """As ``read``, for the hot path (a turn's context, a search): on a SQLite file, on
        a connection this thread keeps between reads (``thread_pins``), begun and ended
        on the driver; elsewhere, exactly ``read``."""
        if self._serial is None and self.dialect.pins_reads:
            return _Snapshot(self)
        return self.read()

    def write(self) -> _Transaction[StoreWriter]:
        """A write transaction: commits when the block ends, rolls back on any exception."""
        return _Transaction(self, StoreWriter, write=True)

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
        except _db_errors(self.dialect) as e:
            raise self._translated(e) from e

    def _translated(self, e: BaseException) -> EkkoMemoryError:
        """What a driver error means to the caller (and to the store's health)."""
        kind = self.dialect.classify_error(e)
        if kind == "busy":
            return StoreUnavailable(
                f"memory store at {self.health.location} stayed locked by another process; "
                "nothing was written, try again"
            )
        if kind == "unreachable":
            # Not a lasting state: the pool reconnects once the server is back.
            return StoreUnavailable(
                f"memory store at {self.health.location} cannot be reached ({_orig(e)}); "
                "nothing was written, try again"
            )
        if kind == "readonly":
            self.health.set_problem(
                "readonly",
                Problem(
                    "became_read_only",
                    f"{self.health.location} became read-only ({_orig(e)})",
                    {"location": self.health.location, "detail": _orig(e)},
                ),
            )
            return self._unavailable(f"{self.health.reason}; nothing was written")
        if kind == "io":
            # Not a lasting state (the file itself passed its checks): try again later.
            return StoreUnavailable(
                f"memory store at {self.health.location} could not read or write its file"
                f" ({_orig(e)}: a full disk or quota, a file size limit or a failing drive);"
                " nothing was written, try again"
            )
        if kind == "corrupt":
            self.health.set_problem(
                "degraded",
                Problem(
                    "damaged",
                    f"{self.health.location} is damaged ({_orig(e)})",
                    {"location": self.health.location, "detail": _orig(e)},
                ),
            )
            return self._unavailable(self.health.reason or "")
        if kind == "integrity":
            return Conflict(f"write refused by the database: {_orig(e)}")
        return StoreUnavailable(f"memory store error: {_orig(e)}")

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


def user_text_in_file(path: Path, texts: Sequence[str]) -> list[int] | None:
    """Rows holding each text where user text lives (``StoreReader.user_text_occurrences``)
    in a SQLite file opened as it is (a migration backup: never migrated, never written);
    None when it cannot be read as a database of ours (a copy cut short, say)."""
    engine = make_engine(path, mode="immutable")
    dialect = SqliteDialect(None)
    try:
        with engine.connect() as conn:
            reader = StoreReader(conn, dialect)
            return [sum(reader.user_text_occurrences(t).values()) for t in texts]
    except _db_errors(dialect):
        return None
    finally:
        engine.dispose()


def supersede_in(
    w: StoreWriter, old: MemoryNode, new: MemoryNode, *, actor: str, reason: str
) -> None:
    """Inside a write transaction: old → superseded, new inserted with ``supersedesId``, both audited."""
    if new.supersedes_id != old.id:
        new = new.model_copy(update={"supersedes_id": old.id})
    w.set_node_status(old.id, "superseded", new.created_at)
    w.insert_nodes([new])
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

R = TypeVar("R", bound=StoreReader)


class _Transaction(Generic[R]):
    """One transaction on a pooled connection, as a plain context manager.

    Not a generator-based ``contextmanager``: this is on every read and write, and the
    generator machinery plus a nested error-translating context cost ~10 µs of the
    ~40 µs a write transaction spent outside SQLite (measured, empty transactions).
    """

    __slots__ = ("_conn", "_held", "_opened", "_store", "_txn", "_view", "_write")

    def __init__(self, store: SqlStore, view: type[R], *, write: bool) -> None:
        self._store = store
        self._view = view
        self._write = write
        self._conn: Connection | None = None
        self._txn: RootTransaction | None = None
        self._held = False
        self._opened: R | None = None

    def __enter__(self) -> R:
        store = self._store
        engine = store._require(write=self._write)
        dialect = store.dialect
        if store._serial is not None:
            store._serial.acquire()
            self._held = True
        try:
            options = dialect.write_options if self._write else dialect.read_options
            self._conn = conn = engine.connect()
            if options:
                conn.execution_options(**options)
            self._txn = conn.begin()
        except EkkoMemoryError:
            self._close()
            raise
        except _db_errors(dialect) as e:
            self._close()
            raise store._translated(e) from e
        view = self._view(conn, dialect)
        if self._write:
            self._opened = view  # type: ignore[assignment]
        return view  # type: ignore[return-value]

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: Any
    ) -> None:
        store = self._store
        txn = self._txn
        try:
            if error is None:
                assert txn is not None
                txn.commit()
            elif txn is not None and txn.is_active:
                txn.rollback()
        except _db_errors(store.dialect) as e:
            self._close()
            if error is None:
                raise store._translated(e) from e
            # The rollback failed too: report the body's error, translated below.
        else:
            self._close()
        if error is None:
            if self._write:
                store.dialect.committed()
                written = getattr(self._opened, "written_node_ids", None)
                self._opened = None
                if written and store.write_listeners:
                    store.tell_written(written)
            return
        self._opened = None
        _raise_as_store_error(store, error)

    def _close(self) -> None:
        conn, self._conn, self._txn = self._conn, None, None
        try:
            if conn is not None:
                try:
                    conn.close()
                except _db_errors(self._store.dialect):
                    pass  # a dead connection: the pool drops it
        finally:
            if self._held:
                self._held = False
                assert self._store._serial is not None
                self._store._serial.release()


class _Snapshot:
    """A read transaction on the calling thread's pinned connection (``thread_pins``),
    begun and ended with a bare BEGIN/ROLLBACK (a read keeps nothing); through the pool
    when the thread's pin is busy (a nested read). Errors mean what they mean in
    ``_Transaction``."""

    __slots__ = ("_inner", "_pin", "_store")

    def __init__(self, store: SqlStore) -> None:
        self._store = store
        self._pin: Pin | None = None
        self._inner: _Transaction[StoreReader] | None = None

    def __enter__(self) -> StoreReader:
        store = self._store
        engine = store._require(write=False)
        try:
            pin = store._pins.take(engine)
        except _db_errors(store.dialect) as e:
            raise store._translated(e) from e
        if pin is None:
            self._inner = inner = _Transaction(store, StoreReader, write=False)
            return inner.__enter__()
        try:
            pin.driver.execute("BEGIN")
        except _db_errors(store.dialect) as e:
            store._pins.give_back(pin, broken=True)
            raise store._translated(e) from e
        pin.snapshot_open = True
        self._pin = pin
        return StoreReader(pin.conn, store.dialect)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: Any
    ) -> None:
        if self._inner is not None:
            self._inner.__exit__(kind, error, tb)
            return
        store, pin = self._store, self._pin
        assert pin is not None
        self._pin = None
        pin.snapshot_open = False
        broken = False
        try:
            if pin.conn.in_transaction():
                # A query went through SQLAlchemy, which then counts the driver's
                # transaction as its own: end it there, so both agree it is over.
                pin.conn.rollback()
            elif pin.driver.in_transaction:
                pin.driver.execute("ROLLBACK")
        except _db_errors(store.dialect) as e:
            broken = True
            if error is None:
                store._pins.give_back(pin, broken=True)
                raise store._translated(e) from e
        store._pins.give_back(pin, broken=broken)
        if error is not None:
            _raise_as_store_error(store, error)


def _raise_as_store_error(store: SqlStore, error: BaseException) -> None:
    """Raise what a transaction body's ``error`` means to callers (a driver error as the
    store's own); return for any other error, which propagates as it is."""
    if isinstance(error, _db_errors(store.dialect)) and not isinstance(error, EkkoMemoryError):
        raise store._translated(error) from error
    if isinstance(error, UnicodeEncodeError):
        # A lone surrogate in an id or a filter (the driver cannot encode it as UTF-8).
        raise InvalidInput(
            f"text with a lone surrogate ({error.object[error.start : error.end]!r})"
            " cannot be stored or looked up"
        ) from error


def _db_errors(dialect: Dialect) -> tuple[type[BaseException], ...]:
    """SQLAlchemy's wrapped driver errors plus those the dialect's driver raises bare."""
    return (exc.DBAPIError, *dialect.driver_errors)


def _orig(e: BaseException) -> str:
    return " ".join(str(getattr(e, "orig", None) or e).split())


class _NoDialect(SqliteDialect):
    """The dialect of a store that never opened (its URL was unusable): nothing to release."""

    def __init__(self) -> None:
        super().__init__(None)
