"""Every control of the main window, the inbox and each dialog has a name and a
description a screen reader says, in English and in Chinese; the main flows work from
the keyboard alone."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QTextEdit

from ekko_memory.demo import DemoReport
from ekko_memory_gui.qt import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    Qt,
    QWidget,
)
from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog
from ekko_memory_gui.views.dialogs.sentence_dialog import SentenceDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import ScriptedDialogService, titles, wait_task
from tests.gui.languages import language

__all__ = ["language"]

CONTROL_TYPES = (
    QAbstractButton,
    QLineEdit,
    QComboBox,
    QAbstractSpinBox,
    QAbstractItemView,
    QPlainTextEdit,
    QTextEdit,
)
# Controls whose name is the user's own data (a memory's title, a workspace's folder).
DATA_NAMED = {"workspaceButton", "cardCheck", "sourceLink", "replyLink", "versionEntry"}
# Words that stay as they are in Chinese.
KEPT = {
    "Ctrl",
    "Shift",
    "Del",
    "Esc",
    "Enter",
    "JSON",
    "CSV",
    "Markdown",
    "PostgreSQL",
    "URL",
    "DELETE",
    # Names of products, said as they are in both languages.
    "Ekko",
    "Memory",
    "Hermes",
    "Agent",
    "MCP",
}
WORD = re.compile(r"[A-Za-z]{3,}")


def _spoken(widget: QWidget, what: QAccessible.Text) -> str:
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None
    return iface.text(what)


def every_control(root: QWidget) -> list[QWidget]:
    """Every interactive control under ``root``, shown or not (a hidden one shows later):
    buttons, fields, lists and tables, and the labels Tab reaches (links). Qt's own parts
    that their owner names are left out: a spin box's or combo box's line edit, a combo
    box's popup, a line edit's icons, table headers."""
    out = []
    for w in [root, *root.findChildren(QWidget)]:
        if isinstance(w, QLabel):
            if not (w.focusPolicy() & Qt.FocusPolicy.TabFocus):
                continue
        elif not isinstance(w, CONTROL_TYPES) or isinstance(w, QHeaderView):
            continue
        if w.objectName().startswith("qt_") or w.window() is not root.window():
            continue
        if isinstance(w.parentWidget(), QComboBox | QAbstractSpinBox | QLineEdit):
            continue
        out.append(w)
    return out


def problems(root: QWidget, language: str) -> list[str]:
    """Controls without a spoken name or description, or (in Chinese) named in English."""
    out = []
    for w in every_control(root):
        label = f"{type(w).__name__}:{w.objectName()}"
        name = _spoken(w, QAccessible.Text.Name).strip()
        # Qt speaks a combo box's current text as its name on Linux: the accessible
        # name itself is what Windows and macOS say, and what names the choice.
        if isinstance(w, QComboBox):
            name = w.accessibleName().strip()
        description = _spoken(w, QAccessible.Text.Description).strip()
        if not name:
            out.append(f"{label} has no name")
            continue
        if not description:
            out.append(f"{label} ({name}) has no description")
        if language == "zh_CN" and w.objectName() not in DATA_NAMED:
            english = [x for x in WORD.findall(name) if x not in KEPT]
            if english:
                out.append(f"{label} is named in English: {name}")
    return out


def _show_memory(qtbot: Any, window: MainWindow, node_id: str) -> None:
    window.list_pane.select_id(node_id)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.history is not None and detail.history.node_id == node_id)


def test_every_control_of_the_main_window_and_the_inbox_is_named_and_described(
    qtbot: Any, language: str, window: MainWindow, demo: DemoReport
) -> None:
    _show_memory(qtbot, window, demo.node_ids["some_coriander"])
    assert problems(window, language) == []
    window.show_inbox()
    qtbot.waitUntil(lambda: len(window.inbox_view.cards) == 4)
    assert problems(window.inbox_view, language) == []
    assert len(every_control(window)) > 40


def test_every_control_of_each_dialog_is_named_and_described(
    qtbot: Any,
    language: str,
    window: MainWindow,
    demo: DemoReport,
    dialogs: ScriptedDialogService,
) -> None:
    found: dict[str, list[str]] = {}

    def look(dialog: QDialog) -> bool:
        dialog.show()
        name = type(dialog).__name__
        # One dialog in two modes (a word, all my memories): each is walked.
        found[name if name not in found else f"{name}#{len(found)}"] = problems(dialog, language)
        return False

    node_id = demo.node_ids["some_coriander"]
    _show_memory(qtbot, window, node_id)
    openers: list[Callable[[], Any]] = [
        window.export_memories,
        window.import_bundle,
        window.purge,
        window.compact_stores,
        window.semantic_index,
        window.connect_database,
        lambda: window.edit_memory(node_id),
        lambda: window.hard_delete_memory(node_id),
        lambda: window.selection.move([node_id]),
        lambda: window.controls.forget_about("香菜"),
        window.controls.delete_all,
        window.controls.show_duplicates,
    ]
    for open_dialog in openers:
        dialogs.handlers.append(look)
        task = open_dialog()
        if task is not None:
            wait_task(qtbot, task)
    qtbot.waitUntil(lambda: len(found) == len(openers))
    assert found == {key: [] for key in found}
    assert set(found) >= {
        "ExportDialog",
        "ImportDialog",
        "PurgeDialog",
        "CompactDialog",
        "ReindexDialog",
        "ConnectDialog",
        "MemoryEditDialog",
        "HardDeleteDialog",
        "MoveDialog",
        "ForgetDialog",
        "DuplicatesDialog",
    }


def test_the_main_flows_work_from_the_keyboard(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, demo: DemoReport
) -> None:
    """Ctrl+F finds, Esc clears; arrows and Enter edit; Del trashes and Ctrl+Z brings it
    back; Ctrl+N opens a new memory; Ctrl+I opens the inbox."""
    table = window.list_pane.table
    mine = demo.node_ids["no_scallion"]  # one of the user's own (a built-in one is read-only)
    # Ctrl+F, type, Esc.
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(window.search_field.hasFocus)
    qtbot.keyClicks(window.search_field, "salt")
    qtbot.waitUntil(lambda: "用户口味偏清淡（少油少盐）" in titles(window), timeout=5000)
    qtbot.keyClick(window.search_field, Qt.Key.Key_Escape)
    assert window.search_field.text() == ""
    qtbot.waitUntil(lambda: len(titles(window)) > 5, timeout=5000)
    # Into the table, down to a memory, Enter edits it (Escape cancels the form).
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    window.list_pane.select_id(mine)
    # Away and back with the arrows (down, or up from the last row).
    last = table.currentIndex().row() == table.model().rowCount() - 1
    away, back = (Qt.Key.Key_Up, Qt.Key.Key_Down) if last else (Qt.Key.Key_Down, Qt.Key.Key_Up)
    qtbot.keyClick(table, away)
    assert window.list_pane.selected_id() != mine
    qtbot.keyClick(table, back)
    chosen = window.list_pane.selected_id()
    assert chosen == mine
    edited: list[str] = []

    def escape(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        edited.append(dialog.title_edit.text())
        dialog.show()
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(escape)
    qtbot.keyClick(table, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(edited))
    mem = window.runner.memory
    assert mem.head_of(chosen).id == chosen  # Escape changed nothing
    # Del trashes it, Ctrl+Z brings it back.
    window.activateWindow()  # back from the dialog
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: mem.get_node(chosen).status == "deleted")  # type: ignore[union-attr]
    qtbot.waitUntil(window.undo_action.isEnabled)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: mem.get_node(chosen).status == "active")  # type: ignore[union-attr]
    # Ctrl+N: a new memory (cancelled), Ctrl+I: the inbox.
    dialogs.handlers.append(lambda d: False)
    before = len(dialogs.dialogs)
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(dialogs.dialogs) > before)
    # A new memory is one sentence (the full form is one click further).
    assert isinstance(dialogs.dialogs[-1], SentenceDialog)
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.pages.currentWidget() is window.inbox_view)


def test_a_dialog_answers_enter_and_escape(qtbot: Any, window: MainWindow, demo: Any) -> None:
    """The move dialog: Enter in an empty field moves nothing; typed, Enter moves; Escape
    cancels."""
    from ekko_memory_gui.views.dialogs.move_dialog import MoveDialog

    dialog = MoveDialog(2, [["项目", "架构"]], window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    # The dialog opens in its field.
    assert QApplication.focusWidget() in (dialog.combo, dialog.combo.lineEdit())
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
    qtbot.keyClicks(QApplication.focusWidget(), "abc / def")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.path() == ["abc", "def"]
    again = MoveDialog(1, [], window)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    qtbot.keyClick(again, Qt.Key.Key_Escape)
    assert again.result() == QDialog.DialogCode.Rejected
