"""What a stored value is about: normalized names and value subjects.

Pure functions shared by the store (the indexed ``subject`` column) and the schema layer
(conflict identities), so both agree on when two values name the same thing.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from typing import Any

# Fields of object values that name their subject ({"ingredient": "香菜", "amount": "少量"}).
SUBJECT_FIELDS = ("ingredient", "cuisine", "task", "name", "subject", "item")

_PREFIX = re.compile(
    r"^(?:不吃|不要|别放|别加|不放|不加|忌口|忌|讨厌|不喜欢|喜欢吃|喜欢|爱吃|avoid|no|without|likes?|loves?)\s*"
)
_EDGE_PUNCT = " \t\r\n。，,、.;；:：!！?？\"'“”‘’()（）[]【】"


@lru_cache(maxsize=4096)
def normalize_name(value: str) -> str:
    """An ingredient, cuisine or name: trimmed, without 不吃/avoid… prefixes, English folded.

    Memoized (pure, str to str): every turn's conflict resolution names the same few
    subjects again.
    """
    text = unicodedata.normalize("NFKC", value).strip(_EDGE_PUNCT)
    text = _PREFIX.sub("", text).strip(_EDGE_PUNCT)
    if text.isascii():
        text = text.casefold()
    return text


def value_subject(value: Any) -> str | None:
    """The text a value is about: the value itself, or its subject field; None if it has none."""
    if isinstance(value, str):
        return normalize_name(value) or None
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, dict):
        for name in SUBJECT_FIELDS:
            v = value.get(name)
            if isinstance(v, str) and v:
                return normalize_name(v)
    return None


def node_subject(key: str | None, value: Any, title: str) -> str | None:
    """The indexed ``subject`` of a stored node: its value's subject, or for a node without
    a key its title (so duplicate checks of notes and recipes seek an index too)."""
    return value_subject(value) if key is not None else title.strip() or None


def canonical_json(value: Any) -> str:
    """One text per JSON value, whatever its key order."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def value_identity(value: Any) -> str:
    """A value's subject, or its canonical JSON when it names none."""
    subject = value_subject(value)
    return subject if subject is not None else canonical_json(value)
