"""Shared test setup: offscreen Qt before any Qt import, no test touches the real ~/.ekko,
and one throwaway PostgreSQL cluster per session for the core and app tests that run on
PostgreSQL (``pg_server``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from tests.backends import PgServer
from tests.pg_cluster import ClusterUnavailable, start_cluster
from tests.requirements import missing

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

BACKENDS = ("sqlite", "postgres")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        choices=("all", *BACKENDS),
        default=os.environ.get("EKKO_TEST_BACKEND", "all"),
        help="which store backends the core tests run on (default: all; "
        "PostgreSQL comes from $EKKO_TEST_PG_URL or a throwaway cluster)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--backend") != "sqlite":
        return
    skip = pytest.mark.skip(reason="--backend=sqlite")
    for item in items:
        if item.get_closest_marker("postgres") is not None:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _private_ekko_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    monkeypatch.setenv("EKKO_HOME", str(tmp_path_factory.mktemp("ekko-home")))
    monkeypatch.delenv("EKKO_DATABASE_URL", raising=False)
    monkeypatch.delenv("EKKO_DATABASE_NAMESPACE", raising=False)
    yield


@pytest.fixture(scope="session", autouse=True)
def _semantic_model_loaded() -> None:
    """The local embedding model in memory before the first test, as in an agent that has
    been running a while: until it has loaded (~3 s, in the background) a turn takes the
    keyword path, and which tests ran first would decide what a context holds."""
    from ekko_memory.service.semantic.embedders import local_available, warm_local_model

    if local_available():
        warm_local_model()


@pytest.fixture(autouse=True)
def _semantic_indexing_as_written(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each write's memories embedded as the write commits, on the writing thread: what a
    context or a search finds then never depends on how far the background indexer got
    (tests of the indexer itself are marked ``background_indexing``). A bulk write of
    more than a batch is left for ``reindex``: embedding thousands of a test's filler
    memories on the spot would only slow the test."""
    if request.node.get_closest_marker("background_indexing") is not None:
        return
    try:
        from ekko_memory.service.semantic.recall import EMBED_BATCH, Indexer
    except ImportError:  # the semantic extra is not installed
        return

    def embed_now(self: Indexer, name: str, node_ids: list[str]) -> None:
        if len(node_ids) > EMBED_BATCH:
            return  # a bulk load (a test's fill, an import): left for reindex
        store = dict(self.recall.service.stores())[name]
        with self.paused():
            self.embed_batch(name, store, node_ids)  # type: ignore[arg-type]

    monkeypatch.setattr(Indexer, "tell", embed_now)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace folder."""
    ws = tmp_path / "workspace"
    ws.mkdir()
    return ws


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the session: $EKKO_TEST_PG_URL (a disposable server where
    the user is a superuser: some tests create databases and read raw pages), or else a
    throwaway cluster."""
    url = os.environ.get("EKKO_TEST_PG_URL")
    cluster = None
    if not url:
        try:
            cluster = start_cluster()
        except ClusterUnavailable as e:
            missing(f"PostgreSQL unavailable: {e}", "apt install postgresql postgresql-contrib")
        url = cluster.url
    server = PgServer(url, cluster.folder / "data" if cluster else None)
    try:
        yield server
    finally:
        if cluster is not None:
            cluster.stop()
        elif server.schemas:
            # Someone else's server: leave it as we found it.
            engine = create_engine(url)
            with engine.begin() as conn:
                for schema in server.schemas:
                    conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            engine.dispose()
