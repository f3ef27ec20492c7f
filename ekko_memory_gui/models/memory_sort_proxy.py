"""Sorting of the memory table by any column, on the plain values of ``SORT_ROLE``.

Unsorted (column -1) it shows the source order: newest first, as the pages arrive.
Sorting orders the rows loaded so far; ``canFetchMore``/``fetchMore`` pass through, so
scrolling on still loads the next page (whose rows then take their sorted places).
"""

from __future__ import annotations

from ekko_memory_gui.models.roles import SORT_ROLE
from ekko_memory_gui.qt import QObject, QSortFilterProxyModel


class MemorySortProxy(QSortFilterProxyModel):
    """Proxy that sorts memories on SORT_ROLE values."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)
