"""Core fixtures: a real service over real SQLite files in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from ekko_memory import MemoryService, open_memory
from ekko_memory.timeutil import utcnow


class Clock:
    """A controllable clock for the service (expiry tests move time forward)."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def __call__(self) -> datetime:
        return utcnow() + self.offset

    def advance(self, **kw: float) -> None:
        self.offset += timedelta(**kw)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def mem(tmp_path: Path, clock: Clock) -> Iterator[MemoryService]:
    service = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    service.clock = clock
    yield service
    service.close()
