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

from ekko_memory.identity import name_synonyms

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
_LATIN_WORD = re.compile(rf"[^\W_{_CJK_RANGES}]+", re.UNICODE)


# Invisible characters that text pasted from a web page or a chat carries inside words:
# soft hyphen, zero-width space / joiners, direction marks and embeddings, word joiner,
# byte-order mark. As separators they split 用户不吃香菜 so 香菜 (typed) never matched.
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def has_invisible(text: str) -> bool:
    """Whether ``text`` holds a character ``normalize`` drops as invisible."""
    return _INVISIBLE.search(text) is not None


def normalize(text: str) -> str:
    """NFKC + casefold, so full-width letters and case do not matter; invisible
    characters dropped, so a word is found whatever they hide in it."""
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold()


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
    """One term of a query: a phrase of tokens that must appear consecutively, or one of
    ``others``, the phrases of other words for the same thing (cilantro: 香菜, 芫荽)."""

    tokens: tuple[str, ...]
    prefix: bool = False
    others: tuple[tuple[str, ...], ...] = ()


@lru_cache(maxsize=1)
def _names() -> dict[str, tuple[str, ...]]:
    """Every name the shipped lists know (normalized as the index is), with the other
    names of the same thing."""
    groups: dict[str, list[str]] = {}
    for said, canon in name_synonyms().items():
        groups.setdefault(canon, [canon]).append(said)
    out: dict[str, tuple[str, ...]] = {}
    for group in groups.values():
        names = list(dict.fromkeys(normalize(n) for n in group))
        for name in names:
            out[name] = tuple(n for n in names if n != name)
    return out


def other_names(word: str) -> tuple[str, ...]:
    """The other names of what ``word`` (normalized) names: cilantro → 香菜, 芫荽,
    coriander; none for a word no list knows."""
    return _names().get(word, ())


def _phrase(word: str) -> tuple[str, ...]:
    """A word's tokens as the index spells them (a Chinese word as its bigrams)."""
    if len(word) > 1 and _is_cjk(word):
        return tuple(word[i : i + 2] for i in range(len(word) - 1))
    return (word,)


def _is_cjk(word: str) -> bool:
    match = _RUN.fullmatch(word)
    return match is not None and match.group(1) is not None


# Texts up to this long are memoized; a pasted page is not kept alive by a cache.
MEMO_CHARS = 2_000


def query_terms(text: str, *, prefix_last: bool = False) -> tuple[QueryTerm, ...]:
    """Terms for a user query: each must match (AND). Never FTS syntax, only tokens.

    Memoized (pure; the terms are frozen): a turn searches every store with one message,
    and a filtered search asks again to count its matches.
    """
    if len(text) > MEMO_CHARS:
        return _query_terms(text, prefix_last)
    return _memo_query_terms(text, prefix_last)


def _query_terms(text: str, prefix_last: bool) -> tuple[QueryTerm, ...]:
    runs = _runs(text)
    terms: list[QueryTerm] = []
    for i, (is_cjk, run) in enumerate(runs):
        # A word the lists know is found in any of its names (cilantro finds 香菜).
        others = tuple(_phrase(name) for name in other_names(run))
        if is_cjk:
            if len(run) == 1:
                terms.append(QueryTerm((run,), others=others))
            else:
                terms.append(
                    QueryTerm(tuple(run[j : j + 2] for j in range(len(run) - 1)), others=others)
                )
        else:
            # A partly typed latin word still matches while the user types.
            prefix = prefix_last and i == len(runs) - 1
            terms.append(QueryTerm((run,), prefix=prefix, others=() if prefix else others))
    # Drop duplicates, keep order.
    seen: set[QueryTerm] = set()
    return tuple(t for t in terms if not (t in seen or seen.add(t)))  # type: ignore[func-returns-value]


_memo_query_terms = lru_cache(maxsize=1024)(_query_terms)


def fts5_match_expression(terms: Sequence[QueryTerm], *, any_term: bool = False) -> str:
    """An FTS5 MATCH string of quoted phrases, all required (or any, for a message's
    keywords); user text cannot inject operators."""
    parts = []
    for term in terms:
        phrase = " ".join(t.replace('"', '""') for t in term.tokens)
        part = f'"{phrase}"' + ("*" if term.prefix else "")
        if term.others:
            spelled = (" ".join(t.replace('"', '""') for t in other) for other in term.others)
            part = "(" + " OR ".join([part, *(f'"{o}"' for o in spelled)]) + ")"
        parts.append(part)
    return (" OR " if any_term else " AND ").join(parts)


# --- keywords of a conversational message ---------------------------------------------
#
# A search box gets keywords, and every one of them must match. A chat message such as
# 我想做红烧肉，有什么要注意的？ is a sentence: as one phrase it matches nothing, so the
# per-turn context searches for any of its words instead, ranked by bm25 (rare words
# weigh most), and keeps a match only with enough evidence (``supports``). Without a
# segmenter, a Chinese run yields all its bigrams; particles split runs first, so no
# bigram spans 的 or 了, and the commonest conversational words are not searched for.

# Particles and conjunctions: a content word never spans one of these.
_GLUE_CHARS = frozenset("的了吗呢吧啊么嘛呀哦哈着过和与及或请什怎")
# fmt: off
_CJK_STOP = frozenset([
    "为何", "一下", "帮我", "我想", "我要", "我们", "你们", "他们", "她们", "这个", "那个", "这些", "那些", "可以", "能不", "有没",
    "没有", "一个", "一些", "还是", "就是", "但是", "因为", "所以", "如果", "然后", "现在", "请问", "谢谢", "好的", "知道", "觉得",
    "看看", "继续", "是不", "不是", "这样", "那样", "应该", "需要", "已经", "时候", "今天", "一起", "自己", "你好",
])
_LATIN_STOP = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "could", "did", "do", "does",
    "doing", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it",
    "its", "me", "my", "of", "on", "or", "our", "please", "should", "so", "than", "that", "the",
    "their", "them", "then", "there", "these", "they", "this", "to", "up", "us", "was", "we",
    "were", "what", "when", "where", "which", "who", "why", "will", "with", "would", "you", "your",
    "let", "lets", "just", "about", "tell", "know", "need", "want",
])
# fmt: on
# Enough to cover a question; a pasted page must not become a thousand-way OR.
MAX_MESSAGE_TERMS = 32


@dataclass(frozen=True)
class MessageTerms:
    """The words of a message worth searching for, each a search term of its own."""

    terms: tuple[str, ...]
    # Terms that are a whole word of the message (a latin word, a two-character run).
    whole: frozenset[str]
    # The latin words among the terms (the rest are Chinese bigrams).
    latin: frozenset[str]


def message_terms(text: str) -> MessageTerms:
    """Keywords of a chat message: latin words and Chinese bigrams, glue and stop words out
    (memoized as ``query_terms``)."""
    return _message_terms(text) if len(text) > MEMO_CHARS else _memo_message_terms(text)


def _message_terms(text: str) -> MessageTerms:
    terms: list[str] = []
    whole: set[str] = set()
    latin: set[str] = set()
    for is_cjk, run in _runs(text):
        if not is_cjk:
            if len(run) > 1 and run not in _LATIN_STOP:
                terms.append(run)
                latin.add(run)
            continue
        segment = ""
        for ch in run + "的":  # a trailing glue character ends the last segment
            if ch not in _GLUE_CHARS:
                segment += ch
                continue
            if len(segment) == 2:
                whole.add(segment)
            terms.extend(
                b
                for b in (segment[i : i + 2] for i in range(len(segment) - 1))
                if b not in _CJK_STOP
            )
            segment = ""
    # A thing the lists know is searched for in all its names (the user says cilantro,
    # the memory says 香菜), each counting as a whole word of the message.
    for word in _named_in(text):
        for name in other_names(word):
            phrase = _phrase(name)
            terms.extend(phrase)
            if len(phrase) == 1:
                whole.add(name)
                if not _is_cjk(name):
                    latin.add(name)
    unique = list(dict.fromkeys(terms))
    if len(unique) > MAX_MESSAGE_TERMS:
        # The start says what it is about, the end what is asked.
        half = MAX_MESSAGE_TERMS // 2
        unique = unique[:half] + unique[-half:]
    kept = set(unique)
    return MessageTerms(tuple(unique), frozenset((whole | latin) & kept), frozenset(latin & kept))


_memo_message_terms = lru_cache(maxsize=256)(_message_terms)


def _named_in(text: str) -> list[str]:
    """The names the lists know that a message says: its latin words, and the Chinese
    names inside its runs (Chinese has no spaces to find them by)."""
    found: list[str] = []
    names = _names()
    for is_cjk, run in _runs(text):
        if not is_cjk:
            if run in names:
                found.append(run)
            continue
        found += [name for name in names if name in run and _is_cjk(name)]
    return found


# How many matches a keyword search ranks at most (bm25 costs ~1 µs a match). The rarest
# words of the message are searched for first, while their nodes fit; commoner words
# still count as evidence (``supports``) but are not searched for. When even the rarest
# word is too common, only its newest matches (and the other words') are ranked.
RANKED_MATCHES = 500


def count_cap() -> int:
    """How far term counts need to go: beyond the ranking budget a count changes no choice."""
    return RANKED_MATCHES + 1


def choose_keywords(
    terms: Sequence[str], counts: dict[str, int]
) -> tuple[tuple[QueryTerm, ...], int | None]:
    """The terms to search for, given how many nodes hold each, and the window of newest
    matches to rank (None: rank them all)."""
    present = [t for t in terms if counts.get(t, 0) > 0]
    chosen: set[str] = set()
    total = 0
    for term in sorted(present, key=lambda t: counts[t]):
        total += counts[term]
        if total > RANKED_MATCHES:
            break
        chosen.add(term)
    if chosen:
        return tuple(QueryTerm((t,)) for t in present if t in chosen), None
    return tuple(QueryTerm((t,)) for t in present), (RANKED_MATCHES if present else None)


def _evidence_text(text: str) -> str:
    # The same memories match turn after turn: their normalized texts are remembered.
    return normalize(text) if len(text) > MEMO_CHARS else _memo_normalize(text)


def _words_of(text: str) -> frozenset[str]:
    return frozenset(_LATIN_WORD.findall(text))


def _latin_words(text: str) -> frozenset[str]:
    return _words_of(text) if len(text) > MEMO_CHARS else _memo_words_of(text)


_memo_normalize = lru_cache(maxsize=2048)(normalize)
_memo_words_of = lru_cache(maxsize=2048)(_words_of)


def supports(terms: MessageTerms, about: Sequence[str], content: str) -> bool:
    """Whether a node matches enough of a message to count as relevant: a whole word of
    it, two of its terms, or one that the node is about (its title, tags or entities),
    not one met in passing in its content (出门前注意看天气 for 有什么要注意的)."""
    # As the index's tokens, without building them (runs on every hit of every turn):
    # a Chinese bigram is a token exactly where it is a substring; a latin word must be
    # a whole word.
    labels = _evidence_text(" ".join(about))
    body = _evidence_text(content)
    label_words: frozenset[str] | None = None
    body_words: frozenset[str] = frozenset()
    matched = 0
    for term in terms.terms:
        if term in terms.latin:
            if label_words is None:
                label_words = _latin_words(labels)
                body_words = _latin_words(body)
            in_labels, in_body = term in label_words, term in body_words
        else:
            in_labels, in_body = term in labels, term in body
        if in_labels or (term in terms.whole and in_body):
            return True
        if in_body:
            matched += 1
            if matched == 2:
                return True
    return False
