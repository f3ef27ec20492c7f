"""Remembered text as quoted data in a prompt: it cannot start a line of its own, hide
characters from the person reading it, or speak in a chat template's tokens.

Memories, summaries and messages hold what users, agents, extractors and imports wrote:
rendered into a model's context they are data, never instructions. ``quote_line`` puts
one piece of such text on one line — line breaks and control characters flattened to
spaces, invisible characters (bidirectional controls, zero-width characters, tag
characters, variation selectors) left out, chat-template tokens (``<|im_start|>``,
``[INST]``, ``<s>``…) and tags (``</memory-context>``, ``<system>``) spelled with
look-alike brackets so no tokenizer reads them as markup. The stored text keeps every
character; the render says which memories it changed (``QuotedLine.hidden`` /
``.markup``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Characters that show nothing: Unicode's format characters (Cf: soft hyphen, Arabic
# letter mark, Mongolian vowel separator, zero-width space/joiners, LRM/RLM, the bidi
# embeddings, overrides and isolates, word joiner and invisible operators, BOM,
# interlinear annotation, tag characters — the "ASCII smuggling" alphabet), the
# combining grapheme joiner, Hangul fillers and variation selectors (which can carry a
# hidden byte each). ``store/search_text.py`` drops a narrower set for searching.
_HIDDEN_CLASS = (
    "\u00ad\u034f\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef"
    # Arabic number signs and the like (Cf, shown only joined to what follows).
    "\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2"
)
_HIDDEN = re.compile(f"[{_HIDDEN_CLASS}]+")
# Line breaks and control characters (C0 but the space, DEL, C1, the Unicode line and
# paragraph separators) and the spaces around them: one space.
_BREAKS = re.compile(r"\s*[\x00-\x1f\x7f-\x9f\u2028\u2029]+\s*")

# Chat-template tokens and tags: <|im_start|>, <｜User｜> (DeepSeek spells its bars
# full-width), <s>, </s>, <system>, </memory-context>, <<SYS>>, <start_of_turn>…
_ANGLED = re.compile(
    r"<[|｜][^<>\n]{0,64}?[|｜]>|</?[A-Za-z_][\w.:-]{0,48}(?:\s[^<>\n]{0,200})?/?>"
)
# Bracketed template tokens: [INST], [/INST], [SYSTEM_PROMPT], [TOOL_CALLS], [gMASK]…
_BRACKETED = re.compile(r"\[/?(?:[A-Z][A-Za-z_]{1,31}|[gs]MASK|s)\]")
# The hidden characters ``str.isprintable`` passes (it refuses controls, format characters,
# separators but the space): checked apart on the fast path.
_PRINTABLE_HIDDEN = re.compile(
    "[\u034f\u115f\u1160\u180b-\u180d\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]"
)
_LOOK_ALIKE = str.maketrans({"<": "‹", ">": "›", "[": "［", "]": "］"})


class QuotedLine(NamedTuple):
    """Text made safe to quote on one line, and what had to change."""

    text: str
    # Invisible characters were left out (the stored text still holds them).
    hidden: bool = False
    # Template tokens or tags were spelled with look-alike brackets.
    markup: bool = False


def _look_alike(match: re.Match[str]) -> str:
    return match.group(0).translate(_LOOK_ALIKE)


def is_plain(text: str) -> bool:
    """``text`` needs no quoting (most memories): no control, hidden character, ``<`` or
    ``[`` — a few scans in C."""
    return (
        text.isprintable()
        and "<" not in text
        and "[" not in text
        and _PRINTABLE_HIDDEN.search(text) is None
    )


def quote_line(text: str) -> QuotedLine:
    """``text`` on one line, with nothing hidden and no markup a model could obey."""
    if is_plain(text):
        return QuotedLine(text)
    shown = _HIDDEN.sub("", text)
    hidden = len(shown) != len(text)
    shown = _BREAKS.sub(" ", shown).strip()
    neutral = _BRACKETED.sub(_look_alike, _ANGLED.sub(_look_alike, shown))
    return QuotedLine(neutral, hidden=hidden, markup=neutral != shown)


def quote_lines(text: str) -> tuple[list[str], bool, bool]:
    """Multi-line text (a summary) quoted line by line: (the lines, hidden, markup)."""
    lines: list[str] = []
    hidden = markup = False
    for raw in text.splitlines():
        q = quote_line(raw)
        hidden, markup = hidden or q.hidden, markup or q.markup
        if q.text:
            lines.append(q.text)
    return lines, hidden, markup
