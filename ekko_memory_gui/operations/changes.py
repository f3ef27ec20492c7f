"""What changed in the stores, and the watcher that notices changes by other processes.

Every change the app sees flows through one path: ``ChangeWatcher`` compares the
stores' cheap change token every half second (and at once after each of the app's own
operations), reads the audit events written since, and emits a ``ChangeSet`` naming the
memories that changed. Views refresh exactly those rows, not everything.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import QObject, QTimer, Signal

POLL_MS = 500
# Audit events read per query, and pages read per look before the views just reload.
AUDIT_PAGE = 1000
MAX_PAGES = 20


@dataclass(frozen=True)
class ChangeSet:
    """Memories that changed (by id), and whether pending items or messages may have."""

    node_ids: frozenset[str] = field(default_factory=frozenset)
    pending: bool = False
    messages: bool = False
    # Something changed that the audit cannot name (a reset, a purge, a new workspace).
    everything: bool = False

    @property
    def empty(self) -> bool:
        return not (self.node_ids or self.pending or self.messages or self.everything)


class ChangeWatcher(QObject):
    """Polls the change token on the memory worker and emits ``changed(ChangeSet)``."""

    changed = Signal(object)
    # The stores answered a read: an outage (a server gone, a file locked) is over.
    answered = Signal()

    def __init__(self, runner: OperationRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._tick)
        self._token: Any = None
        self._since: datetime | None = None
        self._seen: deque[str] = deque(maxlen=2000)
        self._seen_set: set[str] = set()
        self._checking: asyncio.Task[ChangeSet | None] | None = None
        self._again = False

    def start(self, token: Any, since: datetime) -> None:
        """Watch from this token and moment on (taken when the workspace was opened)."""
        self._token = token
        self._since = since - timedelta(seconds=1)
        self._seen.clear()
        self._seen_set.clear()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        if self._checking is not None:
            self._checking.cancel()
            self._checking = None

    @property
    def running(self) -> bool:
        return self._timer.isActive()

    def _tick(self) -> None:
        self.check_now()

    def check_now(self) -> asyncio.Task[ChangeSet | None] | None:
        """Check at once (after an operation of the app); a check in flight runs again after."""
        if not self.runner.attached:
            return None
        if self._checking is not None and not self._checking.done():
            self._again = True
            return self._checking
        self._checking = self.runner.spawn(self._check(), "checking for changes")
        return self._checking

    async def _check(self) -> ChangeSet | None:
        result: ChangeSet | None = None
        while True:
            self._again = False
            found = await self._check_once()
            if found is not None:
                result = found
                self.changed.emit(found)
            if not self._again:
                return result

    async def _check_once(self) -> ChangeSet | None:
        mem = self.runner.memory
        token = await self.runner.call(mem.browse.change_token)
        self.answered.emit()
        if token == self._token:
            return None
        # A store that opened later by itself (its lock gone, its server up) or was lost:
        # all it holds appears or goes, and its audit may predate what we watch from.
        came_or_went = _readable_stores(token) != _readable_stores(self._token)
        self._token = token
        events, complete = await self._events_since(self._since)
        fresh = [e for e in events if e.id not in self._seen_set]
        for e in fresh:
            if len(self._seen) == self._seen.maxlen:
                self._seen_set.discard(self._seen[0])
            self._seen.append(e.id)
            self._seen_set.add(e.id)
        if events:
            # Events can arrive with equal or slightly older timestamps from another
            # process; re-reading a short overlap is cheap and the seen-set dedupes it.
            self._since = max(e.created_at for e in events) - timedelta(seconds=2)
        ids = frozenset(e.node_id for e in fresh if e.node_id)
        # An item settled because its memory was deleted carries its pendingId too.
        pending = any(
            e.event_type in ("pending", "approve", "reject") or "pendingId" in (e.payload or {})
            for e in fresh
        )
        # A token change without audit events: messages, summaries, usage or pending rows
        # changed; those lists are small and reloaded. Imports and purges touch many
        # memories at once: those views reload.
        return ChangeSet(
            node_ids=ids,
            pending=pending or not fresh,
            messages=True,
            everything=not complete
            or came_or_went
            or any(e.event_type in ("import", "purge") for e in fresh),
        )

    async def _events_since(self, since: datetime | None) -> tuple[list[Any], bool]:
        """The audit events from ``since`` on, page by page (a bulk write or a burst of
        writes by another process leaves more than a page between two looks; reading only
        the first page had left the window stuck on events already seen). False: more
        than ``MAX_PAGES`` pages; the views then reload."""
        mem = self.runner.memory
        events: list[Any] = []
        after_id: str | None = None
        for _ in range(MAX_PAGES):
            page = await self.runner.call(mem.browse.audit_since, since, AUDIT_PAGE, after_id)
            events += page
            if len(page) < AUDIT_PAGE:
                return events, True
            since, after_id = page[-1].created_at, page[-1].id
        return events, False


def _readable_stores(token: Any) -> tuple[bool, ...] | None:
    """Which stores a change token could read (a store it could not read has no marks)."""
    parts = getattr(token, "parts", None)
    return None if parts is None else tuple(part is not None for part in parts)
