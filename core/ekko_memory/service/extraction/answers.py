"""Answers about someone or something else: the assistant asked of the user's cat or son
(它几岁、叫什么名字？ how old is he?), and the user's answer leaves it unsaid (叫煤球，三岁了).
Read without it, the answer was the user's own (我三岁); read with it, it is the cat's."""

from __future__ import annotations

import re

# The assistant's question points at someone or something other than the user.
_ASKS_OF_ANOTHER = re.compile(
    r"(?:它|他|她|孩子|宝宝|小家伙)[^。.!！?？\n]{0,30}[？?]"
    r"|\b(?:is|was|does|did|has)\s+(?:it|he|she)\b[^.!?]*\?|\b(?:its|his|her)\s+\w+[^.!?]*\?",
    re.IGNORECASE,
)
# Whom the user spoke of just before: their pet or child.
_REFERENT_ZH = re.compile(
    r"(?:我家|我的|俺家|咱家|家里)(?:的)?(?P<r>猫咪|猫|狗狗|狗|儿子|女儿|闺女|孩子|娃|宝宝|兔子|仓鼠|鹦鹉)"
)
_REFERENT_EN = re.compile(
    r"\bmy\s+(?P<r>cat|dog|puppy|kitten|son|daughter|kid|baby|rabbit|parrot)\b", re.IGNORECASE
)
# The answer names its own subject (我…, 它…, my…, she…): nothing to add.
_HAS_SUBJECT = re.compile(
    r"^\s*(?:我|俺|咱|它|他|她|你|我家|家里)|^\s*(?:i|i'm|my|we|our|it|it's|he|he's|she|she's|they)\b",
    re.IGNORECASE,
)


def about_the_asked(said: str, asked: str, before: str) -> str | None:
    """``said`` with the one the assistant asked about as its subject (我家猫叫煤球，三岁了),
    when ``asked`` asks of someone else and ``before`` (the user's message before) named
    them; None when there is nothing to add."""
    if not asked or _HAS_SUBJECT.match(said) or not _ASKS_OF_ANOTHER.search(asked):
        return None
    if re.search(r"[\u4e00-\u9fff]", said):
        m = _REFERENT_ZH.search(before)
        return f"我家{m['r']}{said.lstrip('，, ')}" if m else None
    m_en = _REFERENT_EN.search(before)
    return f"My {m_en['r'].casefold()} {said.lstrip(', ')}" if m_en else None
