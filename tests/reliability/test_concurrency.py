"""An agent process and an app-like process share one workspace for 30 s (EKKO_CONCURRENCY_SECONDS)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from ekko_memory import open_memory

ROOT = Path(__file__).resolve().parents[2]
SECONDS = float(os.environ.get("EKKO_CONCURRENCY_SECONDS", "30"))


def test_agent_and_app_share_a_workspace(tmp_path: Path) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    open_memory(ws, user_home=home).close()  # create and migrate once, up front
    procs = {
        role: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.reliability.concurrency_child",
                role,
                str(ws),
                str(home),
                str(SECONDS),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for role in ("agent", "app")
    }
    results = {}
    for role, proc in procs.items():
        out, err = proc.communicate(timeout=SECONDS + 60)
        assert proc.returncode == 0, err
        results[role] = json.loads(out.strip().splitlines()[-1])
    for role, res in results.items():
        assert res["lockErrors"] == 0, (role, res["lockErrors"])
        assert res["errors"] == [], (role, res["errors"][:5])
        assert res["writes"] > 0 and res["reads"] > 0, (role, res)
    assert results["app"]["staleActive"] == 0
    # No write lost: every accepted write is in the file, each with its audit row.
    conn = sqlite3.connect(ws / ".ekko" / "memory.db")
    ids = {r[0] for r in conn.execute("SELECT id FROM memory_nodes")}
    audited = {
        r[0]
        for r in conn.execute("SELECT node_id FROM memory_audit_events WHERE event_type = 'create'")
    }
    written = results["agent"]["ids"] + results["app"]["ids"]
    assert len(written) == len(set(written))
    assert set(written) <= ids and set(written) <= audited
    assert len(ids) == len(written)
    active_with_successor = conn.execute(
        "SELECT count(*) FROM memory_nodes a JOIN memory_nodes b ON b.supersedes_id = a.id WHERE a.status = 'active'"
    ).fetchone()[0]
    assert active_with_successor == 0
    conn.close()
    print(
        f"\nconcurrency {SECONDS:.0f}s: agent {results['agent']['writes']} writes / {results['agent']['reads']} reads,"
        f" app {results['app']['writes']} writes / {results['app']['reads']} reads, lock errors 0, lost writes 0"
    )
