"""The example agent loop runs from a fresh checkout and turns the conversation into memories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_example(tmp_path: Path, env: dict[str, str]) -> str:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "agent_loop.py"),
            "--workspace",
            str(tmp_path / "ws"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_echo_loop(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EKKO_LLM")}
    stdout = run_example(tmp_path, env)
    final = stdout.rsplit("用户> 今晚吃什么？", 1)[1]
    assert "最近胃不舒服，先别推荐辣的" in final  # the temporary constraint reached the prompt
    assert "用户可接受少量香菜" in final and "用户偏好少油少辣" in final
    assert "用户不吃香菜" not in final  # superseded


@pytest.fixture
def chat_server() -> Iterator[tuple[str, list[dict]]]:  # type: ignore[type-arg]
    seen: list[dict] = []  # type: ignore[type-arg]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            system = body["messages"][0]["content"]
            if "extract long-term memories" in system or "running summary" in system:
                message = {
                    "content": json.dumps(
                        {"nodes": []} if "extract" in system else {"summary": "ok"}
                    )
                }
            elif body["messages"][-1]["role"] == "user":
                message = {
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {
                                "name": "memory_search",
                                "arguments": json.dumps({"queryText": "香菜"}),
                            },
                        }
                    ],
                }
            else:
                message = {"content": "今晚做番茄炒蛋，少油。"}
            out = json.dumps({"choices": [{"message": {"role": "assistant", **message}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", seen
    httpd.shutdown()
    httpd.server_close()


def test_llm_loop_with_tool_calls(tmp_path: Path, chat_server: tuple[str, list[dict]]) -> None:  # type: ignore[type-arg]
    url, seen = chat_server
    env = {**os.environ, "EKKO_LLM_BASE_URL": url, "EKKO_LLM_MODEL": "fake"}
    stdout = run_example(tmp_path, env)
    assert "今晚做番茄炒蛋，少油。" in stdout
    chats = [b for b in seen if "tools" in b]
    assert chats and {t["function"]["name"] for t in chats[0]["tools"]} >= {
        "memory_search",
        "memory_propose_update",
    }
    tool_results = [m for b in chats for m in b["messages"] if m.get("role") == "tool"]
    assert tool_results and "exact" in json.loads(tool_results[0]["content"])
