"""The Advanced menu: what developers and administrators need, out of the way of people
who keep their memories (issue 27): connecting to PostgreSQL, the expert purge (workspace
and user ids, migration backups, the verification report), compacting the stores and the
semantic index. File keeps opening a workspace, export and import."""

from __future__ import annotations

from typing import Any

from ekko_memory_gui.qt import QCoreApplication as _Q
from ekko_memory_gui.qt import QMenu


def build_advanced_menu(window: Any) -> QMenu:
    """Move the developer options from File to an Advanced menu before Help."""
    menu = QMenu(_Q.translate("AdvancedMenu", "&Advanced"), window)
    menu.setObjectName("advancedMenu")
    menu.setToolTipsVisible(True)
    moved = [window.connect_action, window.purge_action, window.compact_action]
    reindex = getattr(window, "reindex_action", None)
    if reindex is not None:
        moved.append(reindex)
    for action in moved:
        window.file_menu.removeAction(action)
    menu.addAction(window.connect_action)
    menu.addSeparator()
    menu.addAction(window.purge_action)
    for action in moved[2:]:
        menu.addAction(action)
    window.purge_action.setToolTip(
        _Q.translate(
            "AdvancedMenu",
            "Deletes for good what matches filters of ids, dates and words, with a dry run "
            "and a report of what is left",
        )
    )
    bar = window.menuBar()
    actions = bar.actions()
    if actions:
        bar.insertMenu(actions[-1], menu)  # before Help
    else:
        bar.addMenu(menu)
    return menu
