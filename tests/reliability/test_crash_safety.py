"""Crash safety: a writer killed with SIGKILL at random moments never leaves a half-write."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOTAL_WRITES = 1000
MIN_KILLS = 20


def start_child(ws: Path, home: Path, start: int, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.reliability.crash_child",
            str(ws),
            str(home),
            str(start),
            str(count),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def check_whole(db: Path, reported: dict[str, str]) -> dict[str, int]:
    """Integrity and wholeness of every committed write; returns counts."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        nodes = {
            r[0]: r for r in conn.execute("SELECT id, status, supersedes_id, seq FROM memory_nodes")
        }
        audited = {
            r[0]
            for r in conn.execute(
                "SELECT node_id FROM memory_audit_events WHERE event_type = 'create'"
            )
        }
        superseded_events = {
            r[0]
            for r in conn.execute(
                "SELECT node_id FROM memory_audit_events WHERE event_type = 'supersede'"
            )
        }
        fts = {r[0] for r in conn.execute("SELECT rowid FROM memory_nodes_fts")}
        # Every committed write the child reported is there, with what belongs to it.
        for node_id, superseded in reported.items():
            assert node_id in nodes, f"reported write {node_id} lost"
            if superseded:
                assert nodes[node_id][2] == superseded
                assert nodes[superseded][1] == "superseded", (
                    "new version without the old one's status"
                )
        # Nothing half-written: every node has its audit row and index row; every
        # superseded node has its successor and its supersede event.
        successors = {r[2] for r in nodes.values() if r[2]}
        for node_id, status, _sup, seq in nodes.values():
            assert node_id in audited, f"{node_id} has no audit row"
            assert seq in fts, f"{node_id} missing from the full-text index"
            if status == "superseded":
                assert node_id in successors and node_id in superseded_events, (
                    f"{node_id} half superseded"
                )
        assert len(fts) == len(nodes)
        return {"nodes": len(nodes), "superseded": len(successors)}
    finally:
        conn.close()


@pytest.mark.timeout(300)
def test_sigkill_during_governed_writes(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    rng = random.Random(20261202)
    reported: dict[str, str] = {}
    kills = 0
    next_n = 0
    # Bounded: each round is a child start (~0.4 s) and up to 120 writes; stops at 240 s.
    deadline = time.monotonic() + 240
    while (len(reported) < TOTAL_WRITES or kills < MIN_KILLS) and time.monotonic() < deadline:
        child = start_child(ws, home, next_n, 100_000)
        assert child.stdout is not None
        # Kill after a random number of reported commits plus a random sub-millisecond
        # delay: always mid-stream, however fast the writes are (the next write is in
        # flight: validating, inside its transaction, or committing).
        quota = rng.randint(1, 120)
        seen = 0
        for line in child.stdout:
            parts = line.split()
            if parts and parts[0] == "ok":
                next_n = max(next_n, int(parts[1]) + 1)
                reported[parts[2]] = parts[3] if len(parts) > 3 else ""
                seen += 1
                if seen >= quota:
                    break
        time.sleep(rng.uniform(0, 0.001))
        child.send_signal(signal.SIGKILL)
        kills += 1
        out, _ = child.communicate(timeout=30)
        for line in out.splitlines():  # commits reported while the signal was on its way
            parts = line.split()
            if parts and parts[0] == "ok":
                next_n = max(next_n, int(parts[1]) + 1)
                reported[parts[2]] = parts[3] if len(parts) > 3 else ""
        check_whole(ws / ".ekko" / "memory.db", reported)
    assert kills >= MIN_KILLS
    assert len(reported) >= TOTAL_WRITES
    counts = check_whole(ws / ".ekko" / "memory.db", reported)
    # The figures for the record (pytest -s shows them).
    print(
        f"\ncrash safety: {kills} SIGKILLs survived, {len(reported)} committed writes verified, "
        f"{counts['nodes']} nodes ({counts['superseded']} superseded) whole"
    )


@pytest.mark.timeout(60)
def test_a_purge_killed_midway_is_finished_by_running_it_again(tmp_path: Path) -> None:
    """Killed after its first batch of memories, a purge run again leaves none of the purged
    memories' source messages (they were found through the memories)."""
    from ekko_memory import PurgeFilter, open_memory
    from tests.core.factories import SECRET_BRANCH as branch
    from tests.core.factories import secret_rules

    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    secret_rules(mem.workspace_store, "ZQK", 150)
    mem.close()
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.purge_child", str(ws), str(home), "项目/秘密"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "stalled"
    finally:
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=30)
    db = ws / ".ekko" / "memory.db"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        left = conn.execute("SELECT count(*) FROM memory_nodes").fetchone()[0]
    assert 0 < left < 150  # killed midway
    mem = open_memory(ws, user_home=home)
    try:
        rest = mem.purger.purge(PurgeFilter(category_path_prefix=branch, include_messages=True))
        assert rest.memories == left
        assert rest.verification is not None and rest.verification.clean
        with mem.workspace_store.read() as r:
            # With the words around it: "ZQK" alone turns up inside random ids.
            assert r.text_occurrences("规则 ZQK") == {}
    finally:
        mem.close()


_SUMMARIZE_UNTIL_THE_CURSOR = """
import os, signal, sys
from ekko_memory import open_memory

def kill_at_the_summary_cursor(frame, event, arg):
    # SIGKILL as the session's summary cursor is moved past the summarized messages.
    if (
        event == "call"
        and frame.f_code.co_name == "set_cursor"
        and frame.f_locals.get("kind") == "summarize"
    ):
        os.kill(os.getpid(), signal.SIGKILL)

mem = open_memory(sys.argv[1], user_home=sys.argv[2])
sys.setprofile(kill_at_the_summary_cursor)
mem.session("s1", user_id="u1", workspace_id="w1").after_reply()
"""


@pytest.mark.timeout(60)
def test_a_summary_killed_before_its_cursor_moved_is_not_written_twice(tmp_path: Path) -> None:
    """The summary and the cursor after the messages it covers were two transactions: a
    process killed between them summarized the same messages again at the next run, into
    a second link of the chain that repeated the first."""
    from ekko_memory import open_memory

    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    for i in range(6):
        s.append_message("user", f"第{i}步：把数据表{i}迁到新库。")
        s.append_message("assistant", f"好的，数据表{i}已排进迁移计划。")
    mem.close()
    killed = subprocess.run(
        [sys.executable, "-c", _SUMMARIZE_UNTIL_THE_CURSOR, str(ws), str(home)],
        cwd=ROOT,
        timeout=30,
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    mem = open_memory(ws, user_home=home)
    try:
        mem.session("s1", user_id="u1", workspace_id="w1").after_reply()
        with mem.workspace_store.read() as r:
            covered = r.conn.exec_driver_sql(
                "SELECT from_message_id, to_message_id FROM memory_summaries"
            ).all()
        assert len(covered) == 1, covered
        latest = mem.get_latest_summary("s1")
        # The user's line and the reply's, once each.
        assert latest is not None and latest.summary.count("数据表0") == 2
    finally:
        mem.close()


_HARD_DELETE_UNTIL_THE_SCRUB = """
import os, signal, sys
from ekko_memory import open_memory

def kill_at_the_scrub(frame, event, arg):
    # SIGKILL once the memory's rows are gone, as the store's file is scrubbed.
    if event == "call" and frame.f_code.co_name == "scrub":
        os.kill(os.getpid(), signal.SIGKILL)

mem = open_memory(sys.argv[1], user_home=sys.argv[2])
sys.setprofile(kill_at_the_scrub)
mem.actions.delete(sys.argv[3], "hard")
"""


@pytest.mark.timeout(60)
def test_a_hard_delete_killed_midway_leaves_no_backup_holding_the_memory(
    tmp_path: Path,
) -> None:
    """The migration backups that hold a memory deleted for good went last: a process
    killed after the rows were gone left the memory in a backup that nothing would find
    again (the database no longer names it)."""
    from ekko_memory import MemoryNodeDraft, open_memory

    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    secret = "绝密配方ZQH"
    draft = {"type": "recipe", "scope": "user", "domain": "生活技能", "title": secret}
    done = mem.actions.create(MemoryNodeDraft.model_validate({**draft, "content": secret}))
    assert done.node_id is not None
    backup = mem.user_store.dialect.backup(6)  # as an upgrade takes it
    assert backup is not None and secret.encode() in backup.read_bytes()
    mem.close()
    killed = subprocess.run(
        [sys.executable, "-c", _HARD_DELETE_UNTIL_THE_SCRUB, str(ws), str(home), done.node_id],
        cwd=ROOT,
        timeout=30,
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    with sqlite3.connect(home / "memory.db") as conn:
        gone = conn.execute("SELECT count(*) FROM memory_nodes WHERE id = ?", (done.node_id,))
        assert gone.fetchone()[0] == 0  # killed after the delete itself
    assert not backup.exists(), "a backup still held the memory deleted for good"
