"""Versioned schema migrations: a linear ladder run in one transaction after a backup.

A failed step rolls back the whole transaction, so the file keeps its old schema,
and the store opens disabled with a diagnostic instead of writing an unknown
schema. A file from a newer release is refused the same way.

When the shape of a table changes, add a step at the end; never edit a shipped
step (step 1 creates the tables as ``tables.py`` declares them at version 1).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, inspect, select, text
from sqlalchemy.engine import Connection

from ekko_memory.identity import name_synonyms, node_subject, value_subject
from ekko_memory.store import tables
from ekko_memory.store.dialect import Dialect
from ekko_memory.store.problem import Problem
from ekko_memory.store.rival_links import link_rivals
from ekko_memory.store.search_text import has_invisible
from ekko_memory.store.writer import StoreWriter
from ekko_memory.timeutil import to_db, utcnow

MigrationStep = Callable[[Connection, Dialect], None]


def _v1_tables(conn: Connection, dialect: Dialect) -> None:
    v1 = [
        tables.memory_messages,
        tables.memory_summaries,
        tables.memory_nodes,
        tables.memory_audit_events,
        tables.memory_schema_migrations,
        tables.memory_pending,
        tables.memory_usage,
        tables.memory_retry_queue,
    ]
    tables.metadata.create_all(conn, tables=v1)


def _v2_search_index(conn: Connection, dialect: Dialect) -> None:
    dialect.create_search_index(conn)


def _v3_session_cursors(conn: Connection, dialect: Dialect) -> None:
    tables.memory_session_cursors.create(conn, checkfirst=True)


def _node_index(name: str) -> MigrationStep:
    def step(conn: Connection, dialect: Dialect) -> None:
        for index in tables.memory_nodes.indexes:
            if index.name == name:
                index.create(conn, checkfirst=True)

    return step


def _v5_subject(conn: Connection, dialect: Dialect) -> None:
    columns = {c["name"] for c in inspect(conn).get_columns("memory_nodes")}
    if "subject" not in columns:
        conn.execute(text("ALTER TABLE memory_nodes ADD COLUMN subject TEXT"))
    rows = conn.execute(
        text(
            "SELECT id, value_json FROM memory_nodes WHERE key IS NOT NULL AND value_json IS NOT NULL"
        )
    ).all()
    updates = [{"id": r[0], "subject": value_subject(json.loads(r[1]))} for r in rows]
    if updates:
        conn.execute(text("UPDATE memory_nodes SET subject = :subject WHERE id = :id"), updates)
    for index in tables.memory_nodes.indexes:
        if index.name == "idx_memory_nodes_subject":
            index.create(conn, checkfirst=True)


def _v6_keyless_subject(conn: Connection, dialect: Dialect) -> None:
    rows = conn.execute(text("SELECT id, title FROM memory_nodes WHERE key IS NULL")).all()
    updates = [{"id": r[0], "subject": node_subject(None, None, r[1])} for r in rows]
    if updates:
        conn.execute(text("UPDATE memory_nodes SET subject = :subject WHERE id = :id"), updates)


def _v8_canonical_subjects(conn: Connection, dialect: Dialect) -> None:
    # Subjects are canonical names now (cilantro → 香菜); the stored values stay as said.
    synonyms = name_synonyms()
    nodes = tables.memory_nodes
    rows = conn.execute(
        select(nodes.c.id, nodes.c.subject).where(
            nodes.c.key.is_not(None), nodes.c.subject.in_(sorted(synonyms))
        )
    ).all()
    updates = [{"id": r[0], "subject": synonyms[r[1]]} for r in rows]
    if updates:
        conn.execute(text("UPDATE memory_nodes SET subject = :subject WHERE id = :id"), updates)


def _v9_reindex_invisible(conn: Connection, dialect: Dialect) -> None:
    # Search drops invisible characters now (香<ZWSP>菜 is 香菜); rows indexed before had
    # them as separators. Only those rows are reindexed: the others' tokens are the same.
    nodes = tables.memory_nodes
    rows = conn.execute(
        select(
            nodes.c.seq, nodes.c.title, nodes.c.content, nodes.c.tags_json, nodes.c.entities_json
        )
    ).all()
    for seq, title, content, tags_json, entities_json in rows:
        tags, entities = json.loads(tags_json), json.loads(entities_json)
        if any(has_invisible(t) for t in (title, content, *tags, *entities)):
            dialect.index_node(conn, seq, title, content, tags, entities)


def _v10_link_import_rivals(conn: Connection, dialect: Dialect) -> None:
    # Imports by earlier releases recorded a rival's winner only in the loser's audit; the
    # two histories are joined once here (imports since join them as they write).
    link_rivals(StoreWriter(conn, dialect))


def _v12_node_vectors(conn: Connection, dialect: Dialect) -> None:
    tables.memory_node_vectors.create(conn, checkfirst=True)


def _v13_marks_and_settings(conn: Connection, dialect: Dialect) -> None:
    tables.memory_settings.create(conn, checkfirst=True)
    tables.memory_marks.create(conn, checkfirst=True)


def _v15_bounded_search_backlog(conn: Connection, dialect: Dialect) -> None:
    dialect.bound_search_backlog(conn)


# Indexes on memory_nodes that no plan needs (schema 16): each cost every write its update.
UNUSED_NODE_INDEXES = ("idx_memory_nodes_domain", "idx_memory_nodes_status_category")


def _v16_drop_unused_indexes(conn: Connection, dialect: Dialect) -> None:
    # IF EXISTS: a store created since declares neither (tables.py no longer has them).
    for name in UNUSED_NODE_INDEXES:
        conn.exec_driver_sql(f"DROP INDEX IF EXISTS {name}")


# (version, description, step) in order.
MIGRATIONS: list[tuple[int, str, MigrationStep]] = [
    (1, "tables and indexes of the design doc, pending approvals, usage, retry queue", _v1_tables),
    (2, "full-text index over CJK bigram tokens", _v2_search_index),
    (3, "per-session cursors of background extraction and summaries", _v3_session_cursors),
    (
        4,
        "index for a scope's active nodes by type (the per-turn context)",
        _node_index("idx_memory_nodes_scope_type"),
    ),
    (5, "value subject column and index (duplicate and conflict lookups)", _v5_subject),
    (6, "keyless nodes are indexed by their title as subject", _v6_keyless_subject),
    (
        7,
        "index for a topic's nodes of one scope and type (the context's hinted categories)",
        _node_index("idx_memory_nodes_topic"),
    ),
    (8, "value subjects name one thing once (cilantro and 芫荽 are 香菜)", _v8_canonical_subjects),
    (9, "words with invisible characters inside are indexed whole", _v9_reindex_invisible),
    (10, "a rival an import replaced leads to the memory that won", _v10_link_import_rivals),
    # The lexicon's newer names (shellfish and 贝类, nuts and 坚果, gluten and 麸质 are one):
    # subjects stored under a word that is now another's synonym take the canonical name.
    (11, "value subjects name one thing once, with the newer synonyms", _v8_canonical_subjects),
    (12, "vectors of memories for semantic recall", _v12_node_vectors),
    (13, "pinned memories, dismissed duplicates and the pause switch", _v13_marks_and_settings),
    (
        14,
        "index for a domain's memories in priority order (search by domain alone)",
        _node_index("idx_memory_nodes_domain_priority"),
    ),
    (
        15,
        "the full-text index's backlog of new entries stays small (PostgreSQL: searches read it whole)",
        _v15_bounded_search_backlog,
    ),
    (16, "indexes no query uses are dropped (cheaper writes)", _v16_drop_unused_indexes),
    (
        17,
        "index for a key's memories about one subject in priority order (retrieve by value)",
        _node_index("idx_memory_nodes_subject_priority"),
    ),
]


class MigrationError(Exception):
    """The schema could not be brought up to date; the file was left as it was."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.text)
        self.problem = problem


class NewerSchemaError(MigrationError):
    """The file was written by a newer release of Ekko Memory."""


@dataclass(frozen=True)
class MigrationReport:
    """What ``migrate`` did."""

    from_version: int
    to_version: int
    backup: Path | None


def latest_version() -> int:
    """The schema version this release writes."""
    return MIGRATIONS[-1][0]


def current_version(conn: Connection) -> int:
    """The highest applied version (0 for an empty database)."""
    if not inspect(conn).has_table("memory_schema_migrations"):
        return 0
    value = conn.execute(
        select(tables.memory_schema_migrations.c.version)
        .order_by(tables.memory_schema_migrations.c.version.desc())
        .limit(1)
    ).scalar()
    return int(value or 0)


def migrate(engine: Engine, dialect: Dialect) -> MigrationReport:
    """Bring the schema to ``latest_version()``; raise MigrationError and change nothing on failure."""
    latest = latest_version()
    with engine.connect() as conn:
        found = current_version(conn)
    if found > latest:
        raise NewerSchemaError(
            Problem(
                "newer_schema",
                f"the database uses schema version {found}, newer than this release's {latest}; "
                "upgrade Ekko Memory to open it",
                {"version": str(found), "latest": str(latest)},
            )
        )
    if found == latest:
        return MigrationReport(found, found, None)
    try:
        backup = dialect.backup(found) if found > 0 else None
    except (OSError, sqlite3.Error) as exc:
        # The file itself is fine: say so, or it looks damaged (a full disk said "not a
        # readable database").
        raise MigrationError(
            Problem(
                "backup_failed",
                f"could not back the file up before upgrading it from schema version {found} "
                f"({exc}); the file was left as it was: free some disk space and open it again",
                {"version": str(found), "detail": str(exc)},
            )
        ) from exc
    try:
        with engine.connect().execution_options(**dialect.exclusive_options) as conn, conn.begin():
            dialect.prepare_schema(conn)  # PostgreSQL: the store's schema, under the lock
            found = current_version(conn)  # another process may have migrated meanwhile
            for version, _description, step in MIGRATIONS:
                if version <= found:
                    continue
                step(conn, dialect)
                conn.execute(
                    tables.memory_schema_migrations.insert().values(
                        version=version, applied_at=to_db(utcnow())
                    )
                )
    except Exception as exc:  # any failure: the transaction rolled back
        raise MigrationError(
            Problem(
                "migration_failed",
                f"migration from schema version {found} failed: {exc}",
                {"version": str(found), "detail": str(exc)},
            )
        ) from exc
    return MigrationReport(found, latest, backup)
