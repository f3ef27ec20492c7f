"""File ▸ Compact stores: runs on the memory worker with a progress line and Cancel, the
event loop keeps turning meanwhile, and the report says what was freed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ekko_memory import BrowseFilter
from ekko_memory.demo import DemoReport
from ekko_memory_gui.qt import QDialog, QElapsedTimer, QTimer
from ekko_memory_gui.views.dialogs.compact_dialog import CompactDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.core.factories import make_node
from tests.gui.conftest import ScriptedDialogService, run, titles, wait_task

LONG = "这是一段很长的笔记内容，用来占据数据库的页面。" * 40


def _fill_and_delete(qtbot: Any, window: MainWindow, n: int = 4000) -> None:
    """``n`` long notes in the user store, every other one then deleted for good: free pages
    to give back, and enough left that rebuilding the file takes a while."""
    mem = window.runner.memory

    def work() -> None:
        nodes = [
            make_node(key=None, value_json=None, title=f"笔记 {i}", content=f"{LONG} {i}")
            for i in range(n)
        ]
        with mem.user_store.write() as w:
            w.insert_nodes(nodes)
        with mem.user_store.write() as w:
            w.hard_delete_nodes([x.id for x in nodes[::2]])

    run(qtbot, window.runner.call(work), timeout=60000)


def _size(folder: Path) -> int:
    files = (folder / "memory.db", folder / "memory.db-wal")
    return sum(p.stat().st_size for p in files if p.is_file())


class LoopWatch:
    """Ticks every 10 ms on the GUI thread and records the longest gap between ticks."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.ticks = 0
        self.longest = 0

    def start(self) -> None:
        self.clock.start()
        self.timer.start()

    def _tick(self) -> None:
        self.longest = max(self.longest, self.clock.restart())
        self.ticks += 1

    def stop(self) -> None:
        self.timer.stop()


def test_compact_runs_off_the_gui_thread_and_reports_the_space_freed(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    _fill_and_delete(qtbot, window)
    before = _size(demo.user_home)
    mine = BrowseFilter(statuses=None, scopes=["session", "workspace", "user"])
    count = window.runner.memory.browse.count(mine)
    seen: list[Any] = []
    took: list[int] = []
    watch = LoopWatch()

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, CompactDialog)
        assert not dialog.on_server and "SQLite's VACUUM" in dialog.how.text()
        watch.start()
        clock = QElapsedTimer()
        clock.start()
        task = dialog.start()
        assert not dialog.progress.isHidden() and not dialog.compact_button.isEnabled()
        report = await task
        watch.stop()
        took.append(clock.elapsed())
        assert report is dialog.report and dialog.compact_button.isEnabled()
        seen.extend([report, dialog.summary.text(), dialog.result_view.toPlainText()])
        assert dialog.progress.label.text() == "Done"
        return True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.compact_stores(), timeout=60000)
    report, summary, text = seen
    assert not report.cancelled
    assert [s.status for s in report.stores] == ["compacted", "compacted"]
    user = report.stores[1]
    # Measured as the compaction starts: the indexer may have written the new notes'
    # vectors since ``before`` was read, never less.
    assert user.bytes_before >= before and user.bytes_after is not None
    assert user.bytes_after < user.bytes_before * 0.75
    files = {Path(f.path).name: f for f in user.files}
    main_file = demo.user_home / "memory.db"
    assert files["memory.db"].bytes_after == main_file.stat().st_size < before * 0.75
    # The report: freed space in total and per store, each file before and after.
    assert summary.startswith("Freed ") and "MB" in summary
    assert "user store — " in text and "MB freed" in text and str(main_file) in text
    # The event loop kept turning while the worker rebuilt the files (a tick every 10 ms is
    # asked for: allow a loaded machine five times that on average, and no gap over 250 ms).
    assert watch.longest < 250, (watch.longest, took)
    assert watch.ticks >= max(3, took[0] // 50), (watch.ticks, took)
    # Nothing changed but the layout; the app still works.
    assert window.runner.memory.browse.count(mine) == count
    assert "用户可接受少量香菜" in titles(window)


def test_cancelling_compaction_before_a_store_starts_leaves_it_as_it_was(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    reports: list[Any] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, CompactDialog)
        task = dialog.start()
        dialog.progress.cancel_button.click()  # before the worker starts the first store
        assert dialog.progress.label.text() == "Stopping after this store…"
        reports.append(await task)
        assert "Nothing was compacted." in dialog.summary.text()
        assert "Cancelled" in dialog.summary.text()
        assert dialog.progress.label.text() == "Cancelled"
        assert "cancelled before its turn" in dialog.result_view.toPlainText()
        return True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.compact_stores(), timeout=60000)
    report = reports[0]
    assert report.cancelled and [s.status for s in report.stores] == ["cancelled", "cancelled"]


def test_compact_is_in_the_advanced_menu(window: MainWindow) -> None:
    # A developer option: under Advanced (issue 27), out of File.
    assert window.compact_action in window.advanced_menu.actions()
    assert window.compact_action not in window.file_menu.actions()
    assert window.compact_action.text() == "Compact stores…"
