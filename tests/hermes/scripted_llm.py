"""A scripted OpenAI-compatible chat-completions server on loopback, for Hermes Agent.

Hermes always streams (``stream: true``) and probes a few model-listing URLs first; a
reply is text, a tool call, or a function of the request (a model that reads what a tool
returned). Non-streaming requests are Ekko's LLM extraction (answered from ``json_replies``) and
summaries. Every request is recorded.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """The model calls one tool."""

    name: str
    args: dict[str, Any]


Reply = str | ToolCall | Callable[[dict[str, Any]], "str | ToolCall"]


@dataclass
class ScriptedLLM:
    """Replies in order; ``chats``: the streamed requests Hermes made."""

    replies: list[Reply] = field(default_factory=list)
    json_replies: list[dict[str, Any]] = field(default_factory=list)
    chats: list[dict[str, Any]] = field(default_factory=list)
    json_requests: list[dict[str, Any]] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The base URL Hermes is given (``…/v1``)."""
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    def script(self, *replies: Reply) -> None:
        """What the model says next, turn by turn (one entry per streamed request)."""
        with self._lock:
            self.replies = list(replies)
            self.chats.clear()
            self.unexpected.clear()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    # --- the HTTP side --------------------------------------------------------------

    def _next(self, request: dict[str, Any]) -> str | ToolCall:
        with self._lock:
            if not self.replies:
                self.unexpected.append(json.dumps(request["messages"][-1], ensure_ascii=False))
                return "（脚本里没有更多回答）"
            reply = self.replies.pop(0)
        return reply(request) if callable(reply) else reply

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # model listings Hermes probes
                self._json({"object": "list", "data": [{"id": "scripted", "object": "model"}]})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.endswith("/chat/completions"):
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if body.get("stream"):
                    with llm._lock:
                        llm.chats.append(body)
                    self._stream(llm._next(body))
                    return
                system = str(body["messages"][0].get("content", ""))
                with llm._lock:
                    llm.json_requests.append(body)
                    if "extract long-term memories" in system and llm.json_replies:
                        answer = llm.json_replies.pop(0)
                    else:  # a summary, or an extraction that finds nothing
                        answer = {"summary": "（脚本摘要）", "nodes": []}
                self._json(_completion(json.dumps(answer, ensure_ascii=False)))

            def _json(self, data: dict[str, Any]) -> None:
                raw = json.dumps(data, ensure_ascii=False).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _stream(self, reply: str | ToolCall) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for chunk in _chunks(reply):
                    self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                self.wfile.write(b"data: [DONE]\n\n")

        return Handler


def _chunks(reply: str | ToolCall) -> list[dict[str, Any]]:
    """A reply as chat.completion.chunk events (text in two pieces, as models stream)."""
    base = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 0}
    base["model"] = "scripted"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    if isinstance(reply, ToolCall):
        call = {
            "index": 0,
            "id": f"call_{abs(hash(json.dumps(reply.args, sort_keys=True))) % 10**8}",
            "type": "function",
            "function": {
                "name": reply.name,
                "arguments": json.dumps(reply.args, ensure_ascii=False),
            },
        }
        return [chunk({"role": "assistant", "tool_calls": [call]}), chunk({}, "tool_calls")]
    half = len(reply) // 2
    return [
        chunk({"role": "assistant", "content": reply[:half]}),
        chunk({"content": reply[half:]}),
        chunk({}, "stop"),
    ]


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
