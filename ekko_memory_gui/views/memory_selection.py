"""Many memories at once: the memory list selects several rows (Ctrl+click, Shift+click,
Shift+arrows, Ctrl+A) and a context menu (right click, the Menu key or Shift+F10) acts on
all of them: move to the trash (undo brings them back), move to a category, export the
selection as Markdown, and pin or unpin when the core can pin (``mem.actions.pin``).

Del on a multi-selection moves every selected memory to the trash.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ekko_memory_gui.models import labels
from ekko_memory_gui.models.roles import ID_ROLE
from ekko_memory_gui.operations import batch_ops, markdown_export
from ekko_memory_gui.operations.batch_ops import BatchResult
from ekko_memory_gui.operations.undo import UndoEntry
from ekko_memory_gui.qt import (
    QAbstractItemView,
    QAction,
    QKeySequence,
    QMenu,
    QObject,
    QPoint,
    Qt,
    QTableView,
)
from ekko_memory_gui.services.icons import icon
from ekko_memory_gui.views.dialogs.move_dialog import MoveDialog, path_text
from ekko_memory_gui.views.markdown_words import markdown_words

if TYPE_CHECKING:
    from ekko_memory_gui.views.main_window import MainWindow


class MemorySelection(QObject):
    """The list's multi-selection and its context menu, for ``window``."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.table: QTableView = window.list_pane.table
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._menu_at)
        self.table.setAccessibleDescription(
            self.tr(
                "Ctrl+click or Shift+click selects several memories; the Menu key or "
                "Shift+F10 opens what can be done with them."
            )
        )
        # Shift+F10 opens the menu as the Menu key does (keyboard users on laptops).
        self.menu_action = QAction(self.tr("Actions on the selection"), self.table)
        self.menu_action.setShortcut(QKeySequence("Shift+F10"))
        self.menu_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.menu_action.triggered.connect(self._menu_at_cursor)
        self.table.addAction(self.menu_action)
        self.menu: QMenu | None = None
        self.last_result: BatchResult | None = None

    # --- what is selected -------------------------------------------------------------

    def selected_ids(self) -> list[str]:
        """The selected memories, top to bottom."""
        model = self.table.selectionModel()
        if model is None:
            return []
        rows = sorted({i.row() for i in model.selectedRows(0)})
        out = []
        for r in rows:
            node_id = self.table.model().index(r, 0).data(ID_ROLE)
            if node_id:
                out.append(node_id)
        return out

    def _title(self, node_id: str) -> str:
        model = self.window.list_pane.model
        row = model.row_at(model.row_of(node_id))
        return row.title if row is not None else node_id

    # --- the menu ---------------------------------------------------------------------

    def build_menu(self) -> QMenu:
        """The menu for the current selection (built each time: the count is in it)."""
        ids = self.selected_ids()
        n = len(ids)
        menu = QMenu(self.table)
        menu.setObjectName("selectionMenu")
        menu.setAccessibleName(self.tr("Actions on the selected memories"))

        def add(text: str, name: str, run: Callable[[list[str]], Any], glyph: str = "") -> QAction:
            action = menu.addAction(icon(glyph), text) if glyph else menu.addAction(text)
            action.setObjectName(name)
            action.setEnabled(n > 0)
            action.triggered.connect(lambda _=False, ids=ids: run(ids))
            return action

        if n == 1:
            add(self.tr("Edit…"), "editSelected", lambda i: self.window.edit_memory(i[0]), "edit")
            menu.addSeparator()
        add(
            self.tr("Move to trash") if n <= 1 else self.tr("Move {n} to trash").format(n=n),
            "trashSelected",
            self.trash,
            "trash",
        )
        add(self.tr("Move to category…"), "moveSelected", self.move)
        add(
            self.tr("Export selection…") if n != 1 else self.tr("Export…"),
            "exportSelected",
            self.export,
            "export",
        )
        if batch_ops.can_pin(self.controller):
            menu.addSeparator()
            pin = add(self.tr("Pin"), "pinSelected", lambda i: self.pin(i, on=True))
            pin.setToolTip(self.tr("The agent may read it but never change or delete it"))
            add(self.tr("Unpin"), "unpinSelected", lambda i: self.pin(i, on=False))
        menu.addSeparator()
        add(
            self.tr("Forget everything about these…")
            if n > 1
            else self.tr("Forget everything about this…"),
            "forgetSelected",
            self.window.controls.forget_selection,
        )
        if n == 1:
            add(
                self.tr("Delete permanently…"),
                "hardDeleteSelected",
                lambda i: self.window.hard_delete_memory(i[0]),
                "delete",
            )
        self.menu = menu
        return menu

    def _menu_at(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        if index.isValid() and not self.table.selectionModel().isRowSelected(index.row()):
            self.window.list_pane.select_id(index.siblingAtColumn(0).data(ID_ROLE))
        self.build_menu().popup(self.table.viewport().mapToGlobal(pos))

    def _menu_at_cursor(self) -> None:
        index = self.table.currentIndex()
        rect = self.table.visualRect(index) if index.isValid() else self.table.viewport().rect()
        self.build_menu().popup(self.table.viewport().mapToGlobal(rect.bottomLeft()))

    def delete_pressed(self) -> bool:
        """Del: with several memories selected, trash them all (True when it did)."""
        ids = self.selected_ids()
        if len(ids) < 2:
            return False
        self.trash(ids)
        return True

    # --- the flows --------------------------------------------------------------------

    def _spawn(self, coro: Any, what: str) -> asyncio.Task[Any]:
        return self.window._spawn(coro, what)

    def _say(self, text: str) -> None:
        self.window.actions.message.emit(text)

    def _skipped_text(self, result: BatchResult) -> str:
        """Why some were left as they were, in words."""
        why = {
            "global": self.tr("built in, read-only"),
            "not_current": self.tr("an earlier version"),
            "deleted": self.tr("in the trash or gone"),
            "refused": self.tr("refused"),
        }
        parts = [f"“{self._title(i)}” ({why.get(code, code)})" for i, code in result.skipped]
        parts += [f"“{self._title(i)}” ({labels.error_text(e)})" for i, e in result.errors]
        if not parts:
            return ""
        return self.tr("Left as they were: {list}").format(list="; ".join(parts))

    def _report(self, done: str, result: BatchResult) -> None:
        skipped = self._skipped_text(result)
        self._say(f"{done} {skipped}".strip())

    def trash(self, ids: list[str]) -> asyncio.Task[Any]:
        return self._spawn(self.trash_now(ids), self.tr("Moving memories to the trash"))

    async def trash_now(self, ids: list[str]) -> BatchResult:
        """Move to the trash; one Ctrl+Z brings them all back."""
        result = await batch_ops.trash(self.controller, ids)
        self.last_result = result
        gone = list(result.done)
        if gone:
            self.controller.undo.push(
                UndoEntry(
                    self.tr("Undo delete of {n} memories").format(n=len(gone))
                    if len(gone) != 1
                    else self.tr("Undo delete of “{title}”").format(title=self._title(gone[0])),
                    lambda: batch_ops.restore(self.controller, gone),
                    select_after=gone[0],
                )
            )
        self._report(
            self.tr("Moved {n} memories to the trash. Ctrl+Z brings them back.").format(
                n=len(gone)
            ),
            result,
        )
        return result

    def move(self, ids: list[str]) -> asyncio.Task[Any]:
        return self._spawn(self.move_now(ids), self.tr("Moving memories to a category"))

    async def move_now(self, ids: list[str]) -> BatchResult | None:
        paths = await batch_ops.categories(self.controller)
        dialog = MoveDialog(len(ids), paths, self.window)
        try:
            if not await self.controller.dialogs.run(dialog):
                return None
            path = dialog.path()
        finally:
            dialog.deleteLater()
        if not path:
            return None
        result = await batch_ops.move(self.controller, ids, path)
        self.last_result = result
        moved = {k: v for k, v in result.done.items() if k in result.previous}
        if moved:
            previous = dict(result.previous)
            self.controller.undo.push(
                UndoEntry(
                    self.tr("Undo move of {n} memories").format(n=len(moved)),
                    lambda: batch_ops.revert_moves(self.controller, previous, moved),
                )
            )
        self._report(
            self.tr("Moved {n} memories to {path}.").format(
                n=len(result.done), path=path_text(path)
            ),
            result,
        )
        return result

    def export(self, ids: list[str]) -> asyncio.Task[Any]:
        return self._spawn(self.export_now(ids), self.tr("Exporting the selection"))

    async def export_now(self, ids: list[str]) -> Path | None:
        """The selected memories as Markdown, in the UI's language."""
        ws = self.controller.workspace
        start = ws.start_folder if ws is not None else Path.home()
        target = await self.controller.dialogs.choose_save_file(
            self.window,
            self.tr("Export the selected memories"),
            Path(start) / "memories.md",
            self.tr("Markdown (*.md)"),
        )
        if target is None:
            return None
        try:
            # The file dialog asked before replacing a file that exists.
            report = await markdown_export.export_markdown(
                self.controller, target, markdown_words(), node_ids=ids, force=True
            )
        except Exception as e:
            await self.controller.dialogs.error(
                self.window, self.tr("Export selection"), labels.error_text(e)
            )
            return None
        self._say(
            self.tr("Exported {n} memories to {path}.").format(
                n=report.counts.get("nodes", 0), path=report.path
            )
        )
        return Path(report.path) if report.path else None

    def pin(self, ids: list[str], *, on: bool) -> asyncio.Task[Any]:
        return self._spawn(self.pin_now(ids, on=on), self.tr("Pinning memories"))

    async def pin_now(self, ids: list[str], *, on: bool) -> BatchResult:
        result = await batch_ops.pin(self.controller, ids, on=on)
        self.last_result = result
        done = (
            self.tr("Pinned {n} memories: the agent can read them but not change them.")
            if on
            else self.tr("Unpinned {n} memories.")
        ).format(n=len(result.done))
        self._report(done, result)
        return result
