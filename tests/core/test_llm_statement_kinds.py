"""The LLM extractor's answer for each kind of statement, from a scripted chat-completions
server on loopback: validated, written through the governed path, and checked against the
user's words (a value the user never said waits for them, and is never shown as theirs)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import LlmConfig, MemoryConfig, MemoryService
from ekko_memory.models import MemoryNode
from tests.backends import Backend
from tests.core.conftest import Clock

Reply = Callable[[dict[str, Any]], dict[str, Any]]


class Script:
    """What the model answers: a function of the request's user prompt."""

    def __init__(self) -> None:
        self.reply: Reply = lambda _: {"summaryPatch": None, "nodes": []}
        self.systems: list[str] = []


@pytest.fixture
def script() -> Iterator[tuple[str, Script]]:
    model = Script()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            system, prompt = body["messages"][0]["content"], body["messages"][-1]["content"]
            model.systems.append(system)
            if "running summary" in system:
                answer: dict[str, Any] = {"summary": "…"}
            else:
                known = json.loads(prompt.split("\n\nNew messages:")[0])["knownMemories"]
                answer = model.reply({"prompt": prompt, "known": known})
            out = json.dumps(
                {"choices": [{"message": {"role": "assistant", "content": json.dumps(answer)}}]}
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", model
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def llm(
    backend: Backend, tmp_path: Path, script: tuple[str, Script], clock: Clock
) -> Iterator[tuple[MemoryService, Script]]:
    url, model = script
    mem = backend.open_memory(
        tmp_path, config=MemoryConfig(llm=LlmConfig(base_url=url, model="m", max_retries=0))
    )
    mem.clock = clock
    yield mem, model
    mem.close()


def say(mem: MemoryService, text: str, session: str = "s1") -> None:
    s = mem.session(session, user_id="u1", workspace_id="w1")
    s.append_message("user", text)
    s.append_message("assistant", "好的。")
    report = s.after_reply()
    assert not report.errors, report.errors


def node(**fields: Any) -> dict[str, Any]:
    return {"operation": "create", "reason": "stated", "node": fields}


def everything(mem: MemoryService) -> tuple[list[MemoryNode], list[dict[str, Any]]]:
    active = [n for _, st in mem.stores() for n in st.list_active_nodes(limit=100)]
    waiting = [p.node or {} for p in mem.pending()]
    return active, waiting


def context(mem: MemoryService, text: str) -> str:
    return mem.session("later", user_id="u1", workspace_id="w1").build_context(text).render()


def test_the_prompt_names_every_kind_in_both_languages(llm: tuple[MemoryService, Script]) -> None:
    mem, model = llm
    say(mem, "我住在杭州。")
    system = model.systems[0]
    for words in (
        "fact about the user",
        "preference or dislike",
        "temporary state",
        "plan or task",
        "reported done",
        "decision or rule",
        "correction",
        "retraction",
        "someone else",
        "hypothetical",
        "small talk",
        "别记我喜欢鸭血了",
        "what if I moved to Berlin",
    ):
        assert words in system, words


def test_a_fact_about_the_user_waits_and_reaches_the_context_unconfirmed(
    llm: tuple[MemoryService, Script],
) -> None:
    mem, model = llm
    model.reply = lambda _: {
        "nodes": [
            node(
                scope="user",
                domain="个人",
                type="fact",
                key="city",
                valueJson="杭州",
                title="住在杭州",
            )
        ]
    }
    say(mem, "我住在杭州。")
    active, waiting = everything(mem)
    assert active == [] and [(w["key"], w["valueJson"]) for w in waiting] == [("city", "杭州")]
    assert "杭州" in context(mem, "周末去哪玩？")


def test_a_value_the_user_never_said_waits_unshown(llm: tuple[MemoryService, Script]) -> None:
    """The model says Beijing; the user said Hangzhou: it waits (unverified_value), and the
    context does not present it as something the user said."""
    mem, model = llm
    model.reply = lambda _: {
        "nodes": [
            node(
                scope="workspace",
                domain="项目",
                type="decision",
                key="database",
                valueJson="MySQL",
                title="数据库用 MySQL",
            )
        ]
    }
    say(mem, "我们数据库决定用 PostgreSQL。")
    active, _ = everything(mem)
    assert active == []
    [item] = mem.pending()
    assert item.rule == "unverified_value" and (item.node or {})["valueJson"] == "mysql"
    assert "MySQL" not in context(mem, "数据库用什么？")


def test_someone_elses_fact_is_filed_as_theirs(llm: tuple[MemoryService, Script]) -> None:
    mem, model = llm
    model.reply = lambda _: {
        "nodes": [
            node(
                scope="user",
                domain="人物",
                categoryPath=["人物", "儿子"],
                type="fact",
                key="allergy",
                valueJson={"person": "儿子", "allergen": "花生"},
                title="儿子对花生过敏",
            )
        ]
    }
    say(mem, "我儿子对花生过敏。")
    _, waiting = everything(mem)
    assert [(w["domain"], w["categoryPath"], w["valueJson"]) for w in waiting] == [
        ("人物", ["人物", "儿子"], {"allergen": "花生", "person": "儿子"})
    ]


def test_a_temporary_state_and_a_dated_task_are_written_with_their_times(
    llm: tuple[MemoryService, Script],
) -> None:
    mem, model = llm
    tonight = mem.now().replace(hour=23, minute=59).isoformat()
    model.reply = lambda _: {
        "nodes": [
            node(
                scope="workspace",
                domain="个人",
                type="constraint",
                key="temporary_state",
                valueJson="今天有点累，晚饭想简单点",
                title="今天有点累，晚饭想简单点",
                expiresAt=tonight,
            ),
            node(
                scope="workspace",
                domain="个人",
                type="task",
                key="task_status",
                valueJson={"task": "交季度报告", "status": "todo"},
                title="周五前交季度报告",
            ),
        ]
    }
    say(mem, "今天有点累，晚饭想简单点。周五前要交季度报告。")
    active, waiting = everything(mem)
    assert waiting == []
    assert {(n.type, n.key) for n in active} == {
        ("constraint", "temporary_state"),
        ("task", "task_status"),
    }
    assert all(n.expires_at is not None for n in active if n.type == "constraint")


def test_a_retraction_expires_what_it_names_and_writes_nothing(
    llm: tuple[MemoryService, Script],
) -> None:
    mem, model = llm
    model.reply = lambda _: {
        "nodes": [
            node(
                scope="workspace",
                domain="个人",
                type="constraint",
                key="temporary_state",
                valueJson="这周在减肥",
                title="这周在减肥",
                expiresAt="2026-12-31T00:00:00Z",
            )
        ]
    }
    say(mem, "这周在减肥。")
    [diet] = everything(mem)[0]
    model.reply = lambda req: {
        "nodes": [
            {
                "operation": "expire",
                "targetId": req["known"][0]["id"],
                "reason": "the user took it back",
            }
        ]
    }
    say(mem, "别记我在减肥了。")
    active, waiting = everything(mem)
    assert active == [] and waiting == []
    assert mem.get_node(diet.id).status == "expired"  # type: ignore[union-attr]


def test_a_correction_supersedes_with_exactly_the_new_value(
    llm: tuple[MemoryService, Script],
) -> None:
    mem, model = llm
    model.reply = lambda _: {
        "nodes": [
            node(
                scope="workspace",
                domain="项目",
                type="decision",
                key="database",
                valueJson="PostgreSQL",
                title="数据库用 PostgreSQL",
            )
        ]
    }
    say(mem, "我们数据库用 PostgreSQL。")
    [old] = everything(mem)[0]
    model.reply = lambda req: {
        "nodes": [
            {
                "operation": "supersede",
                "targetId": req["known"][0]["id"],
                "reason": "correction",
                "node": {"valueJson": "MySQL", "title": "数据库用 MySQL"},
            }
        ]
    }
    say(mem, "不对，数据库改用 MySQL。")
    [new] = everything(mem)[0]
    assert new.supersedes_id == old.id and new.value_json == "mysql"


@pytest.mark.parametrize(
    "said", ["如果我搬去柏林，房租会便宜吗？", "What if I moved to Berlin?", "今天天气真好！"]
)
def test_questions_suppositions_and_small_talk_write_nothing(
    llm: tuple[MemoryService, Script], said: str
) -> None:
    mem, _model = llm
    say(mem, said)
    assert everything(mem) == ([], [])
