"""The LLM extractor against a real chat-completions server on loopback."""

from __future__ import annotations

import contextlib
import io
import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import LlmConfig, MemoryConfig, MemoryService, PurgeFilter
from tests.backends import Backend
from tests.core.conftest import Clock
from tests.core.helpers import raw_bytes

GOOD = {
    "summaryPatch": None,
    "nodes": [
        {
            "operation": "create",
            "reason": "用户明确要求",
            "node": {
                "scope": "user",
                "domain": "生活技能",
                "categoryPath": ["生活技能", "做饭", "饮食偏好"],
                "type": "preference",
                "key": "avoid_ingredient",
                "valueJson": "香菜",
                "title": "用户不吃香菜",
                "content": "推荐菜谱时避免香菜。",
                "confidence": 0.98,
                "importance": 0.9,
                "entities": ["香菜"],
            },
        }
    ],
}
SUMMARY = {"summary": "用户不吃香菜。", "currentGoal": "推荐晚餐", "preferences": ["用户不吃香菜"]}


class FakeModel:
    """What the server answers: a mode the test switches."""

    def __init__(self) -> None:
        self.mode = "good"
        self.requests: list[dict[str, Any]] = []
        self.summary_patch: str | None = None
        self.quote = ""


def make_handler(model: FakeModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            model.requests.append(
                {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
            )
            if model.mode == "timeout":
                time.sleep(1.5)
            if model.mode == "500":
                self.send_response(500)
                self.end_headers()
                self.wfile.write(b"internal error")
                return
            system = body["messages"][0]["content"]
            if model.mode == "malformed":
                content = "Sure! Here are the memories: {not json"
            elif model.mode == "quoting":  # a broken reply that repeats what it was shown
                content = f"Sure! You told me {model.quote} {{not json"
            elif model.mode == "invalid":
                content = json.dumps(
                    {"nodes": [{"operation": "explode", "node": {"confidence": 7}}]}
                )
            else:
                content = (
                    "```json\n"
                    + json.dumps(
                        SUMMARY
                        if "running summary" in system
                        else {**GOOD, "summaryPatch": model.summary_patch},
                        ensure_ascii=False,
                    )
                    + "\n```"
                )
            out = json.dumps(
                {"choices": [{"message": {"role": "assistant", "content": content}}]}
            ).encode()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout mode)

    return Handler


@pytest.fixture
def server() -> Iterator[tuple[str, FakeModel]]:
    model = FakeModel()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(model))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", model
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def llm_mem(
    backend: Backend, tmp_path: Path, server: tuple[str, FakeModel], clock: Clock
) -> Iterator[MemoryService]:
    url, _ = server
    config = MemoryConfig(
        llm=LlmConfig(
            base_url=url, model="test-model", api_key="sk-test", timeout_s=0.5, max_retries=1
        ),
        summary_every_messages=2,
    )
    mem = backend.open_memory(tmp_path, config=config)
    mem.clock = clock
    mem.extractor.client.backoff_s = 0.01  # type: ignore[attr-defined]
    yield mem
    mem.close()


def say(mem: MemoryService, text: str) -> Any:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", text)
    s.append_message("assistant", "好的")
    return s.after_reply()


def test_good_json_is_validated_and_written(
    llm_mem: MemoryService, server: tuple[str, FakeModel]
) -> None:
    _, model = server
    report = say(llm_mem, "记住，我以后做饭不要香菜。")
    assert report.errors == [] and [o["status"] for o in report.outcomes] == ["created"]
    [node] = llm_mem.user_store.list_active_nodes(limit=5)
    assert (node.key, node.value_json, node.origin) == ("avoid_ingredient", "香菜", "user_explicit")
    summary = llm_mem.get_latest_summary(session_id="s1")
    assert summary is not None and summary.current_goal == "推荐晚餐"
    req = model.requests[0]
    assert req["path"] == "/v1/chat/completions" and req["auth"] == "Bearer sk-test"
    assert (
        req["body"]["model"] == "test-model"
        and "记住，我以后做饭不要香菜。" in req["body"]["messages"][1]["content"]
    )


def test_the_extractors_summary_patch_reaches_the_next_summary(
    backend: Backend, tmp_path: Path, server: tuple[str, FakeModel], clock: Clock
) -> None:
    """The design doc's extraction output carries a summaryPatch: it asks for the summary
    (before the message count would) and the summarizer gets it, once."""
    from ekko_memory.service.extraction.protocol import SummaryInput
    from ekko_memory.service.extraction.rule_summarizer import RuleBasedSummarizer

    url, model = server
    config = MemoryConfig(
        llm=LlmConfig(base_url=url, model="test-model", timeout_s=2, max_retries=0),
        summary_every_messages=50,
    )
    mem = backend.open_memory(tmp_path, config=config)
    mem.clock = clock
    try:
        model.summary_patch = "用户在为周末聚餐做准备"
        report = say(mem, "记住，我以后做饭不要香菜。")
        assert report.errors == [] and report.summary_id is not None
        asked = [
            r for r in model.requests if "running summary" in r["body"]["messages"][0]["content"]
        ]
        assert (
            len(asked) == 1
            and "用户在为周末聚餐做准备" in asked[0]["body"]["messages"][1]["content"]
        )
        # Held by the summary now: the next short turn asks for none.
        model.summary_patch = None
        assert say(mem, "记住，我不吃葱。").summary_id is None
    finally:
        mem.close()

    # The rule summarizer writes the notes into the summary, one line each.
    draft = RuleBasedSummarizer().summarize(
        SummaryInput(session_id="s1", previous=None, messages=[], patches=("周末\n聚餐",))
    )
    assert draft.summary == "周末 聚餐"


@pytest.mark.parametrize("removal", ["hard delete", "purge"])
def test_a_failed_reply_quoting_a_memory_does_not_outlive_its_hard_delete(
    llm_mem: MemoryService, server: tuple[str, FakeModel], removal: str
) -> None:
    """The model is shown the user's memories; a malformed reply repeating one failed the
    extraction, and the retry queue kept the start of the reply as the job's error: the
    memory's text then survived its hard delete and its purge in the database file."""
    _, model = server
    secret = "暗号是青柠檬ZQV"
    made = llm_mem.actions.create(
        {"scope": "user", "domain": "生活技能", "type": "fact", "title": f"我的{secret}"},
        user_id="u1",
    )
    assert made.node_id is not None
    model.mode, model.quote = "quoting", secret
    report = say(llm_mem, "今晚吃什么？")
    assert report.errors and report.queued_jobs
    assert all("not JSON" in e and secret not in e for e in report.errors), report.errors
    with llm_mem.workspace_store.read() as r:
        assert r.count_jobs() == 2
    if removal == "hard delete":
        assert llm_mem.actions.delete(made.node_id, "hard") == [made.node_id]
    else:
        purged = llm_mem.purger.purge(PurgeFilter(query=secret))
        assert purged.verification is not None and purged.verification.clean, purged
    assert secret.encode() not in raw_bytes(llm_mem)
    with llm_mem.workspace_store.read() as r:
        assert r.count_jobs() == 2  # the work is still retried, without the text


@pytest.mark.parametrize("mode", ["malformed", "invalid", "timeout", "500"])
def test_failures_change_nothing_and_retry_later(
    llm_mem: MemoryService, server: tuple[str, FakeModel], clock: Clock, mode: str
) -> None:
    _, model = server
    model.mode = mode
    before = llm_mem.browse.stats()
    report = say(llm_mem, "记住，我以后做饭不要香菜。")
    assert report.outcomes == [] and report.errors
    assert len(report.queued_jobs) == 2  # extraction and summary, each queued once
    assert llm_mem.user_store.list_active_nodes(limit=5) == []
    assert llm_mem.get_latest_summary(session_id="s1") is None
    after = llm_mem.browse.stats()
    assert after["user"]["tables"] == before["user"]["tables"]
    with llm_mem.workspace_store.read() as r:
        assert r.count_jobs() == 2
    # Not due yet: nothing happens.
    assert llm_mem.retry_failed_work().retried_jobs == []
    model.mode = "good"
    clock.advance(minutes=5)
    retried = llm_mem.retry_failed_work()
    assert len(retried.retried_jobs) == 2, retried.errors
    [node] = llm_mem.user_store.list_active_nodes(limit=5)
    assert node.value_json == "香菜"
    assert llm_mem.get_latest_summary(session_id="s1") is not None
    with llm_mem.workspace_store.read() as r:
        assert r.count_jobs() == 0


def test_a_failed_retry_backs_off(
    llm_mem: MemoryService, server: tuple[str, FakeModel], clock: Clock
) -> None:
    _, model = server
    model.mode = "500"
    say(llm_mem, "记住，我以后做饭不要香菜。")
    clock.advance(minutes=1)
    assert llm_mem.retry_failed_work().retried_jobs == []
    with llm_mem.workspace_store.read() as r:
        jobs = r.due_jobs(clock() + timedelta(days=1))
    assert {j["attempts"] for j in jobs} == {2}
    assert all("HTTP 500" in (j["last_error"] or "") for j in jobs)


def test_a_config_typo_is_reported_where_people_look(tmp_path: Path) -> None:
    """A misspelt setting falls back to the defaults (no LLM) and says so, in one readable
    line, to the agent (context diagnostics) and on the command line."""
    from ekko_memory import open_memory
    from ekko_memory.interfaces.cli import main

    ws = tmp_path / "ws"
    (ws / ".ekko").mkdir(parents=True)
    (ws / ".ekko" / "config.json").write_text(
        json.dumps({"llm": {"base_url": "http://127.0.0.1:9/v1", "model": "m", "timeout": 5}}),
        encoding="utf-8",
    )
    mem = open_memory(ws, user_home=tmp_path / "home")
    warning = mem.config_warning
    assert warning is not None and "llm.timeout" in warning and "using defaults" in warning
    assert "pydantic.dev" not in warning and "\n" not in warning
    mem.session("s1").append_message("user", "你好")
    ctx = mem.session("s1").build_context("今晚吃什么？")
    assert warning in ctx.diagnostics.warnings
    mem.close()
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["--workspace", str(ws), "--user-home", str(tmp_path / "home"), "stats"])
    assert code == 0 and f"warning: {warning}" in err.getvalue()


def test_config_sections_and_shapes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A partial section_limits changes only what it names; a wrong section, a bad limit or
    a file that is not an object is a one-line warning (defaults used), never a crash or an
    empty context."""
    from ekko_memory import open_memory
    from ekko_memory.service.config import load_config

    folder = tmp_path / ".ekko"
    folder.mkdir()
    cfg = folder / "config.json"
    cfg.write_text(json.dumps({"section_limits": {"preferences": 1}}), encoding="utf-8")
    limits = load_config(folder).section_limits
    assert limits["preferences"] == 1 and limits["relevant_nodes"] == 5 and len(limits) == 7

    monkeypatch.setenv("EKKO_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("EKKO_LLM_MODEL", "m")
    for bad, words in [
        ({"section_limits": {"prefrences": 1}}, "unknown section prefrences"),
        ({"section_limits": {"facts": -1}}, "facts: a section holds 0 to 50"),
        ([], "must hold a JSON object"),
        (None, "must hold a JSON object"),
        ({"llm": "x"}, "llm must be an object"),
    ]:
        cfg.write_text(json.dumps(bad), encoding="utf-8")
        mem = open_memory(tmp_path, user_home=tmp_path / "home")
        try:
            assert mem.config_warning is not None and words in mem.config_warning, bad
            assert "\n" not in mem.config_warning
            s = mem.session("s1", user_id="u1")
            s.append_message("user", "你好")
            ctx = s.build_context("今晚吃什么？")
            assert not any("failed" in w for w in ctx.diagnostics.warnings), ctx.diagnostics
        finally:
            mem.close()
