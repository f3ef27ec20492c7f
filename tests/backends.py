"""The two store backends the core tests run on: SQLite files and PostgreSQL schemas.

A test that takes the ``backend`` fixture (or ``mem`` / ``store``, built on it) runs once
per backend. PostgreSQL comes from ``$EKKO_TEST_PG_URL`` (a server where the user may
create schemas) or else from a throwaway cluster started once per test session
(``tests/pg_cluster.py``). When neither is possible the PostgreSQL runs skip with the
reason, unless ``$EKKO_TEST_REQUIRE_ALL`` is set (CI), where they fail.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ekko_memory import MemoryConfig, MemoryService, open_memory
from ekko_memory.store.sql_store import SqlStore

_counter = itertools.count(1)


@dataclass
class PgServer:
    """A PostgreSQL server the tests may create and drop schemas on."""

    url: str
    data_dir: Path | None  # set for a local throwaway cluster (its files can be read)
    schemas: list[str] = field(default_factory=list)

    def new_namespace(self) -> str:
        """A namespace no other test uses (schemas ``<ns>_…``)."""
        ns = f"t{os.getpid()}_{next(_counter)}"
        return ns


@dataclass
class Backend:
    """Opens fresh stores and services on one backend, for one test."""

    name: Literal["sqlite", "postgres"]
    pg: PgServer | None = None
    _opened: list[SqlStore | MemoryService] = field(default_factory=list)
    _places: dict[str, str] = field(default_factory=dict)

    @property
    def is_postgres(self) -> bool:
        return self.name == "postgres"

    def _namespace(self, key: str) -> str:
        assert self.pg is not None
        if key not in self._places:
            ns = self.pg.new_namespace()
            self._places[key] = ns
            self.pg.schemas += [f"{ns}_workspace", f"{ns}_user", f"{ns}_store"]
        return self._places[key]

    def open_memory(
        self, root: Path, key: str = "mem", *, config: MemoryConfig | None = None
    ) -> MemoryService:
        """A service: files under ``root`` on SQLite, a fresh namespace on PostgreSQL.

        The same ``key`` within a test opens the same stores again.
        """
        if self.pg is None:
            mem = open_memory(root / "ws", user_home=root / "home", config=config)
        else:
            mem = open_memory(url=self.pg.url, namespace=self._namespace(key), config=config)
        self._opened.append(mem)
        return mem

    def location_args(self, root: Path, key: str = "mem") -> list[str]:
        """Command-line options (``ekko-memory``) that open the stores ``open_memory(root, key)``
        opens: ``--workspace``/``--user-home`` on SQLite, ``--database-url``/``--namespace``
        on PostgreSQL."""
        if self.pg is None:
            return ["--workspace", str(root / "ws"), "--user-home", str(root / "home")]
        return ["--database-url", self.pg.url, "--namespace", self._namespace(key)]

    def open_store(self, root: Path, key: str = "store") -> SqlStore:
        """One store: ``root/<key>.db`` on SQLite, a fresh schema on PostgreSQL."""
        if self.pg is None:
            store = SqlStore.open_sqlite(root / f"{key}.db")
        else:
            store = SqlStore.open_postgres(self.pg.url, schema=f"{self._namespace(key)}_store")
        self._opened.append(store)
        return store

    def close_all(self) -> None:
        """Close whatever the test left open (its pool connections count on the server)."""
        for thing in self._opened:
            thing.close()
        self._opened.clear()


def leaked_rows(store: SqlStore, needles: tuple[str, ...]) -> list[str]:
    """PostgreSQL: ``table: row`` for every row of the store's schema whose text holds a needle."""
    out = []
    with store.read() as r:
        names = r.conn.exec_driver_sql(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).scalars()
        for name in list(names):
            for needle in needles:
                rows = r.conn.exec_driver_sql(
                    f"SELECT t::text FROM {name} t WHERE strpos(t::text, %(n)s) > 0",
                    {"n": needle},
                ).scalars()
                out += [f"{name}: {row}" for row in rows]
    return out


def _relations(conn: Any) -> list[str]:
    # The store's tables and indexes, and the TOAST tables behind them.
    return list(
        conn.exec_driver_sql(
            "SELECT c.oid::regclass::text FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i') "
            "UNION SELECT t.oid::regclass::text FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_class t ON t.oid = c.reltoastrelid WHERE n.nspname = current_schema()"
        ).scalars()
    )


def raw_pages(store: SqlStore) -> bytes:
    """PostgreSQL: every page of the store's tables, TOAST tables and indexes, as the server
    holds them (pageinspect: dead tuples and free space included). Needs a superuser."""
    assert store.engine is not None
    out = []
    with store.engine.connect() as conn:
        conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pageinspect SCHEMA public")
        for rel in _relations(conn):
            out += conn.exec_driver_sql(
                "SELECT public.get_raw_page(%(rel)s::text, b::int) FROM generate_series(0, "
                "(pg_relation_size(%(rel)s::regclass) / current_setting('block_size')::int)::int"
                " - 1) b",
                {"rel": rel},
            ).scalars()
        conn.commit()
    return b"".join(bytes(p) for p in out)


def raw_page_hits(store: SqlStore, needles: tuple[str, ...]) -> dict[str, int]:
    """PostgreSQL: pages of the store's relations whose raw bytes hold a needle (see raw_pages)."""
    assert store.engine is not None
    out: dict[str, int] = {}
    with store.engine.connect() as conn:
        conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pageinspect SCHEMA public")
        for rel in _relations(conn):
            for needle in needles:
                hits = conn.exec_driver_sql(
                    "SELECT count(*) FROM generate_series(0, "
                    "(pg_relation_size(%(rel)s::regclass) / current_setting('block_size')::int)::int"
                    " - 1) b WHERE position(convert_to(%(n)s, 'UTF8') in "
                    "public.get_raw_page(%(rel)s::text, b::int)) > 0",
                    {"rel": rel, "n": needle},
                ).scalar()
                if hits:
                    out[f"{rel} ({needle})"] = int(hits)
        conn.commit()
    return out
