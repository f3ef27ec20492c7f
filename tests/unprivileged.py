"""Run a check as a user without privileges, also when the tests run as root (CI does).

Root ignores file permissions, so a read-only file is read-only only to someone else.
The check runs in a child Python. As root, the child first rehearses it on a writable
scratch twin (which imports every module it needs while the root-only interpreter
folders, such as pyenv's under /root, are still readable), then drops to ``nobody`` and
runs it on the real target. As anyone else it runs on the target straight away.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NOBODY = 65534

_CHILD = """
import json, os, sys
{code}
target, rehearsal = sys.argv[1], sys.argv[2]
if os.geteuid() == 0:
    check(rehearsal)
    os.setgroups([])
    os.setgid({nobody})
    os.setuid({nobody})
print(json.dumps(check(target)))
"""


def run_unprivileged(
    code: str, make: Callable[[Path], Path], *, timeout: float = 60
) -> dict[str, Any]:
    """Run ``code`` (which defines ``check(path: str) -> dict``) without privileges on what
    ``make(folder)`` builds in a fresh folder; as root ``make`` also builds the rehearsal
    twin. Returns the dict ``check`` returned; the folders are removed afterwards."""
    folders: list[Path] = []

    def built() -> Path:
        # pytest's tmp_path sits in a root-only folder: nobody could not reach it.
        folder = Path(tempfile.mkdtemp(prefix="ekko-unprivileged-"))
        folder.chmod(0o755)
        folders.append(folder)
        return make(folder)

    try:
        target = built()
        rehearsal = built() if os.geteuid() == 0 else target
        child = _CHILD.format(code=code, nobody=NOBODY)
        proc = subprocess.run(
            [sys.executable, "-c", child, str(target), str(rehearsal)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
            # This checkout's core, not whichever one the interpreter installed.
            env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "core")])},
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        return result
    finally:
        for folder in folders:
            for path in (folder, *folder.rglob("*")):
                path.chmod(0o755 if path.is_dir() else 0o644)
            shutil.rmtree(folder, ignore_errors=True)
