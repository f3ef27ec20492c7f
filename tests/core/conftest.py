"""Core fixtures: a real service over real stores, on SQLite files and on PostgreSQL.

Every test that uses ``backend``, ``mem`` or ``store`` runs on both backends; a test of
the SQLite file itself (bytes, WAL, permissions, corruption) is marked
``sqlite_only(reason)`` and runs on SQLite alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from ekko_memory import MemoryService
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.timeutil import utcnow
from tests.backends import Backend
from tests.event_loops import running_loop_aside


class Clock:
    """A controllable clock for the service (expiry tests move time forward)."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return utcnow() + self.offset

    def advance(self, **kw: float) -> None:
        self.offset += timedelta(**kw)


@pytest.fixture(autouse=True)
def _no_running_loop() -> Iterator[None]:
    """Core tests own their event loops (``asyncio.run``): see ``running_loop_aside``."""
    with running_loop_aside():
        yield


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    chosen = metafunc.config.getoption("--backend")
    names = ["sqlite", "postgres"] if chosen == "all" else [chosen]
    if metafunc.definition.get_closest_marker("sqlite_only") is not None:
        names = [n for n in names if n == "sqlite"]
    params = [
        pytest.param(n, marks=pytest.mark.postgres) if n == "postgres" else pytest.param(n)
        for n in names
    ]
    metafunc.parametrize("backend", params, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """The backend this run of the test uses (see pytest_generate_tests)."""
    name = request.param
    pg = request.getfixturevalue("pg_server") if name == "postgres" else None
    b = Backend(name, pg)
    yield b
    b.close_all()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def mem(backend: Backend, tmp_path: Path, clock: Clock) -> Iterator[MemoryService]:
    service = backend.open_memory(tmp_path)
    assert all(h.status == "ok" for h in service.health().values()), service.health()
    service.clock = clock
    yield service
    service.close()


@pytest.fixture
def store(backend: Backend, tmp_path: Path) -> Iterator[SqlStore]:
    """One fresh store (the workspace kind) on the backend under test."""
    s = backend.open_store(tmp_path)
    assert s.health.status == "ok", s.health
    yield s
    s.close()
