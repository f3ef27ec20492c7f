"""What only PostgreSQL has: a server that can be unreachable, refuse a password, be
read-only or hold a lock; schemas, transactional migrations, LISTEN/NOTIFY; several
processes writing to one store at once. The portable behaviour is covered by every
other core test, which runs on both backends."""

from __future__ import annotations

import contextlib
import multiprocessing
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, make_url, text

from ekko_memory import InvalidInput, open_memory
from ekko_memory.errors import StoreUnavailable
from ekko_memory.store import migrations, postgres_dialect
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.sql_store import SqlStore
from tests.backends import PgServer
from tests.core.factories import make_message, make_node
from tests.core.helpers import COOKING

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(pg_server: PgServer) -> PgServer:
    return pg_server


@pytest.fixture
def pg_store(pg: PgServer) -> Iterator[SqlStore]:
    schema = f"{pg.new_namespace()}_store"
    pg.schemas.append(schema)
    s = SqlStore.open_postgres(pg.url, schema=schema)
    assert s.health.status == "ok", s.health
    yield s
    s.close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_url(url: str, **parts: Any) -> str:
    return make_url(url).set(**parts).render_as_string(hide_password=False)


# --- opening --------------------------------------------------------------------------


def test_unreachable_server_opens_disabled_and_the_agent_goes_on(pg: PgServer) -> None:
    url = with_url(pg.url, port=closed_port())
    mem = open_memory(url=url, namespace="nobody")
    for h in mem.health().values():
        assert h.status == "disabled"
        assert "cannot connect to PostgreSQL" in (h.reason or "")
        assert "***" in h.location and make_url(pg.url).password not in (h.reason or "")
    ctx = mem.session("s1", user_id="u1").build_context("今晚吃什么？")
    assert ctx.diagnostics.enabled is False
    assert [m.content for m in ctx.recent_messages] == ["今晚吃什么？"]
    res = mem.session("s1").call_tool("memory_search", {"queryText": "香菜"})
    assert isinstance(res, dict)
    mem.close()


def test_wrong_password_says_so(pg: PgServer) -> None:
    store = SqlStore.open_postgres(with_url(pg.url, password="wrong"), schema="x_store")
    assert store.health.status == "disabled"
    assert "password authentication failed" in (store.health.reason or "")


def test_unusable_urls_are_refused_clearly(tmp_path: Path) -> None:
    for url, says in [
        ("mysql://u@h/db", "unsupported database URL scheme"),
        ("postgresql+psycopg2://u@h/db", "unsupported database URL scheme"),
        ("postgresql://u@h", "names no database"),
        ("not a url", "not a database URL"),
    ]:
        with pytest.raises(InvalidInput, match=says):
            open_memory(url=url)
    with pytest.raises(InvalidInput, match="lower-case"):
        open_memory(url="postgresql://u@h/db", namespace="Bad-Name")
    with pytest.raises(InvalidInput, match="workspace folder or a database URL"):
        open_memory()


def test_url_forms_and_environment(pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    ns = pg.new_namespace()
    pg.schemas += [f"{ns}_workspace", f"{ns}_user"]
    plain = pg.url.replace("postgresql+psycopg://", "postgres://")
    monkeypatch.setenv("EKKO_DATABASE_URL", plain)
    monkeypatch.setenv("EKKO_DATABASE_NAMESPACE", ns)
    mem = open_memory()
    assert [h.status for h in mem.health().values()] == ["ok", "ok"]
    assert mem.workspace_store.health.location.endswith(f"(schema {ns}_workspace)")
    assert mem.user_store.health.location.endswith(f"(schema {ns}_user)")
    mem.close()


def test_workspace_folder_is_still_sqlite_even_with_the_environment(
    pg: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EKKO_DATABASE_URL", pg.url)
    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    assert mem.workspace_store.dialect.name == "sqlite"
    assert (tmp_path / "ws" / ".ekko" / "memory.db").exists()
    mem.close()


def test_read_only_server_reads_but_refuses_writes(pg: PgServer) -> None:
    db = f"ro_{pg.new_namespace()}"
    admin = create_engine(pg.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {db}")
    url = with_url(pg.url, database=db)
    first = SqlStore.open_postgres(url, schema="ekko_store")
    first.upsert_node(make_node())
    first.close()
    with admin.connect() as conn:
        conn.exec_driver_sql(f"ALTER DATABASE {db} SET default_transaction_read_only = on")
    ro = SqlStore.open_postgres(url, schema="ekko_store")
    assert ro.health.status == "readonly", ro.health
    assert len(ro.list_active_nodes(limit=5)) == 1
    with pytest.raises(StoreUnavailable):
        ro.upsert_node(make_node())
    ro.close()
    with admin.connect() as conn:
        conn.exec_driver_sql(f"DROP DATABASE {db} WITH (FORCE)")
    admin.dispose()


# --- schema ---------------------------------------------------------------------------


def test_failed_migration_rolls_back_whole(
    pg: PgServer, pg_store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg_store.upsert_node(make_node())
    schema = pg_store.dialect.schema  # type: ignore[attr-defined]
    pg_store.close()

    def broken_step(conn, dialect) -> None:  # type: ignore[no-untyped-def]
        conn.execute(text("CREATE TABLE half_done (x INTEGER)"))
        conn.execute(text("ALTER TABLE memory_nodes ADD COLUMN half_col INTEGER"))
        raise RuntimeError("step exploded")

    latest = migrations.latest_version()
    monkeypatch.setattr(
        migrations, "MIGRATIONS", [*migrations.MIGRATIONS, (latest + 1, "broken", broken_step)]
    )
    failed = SqlStore.open_postgres(pg.url, schema=schema)
    assert failed.health.status == "disabled"
    assert "step exploded" in (failed.health.reason or "")
    monkeypatch.undo()
    again = SqlStore.open_postgres(pg.url, schema=schema)
    assert again.health.status == "ok" and again.health.schema_version == latest
    with again.read() as r:
        names = set(
            r.conn.exec_driver_sql(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()"
            ).scalars()
        )
        cols = set(
            r.conn.exec_driver_sql(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = 'memory_nodes'"
            ).scalars()
        )
        assert r.count_nodes(NodeFilter()) == 1
    assert "half_done" not in names and "half_col" not in cols
    again.close()


def test_newer_schema_is_refused(pg: PgServer, pg_store: SqlStore) -> None:
    with pg_store.write() as w:
        w.conn.execute(
            text("INSERT INTO memory_schema_migrations VALUES (99, '2030-01-01T00:00:00Z')")
        )
    schema = pg_store.dialect.schema  # type: ignore[attr-defined]
    store = SqlStore.open_postgres(pg.url, schema=schema)
    assert store.health.status == "disabled" and "newer" in (store.health.reason or "")


def test_two_stores_in_two_schemas_are_apart(pg: PgServer, tmp_path: Path) -> None:
    ns = pg.new_namespace()
    pg.schemas += [f"{ns}_workspace", f"{ns}_user"]
    mem = open_memory(url=pg.url, namespace=ns)
    mem.upsert_node(make_node(scope="user"))
    assert len(mem.user_store.list_active_nodes(limit=5)) == 1
    assert mem.workspace_store.list_active_nodes(limit=5) == []
    mem.close()


def test_text_columns_sort_by_code_point_whatever_the_database_collation(
    pg: PgServer, pg_store: SqlStore
) -> None:
    with pg_store.read() as r:
        collations = set(
            r.conn.exec_driver_sql(
                "SELECT collation_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND data_type = 'text' "
                "AND table_name LIKE 'memory%%'"
            ).scalars()
        )
    assert collations == {"C"}
    # The category subtree is a range on the path text; siblings that a language
    # collation would interleave ('做饭/…' vs '做饭0', '做饭-') stay apart.
    inside = make_node(category_path=[*COOKING[:2], "菜谱"])
    outside = make_node(category_path=["生活技能", "做饭0"], title="别的")
    dash = make_node(category_path=["生活技能", "做饭-x"], title="也是别的")
    for n in (inside, outside, dash):
        pg_store.upsert_node(n)
    got = pg_store.list_active_nodes(limit=10, category_path=COOKING[:2])
    assert [n.id for n in got] == [inside.id]


# --- transactions, locks, errors ------------------------------------------------------


def test_held_write_lock_gives_a_clear_error(pg: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    schema = f"{pg.new_namespace()}_store"
    pg.schemas.append(schema)
    monkeypatch.setattr(postgres_dialect, "LOCK_TIMEOUT_MS", 300)
    quick = SqlStore.open_postgres(pg.url, schema=schema)
    blocker = create_engine(pg.url)
    with blocker.connect() as conn:
        conn.execute(
            text("SELECT pg_advisory_xact_lock(:k)"), {"k": postgres_dialect.lock_key(schema)}
        )
        with pytest.raises(StoreUnavailable, match="locked"):
            quick.upsert_node(make_node())
        conn.rollback()
    quick.upsert_node(make_node())  # the lock is gone: writes go through
    assert quick.health.status == "ok"
    quick.close()
    blocker.dispose()


def test_unique_violation_is_a_conflict(pg_store: SqlStore) -> None:
    from ekko_memory.errors import Conflict

    msg = make_message()
    pg_store.append_message(msg)
    with pytest.raises(Conflict):
        pg_store.append_message(msg)


def test_store_survives_its_connections_being_killed(pg: PgServer, pg_store: SqlStore) -> None:
    pg_store.upsert_node(make_node())
    admin = create_engine(pg.url)
    with admin.connect() as conn:
        conn.exec_driver_sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'ekko-memory' AND pid <> pg_backend_pid()"
        )
    admin.dispose()
    # The pool notices dead connections before use and opens new ones.
    assert len(pg_store.list_active_nodes(limit=5)) == 1
    pg_store.upsert_node(make_node(title="之后"))
    assert pg_store.health.status == "ok"


class Forwarder:
    """A TCP port on loopback that passes connections on to the test server: the
    server as an agent sees it, down until ``start`` (nothing listens on the port)."""

    def __init__(self, target_port: int) -> None:
        self.port = closed_port()
        self.target_port = target_port
        self._listener: socket.socket | None = None

    def start(self) -> None:
        """Listen on the port and forward each connection (a thread per direction)."""
        self._listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(("127.0.0.1", self.target_port))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        """Stop listening (connections forwarded so far end with their ends)."""
        if self._listener is not None:
            self._listener.close()


def test_a_server_down_when_the_store_opened_is_used_once_it_is_up(
    pg: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent (an MCP server) started before its database server: the stores open
    disabled, and once the server answers they open by themselves — they had stayed
    disabled for the life of the process, while a server lost after opening came back."""
    from ekko_memory.store import sql_store

    monkeypatch.setattr(sql_store, "REOPEN_EVERY_S", 0.05)
    forwarder = Forwarder(make_url(pg.url).port or 5432)
    ns = pg.new_namespace()
    pg.schemas += [f"{ns}_workspace", f"{ns}_user"]
    mem = open_memory(url=with_url(pg.url, port=forwarder.port), namespace=ns)
    try:
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        assert s.build_context("今晚吃什么？").diagnostics.enabled is False
        forwarder.start()
        deadline = time.monotonic() + 30
        while any(h.status != "ok" for h in mem.health().values()):
            assert time.monotonic() < deadline, mem.health()
            time.sleep(0.05)
        s.append_message("user", "记住，我以后做饭不要香菜。")
        res = s.call_tool(
            "memory_propose_update", {"operation": "create", "reason": "说过", "node": CILANTRO}
        )
        assert res["accepted"], res
        ctx = s.build_context("今晚吃什么？")
        assert ctx.diagnostics.enabled and ctx.diagnostics.warnings == [], ctx.diagnostics
        assert [n.id for n in ctx.preferences] == [res["nodeId"]]
    finally:
        mem.close()
        forwarder.close()


def test_change_marks_move_on_commit_not_on_rollback(pg: PgServer, pg_store: SqlStore) -> None:
    other = SqlStore.open_postgres(pg.url, schema=pg_store.dialect.schema)  # type: ignore[attr-defined]
    with pg_store.read() as r:
        before = r.change_marks()
    with pytest.raises(RuntimeError), other.write() as w:
        w.insert_message(make_message())
        raise RuntimeError("rolled back")
    with pg_store.read() as r:
        assert r.change_marks() == before
    other.append_message(make_message())
    with pg_store.read() as r:
        after = r.change_marks()
    assert after != before
    with pg_store.read() as r:
        assert r.change_marks() == after
    other.close()


# --- several processes ----------------------------------------------------------------

CILANTRO = {
    "scope": "user",
    "domain": "生活技能",
    "type": "preference",
    "key": "avoid_ingredient",
    "valueJson": "香菜",
    "title": "用户不吃香菜",
}


def _writer(url: str, ns: str, worker: int, count: int) -> dict[str, int]:
    """One process: ``count`` governed proposals (explicit intent), plus the same fact."""
    mem = open_memory(url=url, namespace=ns)
    s = mem.session(f"s{worker}", user_id="u1", workspace_id="w1")
    out = {"accepted": 0, "errors": 0}
    for i in range(count):
        s.append_message("user", f"记住，以后做饭不要配料{worker}x{i}。")
        res = s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "concurrency",
                "node": {
                    **CILANTRO,
                    "valueJson": f"配料{worker}x{i}",
                    "title": f"不吃配料{worker}x{i}",
                },
            },
        )
        out["accepted" if res.get("accepted") else "errors"] += 1
        if i % 5 == 0:
            # Everyone proposes the same fact too: it must stay one node.
            s.append_message("user", "记住，我以后做饭不要香菜。")
            s.call_tool(
                "memory_propose_update",
                {"operation": "create", "reason": "same", "node": CILANTRO},
            )
    mem.close()
    return out


def test_several_processes_write_at_once_without_losing_anything(pg: PgServer) -> None:
    ns = pg.new_namespace()
    pg.schemas += [f"{ns}_workspace", f"{ns}_user"]
    open_memory(url=pg.url, namespace=ns).close()  # migrate once, up front
    workers, count = 4, 15
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        results = pool.starmap(_writer, [(pg.url, ns, w, count) for w in range(workers)])
    assert all(r == {"accepted": count, "errors": 0} for r in results), results
    mem = open_memory(url=pg.url, namespace=ns)
    with mem.user_store.read() as r:
        seqs = list(r.conn.exec_driver_sql("SELECT seq FROM memory_nodes").scalars())
        active = r.find_nodes(NodeFilter(), limit=None)
        audit = r.count_audit()
        fts = r.conn.exec_driver_sql("SELECT count(*) FROM memory_nodes_fts").scalar()
    assert len(seqs) == len(set(seqs)) == workers * count + 1
    assert sorted(seqs) == list(range(1, len(seqs) + 1))  # no gap, no duplicate
    assert len([n for n in active if n.value_json == "香菜"]) == 1
    assert len(active) == workers * count + 1 and fts == len(seqs)
    assert audit >= len(seqs)
    with mem.workspace_store.read() as r:
        messages = r.table_counts()["memory_messages"]
    assert messages == workers * count + workers * len(range(0, count, 5))
    mem.close()


# --- plans ---------------------------------------------------------------------------


def test_counts_that_steer_plans_are_never_prepared(pg_store: SqlStore) -> None:
    """psycopg prepares a statement it sees often, and PostgreSQL then runs a generic
    plan: for a capped count that is a sequential scan (turns of 50–150 ms at 100k
    nodes). Term counts and topic sizes are planned for their values every time, while
    the hot queries keep being prepared."""
    pg_store.upsert_node(make_node(title="红烧肉做法", content="五花肉焯水", category_path=COOKING))
    topic = NodeFilter(
        scopes=("user",),
        domain="生活技能",
        types=("preference",),
        category_prefix=("生活技能", "理财"),
    )
    with pg_store.read() as r:
        for _ in range(8):
            r.search_rows("我想做红烧肉", NodeFilter(), limit=5, any_term=True)
            r.find_node_rows(topic, limit=10)
            pg_store.dialect.term_cache = type(pg_store.dialect.term_cache)()  # count again
            pg_store.dialect.topic_sizes = type(pg_store.dialect.topic_sizes)()
        prepared = [row[0] for row in r._rows("SELECT statement FROM pg_prepared_statements", {})]
    assert prepared, "psycopg prepares the hot queries"
    counts = ("AS t(term, q)", "SELECT count(*) FROM (SELECT 1 FROM memory_nodes WHERE")
    assert not [s for s in prepared if any(mark in s for mark in counts)]
