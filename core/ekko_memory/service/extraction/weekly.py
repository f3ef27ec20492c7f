"""A week's pattern said in English without "every" (I work Mon, Wed and Fri at the clinic;
I have Spanish class Monday and Wednesday evenings; I'm in the office Tuesdays): a routine,
kept in the user's words, that a later update of it (my schedule changed, I'm now in on
Tuesdays and Thursdays) replaces.

What makes it a pattern and not a plan: the present tense, and several weekdays (or one in
the plural), with no "next", "this" or "last" pinning it to one week.
"""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement

_DAY = (
    r"(?:mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?"
    r"|sat(?:urday)?|sun(?:day)?)"
)
_DAYS = (
    rf"\b(?P<days>{_DAY}s?(?:\s*(?:,|and|&|/|or)\s*(?:and\s+)?{_DAY}s?)+"
    rf"|(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b"
)
# The head: the user doing something (I work, I have Spanish class, I'm in the office).
_WEEKLY = re.compile(
    rf"^(?P<head>(?:i|i'm|im|we|we're)\b[^,.;!?]{{0,60}}?)\s+(?P<on>on\s+|every\s+)?{_DAYS}"
    rf"(?P<tail>[^.;!?]{{0,40}})",
    re.IGNORECASE,
)
# Pinned to one week, past, or to come: a plan or a report, not a pattern.
_ONE_WEEK = re.compile(
    r"\b(?:next|this|last|coming|past|tomorrow|yesterday|today|tonight|was|were|had|did|went|"
    r"will|'ll|going to|gonna|until|till|since|ago|if|when)\b|\?",
    re.IGNORECASE,
)


def weekly(st: Statement) -> Finding | None:
    """The week's pattern the user's clause (and the rest of its list) states, or None."""
    if st.zh or st.subject.kind not in ("self", "we") or st.negated or not st.is_claim:
        return None
    at = st.sentence.find(st.text)
    said = st.sentence[at:] if at >= 0 else st.text
    m = _WEEKLY.match(said)
    if m is None:
        return None
    # The list of days ends the clause, or what follows is where or when (at the clinic,
    # evenings, 6 to 7:30) — not a new statement.
    tail = re.split(r",\s*(?!\d|from\b|between\b|at\b|in the\b)", m["tail"], maxsplit=1)[0]
    text = w.clean_en(f"{m['head']} {m['on'] or ''}{m['days']}{tail}".strip(" ,"))
    if _ONE_WEEK.search(text) or len(text) > 120:
        return None
    return Finding(
        type="fact",
        domain="个人",
        category=["个人", "习惯"],
        key="routine",
        value=text,
        title=text if len(text) <= 60 else text[:59] + "…",
        content=text,
        statement=st,
        scope="user",
        tags=["routine"],
        importance=0.7,
        reason="the user's week",
    )


_WEEKDAY = re.compile(rf"\b{_DAY}s?\b|(?:周|星期|礼拜)[一二三四五六日天]", re.IGNORECASE)
# What names one's week as a whole (my schedule changed, 排班变了).
_SCHEDULE = re.compile(r"\b(?:schedule|rota|roster|shifts?|timetable)\b|排班|班表|作息|课表", re.I)


def names_the_week(text: str) -> bool:
    """The words speak of one's weekly schedule as a whole (schedule changed at work)."""
    return bool(_SCHEDULE.search(text))


def holds_weekdays(text: str) -> bool:
    """The text names days of the week (I work Mon, Wed and Fri; 每周二四上课)."""
    return bool(_WEEKDAY.search(text))
