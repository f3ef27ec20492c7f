"""What "nothing else changed" means in the boundary tests: a workspace whose stores are
byte-for-byte the same records, pass SQLite's integrity check, and can still be read
and exported whole — by the same CLI a user runs (in-process ``main()`` calls)."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ekko_memory import MemoryService, open_memory
from ekko_memory.interfaces.cli import main
from tests.core.sample_data import Sample, dump, seed

# The commands the store must still answer after any attack (each read end to end).
READ_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("search", "--all", "--limit", "1000"),
    ("stats",),
    ("pending", "--all"),
)


@dataclass
class Workspace:
    """A seeded workspace and its user home, opened on demand."""

    root: Path

    @property
    def ws(self) -> Path:
        return self.root / "ws"

    @property
    def home(self) -> Path:
        return self.root / "home"

    def open(self) -> MemoryService:
        return open_memory(self.ws, user_home=self.home)

    def databases(self) -> list[Path]:
        return [self.ws / ".ekko" / "memory.db", self.home / "memory.db"]

    def cli(self, *args: str) -> tuple[int, str, str]:
        """``ekko-memory --workspace … --user-home … ARGS`` in this process."""
        out, err = io.StringIO(), io.StringIO()
        argv = ["--workspace", str(self.ws), "--user-home", str(self.home), *args]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        return code, out.getvalue(), err.getvalue()


def seeded(root: Path) -> tuple[Workspace, Sample]:
    """A workspace with chains in both stores, a pending item, usage, a summary."""
    w = Workspace(root)
    mem = w.open()
    try:
        sample = seed(mem)
    finally:
        mem.close()
    return w, sample


def seeded_bundle(root: Path) -> tuple[Workspace, dict[str, Any]]:
    """A seeded workspace whose background work ran (its cursors too), and its exported
    bundle as JSON: a record of every kind for an attack to start from."""
    w, _ = seeded(root / "source")
    mem = w.open()
    try:
        mem.session("s1", user_id="u1", workspace_id="w1").after_reply()
    finally:
        mem.close()
    path = root / "bundle.json"
    code, _, err = w.cli("export", "--output", str(path))
    assert code == 0, err
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return w, data


def snapshot(w: Workspace) -> dict[str, Any]:
    """Every record of both stores (as JSON), to compare before and after."""
    mem = w.open()
    try:
        return {"workspace": dump(mem.workspace_store), "user": dump(mem.user_store)}
    finally:
        mem.close()


def integrity_ok(db: Path) -> bool:
    """SQLite's own check of the file: every page and index consistent."""
    conn = sqlite3.connect(db)
    try:
        return bool(conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok")
    finally:
        conn.close()


def assert_intact(w: Workspace, before: dict[str, Any] | None, out: Path) -> None:
    """The stores hold exactly ``before`` (when given), pass the integrity check, answer
    every read command without a traceback, and export whole to ``out``."""
    if before is not None:
        assert snapshot(w) == before
    for db in w.databases():
        assert db.is_file() and integrity_ok(db), db
    assert_cli_runs(w, out)


def assert_cli_runs(w: Workspace, out: Path) -> dict[str, Any]:
    """``export`` (JSON, then Markdown and CSV), ``search --all``, ``stats``, ``pending``
    and ``history`` of every memory all exit 0 with no traceback; returns the bundle."""
    for command in READ_COMMANDS:
        code, _, err = w.cli(*command)
        assert code == 0 and "Traceback" not in err, (command, code, err)
    out.parent.mkdir(parents=True, exist_ok=True)
    bundle = out.with_suffix(".json")
    for fmt in ("json", "md", "csv"):
        path = out.with_suffix(f".{fmt}")
        code, _, err = w.cli("export", "--format", fmt, "--output", str(path), "--force")
        assert code == 0 and "Traceback" not in err, (fmt, code, err)
    data: dict[str, Any] = json.loads(bundle.read_text(encoding="utf-8"))
    ids = {n["id"] for part in data["stores"].values() for n in part["nodes"]}
    for node_id in sorted(ids):
        code, _, err = w.cli("history", node_id)
        assert code == 0 and "Traceback" not in err, (node_id, code, err)
    return data
