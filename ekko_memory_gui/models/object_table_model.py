"""A flat table over a list of pydantic objects, columns given as functions.

The small models of the app (audit events, sessions, summaries, pending items) are
this with their own columns; each is short enough to load whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ekko_memory_gui.models.roles import ID_ROLE, OBJECT_ROLE, SORT_ROLE
from ekko_memory_gui.qt import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Column(Generic[T]):
    """A column: its header, its text, and optionally a sort value and a tooltip."""

    header: str
    text: Callable[[T], str]
    sort: Callable[[T], Any] | None = None
    tooltip: Callable[[T], str | None] | None = None


class ObjectTableModel(QAbstractTableModel, Generic[T]):
    """Rows are objects with an ``id``; ``set_items`` diffs by id (no full reset)."""

    def __init__(self, columns: Sequence[Column[T]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = list(columns)
        self._items: list[T] = []

    @staticmethod
    def item_id(item: Any) -> str:
        return str(getattr(item, "id", None) or getattr(item, "session_id", ""))

    def items(self) -> list[T]:
        return list(self._items)

    def item_at(self, row: int) -> T | None:
        return self._items[row] if 0 <= row < len(self._items) else None

    def row_of(self, item_id: str) -> int:
        for i, item in enumerate(self._items):
            if self.item_id(item) == item_id:
                return i
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(self.columns)
        ):
            return self.columns[section].header
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._items):
            return None
        item = self._items[index.row()]
        col = self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.text(item)
        if role == ID_ROLE:
            return self.item_id(item)
        if role == OBJECT_ROLE:
            return item
        if role == SORT_ROLE:
            return col.sort(item) if col.sort else col.text(item)
        if role == Qt.ItemDataRole.ToolTipRole and col.tooltip is not None:
            return col.tooltip(item)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def set_items(self, items: Sequence[T]) -> None:
        """Make the rows equal ``items``: removes, in-place updates and inserts by id."""
        new_ids = [self.item_id(i) for i in items]
        wanted = set(new_ids)
        for row in range(len(self._items) - 1, -1, -1):
            if self.item_id(self._items[row]) not in wanted:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._items[row]
                self.endRemoveRows()
        for i, item in enumerate(items):
            current = self._items[i] if i < len(self._items) else None
            if current is not None and self.item_id(current) == new_ids[i]:
                if current != item:
                    self._items[i] = item
                    self.dataChanged.emit(self.index(i, 0), self.index(i, len(self.columns) - 1))
                continue
            old_row = self.row_of(new_ids[i])
            if old_row >= 0:
                self.beginRemoveRows(QModelIndex(), old_row, old_row)
                del self._items[old_row]
                self.endRemoveRows()
            self.beginInsertRows(QModelIndex(), i, i)
            self._items.insert(i, item)
            self.endInsertRows()

    def append_items(self, items: Sequence[T]) -> None:
        """Add rows at the end."""
        if not items:
            return
        first = len(self._items)
        self.beginInsertRows(QModelIndex(), first, first + len(items) - 1)
        self._items.extend(items)
        self.endInsertRows()

    def clear(self) -> None:
        if not self._items:
            return
        self.beginResetModel()
        self._items = []
        self.endResetModel()
