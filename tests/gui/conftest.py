"""GUI fixtures: one session-wide qasync loop, a demo workspace copied per test, the
controller and the main window over it, and a scripted dialog service.

Coroutines are driven with ``run(qtbot, coro)``: ``asyncio.ensure_future`` plus
``qtbot.waitUntil(task.done)`` — the Qt event loop pytest-qt spins is the asyncio loop.
"""

from __future__ import annotations

import asyncio
import shutil
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import qasync
from PySide6.QtGui import QInputMethodEvent

from ekko_memory.demo import DemoReport, create_demo_workspace
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models.roles import OBJECT_ROLE
from ekko_memory_gui.qt import QApplication, QDialog, QScrollArea, QWidget
from ekko_memory_gui.services.gui_thread_gc import GuiThreadCollector
from ekko_memory_gui.services.settings import AppSettings
from ekko_memory_gui.views.main_window import MainWindow

T = TypeVar("T")


@pytest.fixture(scope="session")
def qasync_loop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    """The asyncio loop for the whole session, running on the Qt event loop pytest-qt drives."""
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    # Never stop the loop between tests; at the very end leave it for the interpreter.


@pytest.fixture(scope="session", autouse=True)
def gui_thread_gc(qapp: QApplication) -> Iterator[GuiThreadCollector]:
    """As the app runs: cycles collected on the GUI thread only (a collection on a worker
    thread that destroyed an earlier test's widgets deadlocked the suite)."""
    collector = GuiThreadCollector(qapp)
    collector.start()
    yield collector
    collector.stop()


def wait_done(qtbot: Any, task: asyncio.Future[Any], timeout: int = 15000) -> None:
    """Wait until ``task`` is done and the callbacks it had by then have run.

    ``task.done()`` turns true an event-loop turn before those callbacks (each is its own
    ``call_soon``), and the app reacts to a finished task there: the runner reports its
    error and drops it from ``pending_tasks``, the table leaves its loading state. Waiting
    for ``done()`` alone returned before them now and then under load.
    """
    ran: list[bool] = []
    task.add_done_callback(lambda _t: ran.append(True))  # runs after the earlier ones
    qtbot.waitUntil(lambda: bool(ran), timeout=timeout)


def run(qtbot: Any, coro: Awaitable[T], timeout: int = 15000) -> T:
    """Run a coroutine on the qasync loop until done and return its result."""
    task = asyncio.ensure_future(coro)
    wait_done(qtbot, task, timeout)
    return task.result()


def wait_task(qtbot: Any, task: asyncio.Task[Any] | None, timeout: int = 15000) -> None:
    """Wait for a task a view started (None means nothing was started)."""
    if task is not None:
        wait_done(qtbot, task, timeout)
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]


class ScriptedDialogService:
    """Answers dialogs from a script, so no test blocks on a modal.

    ``handlers`` receive the real dialog widget: they fill it in as a user would and
    return whether to accept it (or call ``accept()``/``reject()`` themselves).
    """

    def __init__(self) -> None:
        self.confirm_answers: deque[bool] = deque()
        self.handlers: deque[Callable[[QDialog], Any]] = deque()
        self.directories: deque[Path | None] = deque()
        self.save_files: deque[Path | None] = deque()
        self.open_files: deque[Path | None] = deque()
        self.asked: list[tuple[str, str]] = []
        self.informed: list[tuple[str, str]] = []
        self.errors: list[tuple[str, str]] = []
        self.dialogs: list[QDialog] = []

    async def confirm(
        self, parent: QWidget | None, title: str, text: str, *, ok_label: str
    ) -> bool:
        self.asked.append((title, text))
        return self.confirm_answers.popleft() if self.confirm_answers else False

    async def inform(self, parent: QWidget | None, title: str, text: str) -> None:
        self.informed.append((title, text))

    async def error(self, parent: QWidget | None, title: str, text: str) -> None:
        self.errors.append((title, text))

    async def run(self, dialog: QDialog) -> bool:
        self.dialogs.append(dialog)
        if not self.handlers:
            dialog.reject()
            return False
        handler = self.handlers.popleft()
        result = handler(dialog)
        if asyncio.iscoroutine(result):
            result = await result
        if result is True:
            dialog.accept()
        elif result is False:
            dialog.reject()
        return dialog.result() == int(QDialog.DialogCode.Accepted)

    async def choose_directory(
        self, parent: QWidget | None, title: str, start: Path | None
    ) -> Path | None:
        return self.directories.popleft() if self.directories else None

    async def choose_save_file(
        self, parent: QWidget | None, title: str, start: Path, name_filter: str
    ) -> Path | None:
        return self.save_files.popleft() if self.save_files else None

    async def choose_open_file(
        self, parent: QWidget | None, title: str, start: Path | None, name_filter: str
    ) -> Path | None:
        return self.open_files.popleft() if self.open_files else None


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> DemoReport:
    """The demo workspace, filled once per session (tests get a copy)."""
    return create_demo_workspace(tmp_path_factory.mktemp("demo-template"))


@pytest.fixture
def demo(demo_template: DemoReport, tmp_path: Path) -> DemoReport:
    """A private copy of the demo workspace and user store."""
    root = tmp_path / "demo"
    shutil.copytree(demo_template.workspace.parent, root)
    return DemoReport(
        workspace=root / demo_template.workspace.name,
        user_home=root / demo_template.user_home.name,
        node_ids=dict(demo_template.node_ids),
        pending_ids=list(demo_template.pending_ids),
    )


@pytest.fixture
def dialogs() -> ScriptedDialogService:
    return ScriptedDialogService()


@pytest.fixture
def controller(
    qtbot: Any,
    qasync_loop: qasync.QEventLoop,
    tmp_path: Path,
    dialogs: ScriptedDialogService,
) -> Iterator[AppController]:
    """A controller with no workspace open yet (closed after the test)."""
    c = AppController(AppSettings(tmp_path / "gui.ini"), dialogs)
    yield c
    run(qtbot, c.aclose())


def open_window(
    qtbot: Any, controller: AppController, workspace: Path, user_home: Path, branches: int = 4
) -> MainWindow:
    """A shown main window over an opened workspace, with the first page of memories loaded."""
    window = MainWindow(controller)
    window.finish_menus()
    qtbot.addWidget(window)
    window.resize(1400, 860)
    window.show()
    run(qtbot, controller.open_workspace(workspace, user_home))
    qtbot.waitUntil(lambda: window.list_pane.filter is not None, timeout=10000)
    # Loaded, and the pane has taken the end of the load in (it settles the selection
    # and clears "Loading…" in the load task's callback, a turn after the task is done).
    qtbot.waitUntil(
        lambda: not window.list_pane.model.loading and window.list_pane.loading_label.text() == "",
        timeout=10000,
    )
    qtbot.waitUntil(lambda: window.category_pane.model.rowCount() >= branches, timeout=10000)
    qtbot.waitUntil(lambda: not window.category_pane.loading, timeout=10000)
    return window


@pytest.fixture
def window(qtbot: Any, controller: AppController, demo: DemoReport) -> Iterator[MainWindow]:
    """The main window over the demo workspace."""
    w = open_window(qtbot, controller, demo.workspace, demo.user_home)
    yield w
    w.replace()


def more_fields(dialog: QDialog) -> None:
    """New memory opens the sentence box: "More fields…" opens the full form."""
    from ekko_memory_gui.views.dialogs.sentence_dialog import SentenceDialog

    assert isinstance(dialog, SentenceDialog)
    dialog.more_button.click()


def type_text(widget: QWidget, text: str) -> None:
    """Type text as an input method commits it (QTest.keyClicks only knows ASCII), one
    character at a time, like a user typing 香菜 with a pinyin IME."""
    widget.setFocus()
    for ch in text:
        event = QInputMethodEvent("", [])
        event.setCommitString(ch)
        QApplication.sendEvent(widget, event)


def titles(window: MainWindow) -> list[str]:
    """Titles of the memories in the table, in view order (the table shows each as a
    sentence: ``sentences(window)``)."""
    model = window.list_pane.table.model()
    return [model.index(r, 0).data(OBJECT_ROLE).title for r in range(model.rowCount())]


def sentences(window: MainWindow) -> list[str]:
    """What the table's first column shows, in view order."""
    model = window.list_pane.table.model()
    return [model.index(r, 0).data() for r in range(model.rowCount())]


def detail_at_1000_px(qtbot: Any, window: MainWindow, demo: DemoReport) -> QScrollArea:
    """The detail pane's scroll area, showing a memory with an older version (so Revert
    shows) in a 1000 px window, once its content fits the viewport's width (or 2 s)."""
    window.resize(1000, 760)
    node_id = demo.node_ids["some_coriander"]
    window.list_pane.select_id(node_id)
    pane = window.detail_pane
    qtbot.waitUntil(lambda: pane.node is not None and pane.node.id == node_id)
    scroll = pane.stack.currentWidget()
    assert isinstance(scroll, QScrollArea)
    qtbot.waitUntil(lambda: scroll.widget().width() <= scroll.viewport().width(), timeout=2000)
    return scroll


def replace_under_open_store(db: Path) -> None:
    """Put a copy of the SQLite file ``db`` in its place (and drop its -wal and -shm), as a
    restore or a sync tool does while the app holds the file open."""
    copy = db.with_name("copy.db")
    shutil.copy(db, copy)
    for part in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        part.unlink(missing_ok=True)
    copy.rename(db)


def save_edit_and_read_error(dialogs: ScriptedDialogService, title: str) -> list[str]:
    """Script the edit form: type ``title`` and Save; when the form comes back refused, note
    its error line and cancel. Returns the list the error lines go to."""
    from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog

    shown: list[str] = []

    def save(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.title_edit.setText(title)
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    def look(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        shown.append(dialog.error.text())
        return False

    dialogs.handlers.extend([save, look])
    return shown
