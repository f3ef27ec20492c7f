"""Several things to do in one clause: "file my taxes and update my resume", "need to send
the invoice and prep the slides for Monday" — each its own task, with the time said for them.

English joins the pieces of work with "and": a piece starts again where "and" (also, then)
is followed by a verb that takes an object. What a verb is comes from a short list of the
verbs of errands, chores and work (English has no segmenter here): "buy milk and eggs" and
"the kids and their friends" stay one piece. Chinese lists are cut at their commas and 、
before this module sees them (statements.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from ekko_memory.service.extraction.plans import span_now
from ekko_memory.service.extraction.statements import Statement
from ekko_memory.service.extraction.time_expressions import TimeMention, find_times

# Verbs of errands, chores and work, in their base form.
_CHORE_VERBS = (
    "apply|arrange|ask|back up|bake|book|bring|buy|call|cancel|change|charge|check|clean|clear|"
    "collect|confirm|contact|cook|declutter|deposit|do|donate|drop|email|empty|enroll|exchange|"
    "feed|fetch|file|fill|finish|fix|get|grab|groom|hang|hire|hoover|install|invite|iron|label|"
    "learn|load|mail|make|meet|message|mop|move|mow|order|organise|organize|pack|paint|pay|"
    "phone|pick|plan|polish|post|practice|practise|prep|prepare|print|put|rake|read|rebook|"
    "refill|register|remind|renew|repaint|repair|replace|reply|reschedule|reserve|respond|"
    "return|review|ring|scan|schedule|see|sell|send|set|sew|ship|shovel|sign|sort|start|study|"
    "submit|sweep|take|text|tidy|top up|transfer|trim|unpack|update|upload|vacuum|visit|walk|"
    "wash|water|wrap|write"
)
# "and" (also, then) before a verb of a new piece of work; a verb with its object or its
# particle, so that "and cook" of "buy and cook" is not one.
_JOIN = re.compile(
    rf"\s*,?\s+(?:and|&|plus)\s+(?:also\s+|then\s+|maybe\s+)?(?=(?:{_CHORE_VERBS})\s+\S)"
    rf"|\s*,\s*(?:also|then)\s+(?=(?:{_CHORE_VERBS})\s+\S)",
    re.IGNORECASE,
)
# What a list's lead names (two big things this month:, weekend jobs:, 这周事儿好多：).
LIST_NOUNS_EN = re.compile(
    r"\b(?:to-?dos?|tasks?|things|jobs|chores|errands|stuff|items|list|plans?)\b", re.IGNORECASE
)
LIST_NOUNS_ZH = re.compile(
    r"事儿|事情|[几两三四五\d]件事|要做的|要办的|要弄的|要忙的|任务|清单|待办|安排|计划"
    r"|活儿|(?:的|些|点)活$|家务|杂事|琐事|差事"
)


def chore_parts(st: Statement, now: datetime) -> list[Statement]:
    """``st`` cut where "and" starts another piece of work; ``[st]`` when it holds one."""
    if st.zh:
        return [st]
    pieces = [p.strip(" ,") for p in _JOIN.split(st.text)]
    bodies = [p.strip(" ,") for p in _JOIN.split(st.body)]
    if len(pieces) < 2 or len(bodies) != len(pieces):
        return [st]
    if any(len(p.split()) < 2 for p in pieces):
        return [st]  # "buy and cook dinner": one piece
    return [
        replace(st, text=piece, body=body, times=find_times(piece, now))
        for piece, body in zip(pieces, bodies, strict=True)
    ]


def task_time(st: Statement) -> TimeMention | None:
    """The time a task of ``st`` is due or happens, when one is said (a span such as 这周 or
    this month too)."""
    return next(
        (
            t
            for t in st.times
            if t.role in ("deadline", "point", "until")
            and not t.past
            and t.starts is not None
            and t.ends is not None
        ),
        None,
    ) or span_now(st)
