"""Hostile files: each opens as a disabled or read-only store with a diagnostic, and the agent
keeps working through the runtime (contexts, tool calls, replies)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import open_memory
from ekko_memory.service.runtime import AgentRuntime
from tests.unprivileged import run_unprivileged


def _valid(path: Path) -> None:
    mem = open_memory(path.parent.parent, user_home=path.parent.parent / "home")
    s = mem.session("s0", user_id="u1")
    for i in range(200):
        s.append_message("user", f"消息 {i} " + "内容" * 100)
    mem.close()


def truncated(path: Path) -> None:
    _valid(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def random_bytes(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(os.urandom(96 * 1024))


def empty_file_with_garbage_wal(path: Path) -> None:
    _valid(path)
    Path(str(path) + "-wal").write_bytes(os.urandom(64 * 1024))


def directory(path: Path) -> None:
    path.mkdir(parents=True)


def newer_schema(path: Path) -> None:
    _valid(path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO memory_schema_migrations VALUES (999, '2031-01-01T00:00:00.000000Z')"
        )


def read_only(path: Path) -> None:
    _valid(path)
    path.chmod(0o444)
    path.parent.chmod(0o555)


def sqlite_but_foreign(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE memory_nodes (x TEXT)")
        conn.execute("INSERT INTO memory_nodes VALUES ('not ours')")


CASES: dict[str, tuple[Callable[[Path], None], set[str]]] = {
    "truncated": (truncated, {"disabled"}),
    "random bytes": (random_bytes, {"disabled"}),
    "garbage WAL": (empty_file_with_garbage_wal, {"ok"}),
    "directory": (directory, {"disabled"}),
    "newer schema": (newer_schema, {"disabled"}),
    "foreign sqlite file": (sqlite_but_foreign, {"disabled"}),
    # Run as a user without privileges (root would write anyway): tests/unprivileged.py.
    "read-only": (read_only, {"readonly"}),
}


def exercise(ws: Path, home: Path) -> dict[str, Any]:
    """Open the workspace and take one agent turn on it (context, a tool call, the reply):
    what the agent saw. Never raises for a hostile file."""
    mem = open_memory(ws, user_home=home)
    try:
        health = mem.health()["workspace"]
        rt = AgentRuntime(mem, "s1", user_id="u1", background=False)
        turn = rt.before_model("记住，我以后做饭不要香菜。")
        result = rt.session.call_tool("memory_search", {"queryText": "香菜"})
        rt.after_model("好的，记住了。", turn)  # never raises
        return {
            "status": health.status,
            "reason": health.reason,
            "context_status": turn.context.diagnostics.store_status,
            "warnings": turn.context.diagnostics.warnings,
            "search_answered": isinstance(result, dict),
        }
    finally:
        mem.close()


UNPRIVILEGED_CHECK = """
from pathlib import Path
from tests.reliability.test_hostile_files import exercise

def check(folder):
    return exercise(Path(folder) / "ws", Path(folder) / "home")
"""


def _read_only_workspace(folder: Path) -> Path:
    read_only(folder / "ws" / ".ekko" / "memory.db")
    home = folder / "home"
    home.mkdir(exist_ok=True)
    home.chmod(0o777)  # the user store stays writable for the unprivileged run
    return folder


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_workspace_file(tmp_path: Path, case: str) -> None:
    make, expected = CASES[case]
    if case == "read-only":
        seen = run_unprivileged(UNPRIVILEGED_CHECK, _read_only_workspace)
    else:
        make(tmp_path / "ws" / ".ekko" / "memory.db")
        seen = exercise(tmp_path / "ws", tmp_path / "home")
    assert seen["status"] in expected, (case, seen)
    assert seen["context_status"] in ("ok", "degraded")
    assert seen["search_answered"]
    if seen["status"] != "ok":
        assert seen["reason"], "a broken store must say why"
        assert any("workspace store" in w for w in seen["warnings"])
