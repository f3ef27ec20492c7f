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


# Past forms English does not make with -ed.
_PAST = {
    "bring": ("brought",),
    "buy": ("bought",),
    "do": ("did", "done"),
    "feed": ("fed",),
    "get": ("got", "gotten"),
    "go": ("went", "gone"),
    "hang": ("hung",),
    "make": ("made",),
    "meet": ("met",),
    "mow": ("mowed", "mown"),
    "pay": ("paid",),
    "put": ("put",),
    "read": ("read",),
    "ring": ("rang", "rung"),
    "see": ("saw", "seen"),
    "sell": ("sold",),
    "send": ("sent",),
    "set": ("set",),
    "sew": ("sewed", "sewn"),
    "sweep": ("swept",),
    "take": ("took", "taken"),
    "write": ("wrote", "written"),
}
_VERB_FIRST = re.compile(
    r"^(?:(?:i|we)\s+)?(?:(?:still|also|really)\s+)?"
    r"(?:(?:have to|has to|need to|needs to|must|gotta|got to|should|'ll|will|want to|plan to|"
    r"remind me to|remember to)\s+)?(?:go\s+(?:and\s+)?)?"
    rf"(?P<verb>{_CHORE_VERBS})\b",
    re.IGNORECASE,
)


def _past_forms(verb: str) -> tuple[str, ...]:
    verb = verb.casefold()
    if verb in _PAST:
        return _PAST[verb]
    if verb.endswith("e"):
        return (verb + "d",)
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return (verb[:-1] + "ied",)
    forms = [verb + "ed"]
    if re.search(r"[^aeiou][aeiou][bdglmnprt]$", verb):
        forms.append(verb + verb[-1] + "ed")  # dropped, cancelled (and canceled)
    return tuple(forms)


def done_by_its_verb(st: Statement, task: str) -> bool:
    """``st`` tells the ``task`` done in the past of the task's own verb, naming its thing too
    ("called the plumber" of "call the plumber about the leak"; "got the gym membership
    cancelled"): English, where the past of the work's verb is the report that it is done."""
    if st.zh or st.question or st.hypothetical or st.negated:
        return False
    if st.subject.kind not in ("self", "none") or (
        st.subject.kind == "none" and st.explicit_subject
    ):
        return False  # the plumber called: someone else's doing
    m = _VERB_FIRST.match(task.strip())
    if m is None:
        return False
    said = st.text.casefold()
    if re.search(r"\b(?:need|have|has|gotta|must|should|will|'ll|going to|gonna|want)\b", said):
        return False  # still has to call the plumber
    forms = "|".join(map(re.escape, _past_forms(m.group("verb"))))
    if not re.search(rf"\b(?:{forms})\b", said):
        return False
    thing = _content_words(task[m.end() :])
    return bool(thing & _content_words(st.text))


# Words of a task that name no thing of it (the landlord *about* the boiler *this week*).
_NOT_THINGS = frozenset(
    [
        "about",
        "with",
        "from",
        "into",
        "onto",
        "over",
        "under",
        "after",
        "before",
        "this",
        "that",
        "these",
        "those",
        "week",
        "weekend",
        "month",
        "today",
        "tomorrow",
        "tonight",
        "morning",
        "evening",
        "afternoon",
        "again",
        "still",
        "just",
        "also",
        "soon",
        "asap",
        "some",
        "sometime",
        "maybe",
        "their",
        "them",
        "there",
        "then",
        "when",
        "what",
        "your",
        "mine",
    ]
)


def _content_words(text: str) -> set[str]:
    return {
        word[:5]
        for word in re.findall(r"[a-z]{3,}", text.casefold())
        if word not in _NOT_THINGS and word not in ("the", "and", "for", "her", "his", "our")
    }
