"""Is an extracted value in the user's own words? A model can state what nobody said.

An LLM extractor's value that appears nowhere in the user's source messages (in any of
the names the shipped lists know for it: cilantro for 香菜) is not written: it waits for
the user's approval (rule ``unverified_value``), and the context does not show it as
something the user said.
"""

from __future__ import annotations

import re
from typing import Any

from ekko_memory.identity import same_names

# Words of the controlled schema, not of the user (levels, statuses, the names of fields).
_CONTROLLED = frozenset(
    [
        "none",
        "mild",
        "low",
        "medium",
        "high",
        "extra",
        "todo",
        "doing",
        "done",
        "active",
        "少量",
        "native",
        "learning",
        "speaks",
    ]
)
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}")


def _leaves(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [str(value)]
    return []


def ungrounded(value: Any, said: str) -> list[str]:
    """The parts of ``value`` that the user's words ``said`` do not contain."""
    folded = said.casefold()
    out = []
    for leaf in _leaves(value):
        text = leaf.strip()
        if not text or text.casefold() in _CONTROLLED or _ISO.match(text):
            continue
        if not any(name.casefold() in folded for name in same_names(text) if name):
            out.append(text)
    return out
