"""Reliability fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.event_loops import running_loop_aside


@pytest.fixture(autouse=True)
def _no_running_loop() -> Iterator[None]:
    """Reliability tests own their event loops (the MCP client's, ``asyncio.run``): see
    ``running_loop_aside``."""
    with running_loop_aside():
        yield
