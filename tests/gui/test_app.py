"""The app as a whole: startup through AppRun (demo, translation, theme), shutdown awaited,
the default workspace, bad stores explained, keyboard, languages and fonts."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from ekko_memory.demo import DemoReport
from ekko_memory_gui.app import AppRun, default_workspace, parse_args
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import (
    QApplication,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QKeySequence,
    QLocale,
    QSize,
    Qt,
    QTranslator,
)
from ekko_memory_gui.services import fonts
from ekko_memory_gui.services.settings import AppSettings
from ekko_memory_gui.services.translation import (
    compile_catalog,
    install_translation,
    read_ts,
    remove_translation,
    ts_path,
)
from ekko_memory_gui.views.main_window import MainWindow, initial_size
from tests.gui.conftest import (
    ScriptedDialogService,
    open_window,
    replace_under_open_store,
    titles,
    wait_done,
)
from tests.requirements import missing


@pytest.fixture
def english(qapp: QApplication) -> Any:
    """Whatever a test installs, the next one starts in English."""
    yield
    for t in qapp.findChildren(QTranslator):
        qapp.removeTranslator(t)
        t.deleteLater()
    QLocale.setDefault(QLocale("en_US"))
    labels.reset()


def start_demo_app(qtbot: Any, qapp: QApplication, tmp_path: Path) -> tuple[AppRun, Any]:
    """``ekko-memory-gui --demo`` in English, light theme, until its workspace is open."""
    args = parse_args(["--demo", str(tmp_path / "demo"), "--language", "en", "--theme", "light"])
    run = AppRun(
        qapp, args, dialogs=ScriptedDialogService(), settings=AppSettings(tmp_path / "gui.ini")
    )
    task = asyncio.ensure_future(run.run())
    qtbot.waitUntil(
        lambda: run.controller is not None and run.controller.workspace is not None, timeout=20000
    )
    return run, task


def test_app_run_opens_a_demo_and_shuts_down_when_the_window_closes(
    qtbot: Any, qapp: QApplication, qasync_loop: Any, tmp_path: Path
) -> None:
    run, task = start_demo_app(qtbot, qapp, tmp_path)
    window = run.shell.window  # type: ignore[union-attr]
    assert window is not None
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)
    assert run.controller.workspace.folder == (tmp_path / "demo" / "workspace").resolve()  # type: ignore[union-attr]
    assert run.controller.runner.attached  # type: ignore[union-attr]
    window.close()  # the quit request
    qtbot.waitUntil(task.done, timeout=20000)
    assert task.result() == 0
    assert not run.controller.runner.attached  # type: ignore[union-attr]
    assert run.controller.closing  # type: ignore[union-attr]
    # The workspace is remembered for next time.
    assert (
        AppSettings(tmp_path / "gui.ini").last_workspace()
        == (tmp_path / "demo" / "workspace").resolve()
    )


def test_a_narrow_window_keeps_the_toolbar_reachable(
    qtbot: Any, qapp: QApplication, qasync_loop: Any, tmp_path: Path
) -> None:
    """With the app's theme at 720 px (an 800 px screen): the search field gives room
    before buttons go, and what does not fit is behind a visible overflow button (the
    theme's padding had left it blank, and the search field's minimum pushed out Inbox)."""
    from ekko_memory_gui.qt import QToolButton

    run, task = start_demo_app(qtbot, qapp, tmp_path)
    window = run.shell.window  # type: ignore[union-attr]
    assert window is not None
    try:
        qtbot.waitUntil(lambda: len(titles(window)) > 3, timeout=10000)
        window.resize(720, 600)
        qtbot.waitUntil(lambda: window.toolbar.width() <= 720)
        qtbot.wait(100)
        assert window.search_field.width() < 260  # it gives room before buttons go
        ext = window.toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
        if not window.inbox_button.isVisible():
            # What does not fit is behind the overflow button, with room for its arrow
            # (the theme's toolbar padding had left it blank).
            assert ext is not None and ext.isVisible()
            assert ext.contentsRect().width() >= 8, ext.contentsRect()
    finally:
        window.close()
        qtbot.waitUntil(task.done, timeout=20000)


def test_default_workspace(tmp_path: Path) -> None:
    settings = AppSettings(tmp_path / "gui.ini")
    here = tmp_path / "here"
    here.mkdir()
    assert default_workspace(settings, here) == here  # nothing opened yet
    last = tmp_path / "last"
    last.mkdir()
    settings.remember_workspace(last)
    assert default_workspace(settings, here) == last.resolve()
    (here / ".ekko").mkdir()
    assert default_workspace(settings, here) == here  # the current folder holds a workspace
    assert isinstance(parse_args(["--workspace", "x"]), argparse.Namespace)


def test_a_disabled_store_is_explained_not_a_crash(
    qtbot: Any, controller: AppController, demo: DemoReport
) -> None:
    (demo.user_home / "memory.db").write_bytes(b"this is not a database" * 100)
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    try:
        qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
        text = window.status.text.text()
        assert "user store disabled" in text and "reopen" in text
        assert window.status.fix_button.isVisibleTo(window.status)
        assert window.status.retry_button.isVisibleTo(window.status)
        # The workspace store still works: its memories show.
        shown = titles(window)
        assert "Database: SQLite (desktop build)" in shown
        assert "用户可接受少量香菜" not in shown  # it lives in the user store
    finally:
        window.replace()


def test_a_store_that_stops_answering_is_not_reported_as_ok_or_empty(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store opened fine, then stops answering (a server went away): the status line
    says so instead of "store ok", the list says it could not load instead of "nothing
    matches", and both come back once the store answers again."""
    from ekko_memory import StoreUnavailable

    browse = window.runner.memory.browse
    qtbot.waitUntil(lambda: window.list_pane.model.rowCount() > 0, timeout=10000)
    assert window.status.level == "ok"
    answering = type(browse).list_nodes

    def gone(*_: Any, **__: Any) -> Any:
        raise StoreUnavailable("memory store at 127.0.0.1 cannot be reached: Connection refused")

    # A server that went away answers no read: the change watcher's neither.
    token = type(browse).change_token
    monkeypatch.setattr(type(browse), "change_token", gone)
    monkeypatch.setattr(type(browse), "list_nodes", gone)
    window.refresh_action.trigger()
    qtbot.waitUntil(lambda: window.status.level == "degraded", timeout=10000)
    line = window.status.text.text()
    assert line.startswith("store unavailable: memory store at 127.0.0.1 cannot be reached")
    assert line.lower().count("unavailable") == 1  # it read "… The store is unavailable: …"
    qtbot.waitUntil(lambda: window.list_pane.stack.currentWidget() is window.list_pane.empty)
    assert window.list_pane.empty.text().startswith("Could not load the memories")
    assert "Nothing matches" not in window.list_pane.empty.text()

    # Back: the watcher's next read turns the status back by itself; F5 reloads the list.
    monkeypatch.setattr(type(browse), "change_token", token)
    monkeypatch.setattr(type(browse), "list_nodes", answering)
    qtbot.waitUntil(lambda: window.status.level == "ok", timeout=10000)
    window.refresh_action.trigger()
    qtbot.waitUntil(lambda: window.list_pane.model.rowCount() > 0, timeout=10000)


def test_a_write_refused_under_another_programs_lock_does_not_leave_the_store_unreachable(
    qtbot: Any, controller: AppController, demo: DemoReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program holds the user store's write lock longer than the busy timeout: the
    delete fails and says so, and once the lock is gone the status line is "store ok" again
    by itself — it had kept "store unreachable … press F5" although every read worked."""
    import sqlite3

    from ekko_memory.store import sqlite_dialect

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    try:
        node_id = demo.node_ids["some_coriander"]
        # The level as the outage sets it: the watcher's next read (queued behind the
        # failing write, so often at once) clears it again, the lock still held.
        levels: list[str] = []
        window.runner.unavailable.connect(lambda _reason: levels.append(window.status.level))
        holder = sqlite3.connect(demo.user_home / "memory.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the other program's write transaction
        try:
            task = window.delete_memory(node_id)
            wait_done(qtbot, task, timeout=20000)  # the runner reports the error then
            assert task.exception() is not None
            assert "another program kept the store" in window.status.error.toolTip()
            assert levels == ["degraded"]
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        qtbot.waitUntil(lambda: window.status.level == "ok", timeout=5000)
        assert window.status.text.text().startswith("Saved on this computer")
        assert window.runner.memory.get_node(node_id).status == "active"
    finally:
        window.replace()


def test_a_store_locked_when_the_app_opened_comes_back_by_itself_once_the_lock_is_gone(
    qtbot: Any, controller: AppController, demo: DemoReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program kept the user store locked while the app opened it: the status line
    says so, and once the lock is gone the store opens and its memories show, without
    Retry."""
    import sqlite3

    from ekko_memory.store import sql_store, sqlite_dialect

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(sql_store, "REOPEN_EVERY_S", 0.2)
    # The app opens a while after the memories were written: their audit events are older
    # than what the window watches from (the status line had waited for one to change).
    time.sleep(1.5)
    blocker = sqlite3.connect(demo.user_home / "memory.db", isolation_level=None)
    blocker.execute("PRAGMA locking_mode = EXCLUSIVE")  # keeps readers out too
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        window = open_window(qtbot, controller, demo.workspace, demo.user_home)
        qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
        assert "locked by another program" in window.status.text.text()
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    try:
        qtbot.waitUntil(lambda: window.status.level == "ok", timeout=10000)
        qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)
    finally:
        window.replace()


def test_retry_opens_the_same_workspace_again(
    qtbot: Any, controller: AppController, demo: DemoReport
) -> None:
    """A store another program held (or a file put back): Retry, and it opens."""
    db = demo.user_home / "memory.db"
    good = db.read_bytes()
    db.write_bytes(b"this is not a database" * 100)
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    try:
        qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
        assert window.status.retry_button.text() == "Retry"
        db.write_bytes(good)
        window.status.retry_button.click()
        qtbot.waitUntil(lambda: window.status.level == "ok", timeout=10000)
        assert not window.status.retry_button.isVisibleTo(window.status)
        assert not window.status.fix_button.isVisibleTo(window.status)
        ws = controller.workspace
        assert ws is not None and ws.folder == demo.workspace.resolve()
        qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)
    finally:
        window.replace()


def test_a_store_file_replaced_while_open_is_reported_and_retry_opens_the_new_one(
    qtbot: Any, controller: AppController, demo: DemoReport
) -> None:
    """Another copy of the user store put in place of the open file (a restore, a sync
    tool): the app says the store is disabled and why (its writes went to the replaced file,
    to be lost at close), and Retry opens the file now there."""
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    try:
        replace_under_open_store(demo.user_home / "memory.db")
        window.refresh_action.trigger()
        qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
        assert "deleted, moved or replaced" in window.status.text.text()
        window.status.retry_button.click()
        qtbot.waitUntil(lambda: window.status.level == "ok", timeout=10000)
        qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)
    finally:
        window.replace()


def test_long_store_explanations_and_errors_never_widen_the_window(
    qtbot: Any, controller: AppController, demo: DemoReport
) -> None:
    """At 1366 px the explanation of a broken store ends in "…" and its buttons stay on
    screen; a long error does the same; the whole text is in the tooltip."""
    (demo.workspace / ".ekko" / "memory.db").write_bytes(b"garbage" * 1000)
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    try:
        window.resize(1366, 740)
        qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
        status = window.status
        window.runner.report("Saving", RuntimeError("line one\n" + "y" * 3000))
        qtbot.wait(50)
        assert window.width() == 1366 and window.minimumSizeHint().width() < 1000
        for button in (status.fix_button, status.retry_button):
            assert button.isVisibleTo(status)
            right = button.mapTo(window, button.rect().topRight()).x()
            assert 0 < right <= window.width()
        assert status.text.elided().endswith("…") and "store disabled" in status.text.elided()
        assert "not a readable" in status.text.toolTip()
        assert "\n" not in status.error.text() and status.error.elided().endswith("…")
        assert status.error.toolTip().endswith("y" * 3000)
    finally:
        window.replace()


def test_the_first_window_fits_the_screen(qtbot: Any, controller: AppController) -> None:
    assert initial_size(QSize(1366, 768)) == QSize(1229, 691)
    assert initial_size(QSize(2560, 1400)) == QSize(1400, 860)  # the default on big screens
    window = MainWindow(controller)  # no saved geometry
    qtbot.addWidget(window)
    free = window.screen().availableGeometry()
    assert window.size() == initial_size(free.size())
    assert window.width() <= free.width() and window.height() <= free.height()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_column_headers_are_readable_at_the_default_size(
    qtbot: Any, qapp: QApplication, controller: AppController, language: str
) -> None:
    loaded = install_translation(qapp, language)
    labels.reset()
    try:
        window = MainWindow(controller)
        qtbot.addWidget(window)
        header = window.list_pane.table.horizontalHeader()
        metrics = header.fontMetrics()
        model = window.list_pane.model
        for i in range(model.columnCount()):
            title = model.headerData(i, Qt.Orientation.Horizontal)
            assert header.sectionSize(i) >= metrics.horizontalAdvance(title) + 20, title
    finally:
        remove_translation(qapp, loaded)
        for t in qapp.findChildren(QTranslator):
            qapp.removeTranslator(t)
        QLocale.setDefault(QLocale("en_US"))
        labels.reset()


def test_the_busy_bar_shows_only_for_work_over_200_ms(qtbot: Any, window: MainWindow) -> None:
    """UI.md: "a thin busy indicator in the status bar for anything over 200 ms" — not a
    flicker for every quick read. (A status line of its own: the window's follows the
    change watcher's quick reads.)"""
    from ekko_memory_gui.views.status_bar import BUSY_DELAY_MS, StoreStatusBar

    assert window.runner.receivers("2busy_changed(bool)") >= 1  # the window's line listens
    status = StoreStatusBar()
    qtbot.addWidget(status)
    status.show()
    assert BUSY_DELAY_MS == 200
    status.set_busy(True)
    assert not status.busy.isVisible()  # not at once
    qtbot.waitUntil(status.busy.isVisible, timeout=2000)
    status.set_busy(False)
    assert not status.busy.isVisible()
    # Work that ends before 200 ms never shows it.
    status.set_busy(True)
    status.set_busy(False)
    assert not status._busy_timer.isActive() and not status.busy.isVisible()


def test_keyboard_find_and_refresh(qtbot: Any, window: MainWindow) -> None:
    assert window.refresh_action.shortcut() == QKeySequence(Qt.Key.Key_F5)
    assert window.inbox_action.shortcut() == QKeySequence("Ctrl+I")
    assert window.new_action.shortcut() == QKeySequence(QKeySequence.StandardKey.New)
    assert window.undo_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert window.hard_delete_action.shortcut() == QKeySequence("Shift+Del")
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(window.search_field.hasFocus)
    resets: list[int] = []
    window.list_pane.model.modelReset.connect(lambda: resets.append(1))
    window.refresh_action.trigger()
    qtbot.waitUntil(lambda: bool(resets))
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.pages.currentWidget() is window.inbox_view)


def test_chinese_catalog_compiles_and_translates(
    qapp: QApplication, tmp_path: Path, english: Any
) -> None:
    ts = ts_path("zh_CN")
    messages = read_ts(ts)
    assert messages[("MemoryTableModel", "Memory")] == "记忆"
    assert len(messages) > 250  # every string of the app is translated
    qm = compile_catalog(ts, tmp_path)
    assert qm is not None and qm.suffix == ".qm" and qm.stat().st_size > 1000
    loaded = install_translation(qapp, "zh_CN")
    try:
        assert loaded.method == "qm"
        labels.reset()
        assert QApplication.translate("MemoryTableModel", "Memory") == "记忆"
        assert labels.type_label("preference") == "偏好"
    finally:
        remove_translation(qapp, loaded)
        labels.reset()
    assert QApplication.translate("MemoryTableModel", "Memory") == "Memory"


def test_every_string_of_the_app_has_a_chinese_translation(tmp_path: Path) -> None:
    """The committed catalog covers every string the sources ask Qt to translate (after a
    change: `make i18n`, then translate what it reports)."""
    import subprocess
    import xml.etree.ElementTree as ET

    from ekko_memory_gui.qt import PYSIDE_DIR

    app_dir = Path(__file__).resolve().parents[2] / "ekko_memory_gui"
    fresh = tmp_path / "fresh.ts"
    subprocess.run(
        [
            str(PYSIDE_DIR / "lupdate"),
            "-no-obsolete",
            *sorted(str(p) for p in app_dir.rglob("*.py")),
            "-ts",
            str(fresh),
            "-source-language",
            "en",
            "-target-language",
            "zh_CN",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    wanted = {
        (context.findtext("name") or "", message.findtext("source") or "")
        for context in ET.parse(fresh).getroot().iter("context")
        for message in context.iter("message")
    }
    assert len(wanted) > 400
    missing_zh = sorted(wanted - read_ts(ts_path("zh_CN")).keys())
    assert not missing_zh, f"{len(missing_zh)} strings lack a zh_CN translation: {missing_zh[:5]}"


def test_ts_fallback_when_lrelease_is_missing(qapp: QApplication, english: Any) -> None:
    loaded = install_translation(qapp, "zh_CN", prefer_ts=True)
    try:
        assert loaded.method == "ts"
        assert QApplication.translate("InboxView", "Inbox") == "收件箱"
    finally:
        remove_translation(qapp, loaded)
        labels.reset()


def test_switching_language_rebuilds_the_window_and_keeps_the_view(
    qtbot: Any, qapp: QApplication, qasync_loop: Any, tmp_path: Path, english: Any
) -> None:
    run, task = start_demo_app(qtbot, qapp, tmp_path)
    window = run.shell.window  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)  # type: ignore[arg-type]
    window.search_field.setText("香菜")  # type: ignore[union-attr]
    new = run.shell.rebuild("language", "zh_CN")  # type: ignore[union-attr]
    assert new is not window
    assert new.status_combo.itemText(0) == "有效"
    assert new.list_pane.model.headerData(0, Qt.Orientation.Horizontal) == "记忆"
    qtbot.waitUntil(lambda: new.search_field.text() == "香菜")
    qtbot.waitUntil(
        lambda: new.list_pane.filter is not None and new.list_pane.filter.text == "香菜",
        timeout=10000,
    )
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(new), timeout=10000)
    assert run.controller.settings.language() == "zh_CN"  # type: ignore[union-attr]
    new.close()
    qtbot.waitUntil(task.done, timeout=20000)


def test_a_cjk_font_is_chosen(qapp: QApplication) -> None:
    family = fonts.available_cjk_family()
    if family is None:
        missing("no CJK font installed", "apt install fonts-wqy-microhei")
    assert QFontDatabase.WritingSystem.SimplifiedChinese in QFontDatabase.writingSystems(family)
    font = fonts.ui_font()
    assert family in font.families()
    assert QFontMetrics(QFont(family)).inFontUcs4(ord("香"))
