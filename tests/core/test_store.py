"""The store half of the design doc's 测试验收 list, against a real SQLite file and a real
PostgreSQL schema (the ``store`` fixture runs each test on both)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from ekko_memory import MemoryService
from ekko_memory.errors import InvalidInput, NotFound
from ekko_memory.store import sqlite_dialect
from ekko_memory.store.filters import NodeFilter, where_sql
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.store.wal_checkpointer import SAFETY_NET_PAGES
from ekko_memory.timeutil import utcnow
from tests.backends import Backend
from tests.core.factories import hours, make_message, make_node, make_summary


def fts_rows(store: SqlStore) -> int:
    with store.read() as r:
        return int(r.conn.execute(text("SELECT count(*) FROM memory_nodes_fts")).scalar() or 0)


def test_topic_queries_by_range_or_in_priority_order_find_the_same(store: SqlStore) -> None:
    """A topic query is stated two equivalent ways for SQLite's planner (by category range
    when the topic is small, else in priority order); both find exactly the subtree."""
    paths = {
        "leaf": ["生活技能", "做饭"],
        "child": ["生活技能", "做饭", "饮食偏好"],
        "sibling": ["生活技能", "做饭-2"],
        "longer": ["生活技能", "做饭菜"],
    }
    ids = {}
    for name, path in paths.items():
        node = make_node(category_path=path, title=name, value_json=name)
        store.upsert_node(node)
        ids[name] = node.id
    topic = NodeFilter(
        scopes=("user",),
        domain="生活技能",
        types=("preference",),
        category_prefix=("生活技能", "做饭"),
    )
    with store.read() as r:
        ranked = [n.id for n in r.find_node_rows(topic, limit=10)]  # by range: 2² < 4 × 10
        top = [n.id for n in r.find_node_rows(topic, limit=1)]  # in priority order: 2² ≥ 4 × 1
        found = set(ranked)
        both = []
        for ranged in (True, False):
            cond, params = where_sql(topic, category_range=ranged)
            both.append(
                {row[0] for row in r._rows(f"SELECT id FROM memory_nodes WHERE {cond}", params)}
            )
    assert found == both[0] == both[1] == {ids["leaf"], ids["child"]}
    assert top == ranked[:1]
    # The choices are remembered: two of the scope's four preferences are read by range
    # for a limit of 10 (2² < 4 × 10), in priority order for a limit of 1 (2² ≥ 4 × 1).
    key = ("user", "生活技能", "preference", ("active",), ("生活技能", "做饭"))
    choices = store.dialect.topic_sizes.get([(key, 10), (key, 1)])[0]
    assert choices == {(key, 10): 1, (key, 1): 0}


def test_recent_messages_by_session_in_order(store: SqlStore) -> None:
    for i in range(10):
        store.append_message(make_message("s1", content=f"s1-{i}"))
        store.append_message(make_message("s2", content=f"s2-{i}"))
    recent = store.list_recent_messages(session_id="s1", limit=4)
    assert [m.content for m in recent] == ["s1-6", "s1-7", "s1-8", "s1-9"]
    assert all(m.session_id == "s1" for m in recent)


def test_latest_summary_is_the_newest_link(store: SqlStore) -> None:
    a, b, c = (make_message("s1", content=x) for x in "abc")
    for m in (a, b, c):
        store.append_message(m)
    first = make_summary("s1", a, b, "第一段")
    store.append_summary(first)
    second = make_summary("s1", b, c, "第二段", parent=first.id)
    store.append_summary(second)
    store.append_summary(make_summary("other", a, a, "别的会话"))
    latest = store.get_latest_summary(session_id="s1")
    assert latest is not None and latest.id == second.id
    assert latest.parent_summary_id == first.id
    assert store.get_latest_summary(session_id="nobody") is None


def test_a_summary_links_only_to_its_own_chain(store: SqlStore) -> None:
    """A parent that does not exist, or belongs to another session, would break the chain."""
    a = make_message(session_id="s1")
    store.append_message(a)
    first = make_summary("s1", a, a, "第一段")
    store.append_summary(first)
    for parent, session in (("sum_nothere", "s1"), (first.id, "s2")):
        with pytest.raises(InvalidInput, match="parentSummaryId"):
            store.append_summary(make_summary(session, a, a, "断链", parent=parent))
    with store.read() as r:
        assert [x.id for x in r.list_summaries("s1")] == [first.id]
        assert r.list_summaries("s2") == []


def test_active_query_hits_and_skips_expired(store: SqlStore) -> None:
    now = utcnow()
    live = make_node()
    expired = make_node(
        title="今天少辣",
        key="flavor_profile",
        value_json={"spicy": "low"},
        expires_at=now - hours(1),
    )
    other_domain = make_node(
        domain="理财", category_path=["理财"], key=None, value_json=None, title="每月定投"
    )
    store.upsert_node(live)
    store.upsert_node(expired)
    store.upsert_node(other_domain)
    got = store.list_active_nodes(domain="生活技能", category_path=["生活技能", "做饭"], limit=10)
    assert [n.id for n in got] == [live.id]


def test_repeated_node_queries_see_new_rows_and_keep_their_own_limits(store: SqlStore) -> None:
    """The store builds a frozen filter's statement once: what is cached is the statement,
    never the rows, and a caller's parameters never leak into the next query."""
    wanted = NodeFilter(scopes=("user",), types=("preference",))

    def found(limit: int) -> list[str]:
        with store.read() as r:
            return [row.id for row in r.find_node_rows(wanted, limit=limit)]

    first = [make_node(title=f"偏好 {i}", key=None, value_json=None) for i in range(3)]
    for node in first:
        store.upsert_node(node)
    assert len(found(2)) == 2
    assert sorted(found(10)) == sorted(n.id for n in first)
    with store.read() as r:
        _sql, params = r._find_sql(wanted, 2, 0, "priority")
        params["lim"] = 99
    assert len(found(2)) == 2
    later = make_node(title="新偏好", key=None, value_json=None)
    store.upsert_node(later)
    assert later.id in found(10) and len(found(10)) == 4


def test_key_and_value_exact_hit(store: SqlStore) -> None:
    cilantro = make_node()
    flavor = make_node(
        key="flavor_profile",
        value_json={"oil": "low", "spicy": "low"},
        title="用户偏好少油少辣",
        entities=["少油", "少辣"],
    )
    store.upsert_node(cilantro)
    store.upsert_node(flavor)
    with store.read() as r:
        hits = r.find_nodes(
            NodeFilter(
                scopes=["user"], domain="生活技能", types=["preference"], key="flavor_profile"
            )
        )
    assert [h.id for h in hits] == [flavor.id]
    assert hits[0].value_json == {"oil": "low", "spicy": "low"}


def test_soft_delete_hides_from_active_and_search(store: SqlStore) -> None:
    node = make_node()
    store.upsert_node(node)
    assert store.search_nodes(query="香菜", limit=5)
    assert store.delete_node(node_id=node.id, mode="soft", reason="用户要求忘记")
    assert store.list_active_nodes(limit=10) == []
    assert store.search_nodes(query="香菜", limit=5) == []
    with store.read() as r:
        kept = r.get_node(node.id)
        assert kept is not None and kept.status == "deleted"
        assert [e.event_type for e in r.audit_for_node(node.id)] == ["delete", "create"]


def test_hard_delete_removes_node_and_fts_rows(store: SqlStore) -> None:
    node = make_node(title="私密口味记录", content="独一无二的秘密配方XYZZY")
    keep = make_node(title="别的记忆", content="番茄炒蛋")
    store.upsert_node(node)
    store.upsert_node(keep)
    assert fts_rows(store) == 2
    assert store.delete_node(node_id=node.id, mode="hard", reason="用户要求彻底删除")
    assert fts_rows(store) == 1
    with store.read() as r:
        assert r.get_node(node.id) is None
        assert r.search_nodes("秘密配方", NodeFilter(statuses=None)) == []
        events = r.audit_for_node(node.id)
    # The audit trail keeps that something was deleted, not what.
    assert events[0].event_type == "hard_delete"
    assert all("秘密" not in (e.reason + str(e.payload)) for e in events)
    assert not store.delete_node(node_id=node.id, mode="hard", reason="again")


def test_supersede_is_atomic_and_audited(store: SqlStore) -> None:
    old = make_node()
    store.upsert_node(old)
    new = make_node(title="用户可接受少量香菜", value_json={"ingredient": "香菜", "amount": "少量"})
    store.supersede_node(old_node_id=old.id, new_node=new, actor="user", reason="用户纠正")
    with store.read() as r:
        assert r.get_node(old.id).status == "superseded"  # type: ignore[union-attr]
        head = r.get_node(new.id)
        assert head is not None and head.supersedes_id == old.id and head.status == "active"
        assert r.successor_of(old.id).id == new.id  # type: ignore[union-attr]
    with pytest.raises(NotFound):
        store.supersede_node(old_node_id="mem_nothere", new_node=make_node())


def test_failed_transaction_leaves_no_half_write(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ekko_memory.store.writer import StoreWriter

    old = make_node()
    store.upsert_node(old)
    before = fts_rows(store)

    def boom(self: StoreWriter, *a: object, **k: object) -> None:
        raise RuntimeError("disk full (injected)")

    # The failure comes after the status change and the insert, at the audit step.
    monkeypatch.setattr(StoreWriter, "add_audit", boom)
    new = make_node(title="半写入")
    with pytest.raises(RuntimeError):
        store.supersede_node(old_node_id=old.id, new_node=new)
    monkeypatch.undo()
    with store.read() as r:
        assert r.get_node(old.id).status == "active"  # type: ignore[union-attr]
        assert r.get_node(new.id) is None
        assert len(r.audit_for_node(old.id)) == 1
    assert fts_rows(store) == before


def test_two_stores_on_one_location_see_each_other(backend: Backend, tmp_path: Path) -> None:
    a = backend.open_store(tmp_path, "shared")
    b = backend.open_store(tmp_path, "shared")
    node = make_node()
    a.upsert_node(node)
    assert [n.id for n in b.list_active_nodes(limit=5)] == [node.id]
    b.upsert_node(make_node(title="另一条"))
    assert len(a.list_active_nodes(limit=5)) == 2
    a.close()
    b.close()


@pytest.mark.sqlite_only(reason="WAL is a property of the SQLite file")
def test_sqlite_file_runs_in_wal_mode(backend: Backend, tmp_path: Path) -> None:
    store = backend.open_store(tmp_path, "wal")
    with store.read() as r:
        assert r.conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.close()


@pytest.mark.sqlite_only(reason="SQLite's statistics table and write-ahead log file")
def test_maintenance_runs_outside_transactions(store: SqlStore) -> None:
    for i in range(50):
        store.upsert_node(make_node(title=f"记忆{i}", value_json=f"食材{i}"))
    store.analyze()
    with store.raw() as raw:
        # ANALYZE was committed (it used to be rolled back with its implicit transaction).
        assert store.dialect.has_statistics(raw)
        assert (
            raw.execute("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'memory_nodes'").fetchone()[
                0
            ]
            > 0
        )
    node = store.list_active_nodes(limit=1)[0]
    assert store.delete_node(node_id=node.id, mode="hard", reason="x")
    # The checkpoint completed: nothing left in the write-ahead log.
    assert store.scrub(vacuum=True) == []
    wal = Path(store.health.location + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


@pytest.mark.sqlite_only(reason="SQLite's write-ahead log")
def test_wal_is_checkpointed_off_the_writers(store: SqlStore) -> None:
    checkpointer = store.dialect.checkpointer
    assert checkpointer is not None
    with store.write() as w:
        # Writers keep only a far-off safety net; the checkpoints are the thread's.
        pages = w.conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        assert pages == SAFETY_NET_PAGES
    for i in range(checkpointer.every * 3):
        store.upsert_node(make_node(title=f"记忆{i}", value_json=f"食材{i}"))
    deadline = time.monotonic() + 10
    while checkpointer.runs == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert checkpointer.runs >= 1
    # The checkpoint copied committed pages into the file: a reader of the file alone
    # (the log deleted after a clean close) sees every write.
    thread = checkpointer._thread
    assert thread is not None and thread.is_alive()
    store.close()
    assert not thread.is_alive()
    with sqlite3.connect(store.health.location) as raw:
        count = raw.execute("SELECT count(*) FROM memory_nodes").fetchone()[0]
    assert count == checkpointer.every * 3


@pytest.mark.sqlite_only(reason="SQLite's page cache and write-ahead log")
def test_bulk_batches_keep_their_wide_settings_until_the_threads_next_read(
    store: SqlStore,
) -> None:
    """Batches of a bulk insert on the thread's kept connection find the index pages the
    batch before read (the wide cache stays), and leave the log to the background
    checkpoint, woken at once; the thread's next read takes a new connection, with the
    narrow settings. Every batch is committed as it ends: a reader of the file alone sees
    them all."""
    checkpointer = store.dialect.checkpointer
    assert checkpointer is not None
    checkpointer.every = 10**9  # only a bulk commit wakes it here

    def settings() -> tuple[int, int]:
        with store.write() as w:
            return (
                int(w.conn.exec_driver_sql("PRAGMA cache_size").scalar() or 0),
                int(w.conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() or 0),
            )

    narrow = settings()
    assert narrow == (sqlite_dialect.CACHE_KIB, SAFETY_NET_PAGES)
    for batch in range(2):
        with store.write() as w:
            w.insert_nodes(
                [
                    make_node(title=f"批量{batch}-{i}", value_json=f"食材{batch}-{i}")
                    for i in range(600)
                ]
            )
        assert settings() == (sqlite_dialect.BULK_CACHE_KIB, sqlite_dialect.BULK_SAFETY_NET_PAGES)
    deadline = time.monotonic() + 10
    while checkpointer.runs == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert checkpointer.runs >= 1
    with store.snapshot() as r:
        assert len(r.find_nodes(NodeFilter(statuses=["active"]), limit=5)) == 5
    assert settings() == narrow
    with sqlite3.connect(store.health.location) as raw:
        count = raw.execute("SELECT count(*) FROM memory_nodes").fetchone()[0]
    assert count == 1200


@pytest.mark.sqlite_only(reason="SQLite's write-ahead log")
def test_a_scrub_waits_for_the_background_checkpoint(store: SqlStore) -> None:
    checkpointer = store.dialect.checkpointer
    assert checkpointer is not None
    checkpointer.every = 10**9
    for i in range(300):
        store.upsert_node(make_node(title=f"秘密{i}", value_json=f"食材{i}"))
    # The next commit wakes the thread on a long log: a checkpoint is copying pages
    # while the hard delete's scrub asks for its own (TRUNCATE) checkpoint.
    checkpointer.every = 1
    store.upsert_node(make_node(title="最后一条", value_json="葱"))
    assert store.scrub() == []
    wal = Path(store.health.location + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_the_facade_takes_the_store_operations_as_the_design_doc_spells_them(
    mem: MemoryService,
) -> None:
    """The design doc's MemoryStore on the facade, its required inputs in the design doc's
    order, positionally (``list_recent_messages("s1", 5)``) as well as by name."""
    first, last = make_message(content="以后别放香菜"), make_message(role="assistant")
    mem.append_message(first)
    mem.append_message(last)
    assert [m.id for m in mem.list_recent_messages("s1", 5)] == [first.id, last.id]
    mem.append_summary(make_summary("s1", first, last, "不放香菜"))
    latest = mem.get_latest_summary("s1")
    assert latest is not None and latest.summary == "不放香菜"
    old = make_node()
    mem.upsert_node(old)
    new = make_node(value_json="芹菜", title="用户不吃芹菜", supersedes_id=old.id)
    mem.supersede_node(old.id, new)
    assert [n.id for n in mem.search_nodes("芹菜", 5)] == [new.id]
    assert [n.id for n in mem.list_active_nodes(limit=5, user_id="u1")] == [new.id]
    assert mem.delete_node(new.id, "soft", "用户要求") is True
    assert mem.search_nodes(query="芹菜", limit=5) == []


def test_audit_events_page_through_a_bulk_write_of_one_moment(mem: MemoryService) -> None:
    """A bulk write stamps its events with one moment, in both stores: paging from the
    last event of each page (time and id) reads each event once, in order; the first
    page is the oldest events, not the newest of the two stores merged."""
    at = utcnow()
    for store, count in ((mem.workspace_store, 23), (mem.user_store, 9)):
        with store.write() as w:
            for i in range(count):
                w.add_audit("create", actor="user", reason=f"bulk {i}", node_id=f"mem_{i}", at=at)
    seen: list[str] = []
    since, after = at, None
    while True:
        page = mem.browse.audit_since(since, 7, after)
        seen += [e.id for e in page]
        if len(page) < 7:
            break
        since, after = page[-1].created_at, page[-1].id
    everything = mem.browse.audit_since(None, 1000)
    assert len(everything) == 32
    assert seen == [e.id for e in everything]


@pytest.mark.sqlite_only(reason="SQLite's data_version")
def test_the_change_count_moves_with_every_commit_from_anywhere(tmp_path: Path) -> None:
    """What lets a reader keep a result (the session's newest user message) until the
    file changes: any commit moves it, this store's own and another connection's."""
    store = SqlStore.open_sqlite(tmp_path / "m.db")
    first = store.change_count()
    assert first is not None and store.change_count() == first  # nothing committed
    store.append_message(make_message())
    second = store.change_count()
    assert second != first
    with sqlite3.connect(tmp_path / "m.db") as other:  # another program
        other.execute("DELETE FROM memory_messages")
    assert store.change_count() not in (first, second)
    store.close()
    assert store.change_count() is None


def test_the_newest_user_message_is_read_again_only_after_a_commit(
    mem: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "第一句")
    reads: list[int] = []
    opened = SqlStore.snapshot

    def counted(store: SqlStore) -> Any:
        reads.append(1)
        return opened(store)

    monkeypatch.setattr(SqlStore, "snapshot", counted)
    assert s.latest_user_message().content == "第一句"  # type: ignore[union-attr]
    assert s.latest_user_message().content == "第一句"  # type: ignore[union-attr]
    kept = mem.workspace_store.change_count() is not None  # SQLite: kept; a server: read
    assert len(reads) == (1 if kept else 2)
    mem.session("s1", user_id="u1", workspace_id="w1").append_message("user", "第二句")
    assert s.latest_user_message().content == "第二句"  # type: ignore[union-attr]


def test_a_message_follows_the_newest_one_left_after_a_delete(mem: MemoryService) -> None:
    """The app deleted the message this handle appended last: the next one's parent is the
    newest message still in the log, not an id that no longer exists."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    kept = s.append_message("user", "今晚吃什么？")
    gone = s.append_message("user", "我的手机号是 13812345678")
    assert gone.parent_id == kept.id
    mem.delete_messages([gone.id], actor="user", reason="private")
    after = s.append_message("assistant", "好的")
    assert after.parent_id == kept.id
    assert mem.list_recent_messages(session_id="s1", limit=5)[-1].parent_id == kept.id


def test_an_upgrade_gives_older_memories_the_newer_synonyms_subjects(
    backend: Backend, tmp_path: Path
) -> None:
    """A memory stored before the lexicon knew shellfish is 贝类 (an agent's "shellfish")
    is indexed under its canonical name after the upgrade, so a later 贝类 allergy is a
    duplicate of it and an exact look-up for 贝类 finds it."""
    store = backend.open_store(tmp_path)
    node = make_node(key="avoid_ingredient", value_json="shellfish", title="Allergic to shellfish")
    store.upsert_node(node)
    # The row as the release before left it: subject as said, schema version 10.
    with store.write() as w:
        w.conn.execute(text("UPDATE memory_nodes SET subject = 'shellfish'"))
        w.conn.execute(text("DELETE FROM memory_schema_migrations WHERE version >= 11"))
    store.close()
    upgraded = backend.open_store(tmp_path)
    assert upgraded.health.status == "ok"
    with upgraded.read() as r:
        subjects = r.conn.execute(text("SELECT subject FROM memory_nodes")).scalars().all()
    assert subjects == ["贝类"]
