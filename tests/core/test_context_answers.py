"""build_context gives the contexts it gave before PostgreSQL's reads were batched, and
on PostgreSQL a turn makes at most four round trips (counted on the wire).

The contexts of ``context_corpus.MESSAGES`` on its deterministic store were generated
from the implementation before the batching (``tests/core/data/context_answers.json``,
per backend: FTS5 and tsvector rank differently).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import MemoryService
from ekko_memory.service.config import EmbedderConfig, MemoryConfig
from ekko_memory.service.context_builder import ContextBuilder
from tests.backends import Backend, PgServer
from tests.core import context_corpus
from tests.core.context_corpus import ANSWERS, MESSAGES

KEYWORD_ONLY = MemoryConfig(embedder=EmbedderConfig(provider="none"))
MAX_ROUND_TRIPS = 4


@pytest.fixture
def corpus(backend: Backend, tmp_path: Path) -> Iterator[MemoryService]:
    mem = backend.open_memory(tmp_path, config=KEYWORD_ONLY)
    context_corpus.seed(mem)
    yield mem


def forget_counts(mem: MemoryService) -> None:
    """Empty the caches of plan-steering counts: a turn then counts everything again."""
    for _, store in mem.stores():
        for name in ("term_cache", "term_guesses", "topic_sizes"):
            cache = getattr(store.dialect, name, None)
            if cache is not None:
                cache._counts.clear()


def test_contexts_are_the_ones_before_the_batching(backend: Backend, corpus: MemoryService) -> None:
    expected: dict[str, Any] = json.loads(ANSWERS.read_text())[backend.name]
    forget_counts(corpus)
    got = context_corpus.contexts(corpus)
    assert sorted(got) == sorted(expected)
    for text in MESSAGES:
        assert got[text] == expected[text], text


def test_contexts_hold_with_cold_and_warm_count_caches(
    backend: Backend, corpus: MemoryService
) -> None:
    """The choices the server makes (keywords, topic statements) are those the cached
    counts make: the same context either way."""
    expected: dict[str, Any] = json.loads(ANSWERS.read_text())[backend.name]
    for text in MESSAGES:
        forget_counts(corpus)
        cold = corpus.build_context("s1", text, user_id="u1", workspace_id="w1")
        warm = corpus.build_context("s1", text, user_id="u1", workspace_id="w1")
        assert cold.model_dump(mode="json") == expected[text], text
        assert warm == cold, text


@pytest.mark.postgres
def test_postgres_turn_makes_at_most_four_round_trips(pg_server: PgServer, tmp_path: Path) -> None:
    """Each store: the count of the message's words not cached (when there are any and
    some were never counted) and one pipeline for everything else (its BEGIN and COMMIT
    inside, the pause switch with the rest); no pool ping. The
    first turn on a thread pings each store once as it takes the connection it keeps."""
    from tests.pg_wire import WireCounter

    backend = Backend("postgres", pg_server)
    wire = WireCounter()
    try:
        with wire:
            mem = backend.open_memory(tmp_path, config=KEYWORD_ONLY)
            context_corpus.seed(mem)
        mark = wire.mark()
        mem.build_context("s1", "", user_id="u1", workspace_id="w1")
        assert wire.since(mark) == 4, wire.queries(mark)  # two pings, two pipelines
        for text in MESSAGES:
            for cold in (True, False):
                if cold:
                    forget_counts(mem)
                mark = wire.mark()
                mem.build_context("s1", text, user_id="u1", workspace_id="w1")
                sent = wire.queries(mark)
                assert wire.since(mark) <= MAX_ROUND_TRIPS, (text, cold, sent)
                assert '";"' not in [q.strip() for q in sent]
                if not cold:  # every word counted before: counted again in the pipeline
                    assert wire.since(mark) == 2, (text, sent)
        # Without words to count (every count cached, or no keyword): one per store.
        for text in ("", "继续"):
            mark = wire.mark()
            mem.build_context("s1", text, user_id="u1", workspace_id="w1")
            assert wire.since(mark) == 2, wire.queries(mark)
        # The pause switch is read in those pipelines, and a paused turn returns nothing.
        mem.pause()
        mark = wire.mark()
        paused = mem.build_context("s1", "继续", user_id="u1", workspace_id="w1")
        assert wire.since(mark) == 2, wire.queries(mark)
        assert paused.diagnostics.reason_code == "memory.paused"
        assert not paused.recent_messages and not paused.relevant_nodes
    finally:
        backend.close_all()
        wire.close()


@pytest.mark.postgres
def test_postgres_batched_read_with_semantic_recall_finds_what_the_reads_one_by_one_find(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """Semantic recall on: the nearest memories' rows are read in the pipeline too; the
    contexts are those of the reads one by one (the code before, kept behind a switch)."""
    backend = Backend("postgres", pg_server)
    try:
        mem = backend.open_memory(tmp_path)
        assert mem.semantic is not None
        context_corpus.seed(mem, 300)
        mem.semantic.reindex()  # a bulk write is left for reindex
        mem.semantic.load_vectors()
        questions = [*MESSAGES, "服务之间怎么通信？", "晚饭有什么清淡的菜推荐？"]
        got = {}
        for batched in (False, True):
            ContextBuilder.batch_postgres = batched
            got[batched] = [
                mem.build_context("s1", text, user_id="u1", workspace_id="w1") for text in questions
            ]
        for text, before, now in zip(questions, got[False], got[True], strict=True):
            assert not now.diagnostics.warnings, (text, now.diagnostics.warnings)
            assert now == before, text
        assert any(c.relevant_nodes for c in got[True])
    finally:
        ContextBuilder.batch_postgres = True
        backend.close_all()


@pytest.mark.postgres
def test_postgres_turn_survives_its_kept_connection_being_killed(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """The connection a thread keeps between turns is not pinged before each: one the
    server closed fails, and the turn reads again on a new one (no warning, no loss)."""
    from sqlalchemy import create_engine

    backend = Backend("postgres", pg_server)
    try:
        mem = backend.open_memory(tmp_path, config=KEYWORD_ONLY)
        context_corpus.seed(mem, 200)
        before = mem.build_context("s1", MESSAGES[1], user_id="u1", workspace_id="w1")
        admin = create_engine(pg_server.url)
        with admin.connect() as conn:
            conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'ekko-memory' AND pid <> pg_backend_pid()"
            )
        admin.dispose()
        after = mem.build_context("s1", MESSAGES[1], user_id="u1", workspace_id="w1")
        assert after.diagnostics.warnings == []
        assert after == before
    finally:
        backend.close_all()


@pytest.mark.postgres
def test_postgres_turn_checks_the_word_counts_it_guessed(
    pg_server: PgServer, tmp_path: Path
) -> None:
    """A message's words counted at an earlier turn are not counted before the pipeline
    again but inside it, in the search's snapshot, the search chosen from their last
    counts: a word in no memory then and in one now is searched for at once (the store
    read again: one more round trip), and the context is the reads one by one's."""
    from tests.pg_wire import WireCounter

    backend = Backend("postgres", pg_server)
    wire = WireCounter()
    text = "Zanzibar 的行程怎么安排"
    try:
        with wire:
            mem = backend.open_memory(tmp_path, config=KEYWORD_ONLY)
            context_corpus.seed(mem, 200)
        first = mem.build_context("s1", text, user_id="u1", workspace_id="w1")
        assert "mem_zanzibar" not in first.model_dump_json()
        mark = wire.mark()
        assert mem.build_context("s1", text, user_id="u1", workspace_id="w1") == first
        assert wire.since(mark) == 2, wire.queries(mark)  # the counts in the pipelines
        node = context_corpus.nodes(3)[2].model_copy(  # a fact of the user's
            update={
                "id": "mem_zanzibar",
                "title": "Zanzibar 行程",
                "content": "用户计划去 Zanzibar 旅行",
                "status": "active",
                "expires_at": None,
            }
        )
        with mem.user_store.write() as w:
            w.insert_nodes([node])
        mark = wire.mark()
        now = mem.build_context("s1", text, user_id="u1", workspace_id="w1")
        assert wire.since(mark) == 3, wire.queries(mark)  # the user store read twice
        assert "mem_zanzibar" in [n.id for n in now.relevant_nodes], now.model_dump_json()
        ContextBuilder.batch_postgres = False
        assert mem.build_context("s1", text, user_id="u1", workspace_id="w1") == now
    finally:
        ContextBuilder.batch_postgres = True
        backend.close_all()
        wire.close()
