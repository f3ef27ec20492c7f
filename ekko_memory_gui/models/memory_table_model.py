"""The memory table: pages loaded lazily (``canFetchMore``/``fetchMore``), rows kept fresh
from change sets without reloading everything.

Rows arrive in keyset pages of the core's browse API, newest first or in the order of
the column the user sorted by (``sort``: the store sorts every matching memory, not just
the rows loaded, and the GUI thread never sorts); the view asks for the next page when it
scrolls to the end, with one load in flight at a time. A filter or order change bumps a
generation number, so a page that arrives for an old one is dropped. Display strings are
computed once per row, when it arrives, so painting stays cheap.
"""

from __future__ import annotations

import asyncio
import bisect
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ekko_memory import BrowseFilter, BrowseSort, MemoryNode
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.labels import sentences
from ekko_memory_gui.models.match_reason import why_matched
from ekko_memory_gui.models.roles import ID_ROLE, OBJECT_ROLE
from ekko_memory_gui.operations import browse_ops, shown_search
from ekko_memory_gui.operations.changes import ChangeSet
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import (
    QAbstractTableModel,
    QColor,
    QFont,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from ekko_memory_gui.services.theme import current_colors

# The table's columns: a memory as a sentence, its category, who wrote it, when it
# changed and its badges. Key, value, scope, confidence and importance are in the detail
# pane's Details, never here.
COLUMNS: tuple[str, ...] = ("sentence", "category", "author", "updated", "badges")
# The store's order (BrowseSort) that sorts each column, for every matching memory.
COLUMN_SORT: dict[str, BrowseSort] = {
    "sentence": "title",
    "category": "category",
    "author": "origin",
    "updated": "updated",
    "badges": "expires",
}
# Columns that sort high to low on their first click (newest first).
DESCENDING_FIRST = ("updated",)
PAGE_SIZE = 200
# How many of the newest rows a change set re-reads to find new memories.
HEAD_SIZE = 100

Index = QModelIndex | QPersistentModelIndex
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ACCESSIBLE_DESCRIPTION = int(Qt.ItemDataRole.AccessibleDescriptionRole)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


@dataclass(eq=False, slots=True)  # identity compare (list.index); no per-row __dict__
class MemoryRow:
    """One row: what the table shows of a memory, display strings and sort values.

    Plain strings and tuples only, not the pydantic node: a table of 100k rows must not
    hand the cyclic garbage collector millions of objects to walk (each full collection
    would freeze the GUI for a noticeable moment).
    """

    id: str
    title: str
    type: str
    scope: str
    domain: str
    category_path: tuple[str, ...]
    key: str | None
    status: str
    updated_at: datetime
    expires_at: datetime | None
    content: str
    sentence: str
    shown_value: str  # the key, the value and the sentence said from them (for search)
    category_tip: str
    author_tip: str
    updated_tip: str
    badges: tuple[str, ...]
    display: tuple[str, ...]
    position: Any  # where the row falls in the table's order (ascending)
    greyed: bool
    expires_soon: bool


# An expiry closer than this is a warning (amber), in the table and the detail pane.
EXPIRES_SOON = timedelta(hours=24)


def make_row(
    node: MemoryNode,
    now: datetime,
    position: Any,
    *,
    last_used: datetime | None = None,
    waiting: bool = False,
) -> MemoryRow:
    """Display strings of a memory (computed once, when the row arrives) and its place in
    the table's order."""
    status = node.status_at(now)  # the core's rule: an active memory past its expiry is expired
    sentence = sentences.node_sentence(node)
    shown_badges = tuple(
        sentences.badges(
            expires_at=node.expires_at if status == "active" else None,
            pinned=bool(getattr(node, "pinned", False)),
            waiting=waiting,
            last_used=last_used,
            now=now,
        )
    )
    if status != "active":
        shown_badges = (labels.status_label(status), *shown_badges)
    display = (
        sentence,
        # The category's own name (its path in the tooltip): the list fits 1024 px.
        sentences.category_label(node.category_path[-1]) if node.category_path else "",
        sentences.author_text(node.origin),
        _when(node.updated_at, now),
        " · ".join(shown_badges),
    )
    # Only a memory in use expires: a deleted or superseded one is not "expiring soon".
    soon = (
        status == "active" and node.expires_at is not None and node.expires_at - now < EXPIRES_SOON
    )
    return MemoryRow(
        id=node.id,
        title=node.title,
        type=node.type,
        scope=node.scope,
        domain=node.domain,
        category_path=tuple(node.category_path),
        key=node.key,
        status=node.status,
        updated_at=node.updated_at,
        expires_at=node.expires_at,
        content=node.content,
        sentence=sentence,
        shown_value=shown_search.shown_value(node.key, node.value_json),
        category_tip=" / ".join(sentences.category_label(p) for p in node.category_path),
        author_tip=labels.origin_label(node.origin),
        updated_tip=labels.full_time(node.updated_at),
        badges=shown_badges,
        display=display,
        position=position,
        greyed=status != "active",
        expires_soon=soon,
    )


def _when(dt: datetime, now: datetime) -> str:
    """When a memory changed: "3 h ago" this week, its day before (the time in the tooltip)."""
    if timedelta(0) <= now - dt < timedelta(days=7):
        return labels.relative_time(dt, now)
    at = labels.local(dt)
    return at.strftime("%m-%d") if at.year == labels.local(now).year else at.strftime("%Y-%m-%d")


def matches_status(node: MemoryNode, f: BrowseFilter, now: datetime) -> bool:
    """Whether a changed memory still belongs under the filter.

    Only status and expiry change in place (every other change is a new version), so
    these are the only fields to re-check.
    """
    if f.statuses is not None and node.status not in f.statuses:
        return False
    return not (f.hide_expired and node.is_expired(now))


class MemoryTableModel(QAbstractTableModel):
    """Memories under a filter, one page at a time."""

    loading_changed = Signal(bool)
    rows_loaded = Signal()  # after a page or a change set was applied

    def __init__(
        self, runner: OperationRunner, parent: QObject | None = None, page_size: int = PAGE_SIZE
    ) -> None:
        super().__init__(parent)
        self.runner = runner
        self.page_size = page_size
        self._rows: list[MemoryRow] = []
        self._ids: dict[str, MemoryRow] = {}
        self._filter: BrowseFilter | None = None
        self._cursor: Any = None
        self._complete = True
        self._loading: asyncio.Task[None] | None = None
        # Why the last load failed (None: it did not).
        self.load_error: str | None = None
        # True while a row is being removed (the view's cursor moves off it by itself).
        self.removing = False
        self._generation = 0
        self._sort: tuple[BrowseSort, bool] | None = None  # None: newest first (or best first)
        self._headers = {
            "sentence": self.tr("Memory"),
            "category": self.tr("Category"),
            "author": self.tr("From"),
            "updated": self.tr("Changed"),
            "badges": self.tr("Status"),
        }
        # When each loaded memory last fed a reply, and those a change waits on.
        self._last_used: dict[str, datetime] = {}
        self._waiting: set[str] = set()

    # --- state ----------------------------------------------------------------------

    @property
    def filter(self) -> BrowseFilter | None:
        return self._filter

    @property
    def sort_order(self) -> tuple[BrowseSort, bool] | None:
        """The order asked (column's sort, descending), or None for the natural one."""
        return self._sort

    @property
    def loading(self) -> bool:
        return self._loading is not None and not self._loading.done()

    @property
    def complete(self) -> bool:
        """Every matching memory is loaded."""
        return self._complete

    def row_at(self, row: int) -> MemoryRow | None:
        """What the table holds for a row (the full memory is loaded by the detail pane)."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, node_id: str) -> int:
        """The row of a memory, or -1."""
        row = self._ids.get(node_id)
        if row is None:
            return -1
        return self._rows.index(row)

    def ids(self) -> list[str]:
        return [r.id for r in self._rows]

    # --- Qt model -------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._headers[COLUMNS[section]]
        if role == Qt.ItemDataRole.ToolTipRole:
            if COLUMNS[section] == "sentence":
                # The sentence is the app's rendering: the store sorts by the title.
                return self.tr("Each memory as a sentence; a click sorts them by title")
            return self._headers[COLUMNS[section]]
        if role == Qt.ItemDataRole.InitialSortOrderRole:
            descending = COLUMNS[section] in DESCENDING_FIRST
            return Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
        return None

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        # Called a few thousand times per repaint: roles are compared as plain ints.
        r = index.row()
        if r < 0 or r >= len(self._rows):
            return None
        row = self._rows[r]
        col = index.column()
        if role == _DISPLAY:
            return row.display[col]
        if role == _FOREGROUND:
            if row.greyed:
                return QColor(current_colors().muted)
            if col == 4 and row.expires_soon:
                return QColor(current_colors().amber)
            return None
        if role == _FONT:
            if row.status in ("superseded", "deleted"):
                font = QFont()
                font.setStrikeOut(row.status == "deleted")
                font.setItalic(row.status == "superseded")
                return font
            return None
        if role == ID_ROLE:
            return row.id
        if role == OBJECT_ROLE:
            return row
        if role == _ACCESSIBLE_DESCRIPTION and col == 0:
            text = self._filter.text if self._filter is not None else None
            return why_matched(row, text) if text and text.strip() else None
        if role == _TOOLTIP:
            if col == 0:
                text = self._filter.text if self._filter is not None else None
                if text and text.strip():  # a search: say where it found the memory
                    return f"{row.content or row.title}\n{why_matched(row, text)}"
                return row.content or row.title
            return (None, row.category_tip, row.author_tip, row.updated_tip, None)[col]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:
        if parent.isValid():
            return False
        return self._filter is not None and not self._complete and not self.loading

    def fetchMore(self, parent: Index = QModelIndex()) -> None:
        if self.canFetchMore(parent):
            self._start_load(self._generation, self._cursor)

    # --- order ----------------------------------------------------------------------

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The view's header was clicked: load every matching memory in that column's
        order from the store (column -1: newest first)."""
        if 0 <= column < len(COLUMNS):
            self.set_sort(COLUMN_SORT[COLUMNS[column]], order == Qt.SortOrder.DescendingOrder)
        else:
            self.set_sort(None)

    def set_sort(self, sort: BrowseSort | None, descending: bool = False) -> None:
        wanted = None if sort is None else (sort, descending)
        if wanted == self._sort:
            return
        self._sort = wanted
        self.reload()

    def _position(self, node: MemoryNode) -> Any:
        """The row's place in the current order, ascending (the store's own key)."""
        sort, descending = self._sort or ("updated", True)
        key = self.runner.memory.browse.sort_key(node, sort)
        return _Descending(key) if descending else key

    def _row(self, node: MemoryNode, now: datetime) -> MemoryRow:
        return make_row(
            node,
            now,
            self._position(node),
            last_used=self._last_used.get(node.id),
            waiting=node.id in self._waiting,
        )

    async def _read_extras(self, nodes: list[MemoryNode]) -> None:
        """Usage and waiting changes of these memories, for their badges."""
        if not nodes:
            return
        used, waiting = await browse_ops.row_extras(self.runner, [n.id for n in nodes])
        self._last_used.update(used)
        self._waiting = waiting

    # --- loading --------------------------------------------------------------------

    def set_filter(self, f: BrowseFilter) -> asyncio.Task[None] | None:
        """Show the memories under ``f``: clear, then load the first page."""
        self._generation += 1
        self._filter = f
        self.beginResetModel()
        self._rows = []
        self._ids = {}
        self._cursor = None
        self._complete = False
        self.endResetModel()
        if self._loading is not None and not self._loading.done():
            self._loading.cancel()
        self._loading = None
        return self._start_load(self._generation, None)

    def reload(self) -> asyncio.Task[None] | None:
        """Load the current filter again from the first page."""
        return self.set_filter(self._filter) if self._filter is not None else None

    def clear(self) -> None:
        """No filter, no rows (no workspace open)."""
        self._generation += 1
        self._filter = None
        self.beginResetModel()
        self._rows, self._ids, self._complete = [], {}, True
        self.endResetModel()

    def _start_load(self, generation: int, cursor: Any) -> asyncio.Task[None] | None:
        if not self.runner.attached or self._filter is None:
            return None
        f = self._filter
        self.load_error = None
        self._loading = self.runner.spawn(
            self._load(generation, f, cursor), self.tr("Loading memories")
        )
        self._loading.add_done_callback(
            lambda t, generation=generation: self._loaded(t, generation)  # type: ignore[misc]
        )
        self.loading_changed.emit(True)
        return self._loading

    def _loaded(self, task: asyncio.Task[None], generation: int) -> None:
        # A failed load says so (the list must not read "nothing matches" when the store
        # did not answer); the runner reports the error itself.
        if generation == self._generation and not task.cancelled() and task.exception():
            self.load_error = labels.error_text(task.exception())  # type: ignore[arg-type]
        self.loading_changed.emit(self.loading)

    async def _load(self, generation: int, f: BrowseFilter, cursor: Any) -> None:
        nodes, next_cursor = await browse_ops.load_page(
            self.runner, f, cursor, self.page_size, self._sort
        )
        await self._read_extras(nodes)
        if generation != self._generation:
            return  # the filter or the order changed meanwhile
        now = datetime.now(UTC)
        fresh = [self._row(n, now) for n in nodes if n.id not in self._ids]
        if fresh:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
            self._rows.extend(fresh)
            for r in fresh:
                self._ids[r.id] = r
            self.endInsertRows()
        self._cursor = next_cursor
        self._complete = next_cursor is None
        self.rows_loaded.emit()

    # --- live changes ---------------------------------------------------------------

    def apply_changes(self, changes: ChangeSet) -> asyncio.Task[None] | None:
        """Bring the rows up to date with a change set (changed rows, new memories)."""
        if self._filter is None or not self.runner.attached or changes.empty:
            return None
        if changes.everything:
            return self.reload()
        if not changes.node_ids:
            return None
        return self.runner.spawn(
            self._apply(self._generation, self._filter, changes), self.tr("Refreshing memories")
        )

    async def _apply(self, generation: int, f: BrowseFilter, changes: ChangeSet) -> None:
        present = [i for i in changes.node_ids if i in self._ids]
        current = await browse_ops.load_nodes(self.runner, present) if present else {}
        text_mode = bool(f.text and f.text.strip())
        # New memories are among the newest (whatever the table's order); a search's one
        # page is read again in the table's order.
        head, _ = await browse_ops.load_page(
            self.runner,
            f,
            None,
            self.page_size if text_mode else HEAD_SIZE,
            self._sort if text_mode else None,
        )
        await self._read_extras([n for n in current.values() if n is not None] + head)
        if generation != self._generation:
            return
        now = datetime.now(UTC)
        if text_mode:
            self._sync_all(head, now)
            self.rows_loaded.emit()
            return
        # Changed rows: gone or no longer matching → removed; moved in the order →
        # removed and put in their new place; otherwise updated in place.
        for node_id, node in current.items():
            row = self._ids.get(node_id)
            if row is None:
                continue
            if node is None or not matches_status(node, f, now):
                self._remove(node_id)
                continue
            new = self._row(node, now)
            if new.position == row.position:
                self._replace(node_id, new)
            else:
                self._remove(node_id)
                self._place(new)
        for node in head:
            if node.id not in self._ids:
                self._place(self._row(node, now))
        self.rows_loaded.emit()

    def _place(self, row: MemoryRow) -> None:
        """Insert a row in order, unless it falls beyond the loaded pages (it arrives with
        its page)."""
        if self._rows and not self._complete and self._rows[-1].position < row.position:
            return
        self._insert_ordered(row)

    def _remove(self, node_id: str) -> None:
        row = self._ids.pop(node_id)
        i = self._rows.index(row)
        self.removing = True
        try:
            self.beginRemoveRows(QModelIndex(), i, i)
            del self._rows[i]
            self.endRemoveRows()
        finally:
            self.removing = False

    def _replace(self, node_id: str, new: MemoryRow) -> None:
        old = self._ids[node_id]
        i = self._rows.index(old)
        self._rows[i] = new
        self._ids[node_id] = new
        self.dataChanged.emit(self.index(i, 0), self.index(i, len(COLUMNS) - 1))

    def _insert_ordered(self, row: MemoryRow) -> None:
        i = bisect.bisect_left(self._rows, row.position, key=_position)
        self.beginInsertRows(QModelIndex(), i, i)
        self._rows.insert(i, row)
        self._ids[row.id] = row
        self.endInsertRows()

    def _sync_all(self, nodes: list[MemoryNode], now: datetime) -> None:
        """Make the rows equal ``nodes`` (in order) with row-level removes, moves and inserts."""
        wanted = {n.id for n in nodes}
        for node_id in [r.id for r in self._rows if r.id not in wanted]:
            self._remove(node_id)
        for i, node in enumerate(nodes):
            row = self._row(node, now)
            if i < len(self._rows) and self._rows[i].id == node.id:
                self._replace(node.id, row)
                continue
            if node.id in self._ids:
                self._remove(node.id)
            self.beginInsertRows(QModelIndex(), i, i)
            self._rows.insert(i, row)
            self._ids[node.id] = row
            self.endInsertRows()
        self._complete = True


def _position(row: MemoryRow) -> Any:
    return row.position


class _Descending:
    """A sort key compared the other way round (for rows in descending order)."""

    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key

    def __lt__(self, other: _Descending) -> bool:
        return bool(other.key < self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)
