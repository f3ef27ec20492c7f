"""Why a memory matched a search, in words ("Found in: title, value"): a row that showed
none of the words typed gave no clue why it was listed."""

from __future__ import annotations

import unicodedata
from typing import Any

from ekko_memory_gui.qt import QCoreApplication as _Q


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def matched_fields(row: Any, query: str) -> list[str]:
    """The fields of ``row`` (a ``MemoryRow``) holding a word of ``query``: title,
    content, key, value (as shown, or the sentence the list says from it); empty when the
    match is in what the app does not show."""
    terms = [t for t in _fold(query).split() if t]
    fields = {
        "title": row.title,
        "content": row.content,
        "key": row.key or "",
        "value": row.shown_value,
    }
    return [name for name, text in fields.items() if any(t in _fold(text) for t in terms)]


def why_matched(row: Any, query: str) -> str:
    """One line saying where the search found the memory."""
    names = {
        "title": _Q.translate("MatchReason", "title"),
        "content": _Q.translate("MatchReason", "content"),
        "key": _Q.translate("MatchReason", "key"),
        "value": _Q.translate("MatchReason", "value"),
    }
    found = matched_fields(row, query)
    if not found:
        return _Q.translate(
            "MatchReason", "Found in its tags or entities, or by a word that means the same"
        )
    sep = _Q.translate("MemoryLabels", ", ")
    return _Q.translate("MatchReason", "Found in: {fields}").format(
        fields=sep.join(names[f] for f in found)
    )
