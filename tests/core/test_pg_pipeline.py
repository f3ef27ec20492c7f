"""``store.pg_pipeline``: statements queued in libpq and sent with one flush and one
``Sync``, on a real PostgreSQL server; and a turn's reads through it surviving what
psycopg may do to the prepared statements of a connection they share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ekko_memory.service.config import EmbedderConfig, MemoryConfig
from ekko_memory.store import pg_pipeline
from ekko_memory.store.pg_pipeline import Sent
from tests.backends import Backend, PgServer
from tests.core import context_corpus
from tests.core.context_corpus import MESSAGES

pytestmark = pytest.mark.postgres

KEYWORD_ONLY = MemoryConfig(embedder=EmbedderConfig(provider="none"))


@pytest.fixture
def driver(pg_server: PgServer) -> Iterator[Any]:
    import psycopg

    conn = psycopg.connect(pg_server.url.replace("postgresql+psycopg", "postgresql"))
    conn.autocommit = True
    yield conn
    conn.close()


def ours(driver: Any) -> set[str]:
    """This module's prepared statements on the connection, as the server lists them."""
    rows = driver.execute(
        "SELECT name FROM pg_prepared_statements WHERE name LIKE 'ekko\\_%'"
    ).fetchall()
    return {r[0] for r in rows}


def test_answers_come_back_in_order_with_their_types(driver: Any) -> None:
    statements = [
        Sent("SELECT :a::int + 1, :b::text || 'x'", {"a": 41, "b": "y"}, True),
        Sent("SELECT generate_series(1, :n)", {"n": 3}, False),
        Sent("SELECT 'it''s :not_a_param', :a::int", {"a": 7}, True),
        Sent("SELECT 1 WHERE false", {}, True),
    ]
    rows = pg_pipeline.run(driver, "BEGIN READ ONLY", statements, "COMMIT")
    assert rows == [[(42, "yx")], [(1,), (2,), (3,)], [("it's :not_a_param", 7)], []]
    # Run again: the prepared ones are reused (no new names), the answers the same.
    names = ours(driver)
    assert len(names) == 3
    assert pg_pipeline.run(driver, "BEGIN READ ONLY", statements, "COMMIT") == rows
    assert ours(driver) == names
    # The connection is usable by psycopg afterwards, outside any transaction.
    assert driver.execute("SELECT 1").fetchone() == (1,)
    assert driver.info.transaction_status.name == "IDLE"


def test_a_failed_statement_raises_its_error_after_the_pipeline_is_read(driver: Any) -> None:
    import psycopg

    statements = [
        Sent("SELECT 1", {}, True),
        Sent("SELECT 1 / :zero", {"zero": 0}, True),
        Sent("SELECT 2", {}, True),
    ]
    with pytest.raises(psycopg.errors.DivisionByZero):
        pg_pipeline.run(driver, "BEGIN", statements, "COMMIT")
    # Read to its Sync: out of pipeline mode, in the failed transaction, which a
    # ROLLBACK ends; the failed statement's name is not trusted again.
    assert driver.info.transaction_status.name == "INERROR"
    driver.execute("ROLLBACK")
    assert pg_pipeline.run(driver, "BEGIN", statements[:1], "COMMIT") == [[(1,)]]


def test_statements_deallocated_behind_its_back_are_prepared_again(driver: Any) -> None:
    statements = [Sent("SELECT :a::int * 2", {"a": 21}, True)]
    assert pg_pipeline.run(driver, "BEGIN", statements, "COMMIT") == [[(42,)]]
    before = ours(driver)
    # What psycopg sends after a DROP, ALTER or ROLLBACK it ran with statements of its
    # own prepared: every prepared statement of the connection goes.
    driver.execute("DEALLOCATE ALL")
    assert ours(driver) == set()
    assert pg_pipeline.run(driver, "BEGIN", statements, "COMMIT") == [[(42,)]]
    after = ours(driver)
    assert len(after) == 1
    assert not after & before  # a new name: an old one may still live elsewhere
    assert driver.info.transaction_status.name == "IDLE"


def test_the_least_recently_used_statements_are_deallocated(
    driver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_pipeline, "PREPARED_MAX", 2)
    for i in range(5):
        pg_pipeline.run(driver, "BEGIN", [Sent(f"SELECT {i} + :a::int", {"a": 1}, True)], "COMMIT")
    # Each pipeline first deallocates down to the limit, then prepares its own.
    assert len(ours(driver)) == 3
    # The kept ones are the newest, and the module knows exactly those.
    known = set(pg_pipeline._prepared[driver].names.values())
    assert ours(driver) == {n.decode() for n in known}
    assert pg_pipeline.run(
        driver, "BEGIN", [Sent("SELECT 4 + :a::int", {"a": 1}, True)], "COMMIT"
    ) == [[(5,)]]


def test_a_turn_survives_its_connections_losing_their_prepared_statements(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """build_context's kept connections are psycopg's too: when psycopg deallocates
    every prepared statement of one, the next turn prepares its own again (no warning,
    the same context)."""
    backend = Backend("postgres", pg_server)
    try:
        mem = backend.open_memory(tmp_path, config=KEYWORD_ONLY)
        context_corpus.seed(mem, 200)
        before = mem.build_context("s1", MESSAGES[1], user_id="u1", workspace_id="w1")
        drivers = [pin.driver for _, store in mem.stores() for pin in store._pins._held.values()]
        assert len(drivers) == 2  # one kept connection per store, this thread's
        for d in drivers:
            assert ours(d)
            d.execute("DEALLOCATE ALL")  # in a transaction, as SQLAlchemy's reads run
            d.rollback()  # prepared statements are not transactional: still gone
            assert ours(d) == set()
            d.rollback()
        after = mem.build_context("s1", MESSAGES[1], user_id="u1", workspace_id="w1")
        assert after.diagnostics.warnings == []
        assert after == before
        assert all(ours(d) for d in drivers)  # the same connections, prepared again
    finally:
        backend.close_all()


def test_a_pipeline_larger_than_the_sockets_hold_is_sent_and_read(driver: Any) -> None:
    """Megabytes each way: the server answers while the statements are still being
    sent, and blocks once its answers fill the socket; they are read meanwhile."""
    pad = "p" * 4000
    statements = [
        Sent("SELECT :i::int, repeat('x', 8000), length(:pad)", {"i": i, "pad": pad}, True)
        for i in range(1500)
    ]
    rows = pg_pipeline.run(driver, "BEGIN READ ONLY", statements, "COMMIT")
    assert [r[0][0] for r in rows] == list(range(1500))
    assert all(r[0][1] == "x" * 8000 and r[0][2] == 4000 for r in rows)
