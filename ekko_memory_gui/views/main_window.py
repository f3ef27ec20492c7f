"""The main window: toolbar (workspace, search, filters, inbox), the category tree, the
memory table and the detail pane, the sessions view, and the status line.

Its parts: ``main_menus`` (toolbar and menus), ``store_switching`` (open a workspace or
a database), ``file_dialogs`` (export, import, purge, compaction, the semantic index)
and ``inbox_button``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ekko_memory import BrowseFilter
from ekko_memory_gui.controller import AppController, OpenWorkspace
from ekko_memory_gui.models.category_tree_model import KIND_SESSIONS, KIND_TRASH
from ekko_memory_gui.operations import browse_ops
from ekko_memory_gui.operations.changes import ChangeSet
from ekko_memory_gui.qt import (
    QKeySequence,
    QMainWindow,
    QShortcut,
    QSize,
    QSplitter,
    QStackedWidget,
    Qt,
    QTimer,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.icons import app_icon
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.advanced_menu import build_advanced_menu
from ekko_memory_gui.views.category_pane import Branch, CategoryPane
from ekko_memory_gui.views.file_dialogs import FileDialogs
from ekko_memory_gui.views.help_menus import HelpMenus
from ekko_memory_gui.views.inbox_view import InboxView
from ekko_memory_gui.views.main_menus import MainMenus
from ekko_memory_gui.views.memory_actions import MemoryActions
from ekko_memory_gui.views.memory_controls import MemoryControls
from ekko_memory_gui.views.memory_detail_pane import MemoryDetailPane
from ekko_memory_gui.views.memory_list_pane import MemoryListPane
from ekko_memory_gui.views.memory_selection import MemorySelection
from ekko_memory_gui.views.sentence_flow import new_memory_by_sentence
from ekko_memory_gui.views.sessions_view import SessionsView
from ekko_memory_gui.views.status_bar import StoreStatusBar
from ekko_memory_gui.views.store_switching import StoreSwitching

SEARCH_DEBOUNCE_MS = 150
DEFAULT_SIZE = QSize(1400, 860)
# The first window takes at most this share of the screen's free area.
SCREEN_SHARE = 0.9


def initial_size(available: QSize) -> QSize:
    """The first window's size: the default, shrunk to fit a smaller screen."""
    return DEFAULT_SIZE.boundedTo(
        QSize(int(available.width() * SCREEN_SHARE), int(available.height() * SCREEN_SHARE))
    )


# "My memories": what the user and the agent wrote (the built-in, global ones on request).
MY_SCOPES = ("session", "workspace", "user")


def compose_filter(
    branch: Branch | None, scope: str | list[str] | None, history: bool, text: str
) -> BrowseFilter | None:
    """The table's filter: the branch's part plus the toolbar's scope(s), status and search."""
    if branch is None or branch.filter is None:
        return None
    trash = branch.kind == KIND_TRASH
    update: dict[str, Any] = {
        "scopes": [scope] if isinstance(scope, str) else scope,
        "text": text.strip() or None,
    }
    if not trash:
        update["statuses"] = None if history else ["active"]
        update["hide_expired"] = not history
    return branch.filter.model_copy(update=update)


@dataclass
class WindowState:
    """What to restore after the window is rebuilt (language or theme switch)."""

    branch_key: str | None = None
    node_id: str | None = None
    search: str = ""
    scope: str | None = None
    history: bool = False
    page: int = 0


class MainWindow(MainMenus, HelpMenus, StoreSwitching, FileDialogs, QMainWindow):
    """The app's one window."""

    closed = Signal()
    rebuild_requested = Signal(str, str)  # setting ("language" | "theme"), value

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.runner = controller.runner
        self.setWindowTitle("Ekko Memory")
        self.setWindowIcon(app_icon())
        self.setObjectName("mainWindow")
        self._replacing = False
        self._tasks: list[asyncio.Task[Any]] = []

        self.category_pane = CategoryPane(self.runner)
        self.list_pane = MemoryListPane(self.runner)
        self.detail_pane = MemoryDetailPane(self.runner)
        self.sessions_view = SessionsView(self.runner)
        self.inbox_view = InboxView(controller)
        self.actions = MemoryActions(controller, self)

        self.memory_split = QSplitter(Qt.Orientation.Horizontal)
        self.memory_split.setObjectName("memorySplit")
        self.memory_split.addWidget(self.list_pane)
        self.memory_split.addWidget(self.detail_pane)
        self.memory_split.setStretchFactor(0, 3)
        self.memory_split.setStretchFactor(1, 2)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.memory_split)
        self.pages.addWidget(self.sessions_view)
        self.pages.addWidget(self.inbox_view)
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.setObjectName("mainSplit")
        self.main_split.addWidget(self.category_pane)
        self.main_split.addWidget(self.pages)
        self.main_split.setStretchFactor(1, 1)
        self.main_split.setSizes([230, 1100])
        self.memory_split.setSizes([640, 460])
        self.setCentralWidget(self.main_split)

        self.status = StoreStatusBar()
        self.setStatusBar(self.status)
        self._build_toolbar()
        self._build_menus()
        self._build_help_menus(self.view_menu, self.help_menu)
        self.selection = MemorySelection(self)
        self.controls = MemoryControls(self)
        self.advanced_menu = build_advanced_menu(self)
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)
        self._connect()
        self._restore_layout()

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DEBOUNCE_MS)
        self._search_timer.timeout.connect(self.apply_filter)

    # --- building -------------------------------------------------------------------

    def _connect(self) -> None:
        c = self.controller
        c.workspace_opened.connect(self.attach_workspace)
        c.changed.connect(self.apply_changes)
        self.runner.busy_changed.connect(self.status.set_busy)
        self.runner.failed.connect(self.status.show_error)
        self.runner.unavailable.connect(self.status.set_outage)
        # Rows arriving, or the change watcher's read, means the store answers again.
        self.list_pane.model.rows_loaded.connect(lambda: self.status.set_outage(None))
        c.watcher.answered.connect(self._store_answered)
        self.status.retry_requested.connect(self.retry)
        self.category_pane.branch_selected.connect(self._branch_selected)
        self.category_pane.tree.clicked.connect(self._branch_clicked)
        self.list_pane.current_changed.connect(self._memory_selected)
        self.detail_pane.version_clicked.connect(self._version_clicked)
        self.detail_pane.open_message.connect(self.show_message)
        self.detail_pane.edit_requested.connect(self.edit_memory)
        self.detail_pane.delete_requested.connect(
            lambda node_id, hard: (
                self.hard_delete_memory(node_id) if hard else self.delete_memory(node_id)
            )
        )
        self.detail_pane.restore_requested.connect(self.restore_memory)
        self.detail_pane.revert_requested.connect(self.revert_memory)
        self.list_pane.activated.connect(self.edit_memory)
        self.sessions_view.open_memory.connect(self.open_memory)
        self.list_pane.first_run.open_demo.connect(self.open_demo)
        self.list_pane.first_run.new_memory.connect(self.new_memory)
        self.inbox_view.count_changed.connect(self.inbox_button.set_count)
        self.actions.select.connect(self._select_memory)
        self.actions.message.connect(self.status.show_note)
        c.undo.changed.connect(self._undo_changed)
        self.search_field.textChanged.connect(lambda _t: self._search_timer.start())
        self.search_field.returnPressed.connect(self.apply_filter)
        self.scope_combo.currentIndexChanged.connect(lambda _i: self._filters_changed())
        self.status_combo.currentIndexChanged.connect(lambda _i: self._filters_changed())
        esc = QShortcut(QKeySequence(Qt.Key.Key_Escape), self.search_field)
        esc.setContext(Qt.ShortcutContext.WidgetShortcut)
        esc.activated.connect(self.search_field.clear)

    def _store_answered(self) -> None:
        """The stores answered the change watcher: a lock or a lost connection is over (a
        write that failed under another program's lock had left "store unavailable …
        press F5" standing for good)."""
        self.status.set_outage(None)

    def _restore_layout(self) -> None:
        settings = self.controller.settings
        geometry, state = settings.window_state()
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            free = self.screen().availableGeometry()
            self.resize(initial_size(free.size()))
            frame = self.frameGeometry()
            frame.moveCenter(free.center())
            self.move(frame.topLeft())
        if state is not None:
            self.restoreState(state)
        for name, splitter in (("main", self.main_split), ("memory", self.memory_split)):
            saved = settings.splitter_state(name)
            if saved is not None:
                splitter.restoreState(saved)

    def _spawn(self, coro: Any, what: str) -> asyncio.Task[Any]:
        task = self.runner.spawn(coro, what)
        self._tasks = [t for t in self._tasks if not t.done()] + [task]
        return task

    def attach_workspace(self, ws: OpenWorkspace) -> None:
        """Show an opened workspace (also after the window was rebuilt)."""
        self.workspace_button.setText(ws.name)
        self.workspace_button.setToolTip(ws.location)
        self.setWindowTitle(f"{ws.name} — Ekko Memory")
        self.detail_pane.show_node(None)
        self.list_pane.clear()
        # The memory worker runs calls in order: the first page goes first (what the user
        # looks at), the counts of the tree and the status line after it.
        branch = self.category_pane.current_branch() or Branch(
            kind="all", key="all/", label="", filter=BrowseFilter()
        )
        f = compose_filter(branch, self._scopes(), self._history(), self.search_field.text())
        if f is not None and branch.kind != KIND_SESSIONS:
            self.list_pane.set_filter(f, branch.kind)
        self.category_pane.set_filters(self._scopes(), self._history())
        self.list_pane.first_run.set_workspace(ws.location)
        self.inbox_view.reload()
        self._spawn(self.refresh_status(), self.tr("Reading store status"))
        self.sessions_view.reload()

    async def refresh_status(self) -> None:
        """Health (in memory) and the number of active memories (counted off the GUI thread)."""
        mem = self.runner.memory
        ws = self.controller.workspace
        server = ws.database.display if ws is not None and ws.database is not None else None
        self.status.set_health(mem.health(), None, mem.config_warning, server)
        if not any(h.readable for h in mem.health().values()):
            return  # nothing to count (a server that refused us)
        active = await browse_ops.count(
            self.runner, BrowseFilter(hide_expired=True, scopes=list(MY_SCOPES))
        )
        self.status.set_health(mem.health(), active, mem.config_warning, server)

    # --- filters --------------------------------------------------------------------

    def _scope(self) -> str | None:
        return self.scope_combo.currentData()

    def _scopes(self) -> list[str] | None:
        """The scopes shown: the one chosen, else my memories (and the built-in ones when
        View ▸ Show built-in memories is on)."""
        scope = self._scope()
        if scope:
            return [scope]
        return None if self.controller.settings.show_builtin() else list(MY_SCOPES)

    def _history(self) -> bool:
        return bool(self.status_combo.currentData())

    def _filters_changed(self) -> None:
        self.category_pane.set_filters(self._scopes(), self._history())
        self.apply_filter()

    def apply_filter(self) -> asyncio.Task[None] | None:
        """Compose the table's filter from the branch, scope, status and search text."""
        self._search_timer.stop()
        branch = self.category_pane.current_branch()
        f = compose_filter(branch, self._scopes(), self._history(), self.search_field.text())
        if f is None:
            return None
        if branch is not None and branch.kind != KIND_SESSIONS:
            self.pages.setCurrentWidget(self.memory_split)
        current = self.list_pane.filter
        if current is not None and current == f:
            return None
        return self.list_pane.set_filter(f, branch.kind if branch else "all")

    def _branch_selected(self, branch: Branch) -> None:
        if branch.kind == KIND_SESSIONS:
            self.pages.setCurrentWidget(self.sessions_view)
            self.sessions_view.reload()
            return
        self.pages.setCurrentWidget(self.memory_split)
        self.apply_filter()

    def _branch_clicked(self, _index: Any) -> None:
        """A click on the branch already selected brings its page back (after Ctrl+I the
        tree kept its selection, and clicking it did nothing)."""
        branch = self.category_pane.current_branch()
        if branch is None:
            return
        page = self.sessions_view if branch.kind == KIND_SESSIONS else self.memory_split
        if self.pages.currentWidget() is not page:
            self._branch_selected(branch)

    def show_inbox(self) -> None:
        """Ctrl+I: the inbox page."""
        self.pages.setCurrentWidget(self.inbox_view)
        self.inbox_view.reload()

    def focus_search(self) -> None:
        self.search_field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_field.selectAll()

    # --- selection ------------------------------------------------------------------

    def _memory_selected(self, node_id: str | None) -> None:
        if node_id is not None or self.detail_pane.node_id is not None:
            self.detail_pane.show_node(node_id)

    def _version_clicked(self, node_id: str) -> None:
        if not self.list_pane.select_id(node_id):
            self.detail_pane.show_node(node_id)

    def open_memory(self, node_id: str) -> None:
        """Show one memory (from a reply that used it): all memories, it selected."""
        self.category_pane.select_key("all/")
        self.pages.setCurrentWidget(self.memory_split)
        self.apply_filter()
        self._select_memory(node_id)

    def show_message(self, session_id: str, message_id: str) -> asyncio.Task[bool]:
        """Open the Sessions view at one message."""
        self.category_pane.select_key(f"{KIND_SESSIONS}/")
        self.pages.setCurrentWidget(self.sessions_view)
        return self._spawn(
            self.sessions_view.open_message(session_id, message_id), self.tr("Opening a message")
        )

    # --- the user's changes ----------------------------------------------------------

    def _on_selected(self, action: Any) -> None:
        """Run an Edit-menu action on the memory selected in the list, when the list shows."""
        node_id = self.list_pane.selected_id()
        if node_id is not None and self.pages.currentWidget() is self.memory_split:
            action(node_id)

    def _select_memory(self, node_id: str) -> None:
        self.list_pane.select_id(node_id)
        self.detail_pane.show_node(node_id)

    def _current_defaults(self) -> dict[str, Any]:
        """A new memory starts in the selected branch."""
        branch = self.category_pane.current_branch()
        f = branch.filter if branch is not None else None
        out: dict[str, Any] = {}
        if f is not None and f.domain:
            out["domain"] = f.domain
            if f.category_path_prefix:
                out["categoryPath"] = list(f.category_path_prefix)
        return out

    def new_memory(self) -> asyncio.Task[Any] | None:
        """Ctrl+N: one sentence, then what Ekko understood (the full form one click away)."""
        if not self.runner.attached:
            return None
        return self._spawn(
            new_memory_by_sentence(self.actions, self._current_defaults()), self.tr("New memory")
        )

    def edit_memory(self, node_id: str) -> asyncio.Task[Any]:
        return self._spawn(self.actions.edit(node_id), self.tr("Editing a memory"))

    def delete_memory(self, node_id: str) -> asyncio.Task[Any]:
        return self._spawn(self.actions.soft_delete(node_id), self.tr("Deleting a memory"))

    def hard_delete_memory(self, node_id: str) -> asyncio.Task[Any]:
        return self._spawn(
            self.actions.hard_delete(node_id), self.tr("Deleting a memory permanently")
        )

    def restore_memory(self, node_id: str) -> asyncio.Task[Any]:
        return self._spawn(self.actions.restore(node_id), self.tr("Restoring a memory"))

    def revert_memory(self, version_id: str) -> asyncio.Task[Any]:
        return self._spawn(self.actions.revert(version_id), self.tr("Reverting a memory"))

    def undo(self) -> asyncio.Task[Any]:
        return self._spawn(self.actions.undo(), self.tr("Undoing"))

    def _undo_changed(self, label: str) -> None:
        self.undo_action.setEnabled(bool(label))
        self.undo_action.setText(label or self.tr("Undo"))

    # --- changes --------------------------------------------------------------------

    def apply_changes(self, changes: ChangeSet) -> None:
        """One change set → each view refreshes what it shows of it."""
        if changes.empty:
            return
        if changes.node_ids or changes.everything:
            self.category_pane.reload_counts()
            self._spawn(self.refresh_status(), self.tr("Reading store status"))
        self.list_pane.apply_changes(changes)
        self.detail_pane.apply_changes(changes)
        self.sessions_view.apply_changes(changes)
        self.inbox_view.apply_changes(changes)

    def refresh(self) -> None:
        """F5: reload what the window shows."""
        self.controller.refresh_everything()

    # --- state ----------------------------------------------------------------------

    def capture_state(self) -> WindowState:
        branch = self.category_pane.current_branch()
        return WindowState(
            branch_key=branch.key if branch else None,
            node_id=self.detail_pane.node_id,
            search=self.search_field.text(),
            scope=self._scope(),
            history=self._history(),
            page=self.pages.currentIndex(),
        )

    def restore_state(self, state: WindowState) -> None:
        """Bring back a captured state once the workspace is loaded."""
        self.search_field.setText(state.search)
        self.scope_combo.setCurrentIndex(max(0, self.scope_combo.findData(state.scope)))
        self.status_combo.setCurrentIndex(1 if state.history else 0)

        async def restore() -> None:
            task = self.category_pane.set_filters(self._scopes(), state.history)
            if task is not None:
                await asyncio.shield(task)
            if state.branch_key:
                self.category_pane.select_key(state.branch_key)
            self.apply_filter()
            if state.node_id:
                self.list_pane.select_id(state.node_id)
                self.detail_pane.show_node(state.node_id)
            self.pages.setCurrentIndex(state.page)

        self._spawn(restore(), self.tr("Restoring the view"))

    async def _about(self) -> None:
        from ekko_memory import __version__

        await self.controller.dialogs.inform(
            self,
            self.tr("About Ekko Memory"),
            self.tr(
                "Ekko Memory {version}\n\nLocal, auditable long-term memory for AI agents. "
                "Everything stays in SQLite files on this machine, or in the PostgreSQL "
                "database you connect to."
            ).format(version=__version__),
        )

    def replace(self) -> None:
        """Close without ending the app (the window is being rebuilt)."""
        self._replacing = True
        self.close()

    def closeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        settings = self.controller.settings
        settings.save_window_state(self.saveGeometry(), self.saveState())
        settings.save_splitter_state("main", self.main_split.saveState())
        settings.save_splitter_state("memory", self.memory_split.saveState())
        for t in self._tasks:
            if not t.done():
                t.cancel()
        super().closeEvent(event)
        if not self._replacing:
            self.closed.emit()
