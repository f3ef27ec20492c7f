"""Opening another store from the main window: a workspace folder, a recent one, a
PostgreSQL database (the connect dialog), or the same store again (Retry).

Its strings are in the main window's translation context (``MainWindow``): ``self.tr``
would name the window's class at run time, and lupdate this one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ekko_memory import InvalidInput
from ekko_memory_gui.controller import DatabaseTarget, connect
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import QCoreApplication as _Q
from ekko_memory_gui.qt import QMenu
from ekko_memory_gui.services.icons import icon
from ekko_memory_gui.services.settings import RecentDatabase


class StoreSwitching:
    """The workspace menu, File > Open / Connect / Open recent, and Retry (a part of ``MainWindow``)."""

    def _fill_workspace_menu(self) -> None:
        self.workspace_menu.clear()
        self.workspace_menu.addAction(self.open_action)
        self.workspace_menu.addAction(self.connect_action)
        self.workspace_menu.addSeparator()
        self._add_recent(self.workspace_menu)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        self._add_recent(self.recent_menu)

    def _add_recent(self, menu: QMenu) -> None:
        recent = self.controller.settings.recent_workspaces()
        databases = self.controller.settings.recent_databases()
        if not recent and not databases:
            a = menu.addAction(_Q.translate("MainWindow", "No recent workspaces"))
            a.setEnabled(False)
        for path in recent:
            a = menu.addAction(str(path))
            a.triggered.connect(
                lambda _=False, p=path: self._spawn(
                    self.open_workspace(p), _Q.translate("MainWindow", "Opening a workspace")
                )
            )
        if recent and databases:
            menu.addSeparator()
        for db in databases:
            target = DatabaseTarget(db.url, db.namespace)
            a = menu.addAction(icon("workspace"), target.display)
            a.setToolTip(db.url)
            a.triggered.connect(lambda _=False, d=db: self.open_recent_database(d))

    async def choose_workspace(self) -> None:
        ws = self.controller.workspace
        start = ws.start_folder if ws is not None else Path.home()
        folder = await self.controller.dialogs.choose_directory(
            self, _Q.translate("MainWindow", "Open workspace"), start
        )
        if folder is not None:
            await self.open_workspace(folder)

    async def open_workspace(self, folder: Path) -> None:
        self.status.set_opening(folder)
        user_home = self.controller.workspace.user_home if self.controller.workspace else None
        await self.controller.open_workspace(folder, user_home)

    # --- PostgreSQL -----------------------------------------------------------------

    def connect_database(
        self, initial: DatabaseTarget | None = None, error: str | None = None
    ) -> asyncio.Task[Any]:
        """File > Connect to PostgreSQL: the dialog connects; its store replaces the open one."""
        from ekko_memory_gui.views.dialogs.connect_dialog import ConnectDialog

        dialog = ConnectDialog(initial=initial, error=error, parent=self)
        return self._spawn(
            self._connect_flow(dialog), _Q.translate("MainWindow", "Connecting to PostgreSQL")
        )

    async def _connect_flow(self, dialog: Any) -> bool:
        try:
            accepted = await self.controller.dialogs.run(dialog)
            if dialog.task is not None and not dialog.task.done():
                await asyncio.gather(dialog.task, return_exceptions=True)
            memory, target = dialog.memory, dialog.target
        finally:
            dialog.deleteLater()
        if not (accepted and memory is not None and target is not None):
            if self.runner.attached:
                self._spawn(
                    self.refresh_status(), _Q.translate("MainWindow", "Reading store status")
                )
            return False
        await self.controller.open_database(target, memory)
        return True

    def cannot_connect(self, target: DatabaseTarget, error: Exception) -> asyncio.Task[Any]:
        """A URL the core refused (from the command line): say so, and offer the dialog."""
        text = labels.error_text(error)
        self.status.show_error(_Q.translate("MainWindow", "Connecting to PostgreSQL"), text)
        return self.connect_database(target, text)

    def open_recent_database(self, recent: RecentDatabase) -> asyncio.Task[Any]:
        """A database from the recent list: its URL has no password, so libpq looks in
        ~/.pgpass and PGPASSWORD; when the server still refuses, the dialog asks."""
        target = DatabaseTarget(recent.url, recent.namespace)
        return self._spawn(
            self._open_recent(target), _Q.translate("MainWindow", "Connecting to PostgreSQL")
        )

    async def _open_recent(self, target: DatabaseTarget) -> bool:
        self.status.set_opening(target.display)
        try:
            amem = await connect(target)
        except InvalidInput as e:
            await self.connect_database(target, labels.error_text(e))
            return False
        reasons = [
            labels.health_text(h) for h in amem.service.health().values() if h.status == "disabled"
        ]
        if reasons:
            await amem.aclose()
            return bool(await self.connect_database(target, reasons[0]))
        await self.controller.open_database(target, amem)
        return True

    def retry(self) -> asyncio.Task[Any]:
        """The status line's Retry: open the same store again."""
        ws = self.controller.workspace
        if ws is not None:
            self.status.set_opening(ws.database.display if ws.database else str(ws.folder))
        return self._spawn(
            self.controller.reopen(), _Q.translate("MainWindow", "Opening the store again")
        )
