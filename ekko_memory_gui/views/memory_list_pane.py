"""Middle pane: the memory table for the selected branch, with an empty state that teaches."""

from __future__ import annotations

import asyncio

from ekko_memory import BrowseFilter
from ekko_memory_gui.models.memory_table_model import COLUMNS, MemoryTableModel
from ekko_memory_gui.models.roles import ID_ROLE
from ekko_memory_gui.operations import browse_ops
from ekko_memory_gui.operations.changes import ChangeSet
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import (
    QAbstractItemView,
    QAction,
    QGuiApplication,
    QHBoxLayout,
    QHeaderView,
    QItemSelectionModel,
    QKeySequence,
    QLabel,
    QModelIndex,
    QStackedWidget,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ekko_memory_gui.views.first_run import FirstRunPanel
from ekko_memory_gui.views.match_highlight_delegate import MatchHighlightDelegate
from ekko_memory_gui.views.widgets import shorten, text_label

# Room beside a header's text for the section's margins and the sort arrow.
_HEADER_PADDING = 30
_WIDTHS = {
    "sentence": 300,
    "category": 110,
    "author": 60,
    "updated": 60,
    "badges": 100,
}


class MemoryListPane(QWidget):
    """The table; emits the selected memory's id, and ``activated`` on Enter/double-click."""

    current_changed = Signal(object)  # str | None
    activated = Signal(str)

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.model = MemoryTableModel(runner, self)

        self.table = QTableView(self)
        self.table.setObjectName("memoryTable")
        self.table.setAccessibleName(self.tr("Memories"))
        # Tab leaves the table for the detail pane (arrows move in it), as in a mail client;
        # cell by cell it kept the keyboard in the table.
        self.table.setTabKeyNavigation(False)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(28)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionsMovable(True)
        header.setStretchLastSection(False)
        # Wide enough for each header in either language (and the sort arrow).
        metrics = header.fontMetrics()
        for i, name in enumerate(COLUMNS):
            title = str(self.model.headerData(i, Qt.Orientation.Horizontal))
            header.resizeSection(
                i, max(_WIDTHS[name], metrics.horizontalAdvance(title) + _HEADER_PADDING)
            )
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Unsorted at first: newest first. A click on a header has the model load every
        # matching memory in that column's order from the store (MemoryTableModel.sort).
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        # Installed only while a search is active (a Python delegate costs a call per cell).
        self.highlighter = MatchHighlightDelegate(self.table)
        self.table.doubleClicked.connect(self._double_clicked)
        # Ctrl+C copies the selected memory's row (and its id) as tab-separated text.
        self.copy_action = QAction(self.tr("Copy"), self.table)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action.triggered.connect(self.copy_selected)
        self.table.addAction(self.copy_action)

        self.count_label = text_label("", role="muted", wrap=False)
        self.count_label.setObjectName("memoryCount")
        self.loading_label = text_label("", role="muted", wrap=False, selectable=False)
        top = QHBoxLayout()
        top.setContentsMargins(10, 6, 10, 4)
        top.addWidget(self.count_label)
        top.addStretch(1)
        top.addWidget(self.loading_label)

        self.empty = QLabel(self)
        self.empty.setObjectName("emptyState")
        self.empty.setProperty("role", "empty")
        self.empty.setWordWrap(True)
        # Wrapped text may not widen the window (a long search is shortened in it).
        self.empty.setMinimumWidth(1)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.empty)
        # An empty workspace explains itself (what Ekko is, how to connect an agent).
        self.first_run = FirstRunPanel(self)
        self.stack.addWidget(self.first_run)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(top)
        layout.addWidget(self.stack, 1)

        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.model.rowsRemoved.connect(self._row_removed)
        self.model.rows_loaded.connect(self._after_rows)
        self.model.loading_changed.connect(self._loading_changed)
        self.model.modelAboutToBeReset.connect(self._before_reset)
        self.model.modelReset.connect(self._after_rows)
        self._want_selected: str | None = None
        # The cursor moved off a row being removed (handled once the removal is done).
        self._cursor_fell = False
        # The list was reset (filter or order): once it has loaded, the selection is
        # back, or gone (and the detail pane is told so).
        self._reset_pending = False
        self._kind = "all"
        self._count_task: asyncio.Task[None] | None = None
        self._count: int | None = None

    # --- filter ---------------------------------------------------------------------

    @property
    def filter(self) -> BrowseFilter | None:
        return self.model.filter

    def set_filter(self, f: BrowseFilter, kind: str = "all") -> asyncio.Task[None] | None:
        """Show the memories under ``f`` (``kind`` of branch shapes the empty state)."""
        self._kind = kind
        self._set_highlight(f.text or "")
        task = self.model.set_filter(f)
        self._recount()
        return task

    def _set_highlight(self, text: str) -> None:
        self.highlighter.set_query(text)
        for col in (0,):
            self.table.setItemDelegateForColumn(col, self.highlighter if text else None)

    def clear(self) -> None:
        self.model.clear()
        self.count_label.setText("")

    def _recount(self) -> None:
        f = self.model.filter
        if f is None or not self.runner.attached:
            return
        if f.text:
            # A search returns one ranked page: its size is the count ("200+" when full);
            # counting every match of a common word at 100k rows would cost more than
            # the search itself.
            self._count = None
            self.count_label.setText("")
            return

        async def count() -> None:
            self._count = await browse_ops.count(self.runner, f)
            self._show_count()

        if self._count_task is not None and not self._count_task.done():
            self._count_task.cancel()
        self._count_task = self.runner.spawn(count(), self.tr("Counting memories"))

    def _show_count(self) -> None:
        n = self._count
        if n is None:
            self.count_label.setText("")
        elif n == 1:
            self.count_label.setText(self.tr("1 memory"))
        else:
            self.count_label.setText(self.tr("{n} memories").format(n=n))

    def _show_search_count(self) -> None:
        n = self.model.rowCount()
        ranked = self.model.sort_order is None
        if n >= self.model.page_size:
            text = (
                self.tr("{n}+ matches, best first")
                if ranked
                else self.tr("The {n} best matches, sorted")
            )
        elif n == 0:
            text = self.tr("No matches")  # "0 matches, best first" ranked nothing
        elif n == 1:
            text = self.tr("1 match")
        else:
            text = self.tr("{n} matches, best first") if ranked else self.tr("{n} matches")
        self.count_label.setText(text.format(n=n))

    # --- live -----------------------------------------------------------------------

    def apply_changes(self, changes: ChangeSet) -> asyncio.Task[None] | None:
        task = self.model.apply_changes(changes)
        if changes.node_ids or changes.everything:
            self._recount()
        return task

    # --- selection ------------------------------------------------------------------

    def selected_id(self) -> str | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        return index.siblingAtColumn(0).data(ID_ROLE)

    def select_id(self, node_id: str) -> bool:
        """Select a memory when it is loaded; otherwise select it once it arrives."""
        row = self.model.row_of(node_id)
        if row < 0:
            self._want_selected = node_id
            return False
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.scrollTo(index)
        self._want_selected = None
        return True

    def copy_selected(self) -> str:
        """Put the selected row on the clipboard; returns the text."""
        index = self.table.currentIndex()
        if not index.isValid():
            return ""
        row = index.row()
        cells = [
            str(self.model.index(row, c).data() or "") for c in range(self.model.columnCount())
        ]
        text = "\t".join([*cells, self.selected_id() or ""])
        QGuiApplication.clipboard().setText(text)
        return text

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self.model.removing:
            # The cursor moved because its row left the list: see _row_removed.
            self._cursor_fell = True
            return
        if current.isValid():
            self._want_selected = None
        self.current_changed.emit(
            current.siblingAtColumn(0).data(ID_ROLE) if current.isValid() else None
        )

    def _row_removed(self) -> None:
        """When the selected row leaves the list (an edit's old version, a memory expired
        or deleted here or by another program), the row the cursor fell on is not selected
        in its place: Enter or Del must not act on a memory the user did not pick. The
        detail pane keeps the memory it shows and follows it (its new status, or empty
        once it is gone for good); an edit's new version is selected when it arrives."""
        if self._cursor_fell:
            self._cursor_fell = False
            self.table.selectionModel().clear()

    def _double_clicked(self, index: QModelIndex) -> None:
        node_id = index.siblingAtColumn(0).data(ID_ROLE)
        if node_id:
            self.activated.emit(node_id)

    def _after_rows(self) -> None:
        f = self.model.filter
        if f is not None and f.text and not self.model.loading:
            self._show_search_count()
        if self._want_selected is not None:
            self.select_id(self._want_selected)
        self._update_empty_state()

    def _before_reset(self) -> None:
        keep = self.selected_id()
        if keep is not None:
            self._want_selected = keep
        self._reset_pending = True

    def _settle_selection(self) -> None:
        """After a reset has loaded: a memory no longer listed is no longer selected (the
        detail pane empties, and Edit actions have nothing to act on)."""
        self._reset_pending = False
        if self._want_selected is not None and not self.select_id(self._want_selected):
            self._want_selected = None
        if not self.table.currentIndex().isValid():
            self.current_changed.emit(None)

    def _loading_changed(self, loading: bool) -> None:
        self.loading_label.setText(self.tr("Loading…") if loading else "")
        if not loading and self._reset_pending:
            self._settle_selection()
        if not loading:
            f = self.model.filter
            if f is not None and f.text:
                self._show_search_count()
            self._update_empty_state()

    def _update_empty_state(self) -> None:
        if self.model.rowCount() > 0 or self.model.loading:
            self.stack.setCurrentWidget(self.table)
            return
        f = self.model.filter
        self.empty.setToolTip("")
        if self.model.load_error is not None:
            text = self.tr(
                "Could not load the memories: {reason}\n\nPress F5 to try again."
            ).format(reason=shorten(self.model.load_error))
            self.empty.setToolTip(self.model.load_error)
        elif f is not None and f.text:
            text = self.tr(
                "Nothing matches “{text}”.\n\nSearch looks in titles, content, values, tags and entities; Chinese words of two characters work too."
            ).format(text=shorten(f.text))
            if shorten(f.text) != f.text:
                self.empty.setToolTip(f.text)
        elif self._kind == "trash":
            text = self.tr(
                "The trash is empty.\n\nDeleted memories wait here until you restore them or delete them permanently."
            )
        elif self._kind in ("domain", "category"):
            text = self.tr("No memories in this branch.")
        elif self._kind == "all" and (f is None or f.scopes is None or len(f.scopes) > 1):
            self.stack.setCurrentWidget(self.first_run)
            return
        else:
            text = self.tr(
                "No memories yet.\n\nMemories are what your agent keeps between conversations: "
                "your preferences (不要香菜), project decisions, tasks and facts. The agent adds "
                "them when you ask it to remember something; some wait in the inbox for your "
                "approval. You can also add one yourself with New memory (Ctrl+N)."
            )
        self.empty.setText(text)
        self.stack.setCurrentWidget(self.empty)
