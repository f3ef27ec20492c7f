"""Search tokens that find Chinese words: CJK bigrams + unigrams, made in Python.

SQLite's ``unicode61`` tokenizer keeps a whole run of Chinese characters as one
token, so ``香菜`` never matches inside ``用户不吃香菜``. We index a shadow text in
which every CJK run is spelled out as its overlapping bigrams followed by its
single characters, each a separate token; a query is turned the same way into a
phrase of bigrams (or a single character). Latin words stay words. The output is
plain space-separated tokens, so any word-splitting full-text engine can index
it (SQLite FTS5 here, a ``simple`` tsvector on PostgreSQL).

Measured at 100k nodes (see bench/README.md): full recall on our test set, top-20 in a
few milliseconds; jieba segmentation and the trigram tokenizer both missed short words.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

# CJK ideographs, kana, hangul, bopomofo: scripts written without spaces.
_CJK_RANGES = (
    "\u2e80-\u2fdf"  # radicals
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3100-\u312f"  # bopomofo
    "\u3130-\u318f"  # hangul jamo
    "\u3400-\u4dbf"  # extension A
    "\u4e00-\u9fff"  # unified ideographs
    "\uac00-\ud7af"  # hangul syllables
    "\uf900-\ufaff"  # compatibility ideographs
    "\U00020000-\U0003134f"  # extensions B-G
)
_RUN = re.compile(rf"([{_CJK_RANGES}]+)|([^\W_{_CJK_RANGES}]+)", re.UNICODE)


def normalize(text: str) -> str:
    """NFKC + casefold, so full-width letters and case do not matter."""
    return unicodedata.normalize("NFKC", text).casefold()


def _runs(text: str) -> list[tuple[bool, str]]:
    return [(bool(m.group(1)), m.group(0)) for m in _RUN.finditer(normalize(text))]


def index_tokens(text: str) -> str:
    """The shadow text to index for ``text``."""
    out: list[str] = []
    for is_cjk, run in _runs(text):
        if not is_cjk:
            out.append(run)
            continue
        if len(run) > 1:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
        out.extend(run)
    return " ".join(out)


@dataclass(frozen=True)
class QueryTerm:
    """One term of a query: a phrase of tokens that must appear consecutively."""

    tokens: tuple[str, ...]
    prefix: bool = False


@lru_cache(maxsize=1024)
def query_terms(text: str, *, prefix_last: bool = False) -> tuple[QueryTerm, ...]:
    """Terms for a user query: each must match (AND). Never FTS syntax, only tokens.

    Memoized (pure; the terms are frozen): a turn searches every store with one message,
    and a filtered search asks again to count its matches.
    """
    runs = _runs(text)
    terms: list[QueryTerm] = []
    for i, (is_cjk, run) in enumerate(runs):
        if is_cjk:
            if len(run) == 1:
                terms.append(QueryTerm((run,)))
            else:
                terms.append(QueryTerm(tuple(run[j : j + 2] for j in range(len(run) - 1))))
        else:
            # A partly typed latin word still matches while the user types.
            terms.append(QueryTerm((run,), prefix=prefix_last and i == len(runs) - 1))
    # Drop duplicates, keep order.
    seen: set[QueryTerm] = set()
    return tuple(t for t in terms if not (t in seen or seen.add(t)))  # type: ignore[func-returns-value]


def fts5_match_expression(terms: Sequence[QueryTerm]) -> str:
    """An FTS5 MATCH string of quoted phrases; user text cannot inject operators."""
    parts = []
    for term in terms:
        phrase = " ".join(t.replace('"', '""') for t in term.tokens)
        parts.append(f'"{phrase}"' + ("*" if term.prefix else ""))
    return " AND ".join(parts)
