"""Help (the user guide, the keyboard shortcuts), View ▸ Show built-in memories, and
Open the demo: the parts of the main window that help a new user find their way.

Strings are in the main window's translation context (``MainWindow``), as in
``main_menus``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ekko_memory.resources import resource_path, resources_dir
from ekko_memory_gui.qt import (
    QAction,
    QDialog,
    QDialogButtonBox,
    QKeySequence,
    QMenu,
    Qt,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.qt import QCoreApplication as _Q
from ekko_memory_gui.views.first_run import prepare_demo

GUIDE_NAME = "user-guide.md"


def guide_path() -> Path | None:
    """The user guide: shipped with the resources, or in the checkout's docs/."""
    candidates = [resource_path("docs", GUIDE_NAME), resources_dir().parent / "docs" / GUIDE_NAME]
    return next((p for p in candidates if p.is_file()), None)


class GuideDialog(QDialog):
    """The user guide, read in the app (offline, selectable, links open in the browser)."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("guideDialog")
        self.setWindowTitle(_Q.translate("MainWindow", "User guide"))
        self.resize(760, 620)
        self.browser = QTextBrowser()
        self.browser.setObjectName("guideText")
        self.browser.setOpenExternalLinks(True)
        self.browser.setAccessibleName(_Q.translate("MainWindow", "User guide"))
        # The screenshots are for the web page; in the app the window itself is there.
        shown = "\n".join(line for line in text.splitlines() if not line.strip().startswith("!["))
        self.browser.setMarkdown(shown)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)


class HelpMenus:
    """Adds to ``MainWindow``'s View and Help menus, and opens the demo (a part of it)."""

    def _build_help_menus(self: Any, view: QMenu, help_menu: QMenu) -> None:
        self.builtin_action = QAction(_Q.translate("MainWindow", "Show built-in memories"), self)
        self.builtin_action.setCheckable(True)
        self.builtin_action.setChecked(self.controller.settings.show_builtin())
        self.builtin_action.setToolTip(
            _Q.translate(
                "MainWindow",
                "Recipes and cooking tips that ship with Ekko; they are not your memories",
            )
        )
        self.builtin_action.toggled.connect(self.set_show_builtin)
        view.addSeparator()
        view.addAction(self.builtin_action)

        self.guide_action = QAction(_Q.translate("MainWindow", "User guide"), self)
        self.guide_action.setShortcut(QKeySequence(Qt.Key.Key_F1))
        self.guide_action.triggered.connect(self.open_user_guide)
        self.shortcuts_action = QAction(_Q.translate("MainWindow", "Keyboard shortcuts"), self)
        self.shortcuts_action.triggered.connect(self.show_shortcuts)
        self.demo_action = QAction(_Q.translate("MainWindow", "Open the demo"), self)
        self.demo_action.triggered.connect(self.open_demo)
        first = help_menu.actions()[0] if help_menu.actions() else None
        for action in (self.guide_action, self.shortcuts_action, self.demo_action):
            help_menu.insertAction(first, action)
        if first is not None:
            help_menu.insertSeparator(first)

    def set_show_builtin(self: Any, show: bool) -> None:
        """List the built-in memories among mine (or not), and count them in the tree."""
        self.controller.settings.set_show_builtin(show)
        if self.builtin_action.isChecked() != show:
            self.builtin_action.setChecked(show)
        self._filters_changed()

    def open_user_guide(self: Any) -> asyncio.Task[Any]:
        return self._spawn(self._guide(), _Q.translate("MainWindow", "Opening the user guide"))

    async def _guide(self: Any) -> None:
        path = guide_path()
        if path is None:
            await self.controller.dialogs.inform(
                self,
                _Q.translate("MainWindow", "User guide"),
                _Q.translate(
                    "MainWindow",
                    "The user guide is not installed with this copy of Ekko Memory; it is "
                    "docs/user-guide.md in the source.",
                ),
            )
            return
        # A small file shipped with the app: read here (the loop's default executor is a
        # pool of QThreads under qasync, left running at exit).
        text = path.read_text(encoding="utf-8")
        dialog = GuideDialog(text, self)
        try:
            await self.controller.dialogs.run(dialog)
        finally:
            dialog.deleteLater()

    def shortcut_lines(self: Any) -> list[str]:
        """“Ctrl+N — New memory”… from the window's own actions (as the menus say them)."""
        actions = [
            self.new_action,
            self.edit_action,
            self.delete_action,
            self.hard_delete_action,
            self.undo_action,
            self.inbox_action,
            self.refresh_action,
            self.export_action,
            self.open_action,
            self.guide_action,
        ]
        controls = getattr(self, "controls", None)
        if controls is not None:  # Forget everything about…, Pause memory
            actions += [controls.forget_action, controls.pause_action]
        lines = [
            _Q.translate("MainWindow", "{keys} — Search").format(
                keys=QKeySequence(QKeySequence.StandardKey.Find).toString(
                    QKeySequence.SequenceFormat.NativeText
                )
            )
        ]
        for a in actions:
            keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if keys:
                name = a.text().replace("&", "")
                if a is self.undo_action:
                    name = _Q.translate("MainWindow", "Undo")
                lines.append(f"{keys} — {name}")
        lines.append(_Q.translate("MainWindow", "Esc — Clear the search"))
        lines.append(
            _Q.translate("MainWindow", "Tab — Next pane; arrows move inside a list or the tree")
        )
        return lines

    def show_shortcuts(self: Any) -> asyncio.Task[Any]:
        return self._spawn(
            self.controller.dialogs.inform(
                self,
                _Q.translate("MainWindow", "Keyboard shortcuts"),
                "\n".join(self.shortcut_lines()),
            ),
            _Q.translate("MainWindow", "Keyboard shortcuts"),
        )

    def open_demo(self: Any) -> asyncio.Task[Any]:
        """Fill a demo workspace in a temporary folder and open it (your memories untouched)."""

        async def work() -> None:
            self.status.show_note(_Q.translate("MainWindow", "Preparing the demo…"))
            workspace, user_home = await prepare_demo()
            await self.controller.open_workspace(workspace, user_home)

        return self._spawn(work(), _Q.translate("MainWindow", "Opening the demo"))
