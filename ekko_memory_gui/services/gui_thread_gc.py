"""Python's cyclic garbage collector, run on the GUI thread only.

Left to itself, a collection runs in whichever thread allocates when a threshold is
crossed: often the memory worker thread. A cycle that holds a Qt wrapper (a closed
dialog, a view's lambdas) then destroys its QObject there: Qt takes its signal lock and
shiboken asks for the GIL, while the GUI thread, holding the GIL, waits for that lock to
connect a signal. The app froze for good (seen in the test suite: a purge dialog built
while the pending list's worker collected an earlier window). Collecting on a GUI-thread
timer instead keeps every QObject's destructor on the GUI thread.
"""

from __future__ import annotations

import gc

from ekko_memory_gui.qt import QObject, QTimer

# Often enough that garbage does not pile up, rarely enough to cost nothing when idle.
INTERVAL_MS = 100


class GuiThreadCollector(QObject):
    """Turns automatic collection off and collects on a timer of the thread it lives in,
    by the interpreter's own thresholds (a generation is collected when it would have been)."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._thresholds = gc.get_threshold()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.collect)
        self._was_enabled = gc.isenabled()

    def start(self) -> None:
        """Collect only from now on, on this object's thread."""
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        """Give collection back to the interpreter (as it was before ``start``)."""
        self._timer.stop()
        if self._was_enabled:
            gc.enable()

    def collect(self) -> None:
        """Collect the generations whose thresholds were crossed since the last time."""
        young, middle, old = gc.get_count()
        t_young, t_middle, t_old = self._thresholds
        if young <= t_young:
            return
        if middle > t_middle:
            gc.collect(2 if old > t_old else 1)
        else:
            gc.collect(0)
