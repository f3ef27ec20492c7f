"""Sorting of the memory table by any column, on the plain values of ``SORT_ROLE``.

A plain ``QSortFilterProxyModel`` configured for it, deliberately not a Python subclass:
the view calls the proxy's virtual methods thousands of times per second while
scrolling, and a Python subclass would route every one of them through the interpreter
(and its lock, which the memory worker thread holds while it builds a page).

Unsorted (column -1) it shows the source order: newest first, as the pages arrive.
Sorting orders the rows loaded so far; ``canFetchMore``/``fetchMore`` pass through, so
scrolling on still loads the next page (whose rows then take their sorted places).
"""

from __future__ import annotations

from ekko_memory_gui.models.roles import SORT_ROLE
from ekko_memory_gui.qt import QObject, QSortFilterProxyModel


def memory_sort_proxy(parent: QObject | None = None) -> QSortFilterProxyModel:
    """A proxy that sorts memories on SORT_ROLE values, keeping up as rows arrive."""
    proxy = QSortFilterProxyModel(parent)
    proxy.setObjectName("memorySortProxy")
    proxy.setSortRole(SORT_ROLE)
    proxy.setDynamicSortFilter(True)
    return proxy
