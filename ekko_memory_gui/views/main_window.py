"""The main window: toolbar (workspace, search, filters, inbox), the category tree, the
memory table and the detail pane, the sessions view, and the status line.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ekko_memory import BrowseFilter, InvalidInput
from ekko_memory_gui.controller import AppController, DatabaseTarget, OpenWorkspace, connect
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.category_tree_model import KIND_SESSIONS, KIND_TRASH
from ekko_memory_gui.operations import browse_ops
from ekko_memory_gui.operations.changes import ChangeSet
from ekko_memory_gui.qt import (
    QAction,
    QActionGroup,
    QComboBox,
    QKeySequence,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QShortcut,
    QSize,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    Qt,
    QTimer,
    QToolBar,
    QToolButton,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.icons import app_icon, icon
from ekko_memory_gui.services.settings import RecentDatabase
from ekko_memory_gui.views.category_pane import Branch, CategoryPane
from ekko_memory_gui.views.inbox_view import InboxView
from ekko_memory_gui.views.memory_actions import MemoryActions
from ekko_memory_gui.views.memory_detail_pane import MemoryDetailPane
from ekko_memory_gui.views.memory_list_pane import MemoryListPane
from ekko_memory_gui.views.sessions_view import SessionsView
from ekko_memory_gui.views.status_bar import StoreStatusBar

SEARCH_DEBOUNCE_MS = 150
SCOPES = ("session", "workspace", "user", "global")
DEFAULT_SIZE = QSize(1400, 860)
# The first window takes at most this share of the screen's free area.
SCREEN_SHARE = 0.9


def initial_size(available: QSize) -> QSize:
    """The first window's size: the default, shrunk to fit a smaller screen."""
    return DEFAULT_SIZE.boundedTo(
        QSize(int(available.width() * SCREEN_SHARE), int(available.height() * SCREEN_SHARE))
    )


def compose_filter(
    branch: Branch | None, scope: str | None, history: bool, text: str
) -> BrowseFilter | None:
    """The table's filter: the branch's part plus the toolbar's scope, status and search."""
    if branch is None or branch.filter is None:
        return None
    trash = branch.kind == KIND_TRASH
    update: dict[str, Any] = {
        "scopes": [scope] if scope else None,
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


class InboxButton(QToolButton):
    """A toolbar button with a red count badge."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.badge = QLabel("", self)
        self.badge.setObjectName("badge")
        self.badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.badge.setVisible(False)
        self.count = 0

    def set_count(self, n: int) -> None:
        self.count = n
        self.badge.setText(str(n))
        # The badge is painted: a screen reader hears the count from the button's name.
        self.setAccessibleName(self.tr("Inbox, {n} waiting").format(n=n) if n else "")
        self.badge.setVisible(n > 0)
        self.badge.adjustSize()
        self._place()

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().resizeEvent(event)
        self._place()

    def _place(self) -> None:
        self.badge.move(max(0, self.width() - self.badge.width() - 1), 0)
        self.badge.raise_()


class MainWindow(QMainWindow):
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
        self._connect()
        self._restore_layout()

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DEBOUNCE_MS)
        self._search_timer.timeout.connect(self.apply_filter)

    # --- building -------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        bar = QToolBar(self.tr("Main"))
        bar.setObjectName("mainToolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.addToolBar(bar)

        self.workspace_button = QToolButton()
        self.workspace_button.setObjectName("workspaceButton")
        self.workspace_button.setIcon(icon("workspace"))
        self.workspace_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.workspace_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.workspace_menu = QMenu(self)
        self.workspace_menu.aboutToShow.connect(self._fill_workspace_menu)
        self.workspace_button.setMenu(self.workspace_menu)
        self.workspace_button.setText(self.tr("Workspace"))
        bar.addWidget(self.workspace_button)

        self.search_field = QLineEdit()
        self.search_field.setObjectName("searchField")
        self.search_field.setPlaceholderText(self.tr("Search memories (香菜, database…)  Ctrl+F"))
        self.search_field.setClearButtonEnabled(True)
        # Names a screen reader says: the placeholder is not one, and the filters have no
        # label beside them (their text is the value chosen, not what they choose).
        self.search_field.setAccessibleName(self.tr("Search memories"))
        self.search_field.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        bar.addWidget(self.search_field)

        self.scope_combo = QComboBox()
        self.scope_combo.setObjectName("scopeFilter")
        self.scope_combo.setAccessibleName(self.tr("Scope"))
        self.scope_combo.addItem(self.tr("All scopes"), None)

        for s in SCOPES:
            self.scope_combo.addItem(labels.scope_label(s), s)
        bar.addWidget(self.scope_combo)

        self.status_combo = QComboBox()
        self.status_combo.setObjectName("statusFilter")
        self.status_combo.setAccessibleName(self.tr("Status"))
        self.status_combo.addItem(self.tr("Active"), False)
        self.status_combo.addItem(self.tr("Including history"), True)
        self.status_combo.setToolTip(
            self.tr("Including history shows superseded, expired and deleted versions, greyed")
        )
        bar.addWidget(self.status_combo)

        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)

        self.new_action = QAction(icon("add"), self.tr("New memory"), self)
        self.new_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_action.triggered.connect(self.new_memory)
        bar.addAction(self.new_action)

        self.inbox_button = InboxButton(self.tr("Inbox"))
        self.inbox_button.setObjectName("inboxButton")
        self.inbox_action = QAction(icon("inbox"), self.tr("Inbox"), self)
        self.inbox_action.setShortcut(QKeySequence("Ctrl+I"))
        self.inbox_action.triggered.connect(self.show_inbox)
        self.inbox_button.setDefaultAction(self.inbox_action)
        bar.addWidget(self.inbox_button)

        self.refresh_action = QAction(icon("refresh"), self.tr("Refresh"), self)
        self.refresh_action.setShortcut(QKeySequence(Qt.Key.Key_F5))
        self.refresh_action.triggered.connect(self.refresh)
        bar.addAction(self.refresh_action)
        self.toolbar = bar

    def _build_menus(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu(self.tr("&File"))
        self.open_action = QAction(icon("workspace"), self.tr("Open workspace…"), self)
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.open_action.triggered.connect(
            lambda: self._spawn(self.choose_workspace(), self.tr("Opening a workspace"))
        )
        file_menu.addAction(self.open_action)
        self.connect_action = QAction(icon("workspace"), self.tr("Connect to PostgreSQL…"), self)
        self.connect_action.triggered.connect(lambda: self.connect_database())
        file_menu.addAction(self.connect_action)
        self.recent_menu = file_menu.addMenu(self.tr("Open recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        self.export_action = QAction(icon("export"), self.tr("Export…"), self)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.triggered.connect(self.export_memories)
        file_menu.addAction(self.export_action)
        self.import_action = QAction(icon("import"), self.tr("Import…"), self)
        self.import_action.triggered.connect(self.import_bundle)
        file_menu.addAction(self.import_action)
        self.purge_action = QAction(icon("purge"), self.tr("Purge…"), self)
        self.purge_action.triggered.connect(self.purge)
        file_menu.addAction(self.purge_action)
        self.compact_action = QAction(icon("compact"), self.tr("Compact stores…"), self)
        self.compact_action.triggered.connect(self.compact_stores)
        file_menu.addAction(self.compact_action)
        self.reindex_action = QAction(icon("compact"), self.tr("Semantic index…"), self)
        self.reindex_action.triggered.connect(self.semantic_index)
        file_menu.addAction(self.reindex_action)
        self.file_menu = file_menu
        file_menu.addSeparator()
        quit_action = QAction(self.tr("Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        self.quit_action = quit_action

        self.edit_menu = menu.addMenu(self.tr("&Edit"))
        self.undo_action = QAction(icon("undo"), self.tr("Undo"), self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo)
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addSeparator()
        self.edit_menu.addAction(self.new_action)
        self.edit_action = QAction(icon("edit"), self.tr("Edit memory"), self)
        self.edit_action.setShortcuts(
            [QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter)]
        )
        self.edit_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.edit_action.triggered.connect(lambda: self._on_selected(self.edit_memory))
        self.list_pane.table.addAction(self.edit_action)
        self.edit_menu.addAction(self.edit_action)
        self.delete_action = QAction(icon("trash"), self.tr("Move to trash"), self)
        self.delete_action.setShortcut(QKeySequence(Qt.Key.Key_Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.delete_action.triggered.connect(lambda: self._on_selected(self.delete_memory))
        self.list_pane.table.addAction(self.delete_action)
        self.edit_menu.addAction(self.delete_action)
        self.hard_delete_action = QAction(icon("delete"), self.tr("Delete permanently…"), self)
        self.hard_delete_action.setShortcut(QKeySequence("Shift+Del"))
        self.hard_delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.hard_delete_action.triggered.connect(
            lambda: self._on_selected(self.hard_delete_memory)
        )
        self.list_pane.table.addAction(self.hard_delete_action)
        self.edit_menu.addAction(self.hard_delete_action)
        self.restore_action = QAction(icon("restore"), self.tr("Restore from trash"), self)
        self.restore_action.triggered.connect(lambda: self._on_selected(self.restore_memory))
        self.edit_menu.addAction(self.restore_action)
        self._undo_changed(self.controller.undo.peek().label if self.controller.undo.peek() else "")

        view = menu.addMenu(self.tr("&View"))
        find = QAction(icon("search"), self.tr("Find"), self)
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.triggered.connect(self.focus_search)
        view.addAction(find)
        view.addAction(self.refresh_action)
        view.addAction(self.inbox_action)
        self.view_menu = view
        view.addSeparator()
        language = view.addMenu(icon("language"), self.tr("Language"))
        group = QActionGroup(self)
        current = self.controller.settings.language()
        for code, name in (
            ("system", self.tr("Follow the system")),
            ("en", "English"),
            ("zh_CN", "简体中文"),
        ):
            a = QAction(name, self, checkable=True)
            a.setChecked(code == current)
            a.setData(code)
            group.addAction(a)
            language.addAction(a)
            a.triggered.connect(lambda _=False, c=code: self.rebuild_requested.emit("language", c))
        theme = view.addMenu(icon("theme"), self.tr("Theme"))
        tgroup = QActionGroup(self)
        current_theme = self.controller.settings.theme()
        for code, name in (
            ("system", self.tr("Follow the system")),
            ("light", self.tr("Light")),
            ("dark", self.tr("Dark")),
        ):
            a = QAction(name, self, checkable=True)
            a.setChecked(code == current_theme)
            tgroup.addAction(a)
            theme.addAction(a)
            a.triggered.connect(lambda _=False, c=code: self.rebuild_requested.emit("theme", c))

        help_menu = menu.addMenu(self.tr("&Help"))
        about = QAction(self.tr("About Ekko Memory"), self)
        about.triggered.connect(lambda: self._spawn(self._about(), self.tr("About")))
        help_menu.addAction(about)

    def finish_menus(self) -> None:
        """Put Quit last in the File menu (after sections other parts added)."""
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)

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

    # --- workspace ------------------------------------------------------------------

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
            a = menu.addAction(self.tr("No recent workspaces"))
            a.setEnabled(False)
        for path in recent:
            a = menu.addAction(str(path))
            a.triggered.connect(
                lambda _=False, p=path: self._spawn(
                    self.open_workspace(p), self.tr("Opening a workspace")
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
            self, self.tr("Open workspace"), start
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
        return self._spawn(self._connect_flow(dialog), self.tr("Connecting to PostgreSQL"))

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
                self._spawn(self.refresh_status(), self.tr("Reading store status"))
            return False
        await self.controller.open_database(target, memory)
        return True

    def cannot_connect(self, target: DatabaseTarget, error: Exception) -> asyncio.Task[Any]:
        """A URL the core refused (from the command line): say so, and offer the dialog."""
        text = labels.error_text(error)
        self.status.show_error(self.tr("Connecting to PostgreSQL"), text)
        return self.connect_database(target, text)

    def open_recent_database(self, recent: RecentDatabase) -> asyncio.Task[Any]:
        """A database from the recent list: its URL has no password, so libpq looks in
        ~/.pgpass and PGPASSWORD; when the server still refuses, the dialog asks."""
        target = DatabaseTarget(recent.url, recent.namespace)
        return self._spawn(self._open_recent(target), self.tr("Connecting to PostgreSQL"))

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
        return self._spawn(self.controller.reopen(), self.tr("Opening the store again"))

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
        f = compose_filter(branch, self._scope(), self._history(), self.search_field.text())
        if f is not None and branch.kind != KIND_SESSIONS:
            self.list_pane.set_filter(f, branch.kind)
        scope = self._scope()
        self.category_pane.set_filters([scope] if scope else None, self._history())
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
        active = await browse_ops.count(self.runner, BrowseFilter(hide_expired=True))
        self.status.set_health(mem.health(), active, mem.config_warning, server)

    # --- filters --------------------------------------------------------------------

    def _scope(self) -> str | None:
        return self.scope_combo.currentData()

    def _history(self) -> bool:
        return bool(self.status_combo.currentData())

    def _filters_changed(self) -> None:
        self.category_pane.set_filters([self._scope()] if self._scope() else None, self._history())
        self.apply_filter()

    def apply_filter(self) -> asyncio.Task[None] | None:
        """Compose the table's filter from the branch, scope, status and search text."""
        self._search_timer.stop()
        branch = self.category_pane.current_branch()
        f = compose_filter(branch, self._scope(), self._history(), self.search_field.text())
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
        return self._spawn(self._run_dialog(dialog), self.tr("Export"))

    def import_bundle(self) -> asyncio.Task[Any] | None:
        """File > Import: a JSON bundle, with a report of what was added, skipped and superseded."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.import_dialog import ImportDialog

        dialog = ImportDialog(self.controller, parent=self)
        return self._spawn(self._run_dialog(dialog), self.tr("Import"))

    def purge(self) -> asyncio.Task[Any] | None:
        """File > Purge: dry run, purge, verification."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.purge_dialog import PurgeDialog

        dialog = PurgeDialog(self.controller, branch=self._branch_path(), parent=self)
        return self._spawn(self._run_dialog(dialog), self.tr("Purge"))

    def compact_stores(self) -> asyncio.Task[Any] | None:
        """File > Compact stores: give the space of deleted records back, then the sizes."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.compact_dialog import CompactDialog

        dialog = CompactDialog(self.controller, parent=self)
        return self._spawn(self._run_dialog(dialog), self.tr("Compact stores"))

    def semantic_index(self) -> asyncio.Task[Any] | None:
        """File > Semantic index: how far embedding is, and embedding the rest now."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.reindex_dialog import ReindexDialog

        dialog = ReindexDialog(self.controller, parent=self)

        async def run() -> bool:
            await dialog.load_state()
            return await self._run_dialog(dialog)

        return self._spawn(run(), self.tr("Semantic index"))

    async def _run_dialog(self, dialog: Any) -> bool:
        try:
            return await self.controller.dialogs.run(dialog)
        finally:
            task = getattr(dialog, "task", None)
            if task is not None and not task.done():
                await asyncio.gather(task, return_exceptions=True)
            dialog.deleteLater()

    def new_memory(self) -> asyncio.Task[Any] | None:
        if not self.runner.attached:
            return None
        return self._spawn(self.actions.new_memory(self._current_defaults()), self.tr("New memory"))

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
            task = self.category_pane.set_filters(
                [state.scope] if state.scope else None, state.history
            )
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
