"""The app talks to the core only through its public API, and imports Qt from one place."""

from __future__ import annotations

import ast
from pathlib import Path

import ekko_memory

APP = Path(__file__).resolve().parents[2] / "ekko_memory_gui"


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


def test_the_app_uses_only_the_public_core_api_and_one_qt_module() -> None:
    public = set(ekko_memory.__all__)
    allowed_modules = {"ekko_memory.resources", "ekko_memory.demo"}  # shipped data, demo filler
    for path in sorted(APP.rglob("*.py")):
        for name in _imports(path):
            module, _, attr = name.rpartition(".")
            if name.startswith(("sqlalchemy", "ekko_memory.store")) or module.startswith(
                "ekko_memory.store"
            ):
                raise AssertionError(f"{path.name} imports {name}")
            if module == "ekko_memory":
                assert attr in public or attr == "__version__", f"{path.name}: {name} is not public"
            elif module.startswith("ekko_memory.") and not module.startswith("ekko_memory_gui"):
                assert module in allowed_modules, f"{path.name} imports {name}"
            if name.startswith("PySide6") or module.startswith("PySide6"):
                assert path.name == "qt.py", f"{path.name} imports {name}; use ekko_memory_gui.qt"
