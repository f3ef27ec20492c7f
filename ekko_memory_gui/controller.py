"""The app object: owns the open workspace, the operation runner, the change watcher,
settings and the dialog service. Views get it and never open the core themselves.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from ekko_memory import AsyncMemory
from ekko_memory_gui.operations.changes import ChangeSet, ChangeWatcher
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.operations.undo import UndoStack
from ekko_memory_gui.qt import QObject, Signal
from ekko_memory_gui.services.dialog_service import DialogService
from ekko_memory_gui.services.settings import AppSettings


@dataclass(frozen=True)
class OpenWorkspace:
    """The workspace in use and the user store beside it."""

    folder: Path
    user_home: Path | None


class AppController(QObject):
    """Opening workspaces, the change bus, and shutdown."""

    workspace_opened = Signal(object)  # OpenWorkspace
    changed = Signal(object)  # ChangeSet

    def __init__(
        self,
        settings: AppSettings,
        dialogs: DialogService,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self.dialogs = dialogs
        self.runner = OperationRunner(self)
        self.watcher = ChangeWatcher(self.runner, self)
        self.watcher.changed.connect(self.changed)
        self.workspace: OpenWorkspace | None = None
        # Undo for the app's own edits in this session (kept across window rebuilds).
        self.undo = UndoStack(self)
        self.closing = False

    async def open_workspace(self, folder: Path, user_home: Path | None = None) -> OpenWorkspace:
        """Open (creating if needed) the workspace's and the user's stores, off the GUI thread.

        A store that cannot open does not raise: it is disabled and the status line says why.
        """
        folder = folder.expanduser().resolve()
        self.watcher.stop()
        amem = await AsyncMemory.open(folder, user_home=user_home)
        old = self.runner.attach(amem)
        if old is not None:
            await old.aclose()
        token = await self.runner.call(amem.service.browse.change_token)
        self.watcher.start(token, amem.service.now())
        self.workspace = OpenWorkspace(folder, user_home)
        self.undo.clear()
        self.settings.remember_workspace(folder)
        self.workspace_opened.emit(self.workspace)
        return self.workspace

    async def refresh_after_write(self) -> ChangeSet | None:
        """After one of the app's own writes: look for changes now (one path for every change)."""
        task = self.watcher.check_now()
        if task is None:
            return None
        return await asyncio.shield(task)

    def refresh_everything(self) -> None:
        """F5: every view reloads what it shows."""
        self.changed.emit(ChangeSet(pending=True, messages=True, everything=True))

    async def aclose(self) -> None:
        """Stop watching, finish or cancel work in flight, close the stores."""
        self.closing = True
        self.watcher.stop()
        await self.runner.aclose()
