"""Everything PostgreSQL-specific: engines, URLs, write locking, full-text search, errors.

One store is one schema of a database: every connection of the store's engine has
``search_path`` set to that schema, so the portable SQLAlchemy Core of the rest of
the store runs unchanged. Writers serialize on a per-schema advisory transaction lock
taken at BEGIN (the counterpart of SQLite's ``BEGIN IMMEDIATE``): the store's
read-check-write paths (supersede, dedupe, ``max(seq) + 1``) keep the guarantees they
have on SQLite, with several processes writing at once.

Full-text search indexes the same CJK bigram + unigram shadow tokens as SQLite
(``search_text.py``), written straight into a ``tsvector`` (no text-search parser or
configuration in between, so tokens match exactly) in a side table with a GIN index;
queries are ``tsquery`` phrases built from the same terms. See bench/README.md for the
measurements against ``pg_trgm``.

psycopg (the ``postgres`` extra) is imported by SQLAlchemy when an engine is created,
never at import time, so the core imports without it.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Hashable, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.schema import CreateColumn
from sqlalchemy.sql.compiler import DDLCompiler
from sqlalchemy.types import Text

from ekko_memory.store import tables
from ekko_memory.store.count_cache import (
    GUESS_TTL_SECONDS,
    TERM_COUNTS_FROM,
    TOPIC_TTL_SECONDS,
    CountCache,
)
from ekko_memory.store.dialect import ErrorKind
from ekko_memory.store.problem import Problem
from ekko_memory.store.search_text import QueryTerm, index_tokens

SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
CONNECT_TIMEOUT_S = 5
LOCK_TIMEOUT_MS = 10_000

# tsvector limits: a lexeme holds at most 2046 bytes, positions stop at 16383, a lexeme
# keeps at most 256 positions. Longer "words" are not searchable anyway.
MAX_LEXEME_BYTES = 1000
MAX_POSITIONS = 256
MAX_POSITION = 16383
# Fields go into one tsvector, each starting past a gap so a phrase never spans two.
FIELD_GAP = 8
# ts_rank weights {D, C, B, A}: content, entities, tags, title (as bm25's 1, 3, 3, 6 on SQLite).
RANK_WEIGHTS = "{0.1667, 0.5, 0.5, 1.0}"

# Tables a hard delete or purge touches (deletes rows or overwrites their text in place):
# rewritten afterwards, with their indexes.
_SCRUBBED = (
    "memory_nodes",
    "memory_nodes_fts",
    "memory_usage",
    "memory_audit_events",
    "memory_pending",
    "memory_messages",
    "memory_summaries",
    # A failed job's error can quote a model's reply about the deleted memory.
    "memory_retry_queue",
    "memory_node_vectors",
)


class UnsupportedUrl(ValueError):
    """Not a PostgreSQL URL this store can use."""


def normalize_url(url: str) -> str:
    """A SQLAlchemy URL for psycopg 3 from ``postgres://``, ``postgresql://`` or ``postgresql+psycopg://``.

    Raises UnsupportedUrl for anything else (another driver, another database, garbage).
    """
    try:
        parsed = make_url(url.strip())
    except ArgumentError as e:
        raise UnsupportedUrl(f"not a database URL: {e}") from e
    backend, _, driver = parsed.drivername.partition("+")
    if backend not in ("postgresql", "postgres") or driver not in ("", "psycopg"):
        raise UnsupportedUrl(
            f"unsupported database URL scheme {parsed.drivername!r}: use postgresql+psycopg://"
        )
    if not parsed.database:
        raise UnsupportedUrl("the database URL names no database (…/DBNAME)")
    return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


def redact_url(url: str) -> str:
    """The URL without its password, for health reports and logs."""
    return make_url(url).render_as_string(hide_password=True)


def check_schema_name(schema: str) -> str:
    """A lower-case identifier usable unquoted (letters, digits, underscore); else ValueError."""
    if not SCHEMA_NAME.match(schema):
        raise ValueError(
            f"schema name {schema!r} must be lower-case letters, digits and '_' (at most 63)"
        )
    return schema


def lock_key(schema: str) -> int:
    """The advisory lock of one store: a signed 64-bit number derived from its schema name."""
    digest = hashlib.blake2b(f"ekko-memory:{schema}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@compiles(CreateColumn, "postgresql")
def _text_columns_in_byte_order(element: CreateColumn, compiler: DDLCompiler, **kw: Any) -> str:
    # The store compares and sorts text as SQLite does, by code point: category subtrees
    # are ranges ('a/' <= path < 'a0'), keyset pages order by (updated_at, id). A
    # database whose default collation is a language's (en_US.UTF-8 ignores '/' at first)
    # would break both, so our text columns use the "C" collation whatever the default.
    ddl = compiler.visit_create_column(element, **kw)  # type: ignore[no-untyped-call]
    column = element.element
    if (
        ddl
        and getattr(column, "table", None) is not None
        and column.table.metadata is tables.metadata
        and isinstance(column.type, Text)
        and column.type.collation is None
    ):
        name = compiler.preparer.format_column(column)
        type_ddl = compiler.dialect.type_compiler_instance.process(column.type)
        ddl = ddl.replace(f"{name} {type_ddl}", f'{name} {type_ddl} COLLATE "C"', 1)
    return str(ddl)


def make_engine(url: str, schema: str) -> Engine:
    """An engine whose connections live in ``schema`` and give up on locks after 10 s.

    Raises ImportError when psycopg (the ``postgres`` extra) is missing.
    """
    check_schema_name(schema)
    engine = create_engine(
        url,
        pool_pre_ping=True,  # a server restart costs one failed ping, not a failed call
        # A store does one thing at a time per thread; many agents share one server.
        pool_size=3,
        max_overflow=7,
        connect_args={
            "connect_timeout": CONNECT_TIMEOUT_S,
            "application_name": "ekko-memory",
            # Set at connection start-up, so even SQLAlchemy's first look at the server
            # (default schema) sees the store's schema.
            "options": f"-c search_path={schema} -c lock_timeout={LOCK_TIMEOUT_MS}",
        },
    )
    key = lock_key(schema)
    channel = f"ekko_{schema}"

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get("ekko_write"):
            # One writer per store at a time (as SQLite's BEGIN IMMEDIATE). The NOTIFY is
            # queued now and delivered only if this transaction commits: readers polling
            # change_marks learn of committed writes, never of rolled-back ones.
            conn.exec_driver_sql(
                "SELECT pg_advisory_xact_lock(%(key)s), pg_notify(%(channel)s, '')",
                {"key": key, "channel": channel},
            )

    return engine


def _lexeme(token: str) -> str:
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_literal(fields: list[tuple[str, str]]) -> str:
    """A tsvector in its text form from (weight letter, shadow text) fields, positions in order."""
    positions: dict[str, list[str]] = {}
    pos = 0
    for weight, shadow in fields:
        for token in shadow.split():
            pos += 1
            if len(token.encode()) > MAX_LEXEME_BYTES:
                continue
            slots = positions.setdefault(token, [])
            if len(slots) < MAX_POSITIONS:
                slots.append(f"{min(pos, MAX_POSITION)}{weight}")
        pos += FIELD_GAP
    return " ".join(f"{_lexeme(tok)}:{','.join(p)}" for tok, p in positions.items())


def tsquery_literal(terms: Sequence[QueryTerm], *, any_term: bool = False) -> str:
    """A tsquery in its text form: each term a phrase (``a <-> b``), all terms ANDed (or
    ORed, for a message's keywords)."""
    parts = []
    for term in terms:
        spellings = []
        for i, tokens in enumerate((term.tokens, *term.others)):
            toks = [t for t in tokens if len(t.encode()) <= MAX_LEXEME_BYTES]
            if not toks:
                continue
            lexemes = [_lexeme(t) for t in toks]
            if term.prefix and i == 0:
                lexemes[-1] += ":*"
            phrase = " <-> ".join(lexemes)
            spellings.append(f"({phrase})" if len(lexemes) > 1 else phrase)
        if spellings:
            # Other names of the same thing: any of them will do.
            parts.append(f"({' | '.join(spellings)})" if len(spellings) > 1 else spellings[0])
    return (" | " if any_term else " & ").join(parts)


# ``:name`` outside quotes, not a ``::type`` cast.
_NAMED = re.compile(r"('(?:[^']|'')*')|(?<![:\w]):([A-Za-z_]\w*)")


@lru_cache(maxsize=512)
def _pyformat(sql: str) -> str:
    """``:name`` placeholders as psycopg's ``%(name)s``; literal ``%`` doubled."""

    def swap(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return m.group(1).replace("%", "%%")
        return f"%({m.group(2)})s"

    parts = re.split(r"('(?:[^']|'')*')", sql)
    # Outside quotes a bare % is an operator (modulo): double it as well.
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part.replace("%", "%%"))
        else:
            out.append(_NAMED.sub(swap, part.replace("%", "%%")))
    return "".join(out)


def classify_error(error: BaseException) -> ErrorKind:
    """What a driver error means for the store, from its SQLSTATE (or message when it has none)."""
    orig = getattr(error, "orig", error)
    state = str(getattr(orig, "sqlstate", None) or "")
    msg = str(orig).lower()
    if state in ("40001", "40P01", "55P03", "57014"):
        # Serialization failure, deadlock, lock timeout, statement timeout: try again.
        return "busy"
    if state in ("25006", "42501"):
        # A read-only server (hot standby) or a role without the privilege.
        return "readonly"
    if state.startswith("23"):
        return "integrity"
    if state.startswith("XX0"):
        return "corrupt"
    if state.startswith(("08", "57P")) or (
        not state
        and (
            "connection" in msg
            or "could not connect" in msg
            or "server closed" in msg
            or "timeout expired" in msg
        )
    ):
        return "unreachable"
    return "other"


def _login_refused(error: BaseException) -> bool:
    """Whether the server answered but refused the login (a wrong password or user): libpq
    reports it as a failed connection, with no SQLSTATE, in its own words."""
    orig = getattr(error, "orig", error)
    state = str(getattr(orig, "sqlstate", None) or "")
    msg = str(orig).lower()
    return state.startswith("28") or any(
        words in msg
        for words in (
            "password authentication failed",
            "no password supplied",
            "authentication failed",
            "no pg_hba.conf entry",
        )
    )


def term_count_sql(terms: Sequence[str], cap: int) -> tuple[str, dict[str, Any]] | None:
    """``(term, count up to cap)`` rows for ``terms`` (None: none can be searched). To run
    planned for its values: a generic plan of a count with a LIMIT is a sequential scan."""
    searchable = [t for t in terms if len(t.encode()) <= MAX_LEXEME_BYTES]
    if not searchable:
        return None
    params: dict[str, Any] = {f"t{i}": term for i, term in enumerate(searchable)}
    params |= {f"q{i}": _lexeme(term) for i, term in enumerate(searchable)}
    rows = ", ".join(f"(:t{i}, CAST(:q{i} AS tsquery))" for i in range(len(searchable)))
    sql = (
        "SELECT t.term, (SELECT count(*) FROM (SELECT 1 FROM memory_nodes_fts"
        f" WHERE doc @@ t.q LIMIT :cap) AS m) FROM (VALUES {rows}) AS t(term, q)"
    )
    return sql, {**params, "cap": cap}


def term_count_array_sql(terms: Sequence[str], cap: int) -> tuple[str, dict[str, Any]] | None:
    """``term_count_sql`` for a statement that keeps its plan: the words as two arrays
    (one statement text for any number of words) and the cap a literal (``cap`` is the
    code's, never the user's). Its generic plan is the custom plan's (the tsquery is the
    unnested row's either way; the known LIMIT keeps the planner on the GIN index): 0.056
    against 0.128 ms of server CPU a count at 100k memories, parsed and planned once."""
    searchable = [t for t in terms if len(t.encode()) <= MAX_LEXEME_BYTES]
    if not searchable:
        return None
    sql = (
        "SELECT t.term, (SELECT count(*) FROM (SELECT 1 FROM memory_nodes_fts"
        f" WHERE doc @@ t.q LIMIT {int(cap)}) AS m)"
        " FROM unnest(CAST(:terms AS text[]), CAST(:queries AS tsquery[])) AS t(term, q)"
    )
    return sql, {"terms": searchable, "queries": [_lexeme(t) for t in searchable]}


class PostgresDialect:
    """PostgreSQL specifics used by the store (one schema of one database)."""

    name = "postgresql"
    driver_errors: ClassVar[tuple[type[BaseException], ...]] = ()
    # Read committed + the store's advisory lock: each statement after the lock sees
    # every commit before it, so read-then-write paths act on current data.
    write_options: ClassVar[dict[str, Any]] = {
        "ekko_write": True,
        "isolation_level": "READ COMMITTED",
    }
    exclusive_options: ClassVar[dict[str, Any]] = write_options
    # One snapshot for the whole read transaction, as a SQLite read transaction has.
    read_options: ClassVar[dict[str, Any]] = {
        "isolation_level": "REPEATABLE READ",
        "postgresql_readonly": True,
    }
    # A read needs its isolation level set: through the pool, where it is an option.
    pins_reads: ClassVar[bool] = False

    checkpoint_vacuums: ClassVar[bool] = True
    checkpoint_warning: ClassVar[str] = (
        "VACUUM FULL could not run now (a lock or the server); the deleted rows are gone "
        "from every query, their bytes leave the data files at the next hard delete or "
        "File ▸ Compact stores"
    )

    def __init__(self, url: str, schema: str) -> None:
        self.url = url
        self.schema = check_schema_name(schema)
        self.channel = f"ekko_{schema}"
        self._listener: Any = None
        self._listener_lock = threading.Lock()
        self._generation = 0
        self._notices = 0
        self.term_cache = CountCache[str](cache_from=TERM_COUNTS_FROM)
        # Every term's last count, small ones too, kept long: what a turn's read plans its
        # keyword search with before the words are counted again in the same snapshot
        # (``turn_reads``), never taken as a count.
        self.term_guesses = CountCache[str](ttl=GUESS_TTL_SECONDS)
        self.topic_sizes = CountCache[Hashable](ttl=TOPIC_TTL_SECONDS)

    @property
    def location(self) -> str:
        """Where the store lives, without the password."""
        return f"{redact_url(self.url)} (schema {self.schema})"

    # --- opening --------------------------------------------------------------------

    def server_problem(self, conn: Connection) -> Problem | None:
        """Why this server cannot hold a store (None when it can)."""
        encoding = conn.exec_driver_sql("SHOW server_encoding").scalar()
        if str(encoding).upper() not in ("UTF8", "UTF-8"):
            return Problem(
                "encoding",
                f"the database's encoding is {encoding}, but Ekko Memory stores Chinese text and "
                "needs UTF8 (CREATE DATABASE … ENCODING 'UTF8')",
                {"encoding": str(encoding)},
            )
        return None

    def is_read_only(self, conn: Connection) -> bool:
        """True on a hot standby or a database set read-only."""
        return str(conn.exec_driver_sql("SHOW transaction_read_only").scalar()) == "on"

    def describe_error(self, error: BaseException) -> Problem:
        """A one-line reason for a failure to open, with where and what to check."""
        orig = str(getattr(error, "orig", None) or error).strip()
        first = " ".join(orig.split())[:400]
        if classify_error(error) == "unreachable":
            where = redact_url(self.url)
            return Problem(
                "auth" if _login_refused(error) else "unreachable",
                f"cannot connect to PostgreSQL at {where}: {first} "
                "(is the server running and the URL, user and password right?)",
                {"location": where, "detail": first},
            )
        return Problem(
            "refused",
            f"PostgreSQL at {self.location} refused the store: {first}",
            {"location": self.location, "detail": first},
        )

    def prepare_schema(self, conn: Connection) -> None:
        """Create the store's schema (inside the migration's locked transaction)."""
        conn.exec_driver_sql(f"CREATE SCHEMA IF NOT EXISTS {self.schema}")

    def file_problem(self) -> str | None:
        """None: a server's files are its own."""
        return None

    def backup(self, version: int) -> Path | None:
        """Nothing: backups of a server are its operator's (pg_dump, base backups).

        A migration runs in one transaction (DDL included), so a failed step leaves the
        schema exactly as it was without a copy.
        """
        return None

    # --- full-text search -----------------------------------------------------------

    def create_search_index(self, conn: Connection) -> None:
        """A side table of tsvectors keyed by memory_nodes.seq, with a GIN index."""
        conn.exec_driver_sql(
            "CREATE TABLE IF NOT EXISTS memory_nodes_fts ("
            "seq integer PRIMARY KEY, doc tsvector NOT NULL)"
        )
        conn.exec_driver_sql(
            "CREATE INDEX IF NOT EXISTS idx_memory_nodes_fts_doc "
            "ON memory_nodes_fts USING gin (doc)"
        )

    def bound_search_backlog(self, conn: Connection) -> None:
        """Keep the GIN index's pending list at 64 kB (the least allowed) and merge what it
        holds now.

        With ``fastupdate`` (the default) new entries go to an unsorted pending list that
        every search reads whole, up to ``gin_pending_list_limit`` (4 MB) until a VACUUM or
        an insert past the limit merges it. Measured at 100k memories: ~330 pages read for
        each word looked up, 0.85 ms even for a word in no memory, so a turn's count of nine
        rare words took 7.5 ms and each search ~1 ms more (0.02 ms and 4 pages once merged).
        At 64 kB an insert that fills the list merges ~60 rows' entries: writes stay batched,
        searches read at most 8 pending pages."""
        conn.exec_driver_sql(
            "ALTER INDEX idx_memory_nodes_fts_doc SET (gin_pending_list_limit = 64)"
        )
        conn.exec_driver_sql("SELECT gin_clean_pending_list('idx_memory_nodes_fts_doc')")

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
        """Add or replace one node's row in the full-text index (an upsert either way)."""
        self.index_nodes(conn, [(seq, title, content, tags, entities)])

    def bulk_write(self, conn: Connection, rows: int) -> AbstractContextManager[None]:
        """Nothing: the server's buffers are its own."""
        return nullcontext()

    def index_nodes(
        self,
        conn: Connection,
        items: list[tuple[int, str, str, list[str], list[str]]],
        *,
        new: bool = False,
    ) -> None:
        """Add or replace several nodes' rows in the full-text index (one batch)."""
        if not items:
            return
        rows = [
            {
                "seq": seq,
                "doc": tsvector_literal(
                    [
                        ("A", index_tokens(title)),
                        ("B", index_tokens(" ".join(tags))),
                        ("C", index_tokens(" ".join(entities))),
                        ("D", index_tokens(content)),
                    ]
                ),
            }
            for seq, title, content, tags, entities in items
        ]
        conn.execute(
            text(
                "INSERT INTO memory_nodes_fts (seq, doc) VALUES (:seq, CAST(:doc AS tsvector)) "
                "ON CONFLICT (seq) DO UPDATE SET doc = EXCLUDED.doc"
            ),
            rows,
        )

    def unindex_nodes(self, conn: Connection, seqs: list[int]) -> None:
        """Remove nodes from the full-text index."""
        if seqs:
            conn.execute(
                text("DELETE FROM memory_nodes_fts WHERE seq = ANY(:seqs)"), {"seqs": list(seqs)}
            )

    def compact_search_index(self, conn: Connection) -> None:
        """Nothing inside a transaction: the GIN entries of deleted rows go at the VACUUM that
        ``checkpoint`` runs right after (VACUUM cannot run in a transaction)."""

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

        The terms are bound as a tsquery literal of quoted lexemes: user text never
        reaches tsquery operators. ``window`` ranks only the newest matches. Unranked, it
        yields ``seq`` alone for every match (to count them without ranking). None when
        no term is searchable.
        """
        expression = tsquery_literal(terms, any_term=any_term)
        if not expression:
            return None
        params: dict[str, Any] = {"fts_query": expression}
        match = "FROM memory_nodes_fts WHERE doc @@ CAST(:fts_query AS tsquery)"
        if not ranked:
            # Every match, whatever the cap. Here ranking is not what counting costs (the
            # GIN search is: measured equal at 100k nodes), and with a LIMIT but no ORDER
            # BY the planner of a small store scans the table hoping to stop early (1.3
            # against 0.8 ms at 6k nodes).
            return f"SELECT seq {match}", params
        rank = f"-ts_rank('{RANK_WEIGHTS}', doc, CAST(:fts_query AS tsquery), 1) AS rank"
        if window is not None:
            sql = (
                f"SELECT seq, rank FROM (SELECT seq, {rank} {match} ORDER BY seq DESC"
                " LIMIT :fts_window) AS newest"
            )
            params["fts_window"] = window
        else:
            sql = f"SELECT seq, {rank} {match}"
        if cap is not None:
            sql += " ORDER BY rank LIMIT :fts_cap"
            params["fts_cap"] = cap
        return sql, params

    def term_counts(self, conn: Connection, terms: Sequence[str], cap: int) -> dict[str, int]:
        """How many nodes hold each term, up to ``cap``: one GIN search per term not in
        the cache (a GIN index keeps no per-word counts, and ``ts_stat`` reads every row).
        Capped, a common word costs ~1 ms, not the 10 ms of visiting its 6k rows; large
        counts are cached a while (``term_cache``)."""

        def count(unknown: list[str]) -> dict[str, int]:
            statement = term_count_sql(unknown, cap)
            if statement is None:
                return {}
            fresh = dict(self.fetch(conn, *statement, reuse_plan=False))
            self.term_guesses.put(fresh)
            return fresh

        return self.term_cache.counts(terms, count)

    def fetch(
        self, conn: Connection, sql: str, params: dict[str, Any], *, reuse_plan: bool = True
    ) -> list[tuple[Any, ...]]:
        """Run portable SQL with ``:name`` parameters straight on psycopg (hot paths).

        The statement is rewritten once to psycopg's ``%(name)s`` style (cached); psycopg
        binds the values server-side and prepares a statement it sees repeatedly, unless
        ``reuse_plan`` is off: a prepared statement soon runs a generic plan, and for a
        count with a LIMIT that is a sequential scan (20–75 ms a term count at 100k nodes,
        where the plan for the actual word takes 1 ms).
        """
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        cur: Any = dbapi.cursor()  # psycopg's, which takes ``prepare``
        try:
            cur.execute(_pyformat(sql), params, prepare=None if reuse_plan else False)
            return list(cur.fetchall())
        finally:
            cur.close()

    # --- housekeeping ---------------------------------------------------------------

    # Maintenance runs on the raw psycopg connection (SqlStore.raw): VACUUM, REINDEX
    # CONCURRENTLY and ANALYZE of many tables refuse to run inside a transaction block.

    @staticmethod
    def _autocommit(raw: Any, *statements: str) -> None:
        # The connection goes back to SQLAlchemy's pool afterwards: leave it as we found it
        # (in autocommit, a later "transaction" would drop its advisory lock at once).
        raw.autocommit = True
        try:
            for sql in statements:
                raw.execute(sql)
        finally:
            raw.autocommit = False

    def checkpoint(self, raw: Any) -> bool:
        """After a hard delete: rewrite the touched tables and their indexes (False if a
        lock or a failure kept it from running).

        This is what SQLite's secure_delete + FTS optimize + WAL checkpoint do there.
        PostgreSQL never overwrites a row version in place: a plain VACUUM frees a deleted
        row's space but leaves its bytes in the page while a live row shares it (the
        deleted memory stayed readable in the data files beside the memories kept around
        it), and a GIN index never drops a key once stored. VACUUM FULL writes each table
        and its indexes into new files and removes the old ones, under an exclusive lock
        per table (other programs wait; one holding a lock past the lock timeout makes
        this fail, and the bytes go at the next compaction). Bytes can still survive in
        WAL segments, base backups and replicas until the server recycles them; those
        are the operator's.
        """
        import psycopg

        try:
            self.vacuum(raw)
        except psycopg.Error:
            return False
        return True

    def vacuum(self, raw: Any) -> None:
        """VACUUM FULL the store's tables: rewritten into new files, old files removed.

        Takes an exclusive lock on each table while it is rewritten (readers wait).
        """
        self._autocommit(raw, "VACUUM FULL " + ", ".join(_SCRUBBED))

    def compact(self, raw: Any) -> tuple[list[str], list[str]]:
        """VACUUM (FULL, ANALYZE) every table of the store: each table and its indexes are
        rewritten into new files without dead rows or free space, and the old files are
        removed, giving the space back to the operating system; fresh planner statistics
        too. Each table is rewritten in its own transaction (all or nothing) under an
        exclusive lock, so other programs wait for the table being rewritten (a lock they
        hold longer than the lock timeout makes this fail: try again). Returns the
        statement and no warnings."""
        import psycopg

        names = ", ".join([*(t.name for t in tables.metadata.sorted_tables), "memory_nodes_fts"])
        statement = f"VACUUM (FULL, ANALYZE) {names}"
        try:
            self._autocommit(raw, statement)
        except psycopg.Error as e:
            # As SQLAlchemy would wrap it, so the store words it like any other error.
            raise DBAPIError(statement, None, e) from e
        return [statement], []

    def storage_bytes(self, raw: Any) -> int | None:
        """The bytes the server keeps for the store's tables, their indexes and TOAST."""
        row = raw.execute(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
        ).fetchone()
        raw.rollback()
        return int(row[0]) if row is not None else None

    def storage_files(self) -> list[Path]:
        """None that this process can read: the bytes live in the server's data directory.

        Purge verification reads the server's pages instead (see purge_verify)."""
        return []

    def backup_files(self) -> list[Path]:
        """None: the server's backups are its operator's (``backup`` makes none)."""
        return []

    def has_statistics(self, raw: Any) -> bool:
        """memory_nodes has been analyzed (PostgreSQL 14+ says -1 tuples until then)."""
        row = raw.execute(
            "SELECT reltuples FROM pg_class WHERE oid = 'memory_nodes'::regclass"
        ).fetchone()
        raw.rollback()
        return row is None or float(row[0]) >= 0

    def analyze(self, raw: Any) -> None:
        """Refresh planner statistics of the store's tables (autovacuum does it too, later)."""
        wanted = [t.name for t in tables.metadata.sorted_tables]
        # The tables the schema holds (a store not upgraded yet lacks the newest ones).
        held = {
            r[0]
            for r in raw.execute(
                "SELECT relname FROM pg_class WHERE relname = ANY(%s) AND pg_table_is_visible(oid)",
                (wanted,),
            ).fetchall()
        }
        raw.rollback()
        names = ", ".join(name for name in wanted if name in held)
        self._autocommit(raw, f"ANALYZE {names}, memory_nodes_fts")

    def execute(
        self, conn: Connection, sql: str, params: dict[str, Any] | list[dict[str, Any]]
    ) -> None:
        """Run a portable write statement (``:name`` parameters) straight on psycopg; a
        list of parameter sets runs it once per set (pipelined)."""
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        cur = dbapi.cursor()
        try:
            if isinstance(params, list):
                if params:
                    cur.executemany(_pyformat(sql), params)
            else:
                cur.execute(_pyformat(sql), params)
        finally:
            cur.close()

    # --- change detection -----------------------------------------------------------

    def _drain(self) -> None:
        # LISTEN on a connection of our own (not a pooled one, which would keep listening
        # for whoever borrows it next). A committing writer signals the listening backend
        # before its COMMIT returns, and the backend hands pending notifications over
        # before it answers a query: one round trip here sees every write committed before
        # this call. Any failure: reconnect next time and report a change, since we
        # cannot know what we missed.
        try:
            if self._listener is None:
                import psycopg

                dsn = make_url(self.url).set(drivername="postgresql")
                listener = psycopg.connect(
                    dsn.render_as_string(hide_password=False),
                    autocommit=True,
                    connect_timeout=CONNECT_TIMEOUT_S,
                )
                listener.add_notify_handler(self._on_notify)
                listener.execute(f"LISTEN {self.channel}")
                self._listener = listener
                self._generation += 1
            self._listener.execute("SELECT 1")
        except Exception:
            self.close()
            self._generation += 1

    def _on_notify(self, _notify: Any) -> None:
        self._notices += 1

    def change_marks(self, conn: Connection) -> tuple[int, ...]:
        """Counts of committed write transactions seen (LISTEN/NOTIFY), O(1).

        Every write transaction of the store sends a notification that the server
        delivers only when it commits, so a reader that sees the marks move can already
        read what changed. Writes made outside Ekko Memory (psql) are not noticed.
        """
        with self._listener_lock:
            self._drain()
            return (self._generation, self._notices)

    def data_version(self, conn: Connection) -> int:
        """A number that changes when a write transaction commits (see ``change_marks``)."""
        generation, notices = self.change_marks(conn)
        return generation * 1_000_000_000 + notices

    def classify_error(self, error: BaseException) -> ErrorKind:
        """What a driver error means for the store."""
        return classify_error(error)

    def committed(self) -> None:
        """Nothing: the server runs its own checkpoints."""

    def change_count(self) -> int | None:
        """None: a server has no cheap commit counter, so nothing is kept between reads."""
        return None

    def close(self) -> None:
        """Close the notification listener, if any."""
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                listener.close()
            except Exception:
                pass
