"""Runs core calls off the GUI thread and reports failures in one place.

Every database call of the app goes through ``OperationRunner.call``: it runs on the
single worker thread of ``AsyncMemory`` (calls are serialized, so the app is one
writer), and the GUI awaits the result through qasync. ``spawn`` starts a coroutine as a
task the runner tracks (so shutdown can cancel and await them) and reports any error
through the ``failed`` signal instead of losing it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from pydantic import ValidationError

from ekko_memory import AsyncMemory, EkkoMemoryError, MemoryService, StoreUnavailable
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import QObject, Signal

T = TypeVar("T")
log = logging.getLogger(__name__)


class NoWorkspace(RuntimeError):
    """No workspace is open."""


class OperationRunner(QObject):
    """The app's gateway to the memory service."""

    failed = Signal(str, str)  # what was being done, the error in words
    # A store could not be reached (a server went away, a file got locked): its words.
    unavailable = Signal(str)
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._amem: AsyncMemory | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._active = 0

    # --- the memory -----------------------------------------------------------------

    @property
    def attached(self) -> bool:
        return self._amem is not None

    @property
    def amem(self) -> AsyncMemory:
        if self._amem is None:
            raise NoWorkspace("no workspace is open")
        return self._amem

    @property
    def memory(self) -> MemoryService:
        """The service, for in-memory attributes (registry, paths, health); never for I/O here."""
        return self.amem.service

    def attach(self, amem: AsyncMemory | None) -> AsyncMemory | None:
        """Use ``amem`` from now on; returns the previous one (the caller closes it)."""
        old, self._amem = self._amem, amem
        return old

    # --- running --------------------------------------------------------------------

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn(*args, **kwargs)`` on the memory worker and await the result."""
        amem = self.amem
        self._active += 1
        if self._active == 1:
            self.busy_changed.emit(True)
        try:
            return await amem.run(fn, *args, **kwargs)
        finally:
            self._active -= 1
            if self._active == 0:
                self.busy_changed.emit(False)

    def spawn(
        self,
        coro: Coroutine[Any, Any, T],
        what: str,
        on_done: Callable[[T], None] | None = None,
    ) -> asyncio.Task[T]:
        """Start ``coro`` as a tracked task; errors are reported through ``failed``."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def finished(t: asyncio.Task[T]) -> None:
            self._tasks.discard(t)
            if t.cancelled():
                return
            error = t.exception()
            if error is not None:
                self.report(what, error)
            elif on_done is not None:
                try:
                    on_done(t.result())
                except Exception as e:  # a view failing to show a result must not vanish
                    self.report(what, e)

        task.add_done_callback(finished)
        return task

    def report(self, what: str, error: BaseException) -> None:
        """Report an error in one place (logged, and shown by the main window)."""
        if isinstance(error, NoWorkspace):
            return
        if isinstance(error, (EkkoMemoryError, ValidationError)):
            text = labels.error_text(error)
            if isinstance(error, StoreUnavailable):
                self.unavailable.emit(labels.outage_text(error))
        else:
            log.error("%s failed", what, exc_info=error)
            text = f"{type(error).__name__}: {error}"
        self.failed.emit(what, text)

    @property
    def pending_tasks(self) -> int:
        return len(self._tasks)

    async def aclose(self) -> None:
        """Cancel the tasks in flight, wait for them, and close the memory."""
        tasks = list(self._tasks)
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        amem = self.attach(None)
        if amem is not None:
            await amem.aclose()
