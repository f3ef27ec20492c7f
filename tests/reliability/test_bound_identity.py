"""A bound identity stays bound: a session handle (in process, through the asyncio facade)
and an MCP server started with ``--user-id`` / ``--workspace-id`` answer for that user and
workspace only. A call naming another is an error result — never raised into the agent —
and reads or changes nothing; ``--allow-identity-override`` is the explicit way out."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import MemoryService, open_memory
from ekko_memory.aio import AsyncMemory
from ekko_memory.store.filters import NodeFilter


def avoid(food: str) -> dict[str, Any]:
    return {
        "scope": "user",
        "domain": "生活技能",
        "type": "preference",
        "key": "avoid_ingredient",
        "valueJson": food,
        "title": f"不吃{food}",
    }


def seed(mem: MemoryService) -> dict[str, str]:
    """Two users' memories in one store pair (a server run for a team): u1 avoids 香菜,
    u2 avoids 花生 — and u2's workspace w2 has a decision of its own."""
    ids = {}
    for user, workspace, food in (("u1", "w1", "香菜"), ("u2", "w2", "花生")):
        made = mem.actions.create(avoid(food), user_id=user, workspace_id=workspace)
        assert made.node_id is not None
        ids[user] = made.node_id
    decision = mem.actions.create(
        {
            "scope": "workspace",
            "domain": "项目",
            "type": "decision",
            "key": "database",
            "valueJson": "MySQL",
            "title": "w2 用 MySQL",
        },
        workspace_id="w2",
    )
    assert decision.node_id is not None
    ids["w2"] = decision.node_id
    return ids


def state(mem: MemoryService) -> list[tuple[str, str]]:
    statuses = ("active", "superseded", "expired", "deleted")
    nodes = []
    for _, store in mem.stores():
        with store.read() as r:
            nodes += r.find_nodes(NodeFilter(statuses=statuses), limit=None)
    return sorted((n.id, n.status) for n in nodes) + sorted(
        (p.id, p.status) for p in mem.pending(status=None)
    )


def foreign_calls(ids: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """Each tool, naming user u2 or workspace w2 (camelCase and snake_case alike)."""
    return [
        ("memory_search", {"queryText": "花生", "userId": "u2"}),
        ("memory_search", {"queryText": "MySQL", "workspace_id": "w2"}),
        ("memory_get", {"id": ids["u2"], "userId": "u2"}),
        (
            "memory_propose_update",
            {"operation": "create", "node": avoid("葱"), "reason": "r", "userId": "u2"},
        ),
        (
            "memory_propose_update",
            {"operation": "expire", "targetId": ids["w2"], "reason": "r", "workspaceId": "w2"},
        ),
        ("memory_forget", {"id": ids["u2"], "reason": "r", "user_id": "u2"}),
        ("memory_search", {"queryText": "花生", "sessionId": "someone-elses"}),
    ]


@pytest.fixture
def mem(tmp_path: Path):  # type: ignore[no-untyped-def]
    m = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    yield m
    m.close()


def test_a_session_handle_answers_for_its_own_identity_only(mem: MemoryService) -> None:
    """memory_search took userId / workspaceId / sessionId (a MemoryQuery's fields) and
    silently replaced them; the other tools refused them as unknown. Each is now a clear
    refusal; naming the session's own identity is harmless."""
    ids = seed(mem)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，我以后不吃葱。")
    before = state(mem)
    for name, args in foreign_calls(ids):
        result = s.call_tool(name, args)
        assert result["error"]["code"] == "permission_denied", (name, result)
        assert "answers for" in result["reason"] and "nothing was" in result["reason"]
        assert "花生" not in str(result) and "MySQL" not in str(result)
    assert state(mem) == before
    own = s.call_tool(
        "memory_search",
        {"queryText": "不吃", "scopes": ["user"], "userId": "u1", "workspaceId": "w1"},
    )
    assert [n["id"] for n in own["exact"] + own["relevant"]] == [ids["u1"]]


def test_the_asyncio_facade_keeps_the_binding(mem: MemoryService) -> None:
    ids = seed(mem)
    before = state(mem)

    async def main() -> list[dict[str, Any]]:
        amem = AsyncMemory(mem)
        s = amem.session("s1", user_id="u1", workspace_id="w1")
        try:
            return [await s.call_tool(name, args) for name, args in foreign_calls(ids)]
        finally:
            amem._executor.shutdown(wait=True)

    results = asyncio.run(main())
    assert [r["error"]["code"] for r in results] == ["permission_denied"] * len(results)
    assert state(mem) == before


# --- the MCP server ------------------------------------------------------------------------


def _seeded(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    try:
        return ws, home, seed(mem)
    finally:
        mem.close()


def _over_mcp(
    ws: Path, home: Path, calls: list[tuple[str, dict[str, Any]]], *options: str
) -> list[tuple[bool, dict[str, Any]]]:
    """(isError, result) of each call, from a real MCP client over stdio."""
    pytest.importorskip("mcp")
    from tests.mcp_stdio import server_params, structured, with_client

    async def body(client: Any) -> list[tuple[bool, dict[str, Any]]]:
        out = []
        for name, args in calls:
            result = await client.call_tool(name, args)
            out.append((result.is_error, structured(result)))
        # The server is still up and answering.
        assert len((await client.list_tools()).tools) == 4
        return out

    return with_client(server_params(ws, home, *options), body)  # type: ignore[no-any-return]


BOUND = ("--user-id", "u1", "--workspace-id", "w1")


def test_a_bound_mcp_server_refuses_another_identity(tmp_path: Path) -> None:
    ws, home, ids = _seeded(tmp_path)
    mem = open_memory(ws, user_home=home)
    before = state(mem)
    mem.close()
    # sessionId names a conversation, not an identity: the MCP server takes it per call.
    calls = [c for c in foreign_calls(ids) if "sessionId" not in c[1]]
    results = _over_mcp(ws, home, calls, *BOUND)
    for (name, _), (is_error, result) in zip(calls, results, strict=True):
        assert is_error, (name, result)
        assert result["error"]["code"] == "permission_denied", (name, result)
        assert "花生" not in str(result) and "MySQL" not in str(result)
    camel = [r for (_, a), (_, r) in zip(calls, results, strict=True) if "userId" in a]
    assert all("answers for --user-id 'u1' only" in r["reason"] for r in camel)
    mem = open_memory(ws, user_home=home)
    try:
        assert state(mem) == before
        assert mem.list_recent_messages(session_id="mcp", limit=5) == []
    finally:
        mem.close()


def test_identity_override_and_an_unbound_server_take_the_calls_identity(tmp_path: Path) -> None:
    """--allow-identity-override (explicit) lets a call name another user; a server started
    without --user-id has no identity to keep and takes the call's."""
    ws, home, ids = _seeded(tmp_path)
    search = [("memory_search", {"queryText": "花生", "userId": "u2"})]
    for options in ((*BOUND, "--allow-identity-override"), ()):
        [(is_error, found)] = _over_mcp(ws, home, search, *options)
        assert not is_error, found
        assert ids["u2"] in [n["id"] for n in found["exact"] + found["relevant"]], options
    # The bound server itself still reads its own user's memories.
    mine = [("memory_search", {"queryText": "不吃", "scopes": ["user"]})]
    [(_, own)] = _over_mcp(ws, home, mine, *BOUND)
    assert [n["id"] for n in own["exact"] + own["relevant"]] == [ids["u1"]]
