"""The layer contracts in pyproject.toml hold (``lint-imports``), and they can fail: a copy
of the sources with one deliberately wrong import breaks the contract it crosses."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.requirements import missing

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONTRACTS = 5


def _lint(cwd: Path, *, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    if not LINT_IMPORTS.exists():
        missing("lint-imports", "pip install -e '.[dev]' (import-linter)")
    env = {**os.environ, "PYTHONPATH": str(path) if path else ""}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )


def test_the_checkout_keeps_every_contract() -> None:
    out = _lint(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"Contracts: {CONTRACTS} kept, 0 broken." in out.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two packages and pyproject.toml, copied where PYTHONPATH finds them first."""
    root = tmp_path_factory.mktemp("layers")
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "core" / "ekko_memory", root / "src" / "ekko_memory", ignore=skip)
    shutil.copytree(ROOT / "ekko_memory_gui", root / "src" / "ekko_memory_gui", ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


# (file of the copy, import added to it, the contract it breaks)
WRONG = [
    pytest.param(
        "ekko_memory/models/base.py",
        "from ekko_memory.service import memory_service",
        "The core's layers: each imports only the layers below it",
        id="models-import-the-service",
    ),
    pytest.param(
        "ekko_memory/service/session.py",
        "from ekko_memory.interfaces import tools",
        "The core's layers: each imports only the layers below it",
        id="service-imports-an-interface",
    ),
    pytest.param(
        "ekko_memory/store/rows.py",
        "import PySide6",
        "The core never imports Qt, qasync or the app",
        id="core-imports-qt",
    ),
    pytest.param(
        "ekko_memory_gui/views/status_bar.py",
        "from ekko_memory.store import sql_store",
        "The app imports the core's public API only",
        id="app-imports-the-store",
    ),
    pytest.param(
        "ekko_memory_gui/views/status_bar.py",
        "from PySide6 import QtWidgets",
        "The app imports Qt in ekko_memory_gui.qt only",
        id="app-imports-qt-directly",
    ),
]


@pytest.mark.parametrize(("module", "line", "contract"), WRONG)
def test_a_wrong_import_breaks_its_contract(
    copy: Path, module: str, line: str, contract: str
) -> None:
    target = copy / "src" / module
    original = target.read_text(encoding="utf-8")
    # After the module's docstring and __future__ import: a plain module-level import.
    head, sep, rest = original.partition("from __future__ import annotations\n")
    assert sep, module
    target.write_text(head + sep + line + "\n" + rest, encoding="utf-8")
    try:
        out = _lint(copy, path=copy / "src")
    finally:
        target.write_text(original, encoding="utf-8")
    assert out.returncode != 0, out.stdout
    assert f"{contract}" in out.stdout and "BROKEN" in out.stdout, out.stdout
    assert f"Contracts: {CONTRACTS - 1} kept, 1 broken." in out.stdout, out.stdout
