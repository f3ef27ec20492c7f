"""The pause switch between an agent's writes: the tool calls keep its reading while only
their own writes commit (no read of the switch per write), yet a pause set by another
process, another connection or another thread stops the very next call."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import MemoryService, open_memory
from ekko_memory.service.session import MemorySession
from ekko_memory.store import marks
from tests.core.helpers import every_node


def _write(s: MemorySession, i: int, *, scope: str = "user") -> dict[str, Any]:
    node: dict[str, Any] = {
        "domain": "生活技能",
        "type": "preference",
        "key": "avoid_ingredient",
        "valueJson": f"食材{i}",
        "title": f"用户不吃食材{i}",
    }
    if scope == "workspace":
        node = {
            "scope": "workspace",
            "domain": "项目",
            "type": "constraint",
            "key": "coding_rule",
            "valueJson": f"规则{i}",
            "title": f"提交前必须通过检查{i}",
        }
    return s.call_tool(
        "memory_propose_update", {"operation": "create", "reason": "r", "node": node}
    )


def _refused(res: dict[str, Any]) -> bool:
    return res.get("error", {}).get("reasonCode") == "memory.paused"


def _count(mem: MemoryService) -> int:
    return len(every_node(mem))


@pytest.fixture
def opened(workspace: Path, tmp_path: Path) -> Any:
    home = tmp_path / "home"
    mem = open_memory(workspace, user_home=home)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，以后做饭这些食材都别给我放。")
    yield mem, s, workspace, home
    mem.close()


def test_a_pause_by_another_process_stops_the_next_write(opened: Any) -> None:
    mem, s, workspace, home = opened
    for i in range(5):  # the switch's reading is warm, kept across these writes
        assert _write(s, i, scope="workspace" if i % 2 else "user")["accepted"]
    before = _count(mem)
    env = {**os.environ, "EKKO_HOME": str(home)}
    run = [sys.executable, "-m", "ekko_memory", "--workspace", str(workspace)]
    done = subprocess.run([*run, "pause"], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    for scope in ("user", "workspace"):
        assert _refused(_write(s, 100, scope=scope))
    assert _refused(s.call_tool("memory_search", {"queryText": "食材"}))
    assert _count(mem) == before
    done = subprocess.run(
        [*run, "resume", "--json"], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0 and json.loads(done.stdout)["paused"] is False
    assert _write(s, 101)["accepted"]
    assert _count(mem) == before + 1


@pytest.mark.parametrize("which", ["user", "workspace"])
def test_a_pause_written_into_one_store_by_another_connection_is_seen(
    opened: Any, which: str
) -> None:
    mem, s, _, _ = opened
    for i in range(3):
        assert _write(s, i)["accepted"]
    store = mem.user_store if which == "user" else mem.workspace_store
    path = store.dialect.path
    assert path is not None
    # Another program (an older release, a repair) sets only this store's switch.
    other = sqlite3.connect(path)
    with other:
        other.execute(
            "INSERT OR REPLACE INTO memory_settings (name, value_json, updated_at)"
            " VALUES ('paused', ?, '2026-01-01T00:00:00.000000Z')",
            (json.dumps({"paused": True, "by": "user"}),),
        )
    other.close()
    assert _refused(_write(s, 50))
    assert mem.pause_state().paused


def test_a_pause_from_another_thread_or_the_same_one_stops_the_next_write(opened: Any) -> None:
    mem, s, _, _ = opened
    for i in range(3):
        assert _write(s, i)["accepted"]
    # Another thread of this process pauses (its own connections).
    t = threading.Thread(target=mem.pause)
    t.start()
    t.join()
    assert _refused(_write(s, 10))
    t = threading.Thread(target=mem.resume)
    t.start()
    t.join()
    assert _write(s, 11)["accepted"]
    # This thread pauses, on the connection its writes use.
    mem.pause()
    assert _refused(_write(s, 12))
    mem.resume()
    assert _write(s, 13)["accepted"]
    # A setting written on that connection by other code than ``mem.pause``.
    with mem.user_store.write() as w:
        marks.put_setting(w.conn, "paused", {"paused": True, "by": "user"}, mem.now())
    assert _refused(_write(s, 14))


def test_own_writes_leave_the_switch_unread(opened: Any) -> None:
    mem, s, _, _ = opened
    assert _write(s, 0)["accepted"]
    assert _write(s, 1, scope="workspace")["accepted"]
    seen: list[str] = []
    kept = []
    for store in (mem.user_store, mem.workspace_store):
        version = store.others_version()
        assert version is not None
        driver = version[0]
        assert isinstance(driver, sqlite3.Connection)
        driver.set_trace_callback(seen.append)
        kept.append(driver)
    try:
        for i in range(2, 6):
            assert _write(s, i, scope="workspace" if i % 2 else "user")["accepted"]
    finally:
        for driver in kept:
            driver.set_trace_callback(None)
    assert any(q.startswith("INSERT INTO memory_nodes ") for q in seen), seen
    assert not [q for q in seen if "memory_settings" in q], seen
