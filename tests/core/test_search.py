"""Full-text search that finds Chinese words, English and mixed text; user text is never FTS syntax."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from ekko_memory.store import search_text
from ekko_memory.store.count_cache import TERM_COUNTS_FROM, CountCache
from ekko_memory.store.filters import NodeFilter, Viewer
from ekko_memory.store.search_text import (
    MAX_MESSAGE_TERMS,
    RANKED_MATCHES,
    QueryTerm,
    choose_keywords,
    fts5_match_expression,
    index_tokens,
    message_terms,
    query_terms,
    supports,
)
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.timeutil import utcnow
from tests.backends import Backend
from tests.core.factories import make_node

CORPUS = {
    "cilantro": ("用户不吃香菜", "用户明确要求以后做饭推荐不要香菜。"),
    "flavor": ("用户偏好少油少辣", "推荐菜谱时优先少油少辣。"),
    "tomato": ("番茄炒蛋", "家常快手菜，主要食材是番茄和鸡蛋。"),
    "pork": ("红烧肉做法", "五花肉焯水后加冰糖炒糖色，小火慢炖一小时。"),
    "fastapi": ("后端用FastAPI服务", "项目后端决定使用 FastAPI 框架，部署在 Docker 里。"),
    "postgres": ("Database choice", "We store sessions in PostgreSQL, not MySQL."),
    "budget": ("每月预算", "每月餐饮预算不超过两千元。"),
    "japanese": ("ラーメンが好き", "ユーザーは味噌ラーメンが好きです。"),
    "fullwidth": ("ＡＰＩ密钥轮换", "每九十天轮换一次ＡＰＩ密钥。"),
}

# (query, keys that must be found, keys that must not be found)
QUERIES = [
    ("香菜", {"cilantro"}, {"flavor", "tomato"}),
    ("菜", {"cilantro", "flavor", "tomato"}, {"postgres"}),
    ("少辣", {"flavor"}, {"cilantro"}),
    ("少油少辣", {"flavor"}, set()),
    ("不吃香菜", {"cilantro"}, set()),
    ("红烧肉", {"pork"}, {"tomato"}),
    ("肉", {"pork"}, set()),
    ("鸡蛋", {"tomato"}, set()),
    ("FastAPI服务", {"fastapi"}, set()),
    ("fastapi", {"fastapi"}, set()),
    ("FASTAPI", {"fastapi"}, set()),
    ("postgresql", {"postgres"}, {"fastapi"}),
    ("sessions PostgreSQL", {"postgres"}, set()),
    ("预算", {"budget"}, set()),
    ("ラーメン", {"japanese"}, set()),
    ("api", {"fullwidth"}, {"fastapi"}),  # words, not substrings: "api" is not "fastapi"
    ("密钥", {"fullwidth"}, set()),
    # A word the lists know finds the memory in its other names (香菜 is cilantro).
    ("cilantro", {"cilantro"}, {"flavor", "tomato"}),
    ("Coriander", {"cilantro"}, {"flavor"}),
    ("芫荽", {"cilantro"}, {"tomato"}),
    ("tomato", {"tomato"}, {"cilantro"}),
    ("西红柿 鸡蛋", {"tomato"}, set()),
]


@pytest.fixture
def store(backend: Backend, tmp_path: Path) -> SqlStore:
    s = backend.open_store(tmp_path)
    ids: dict[str, str] = {}
    for key, (title, content) in CORPUS.items():
        node = make_node(
            title=title, content=content, key=None, value_json=None, entities=[], tags=[]
        )
        ids[key] = node.id
        s.upsert_node(node)
    s.ids = ids  # type: ignore[attr-defined]
    yield s
    s.close()


def found_keys(store: SqlStore, query: str) -> set[str]:
    ids = store.ids  # type: ignore[attr-defined]
    by_id = {v: k for k, v in ids.items()}
    return {by_id[n.id] for n in store.search_nodes(query=query, limit=50)}


@pytest.mark.parametrize(("query", "want", "avoid"), QUERIES)
def test_query_finds_what_it_should(
    store: SqlStore, query: str, want: set[str], avoid: set[str]
) -> None:
    got = found_keys(store, query)
    assert want <= got, f"{query!r} missed {want - got}"
    assert not (avoid & got), f"{query!r} wrongly found {avoid & got}"


def test_recall_is_one_on_the_test_set(store: SqlStore) -> None:
    wanted = sum(len(w) for _, w, _ in QUERIES)
    hit = sum(len(w & found_keys(store, q)) for q, w, _ in QUERIES)
    assert hit / wanted == 1.0


@pytest.mark.parametrize(
    "hostile",
    [
        '"',
        '""',
        '香菜"',
        "AND",
        "OR NOT",
        "NEAR(香菜 少辣)",
        "*",
        "香*",
        "(",
        ")",
        "title:香菜",
        "^香菜",
        "'; DROP TABLE memory_nodes; --",
        "-香菜",
        "{title}: x",
        "\\",
        "😀",
        "   ",
        "%",
        "_",
    ],
)
def test_fts_syntax_is_searched_as_text(store: SqlStore, hostile: str) -> None:
    store.search_nodes(query=hostile, limit=5)  # never raises
    with store.read() as r:
        assert r.count_nodes(NodeFilter()) == len(CORPUS)


def test_operators_are_plain_words(store: SqlStore) -> None:
    # 'near' and 'or' are searched as words that no node holds...
    assert found_keys(store, "NEAR(香菜)") == set()
    assert found_keys(store, '"香菜" OR "番茄"') == set()
    # ...and found where a node does hold them.
    node = make_node(title="Shops near home", content="买香菜 or 葱")
    store.upsert_node(node)
    assert [n.id for n in store.search_nodes(query="NEAR(香菜)", limit=5)] == [node.id]
    assert [n.id for n in store.search_nodes(query='"香菜" OR', limit=5)] == [node.id]


def test_a_word_too_long_to_index_is_still_found(backend: Backend, tmp_path: Path) -> None:
    """The PostgreSQL store does not index a word over MAX_LEXEME_BYTES: a search for one
    falls back to a substring scan, as an emoji-only one does (SQLite indexes it)."""
    s = backend.open_store(tmp_path, "long-word")
    word = "x" * 3000
    node = make_node(title="a very long token", content=word)
    s.upsert_node(node)
    assert [n.id for n in s.search_nodes(query=word, limit=5)] == [node.id]
    s.close()


@pytest.mark.parametrize(
    "hidden", ["\u200b", "\u00ad", "\u200d", "\u2060", "\ufeff", "\u200f", "\u202e"]
)
def test_invisible_characters_inside_a_word_do_not_hide_it(
    backend: Backend, tmp_path: Path, hidden: str
) -> None:
    """Text pasted from a web page or a chat carries zero-width spaces, soft hyphens and
    direction marks inside words; the word typed without them still finds it."""
    s = backend.open_store(tmp_path)
    node = make_node(
        title=f"用户不吃香{hidden}菜", content=f"cilan{hidden}tro", tags=[], entities=[]
    )
    s.upsert_node(node)
    for query in ("香菜", "不吃香菜", "cilantro", f"香{hidden}菜"):
        assert [n.id for n in s.search_nodes(query=query, limit=5)] == [node.id], query


def test_emoji_only_query_falls_back_to_substring(backend: Backend, tmp_path: Path) -> None:
    s = backend.open_store(tmp_path, "emoji")
    node = make_node(title="喜欢🌶️", content="x")
    s.upsert_node(node)
    assert [n.id for n in s.search_nodes(query="🌶️", limit=5)] == [node.id]
    s.close()


def test_prefix_matching_for_search_as_you_type(store: SqlStore) -> None:
    with store.read() as r:
        hits = r.search_nodes("Postgr", NodeFilter(), prefix_last=True)
    assert [h.node.id for h in hits] == [store.ids["postgres"]]  # type: ignore[attr-defined]


def test_tokens_are_bigrams_then_unigrams() -> None:
    assert index_tokens("不吃香菜") == "不吃 吃香 香菜 不 吃 香 菜"
    assert index_tokens("FastAPI服务") == "fastapi 服务 服 务"
    # pork is 猪肉 too: either will do.
    assert fts5_match_expression(query_terms("红烧肉 pork")) == '"红烧 烧肉" AND ("pork" OR "猪肉")'


def test_message_keywords_split_at_glue_and_skip_stop_words() -> None:
    terms = message_terms("我想做红烧肉，有什么要注意的？")
    # 什么 / 的 split the runs: no bigram spans them; 我想 is a stop word.
    assert terms.terms == ("想做", "做红", "红烧", "烧肉", "要注", "注意")
    assert terms.whole == frozenset()
    # 香菜 is a whole word, and so are its other names (the memory may say cilantro).
    assert message_terms("香菜呢").whole == {"香菜", "芫荽", "cilantro", "coriander"}
    assert message_terms("Where does our CI run?").terms == ("ci", "run")
    assert message_terms("继续").terms == ()
    searched, window = choose_keywords(
        message_terms("红烧肉 pork").terms, {"红烧": 3, "烧肉": 2, "pork": 1}
    )
    assert window is None
    assert fts5_match_expression(searched, any_term=True) == '"红烧" OR "烧肉" OR "pork"'
    # A pasted page keeps its first and last keywords only.
    long = message_terms(" ".join(f"word{i}" for i in range(100)))
    assert len(long.terms) == MAX_MESSAGE_TERMS
    assert long.terms[0] == "word0" and long.terms[-1] == "word99"


def test_a_pasted_page_is_searched_but_not_kept_in_the_caches() -> None:
    page = "今天整理了香菜和红烧肉的做法。" * 500
    sizes = (search_text._memo_message_terms, search_text._memo_query_terms)
    before = [memo.cache_info().currsize for memo in sizes]
    assert "香菜" in message_terms(page).terms and query_terms(page)
    assert [memo.cache_info().currsize for memo in sizes] == before


def test_a_hit_needs_a_whole_word_two_terms_or_a_label() -> None:
    terms = message_terms("我想做红烧肉，有什么要注意的？")
    assert supports(terms, ["家常菜"], "红烧肉：五花肉焯水")  # two terms
    assert supports(terms, ["注意事项"], "")  # one the node is about
    assert not supports(terms, ["雨季出门带伞"], "出门前注意看天气")  # one in passing
    assert supports(message_terms("香菜呢"), [""], "不吃香菜")  # a whole word
    assert supports(message_terms("where does our CI run?"), [], "CI on GitHub")
    assert not supports(message_terms("where does our CI run?"), ["where we are"], "")


def test_words_too_common_to_rank_are_left_to_rarer_ones() -> None:
    budget = RANKED_MATCHES
    counts = {"任务": budget * 20, "火候": 12, "炖肉": budget // 2, "红烧": budget // 2 + 20}
    # The rarest words while their matches fit the ranking budget, in message order.
    assert choose_keywords(["任务", "红烧", "炖肉", "火候", "没有"], counts) == (
        (QueryTerm(("炖肉",)), QueryTerm(("火候",))),
        None,
    )
    # Only common words: rank the newest matches only.
    assert choose_keywords(["任务", "没有"], counts) == ((QueryTerm(("任务",)),), RANKED_MATCHES)
    assert choose_keywords(["没有"], counts) == ((), None)


def test_term_counts_cache_only_large_counts_for_a_while() -> None:
    now = [0.0]
    cache = CountCache[str](cache_from=TERM_COUNTS_FROM, clock=lambda: now[0])
    asked: list[list[str]] = []
    truth = {"任务": 9_000, "火锅": 3}

    def count(terms: list[str]) -> dict[str, int]:
        asked.append(terms)
        return {t: truth[t] for t in terms if t in truth}

    assert cache.counts(["任务", "火锅", "香菜"], count) == {"任务": 9_000, "火锅": 3}
    # A common word is remembered; a rare or absent one is counted again (it may be new).
    assert cache.counts(["任务", "火锅", "香菜"], count) == {"任务": 9_000, "火锅": 3}
    assert asked == [["任务", "火锅", "香菜"], ["火锅", "香菜"]]
    now[0] += 301
    cache.counts(["任务"], count)
    assert asked[-1] == ["任务"]


def test_one_count_is_remembered_as_counts_remembers_it() -> None:
    """``one`` (the topic sizes' hot path, read without the lock) answers what ``counts``
    would: a fresh count until remembered, then the remembered one until it expires."""
    now = [0.0]
    cache = CountCache[str](ttl=60, clock=lambda: now[0])
    asked: list[list[str]] = []
    truth = {"做饭": 7}

    def count(keys: list[str]) -> dict[str, int]:
        asked.append(keys)
        return {k: truth[k] for k in keys}

    assert cache.cached("做饭") is None
    assert cache.one("做饭", count) == 7
    truth["做饭"] = 8
    assert cache.one("做饭", count) == 7 and asked == [["做饭"]]
    assert cache.cached("做饭") == 7
    now[0] += 61
    assert cache.cached("做饭") is None  # expired: a reader counts again
    assert cache.one("做饭", count) == 8 and asked == [["做饭"], ["做饭"]]
    assert cache.counts(["做饭"], count) == {"做饭": 8} and len(asked) == 2


def test_a_filter_hashes_once_and_as_its_fields_do() -> None:
    """Cached statements are keyed by filters: equal filters hash alike, a changed copy
    hashes anew, and a filter holding lists still cannot be a key."""
    from dataclasses import replace

    a = NodeFilter(scopes=("user",), types=("preference",), domain="生活技能")
    b = NodeFilter(scopes=("user",), types=("preference",), domain="生活技能")
    assert hash(a) == hash(b) and a == b and {a: 1}[b] == 1
    c = replace(a, domain="项目")
    assert c != a and {a: 1}.get(c) is None
    assert hash(replace(c, domain="生活技能")) == hash(a)
    with pytest.raises(TypeError):
        hash(NodeFilter(scopes=["user"]))  # type: ignore[arg-type]


def test_one_viewer_per_reader_hashing_as_its_fields_do() -> None:
    """A session's turns share one Viewer (its cached filters are then found by identity);
    it equals and hashes as a Viewer built field by field, and the remembered hash is no
    field of it."""
    from dataclasses import astuple, replace

    v = Viewer.of("s1", "u1", "w1")
    assert Viewer.of("s1", "u1", "w1") is v
    built = Viewer(session_id="s1", user_id="u1", workspace_id="w1")
    assert v == built and hash(v) == hash(built) and {built: 1}[v] == 1
    assert astuple(v) == ("s1", "u1", "w1")
    other = replace(v, user_id="u2")
    assert other != v and hash(other) == hash(
        Viewer(session_id="s1", user_id="u2", workspace_id="w1")
    )
    assert Viewer.of("s1", "u2", "w1") is not v


def test_keyword_search_of_common_words(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rare word of the message finds its node among many holding a common one; a
    message of common words only ranks the newest of their matches."""
    monkeypatch.setattr(search_text, "RANKED_MATCHES", 2)
    s = backend.open_store(tmp_path, "common")
    start = utcnow() - timedelta(days=1)
    rare = make_node(
        title="任务笔记", content="炖肉的火候要小", key=None, value_json=None, now=start
    )
    common = [
        make_node(
            title=f"任务{i}",
            content="进度正常",
            key=None,
            value_json=None,
            now=start + timedelta(minutes=i + 1),
        )
        for i in range(6)
    ]
    with s.write() as w:
        w.insert_nodes([rare, *common])
    with s.read() as r:
        found = r.search_rows("任务的火候呢", NodeFilter(), limit=5, any_term=True)
        newest = r.search_rows("任务", NodeFilter(), limit=5, any_term=True)
    assert [h.row.id for h in found] == [rare.id]
    assert {h.row.id for h in newest} == {common[-1].id, common[-2].id}
    # Counts go just past the (patched) budget, and no further.
    assert search_text.count_cap() == 3
    s.close()


def test_matches_beyond_the_rank_cap_are_still_found(backend: Backend, tmp_path: Path) -> None:
    """Only the best-ranked matches are joined first; when the filter leaves too few of them
    and the index held more, the search runs again over every match."""
    s = backend.open_store(tmp_path, "capped")
    strong = [
        make_node(title="香菜香菜香菜", content="香菜", key=None, value_json=None, scope="user")
        for _ in range(130)
    ]
    weak = [
        make_node(
            scope="workspace",
            user_id=None,
            workspace_id="w1",
            title=f"笔记{i}",
            content="今天去菜市场买了很多东西，有土豆、茄子、青椒，还顺手买了一把香菜。",
            key=None,
            value_json=None,
        )
        for i in range(3)
    ]
    with s.write() as w:
        w.insert_nodes([*strong, *weak])
    with s.read() as r:
        ranked = r.search_nodes("香菜", NodeFilter(), limit=100)
        hits = r.search_nodes("香菜", NodeFilter(scopes=["workspace"]), limit=20)
    # The weak matches are outside the first 100 the index ranks best…
    assert not {n.id for n in weak} & {h.node.id for h in ranked}
    # …and are found all the same.
    assert {h.node.id for h in hits} == {n.id for n in weak}
    s.close()
