"""``ekko-memory-gui --smoke-test``: start, show the workspace, quit with 0 (or 1 on failure).

Used to prove a build (the PyInstaller bundle in ``packaging/``) works without a person:
the app opens as usual, then waits until the window has painted, the workspace is open,
the memory table has loaded and no startup operation has failed; it prints one line
(``smoke-test: ok {...}`` with timings and counts, or ``smoke-test: FAILED …``) and
quits. A watchdog thread ends the process with 1 if it hangs past the time limit,
because a hang on the GUI thread would also stop any timer on the event loop.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from typing import Any

from ekko_memory_gui.qt import QEvent, QObject
from ekko_memory_gui.services.translation import LoadedTranslation
from ekko_memory_gui.views.main_window import MainWindow

DEFAULT_TIMEOUT_S = 60.0


class SmokeTest(QObject):
    """Watches one window from before it is shown until the workspace has loaded."""

    def __init__(self, window: MainWindow, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        super().__init__(window)
        self.t0 = time.perf_counter()
        self.timeout_s = timeout_s
        self.window = window
        self.painted_at: float | None = None
        self.errors: list[str] = []
        self.translation: LoadedTranslation | None = None
        window.installEventFilter(self)
        window.runner.failed.connect(lambda what, text: self.errors.append(f"{what}: {text}"))
        self._watchdog = threading.Timer(timeout_s + 15.0, self._hung)
        self._watchdog.daemon = True
        self._watchdog.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.painted_at is None and event.type() == QEvent.Type.Paint:
            self.painted_at = time.perf_counter() - self.t0
        return False

    def _hung(self) -> None:
        print(f"smoke-test: FAILED the app hung for {self.timeout_s + 15:.0f} s", flush=True)
        os._exit(1)

    def _ready(self) -> bool:
        w = self.window
        return (
            self.painted_at is not None
            and w.runner.attached
            and w.runner.pending_tasks == 0
            and w.list_pane.filter is not None
            and not w.list_pane.model.loading
        )

    async def finish(
        self, *, expect_memories: bool, translation: LoadedTranslation | None = None
    ) -> int:
        """Wait until the window is ready, check it, print the result; returns the exit code.

        ``translation`` (what the app installed) goes into the result line, so a build can
        be checked for loading its compiled catalogs.
        """
        self.translation = translation
        opened_at = time.perf_counter() - self.t0
        deadline = time.perf_counter() + self.timeout_s
        try:
            while not self._ready():
                if self.errors or time.perf_counter() > deadline:
                    break
                await asyncio.sleep(0.02)
            return self._report(opened_at, expect_memories)
        finally:
            self._watchdog.cancel()

    def _report(self, opened_at: float, expect_memories: bool) -> int:
        w = self.window
        problems = list(self.errors)
        if not self._ready() and not problems:
            problems.append(f"not ready after {self.timeout_s:.0f} s")
        health: dict[str, Any] = {}
        if w.runner.attached:
            health = {name: h.status for name, h in w.runner.memory.health().items()}
            problems += [f"{name} store {s}" for name, s in health.items() if s != "ok"]
        rows = w.list_pane.model.rowCount()
        if expect_memories and rows == 0:
            problems.append("the demo workspace shows no memories")
        result = {
            "workspace_open_s": round(opened_at, 3),
            "first_paint_s": round(self.painted_at, 3) if self.painted_at is not None else None,
            "ready_s": round(time.perf_counter() - self.t0, 3),
            "memories_shown": rows,
            "categories": w.category_pane.model.rowCount(),
            "stores": health,
            "language": self.translation.language if self.translation else None,
            "catalog": self.translation.method if self.translation else None,
            "frozen": bool(getattr(sys, "frozen", False)),
        }
        if problems:
            print(
                "smoke-test: FAILED " + "; ".join(problems) + " " + json.dumps(result), flush=True
            )
            return 1
        print("smoke-test: ok " + json.dumps(result, ensure_ascii=False), flush=True)
        return 0
