"""The category tree: All memories, domain → category path branches with counts, then
Sessions and Trash.

The counts come from one aggregate query (exact paths); the tree sums them per branch.
Children are materialized lazily: a branch reports ``hasChildren`` and inserts its
rows only when the view expands it (``canFetchMore``/``fetchMore``). A refresh merges new
counts into the rows already shown, so the tree does not collapse under the user.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ekko_memory import BrowseFilter, CategoryCount
from ekko_memory_gui.models.labels import sentences
from ekko_memory_gui.models.roles import COUNT_ROLE, FILTER_ROLE, ID_ROLE, KIND_ROLE
from ekko_memory_gui.qt import (
    QAbstractItemModel,
    QFont,
    QIcon,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from ekko_memory_gui.services.icons import icon

Index = QModelIndex | QPersistentModelIndex

KIND_ALL = "all"
KIND_DOMAIN = "domain"
KIND_CATEGORY = "category"
KIND_SESSIONS = "sessions"
KIND_TRASH = "trash"


@dataclass(eq=False)
class _Branch:
    uid: int
    kind: str
    name: str
    domain: str | None = None
    path: tuple[str, ...] = ()  # the category path prefix this branch selects
    count: int = 0  # active memories at and below
    total: int = 0  # all versions at and below (when history is shown)
    parent: _Branch | None = None
    # Children by name (all known); ``shown`` are those inserted into the model.
    known: dict[str, _Branch] = field(default_factory=dict)
    shown: list[_Branch] = field(default_factory=list)
    fetched: bool = False


class CategoryTreeModel(QAbstractItemModel):
    """Two columns: the branch name and its count of active memories."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._uids: dict[int, _Branch] = {}
        self._next_uid = 1
        self._root = self._new(KIND_ALL, "")
        self._root.fetched = True
        self._all = self._new(KIND_ALL, self.tr("All memories"), parent=self._root)
        self._sessions = self._new(KIND_SESSIONS, self.tr("Sessions"), parent=self._root)
        self._trash = self._new(KIND_TRASH, self.tr("Trash"), parent=self._root)
        self._root.shown = [self._all, self._sessions, self._trash]
        self._with_history = False

    def _new(self, kind: str, name: str, **kw: Any) -> _Branch:
        b = _Branch(uid=self._next_uid, kind=kind, name=name, **kw)
        self._uids[b.uid] = b
        self._next_uid += 1
        return b

    # --- Qt model -------------------------------------------------------------------

    def _branch(self, index: Index) -> _Branch:
        if not index.isValid():
            return self._root
        return self._uids[index.internalId()]

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        if column not in (0, 1) or row < 0:
            return QModelIndex()
        p = self._branch(parent)
        if parent.isValid() and parent.column() != 0:
            return QModelIndex()
        if row >= len(p.shown):
            return QModelIndex()
        return self.createIndex(row, column, p.shown[row].uid)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        b = self._uids.get(index.internalId())
        if b is None or b.parent is None or b.parent is self._root:
            return QModelIndex()
        grand = b.parent.parent or self._root
        return self.createIndex(grand.shown.index(b.parent), 0, b.parent.uid)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._branch(parent).shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 2

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:
        if parent.isValid() and parent.column() != 0:
            return False
        b = self._branch(parent)
        return bool(b.shown) or bool(b.known)

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:
        if parent.isValid() and parent.column() != 0:
            return False
        b = self._branch(parent)
        return not b.fetched and bool(b.known)

    def fetchMore(self, parent: Index = QModelIndex()) -> None:
        if not self.canFetchMore(parent):
            return
        b = self._branch(parent)
        children = sorted(b.known.values(), key=lambda c: c.name)
        b.fetched = True
        if children:
            self.beginInsertRows(parent, 0, len(children) - 1)
            b.shown = children
            self.endInsertRows()

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return (self.tr("Category"), self.tr("Active"))[section] if section in (0, 1) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        b = self._uids.get(index.internalId())
        if b is None:
            return None
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                # Built-in category names in the UI's language; the user's own as they are.
                return (
                    sentences.category_label(b.name)
                    if b.kind in (KIND_DOMAIN, KIND_CATEGORY)
                    else b.name
                )
            if b.kind == KIND_SESSIONS:
                return ""
            # Under "Including history" the list shows every version: so does the count
            # (it showed the active ones while the list below counted all of them).
            if self._with_history and b.kind in (KIND_DOMAIN, KIND_CATEGORY, KIND_ALL):
                return str(b.total)
            return str(b.count)
        if role == KIND_ROLE:
            return b.kind
        if role == COUNT_ROLE:
            return b.count
        if role == ID_ROLE:
            return "/".join([b.kind, b.domain or "", *b.path])
        if role == FILTER_ROLE:
            return self.filter_for(b)
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            return self._icon(b)
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            if self._with_history and b.kind in (KIND_DOMAIN, KIND_CATEGORY, KIND_ALL):
                return self.tr("{active} active, {total} with history").format(
                    active=b.count, total=b.total
                )
            return None
        if role == Qt.ItemDataRole.FontRole and b.kind in (KIND_ALL, KIND_DOMAIN) and col == 0:
            font = QFont()
            font.setWeight(QFont.Weight.DemiBold)
            return font
        return None

    @staticmethod
    def _icon(b: _Branch) -> QIcon:
        return icon(
            {
                KIND_ALL: "all",
                KIND_DOMAIN: "domain",
                KIND_CATEGORY: "folder",
                KIND_SESSIONS: "sessions",
                KIND_TRASH: "trash",
            }[b.kind]
        )

    # --- content --------------------------------------------------------------------

    def filter_for(self, b: _Branch) -> BrowseFilter | None:
        """The branch part of the filter (the window adds scope, status and text); None for
        Sessions. Trash selects deleted memories."""
        if b.kind == KIND_SESSIONS:
            return None
        if b.kind == KIND_TRASH:
            return BrowseFilter(statuses=["deleted"])
        if b.kind == KIND_ALL:
            return BrowseFilter()
        return BrowseFilter(domain=b.domain, category_path_prefix=list(b.path) if b.path else None)

    def index_for_key(self, key: str) -> QModelIndex:
        """The index of a shown branch by its ID_ROLE key (invalid when not shown)."""

        def walk(parent: _Branch, parent_index: QModelIndex) -> QModelIndex:
            for row, child in enumerate(parent.shown):
                idx = self.index(row, 0, parent_index)
                if self.data(idx, ID_ROLE) == key:
                    return idx
                found = walk(child, idx)
                if found.isValid():
                    return found
            return QModelIndex()

        return walk(self._root, QModelIndex())

    def set_counts(
        self,
        active: list[CategoryCount],
        every: list[CategoryCount] | None,
        trash: int,
        *,
        with_history: bool,
    ) -> None:
        """Merge new counts into the tree (branches are added, counts updated, none removed)."""
        self._with_history = with_history
        totals: dict[tuple[str, tuple[str, ...]], list[int]] = {}
        for c in active:
            totals.setdefault(self._key(c), [0, 0])[0] += c.count
        for c in every or []:
            totals.setdefault(self._key(c), [0, 0])[1] += c.count
        # Reset the numbers, then add every path's counts to each branch on its way.
        for b in self._uids.values():
            b.count = b.total = 0
        self._all.count = sum(v[0] for v in totals.values())
        self._all.total = sum(v[1] for v in totals.values())
        self._trash.count = trash
        for (domain, path), (n_active, n_total) in totals.items():
            branch = self._child(self._all, KIND_DOMAIN, domain, domain, ())
            branch.count += n_active
            branch.total += n_total
            prefix = [domain] if path and path[0] == domain else []
            rest = path[1:] if prefix else path
            for seg in rest:
                prefix.append(seg)
                branch = self._child(branch, KIND_CATEGORY, seg, domain, tuple(prefix))
                branch.count += n_active
                branch.total += n_total
        self._emit_all_changed(self._root, QModelIndex())

    @staticmethod
    def _key(c: CategoryCount) -> tuple[str, tuple[str, ...]]:
        return (c.domain, tuple(c.category_path))

    def _child(
        self, parent: _Branch, kind: str, name: str, domain: str, path: tuple[str, ...]
    ) -> _Branch:
        # Domains hang under the invisible root (between All and Sessions), not under All.
        holder = self._root if kind == KIND_DOMAIN else parent
        existing = holder.known.get(name) if kind != KIND_DOMAIN else self._domain(name)
        if existing is not None:
            return existing
        b = self._new(kind, name, domain=domain, path=path, parent=holder)
        if kind == KIND_DOMAIN:
            self._insert_domain(b)
            return b
        holder.known[name] = b
        if holder.fetched:
            self._insert_shown(holder, b)
        return b

    def _domain(self, name: str) -> _Branch | None:
        for b in self._root.shown:
            if b.kind == KIND_DOMAIN and b.name == name:
                return b
        return None

    def _insert_domain(self, b: _Branch) -> None:
        domains = [x for x in self._root.shown if x.kind == KIND_DOMAIN]
        pos = 1 + sum(1 for d in domains if d.name < b.name)  # after All, sorted
        self.beginInsertRows(QModelIndex(), pos, pos)
        self._root.shown.insert(pos, b)
        self.endInsertRows()

    def _insert_shown(self, holder: _Branch, b: _Branch) -> None:
        pos = sum(1 for x in holder.shown if x.name < b.name)
        parent_index = self._index_of(holder)
        self.beginInsertRows(parent_index, pos, pos)
        holder.shown.insert(pos, b)
        self.endInsertRows()

    def _index_of(self, b: _Branch) -> QModelIndex:
        if b is self._root:
            return QModelIndex()
        holder = b.parent or self._root
        return self.createIndex(holder.shown.index(b), 0, b.uid)

    def _emit_all_changed(self, b: _Branch, parent: QModelIndex) -> None:
        if b.shown:
            self.dataChanged.emit(self.index(0, 0, parent), self.index(len(b.shown) - 1, 1, parent))
        for row, child in enumerate(b.shown):
            if child.shown:
                self._emit_all_changed(child, self.index(row, 0, parent))

    def reset_tree(self) -> None:
        """Forget every branch (a new workspace, or a filter change that should re-shape it)."""
        self.beginResetModel()
        self._uids = {b.uid: b for b in (self._root, self._all, self._sessions, self._trash)}
        for b in (self._all, self._sessions, self._trash):
            b.known, b.shown, b.count, b.total = {}, [], 0, 0
        self._root.shown = [self._all, self._sessions, self._trash]
        self.endResetModel()
