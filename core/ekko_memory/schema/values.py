"""Value normalization: 少辣 → {"spicy": "low"}, 少油少辣 → {"oil": "low", "spicy": "low"}, …"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from typing import Any

from ekko_memory.identity import canonical_name, is_phrase, normalize_name, normalize_phrase
from ekko_memory.models import ValueShape

# Flavor dimensions and the words that name them.
_DIMENSIONS: dict[str, tuple[str, ...]] = {
    "spicy": ("辣度", "辣味", "辣", "麻辣", "spiciness", "spicy", "spice", "heat", "chili"),
    "oil": ("油腻", "油", "oily", "oil", "fat", "greasy"),
    "salt": ("盐", "咸", "salty", "salt", "sodium"),
    "sugar": ("糖", "甜", "sugar", "sweet", "sweetness"),
}

DIMENSION_WORDS = _DIMENSIONS

# Words that name what a single-value key is about, whatever its value: 以后都用英文回复我
# is about the reply language that 中文 held.
KEY_TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "reply_language": ("回答", "回复", "答复", "语言", "reply", "answer", "respond", "language"),
}

# Level words, checked in this order (longer phrases before the words inside them).
_LEVELS: list[tuple[str, tuple[str, ...]]] = [
    ("extra", ("特辣", "超辣", "变态辣", "extra", "very very")),
    (
        "none",
        (
            "不要",
            "不放",
            "不加",
            "不吃",
            "别放",
            "别加",
            "不",
            "无",
            "免",
            "零",
            "没有",
            "none",
            "no",
            "zero",
            "without",
            "free",
            "not",
        ),
    ),
    ("mild", ("微", "一点点", "稍微", "mild", "slightly", "a little")),
    ("low", ("少", "低", "轻", "淡", "不要太", "别太", "不太", "less", "low", "light", "reduced")),
    ("medium", ("中", "适中", "正常", "medium", "moderate", "normal")),
    (
        "high",
        (
            "重",
            "多",
            "高",
            "很",
            "爱吃",
            "喜欢吃",
            "high",
            "very",
            "extra",
            "heavy",
            "lots",
            "more",
            "hot",
        ),
    ),
]
LEVEL_NAMES = ("none", "mild", "low", "medium", "high", "extra")

# Whole-phrase shortcuts that the generic reading gets wrong.
_PHRASES: dict[str, dict[str, str]] = {
    "清淡": {"oil": "low", "salt": "low"},
    "重口味": {"salt": "high", "spicy": "high"},
    # 我口味偏淡, 吃得比较淡: light food; 口味偏重: heavy.
    "偏淡": {"oil": "low", "salt": "low"},
    "口味淡": {"oil": "low", "salt": "low"},
    "口味比较淡": {"oil": "low", "salt": "low"},
    "吃得淡": {"oil": "low", "salt": "low"},
    "吃得比较淡": {"oil": "low", "salt": "low"},
    "口味偏重": {"salt": "high", "spicy": "high"},
    "口味重": {"salt": "high", "spicy": "high"},
    "口味比较重": {"salt": "high", "spicy": "high"},
    "不要太辣": {"spicy": "low"},
    "别太辣": {"spicy": "low"},
    "不太辣": {"spicy": "low"},
    "不辣": {"spicy": "none"},
    "微辣": {"spicy": "mild"},
    "中辣": {"spicy": "medium"},
    "特辣": {"spicy": "extra"},
    "mild": {"spicy": "mild"},
    "not spicy": {"spicy": "none"},
    "no spice": {"spicy": "none"},
    "non-spicy": {"spicy": "none"},
    # "light" alone lights many things (a check-engine light, a light jacket): only of food.
    "something light": {"oil": "low", "salt": "low"},
    "light meal": {"oil": "low", "salt": "low"},
    "light meals": {"oil": "low", "salt": "low"},
    "eat light": {"oil": "low", "salt": "low"},
    "light dinner": {"oil": "low", "salt": "low"},
    "light lunch": {"oil": "low", "salt": "low"},
    "light food": {"oil": "low", "salt": "low"},
    "keep it light": {"oil": "low", "salt": "low"},
}


class ValueError_(ValueError):
    """A value that cannot take the key's shape; the message says what was expected."""


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


def _level_of(word: str) -> str | None:
    w = _fold(word)
    if w in LEVEL_NAMES:
        return w
    # The longest level word in it decides: 不要太 is low, though 不要 (none) is inside it.
    hits = [(len(x), level) for level, words in _LEVELS for x in words if x in w]
    return max(hits, key=lambda hit: hit[0])[1] if hits else None


def _dimension_of(word: str) -> str | None:
    w = _fold(word)
    for dim, words in _DIMENSIONS.items():
        if w == dim or any(x in w for x in words):
            return dim
    return None


def _word(word: str) -> str:
    """A pattern for ``word``: an English word only whole ("flight" holds no "light",
    "hotel" no "hot"), a Chinese one anywhere."""
    escaped = re.escape(word)
    return rf"(?<![a-z0-9]){escaped}(?![a-z0-9])" if word.isascii() else escaped


@lru_cache(maxsize=1)
def _flavor_patterns() -> tuple[list[tuple[re.Pattern[str], dict[str, str]]], re.Pattern[str]]:
    phrases = [
        (re.compile(_word(phrase)), value)
        for phrase, value in sorted(_PHRASES.items(), key=lambda kv: -len(kv[0]))
    ]
    dim_words = "|".join(
        _word(w) for ws in _DIMENSIONS.values() for w in sorted(ws, key=len, reverse=True)
    )
    level_words = "|".join(_word(w) for _, ws in _LEVELS for w in sorted(ws, key=len, reverse=True))
    generic = re.compile(rf"({level_words})\s*(?:放|加|吃)?\s*(?:一点|点|些)?\s*({dim_words})")
    return phrases, generic


def parse_flavor_text(text: str) -> dict[str, str]:
    """Read flavor phrases from free text: '少油少辣' → {'oil': 'low', 'spicy': 'low'}."""
    folded = _fold(text)
    out: dict[str, str] = {}
    phrases, generic = _flavor_patterns()
    for pattern, value in phrases:
        if pattern.search(folded):
            for dim, level in value.items():
                out.setdefault(dim, level)
            folded = pattern.sub(" ", folded)
    # "<level><dimension>" in Chinese (少油, 不辣, 多放辣) or "<level> <dimension>" in English.
    for m in generic.finditer(folded):
        found_level, found_dim = _level_of(m.group(1)), _dimension_of(m.group(2))
        if found_level and found_dim:
            out.setdefault(found_dim, found_level)
    return out


def normalize_flavor(value: Any) -> dict[str, str]:
    """A flavor profile as ``{dimension: level}`` from text, a list of phrases or a dict."""
    parsed: dict[str, str] = {}
    if isinstance(value, str):
        parsed = parse_flavor_text(value)
    elif isinstance(value, list):
        for item in value:
            for dim, level in normalize_flavor(item).items():
                parsed.setdefault(dim, level)
    elif isinstance(value, dict):
        for k, v in value.items():
            dim_name = _dimension_of(str(k))
            level_name = _level_of(str(v)) if v is not None else None
            if dim_name is None or level_name is None:
                raise ValueError_(
                    f"flavor_profile field {k!r}: {v!r} is not a known dimension/level "
                    f"(dimensions: {', '.join(_DIMENSIONS)}; levels: {', '.join(LEVEL_NAMES)})"
                )
            parsed[dim_name] = level_name
    if not parsed:
        raise ValueError_(
            f"flavor_profile needs flavor words such as 少辣, 少油, 不辣 or "
            f'{{"spicy": "low"}}; could not read {json.dumps(value, ensure_ascii=False)}'
        )
    return dict(sorted(parsed.items()))


def normalize_value(key: str | None, shape: ValueShape | None, value: Any) -> Any:
    """Bring a value into its key's shape; raise ``ValueError_`` when it cannot be done."""
    if value is None:
        return None
    if key == "flavor_profile":
        return normalize_flavor(value)
    if shape == "string":
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        if isinstance(value, bool | int | float):
            value = str(value)
        if not isinstance(value, str):
            raise ValueError_(
                f"{key} takes a single text value, got {json.dumps(value, ensure_ascii=False)}"
            )
        # A name loses its 不吃/avoid (the key says it); a sentence keeps every word.
        norm = normalize_phrase(value) if is_phrase(value) else normalize_name(value)
        if not norm:
            raise ValueError_(f"{key} needs a non-empty value")
        return norm
    if shape == "number":
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ValueError_(f"{key} takes a number")
        try:
            return float(value) if not isinstance(value, int) else value
        except ValueError as e:
            raise ValueError_(f"{key} takes a number, got {value!r}") from e
    if shape == "boolean":
        if isinstance(value, bool):
            return value
        folded = _fold(str(value))
        if folded in ("true", "yes", "是", "对", "1"):
            return True
        if folded in ("false", "no", "否", "不", "0"):
            return False
        raise ValueError_(f"{key} takes true or false")
    if shape == "string[]":
        items = value if isinstance(value, list) else [value]
        if not all(isinstance(i, str) for i in items):
            raise ValueError_(f"{key} takes a list of texts")
        return sorted({normalize_name(i) for i in items if normalize_name(i)})
    if shape == "object":
        if isinstance(value, str):
            # A bare text for an object key names its subject: {"name": text}.
            return {"name": normalize_name(value)}
        if not isinstance(value, dict):
            raise ValueError_(f"{key} takes an object, got {json.dumps(value, ensure_ascii=False)}")
        return {k: normalize_name(v) if isinstance(v, str) else v for k, v in sorted(value.items())}
    return value


def values_match(query: Any, stored: Any) -> bool:
    """Exact-query match: equal, or every field of a query object equal in the stored object."""
    if isinstance(query, dict) and isinstance(stored, dict):
        return all(k in stored and values_match(v, stored[k]) for k, v in query.items())
    if isinstance(query, str) and isinstance(stored, str):
        return canonical_name(query) == canonical_name(stored)
    if isinstance(query, str) and isinstance(stored, dict):
        # "香菜" finds {"ingredient": "香菜", "amount": "少量"} and {"ingredient": "cilantro"}.
        return any(
            isinstance(v, str) and canonical_name(v) == canonical_name(query)
            for v in stored.values()
        )
    return bool(query == stored)
