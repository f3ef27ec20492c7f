"""What the import-linter contracts (pyproject.toml, tests/test_import_contracts.py) cannot
say: Hermes Agent is imported at module level only by the provider, which Hermes alone
imports, so the core imports and type-checks without it."""

from __future__ import annotations

import ast
from pathlib import Path

import ekko_memory

HERMES_MODULES = ("agent", "hermes_cli", "hermes_constants", "run_agent", "plugins", "tools")


def test_only_the_provider_imports_hermes_at_load() -> None:
    """Which package may import Hermes is a contract (``hermes-in-its-integration``);
    that the others import it inside functions only (when Hermes runs them) is read here."""
    core = Path(ekko_memory.__file__).parent
    for path in sorted(core.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in HERMES_MODULES:
                    assert path.name == "provider.py", f"{path.name} imports {name} at load"
