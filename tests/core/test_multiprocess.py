"""Several processes on one pair of store files: what one process writes while another is
between its look and its write.

Each race is made deterministic: the test's own process is stopped at the point that
matters (a hook on the method it is about to leave or enter) and a real second process
(``python -c``) does its write on the same files there, then the first one goes on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import MemoryService, open_memory
from ekko_memory.errors import Conflict
from ekko_memory.interfaces.tools import dispatch
from ekko_memory.service import governance
from ekko_memory.store.sql_store import SqlStore
from tests.core.helpers import COOKING, every_node

pytestmark = pytest.mark.sqlite_only(reason="real processes on one SQLite file")

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(ROOT / "core"), *filter(None, [env.get("PYTHONPATH")])]
    )
    return env


def other_process(ws: Path, home: Path, body: str) -> str:
    """Run ``body`` in another Python process with ``mem`` open on the same files; its stdout."""
    code = (
        "from ekko_memory import open_memory\n"
        f"mem = open_memory({str(ws)!r}, user_home={str(home)!r})\n"
        + textwrap.dedent(body)
        + "\nmem.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


_SERVE = """
import json, sys
from ekko_memory import open_memory
mem = open_memory(sys.argv[1], user_home=sys.argv[2])
print("ready", flush=True)
for line in sys.stdin:
    exec(json.loads(line), {"mem": mem})
    print("<<done>>", flush=True)
mem.close()
"""


class LongLived:
    """Another process with the memory open from the start (an agent, the MCP server),
    running snippets on request; the memory is ``mem`` in them."""

    def __init__(self, ws: Path, home: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVE, str(ws), str(home)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=_env(),
        )
        assert self._line() == "ready"

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the other process ended ({self.proc.wait(timeout=10)})"
        return line.strip()

    def run(self, body: str) -> str:
        """Run ``body`` there; what it printed."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(textwrap.dedent(body)) + "\n")
        self.proc.stdin.flush()
        out = []
        while (line := self._line()) != "<<done>>":
            out.append(line)
        return "\n".join(out)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def flavor(spicy: str, title: str, scope: str) -> dict[str, Any]:
    return {
        "scope": scope,
        "domain": "生活技能",
        "categoryPath": COOKING,
        "type": "preference",
        "key": "flavor_profile",
        "valueJson": {"spicy": spicy},
        "title": title,
    }


def active_flavors(mem: MemoryService, scope: str) -> list[str]:
    return [
        n.id
        for n in every_node(mem)
        if n.key == "flavor_profile" and n.scope == scope and n.status == "active"
    ]


def test_an_approval_replans_when_another_process_wrote_the_key_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app approves "爱吃辣" (held: no explicit intent) while an agent in another
    process stores "少辣" the user asked for: the approval, the newer statement, replaces
    it. It looked before the agent wrote; it must not insert a second active version of
    the one-value key beside it."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "我挺喜欢吃辣的")
    held = s.call_tool(
        "memory_propose_update",
        {"operation": "create", "node": flavor("high", "爱吃辣", "user"), "reason": "t"},
    )
    assert held["status"] == "pending", held
    agent = f"""
        s = mem.session("s2", user_id="u1", workspace_id="w1")
        s.append_message("user", "记住，我以后做饭少辣")
        r = s.call_tool("memory_propose_update", {{"operation": "create",
            "node": {flavor("low", "少辣", "user")!r}, "reason": "the user said so"}})
        print(r["nodeId"] if r["accepted"] else r)
    """
    looked = governance.Governor.current_match
    written: list[str] = []

    def look_then_agent_writes(self: governance.Governor, r: Any, cand: Any) -> Any:
        match = looked(self, r, cand)
        if not written:
            written.append(other_process(ws, home, agent))
        return match

    monkeypatch.setattr(governance.Governor, "current_match", look_then_agent_writes)
    try:
        result = mem.decide(held["pendingId"], approve=True, actor="user")
        assert result["status"] == "approved"
        assert written and written[0].startswith("mem_"), written
        assert active_flavors(mem, "user") == [result["nodeId"]]
        assert mem.get_node(result["nodeId"]).supersedes_id == written[0]  # type: ignore[union-attr]
    finally:
        mem.close()


def _promotion(tmp_path: Path) -> tuple[Path, Path, MemoryService, str, str]:
    """A workspace memory and a held proposal to move it into the user's scope."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "这个项目里做饭少辣")
    made = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "node": flavor("low", "少辣", "workspace"),
            "reason": "the user said so",
        },
    )
    s.append_message("user", "我一般都微辣")
    held = s.call_tool(
        "memory_propose_update",
        {
            "operation": "update",
            "targetId": made["nodeId"],
            "node": flavor("medium", "微辣", "user"),
            "reason": "the user said so",
        },
    )
    assert held.get("rule") == "scope_promotion", held
    return ws, home, mem, made["nodeId"], held["pendingId"]


def test_one_promotion_approved_from_two_processes_leaves_one_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app and the CLI approve the same move into the user's scope at once: the second
    finds it done. It must not leave its own copy active beside the first (the move writes
    two files, the user store first)."""
    ws, home, mem, _, pid = _promotion(tmp_path)
    replace = governance.Governor.write_replacement
    other: list[str] = []

    def cli_approves_first(self: governance.Governor, *a: Any, **k: Any) -> Any:
        if not other:
            other.append(other_process(ws, home, f"print(mem.decide({pid!r}, approve=True))"))
        return replace(self, *a, **k)

    monkeypatch.setattr(governance.Governor, "write_replacement", cli_approves_first)
    try:
        with pytest.raises(Conflict, match="meanwhile"):
            mem.decide(pid, approve=True, actor="user")
        assert "approved" in other[0]
        assert len(active_flavors(mem, "user")) == 1
        assert [i.status for i in mem.pending(status=None)] == ["approved"]
    finally:
        mem.close()


def _before_second_step(
    monkeypatch: pytest.MonkeyPatch, mem: MemoryService, then: Callable[[], None]
) -> None:
    """Run ``then`` once, when a two-file replacement has written the new version (in
    the user store) and is about to open the workspace store for its second step."""
    opened = SqlStore.write
    replace = governance.Governor.write_replacement
    moving: list[bool] = []

    def second_step(store: SqlStore) -> Any:
        if store is mem.workspace_store and moving == [True]:
            moving.append(True)
            then()
        return opened(store)

    def mark_moving(self: governance.Governor, *a: Any, **k: Any) -> Any:
        moving.append(True)
        return replace(self, *a, **k)

    monkeypatch.setattr(governance.Governor, "write_replacement", mark_moving)
    monkeypatch.setattr(SqlStore, "write", second_step)


def test_a_move_refused_in_its_second_file_is_withdrawn_from_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the approved move is between its two files (the new version written in the
    user store), an agent in another process replaces the workspace memory. The move is
    refused; its new version must not stay active in the user store, superseding a
    memory that someone else's version replaced, and the user's own flavor it would have
    replaced there is back as it was."""
    ws, home, mem, target, pid = _promotion(tmp_path)
    s0 = mem.session("s0", user_id="u1", workspace_id="w1")
    s0.append_message("user", "记住，我做饭要特辣")
    own = s0.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "node": flavor("high", "特辣", "user"),
            "reason": "the user said so",
        },
    )
    assert own.get("status") == "created", own
    agent = LongLived(ws, home)
    said: list[str] = []
    _before_second_step(
        monkeypatch,
        mem,
        lambda: said.append(
            agent.run(f"""
                s = mem.session("s2", user_id="u1", workspace_id="w1")
                s.append_message("user", "这个项目里做饭不要辣")
                print(s.call_tool("memory_propose_update", {{"operation": "update",
                    "targetId": {target!r},
                    "node": {flavor("none", "不辣", "workspace")!r}, "reason": "said so"}}))
            """)
        ),
    )
    try:
        with pytest.raises(Conflict, match="changed meanwhile"):
            mem.decide(pid, approve=True, actor="user")
        assert "'accepted': True" in said[0], said
        assert active_flavors(mem, "user") == [own["nodeId"]]
        restored = mem.history(own["nodeId"]).audit
        assert sorted(e.event_type for e in restored if e.event_type in ("expire", "restore")) == [
            "expire",
            "restore",
        ]
        assert len(active_flavors(mem, "workspace")) == 1
        assert [i.status for i in mem.pending(status=None)] == ["pending"]
    finally:
        agent.close()
        mem.close()


def test_a_process_opening_during_a_move_does_not_undo_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI starts while the app's approved move is between its two files. Opening
    repairs writes a crash cut short, and cannot tell this one from those: it marks the
    workspace memory superseded by the new version. The move must then finish as done
    (one active version, the item approved), not fail on a memory "changed meanwhile"."""
    ws, home, mem, _, pid = _promotion(tmp_path)
    said: list[str] = []
    _before_second_step(
        monkeypatch,
        mem,
        lambda: said.append(other_process(ws, home, "print(len(mem.pending()))")),
    )
    try:
        result = mem.decide(pid, approve=True, actor="user")
        assert said == ["1"]
        assert active_flavors(mem, "user") == [result["nodeId"]]
        assert active_flavors(mem, "workspace") == []
        assert [i.status for i in mem.pending(status=None)] == ["approved"]
    finally:
        mem.close()


def avoid(ingredient: str) -> dict[str, Any]:
    return {
        "scope": "user",
        "domain": "生活技能",
        "categoryPath": COOKING,
        "type": "preference",
        "key": "avoid_ingredient",
        "valueJson": ingredient,
        "title": f"不吃{ingredient}",
    }


def test_a_proposal_rests_on_the_newest_user_message_whoever_logged_it(tmp_path: Path) -> None:
    """The agent's tool process (an MCP server trusted with userMessage) logged "记住…"
    itself earlier; since then the agent's host, another process, logged the conversation
    on. A proposal naming no source rests on the newest user message of the session,
    which asks nothing to be remembered: it waits for the user, and its source is that
    message, not the older one this process happened to append."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    try:
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        first = dispatch(
            s,
            "memory_propose_update",
            {
                "operation": "create",
                "userMessage": "记住，我以后做饭不要放葱",
                "node": avoid("葱"),
                "reason": "the user said so",
            },
            trust_user_message=True,
        )
        assert first["accepted"], first
        newest = other_process(
            ws,
            home,
            """
            s = mem.session("s1", user_id="u1", workspace_id="w1")
            s.append_message("assistant", "好的，记住了。")
            print(s.append_message("user", "我今天吃了点香菜，还行吧").id)
            """,
        )
        later = s.call_tool(
            "memory_propose_update",
            {"operation": "create", "node": avoid("香菜"), "reason": "inferred"},
        )
        assert later["status"] == "pending", later
        assert later["rule"] == "user_scope_without_intent"
        held = next(i for i in mem.pending() if i.id == later["pendingId"])
        assert held.source_message_ids == [newest]
    finally:
        mem.close()


def test_a_session_handle_follows_messages_another_process_logged(tmp_path: Path) -> None:
    """The agent's host logs the user's words in another process while this handle replies:
    the reply follows them in the log's parent links instead of forking from this handle's
    last message."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    first = s.append_message("user", "今晚吃什么？")
    logged = other_process(
        ws,
        home,
        """
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        print(s.append_message("user", "少辣一点").id)
        """,
    )
    reply = s.append_message("assistant", "那就清炒时蔬")
    log = mem.list_recent_messages(session_id="s1", limit=5)
    mem.close()
    assert [m.id for m in log] == [first.id, logged, reply.id]
    assert [m.parent_id for m in log] == [None, first.id, logged]
