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

from ekko_memory.resources import resource_path

# Fields of object values that name their subject ({"ingredient": "香菜", "amount": "少量"}).
SUBJECT_FIELDS = ("ingredient", "cuisine", "task", "name", "subject", "item")

# English words only as whole words ("noodles" is not "no" + "odles"), in any case.
_PREFIX = re.compile(
    r"^(?:(?:不吃|不要|别放|别加|不放|不加|忌口|忌|讨厌|不喜欢|喜欢吃|喜欢|爱吃)\s*"
    r"|(?:avoid|no|without|likes?|loves?)\s+)",
    re.IGNORECASE,
)
_EDGE_PUNCT = " \t\r\n。，,、.;；:：!！?？\"'“”‘’()（）[]【】"


def _trim(text: str) -> str:
    """``text`` without the punctuation at its edges, but for a bracket that closes one
    opened inside it (English (fluent), 英语（一般）: the level stays with the language)."""
    out = text.strip(_EDGE_PUNCT)
    if out and out.count("(") > out.count(")"):
        after = text[text.find(out) + len(out) :].lstrip(" ")
        if after.startswith(")"):
            out += ")"
    return out


@lru_cache(maxsize=4096)
def normalize_phrase(value: str) -> str:
    """A sentence kept as a value (no meat for me this week): trimmed, English folded, its
    words all kept — a leading "no" or 不吃 is part of what it says."""
    text = _trim(unicodedata.normalize("NFKC", value))
    return text.casefold() if text.isascii() else text


def is_phrase(value: str) -> bool:
    """``value`` says more than a name (a clause: no meat for me this week, 这周不吃肉也不喝酒)."""
    return len(value.split()) > 3 or sum("\u4e00" <= c <= "\u9fff" for c in value) > 8


def normalize_name(value: str) -> str:
    """An ingredient, cuisine or name: trimmed, without 不吃/avoid… prefixes, English folded.

    Memoized (pure, str to str): every turn's conflict resolution names the same few
    subjects again.
    """
    text = _trim(unicodedata.normalize("NFKC", value))
    text = _trim(_PREFIX.sub("", text))
    if text.isascii():
        text = text.casefold()
    return text


@lru_cache(maxsize=1)
def name_synonyms() -> dict[str, str]:
    """Other words for one ingredient (cilantro, 芫荽 → 香菜), normalized on both sides
    (``resources/lexicon/food.json``)."""
    food = json.loads(resource_path("lexicon", "food.json").read_text(encoding="utf-8"))
    pairs = (
        (normalize_name(said), normalize_name(name)) for said, name in food["synonyms"].items()
    )
    return {said: name for said, name in pairs if said and said != name}


@lru_cache(maxsize=4096)
def canonical_name(value: str) -> str:
    """``normalize_name``, then one name across words and languages: "Cilantro", 芫荽 and
    香菜 name the same subject, so duplicates, conflicts and corrections see one memory."""
    name = normalize_name(value)
    return name_synonyms().get(name, name)


@lru_cache(maxsize=1024)
def same_names(value: str) -> tuple[str, ...]:
    """Every word the shipped lists know for what ``value`` names, itself first
    (cilantro → cilantro, 香菜, 芫荽, coriander)."""
    name = canonical_name(value)
    others = [said for said, canon in name_synonyms().items() if canon == name]
    return tuple(n for n in dict.fromkeys([value, name, *others]) if n)


def value_subject(value: Any) -> str | None:
    """The text a value is about (its canonical name): the value itself, or its subject
    field; None if it has none."""
    if isinstance(value, str):
        return canonical_name(value) or None
    if isinstance(value, bool | int | float):
        return str(value)
    if isinstance(value, dict):
        for name in SUBJECT_FIELDS:
            v = value.get(name)
            if isinstance(v, str) and v:
                return canonical_name(v)
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
