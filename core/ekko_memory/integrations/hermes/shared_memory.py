"""One open memory per store location in a process, shared by the agents Hermes runs there.

A Hermes gateway builds an agent (and a provider) per conversation; each opening the same
two SQLite files again would start its own background worker and checkpointer and pay
the opening again. The last provider to let go closes the memory.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from ekko_memory.service.extraction.pipeline import AfterReplyReport
from ekko_memory.service.memory_service import MemoryService

log = logging.getLogger("ekko_memory.hermes")


@dataclass
class _Entry:
    memory: MemoryService
    users: int


class SharedMemories:
    """Open memories by key (their locations and extraction settings), counted."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[Hashable, _Entry] = {}

    def acquire(self, key: Hashable, opener: Callable[[], MemoryService]) -> MemoryService:
        """The memory open under ``key``, opened by ``opener`` when none is."""
        with self._lock:
            entry = self._open.get(key)
            if entry is None:
                memory = opener()
                memory.background.listeners.append(_log_failures)
                entry = self._open[key] = _Entry(memory, 0)
            entry.users += 1
            return entry.memory

    def release(self, memory: MemoryService) -> None:
        """One user fewer; the last one closes it (background work finishes first)."""
        with self._lock:
            for key, entry in list(self._open.items()):
                if entry.memory is memory:
                    entry.users -= 1
                    if entry.users > 0:
                        return
                    del self._open[key]
                    break
            else:
                return
        memory.close()


def _log_failures(report: AfterReplyReport) -> None:
    """Background extraction that failed (it is queued and retried) goes to Hermes's log."""
    for error in report.errors:
        log.warning("Ekko after-reply work for session %s: %s", report.session_id, error)


SHARED = SharedMemories()
