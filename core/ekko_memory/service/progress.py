"""Progress reports and cancellation for long operations (export, import, purge, compact).

The operation calls ``progress`` between batches and checks ``cancel`` there too, so a
cancelled operation stops at a batch boundary and never leaves half a batch behind.
Callbacks run on the caller's (worker) thread; the app forwards them to the GUI thread.

Inside an operation, ``Reporter.tick`` reports and then raises ``Cancelled`` when the
caller asked to stop; the operation catches it where it can undo the unfinished part (a
temporary file removed, a transaction rolled back) and returns a report that says
``cancelled``. ``Cancelled`` never leaves the public calls.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Progress:
    """``done`` of ``total`` units of ``stage`` (``total`` 0 when unknown)."""

    stage: str
    done: int
    total: int

    @property
    def fraction(self) -> float:
        """0.0–1.0 (0.0 when the total is unknown)."""
        return min(1.0, self.done / self.total) if self.total else 0.0


ProgressCallback = Callable[[Progress], None]


class CancelToken:
    """Set from any thread to ask a running operation to stop at its next batch boundary."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the operation to stop."""
        self._event.set()

    @property
    def cancelled(self) -> bool:
        """True once ``cancel()`` was called."""
        return self._event.is_set()


class Cancelled(Exception):
    """Raised inside an operation at a batch boundary once its caller cancelled."""


class Reporter:
    """Forwards progress to an optional callback and answers "stop now?" for an optional token."""

    def __init__(self, callback: ProgressCallback | None, cancel: CancelToken | None) -> None:
        self._callback = callback
        self._cancel = cancel

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self._callback is not None:
            self._callback(Progress(stage, done, total))

    @property
    def cancelled(self) -> bool:
        """True when the caller asked to stop."""
        return self._cancel is not None and self._cancel.cancelled

    def tick(self, stage: str, done: int, total: int) -> None:
        """Report progress, then raise ``Cancelled`` if the caller asked to stop."""
        self(stage, done, total)
        if self.cancelled:
            raise Cancelled
