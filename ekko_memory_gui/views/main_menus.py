"""The main window's toolbar and menus (File, Edit, View, Help).

Its strings are in the main window's translation context (``MainWindow``): ``self.tr``
would name the window's class at run time, and lupdate this one."""

from __future__ import annotations

from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import (
    QAction,
    QActionGroup,
    QComboBox,
    QKeySequence,
    QLineEdit,
    QMenu,
    QSizePolicy,
    Qt,
    QToolBar,
    QToolButton,
    QWidget,
)
from ekko_memory_gui.qt import QCoreApplication as _Q
from ekko_memory_gui.services.icons import icon
from ekko_memory_gui.views.inbox_button import InboxButton
from ekko_memory_gui.views.search_hint import SearchHint

SCOPES = ("session", "workspace", "user", "global")


class MainMenus:
    """Builds the toolbar and the menu bar of ``MainWindow`` (a part of it)."""

    def _build_toolbar(self) -> None:
        bar = QToolBar(_Q.translate("MainWindow", "Main"))
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
        self.workspace_button.setText(_Q.translate("MainWindow", "Workspace"))
        bar.addWidget(self.workspace_button)

        self.search_field = QLineEdit()
        self.search_field.setObjectName("searchField")
        self.search_field.setClearButtonEnabled(True)
        # Names a screen reader says: the placeholder is not one, and the filters have no
        # label beside them (their text is the value chosen, not what they choose).
        self.search_field.setAccessibleName(_Q.translate("MainWindow", "Search memories"))
        self.search_field.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        bar.addWidget(self.search_field)
        # The hint fits the field's width (at 1024×700 the full hint was cut mid-word).
        self.search_hint = SearchHint(self.search_field)

        self.scope_combo = QComboBox()
        self.scope_combo.setObjectName("scopeFilter")
        self.scope_combo.setAccessibleName(_Q.translate("MainWindow", "Scope"))
        self.scope_combo.addItem(_Q.translate("MainWindow", "All scopes"), None)

        for s in SCOPES:
            self.scope_combo.addItem(labels.scope_label(s), s)
        bar.addWidget(self.scope_combo)

        self.status_combo = QComboBox()
        self.status_combo.setObjectName("statusFilter")
        self.status_combo.setAccessibleName(_Q.translate("MainWindow", "Status"))
        self.status_combo.addItem(_Q.translate("MainWindow", "Active"), False)
        self.status_combo.addItem(_Q.translate("MainWindow", "Including history"), True)
        self.status_combo.setToolTip(
            _Q.translate(
                "MainWindow",
                "Including history shows superseded, expired and deleted versions, greyed",
            )
        )
        bar.addWidget(self.status_combo)

        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)

        self.new_action = QAction(icon("add"), _Q.translate("MainWindow", "New memory"), self)
        self.new_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_action.triggered.connect(self.new_memory)
        bar.addAction(self.new_action)

        self.inbox_button = InboxButton(_Q.translate("MainWindow", "Inbox"))
        self.inbox_button.setObjectName("inboxButton")
        self.inbox_action = QAction(icon("inbox"), _Q.translate("MainWindow", "Inbox"), self)
        self.inbox_action.setShortcut(QKeySequence("Ctrl+I"))
        self.inbox_action.triggered.connect(self.show_inbox)
        self.inbox_button.setDefaultAction(self.inbox_action)
        bar.addWidget(self.inbox_button)

        self.refresh_action = QAction(icon("refresh"), _Q.translate("MainWindow", "Refresh"), self)
        self.refresh_action.setShortcut(QKeySequence(Qt.Key.Key_F5))
        self.refresh_action.triggered.connect(self.refresh)
        bar.addAction(self.refresh_action)
        self.toolbar = bar

    def _build_menus(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu(_Q.translate("MainWindow", "&File"))
        self.open_action = QAction(
            icon("workspace"), _Q.translate("MainWindow", "Open workspace…"), self
        )
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.open_action.triggered.connect(
            lambda: self._spawn(
                self.choose_workspace(), _Q.translate("MainWindow", "Opening a workspace")
            )
        )
        file_menu.addAction(self.open_action)
        self.connect_action = QAction(
            icon("workspace"), _Q.translate("MainWindow", "Connect to PostgreSQL…"), self
        )
        self.connect_action.triggered.connect(lambda: self.connect_database())
        file_menu.addAction(self.connect_action)
        self.recent_menu = file_menu.addMenu(_Q.translate("MainWindow", "Open recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        self.export_action = QAction(icon("export"), _Q.translate("MainWindow", "Export…"), self)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.triggered.connect(self.export_memories)
        file_menu.addAction(self.export_action)
        self.import_action = QAction(icon("import"), _Q.translate("MainWindow", "Import…"), self)
        self.import_action.triggered.connect(self.import_bundle)
        file_menu.addAction(self.import_action)
        self.purge_action = QAction(icon("purge"), _Q.translate("MainWindow", "Purge…"), self)
        self.purge_action.triggered.connect(self.purge)
        file_menu.addAction(self.purge_action)
        self.compact_action = QAction(
            icon("compact"), _Q.translate("MainWindow", "Compact stores…"), self
        )
        self.compact_action.triggered.connect(self.compact_stores)
        file_menu.addAction(self.compact_action)
        self.reindex_action = QAction(
            icon("compact"), _Q.translate("MainWindow", "Semantic index…"), self
        )
        self.reindex_action.triggered.connect(self.semantic_index)
        file_menu.addAction(self.reindex_action)
        self.file_menu = file_menu
        file_menu.addSeparator()
        quit_action = QAction(_Q.translate("MainWindow", "Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        self.quit_action = quit_action

        self.edit_menu = menu.addMenu(_Q.translate("MainWindow", "&Edit"))
        self.undo_action = QAction(icon("undo"), _Q.translate("MainWindow", "Undo"), self)
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo)
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addSeparator()
        self.edit_menu.addAction(self.new_action)
        self.edit_action = QAction(icon("edit"), _Q.translate("MainWindow", "Edit memory"), self)
        self.edit_action.setShortcuts(
            [QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter)]
        )
        self.edit_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.edit_action.triggered.connect(lambda: self._on_selected(self.edit_memory))
        self.list_pane.table.addAction(self.edit_action)
        self.edit_menu.addAction(self.edit_action)
        self.delete_action = QAction(
            icon("trash"), _Q.translate("MainWindow", "Move to trash"), self
        )
        self.delete_action.setShortcut(QKeySequence(Qt.Key.Key_Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.delete_action.triggered.connect(self._delete_pressed)
        self.list_pane.table.addAction(self.delete_action)
        self.edit_menu.addAction(self.delete_action)
        self.hard_delete_action = QAction(
            icon("delete"), _Q.translate("MainWindow", "Delete permanently…"), self
        )
        self.hard_delete_action.setShortcut(QKeySequence("Shift+Del"))
        self.hard_delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.hard_delete_action.triggered.connect(
            lambda: self._on_selected(self.hard_delete_memory)
        )
        self.list_pane.table.addAction(self.hard_delete_action)
        self.edit_menu.addAction(self.hard_delete_action)
        self.restore_action = QAction(
            icon("restore"), _Q.translate("MainWindow", "Restore from trash"), self
        )
        self.restore_action.triggered.connect(lambda: self._on_selected(self.restore_memory))
        self.edit_menu.addAction(self.restore_action)
        self._undo_changed(self.controller.undo.peek().label if self.controller.undo.peek() else "")

        view = menu.addMenu(_Q.translate("MainWindow", "&View"))
        find = QAction(icon("search"), _Q.translate("MainWindow", "Find"), self)
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.triggered.connect(self.focus_search)
        view.addAction(find)
        view.addAction(self.refresh_action)
        view.addAction(self.inbox_action)
        self.view_menu = view
        view.addSeparator()
        language = view.addMenu(icon("language"), _Q.translate("MainWindow", "Language"))
        group = QActionGroup(self)
        current = self.controller.settings.language()
        for code, name in (
            ("system", _Q.translate("MainWindow", "Follow the system")),
            ("en", "English"),
            ("zh_CN", "简体中文"),
        ):
            a = QAction(name, self, checkable=True)
            a.setChecked(code == current)
            a.setData(code)
            group.addAction(a)
            language.addAction(a)
            a.triggered.connect(lambda _=False, c=code: self.rebuild_requested.emit("language", c))
        theme = view.addMenu(icon("theme"), _Q.translate("MainWindow", "Theme"))
        tgroup = QActionGroup(self)
        current_theme = self.controller.settings.theme()
        for code, name in (
            ("system", _Q.translate("MainWindow", "Follow the system")),
            ("light", _Q.translate("MainWindow", "Light")),
            ("dark", _Q.translate("MainWindow", "Dark")),
        ):
            a = QAction(name, self, checkable=True)
            a.setChecked(code == current_theme)
            tgroup.addAction(a)
            theme.addAction(a)
            a.triggered.connect(lambda _=False, c=code: self.rebuild_requested.emit("theme", c))

        help_menu = menu.addMenu(_Q.translate("MainWindow", "&Help"))
        about = QAction(_Q.translate("MainWindow", "About Ekko Memory"), self)
        about.triggered.connect(
            lambda: self._spawn(self._about(), _Q.translate("MainWindow", "About"))
        )
        help_menu.addAction(about)
        self.help_menu = help_menu

    def _delete_pressed(self) -> None:
        """Del: every selected memory to the trash (several: see ``MemorySelection``)."""
        if self.pages.currentWidget() is self.memory_split and self.selection.delete_pressed():
            return
        self._on_selected(self.delete_memory)

    def finish_menus(self) -> None:
        """Put Quit last in the File menu (after sections other parts added)."""
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)
