"""Snapshot reads (``SqlStore.snapshot``): the hot path's read transactions on a
connection each reading thread keeps (``store.thread_pins``), on a real SQLite file.

They must mean exactly what ``read()`` means: one consistent snapshot each, every commit
before it seen, errors translated, nothing left open that blocks a writer or a
checkpoint, and no connection left behind by threads that come and go.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from ekko_memory.errors import InvalidInput, StoreUnavailable
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.store.thread_pins import PIN_INFO, PINNED_THREADS
from tests.core.factories import make_node


@pytest.fixture
def file_store(tmp_path: Path) -> SqlStore:
    s = SqlStore.open_sqlite(tmp_path / "m.db")
    assert s.health.status == "ok", s.health
    yield s  # type: ignore[misc]
    s.close()


def _titles(store: SqlStore) -> list[str]:
    with store.snapshot() as r:
        return sorted(n.title for n in r.find_nodes(NodeFilter(), limit=None))


def test_each_snapshot_sees_every_commit_before_it(file_store: SqlStore, tmp_path: Path) -> None:
    file_store.upsert_node(make_node(title="第一条"))
    assert _titles(file_store) == ["第一条"]
    # Another process's commit (another connection to the file), between two reads on
    # the same pinned connection.
    other = SqlStore.open_sqlite(tmp_path / "m.db")
    try:
        other.upsert_node(make_node(title="第二条", key="avoid_other", value_json="葱"))
    finally:
        other.close()
    assert _titles(file_store) == ["第一条", "第二条"]
    assert file_store._pins.held() == 1


def test_a_snapshot_is_one_snapshot(file_store: SqlStore, tmp_path: Path) -> None:
    """A commit made while a snapshot is open is not seen inside it, only after it."""
    file_store.upsert_node(make_node(title="之前"))
    with file_store.snapshot() as r:
        before = r.count_nodes(NodeFilter())
        writer = sqlite3.connect(tmp_path / "m.db")
        try:
            writer.execute("PRAGMA busy_timeout = 5000")
            writer.execute("UPDATE memory_nodes SET title = '之后'")
            writer.commit()
        finally:
            writer.close()
        assert r.count_nodes(NodeFilter(title="之前")) == before == 1
    assert _titles(file_store) == ["之后"]


def test_a_query_through_sqlalchemy_inside_a_snapshot_then_a_write(file_store: SqlStore) -> None:
    """A reader method that runs through SQLAlchemy (not the driver) inside a snapshot
    finds the transaction already begun; afterwards the thread's writes still work."""
    file_store.upsert_node(make_node())
    for i in range(2):
        with file_store.snapshot() as r:
            marks = r.change_marks()  # SQLAlchemy's exec_driver_sql
            assert r.count_nodes(NodeFilter()) == 1 + i
        assert len(marks) == 5
        file_store.upsert_node(make_node(key="avoid_x", value_json=f"x{i}"))
    with file_store.read() as r:
        assert r.count_nodes(NodeFilter()) == 3


def test_a_nested_snapshot_reads_through_the_pool(file_store: SqlStore) -> None:
    file_store.upsert_node(make_node())
    with file_store.snapshot() as outer, file_store.snapshot() as inner:
        assert outer.count_nodes(NodeFilter()) == inner.count_nodes(NodeFilter()) == 1
        assert outer.conn is not inner.conn
    assert file_store._pins.held() == 1
    assert _titles(file_store) == ["用户不吃香菜"]


def test_errors_inside_a_snapshot_mean_what_they_mean_in_a_read(file_store: SqlStore) -> None:
    """A driver error is the store's own error, a lone surrogate is invalid input, and
    the thread's next snapshot works on the same connection."""
    file_store.upsert_node(make_node())
    with pytest.raises(Exception) as caught, file_store.snapshot() as r:
        r._rows("SELEC nothing", {})
    assert not isinstance(caught.value, sqlite3.Error), caught.value
    with pytest.raises(InvalidInput, match="lone surrogate"), file_store.snapshot() as r:
        r.count_nodes(NodeFilter(title="\ud800"))
    with pytest.raises(KeyError), file_store.snapshot() as r:
        raise KeyError("a bug in the caller")
    assert _titles(file_store) == ["用户不吃香菜"]
    assert file_store._pins.held() == 1


def test_idle_pins_block_no_writer_and_no_checkpoint(file_store: SqlStore, tmp_path: Path) -> None:
    """Between snapshots a pinned connection holds no read lock: another process writes
    and a TRUNCATE checkpoint empties the write-ahead log."""
    file_store.upsert_node(make_node())
    _titles(file_store)
    other = sqlite3.connect(tmp_path / "m.db", timeout=0.2)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE memory_nodes SET importance = 0.5")
        other.execute("COMMIT")
        busy, _, _ = other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        other.close()
    assert busy == 0
    assert (tmp_path / "m.db-wal").stat().st_size == 0


def test_threads_that_come_and_go_leave_at_most_a_few_connections(file_store: SqlStore) -> None:
    file_store.upsert_node(make_node())
    seen: list[list[str]] = []
    for _ in range(PINNED_THREADS * 3):
        t = threading.Thread(target=lambda: seen.append(_titles(file_store)))
        t.start()
        t.join(timeout=30)
    assert seen == [["用户不吃香菜"]] * (PINNED_THREADS * 3)
    assert file_store._pins.held() <= PINNED_THREADS
    # A connection given back to the pool is nobody's pin any more; plain transactions
    # use it as any other.
    pinned = file_store._pins.held()  # threads run one by one may share an id: ≥ 1
    assert pinned >= 1
    file_store._pins.close()
    idle = list(file_store.engine.pool._pool.queue)  # type: ignore[union-attr,attr-defined]
    assert len(idle) >= pinned and all(PIN_INFO not in record.info for record in idle)
    file_store.upsert_node(make_node(key="avoid_y", value_json="蒜"))
    assert len(_titles(file_store)) == 2


def test_threads_reading_at_once_each_read_their_own_snapshot(file_store: SqlStore) -> None:
    file_store.upsert_node(make_node())
    errors: list[BaseException] = []

    def reader() -> None:
        try:
            for _ in range(200):
                assert _titles(file_store) == ["用户不吃香菜"]
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=reader) for _ in range(PINNED_THREADS + 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert file_store._pins.held() <= PINNED_THREADS


def test_closing_the_store_closes_the_pins_and_later_snapshots_refuse(tmp_path: Path) -> None:
    store = SqlStore.open_sqlite(tmp_path / "m.db")
    store.upsert_node(make_node())
    _titles(store)
    assert store._pins.held() == 1
    store.close()
    assert store._pins.held() == 0
    with pytest.raises(StoreUnavailable, match="closed"), store.snapshot():
        pass


def test_an_in_memory_store_reads_through_its_one_connection() -> None:
    store = SqlStore.open_in_memory()
    try:
        store.upsert_node(make_node())
        assert _titles(store) == ["用户不吃香菜"]
        assert store._pins.held() == 0
    finally:
        store.close()


def test_a_forked_child_reads_on_its_own_connection(file_store: SqlStore) -> None:
    """A child forked after a pinned read reuses the parent's thread id: it must read on
    a connection of its own, and leave the parent's working."""
    import os

    file_store.upsert_node(make_node())
    _titles(file_store)
    parent_pin = file_store._pins.take(file_store.engine)  # type: ignore[arg-type]
    assert parent_pin is not None
    file_store._pins.give_back(parent_pin)
    pid = os.fork()
    if pid == 0:  # the child: report through the exit code only
        code = 1
        try:
            ok = _titles(file_store) == ["用户不吃香菜"]
            mine = file_store._pins.take(file_store.engine)  # type: ignore[arg-type]
            code = 0 if ok and mine is not None and mine is not parent_pin else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert _titles(file_store) == ["用户不吃香菜"]
    again = file_store._pins.take(file_store.engine)  # type: ignore[arg-type]
    assert again is parent_pin
    file_store._pins.give_back(again)
