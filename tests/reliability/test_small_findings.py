"""The smaller findings of issue 29: ``compact`` on a store it cannot write says so (and
exits 1); a read-only mount is told apart from wrong permissions; a folder where the
database should be is named; ``purge --query X --messages`` leaves X neither in its own
audit rows' ids nor unreported in the session ids that still spell it."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.reliability.intact import Workspace, assert_intact, seeded, snapshot
from tests.requirements import missing
from tests.unprivileged import run_unprivileged

ROOT = Path(__file__).resolve().parents[2]

# Run in a private mount namespace: a tmpfs holding a copy of the workspace, remounted
# read-only, then the CLI on it. Prints one JSON line: each command's code and output.
_ON_READ_ONLY_MOUNT = r"""
set -e
mount -t tmpfs tmpfs "$MNT"
cp -a "$SRC"/. "$MNT"/
mount -o remount,ro "$MNT"
"$PY" - <<'EOF'
import contextlib, io, json, os
from ekko_memory.interfaces.cli import main
mnt = os.environ["MNT"]
seen = {}
for name, args in (("compact", ["compact"]), ("stats", ["stats"]), ("search", ["search", "香菜"])):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--workspace", mnt + "/ws", "--user-home", mnt + "/home", *args])
    seen[name] = [code, out.getvalue(), err.getvalue()]
print(json.dumps(seen))
EOF
"""


def _on_read_only_mount(w: Workspace, mnt: Path) -> dict[str, Any]:
    mnt.mkdir()
    unshare = shutil.which("unshare")
    if unshare is None:
        missing("unshare (a private mount namespace)", "apt install util-linux")
    # As root a mount namespace; otherwise a user namespace maps us to root in it.
    flags = ["-m"] if os.geteuid() == 0 else ["-r", "-m"]
    proc = subprocess.run(
        [unshare, *flags, "--propagation", "private", "sh", "-c", _ON_READ_ONLY_MOUNT],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={
            **os.environ,
            "MNT": str(mnt),
            "SRC": str(w.root),
            "PY": sys.executable,
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "core")]),
        },
    )
    if proc.returncode != 0 and ("mount" in proc.stderr or "unshare" in proc.stderr):
        missing(
            f"a read-only mount ({proc.stderr.strip()[:200]})",
            "run as root, or allow user namespaces",
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_compact_on_a_read_only_mount_says_it_could_not_run(tmp_path: Path) -> None:
    w, _ = seeded(tmp_path / "src")
    before = snapshot(w)
    seen = _on_read_only_mount(w, tmp_path / "mnt")
    code, out, err = seen["compact"]
    assert code == 1, seen
    assert "Could not compact the workspace and the user stores" in out, out
    assert "Freed" not in out, out
    assert "mounted read-only" in out and "permissions" not in out, out
    # The warnings every command prints name the mount, not the permissions.
    for name in ("stats", "search"):
        code, out, err = seen[name]
        assert code == 0 and "mounted read-only" in err and "permissions" not in err, seen[name]
    assert_intact(w, before, tmp_path / "out" / "after")


_UNPRIVILEGED_COMPACT = """
import contextlib, io
from pathlib import Path
from ekko_memory.interfaces.cli import main

def check(folder):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--workspace", folder + "/ws", "--user-home", folder + "/home", "compact"])
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}
"""


def _read_only_files(folder: Path) -> Path:
    w, _ = seeded(folder)
    for db in w.databases():
        db.chmod(0o444)
        db.parent.chmod(0o555)
    return folder


def test_compact_on_read_only_files_names_the_permissions() -> None:
    seen = run_unprivileged(_UNPRIVILEGED_COMPACT, _read_only_files)
    assert seen["code"] == 1, seen
    assert "fix the file's permissions" in seen["out"] and "mounted" not in seen["out"], seen
    assert "Could not compact" in seen["out"] and "Freed" not in seen["out"], seen


def test_a_folder_where_the_database_should_be_is_named(tmp_path: Path) -> None:
    w = Workspace(tmp_path)
    (w.ws / ".ekko" / "memory.db").mkdir(parents=True)
    for command in (("stats",), ("search", "香菜"), ("import", str(tmp_path / "none.json"))):
        code, out, err = w.cli(*command)
        assert code == 1 and out == "" and err.count("\n") == 1, (command, err)
        assert "is a folder where the workspace's memory database should be" in err, err
    # And where the user store should be (the workspace store is fine).
    w2, _ = seeded(tmp_path / "second")
    (w2.home / "memory.db").unlink()
    (w2.home / "memory.db").mkdir()
    code, out, err = w2.cli("compact")
    assert code == 1 and "is a directory, not a database file" in out + err, (out, err)
    assert "Could not compact the user store" in out, out


def _rows_holding(db: Path, text: str) -> list[tuple[str, ...]]:
    conn = sqlite3.connect(db)
    try:
        found = []
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            if table.startswith("memory_nodes_fts"):
                continue
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                if any(text in str(v) for v in row):
                    found.append((table, *map(str, row)))
        return found
    finally:
        conn.close()


def test_a_purge_of_a_sessions_name_says_what_still_spells_it(tmp_path: Path) -> None:
    """The session is named after the secret. Its messages holding it go; the purge's own
    audit rows (and the rows it scrubbed) keep no id spelling it; the session's other
    messages still carry its name, and the verification says so instead of "gone"."""
    w = Workspace(tmp_path)
    mem = w.open()
    try:
        s = mem.session("proj-zebra42", user_id="u1", workspace_id="w1")
        s.append_message("user", "记住，项目代号 zebra42 不要外传。")
        s.append_message("assistant", "好的")
        res = s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "the user asked",
                "node": {
                    "scope": "session",
                    "domain": "项目",
                    "type": "fact",
                    "title": "代号 zebra42",
                },
            },
        )
        assert res["accepted"], res
    finally:
        mem.close()
    code, out, err = w.cli("purge", "--query", "zebra42", "--messages", "--yes")
    assert code == 0, (out, err)
    assert "Verified" not in out, out
    assert "kept: 'zebra42' is still held by 1 row(s) of memory_messages.session_id" in out, out
    assert "Session or owner ids still spell it" in out, out
    left = _rows_holding(w.ws / ".ekko" / "memory.db", "zebra42")
    tables = sorted({r[0] for r in left})
    # Only the session's remaining message (好的) and its cursor, none of the audit rows.
    assert "memory_audit_events" not in tables, left
    assert all(r[0] == "memory_messages" and "好的" in r for r in left if r[0] == "memory_messages")
    code, out, err = w.cli("purge", "--session", "proj-zebra42", "--messages", "--yes")
    assert code == 0 and "Verified" in out, (out, err)
