"""Search that finds what the list shows, and says why each memory matched.

The core's full-text index holds titles, content, tags and entities; the list also shows
values, structured ones as ``oil: low · salt: low``: "salt" found nothing while the list
showed it. Memories whose shown value or key holds every word of the search are added
after the core's ranked hits (read page by page over the same filter, up to ``SCAN_CAP``
memories, on the memory worker).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ekko_memory import BrowseFilter, MemoryNode
from ekko_memory_gui.models.labels.values import value_text

# Memories read for values beyond the core's hits, at most (a personal store holds far
# fewer; the ranked hits come first whatever the size).
SCAN_CAP = 20000
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


def search_shown(mem: Any, f: BrowseFilter, limit: int) -> list[MemoryNode]:
    """The core's ranked hits for ``f.text``, then memories whose value or key shows every
    word (runs on the memory worker)."""
    hits: list[MemoryNode] = mem.browse.list_nodes(f, limit=limit).nodes
    if len(hits) >= limit or not words(f.text or ""):
        return hits
    seen = {n.id for n in hits}
    plain = f.model_copy(update={"text": None})
    after = None
    read = 0
    while read < SCAN_CAP and len(hits) < limit:
        page = mem.browse.list_nodes(plain, after=after, limit=_PAGE)
        read += len(page.nodes)
        for node in page.nodes:
            if node.id not in seen and value_matches(node, f.text or ""):
                hits.append(node)
                seen.add(node.id)
        if page.next_cursor is None or not page.nodes:
            break
        after = page.next_cursor
    return hits[:limit]
