"""The ``ekko-memory`` command line, run as a real subprocess on real SQLite files."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import open_memory
from ekko_memory.interfaces.cli_table import display_width
from tests.core.helpers import propose
from tests.core.sample_data import Sample, seed


class Cli:
    """Runs ``python -m ekko_memory`` against one workspace and user home."""

    def __init__(self, workspace: Path, home: Path) -> None:
        self.workspace = workspace
        self.home = home

    def __call__(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "ekko_memory",
                "--workspace",
                str(self.workspace),
                "--user-home",
                str(self.home),
                *args,
            ],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "EKKO_HOME": str(self.home), "COLUMNS": "200"},
            check=False,
        )

    def json(self, *args: str, code: int = 0, stdin: str = "") -> Any:
        proc = self(*args, "--json", stdin=stdin)
        assert proc.returncode == code, (proc.returncode, proc.stderr)
        return json.loads(proc.stdout)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def seeded(workspace: Path, home: Path) -> tuple[Cli, Sample]:
    mem = open_memory(workspace, user_home=home)
    try:
        sample = seed(mem)
    finally:
        mem.close()
    return Cli(workspace, home), sample


def one_line_error(proc: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]


# --- errors ------------------------------------------------------------------------------


def test_a_workspace_without_a_database_is_refused_not_created(
    workspace: Path, home: Path, tmp_path: Path
) -> None:
    cli = Cli(workspace, home)
    for command in (
        ["search"],
        ["stats"],
        ["pending"],
        ["show", "mem_x"],
        ["purge", "--query", "x"],
    ):
        one_line_error(cli(*command), 3, "no memory database", "memory.db")
    assert not (workspace / ".ekko").exists()
    assert cli.json("stats", code=3)["error"]["message"].startswith("no memory database")
    gone = Cli(tmp_path / "missing", home)
    one_line_error(gone("stats"), 3, "does not exist")


def test_bad_arguments_exit_2_with_one_line(seeded: tuple[Cli, Sample]) -> None:
    cli, _ = seeded
    one_line_error(cli("frobnicate"), 2, "invalid choice")
    one_line_error(cli("search", "--limit", "many"), 2, "--limit")
    one_line_error(cli("search", "--limit", "0"), 2, "--limit")
    one_line_error(cli("show"), 2, "id")
    one_line_error(cli("purge"), 2, "name what to purge")
    one_line_error(cli("purge", "--before", "yesterday"), 2, "not a date")
    one_line_error(cli("export", "--format", "pdf", "--output", "x"), 2, "pdf")
    one_line_error(cli("forget"), 2, "name what to forget")


def test_missing_ids_exit_3(seeded: tuple[Cli, Sample]) -> None:
    cli, _ = seeded
    one_line_error(cli("show", "mem_01M8VWABJ5EZ4MAC14NPMPNC0X"), 3, "no memory")
    one_line_error(cli("history", "nonsense"), 3, "no memory")
    one_line_error(cli("approve", "pnd_01M8VWABJ5EZ4MAC14NPMPNC0X"), 3, "no pending item")
    one_line_error(cli("reject", "mem_nope"), 3, "no pending item")
    one_line_error(cli("forget", "mem_01M8VWABJ5EZ4MAC14NPMPNC0X"), 3, "no memory")
    one_line_error(cli("import", "/nonexistent/bundle.json"), 3, "no bundle file")
    assert cli.json("show", "mem_nope", code=3)["error"]["code"] == "not_found"


# --- reading -----------------------------------------------------------------------------


def test_search_show_history_stats(seeded: tuple[Cli, Sample]) -> None:
    cli, sample = seeded
    found = cli.json("search", "香菜")
    assert sample.cilantro in [n["id"] for n in found["nodes"]]
    listed = cli.json("search", "--scope", "user")
    assert {n["id"] for n in listed["nodes"]} == {sample.cilantro, sample.spicy_new}
    everything = cli.json("search", "--all", "--scope", "user", "--category", "生活技能/做饭")
    assert sample.spicy_old in {n["id"] for n in everything["nodes"]}

    table = cli("search", "香菜", "--scope", "user")
    assert table.returncode == 0 and "用户不吃香菜" in table.stdout
    assert "No memories found." in cli("search", "不存在的东西").stdout

    shown = cli.json("show", sample.cilantro)
    assert (shown["title"], shown["valueJson"], shown["store"]) == ("用户不吃香菜", "香菜", "user")
    assert "avoid_ingredient" in cli("show", sample.cilantro).stdout

    hist = cli.json("history", sample.spicy_old)
    assert [v["id"] for v in hist["chain"]] == [sample.spicy_old, sample.spicy_new]
    assert {e["eventType"] for e in hist["audit"]} >= {"create", "supersede"}
    text = cli("history", sample.spicy_new).stdout
    assert "Versions, oldest first (2)" in text and "Audit trail" in text and "喜欢吃辣" in text

    stats = cli.json("stats")
    assert stats["stores"]["user"]["nodes"]["active"] == 2 and stats["pending"] == 1
    assert "workspace store" in cli("stats").stdout


def test_tables_align_chinese_by_display_width(seeded: tuple[Cli, Sample]) -> None:
    cli, _ = seeded
    lines = cli("search", "--all").stdout.splitlines()
    header, rule, *rows = lines[: lines.index("")]
    start = header.index("STATUS")
    for row in rows:
        # The STATUS column starts at the same display column on every row.
        prefix_cols = [display_width(row[:i]) for i in range(len(row) + 1)]
        col = prefix_cols.index(start) if start in prefix_cols else -1
        assert col >= 0 and row[col:].split()[0] in ("active", "superseded", "deleted"), row
    assert display_width(rule) >= display_width(header)


# --- decisions ---------------------------------------------------------------------------


def test_pending_approve_and_reject(
    seeded: tuple[Cli, Sample], workspace: Path, home: Path
) -> None:
    cli, sample = seeded
    items = cli.json("pending")["items"]
    assert [i["id"] for i in items] == [sample.pending]
    assert "用户喜欢红烧肉" in cli("pending").stdout
    approved = cli.json("approve", sample.pending, "--note", "对，我喜欢")
    assert approved["status"] == "approved" and approved["nodeId"].startswith("mem_")
    one_line_error(cli("approve", sample.pending), 1, "already approved")
    assert cli.json("pending")["items"] == []
    assert len(cli.json("pending", "--all")["items"]) == 1

    mem = open_memory(workspace, user_home=home)
    try:
        s = mem.session("s1", user_id="u1")
        held = propose(
            s,
            "我最近好像挺喜欢吃鱼",
            scope="user",
            domain="生活技能",
            type="preference",
            key="preferred_ingredient",
            valueJson="鱼",
            title="喜欢吃鱼",
            confidence=0.6,
        )
        node = mem.get_node(approved["nodeId"])
        assert node is not None and node.status == "active"
        assert mem.history(node.id).audit[0].actor == "user"
    finally:
        mem.close()
    rejected = cli("reject", held["pendingId"])
    assert rejected.returncode == 0 and "Rejected" in rejected.stdout
    assert cli.json("pending")["items"] == []


def test_forget_by_id_and_by_description(seeded: tuple[Cli, Sample]) -> None:
    cli, sample = seeded
    soft = cli.json("forget", sample.database)
    assert soft == {"deletedIds": [sample.database], "mode": "soft", "warnings": []}
    assert cli.json("show", sample.database)["status"] == "deleted"
    one_line_error(cli("forget", sample.spicy_old), 1, "old version")
    # Several matches wait for a yes; no answer means no.
    declined = cli("forget", "--scope", "user", "--domain", "生活技能")
    assert declined.returncode == 4 and "用户不吃香菜" in declined.stderr
    assert cli.json("show", sample.cilantro)["status"] == "active"
    done = cli.json("forget", "--scope", "user", "--domain", "生活技能", "--yes")
    assert set(done["deletedIds"]) == {sample.cilantro, sample.spicy_new}
    hard = cli("forget", sample.spicy_new, "--hard", "--json", stdin="yes\n")
    assert hard.returncode == 0, hard.stderr
    assert set(json.loads(hard.stdout)["deletedIds"]) == {sample.spicy_old, sample.spicy_new}
    one_line_error(cli("show", sample.spicy_new), 3, "no memory")


# --- export, import, purge ---------------------------------------------------------------


def test_export_and_import(seeded: tuple[Cli, Sample], tmp_path: Path) -> None:
    cli, sample = seeded
    bundle = tmp_path / "bundle.json"
    report = cli.json("export", "--format", "json", "--output", str(bundle))
    assert report["path"] == str(bundle) and report["counts"]["nodes"] == 5
    assert stat.S_IMODE(bundle.stat().st_mode) == 0o600
    for fmt in ("md", "csv"):
        out = tmp_path / f"memories.{fmt}"
        assert cli("export", "--format", fmt, "--output", str(out)).returncode == 0
        assert "用户不吃香菜" in out.read_text(encoding="utf-8-sig")
    part = cli.json("export", "--output", str(tmp_path / "u.json"), "--scope", "user")
    assert part["counts"]["nodes"] == 4

    target = tmp_path / "other"
    target.mkdir()
    other = Cli(target, tmp_path / "home2")
    first = other.json("import", str(bundle))
    assert first["counts"]["added"]["nodes"] == 5 and (target / ".ekko" / "memory.db").is_file()
    again = other.json("import", str(bundle))
    assert again["counts"]["added"] == {} and again["counts"]["skipped"]["nodes"] == 5
    assert "Nothing new" in other("import", str(bundle)).stdout
    assert other.json("show", sample.cilantro)["title"] == "用户不吃香菜"
    bad = tmp_path / "bad.json"
    bad.write_text("{oops", encoding="utf-8")
    one_line_error(other("import", str(bad)), 2, "not valid JSON")


def test_purge_dry_run_confirmation_and_verification(
    seeded: tuple[Cli, Sample], workspace: Path, home: Path
) -> None:
    cli, sample = seeded
    args = ("purge", "--query", "香菜", "--messages")
    dry = cli.json(*args, "--dry-run")
    assert dry["dryRun"] is True and dry["counts"]["node"] == 1 and dry["counts"]["message"] == 2
    text = cli(*args, "--dry-run").stdout
    assert "Dry run: nothing was changed." in text and "用户不吃香菜" in text
    assert cli.json("show", sample.cilantro)["status"] == "active"

    declined = cli(*args, stdin="no\n")
    assert declined.returncode == 4 and "not confirmed" in declined.stderr
    assert cli.json("show", sample.cilantro)["status"] == "active"

    done = cli.json(*args, stdin="yes\n")
    assert done["counts"]["node"] == 1 and done["verification"]["clean"] is True
    assert {t["id"] for t in done["purged"]} == {t["id"] for t in dry["targets"]}
    one_line_error(cli("show", sample.cilantro), 3, "no memory")
    for path in (workspace / ".ekko" / "memory.db", home / "memory.db"):
        for f in (path, path.with_name(path.name + "-wal")):
            if f.exists():
                assert "香菜".encode() not in f.read_bytes()

    nothing = cli("purge", "--query", "香菜", "--yes")
    assert nothing.returncode == 0 and "Nothing matches" in nothing.stdout
    kept = cli("purge", "--scope", "workspace", "--yes")
    assert kept.returncode == 0 and "Purged 1 memory:" in kept.stdout


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("ekko-memory")
    proc = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0 and "purge" in proc.stdout and "Exit codes" in proc.stdout
