"""The app talks to the core only through its public API. Which modules it may import is
a contract (``app-public-api``, ``app-qt-in-one-place`` in pyproject.toml); which names
it takes from ``ekko_memory`` is read here: only those the package exports."""

from __future__ import annotations

import ast
from pathlib import Path

import ekko_memory

APP = Path(__file__).resolve().parents[2] / "ekko_memory_gui"


def test_the_app_takes_only_exported_names_from_the_core() -> None:
    public = {*ekko_memory.__all__, "__version__"}
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "ekko_memory":
                for alias in node.names:
                    assert alias.name in public, f"{path.name}: {alias.name} is not public"
