"""Cycles holding Qt objects are collected on the GUI thread, never on a worker thread.

A collection on the memory worker thread destroyed an earlier window's QObjects there
and deadlocked the GUI thread (Qt's signal lock against the GIL): the suite hung for good
in a purge dialog's constructor.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from ekko_memory_gui.qt import QApplication, QObject
from ekko_memory_gui.services.gui_thread_gc import GuiThreadCollector


class _Cycle:
    """An object that only the cyclic collector can free, holding a QObject."""

    def __init__(self) -> None:
        self.me = self
        self.qobject = QObject()


def _allocate_until_a_collection_would_run(keep: list[Any]) -> None:
    # Containers count toward the youngest generation's threshold (700 by default): a
    # hundred thousand cross it many times, and with them the older ones'. They stay alive
    # (as a worker's results do) so the count is still past the threshold afterwards.
    keep.extend([] for _ in range(100_000))


def test_a_worker_thread_allocating_never_collects_a_gui_cycle(
    qtbot: Any, gui_thread_gc: GuiThreadCollector
) -> None:
    collected_on: list[str] = []
    cycle = _Cycle()
    weakref.finalize(cycle, lambda: collected_on.append(threading.current_thread().name))
    del cycle
    results: list[Any] = []
    worker = threading.Thread(
        target=_allocate_until_a_collection_would_run, args=(results,), name="worker"
    )
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert collected_on == [], "the worker thread collected a cycle holding a QObject"
    qtbot.waitUntil(lambda: bool(collected_on), timeout=5000)
    assert collected_on == [threading.main_thread().name]
    results.clear()


def test_stopping_gives_collection_back_to_the_interpreter(qapp: QApplication) -> None:
    import gc

    collector = GuiThreadCollector(qapp)
    enabled = gc.isenabled()
    gc.enable()
    try:
        collector.start()
        assert not gc.isenabled()
        collector.stop()
        assert gc.isenabled()
    finally:
        collector.deleteLater()
        if not enabled:
            gc.disable()
