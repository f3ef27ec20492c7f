"""The MCP server, driven by the official SDK's client over stdio in a real subprocess."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import TOOL_SCHEMAS, open_memory

mcp = pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

from tests import mcp_stdio  # noqa: E402
from tests.mcp_stdio import structured  # noqa: E402

CILANTRO = {
    "scope": "user",
    "domain": "生活技能",
    "categoryPath": ["生活技能", "做饭", "饮食偏好"],
    "type": "preference",
    "key": "avoid_ingredient",
    "valueJson": "香菜",
    "title": "用户不吃香菜",
    "content": "用户明确要求以后做饭推荐不要香菜。",
    "confidence": 0.99,
    "importance": 0.95,
}


def server_params(workspace: Path, home: Path, *extra: str) -> StdioServerParameters:
    """The server bound to user u1 and workspace w1 (and the ``extra`` options)."""
    return mcp_stdio.server_params(
        workspace, home, "--user-id", "u1", "--workspace-id", "w1", *extra
    )


def run(
    workspace: Path,
    home: Path,
    body: Callable[[Client], Awaitable[Any]],
    *extra: str,
    mode: str = "auto",
) -> Any:
    """``body`` with a client of the server (started with the ``extra`` options)."""
    return mcp_stdio.with_client(server_params(workspace, home, *extra), body, mode=mode)


def test_tools_propose_search_forget_and_errors(workspace: Path, tmp_path: Path) -> None:
    """A client that passes what the user typed (the server trusts its userMessage):
    the user's "记住…" is remembered at once, their "忘掉…" forgets."""
    home = tmp_path / "home"

    async def body(client: Client) -> dict[str, Any]:
        listed = await client.list_tools()
        tools = {t.name: t for t in listed.tools}
        out: dict[str, Any] = {"tools": tools}
        out["propose"] = structured(
            await client.call_tool(
                "memory_propose_update",
                {
                    "operation": "create",
                    "node": CILANTRO,
                    "reason": "用户明确要求记录长期饮食偏好",
                    "userMessage": "记住，我以后做饭不要香菜。",
                },
            )
        )
        out["search"] = structured(await client.call_tool("memory_search", {"queryText": "香菜"}))
        # A malformed call: an unknown tool is an MCP error; the server stays up.
        with pytest.raises(MCPError, match="unknown tool"):
            await client.call_tool("memory_approve", {"pendingId": "pnd_x"})
        bad = await client.call_tool("memory_search", {"limit": "many"})
        out["bad"] = (bad.is_error, structured(bad))
        out["forget"] = structured(
            await client.call_tool(
                "memory_forget",
                {
                    "id": out["propose"]["nodeId"],
                    "reason": "用户要求忘记",
                    "userMessage": "忘掉我不吃香菜这件事。",
                },
            )
        )
        out["after"] = structured(await client.call_tool("memory_search", {"queryText": "香菜"}))
        out["alive"] = len((await client.list_tools()).tools)
        return out

    out = run(workspace, home, body, "--trust-user-message")

    tools = out["tools"]
    assert sorted(tools) == sorted(t["function"]["name"] for t in TOOL_SCHEMAS)
    for schema in TOOL_SCHEMAS:
        fn = schema["function"]
        mcp_schema = tools[fn["name"]].input_schema
        for name, prop in fn["parameters"]["properties"].items():
            assert mcp_schema["properties"][name] == prop
        assert mcp_schema.get("required", []) == fn["parameters"].get("required", [])
        assert {"sessionId", "userId", "workspaceId"} <= set(mcp_schema["properties"])
    assert tools["memory_search"].annotations.read_only_hint is True
    assert tools["memory_forget"].annotations.destructive_hint is True

    node_id = out["propose"]["nodeId"]
    assert out["propose"]["accepted"] is True and out["propose"]["status"] == "created"
    found = [n["id"] for n in out["search"]["exact"] + out["search"]["relevant"]]
    assert node_id in found
    hit = next(n for n in out["search"]["exact"] + out["search"]["relevant"] if n["id"] == node_id)
    assert hit["title"] == "用户不吃香菜" and hit["valueJson"] == "香菜"
    is_error, bad = out["bad"]
    assert is_error is True and bad["error"]["code"] == "invalid_arguments"
    assert bad["exact"] == [] and "limit" in bad["reason"]
    assert out["forget"]["deletedIds"] == [node_id] and out["forget"]["mode"] == "soft"
    assert node_id not in [n["id"] for n in out["after"]["exact"] + out["after"]["relevant"]]
    assert out["alive"] == 4

    # What the server wrote is real: the user's words are the source, the agent the actor.
    mem = open_memory(workspace, user_home=home)
    try:
        h = mem.history(node_id)
        assert h.chain[0].status == "deleted" and h.chain[0].user_id == "u1"
        assert [m.content for m in h.sources] == ["记住，我以后做饭不要香菜。"]
        assert {e.actor for e in h.audit} == {"agent"}
    finally:
        mem.close()


def test_binding_arguments_resource_and_prompt(workspace: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"

    async def body(client: Client) -> dict[str, Any]:
        s2 = structured(
            await client.call_tool(
                "memory_propose_update",
                {
                    "operation": "create",
                    "node": {
                        "type": "constraint",
                        "domain": "生活技能",
                        "key": "flavor_profile",
                        "valueJson": "清淡",
                        "title": "今天吃清淡点",
                    },
                    "reason": "临时状态",
                    "userMessage": "今天有点胃不舒服",
                    "sessionId": "s2",
                },
            )
        )
        resources = await client.list_resources()
        context = await client.read_resource("ekko://memory/context")
        prompt = await client.get_prompt("memory_context", {"message": "今晚吃什么？"})
        bad = await client.call_tool("memory_search", {"sessionId": 5})
        return {
            "bad": (bad.is_error, structured(bad)),
            "s2": s2,
            "uris": [str(r.uri) for r in resources.resources],
            "context": context.contents[0].text,  # type: ignore[union-attr]
            "prompt": prompt.messages[0].content.text,  # type: ignore[union-attr]
        }

    out = run(workspace, home, body, mode="legacy")  # the classic initialize handshake
    is_error, bad = out["bad"]
    assert is_error and bad["error"]["code"] == "invalid_arguments", bad
    assert "sessionId must be a non-empty string" in bad["reason"] and bad["exact"] == []
    assert out["s2"]["accepted"] is True
    assert out["uris"] == ["ekko://memory/context"]
    assert isinstance(out["context"], str) and isinstance(out["prompt"], str)
    mem = open_memory(workspace, user_home=home)
    try:
        node = mem.get_node(out["s2"]["nodeId"])
        assert node is not None and node.scope == "session" and node.session_id == "s2"
        assert node.workspace_id == "w1"
    finally:
        mem.close()


def test_a_refused_proposal_is_an_error_for_the_client(workspace: Path, tmp_path: Path) -> None:
    """A proposal the service refuses (a keyed memory without its value) tells the MCP
    client the call failed (``isError``), as malformed arguments do; one held for the
    user's approval is a result."""
    home = tmp_path / "home"
    keyless = {k: v for k, v in CILANTRO.items() if k != "valueJson"}

    async def body(client: Client) -> list[tuple[bool, dict[str, Any]]]:
        out = []
        for node, words in ((keyless, "记住，我以后做饭不要香菜。"), (CILANTRO, "我不太吃香菜")):
            result = await client.call_tool(
                "memory_propose_update",
                {"operation": "create", "node": node, "reason": "r", "userMessage": words},
            )
            out.append((result.is_error, structured(result)))
        return out

    (refused_error, refused), (held_error, held) = run(workspace, home, body)
    assert refused_error is True and refused["error"]["code"] == "invalid_input"
    assert "needs a value" in refused["reason"] and refused["accepted"] is False
    assert held_error is False and held["status"] == "pending" and "pendingId" in held


def _cilantro_in_the_user_store_and_a_damaged_workspace(workspace: Path, tmp_path: Path) -> Path:
    """The user store (returned) holds the cilantro preference; the workspace's database
    file is not a database."""
    home = tmp_path / "home"
    seed = open_memory(tmp_path / "elsewhere", user_home=home)
    s = seed.session("s0", user_id="u1", workspace_id="w0")
    s.append_message("user", "记住，我以后做饭不要香菜。")
    seeded = s.call_tool(
        "memory_propose_update", {"operation": "create", "node": CILANTRO, "reason": "用户要求"}
    )
    assert seeded["accepted"], seeded
    seed.close()
    (workspace / ".ekko").mkdir()
    (workspace / ".ekko" / "memory.db").write_bytes(b"this is not a database" * 100)
    return home


def test_a_workspace_store_that_cannot_open_gives_error_results_not_a_dead_server(
    workspace: Path, tmp_path: Path
) -> None:
    """The workspace file is not a database: the server still starts (it exited, and the
    client only saw "connection closed"); calls that need the store are error results
    that say why, and the user store still answers."""
    home = _cilantro_in_the_user_store_and_a_damaged_workspace(workspace, tmp_path)

    async def body(client: Client) -> dict[str, Any]:
        refused = await client.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "node": {**CILANTRO, "scope": "workspace", "title": "项目里不用香菜"},
                "reason": "项目约定",
            },
        )
        found = await client.call_tool("memory_search", {"queryText": "香菜"})
        return {"refused": (refused.is_error, structured(refused)), "found": structured(found)}

    out = run(workspace, home, body)
    is_error, refused = out["refused"]
    assert is_error is True and refused["error"]["code"] == "store_unavailable"
    assert "not a readable Ekko Memory database" in refused["reason"], refused
    assert any("workspace store disabled" in w for w in out["found"]["warnings"]), out["found"]
    found = out["found"]["exact"] + out["found"]["relevant"]
    assert "香菜" in [n.get("valueJson") for n in found], out["found"]


def test_the_context_resource_and_prompt_say_a_store_could_not_be_read(
    workspace: Path, tmp_path: Path
) -> None:
    """An MCP client has no diagnostics: the context it reads says a store could not be
    read (an empty one said "(no memories yet)", and the agent took it for knowing
    nothing about the user)."""
    home = _cilantro_in_the_user_store_and_a_damaged_workspace(workspace, tmp_path)

    async def body(client: Client) -> tuple[str, str]:
        context = await client.read_resource("ekko://memory/context")
        prompt = await client.get_prompt("memory_context", {"message": "今晚吃什么？"})
        return context.contents[0].text, prompt.messages[0].content.text  # type: ignore[union-attr]

    for text in run(workspace, home, body):
        assert "香菜" in text  # what the user store holds
        assert "(memory degraded: workspace store disabled:" in text, text
        assert "not a readable Ekko Memory database" in text


def test_garbage_on_stdin_does_not_kill_the_server(workspace: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    lines = [
        "this is not json",
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": ',
        # A lone surrogate escape, which the SDK's parser refuses: answered all the same.
        '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "memory_search",'
        ' "arguments": {"queryText": "\\ud800香菜", "userMessage": "\\\\ud800 \\ud83d\\ude00"}}}',
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "memory_get", "arguments": {"id": "mem_nothing"}},
            }
        ),
    ]
    proc = subprocess.Popen(
        [sys.executable, *server_params(workspace, home).args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "EKKO_HOME": str(home)},
    )
    replies: queue.Queue[dict[str, Any]] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            replies.put(json.loads(line))

    threading.Thread(target=read, daemon=True).start()
    assert proc.stdin is not None
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    got: dict[Any, dict[str, Any]] = {}
    while not {3, 4} <= set(got):  # keep stdin open until the last answers arrived
        message = replies.get(timeout=30)
        got[message.get("id")] = message
    proc.stdin.close()
    proc.wait(timeout=30)
    assert got[1]["result"]["serverInfo"]["name"] == "ekko-memory"
    assert got[3]["result"]["structuredContent"] == {"found": False, "reason": "no such memory"}
    assert "exact" in got[4]["result"]["structuredContent"], got[4]
    assert proc.returncode == 0


def test_the_server_keeps_a_bounded_number_of_session_handles(tmp_path: Path) -> None:
    """A client naming a new sessionId for every conversation: the server, running for
    weeks, keeps the recent handles only (a handle comes back for a recent binding)."""
    from ekko_memory.interfaces.aio import AsyncMemory
    from ekko_memory.interfaces.mcp_server import SESSION_HANDLES, Binding, MemoryMcp

    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    amem = AsyncMemory(mem)
    try:
        server = MemoryMcp(amem, Binding(user_id="u1"))
        first = server.session(Binding(session_id="keep", user_id="u1"))
        for i in range(SESSION_HANDLES * 3):
            server.session(Binding(session_id=f"conv-{i}", user_id="u1"))
            assert server.session(Binding(session_id="keep", user_id="u1")) is first
        assert len(server._sessions) == SESSION_HANDLES
    finally:
        asyncio.run(amem.aclose())
