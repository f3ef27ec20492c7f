"""Search that finds what the list shows, and says why each memory matched.

The core's full-text index holds titles, content, tags and entities; the list also shows
values, structured ones as ``oil: low · salt: low``: "salt" found nothing while the list
showed it. Memories whose shown value or key holds every word of the search are added
after the core's ranked hits. They are read on the memory worker, once per filter until
the stores change (``browse.change_token``), in stores of up to ``SCAN_CAP`` memories.
"""

from __future__ import annotations

import unicodedata
import weakref
from typing import Any

from ekko_memory import BrowseFilter, MemoryNode
from ekko_memory_gui.models.labels.values import value_text

# Value matching reads every memory of the filter once (then keeps what it read until the
# stores change): only in stores of up to this many memories (measured: reading 20,000
# took 2.4 s, 2,000 about 0.25 s; a personal store holds hundreds).
SCAN_CAP = 5000
_PAGE = 1000


def fold(text: str) -> str:
    """As the core compares: NFKC and case folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def words(query: str) -> list[str]:
    return [w for w in fold(query).split() if w]


def shown_value(node: MemoryNode) -> str:
    """The value and key as the list and the detail pane show them."""
    return f"{node.key or ''} {value_text(node.value_json)}"


def value_matches(node: MemoryNode, query: str) -> bool:
    terms = words(query)
    shown = fold(shown_value(node))
    return bool(terms) and all(t in shown for t in terms)


class _Shown:
    """What the list shows of the values under one filter, read once per change of the
    stores: (id, folded key and value) in the list's order."""

    def __init__(self, key: Any, rows: list[tuple[str, str]] | None) -> None:
        self.key = key
        self.rows = rows  # None: more memories than SCAN_CAP


# One per memory service (the app has one open at a time).
_cache: weakref.WeakKeyDictionary[Any, _Shown] = weakref.WeakKeyDictionary()


def _shown_rows(mem: Any, plain: BrowseFilter) -> list[tuple[str, str]] | None:
    """Every memory of ``plain`` with its shown value, or None above ``SCAN_CAP``."""
    which = plain.model_dump_json()
    cached = _cache.get(mem)
    if cached is not None and cached.rows is None and cached.key[0] == which:
        return None  # too many under this filter: not counted again at every keystroke
    key = (which, mem.browse.change_token())
    if cached is not None and cached.key == key:
        return cached.rows
    if mem.browse.count(plain) > SCAN_CAP:
        _cache[mem] = _Shown(key, None)  # counted once per change, not per keystroke
        return None
    rows: list[tuple[str, str]] = []
    after = None
    while True:
        page = mem.browse.list_nodes(plain, after=after, limit=_PAGE)
        rows += [(n.id, fold(shown_value(n))) for n in page.nodes]
        if page.next_cursor is None or not page.nodes or len(rows) > SCAN_CAP:
            break
        after = page.next_cursor
    _cache[mem] = _Shown(key, rows)
    return rows


def search_shown(mem: Any, f: BrowseFilter, limit: int) -> list[MemoryNode]:
    """The core's ranked hits for ``f.text``, then memories whose value or key shows every
    word (runs on the memory worker)."""
    hits: list[MemoryNode] = mem.browse.list_nodes(f, limit=limit).nodes
    terms = words(f.text or "")
    if len(hits) >= limit or not terms:
        return hits
    rows = _shown_rows(mem, f.model_copy(update={"text": None}))
    if not rows:
        return hits
    seen = {n.id for n in hits}
    for node_id, shown in rows:
        if len(hits) >= limit:
            break
        if node_id not in seen and all(t in shown for t in terms):
            node = mem.get_node(node_id)
            if node is not None:
                hits.append(node)
                seen.add(node_id)
    return hits
