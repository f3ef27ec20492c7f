"""Everything SQLite-specific: connection settings, transaction begin modes, FTS5.

The rest of the store speaks portable SQLAlchemy Core; a PostgreSQL backend
replaces this module, not the store.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Literal
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection
from sqlalchemy.pool import QueuePool, StaticPool

from ekko_memory.store.change_counter import ChangeCounter
from ekko_memory.store.count_cache import TERM_COUNTS_FROM, TOPIC_TTL_SECONDS, CountCache
from ekko_memory.store.dialect import ErrorKind
from ekko_memory.store.search_text import QueryTerm, fts5_match_expression, index_tokens
from ekko_memory.store.thread_pins import PIN_INFO
from ekko_memory.store.wal_checkpointer import SAFETY_NET_PAGES, WalCheckpointer
from ekko_memory.timeutil import to_db, utcnow

BUSY_TIMEOUT_MS = 10_000
# Each connection's page cache (negative: KiB), and a bulk insert's while it runs.
CACHE_KIB = -16000
BULK_CACHE_KIB = -65536
BULK_ROWS = 500
# The log's size at which a bulk insert's commit checkpoints by itself (4 KiB pages: 256 MB;
# the background checkpoint, woken by each bulk commit, runs long before).
BULK_SAFETY_NET_PAGES = 65_536
# Connections a file store keeps open between uses (more are opened when threads need them).
POOL_SIZE = 8
# Term statistics for keyword search, per connection (a view of the index; stores nothing).
VOCAB_TABLE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_nodes_vocab"
    " USING fts5vocab(main, memory_nodes_fts, 'row')"
)
# bm25 weights: title, content, tags, entities.
BM25 = "bm25(memory_nodes_fts, 6.0, 1.0, 3.0, 3.0)"
# The same as FTS5's rank function (``rank MATCH``): a join ordered by it is driven by the
# index in rank order and stops at its limit.
BM25_RANK = "bm25(6.0, 1.0, 3.0, 3.0)"


def file_uri(path: Path) -> str:
    """The ``file:`` URI of a database path (any character in the name is safe).

    Quoted from the path's bytes as the system names it: a folder name that is not
    UTF-8 (GBK from an old archive, say) reaches Python with surrogate escapes, which
    no text encoding takes — opening such a workspace raised UnicodeEncodeError.
    """
    return "file:" + quote(os.fsencode(path.as_posix()))


def make_engine(path: Path | None, *, mode: Literal["rw", "ro", "immutable"] = "rw") -> Engine:
    """An engine for the file at ``path`` (``None``: a private in-memory database).

    Every connection gets WAL, a busy timeout, foreign keys, synchronous=NORMAL and
    secure_delete; transactions begin explicitly so writers take the lock up front
    (``BEGIN IMMEDIATE``) instead of failing on a lock upgrade.
    """
    if path is None:
        engine = create_engine(
            "sqlite+pysqlite://",
            connect_args={"check_same_thread": False},
            poolclass=StaticPool,
        )
    else:
        suffix = {"rw": "", "ro": "?mode=ro", "immutable": "?immutable=1"}[mode]
        uri = file_uri(path) + suffix

        def connect() -> sqlite3.Connection:
            return sqlite3.connect(
                uri, uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
            )

        # A pool shared by all threads, never blocking. (The URL names no file, so
        # SQLAlchemy would pick its in-memory pool, one connection per thread: past five
        # threads it closed other threads' connections under them — a segfault.)
        engine = create_engine(
            "sqlite+pysqlite://",
            creator=connect,
            poolclass=QueuePool,
            pool_size=POOL_SIZE,
            max_overflow=-1,
        )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
        # Autocommit at the driver level; we issue BEGIN ourselves (see _on_begin).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.execute("PRAGMA secure_delete = ON")
        cur.execute("PRAGMA temp_store = MEMORY")
        cur.execute(f"PRAGMA cache_size = {CACHE_KIB}")
        cur.execute(VOCAB_TABLE)
        if mode == "rw":
            cur.execute("PRAGMA journal_mode = WAL")
            cur.execute("PRAGMA synchronous = NORMAL")
            # Checkpoints run on the store's WalCheckpointer thread; this is the safety net.
            cur.execute(f"PRAGMA wal_autocheckpoint = {SAFETY_NET_PAGES}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        # Straight on the driver: SQLAlchemy's statement path cost more than BEGIN itself.
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        if dbapi.in_transaction:
            pin = conn.info.get(PIN_INFO)
            if pin is not None and pin.snapshot_open:
                # A query through SQLAlchemy inside a snapshot read: begun on the driver.
                return
        dbapi.execute(f"BEGIN {mode}")

    return engine


# ``<stem>-v<schema version>-<UTC time, fixed width>.db``, as ``backup`` names them.
_BACKUP_NAME = re.compile(r"-v(\d+)-(\d{4}-\d\d-\d\dT\d{12}Z)\.db$")


# A backup being copied: ``<backup name>.<pid>.part`` (and its rollback journal).
_PARTIAL_NAME = re.compile(r"\.db\.(\d+)\.part(?:-journal)?$")


def _process_alive(pid: int) -> bool:
    """Whether a process with this id runs (one of another user's counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


@lru_cache(maxsize=64)
def _vocab_count_sql(terms: int) -> tuple[str, tuple[str, ...]]:
    """The statement counting ``terms`` terms in the vocabulary, and its parameter names
    (every turn counts a message's words: built once per number of words)."""
    names = tuple(f"t{i}" for i in range(terms))
    marks = ", ".join(f":{name}" for name in names)
    return (
        f"SELECT term, min(doc, :cap) FROM temp.memory_nodes_vocab WHERE term IN ({marks})",
        names,
    )


def _file_identity(path: Path | str) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``; None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _backup_age(path: Path) -> tuple[str, int, str]:
    """Sort key of a backup: when it was taken, then its schema version (a file named
    otherwise sorts first)."""
    found = _BACKUP_NAME.search(path.name)
    if found is None:
        return ("", -1, path.name)
    return (found.group(2), int(found.group(1)), path.name)


class SqliteDialect:
    """SQLite specifics used by the store: FTS5 over shadow tokens, WAL housekeeping."""

    name = "sqlite"
    keep_backups = 3
    # Writers take the write lock at BEGIN, so two processes never deadlock on an upgrade.
    write_options: ClassVar[dict[str, Any]] = {"sqlite_begin": "IMMEDIATE"}
    exclusive_options: ClassVar[dict[str, Any]] = {"sqlite_begin": "EXCLUSIVE"}
    # A deferred read transaction is already one snapshot.
    read_options: ClassVar[dict[str, Any]] = {}
    pins_reads: ClassVar[bool] = True
    # sqlite3 raises some errors (a file that is not a database) outside SQLAlchemy's wrapping.
    driver_errors: ClassVar[tuple[type[BaseException], ...]] = (sqlite3.DatabaseError,)
    checkpoint_vacuums: ClassVar[bool] = False
    checkpoint_warning: ClassVar[str] = (
        "another process is reading the store; deleted pages leave the "
        "write-ahead log at its next checkpoint"
    )

    def __init__(self, path: Path | None) -> None:
        self.path = path
        # (device, inode) of the file the store opened (``pin_file``), and its path as
        # text (stat'ed before every transaction: no conversion each time).
        self._pinned: tuple[int, int] | None = None
        self._path_text = ""
        self.checkpointer = WalCheckpointer(file_uri(path)) if path is not None else None
        self.changes = ChangeCounter(file_uri(path)) if path is not None else None
        # A bulk insert left its log to the background checkpoint (``bulk_write``).
        self._bulk_committing = False
        self.term_cache = CountCache[str](cache_from=TERM_COUNTS_FROM)
        self.topic_sizes = CountCache[Hashable](ttl=TOPIC_TTL_SECONDS)

    def pin_file(self) -> None:
        """Remember which file the path names now: the one the store's connections hold."""
        if self.path is not None:
            self._path_text = os.fspath(self.path)
            self._pinned = _file_identity(self._path_text)

    def file_problem(self) -> str | None:
        """Why the path no longer names the file the store opened, or None.

        SQLite keeps writing to the file it opened, through its descriptors: deleted (the
        workspace folder removed) or replaced by another file (a copy restored over it),
        every write after would go to a file nobody can open again, and be lost at close
        without an error. A stat (~1 µs) before each transaction catches it.
        """
        if self._pinned is None or self.path is None:
            return None
        if _file_identity(self._path_text) == self._pinned:
            return None
        return (
            f"{self.path} was deleted, moved or replaced by another program while it was open;"
            " nothing more is read from or written to the file that was there:"
            " open the store again"
        )

    def committed(self) -> None:
        """A write transaction committed (counts toward the next background checkpoint;
        a bulk insert's wakes it at once)."""
        if self.checkpointer is not None:
            heavy, self._bulk_committing = self._bulk_committing, False
            self.checkpointer.committed(now=heavy)

    def backup(self, version: int) -> Path | None:
        """A consistent copy (SQLite's online backup) in ``backups/`` beside the file, user-only."""
        if self.path is None:
            return None
        folder = self.path.parent / "backups"
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._drop_copies_cut_short(folder)
        stamp = (to_db(utcnow()) or "").replace(":", "").replace(".", "")
        target = folder / f"{self.path.stem}-v{version}-{stamp}.db"
        # Copied under another name and renamed when whole: a copy cut short by a killed
        # process was left looking like a backup (one that restores nothing).
        partial = folder / f"{target.name}.{os.getpid()}.part"
        # Owner-only from its first byte: a copy cut short (a full disk, a killed process)
        # holds private data too.
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            src = sqlite3.connect(f"{file_uri(self.path)}?mode=ro", uri=True)
            try:
                dst = sqlite3.connect(partial)
                try:
                    src.backup(dst)
                finally:
                    dst.close()
            finally:
                src.close()
            os.replace(partial, target)
        except BaseException:
            # Half a copy restores nothing (its rollback journal neither).
            for part in (partial, partial.with_name(partial.name + "-journal")):
                part.unlink(missing_ok=True)
            raise
        # Only backups named as above rotate: a file someone else put here is left alone.
        ours = [p for p in self.backup_files() if _BACKUP_NAME.search(p.name)]
        for stale in ours[: -self.keep_backups]:
            stale.unlink(missing_ok=True)
        return target

    def _drop_copies_cut_short(self, folder: Path) -> None:
        """Remove the partial copies of backups whose process died copying (killed):
        private data that restores nothing. The file was not upgraded then (the copy comes
        first), so the next open copies it again and comes here; a running process's
        copy is left to it."""
        assert self.path is not None
        for part in folder.glob(f"{self.path.stem}-v*.db.*.part*"):
            found = _PARTIAL_NAME.search(part.name)
            if found is None:
                continue
            if _process_alive(int(found.group(1))):
                continue
            part.unlink(missing_ok=True)

    def prepare_schema(self, conn: Connection) -> None:
        """Nothing: the file is the schema."""

    def create_search_index(self, conn: Connection) -> None:
        """Create the FTS5 table over the shadow tokens (rowid = memory_nodes.seq)."""
        conn.exec_driver_sql(
            "CREATE VIRTUAL TABLE IF NOT EXISTS memory_nodes_fts USING fts5("
            "title, content, tags, entities, tokenize = 'unicode61 remove_diacritics 2')"
        )
        # Merge 8 segments at a time instead of 4: a third less work per small write
        # transaction (0.31 -> 0.21 ms measured at 100k nodes), queries unaffected.
        conn.exec_driver_sql(
            "INSERT INTO memory_nodes_fts(memory_nodes_fts, rank) VALUES('automerge', 8)"
        )

    def bound_search_backlog(self, conn: Connection) -> None:
        """Nothing: FTS5 has no pending list searches must scan (its merges are bounded by
        ``automerge``)."""

    def index_node(
        self,
        conn: Connection,
        seq: int,
        title: str,
        content: str,
        tags: list[str],
        entities: list[str],
        *,
        new: bool = False,
    ) -> None:
        """Add or replace one node's row in the full-text index (``new``: nothing to replace)."""
        if not new:
            self.execute(conn, "DELETE FROM memory_nodes_fts WHERE rowid = :seq", {"seq": seq})
        self.execute(
            conn,
            "INSERT INTO memory_nodes_fts (rowid, title, content, tags, entities) "
            "VALUES (:seq, :title, :content, :tags, :entities)",
            {
                "seq": seq,
                "title": index_tokens(title),
                "content": index_tokens(content),
                "tags": index_tokens(" ".join(tags)),
                "entities": index_tokens(" ".join(entities)),
            },
        )

    def index_nodes(
        self,
        conn: Connection,
        items: list[tuple[int, str, str, list[str], list[str]]],
        *,
        new: bool = False,
    ) -> None:
        """Add or replace several nodes' rows in the full-text index in one batch
        (``new``: nothing to replace)."""
        if not items:
            return
        if not new:
            self.execute(
                conn,
                "DELETE FROM memory_nodes_fts WHERE rowid = :seq",
                [{"seq": item[0]} for item in items],
            )
        self.execute(
            conn,
            "INSERT INTO memory_nodes_fts (rowid, title, content, tags, entities) "
            "VALUES (:seq, :title, :content, :tags, :entities)",
            [
                {
                    "seq": seq,
                    "title": index_tokens(title),
                    "content": index_tokens(content),
                    "tags": index_tokens(" ".join(tags)),
                    "entities": index_tokens(" ".join(entities)),
                }
                for seq, title, content, tags, entities in items
            ],
        )

    @contextmanager
    def bulk_write(self, conn: Connection, rows: int) -> Iterator[None]:
        """Around a bulk insert of ``rows`` nodes: a page cache wide enough for the
        indexes' pages the batch touches. At 100k nodes the 16 MB cache held too few of
        them: each 2000-node batch read and wrote the same index pages again (2.4k
        nodes/s in the last batches against 8k in the first).

        On the thread's kept connection (``PinnedWrite``) the settings stay wide for the
        batches that follow, so they find the pages the last one read (the thread's next
        read takes a new connection: ``Pin.retire``), and the commit leaves the log to the
        background checkpoint instead of copying it into the file itself: a 2000-node
        batch at 100k writes thousands of index pages, past the writers' own threshold
        every time."""
        if rows < BULK_ROWS:
            yield
            return
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        pin = conn.info.get(PIN_INFO)
        dbapi.execute(f"PRAGMA cache_size = {BULK_CACHE_KIB}")
        if pin is None:
            try:
                yield
            finally:
                # Shrinking drops clean pages only: the batch's dirty ones wait for its commit.
                dbapi.execute(f"PRAGMA cache_size = {CACHE_KIB}")
            return
        dbapi.execute(f"PRAGMA wal_autocheckpoint = {BULK_SAFETY_NET_PAGES}")
        self._bulk_committing = True
        pin.retire = True
        yield

    def unindex_nodes(self, conn: Connection, seqs: list[int]) -> None:
        """Remove nodes from the full-text index."""
        self.execute(
            conn, "DELETE FROM memory_nodes_fts WHERE rowid = :seq", [{"seq": s} for s in seqs]
        )

    def compact_search_index(self, conn: Connection) -> None:
        """Merge FTS segments so deleted entries are physically dropped (after a hard delete)."""
        conn.exec_driver_sql("INSERT INTO memory_nodes_fts(memory_nodes_fts) VALUES('optimize')")

    def search_sql(
        self,
        terms: Sequence[QueryTerm],
        *,
        any_term: bool = False,
        cap: int | None = None,
        ranked: bool = True,
        window: int | None = None,
    ) -> tuple[str, dict[str, Any]] | None:
        """SQL yielding ``(seq, rank)`` for nodes matching the terms (lower rank = better).

        ``cap`` keeps only the best ``cap`` matches before the join with the node table,
        which halves the cost of frequent words; ``window`` ranks only the newest matches
        (FTS5 yields them newest first and stops, so bm25 runs ``window`` times at most).
        Unranked, it yields ``seq`` alone (any ``cap`` matches: enough to count them).
        None when there are no terms.
        """
        if not terms:
            return None
        params: dict[str, Any] = {"fts_query": fts5_match_expression(terms, any_term=any_term)}
        match = "FROM memory_nodes_fts WHERE memory_nodes_fts MATCH :fts_query"
        if not ranked:
            sql = f"SELECT rowid AS seq {match}"
        elif window is not None:
            sql = (
                f"SELECT seq, rank FROM (SELECT rowid AS seq, {BM25} AS rank {match} "
                "ORDER BY rowid DESC LIMIT :fts_window) ORDER BY rank"
            )
            params["fts_window"] = window
        else:
            sql = f"SELECT rowid AS seq, {BM25} AS rank {match}"
            if cap is not None:
                sql += " ORDER BY rank"
        if cap is not None:
            sql += " LIMIT :fts_cap"
            params["fts_cap"] = cap
        return sql, params

    def term_counts(self, conn: Connection, terms: Sequence[str], cap: int) -> dict[str, int]:
        """How many nodes hold each term, from FTS5's vocabulary (a per-connection
        ``fts5vocab`` table). Counting walks a term's postings (~0.3 ms for one in 14k
        nodes), so large counts are cached a while (``term_cache``)."""

        def count(unknown: list[str]) -> dict[str, int]:
            sql, names = _vocab_count_sql(len(unknown))
            params: dict[str, Any] = dict(zip(names, unknown, strict=True))
            params["cap"] = cap
            return dict(self.fetch(conn, sql, params))

        return self.term_cache.counts(terms, count)

    # Maintenance runs on a raw driver connection in autocommit: VACUUM refuses to run in
    # a transaction, a checkpoint cannot pass a read transaction of its own connection, and
    # ANALYZE in an uncommitted transaction is rolled back.

    def checkpoint(self, raw: Any) -> bool:
        """Copy the WAL into the database and truncate it; False if readers kept it busy.

        Waits for this process's background checkpoint, and tries a few times more when
        another process's checkpoint holds the log for a moment (SQLite refuses a second
        checkpoint rather than waiting for it).
        """
        guard = self.checkpointer.running if self.checkpointer is not None else nullcontext()
        for attempt in range(4):
            with guard:
                row = raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if row is not None and row[0] == 0:
                return True
            if attempt < 3:
                time.sleep(0.05 * (attempt + 1))
        return False

    def storage_files(self) -> list[Path]:
        """The files holding the data's bytes: the database and its write-ahead log (and a
        rollback journal if one was left behind). Purge verification reads them raw."""
        if self.path is None:
            return []
        names = (self.path.name, self.path.name + "-wal", self.path.name + "-journal")
        return [p for p in (self.path.with_name(x) for x in names) if p.is_file()]

    def backup_files(self) -> list[Path]:
        """The migration backups of this file, oldest first (by when they were taken, then
        by schema version: by name, memory-v10 came before memory-v2 and the newest backup
        was the first one removed)."""
        if self.path is None:
            return []
        return sorted(
            (self.path.parent / "backups").glob(f"{self.path.stem}-v*.db"), key=_backup_age
        )

    def vacuum(self, raw: Any) -> None:
        """Rebuild the file so freed pages leave it."""
        raw.execute("VACUUM")

    def compact(self, raw: Any) -> tuple[list[str], list[str]]:
        """Merge the full-text index's segments, rebuild the file without its free pages
        (VACUUM: it completes, or leaves the file as it was) and fold the write-ahead log
        back into the file, truncating it. Returns the statements run and warnings (a
        reader in another process can keep the log from being truncated now)."""
        optimize = "INSERT INTO memory_nodes_fts(memory_nodes_fts) VALUES('optimize')"
        raw.execute(optimize)
        self.vacuum(raw)
        ran = [optimize, "VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)"]
        if self.checkpoint(raw):
            return ran, []
        return ran, [
            "another process is reading the store: the write-ahead log could not be truncated "
            "now (it shrinks at a later checkpoint, at the latest when the last program closes "
            "the store)"
        ]

    def storage_bytes(self, raw: Any) -> int | None:
        """The bytes of the files holding the store (database, write-ahead log, journal)."""
        if self.path is None:
            return None
        return sum(p.stat().st_size for p in self.storage_files())

    def analyze(self, raw: Any) -> None:
        """Refresh planner statistics (sampled: a few ms even at 100k rows)."""
        raw.execute("PRAGMA analysis_limit = 1000")
        raw.execute("ANALYZE")

    def has_statistics(self, raw: Any) -> bool:
        """Planner statistics exist."""
        row = raw.execute(
            "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
        ).fetchone()
        return bool(row and row[0])

    def fetch(
        self, conn: Connection, sql: str, params: dict[str, Any], *, reuse_plan: bool = True
    ) -> list[tuple[Any, ...]]:
        """Run portable SQL with ``:name`` parameters straight on the driver (hot paths).

        sqlite3 takes named parameters as they are; skipping SQLAlchemy's statement
        machinery saves ~80 µs a query, more than most of these queries cost. SQLite
        plans without the values either way (``reuse_plan`` changes nothing).
        """
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        return dbapi.execute(sql, params).fetchall()  # type: ignore[no-any-return]

    def execute(
        self, conn: Connection, sql: str, params: dict[str, Any] | list[dict[str, Any]]
    ) -> None:
        """Run a portable write statement (``:name`` parameters) straight on the driver;
        a list of parameter sets runs it once per set."""
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        if isinstance(params, list):
            dbapi.executemany(sql, params)
        else:
            dbapi.execute(sql, params)

    def change_marks(self, conn: Connection) -> tuple[int, ...]:
        """The newest rowid of every growing table plus open pending items: O(1) each."""
        row = conn.exec_driver_sql(
            "SELECT (SELECT max(rowid) FROM memory_audit_events), (SELECT max(rowid) FROM memory_messages),"
            " (SELECT max(rowid) FROM memory_summaries), (SELECT max(rowid) FROM memory_usage),"
            " (SELECT count(*) FROM memory_pending WHERE status = 'pending')"
        ).one()
        return tuple(int(v or 0) for v in row)

    def change_count(self) -> int | None:
        """A number that changes whenever anyone commits to the file (None in memory)."""
        return None if self.changes is None else self.changes.value()

    def data_version(self, conn: Connection) -> int:
        """A number that changes when another connection commits (cheap change detection)."""
        return int(conn.exec_driver_sql("PRAGMA data_version").scalar() or 0)

    def classify_error(self, error: BaseException) -> ErrorKind:
        """What a driver error means for the store (SQLite says it in words)."""
        msg = str(getattr(error, "orig", error)).lower()
        if "locked" in msg or "busy" in msg:
            return "busy"
        if "readonly" in msg or "read-only" in msg:
            return "readonly"
        if "malformed" in msg or "not a database" in msg or "corrupt" in msg:
            return "corrupt"
        if "disk i/o" in msg or "disk is full" in msg:
            # The file may be whole: a full disk or quota, a size limit, a flaky drive.
            return "io"
        if "unique constraint" in msg or "integrity" in msg:
            return "integrity"
        return "other"

    def close(self) -> None:
        """Stop the background checkpoints (the engine's last connection checkpoints)."""
        if self.checkpointer is not None:
            self.checkpointer.close()
        if self.changes is not None:
            self.changes.close()
