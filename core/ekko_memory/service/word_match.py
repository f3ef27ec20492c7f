"""Whether a text speaks of a word, as "forget everything about…" reads it: case-insensitive
on every backend; a word with Chinese (or other CJK) characters anywhere as a substring
(香菜 in 不吃香菜); a Latin word only whole ("salt" in "less salt", "Salt!", "少salt",
never in "salty" or "basalt")."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

# Letters and digits a Latin word continues with (ASCII, Latin-1 and Latin Extended).
_WORD_CHAR = "0-9a-z\u00c0-\u024f"
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def is_cjk_word(word: str) -> bool:
    """A word matched as a substring (it holds CJK characters)."""
    return bool(_CJK.search(word))


def word_matcher(word: str) -> Callable[[str], bool]:
    """A test of a text for ``word`` (see the module docstring)."""
    folded = word.strip().casefold()
    if not folded:
        return lambda text: False
    if is_cjk_word(folded):
        return lambda text: folded in text.casefold()
    pattern = re.compile(rf"(?<![{_WORD_CHAR}]){re.escape(folded)}(?![{_WORD_CHAR}])")
    return lambda text: pattern.search(text.casefold()) is not None


def speaks_of(match: Callable[[str], bool], *parts: Any) -> bool:
    """Any of ``parts`` (texts, or JSON values such as a node's value) matches."""
    for part in parts:
        if part is None:
            continue
        text = part if isinstance(part, str) else json.dumps(part, ensure_ascii=False)
        if match(text):
            return True
    return False
