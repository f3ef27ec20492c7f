"""Left pane: the category tree with counts, Sessions and Trash."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from ekko_memory import BrowseFilter
from ekko_memory_gui.models.category_tree_model import (
    KIND_ALL,
    CategoryTreeModel,
)
from ekko_memory_gui.models.roles import FILTER_ROLE, ID_ROLE, KIND_ROLE
from ekko_memory_gui.operations import browse_ops
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import (
    QAbstractItemView,
    QHeaderView,
    QItemSelectionModel,
    QModelIndex,
    QTreeView,
    QVBoxLayout,
    QWidget,
    Signal,
)


@dataclass(frozen=True)
class Branch:
    """What the user selected in the tree."""

    kind: str  # all, domain, category, sessions, trash
    key: str
    label: str
    filter: BrowseFilter | None


class CategoryPane(QWidget):
    """The tree; emits ``branch_selected`` when the selection changes."""

    branch_selected = Signal(object)  # Branch

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.model = CategoryTreeModel(self)
        self.tree = QTreeView(self)
        self.tree.setAccessibleName(self.tr("Categories"))
        self.tree.setObjectName("categoryTree")
        self.tree.setModel(self.model)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setIndentation(14)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self._scopes: list[str] | None = None
        self._history = False
        self._loading: asyncio.Task[None] | None = None
        self._reload_again = False
        # A reshape was asked while a count was in flight: the next round reshapes.
        self._reshape_again = False

    # --- selection ------------------------------------------------------------------

    def current_branch(self) -> Branch | None:
        return self._branch(self.tree.currentIndex())

    def _branch(self, index: QModelIndex) -> Branch | None:
        if not index.isValid():
            return None
        index = index.siblingAtColumn(0)
        return Branch(
            kind=index.data(KIND_ROLE),
            key=index.data(ID_ROLE),
            label=index.data(),
            filter=index.data(FILTER_ROLE),
        )

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        branch = self._branch(current)
        if branch is not None:
            self.branch_selected.emit(branch)

    def select_key(self, key: str) -> bool:
        """Select a branch by key, expanding its parents; False when it is not in the tree."""
        parts = key.split("/")
        # Expand parents first so lazily fetched children exist.
        if parts[0] == "category":
            domain = parts[1]
            path = parts[2:]
            d = self.model.index_for_key(f"domain/{domain}")
            if d.isValid():
                self.tree.expand(d)
                self.model.fetchMore(d)
            for depth in range(1, len(path)):
                p = self.model.index_for_key("/".join(["category", domain, *path[:depth]]))
                if p.isValid():
                    self.tree.expand(p)
                    self.model.fetchMore(p)
        index = self.model.index_for_key(key)
        if not index.isValid():
            return False
        self.tree.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        return True

    def select_all(self) -> None:
        self.select_key(f"{KIND_ALL}/")

    # --- counts ---------------------------------------------------------------------

    @property
    def loading(self) -> bool:
        """Counts are being loaded."""
        return self._loading is not None and not self._loading.done()

    def set_filters(self, scopes: list[str] | None, history: bool) -> asyncio.Task[None] | None:
        """The toolbar's scope and status filters changed: re-count (keeping the selection)."""
        self._scopes, self._history = scopes, history
        return self.reload_counts(reshape=True)

    def reload_counts(self, *, reshape: bool = False) -> asyncio.Task[None] | None:
        """Load the counts again (``reshape`` rebuilds the tree, keeping expansion and selection)."""
        if not self.runner.attached:
            return None
        if self._loading is not None and not self._loading.done():
            # The round in flight counts again with the filters as they are then; a
            # reshape asked now must not be lost (the tree kept the branches of a scope
            # no longer shown when the scope changed while counts were loading).
            self._reload_again = True
            self._reshape_again = self._reshape_again or reshape
            return self._loading
        self._loading = self.runner.spawn(self._reload(reshape), self.tr("Counting memories"))
        return self._loading

    async def _reload(self, reshape: bool) -> None:
        while True:
            # What was asked until now (before the task first ran, too) is this round's.
            self._reload_again = False
            reshape, self._reshape_again = reshape or self._reshape_again, False
            history = self._history
            f = BrowseFilter(scopes=self._scopes, hide_expired=not history)
            counts = await browse_ops.category_counts(self.runner, f, with_history=history)
            if reshape:
                self._reshape(counts)
            else:
                self.model.set_counts(
                    counts.active,
                    counts.every,
                    counts.trash,
                    with_history=history,
                )
            if not self._reload_again:
                return
            reshape = False

    def _reshape(self, counts: browse_ops.CategoryCounts) -> None:
        current = self.current_branch()
        expanded = self._expanded_keys()
        blocker = self.tree.selectionModel().blockSignals(True)
        self.model.reset_tree()
        self.model.set_counts(counts.active, counts.every, counts.trash, with_history=self._history)
        for key in sorted(expanded, key=lambda k: k.count("/")):
            idx = self.model.index_for_key(key)
            if idx.isValid():
                self.tree.expand(idx)
                self.model.fetchMore(idx)
        self.tree.selectionModel().blockSignals(blocker)
        if current is None or not self.select_key(current.key):
            self.select_all()

    def _expanded_keys(self) -> list[str]:
        keys: list[str] = []

        def walk(parent: QModelIndex) -> None:
            for row in range(self.model.rowCount(parent)):
                idx = self.model.index(row, 0, parent)
                if self.tree.isExpanded(idx):
                    keys.append(idx.data(ID_ROLE))
                    walk(idx)

        walk(QModelIndex())
        return keys

    def expand_domains(self) -> None:
        """Open the top level (domains) so the tree shows its first branches."""
        for row in range(self.model.rowCount()):
            idx = self.model.index(row, 0)
            if self.model.hasChildren(idx):
                self.tree.expand(idx)
