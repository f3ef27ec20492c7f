"""Opening a store: a SQLite file (created and migrated), an in-memory database or a
PostgreSQL schema. Opening never raises: what is wrong is the store's health.

The functions take the store class (``SqlStore.open_*`` call them with it) and set up
its private state as its own constructor would."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine, exc

from ekko_memory.store import migrations, postgres_dialect, sqlite_dialect
from ekko_memory.store.driver_errors import db_errors, driver_message
from ekko_memory.store.health import StoreHealth
from ekko_memory.store.postgres_dialect import PostgresDialect
from ekko_memory.store.problem import Problem, ReasonCode
from ekko_memory.store.sqlite_dialect import SqliteDialect, make_engine

if TYPE_CHECKING:
    from ekko_memory.store.sql_store import SqlStore


def mounted_read_only(folder: Path) -> bool:
    """The folder lies on a file system mounted read-only (no permission would help)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): say what the permissions say
        return False


def open_sqlite(cls: type[SqlStore], path: Path) -> SqlStore:
    """Open (creating and migrating) the SQLite file at ``path``; never raises."""
    path = Path(path)
    location = str(path)
    dialect = SqliteDialect(path)

    def disabled(code: ReasonCode, reason: str, **args: str) -> SqlStore:
        problem = Problem(code, reason, {"path": location, **args})
        return cls(None, dialect, StoreHealth.of("disabled", location, problem))

    if path.is_dir():
        return disabled("directory", f"{path} is a directory, not a database file; move it away")
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
        return _open_read_only(cls, path, dialect, mounted=mounted)
    engine = make_engine(path)
    try:
        report = migrations.migrate(engine, dialect)
        _probe(engine)
    except migrations.MigrationError as e:
        engine.dispose()
        return cls(None, dialect, StoreHealth.of("disabled", location, e.problem))
    except db_errors(dialect) as e:
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
                f"{path} could not be read or written ({driver_message(e)}: a full disk or quota,"
                " a file size limit or a failing drive); free some space and open it again",
                detail=driver_message(e),
            )._reopenable(lambda: cls.open_sqlite(path))
        return disabled(
            "not_a_database",
            f"{path} is not a readable Ekko Memory database ({driver_message(e)})",
            detail=driver_message(e),
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


def _open_read_only(
    cls: type[SqlStore], path: Path, dialect: SqliteDialect, *, mounted: bool
) -> SqlStore:
    location = str(path)
    last_error = ""
    for mode in ("ro", "immutable"):
        engine = make_engine(path, mode=mode)  # type: ignore[arg-type]
        try:
            with engine.connect() as conn:
                version = migrations.current_version(conn)
                conn.exec_driver_sql("SELECT count(*) FROM memory_nodes").scalar()
        except db_errors(dialect) as e:
            engine.dispose()
            last_error = driver_message(e)
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


def open_in_memory(cls: type[SqlStore]) -> SqlStore:
    """A private in-memory store (tests, read-only seed data)."""
    dialect = SqliteDialect(None)
    engine = make_engine(None)
    report = migrations.migrate(engine, dialect)
    store = cls(engine, dialect, StoreHealth("ok", ":memory:", None, report.to_version))
    store._serial = threading.RLock()
    return store


def open_postgres(cls: type[SqlStore], url: str, *, schema: str) -> SqlStore:
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
            return _open_server_read_only(cls, engine, dialect)
        report = migrations.migrate(engine, dialect)
        _probe(engine)
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


def _open_server_read_only(
    cls: type[SqlStore], engine: Engine, dialect: PostgresDialect
) -> SqlStore:
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


def _probe(engine: Engine) -> None:
    # Touch every table once so a truncated or foreign file is caught at open.
    with engine.connect() as conn:
        for table in ("memory_nodes", "memory_messages", "memory_audit_events"):
            conn.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar()


class _NoDialect(SqliteDialect):
    """The dialect of a store that never opened (its URL was unusable): nothing to release."""

    def __init__(self) -> None:
        super().__init__(None)
