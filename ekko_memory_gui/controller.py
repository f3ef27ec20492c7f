"""The app object: owns the open workspace (a folder of SQLite files, or a PostgreSQL
store), the operation runner, the change watcher, settings and the dialog service. Views
get it and never open the core themselves.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from ekko_memory import AsyncMemory
from ekko_memory_gui.operations.changes import ChangeSet, ChangeWatcher
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.operations.undo import UndoStack
from ekko_memory_gui.qt import QObject, Signal
from ekko_memory_gui.services.database_url import display_name, without_password
from ekko_memory_gui.services.dialog_service import DialogService
from ekko_memory_gui.services.settings import AppSettings


@dataclass(frozen=True)
class DatabaseTarget:
    """A PostgreSQL store: the URL (its password, if any, stays in memory: never saved,
    never shown) and the namespace of its schemas."""

    url: str = field(repr=False)
    namespace: str = "ekko"

    @property
    def display(self) -> str:
        """``user@host/db · namespace`` for titles and the status line."""
        return f"{display_name(self.url)} · {self.namespace}"


@dataclass(frozen=True)
class OpenWorkspace:
    """The store in use: a workspace folder and the user store beside it, or a database."""

    folder: Path | None
    user_home: Path | None = None
    database: DatabaseTarget | None = None

    @property
    def name(self) -> str:
        """Short, for the toolbar and the window title."""
        if self.database is not None:
            return f"{self.database.namespace} @ {display_name(self.database.url)}"
        assert self.folder is not None
        return self.folder.name or str(self.folder)

    @property
    def location(self) -> str:
        """In full, for tooltips (never a password)."""
        if self.database is not None:
            return f"{without_password(self.database.url)} (namespace {self.database.namespace})"
        return str(self.folder)

    @property
    def start_folder(self) -> Path:
        """Where file choosers start: the workspace folder, or home for a database."""
        return self.folder if self.folder is not None else Path.home()


async def connect(target: DatabaseTarget) -> AsyncMemory:
    """Open a PostgreSQL store on a memory worker of its own (never on the GUI thread).

    Raises InvalidInput for a URL the core cannot use; a server that cannot be reached or
    refuses the login gives disabled stores whose health says why.
    """
    return await AsyncMemory.open(url=target.url, namespace=target.namespace)


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
        self.settings.remember_workspace(folder)
        return await self.attach(amem, OpenWorkspace(folder, user_home))

    async def open_database(
        self, target: DatabaseTarget, opened: AsyncMemory | None = None
    ) -> OpenWorkspace:
        """Use a PostgreSQL store (``opened`` when the connection dialog already opened it).

        Connecting runs on the memory worker (it can take seconds); an unreachable server or
        a wrong password does not raise: the stores are disabled and the status line says
        why, with a Retry. The recent list keeps the URL without its password.
        """
        self.watcher.stop()
        amem = opened or await connect(target)
        if any(h.status != "disabled" for h in amem.service.health().values()):
            self.settings.remember_database(target.url, target.namespace)
        return await self.attach(amem, OpenWorkspace(None, None, target))

    async def attach(self, amem: AsyncMemory, ws: OpenWorkspace) -> OpenWorkspace:
        """Make an opened memory the one every view shows; the previous one is closed."""
        self.watcher.stop()
        old = self.runner.attach(amem)
        if old is not None:
            await old.aclose()
        token = await self.runner.call(amem.service.browse.change_token)
        self.watcher.start(token, amem.service.now())
        if amem.service.semantic is not None:
            # The app stays open: semantic recall embeds what has no vector yet (memories
            # written by an agent, a change of model) in the background, from now on.
            amem.service.semantic.indexer.start()
        self.workspace = ws
        self.undo.clear()
        self.workspace_opened.emit(self.workspace)
        return self.workspace

    async def reopen(self) -> OpenWorkspace | None:
        """Open the current store again (Retry after the server or the file was fixed)."""
        ws = self.workspace
        if ws is None:
            return None
        if ws.database is not None:
            return await self.open_database(ws.database)
        assert ws.folder is not None
        return await self.open_workspace(ws.folder, ws.user_home)

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
