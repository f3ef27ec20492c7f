"""Compaction (``mem.compact``): the space of deleted memories goes back, the data stays
exactly as it was, a cancel is honoured between stores."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from ekko_memory import CancelToken, MemoryService, Progress, StoreUnavailable
from ekko_memory.store import postgres_dialect
from ekko_memory.store.filters import NodeFilter
from tests.backends import Backend, PgServer
from tests.core.factories import make_node
from tests.core.sample_data import dump, seed

LONG = "这是一段很长的笔记内容，用来占据数据库的页面。" * 40


def fill_and_delete(mem: MemoryService, n: int = 1500, keep: int = 100) -> list[str]:
    """``n`` long notes in the user store, all but ``keep`` of them hard deleted; the kept ids."""
    nodes = [
        make_node(key=None, value_json=None, title=f"笔记 {i}", content=f"{LONG} 第 {i} 条")
        for i in range(n)
    ]
    with mem.user_store.write() as w:
        w.insert_nodes(nodes)
    ids = sorted(x.id for x in nodes)
    with mem.user_store.write() as w:
        w.hard_delete_nodes(ids[keep:])
    return ids[:keep]


def everything(mem: MemoryService) -> tuple[dict, dict]:
    return dump(mem.workspace_store), dump(mem.user_store)


def test_compact_gives_space_back_and_keeps_every_record(mem: MemoryService) -> None:
    seed(mem)
    kept = fill_and_delete(mem)
    before = everything(mem)
    seen: list[Progress] = []
    report = mem.compact(progress=seen.append)
    assert not report.cancelled
    assert [s.store for s in report.stores] == ["workspace", "user"]
    assert all(s.status == "compacted" and s.ran and s.reason is None for s in report.stores)
    user = report.stores[1]
    assert user.bytes_before is not None and user.bytes_after is not None
    assert user.bytes_after < user.bytes_before  # the deleted notes' pages are gone
    assert report.freed_bytes >= user.freed_bytes > 0
    assert [p.stage for p in seen] == ["compact:workspace", "compact:user", "done"]
    # The data is exactly what it was, and the search index still finds it.
    assert everything(mem) == before
    with mem.user_store.read() as r:
        assert sorted(r.node_ids(NodeFilter(statuses=None))) == sorted(
            [*kept, *before[1]["nodes"].keys() - set(kept)]
        )
    assert mem.search_nodes(query="笔记", limit=500, user_id="u1")
    assert any(n.title == "用户不吃香菜" for n in mem.search_nodes(query="香菜", limit=10))
    # Compacting again frees (almost) nothing and changes nothing.
    again = mem.compact()
    assert again.stores[1].bytes_after is not None
    assert again.stores[1].bytes_after <= user.bytes_after * 1.05
    assert everything(mem) == before


@pytest.mark.sqlite_only(reason="the sizes of the SQLite files and SQLite's integrity check")
def test_the_sqlite_file_shrinks_and_passes_the_integrity_check(mem: MemoryService) -> None:
    fill_and_delete(mem)
    db = Path(mem.user_store.health.location)
    wal = db.with_name(db.name + "-wal")
    on_disk = db.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    report = mem.compact()
    user = report.stores[1]
    assert user.backend == "sqlite" and user.location == str(db)
    assert user.ran == [
        "INSERT INTO memory_nodes_fts(memory_nodes_fts) VALUES('optimize')",
        "VACUUM",
        "PRAGMA wal_checkpoint(TRUNCATE)",
    ]
    assert user.bytes_before == on_disk
    files = {Path(f.path): f for f in user.files}
    assert files[db].bytes_after == db.stat().st_size == user.bytes_after
    assert files[wal].bytes_after == 0 and wal.stat().st_size == 0  # the WAL was truncated
    assert user.bytes_after < on_disk / 4
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        con.execute("INSERT INTO memory_nodes_fts(memory_nodes_fts) VALUES('integrity-check')")
        assert con.execute("PRAGMA freelist_count").fetchone() == (0,)
    finally:
        con.close()


@pytest.mark.postgres
def test_on_postgresql_vacuum_full_runs_and_the_schema_shrinks(
    pg_server: PgServer, tmp_path: Path
) -> None:
    backend = Backend("postgres", pg_server)
    try:
        mem = backend.open_memory(tmp_path)
        seed(mem)
        fill_and_delete(mem)
        before = everything(mem)
        report = mem.compact()
        for entry in report.stores:
            assert entry.backend == "postgresql" and entry.status == "compacted"
            assert entry.files == []  # the server's files are not this machine's
            assert len(entry.ran) == 1 and entry.ran[0].startswith("VACUUM (FULL, ANALYZE) ")
            assert "memory_nodes_fts" in entry.ran[0] and "memory_messages" in entry.ran[0]
            assert "schema " in entry.location
        user = report.stores[1]
        assert user.bytes_before is not None and user.bytes_after is not None
        assert user.bytes_after < user.bytes_before
        assert everything(mem) == before
    finally:
        backend.close_all()


@pytest.mark.postgres
def test_on_postgresql_a_table_locked_by_another_program_fails_that_store_only(
    pg_server: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres_dialect, "LOCK_TIMEOUT_MS", 300)
    backend = Backend("postgres", pg_server)
    blocker = create_engine(pg_server.url)
    try:
        mem = backend.open_memory(tmp_path)
        seed(mem)
        before = everything(mem)
        schema = mem.user_store.health.location.rsplit("schema ", 1)[1].rstrip(")")
        with blocker.connect() as conn:
            # A reader in the middle of a transaction: VACUUM FULL cannot take the table.
            conn.execute(text(f"LOCK TABLE {schema}.memory_usage IN ACCESS SHARE MODE"))
            report = mem.compact()
            conn.rollback()
        ws, user = report.stores
        assert ws.status == "compacted"
        assert user.status == "failed" and user.reason is not None
        assert "locked" in user.reason and "as it was" in user.reason
        assert everything(mem) == before
        assert mem.compact().stores[1].status == "compacted"  # the lock is gone
    finally:
        blocker.dispose()
        backend.close_all()


def test_a_cancel_is_honoured_between_stores(mem: MemoryService) -> None:
    seed(mem)
    before = everything(mem)
    token = CancelToken()

    def stop(p: Progress) -> None:
        if p.stage == "compact:workspace":
            token.cancel()  # while the workspace store is being compacted

    report = mem.compact(progress=stop, cancel=token)
    assert report.cancelled
    ws, user = report.stores
    assert ws.status == "compacted" and ws.ran  # the store under way finished
    assert user.status == "cancelled" and not user.ran and user.bytes_after is None
    assert everything(mem) == before

    token = CancelToken()
    token.cancel()
    early = mem.compact(cancel=token)
    assert early.cancelled and [s.status for s in early.stores] == ["cancelled", "cancelled"]
    assert early.freed_bytes == 0


def test_stores_that_cannot_be_compacted_are_reported(
    mem: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mem.user_store.health, "status", "readonly")
    monkeypatch.setattr(mem.user_store.health, "reason", "the file is read-only")

    def locked() -> None:
        raise StoreUnavailable("memory store stayed locked by another process; try again")

    monkeypatch.setattr(mem.workspace_store, "compact", locked)
    report = mem.compact()
    ws, user = report.stores
    assert ws.status == "failed" and ws.reason is not None and "locked" in ws.reason
    assert "as it was" in ws.reason
    assert (
        user.status == "skipped" and user.reason == "the store is readonly: the file is read-only"
    )
    assert not report.cancelled and report.freed_bytes == 0
