"""Schema 15: the full-text index's backlog of new entries stays small.

On PostgreSQL the GIN index's pending list (``fastupdate``) is read whole by every search
and every term count, up to 4 MB by default; the migration caps it at 64 kB and merges
what it holds. SQLite's FTS5 has no such list: the step changes nothing there but the
version. Either way a store of schema 14 upgrades and searches as it did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ekko_memory import MemoryService
from ekko_memory.store import migrations
from tests.backends import Backend
from tests.core.test_retrieve_plans import answer, seed

ASKED: list[dict[str, Any]] = [
    {"queryText": "香菜"},
    {"queryText": "PostgreSQL", "domain": "项目"},
    {"queryText": "豆腐", "categoryPathPrefix": ["生活技能", "做饭"], "limit": 3},
]


def answers(mem: MemoryService) -> list[dict[str, Any]]:
    return [answer(mem, q, bounded=True) for q in ASKED]


def gin_options(mem: MemoryService) -> list[Any]:
    out = []
    for _, store in mem.stores():
        with store.read() as r:
            out.append(
                r.conn.exec_driver_sql(
                    "SELECT reloptions FROM pg_class WHERE oid = 'idx_memory_nodes_fts_doc'::regclass"
                ).scalar()
            )
    return out


def test_a_store_of_schema_14_gets_a_small_search_backlog_and_keeps_its_answers(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = list(migrations.MIGRATIONS)
    at = next(i for i, m in enumerate(shipped) if m[2] is migrations._v15_bounded_search_backlog)
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", shipped[:at])
        old = backend.open_memory(tmp_path, key="m")
        before_version = shipped[at - 1][0]
        assert {s.health.schema_version for _, s in old.stores()} == {before_version}
        if backend.is_postgres:
            # A store of that release had the default backlog (4 MB).
            assert gin_options(old) == [None, None]
        seed(old, 300)
        before = answers(old)
        old.close()
    mem = backend.open_memory(tmp_path, key="m")
    for _, store in mem.stores():
        assert store.health.schema_version == migrations.latest_version() >= shipped[at][0]
    if backend.is_postgres:
        assert gin_options(mem) == [["gin_pending_list_limit=64"]] * 2
    assert answers(mem) == before
