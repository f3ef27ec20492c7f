"""The File menu's dialogs: export, import, purge, compaction, the semantic index.

Its strings are in the main window's translation context (``MainWindow``): ``self.tr``
would name the window's class at run time, and lupdate this one."""

from __future__ import annotations

import asyncio
from typing import Any

from ekko_memory_gui.qt import QCoreApplication as _Q


class FileDialogs:
    """Opens the File menu's dialogs and awaits them (a part of ``MainWindow``)."""

    def _branch_path(self) -> list[str] | None:
        branch = self.category_pane.current_branch()
        f = branch.filter if branch is not None else None
        if f is None:
            return None
        if f.category_path_prefix:
            return list(f.category_path_prefix)
        return [f.domain] if f.domain else None

    def export_memories(self) -> asyncio.Task[Any] | None:
        """File > Export: JSON bundle, Markdown or CSV, of everything, this branch or a scope."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.export_dialog import ExportDialog

        dialog = ExportDialog(self.controller, branch=self._branch_path(), parent=self)
        return self._spawn(self._run_dialog(dialog), _Q.translate("MainWindow", "Export"))

    def import_bundle(self) -> asyncio.Task[Any] | None:
        """File > Import: a JSON bundle, with a report of what was added, skipped and superseded."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.import_dialog import ImportDialog

        dialog = ImportDialog(self.controller, parent=self)
        return self._spawn(self._run_dialog(dialog), _Q.translate("MainWindow", "Import"))

    def purge(self) -> asyncio.Task[Any] | None:
        """File > Purge: dry run, purge, verification."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.purge_dialog import PurgeDialog

        dialog = PurgeDialog(self.controller, branch=self._branch_path(), parent=self)
        return self._spawn(self._run_dialog(dialog), _Q.translate("MainWindow", "Purge"))

    def compact_stores(self) -> asyncio.Task[Any] | None:
        """File > Compact stores: give the space of deleted records back, then the sizes."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.compact_dialog import CompactDialog

        dialog = CompactDialog(self.controller, parent=self)
        return self._spawn(self._run_dialog(dialog), _Q.translate("MainWindow", "Compact stores"))

    def semantic_index(self) -> asyncio.Task[Any] | None:
        """File > Semantic index: how far embedding is, and embedding the rest now."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.reindex_dialog import ReindexDialog

        dialog = ReindexDialog(self.controller, parent=self)

        async def run() -> bool:
            await dialog.load_state()
            return await self._run_dialog(dialog)

        return self._spawn(run(), _Q.translate("MainWindow", "Semantic index"))

    async def _run_dialog(self, dialog: Any) -> bool:
        try:
            return await self.controller.dialogs.run(dialog)
        finally:
            task = getattr(dialog, "task", None)
            if task is not None and not task.done():
                await asyncio.gather(task, return_exceptions=True)
            dialog.deleteLater()
