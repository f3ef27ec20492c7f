"""Pause and pin through every entry point an agent or a person uses: a real MCP client
over stdio, the Hermes provider's bridge, and the ``ekko-memory`` command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import MemoryService, open_memory
from ekko_memory.integrations.hermes.bridge import HermesBridge, StartInfo
from ekko_memory.integrations.hermes.settings import HermesSettings
from ekko_memory.interfaces.cli import main
from tests.backends import Backend
from tests.core.helpers import propose
from tests.core.sample_data import CILANTRO

NO_CILANTRO = {"operation": "create", "reason": "用户要求记住", "node": CILANTRO}


def _remembered(mem: MemoryService) -> str:
    s = mem.session("s0", user_id="u1", workspace_id="w1")
    res = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)
    assert res["accepted"], res
    return str(res["nodeId"])


# --- MCP ------------------------------------------------------------------------------


def test_a_real_mcp_client_is_refused_while_paused_and_served_after(
    workspace: Path, tmp_path: Path
) -> None:
    pytest.importorskip("mcp")
    from mcp import Client

    from tests import mcp_stdio
    from tests.mcp_stdio import structured

    home = tmp_path / "home"
    mem = open_memory(workspace, user_home=home)
    try:
        node_id = _remembered(mem)
        mem.pause()
    finally:
        mem.close()
    params = mcp_stdio.server_params(workspace, home, "--user-id", "u1", "--workspace-id", "w1")

    async def body(client: Client) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, args in (
            ("memory_search", {"queryText": "香菜"}),
            ("memory_get", {"id": node_id}),
            (
                "memory_propose_update",
                {**NO_CILANTRO, "userMessage": "记住，我以后做饭不要香菜。"},
            ),
            ("memory_forget", {"id": node_id, "reason": "r"}),
        ):
            result = await client.call_tool(name, args)
            out[name] = (result.is_error, structured(result))
        context = await client.read_resource("ekko://memory/context")
        out["context"] = context.contents[0].text  # type: ignore[union-attr]
        # The user resumes from the app meanwhile (another process).
        other = open_memory(workspace, user_home=home)
        try:
            other.resume()
        finally:
            other.close()
        after = await client.call_tool("memory_get", {"id": node_id})
        out["after"] = (after.is_error, structured(after))
        return out

    out = mcp_stdio.with_client(params, body)
    for name in ("memory_search", "memory_get", "memory_propose_update", "memory_forget"):
        is_error, result = out[name]
        assert is_error is True, (name, result)
        assert result["error"]["reasonCode"] == "memory.paused", (name, result)
    assert "paused" in out["context"] and "香菜" not in out["context"]
    is_error, after = out["after"]
    assert is_error is False and after["found"] is True
    mem = open_memory(workspace, user_home=home)
    try:
        # Nothing the paused calls carried was logged (the trusted words neither).
        assert all("香菜" not in m.content for m in mem.list_recent_messages("mcp", 50))
    finally:
        mem.close()


def test_an_mcp_client_cannot_change_a_pinned_memory(workspace: Path, tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from mcp import Client

    from tests import mcp_stdio
    from tests.mcp_stdio import structured

    home = tmp_path / "home"
    mem = open_memory(workspace, user_home=home)
    try:
        node_id = _remembered(mem)
        mem.actions.pin(node_id)
    finally:
        mem.close()
    params = mcp_stdio.server_params(workspace, home, "--user-id", "u1", "--workspace-id", "w1")

    async def body(client: Client) -> list[tuple[bool, dict[str, Any]]]:
        out = []
        for name, args in (
            ("memory_forget", {"id": node_id, "reason": "忘掉", "userMessage": "忘掉香菜"}),
            (
                "memory_propose_update",
                {"operation": "expire", "targetId": node_id, "reason": "r"},
            ),
        ):
            result = await client.call_tool(name, args)
            out.append((result.is_error, structured(result)))
        return out

    for is_error, result in mcp_stdio.with_client(params, body):
        assert is_error is True and result["error"]["reasonCode"] == "node.pinned", result
    mem = open_memory(workspace, user_home=home)
    try:
        node = mem.get_node(node_id)
        assert node is not None and node.status == "active"
    finally:
        mem.close()


# --- Hermes ---------------------------------------------------------------------------


def test_the_hermes_provider_honours_pause(mem: MemoryService) -> None:
    node_id = _remembered(mem)
    bridge = HermesBridge(HermesSettings())
    bridge.start(StartInfo(session_id="h1", user_id="u1"), memory=mem)
    try:
        mem.pause()
        bridge.begin_turn("今晚吃什么？")
        assert bridge.prefetch("今晚吃什么？") == ""
        refused = bridge.call_tool("memory_propose_update", NO_CILANTRO)
        assert refused["error"]["reasonCode"] == "memory.paused"
        got = bridge.call_tool("memory_get", {"id": node_id})
        assert got["error"]["reasonCode"] == "memory.paused"
        bridge.sync_turn("今晚吃什么？", "番茄炒蛋。")
        assert bridge.pre_compress() == ""
        bridge.end_session()
        assert mem.background.wait_idle(10)
        assert mem.list_recent_messages("h1", 50) == []  # the turn was not logged
        mem.resume()
        bridge.switch_session("h2")
        bridge.begin_turn("今晚吃什么？")
        assert "香菜" in bridge.prefetch("今晚吃什么？")
        bridge.sync_turn("今晚吃什么？", "番茄炒蛋，不放香菜。")
        assert [m.role for m in mem.list_recent_messages("h2", 50)] == ["user", "assistant"]
    finally:
        bridge.shutdown()


def test_the_hermes_provider_cannot_change_a_pinned_memory(mem: MemoryService) -> None:
    node_id = _remembered(mem)
    mem.actions.pin(node_id)
    bridge = HermesBridge(HermesSettings())
    bridge.start(StartInfo(session_id="h1", user_id="u1"), memory=mem)
    try:
        bridge.begin_turn("忘掉我不吃香菜这件事")
        res = bridge.call_tool("memory_forget", {"id": node_id, "reason": "用户要求"})
        assert res["error"]["reasonCode"] == "node.pinned"
        # Hermes's built-in memory removing the same fact is mirrored, and refused too.
        bridge.mirror_write("remove", "user", "", "用户不吃香菜")
        node = mem.get_node(node_id)
        assert node is not None and node.status == "active"
    finally:
        bridge.shutdown()


# --- the command line -----------------------------------------------------------------


def _cli(backend: Backend, root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code = main([*backend.location_args(root), *args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_cli_pin_unpin_pause_resume(
    backend: Backend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mem = backend.open_memory(tmp_path)
    node_id = _remembered(mem)
    mem.close()
    code, doc = _cli(backend, tmp_path, capsys, "pin", node_id)
    assert code == 0 and doc == {
        "nodeId": node_id,
        "pinned": True,
        "changed": True,
        "reasonCode": "node.pinned",
    }
    assert _cli(backend, tmp_path, capsys, "pin", node_id)[1]["changed"] is False
    code, doc = _cli(backend, tmp_path, capsys, "pin", "mem_nothing")
    assert code == 3 and doc["error"]["code"] == "not_found"
    code, doc = _cli(backend, tmp_path, capsys, "pause")
    assert code == 0 and doc["paused"] is True and doc["reasonCode"] == "memory.paused"
    mem = backend.open_memory(tmp_path)
    try:
        assert mem.pause_state().paused and mem.actions.is_pinned(node_id)
    finally:
        mem.close()
    code, doc = _cli(backend, tmp_path, capsys, "resume")
    assert code == 0 and doc["paused"] is False and doc["reasonCode"] is None
    code, doc = _cli(backend, tmp_path, capsys, "unpin", node_id)
    assert code == 0 and doc["changed"] is True and doc["pinned"] is False
    # A refusal with a reason code says it in --json.
    code, doc = _cli(backend, tmp_path, capsys, "pin", "mem_00000000000000000000000001")
    assert code == 2 and doc["error"]["reasonCode"] == "node.global_read_only"


def test_cli_pause_as_a_real_process(workspace: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    mem = open_memory(workspace, user_home=home)
    mem.close()
    env = {**os.environ, "EKKO_HOME": str(home)}
    run = [sys.executable, "-m", "ekko_memory", "--workspace", str(workspace)]
    paused = subprocess.run(
        [*run, "pause"], capture_output=True, text=True, timeout=60, env=env, check=False
    )
    assert paused.returncode == 0 and "paused" in paused.stdout, paused.stderr
    mem = open_memory(workspace, user_home=home)
    try:
        assert mem.pause_state().paused
    finally:
        mem.close()
    resumed = subprocess.run(
        [*run, "resume", "--json"], capture_output=True, text=True, timeout=60, env=env
    )
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["paused"] is False


def test_cli_forget_about_a_word_and_delete_all(
    backend: Backend,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from tests.core.helpers import raw_bytes

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    from tests.core.sample_data import seed

    mem = backend.open_memory(tmp_path)
    seed(mem)
    mem.close()
    code, doc = _cli(backend, tmp_path, capsys, "forget-about", "香菜", "--dry-run")
    assert code == 0 and doc["dryRun"] is True
    assert (doc["memories"], doc["versions"], doc["messages"], doc["summaries"]) == (1, 1, 2, 1)
    assert doc["titles"] == ["用户不吃香菜"] and "plan" not in doc
    # Without --yes the question is asked; no answer means no.
    code, doc = _cli(backend, tmp_path, capsys, "forget-about", "香菜")
    assert code == 4 and doc["error"]["code"] == "declined"
    code, doc = _cli(backend, tmp_path, capsys, "forget-about", "香菜", "--yes")
    assert code == 0 and doc["memories"] == 1 and doc["messages"] == 2
    assert doc["report"]["verification"]["clean"] is True
    mem = backend.open_memory(tmp_path)
    assert "香菜".encode() not in raw_bytes(mem)
    mem.close()
    code, doc = _cli(backend, tmp_path, capsys, "forget-about")
    assert code == 2 and doc["error"]["code"] == "invalid_input"
    code, doc = _cli(backend, tmp_path, capsys, "delete-all", "--yes")
    assert code == 0 and doc["memories"] == 3 and doc["summaries"] == 1
    mem = backend.open_memory(tmp_path)
    try:
        assert mem.list_recent_messages("s1", 50) == []
        assert mem.preview_delete_all().empty
    finally:
        mem.close()
