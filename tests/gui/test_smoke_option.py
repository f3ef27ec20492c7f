"""``ekko-memory-gui --smoke-test``: the app starts offscreen, loads the workspace and quits by
itself with 0, or with 1 when the workspace cannot be shown (what packaging relies on)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(90)


def _run_app(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", EKKO_HOME=str(tmp_path / "home"))
    return subprocess.run(
        [sys.executable, "-m", "ekko_memory_gui.app", *args, "--smoke-test"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _result(stdout: str, word: str) -> dict[str, object]:
    line = next(line for line in stdout.splitlines() if line.startswith("smoke-test: "))
    assert line.startswith(f"smoke-test: {word}"), line
    return json.loads(line[line.index("{") :])


def test_smoke_test_opens_the_demo_and_exits_0(tmp_path: Path) -> None:
    proc = _run_app(tmp_path, "--demo", str(tmp_path / "demo"), "--language", "en")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = _result(proc.stdout, "ok")
    assert result["stores"] == {"workspace": "ok", "user": "ok"}
    assert (result["language"], result["catalog"]) == ("en", "none")  # English needs none
    assert isinstance(result["memories_shown"], int) and result["memories_shown"] >= 5
    assert result["first_paint_s"] is not None
    assert "Traceback" not in proc.stderr
    # The demo really was written where asked.
    assert (tmp_path / "demo" / "workspace" / ".ekko" / "memory.db").is_file()


def test_smoke_test_exits_1_when_the_workspace_store_is_broken(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / ".ekko").mkdir(parents=True)
    (ws / ".ekko" / "memory.db").write_bytes(b"this is not a database" * 200)
    proc = _run_app(tmp_path, "--workspace", str(ws))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    result = _result(proc.stdout, "FAILED")
    assert result["stores"] == {"workspace": "disabled", "user": "ok"}
