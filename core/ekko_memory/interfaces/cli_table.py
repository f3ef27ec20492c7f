"""Plain-text tables for the terminal that line up with Chinese text.

CJK characters take two columns in a terminal, combining marks none; padding by
``len()`` would skew every row holding Chinese. Widths here are display widths
(``unicodedata.east_asian_width``: W and F are double).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

ELLIPSIS = "…"


def char_width(ch: str) -> int:
    """Columns one character takes in a terminal (0, 1 or 2)."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal."""
    return sum(char_width(c) for c in text)


def clean_cell(value: object) -> str:
    """One line of text for a cell: newlines and tabs become spaces, controls go."""
    text = "" if value is None else str(value)
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\t", " ")
    return "".join(c for c in text if c >= " " or c == " ")


def truncate(text: str, width: int) -> str:
    """``text`` cut to at most ``width`` columns, with an ellipsis when cut."""
    if display_width(text) <= width:
        return text
    out = []
    used = 0
    for ch in text:
        w = char_width(ch)
        if used + w > width - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + ELLIPSIS


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` columns."""
    return text + " " * max(0, width - display_width(text))


# Columns never cut: an id is useless when cut (people copy it into the next command).
WHOLE_COLUMNS = frozenset({"ID"})
SHORT = 16


def fit_widths(natural: list[int], headers: Sequence[str], total: int, gap: int) -> list[int]:
    """Shrink the widest columns until the table fits ``total`` columns (never below a header,
    never an id column)."""
    widths = list(natural)
    # Short columns (dates, statuses) stay whole; long free text gives way first.
    floor = [
        natural[i] if h in WHOLE_COLUMNS or natural[i] <= SHORT else max(display_width(h), SHORT)
        for i, h in enumerate(headers)
    ]
    budget = total - gap * (len(widths) - 1)
    while sum(widths) > budget:
        i = max(range(len(widths)), key=lambda k: widths[k] - floor[k])
        if widths[i] <= floor[i]:
            break
        widths[i] -= 1
    return widths


def render_table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], *, max_width: int = 120, gap: int = 2
) -> str:
    """A table with a header line, columns aligned by display width, cut to ``max_width``."""
    cells = [[clean_cell(c) for c in row] for row in rows]
    natural = [
        max([display_width(h)] + [display_width(r[i]) for r in cells])
        for i, h in enumerate(headers)
    ]
    widths = fit_widths(natural, headers, max_width, gap)
    sep = " " * gap
    lines = [
        sep.join(pad(truncate(h, w), w) for h, w in zip(headers, widths, strict=True)).rstrip()
    ]
    lines.append(sep.join("─" * w for w in widths))
    for row in cells:
        lines.append(
            sep.join(pad(truncate(c, w), w) for c, w in zip(row, widths, strict=True)).rstrip()
        )
    return "\n".join(lines)


def render_fields(pairs: Sequence[tuple[str, object]]) -> str:
    """``label  value`` lines with the labels aligned (a record's details)."""
    width = max((display_width(k) for k, _ in pairs), default=0)
    return "\n".join(f"{pad(k, width)}  {clean_cell(v)}" for k, v in pairs)
