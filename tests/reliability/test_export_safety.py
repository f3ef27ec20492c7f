"""Export never destroys: it refuses to write over a store, into a store's folder or over
any memory database (whatever --force says); it replaces an ordinary file only with
--force; and the temporary file of an export killed midway is gone after the next
export, or the next purge (which also scans the files of exports still running)."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.reliability.intact import Workspace, assert_intact, seeded, snapshot

ROOT = Path(__file__).resolve().parents[2]

# Where an export is asked to write, built in the seeded workspace; what it may not touch.
TARGETS: dict[str, Callable[[Workspace], Path]] = {
    "the workspace store": lambda w: w.ws / ".ekko" / "memory.db",
    "the user store": lambda w: w.home / "memory.db",
    "the workspace store's write-ahead log": lambda w: w.ws / ".ekko" / "memory.db-wal",
    "a new file in .ekko": lambda w: w.ws / ".ekko" / "notes.json",
    "a new file in the user home": lambda w: w.home / "export.json",
    "a folder inside .ekko": lambda w: _made(w.ws / ".ekko" / "sub") / "x.json",
    "a copy of the user store": lambda w: _copy(w.home / "memory.db", w.root / "copy.json"),
    "a link to the workspace store": lambda w: _link(w.ws / ".ekko" / "memory.db", w.root / "l.md"),
    "a migration backup": lambda w: _copy(
        w.home / "memory.db", _made(w.home / "backups") / "memory-v9.db"
    ),
}


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _copy(src: Path, dst: Path) -> Path:
    conn = sqlite3.connect(src)
    try:
        conn.execute("VACUUM INTO ?", (str(dst),))  # a whole, consistent copy
    finally:
        conn.close()
    return dst


def _link(src: Path, dst: Path) -> Path:
    dst.symlink_to(src)
    return dst


@pytest.mark.parametrize("where", list(TARGETS))
@pytest.mark.parametrize("force", [False, True])
def test_an_export_never_replaces_a_store_or_writes_into_its_folder(
    tmp_path: Path, where: str, force: bool
) -> None:
    w, _ = seeded(tmp_path)
    target = TARGETS[where](w)
    before = snapshot(w)
    existed = target.read_bytes() if target.is_file() else None
    for fmt in ("json", "md", "csv"):
        args = ["export", "--format", fmt, "--output", str(target)]
        code, out, err = w.cli(*args, *(["--force"] if force else []))
        assert code == 2 and out == "", (where, code, out, err)
        assert err.count("\n") == 1 and "nothing was written" in err, err
        assert "memory database" in err or "store's folder" in err, err
    assert (target.read_bytes() if target.is_file() else None) == existed
    assert not list(target.parent.glob(f".{target.name}.*.part"))
    assert_intact(w, before, tmp_path / "out" / "after")


def test_an_existing_file_is_replaced_only_with_force(tmp_path: Path) -> None:
    w, sample = seeded(tmp_path)
    before = snapshot(w)
    notes = tmp_path / "notes.md"
    notes.write_text("the user's own notes", encoding="utf-8")
    foreign = tmp_path / "other-app.db"  # an SQLite file of another program: ordinary
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    for path in (notes, foreign):
        kept = path.read_bytes()
        code, _, err = w.cli("export", "--output", str(path))
        assert code == 2 and "already exists" in err and "--force" in err, err
        assert path.read_bytes() == kept
        code, out, err = w.cli("export", "--output", str(path), "--force")
        assert code == 0 and "Exported" in out, err
        assert sample.cilantro in path.read_text(encoding="utf-8")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert_intact(w, before, tmp_path / "out" / "after")


def _many_records(w: Workspace, n: int = 1500) -> None:
    """Enough records in the user store that an export reports progress (every 500) while
    it writes that store: the workspace store (written first) is then on disk, and read
    no longer (a purge of it is not kept waiting by the export's snapshot)."""
    mem = w.open()
    try:
        with mem.user_store.write() as wr:
            for i in range(n):
                wr.add_audit("create", actor="agent", reason=f"第 {i} 条记录", node_id="mem_x")
    finally:
        mem.close()


@contextmanager
def _running_export(w: Workspace, output: Path) -> Iterator[tuple[int, Path]]:
    """An export into ``output`` in another process, stopped after writing a batch: its
    pid and part file while the block runs; SIGKILLed when it ends."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.reliability.export_child",
            str(w.ws),
            str(w.home),
            str(output),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip() == "writing", (line, child.stderr.read() if child.stderr else "")
        (part,) = output.parent.glob(f".{output.name}.{child.pid}.part")
        assert part.stat().st_size > 0
        yield child.pid, part
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)


def _killed_export(w: Workspace, output: Path) -> Path:
    """An export into ``output`` killed after writing a batch: its part file, left behind."""
    with _running_export(w, output) as (pid, part):
        assert list((w.home / "export-parts").glob(f"{pid}-*.path"))
    assert part.exists() and not output.exists()  # what a kill leaves
    return part


@pytest.mark.timeout(180)
def test_a_killed_export_leaves_no_part_file_after_the_next_export(tmp_path: Path) -> None:
    w, _ = seeded(tmp_path)
    _many_records(w)
    before = snapshot(w)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    part = _killed_export(w, elsewhere / "backup.json")
    # The next export goes to another folder: the killed one's part file goes anyway.
    code, _, err = w.cli("export", "--output", str(tmp_path / "next.json"))
    assert code == 0, err
    assert not part.exists()
    assert not (w.home / "export-parts").exists()
    # Beside its target too, even with no record of it (an older release's export).
    part = _killed_export(w, elsewhere / "again.json")
    shutil.rmtree(w.home / "export-parts")
    code, _, err = w.cli("export", "--output", str(elsewhere / "again.json"))
    assert code == 0, err
    assert not part.exists() and (elsewhere / "again.json").is_file()
    assert_intact(w, before, tmp_path / "out" / "after")


@pytest.mark.timeout(180)
def test_a_purge_removes_a_killed_exports_part_file(tmp_path: Path) -> None:
    w, _ = seeded(tmp_path)
    _many_records(w)
    part = _killed_export(w, tmp_path / "backup.json")
    assert "香菜" in part.read_text(encoding="utf-8", errors="replace")
    code, out, err = w.cli("purge", "--query", "香菜", "--yes")
    assert code == 0, (out, err)
    assert "removed the temporary file of an export that was killed" in err
    assert not part.exists()


@pytest.mark.timeout(180)
def test_a_purge_scans_the_file_of_an_export_still_running(tmp_path: Path) -> None:
    """An export that started before the purge holds the purged text in its file: the
    purge says so (a leak), and leaves the running export's file alone."""
    w, _ = seeded(tmp_path)
    _many_records(w)
    output = tmp_path / "running.json"
    with _running_export(w, output) as (_, part):
        # A workspace memory: the workspace store is exported first, its memories first.
        needle = "数据库用 PostgreSQL"
        assert needle in part.read_text(encoding="utf-8", errors="replace")
        code, out, err = w.cli("purge", "--query", needle, "--messages", "--yes")
        assert code == 1, (out, err)
        assert f"LEAK: '{needle}' still in file:{part}" in out, out
        assert part.exists()
