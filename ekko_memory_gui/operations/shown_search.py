"""Search that finds what the list shows, and says why each memory matched.

The core's full-text index holds titles, content, tags and entities; the list also shows
values, structured ones as ``oil: low · salt: low`` (the detail pane) or as a sentence
rendered from them, "Less oil, less salt" / "少油少盐" (the list): "salt" found nothing
while the app showed it. Memories whose shown value, key or rendered sentence holds every
word of the search are added after the core's ranked hits. They are read on the memory worker, once per filter until
the stores change (``browse.change_token``), in stores of up to ``SCAN_CAP`` memories.
"""

from __future__ import annotations

import unicodedata
import weakref
from typing import Any

from ekko_memory import BrowseFilter, MemoryNode
from ekko_memory_gui.models.labels.sentences import keyed_sentence
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


def plain_value(key: str | None, value: Any) -> str:
    """The key and value as the detail pane shows them (the same in every language)."""
    return f"{key or ''} {value_text(value)}"


def shown_value(key: str | None, value: Any) -> str:
    """The key and value as the app shows them: as the detail pane does, and the sentence
    the list renders from them, in the UI's language."""
    return f"{plain_value(key, value)} {keyed_sentence(key, value) or ''}"


def _holds(terms: list[str], plain: str, key: str | None, value: Any) -> bool:
    """Every word in the folded ``plain`` value, or else in the sentence rendered from it
    (rendered now: the UI's language may have changed since the values were read)."""
    if all(t in plain for t in terms):
        return True
    said = keyed_sentence(key, value)
    return bool(said) and all(t in fold(said or "") for t in terms)


def value_matches(node: MemoryNode, query: str) -> bool:
    terms = words(query)
    shown = fold(shown_value(node.key, node.value_json))
    return bool(terms) and all(t in shown for t in terms)


_Row = tuple[str, str, str | None, Any]


class _Shown:
    """What the list shows of the values under one filter, read once per change of the
    stores: (id, folded key and value, key, value) in the list's order."""

    def __init__(self, key: Any, rows: list[_Row] | None) -> None:
        self.key = key
        self.rows = rows  # None: more memories than SCAN_CAP


# One per memory service (the app has one open at a time).
_cache: weakref.WeakKeyDictionary[Any, _Shown] = weakref.WeakKeyDictionary()


def _shown_rows(mem: Any, plain: BrowseFilter) -> list[_Row] | None:
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
    rows: list[_Row] = []
    after = None
    while True:
        page = mem.browse.list_nodes(plain, after=after, limit=_PAGE)
        rows += [
            (n.id, fold(plain_value(n.key, n.value_json)), n.key, n.value_json) for n in page.nodes
        ]
        if page.next_cursor is None or not page.nodes or len(rows) > SCAN_CAP:
            break
        after = page.next_cursor
    _cache[mem] = _Shown(key, rows)
    return rows


def search_shown(mem: Any, f: BrowseFilter, limit: int) -> list[MemoryNode]:
    """The core's ranked hits for ``f.text``, then memories whose value, key or rendered
    sentence shows every word (runs on the memory worker)."""
    hits: list[MemoryNode] = mem.browse.list_nodes(f, limit=limit).nodes
    terms = words(f.text or "")
    if len(hits) >= limit or not terms:
        return hits
    rows = _shown_rows(mem, f.model_copy(update={"text": None}))
    if not rows:
        return hits
    seen = {n.id for n in hits}
    for node_id, plain_shown, key, value in rows:
        if len(hits) >= limit:
            break
        if node_id not in seen and _holds(terms, plain_shown, key, value):
            node = mem.get_node(node_id)
            if node is not None:
                hits.append(node)
                seen.add(node_id)
    return hits
