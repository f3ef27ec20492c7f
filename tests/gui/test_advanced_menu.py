"""Developer options live under Advanced, out of File (issue 27)."""

from __future__ import annotations

from typing import Any

from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.languages import language, pick

__all__ = ["language"]


def test_developer_options_are_under_advanced(language: str, window: MainWindow) -> None:
    developer = [
        window.connect_action,
        window.purge_action,
        window.compact_action,
        window.reindex_action,
    ]
    file_actions = window.file_menu.actions()
    assert not [a.text() for a in developer if a in file_actions]
    assert all(a in window.advanced_menu.actions() for a in developer)
    # File keeps what people use: open, export, import.
    for kept in (window.open_action, window.export_action, window.import_action):
        assert kept in file_actions
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus[-2] == pick(language, en="&Advanced", zh="高级(&A)")  # before Help
    assert window.purge_action.toolTip()


def test_the_workspace_menu_still_connects_to_postgresql(qtbot: Any, window: MainWindow) -> None:
    window._fill_workspace_menu()
    assert window.connect_action in window.workspace_menu.actions()
