"""Many memories at once: Ctrl/Shift selection in the list and its context menu — trash
(with undo), move to a category (with undo), export the selection, and Pin only where the
core can pin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QContextMenuEvent

from ekko_memory.demo import DemoReport
from ekko_memory_gui.qt import QAction, QApplication, QDialog, QMenu, Qt
from ekko_memory_gui.views.dialogs.move_dialog import MoveDialog, parse_path
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import ScriptedDialogService, titles, wait_task
from tests.gui.languages import language, pick

__all__ = ["language"]

CORIANDER = "用户可接受少量香菜"
SCALLION = "用户不吃葱"
CUISINE = "喜欢粤菜"


def _row(window: MainWindow, title: str) -> int:
    return titles(window).index(title)


def _click(qtbot: Any, window: MainWindow, title: str, modifier: Any = None) -> None:
    table = window.list_pane.table
    rect = table.visualRect(table.model().index(_row(window, title), 0))
    qtbot.mouseClick(
        table.viewport(),
        Qt.MouseButton.LeftButton,
        modifier or Qt.KeyboardModifier.NoModifier,
        rect.center(),
    )


def _select(qtbot: Any, window: MainWindow, *names: str) -> list[str]:
    """Click the first, Ctrl+click the others; returns their ids in table order."""
    _click(qtbot, window, names[0])
    for name in names[1:]:
        _click(qtbot, window, name, Qt.KeyboardModifier.ControlModifier)
    ids = window.selection.selected_ids()
    assert len(ids) == len(names)
    return ids


def _action(window: MainWindow, name: str) -> QAction | None:
    menu = window.selection.build_menu()
    return menu.findChild(QAction, name)


def test_ctrl_and_shift_select_several_rows(qtbot: Any, window: MainWindow) -> None:
    ids = _select(qtbot, window, CORIANDER, SCALLION)
    model = window.list_pane.model
    assert {model.row_at(model.row_of(i)).title for i in ids} == {CORIANDER, SCALLION}  # type: ignore[union-attr]
    # Shift+click selects the range between.
    _click(qtbot, window, titles(window)[0])
    _click(qtbot, window, titles(window)[3], Qt.KeyboardModifier.ShiftModifier)
    assert len(window.selection.selected_ids()) == 4
    # Ctrl+A from the keyboard selects every row loaded.
    window.list_pane.table.setFocus()
    qtbot.keyClick(window.list_pane.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert len(window.selection.selected_ids()) == len(titles(window))


def test_the_menu_names_its_actions_in_both_languages(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    _select(qtbot, window, CORIANDER, SCALLION)
    menu = window.selection.build_menu()
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert texts == [
        pick(language, en="Move 2 to trash", zh="将 2 条移到回收站"),
        pick(language, en="Move to category…", zh="移动到分类…"),
        pick(language, en="Export selection…", zh="导出所选…"),
        # The core pins since issue 27 (``test_pin_is_offered_only_where_the_core_can_pin``).
        pick(language, en="Pin", zh="固定"),
        pick(language, en="Unpin", zh="取消固定"),
        # Forget everything about them: memories, versions, the messages they came from.
        pick(language, en="Forget everything about these…", zh="忘掉关于这些的一切……"),
    ]
    assert menu.accessibleName()
    # One memory: Edit and Delete permanently too.
    _select(qtbot, window, CORIANDER)
    names = [a.objectName() for a in window.selection.build_menu().actions() if a.objectName()]
    assert names[0] == "editSelected" and names[-1] == "hardDeleteSelected"


def test_pin_is_offered_only_where_the_core_can_pin(
    qtbot: Any, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _select(qtbot, window, CORIANDER, SCALLION)
    actions = window.runner.memory.actions
    if not hasattr(actions, "pin"):
        assert _action(window, "pinSelected") is None
        pinned: list[str] = []
        monkeypatch.setattr(actions, "pin", lambda i, **_: pinned.append(i) or True, raising=False)
        monkeypatch.setattr(actions, "unpin", lambda i, **_: True, raising=False)
    else:  # the core's own pin (issue 27)
        pinned = []
    pin = _action(window, "pinSelected")
    assert pin is not None and _action(window, "unpinSelected") is not None
    pin.trigger()
    qtbot.waitUntil(lambda: window.selection.last_result is not None)
    result = window.selection.last_result
    assert result is not None and sorted(result.done) == sorted(ids)
    if pinned:
        assert sorted(pinned) == sorted(ids)


def test_trash_several_and_undo_brings_them_all_back(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    ids = _select(qtbot, window, CORIANDER, SCALLION, CUISINE)
    action = _action(window, "trashSelected")
    assert action is not None
    action.trigger()
    mem = window.runner.memory
    qtbot.waitUntil(lambda: all(mem.get_node(i).status == "deleted" for i in ids))  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: not set(titles(window)) & {CORIANDER, SCALLION, CUISINE})
    assert "Moved 3 memories to the trash" in window.status.note.text()
    assert window.undo_action.text() == "Undo delete of 3 memories"
    wait_task(qtbot, window.undo())
    assert all(mem.get_node(i).status == "active" for i in ids)  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: {CORIANDER, SCALLION, CUISINE} <= set(titles(window)))


def test_del_on_a_multi_selection_trashes_every_selected_memory(
    qtbot: Any, window: MainWindow
) -> None:
    ids = _select(qtbot, window, SCALLION, CUISINE)
    window.list_pane.table.setFocus()
    qtbot.keyClick(window.list_pane.table, Qt.Key.Key_Delete)
    mem = window.runner.memory
    qtbot.waitUntil(lambda: all(mem.get_node(i).status == "deleted" for i in ids))  # type: ignore[union-attr]


def test_a_global_memory_in_the_selection_is_left_and_named(qtbot: Any, window: MainWindow) -> None:
    # The built-in memories are listed only on View ▸ Show built-in memories.
    assert "焯水去腥" not in titles(window)
    window.builtin_action.trigger()
    qtbot.waitUntil(lambda: "焯水去腥" in titles(window))
    shown = titles(window)
    builtin = next(t for t in shown if t == "焯水去腥")
    ids = _select(qtbot, window, SCALLION, builtin)
    wait_task(qtbot, window.selection.trash(ids))
    result = window.selection.last_result
    assert result is not None and len(result.done) == 1
    assert [code for _, code in result.skipped] == ["global"]
    assert "焯水去腥" in window.status.note.text() and "read-only" in window.status.note.text()


def test_move_several_to_a_category_and_undo_moves_them_back(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    ids = _select(qtbot, window, SCALLION, CUISINE)
    offered: list[str] = []

    def choose(dialog: QDialog) -> bool:
        assert isinstance(dialog, MoveDialog)
        offered.extend(dialog.combo.itemText(i) for i in range(dialog.combo.count()))
        assert not dialog.ok_button.isEnabled()  # nothing chosen yet
        dialog.combo.setEditText("生活技能 / 做饭 / 口味")
        assert dialog.ok_button.isEnabled()
        return True

    dialogs.handlers.append(choose)
    wait_task(qtbot, window.selection.move(ids))
    assert "生活技能 / 做饭 / 饮食偏好" in offered
    mem = window.runner.memory
    heads = [mem.head_of(i) for i in ids]
    assert all(h.id != i for h, i in zip(heads, ids, strict=True))  # new versions
    assert all(h.category_path == ["生活技能", "做饭", "口味"] for h in heads)
    assert all(mem.get_node(i).status == "superseded" for i in ids)  # type: ignore[union-attr]
    assert window.undo_action.text() == "Undo move of 2 memories"
    wait_task(qtbot, window.undo())
    back = [mem.head_of(i) for i in ids]
    assert [b.category_path for b in back] == [["生活技能", "做饭", "饮食偏好"]] * 2


def test_export_the_selection_as_markdown(
    qtbot: Any,
    language: str,
    window: MainWindow,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    ids = _select(qtbot, window, CORIANDER, SCALLION)
    target = tmp_path / "two.md"
    dialogs.save_files.append(target)
    action = _action(window, "exportSelected")
    assert action is not None
    task = window.selection.export(ids)
    wait_task(qtbot, task)
    text = target.read_text(encoding="utf-8")
    assert CORIANDER in text and SCALLION in text and CUISINE not in text
    assert pick(language, en="2 selected memories.", zh="选中的 2 条记忆。") in text
    assert (
        pick(language, en="Exported 2 memories", zh="已导出 2 条记忆") in window.status.note.text()
    )


def test_the_menu_opens_from_the_keyboard(qtbot: Any, window: MainWindow) -> None:
    _select(qtbot, window, CORIANDER, SCALLION)
    table = window.list_pane.table
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    qtbot.keyClick(table, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    menu = window.selection.menu
    assert isinstance(menu, QMenu)
    qtbot.waitUntil(menu.isVisible)
    assert QApplication.activePopupWidget() is menu
    qtbot.keyClick(menu, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not menu.isVisible())


def test_parse_path() -> None:
    assert parse_path(" 项目 /架构／ 数据库 ") == ["项目", "架构", "数据库"]
    assert parse_path(" / ") == []


def test_the_menu_key_opens_the_menu_on_the_selection(qtbot: Any, window: MainWindow) -> None:
    ids = _select(qtbot, window, CORIANDER, SCALLION)
    table = window.list_pane.table
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    # The Menu key: the window system turns it into a context menu event (QTest does not).
    row = table.visualRect(table.currentIndex())
    QApplication.sendEvent(
        table.viewport(),
        QContextMenuEvent(
            QContextMenuEvent.Reason.Keyboard,
            row.center(),
            table.viewport().mapToGlobal(row.center()),
        ),
    )
    menu = window.selection.menu
    assert isinstance(menu, QMenu)
    qtbot.waitUntil(menu.isVisible)
    assert window.selection.selected_ids() == ids  # the key kept the selection
    qtbot.keyClick(menu, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not menu.isVisible())


def test_an_earlier_version_in_the_selection_is_left_as_it_was(
    qtbot: Any, window: MainWindow
) -> None:
    """Under "Including history" a superseded version can be selected: trashing it alone
    could never be undone, so it is skipped and named."""
    window.status_combo.setCurrentIndex(1)
    qtbot.waitUntil(lambda: "用户不吃香菜" in titles(window), timeout=5000)
    ids = _select(qtbot, window, "用户不吃香菜", SCALLION)
    wait_task(qtbot, window.selection.trash(ids))
    result = window.selection.last_result
    assert result is not None and len(result.done) == 1
    assert [code for _, code in result.skipped] == ["not_current"]
    assert "an earlier version" in window.status.note.text()
