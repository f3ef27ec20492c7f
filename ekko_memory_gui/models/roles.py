"""Custom item data roles shared by the models and views."""

from __future__ import annotations

from ekko_memory_gui.qt import Qt

_BASE = int(Qt.ItemDataRole.UserRole)

ID_ROLE = _BASE + 1  # the id of the row's object (memory, pending item, session…)
OBJECT_ROLE = _BASE + 2  # the pydantic object itself
SORT_ROLE = _BASE + 3  # a plain value proxies sort on
KIND_ROLE = _BASE + 4  # what a tree row stands for (all, domain, category, sessions, trash)
FILTER_ROLE = _BASE + 5  # the BrowseFilter a tree row selects
COUNT_ROLE = _BASE + 6  # a number shown beside a row
