"""Run a check as a user without privileges, also when the tests run as root (CI does).

Root ignores file permissions, so a read-only file is read-only only to someone else.
The check runs in a child Python. As root, the child first rehearses it on a writable
scratch twin (which imports every module it needs while the root-only interpreter
folders, such as pyenv's under /root, are still readable), then drops to ``nobody`` and
runs it on the real target. As anyone else it runs on the target straight away.

The child imports this checkout's core and tests from a world-readable copy of them
(``carry``): a clone in a private folder (mode 0700, as home directories often are) is
out of ``nobody``'s reach, and a module imported only after the drop, or the shipped
resources the core reads, would fail there.
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


def built_sources(folders: list[Path]) -> Path:
    """A world-readable copy of the checkout's core, resources and tests (as the checkout
    lays them out, so the core finds its resources), added to ``folders``."""
    carry = Path(tempfile.mkdtemp(prefix="ekko-unprivileged-sources-"))
    folders.append(carry)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("core/ekko_memory", "resources", "tests"):
        shutil.copytree(ROOT / part, carry / part, ignore=skip)
    for path in (carry, *carry.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return carry


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
        sources = built_sources(folders)
        child = _CHILD.format(code=code, nobody=NOBODY)
        proc = subprocess.run(
            [sys.executable, "-c", child, str(target), str(rehearsal)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=sources,
            # This checkout's core, not whichever one the interpreter installed.
            env={
                **os.environ,
                "PYTHONPATH": os.pathsep.join([str(sources), str(sources / "core")]),
            },
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        return result
    finally:
        for folder in folders:
            for path in (folder, *folder.rglob("*")):
                path.chmod(0o755 if path.is_dir() else 0o644)
            shutil.rmtree(folder, ignore_errors=True)
