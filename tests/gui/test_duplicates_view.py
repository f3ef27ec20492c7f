"""The duplicates view (issue 27), in both languages: pairs from the core's report with
both sentences, the category and who wrote each; Merge, Undo (unmerge), Not duplicates."""

from __future__ import annotations

from typing import Any

from ekko_memory_gui.qt import QDialog
from ekko_memory_gui.views.dialogs.duplicates_dialog import DuplicatesDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import ScriptedDialogService, wait_task
from tests.gui.languages import language, pick
from tests.requirements import missing

__all__ = ["language"]

FIRST = "用户家里有一只猫，名叫团子"
SECOND = "用户家里有只猫，名字叫团子"


def _twins(window: MainWindow) -> tuple[str, str]:
    mem = window.runner.memory
    if mem.semantic is None:
        missing("semantic recall", "pip install 'ekko-memory[semantic]'; make install has it")
    ids = []
    for title in (FIRST, SECOND):
        out = mem.actions.create(
            {
                "scope": "user",
                "type": "fact",
                "domain": "生活",
                "categoryPath": ["生活", "事实"],
                "title": title,
                "content": title,
            }
        )
        assert out.node_id is not None, out
        ids.append(out.node_id)
    mem.reindex()
    pairs = mem.duplicates()
    assert any({p.first.id, p.second.id} == set(ids) for p in pairs), pairs
    return ids[0], ids[1]


def _open(qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService) -> DuplicatesDialog:
    opened: list[DuplicatesDialog] = []

    async def keep(dialog: QDialog) -> None:
        assert isinstance(dialog, DuplicatesDialog)
        opened.append(dialog)
        dialog.show()
        # Left open for the test; it closes the dialog itself.
        while dialog.isVisible():
            await __import__("asyncio").sleep(0.02)

    dialogs.handlers.append(keep)
    window.controls.duplicates_action.trigger()
    qtbot.waitUntil(lambda: bool(opened), timeout=20000)
    return opened[0]


def _pair_row(dialog: DuplicatesDialog, a: str, b: str) -> int:
    for i, p in enumerate(dialog.pairs):
        if {p.first.id, p.second.id} == {a, b}:
            return i
    return -1


def test_merge_a_pair_and_undo_it(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    a, b = _twins(window)
    mem = window.runner.memory
    dialog = _open(qtbot, window, dialogs)
    row = _pair_row(dialog, a, b)
    assert row >= 0
    text = dialog.list.item(row).text()
    assert "团子" in text and pick(language, en="(You)", zh="（你）") in text
    assert pick(language, en="alike", zh="相似度") in text
    dialog.list.setCurrentRow(row)
    pair = dialog.pairs[row]
    assert dialog.merge_button.isEnabled() and not dialog.undo_button.isEnabled()
    dialog.merge_button.click()
    wait_task(qtbot, dialog.task)
    dropped = mem.get_node(pair.second.id)
    assert dropped is not None and dropped.status == "superseded"
    assert _pair_row(dialog, a, b) == -1
    assert dialog.note.text() == pick(language, en="Merged.", zh="已合并。")
    assert dialog.undo_button.isEnabled()
    dialog.undo_button.click()
    wait_task(qtbot, dialog.task)
    back = mem.get_node(pair.second.id)
    assert back is not None and back.status == "active"
    assert dialog.note.text() == pick(language, en="Merge undone.", zh="已撤销合并。")
    dialog.reject()


def test_not_duplicates_hides_the_pair_and_undo_shows_it_again(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    a, b = _twins(window)
    mem = window.runner.memory
    dialog = _open(qtbot, window, dialogs)
    dialog.list.setCurrentRow(_pair_row(dialog, a, b))
    dialog.dismiss_button.click()
    wait_task(qtbot, dialog.task)
    assert _pair_row(dialog, a, b) == -1
    assert not any({p.first.id, p.second.id} == {a, b} for p in mem.duplicates())
    dialog.undo_button.click()
    wait_task(qtbot, dialog.task)
    assert _pair_row(dialog, a, b) >= 0
    dialog.reject()


def test_the_duplicates_view_works_from_the_keyboard(qtbot: Any, window: MainWindow) -> None:
    """The view opens in its list; Tab reaches Merge, Space merges; Tab on to Undo."""
    from ekko_memory_gui.qt import QApplication, Qt
    from tests.gui.conftest import run

    a, b = _twins(window)
    mem = window.runner.memory
    dialog = DuplicatesDialog(window.controls, window)
    qtbot.addWidget(dialog)
    run(qtbot, dialog.reload())
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    assert QApplication.focusWidget() is dialog.list
    row = _pair_row(dialog, a, b)
    for _ in range(row):
        qtbot.keyClick(dialog.list, Qt.Key.Key_Down)
    assert dialog.list.currentRow() == row
    pair = dialog.pairs[row]
    qtbot.keyClick(dialog.list, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is dialog.merge_button
    qtbot.keyClick(dialog.merge_button, Qt.Key.Key_Space)
    wait_task(qtbot, dialog.task)
    dropped = mem.get_node(pair.second.id)
    assert dropped is not None and dropped.status == "superseded"
    dialog.undo_button.setFocus()
    qtbot.keyClick(dialog.undo_button, Qt.Key.Key_Space)
    wait_task(qtbot, dialog.task)
    back = mem.get_node(pair.second.id)
    assert back is not None and back.status == "active"
