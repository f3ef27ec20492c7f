"""Event loops of a test process shared by the app's tests and the others."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def running_loop_aside() -> Iterator[None]:
    """For a test that owns its event loops (``asyncio.run``): when the app's tests ran
    first in this process (``pytest tests/gui tests/core``), their session-wide qasync
    loop is marked as running on this thread. Step it aside for the test, and put it
    back afterwards."""
    running = asyncio._get_running_loop()
    if running is None:
        yield
        return
    policy_loop = asyncio.get_event_loop_policy().get_event_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(running)
        asyncio.set_event_loop(policy_loop)
