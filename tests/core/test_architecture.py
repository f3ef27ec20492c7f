"""The core never imports Qt, qasync or the GUI (checked in a clean interpreter)."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import ekko_memory

FORBIDDEN = ("PySide6", "shiboken6", "qasync", "ekko_memory_gui")


def test_core_imports_nothing_from_the_gui_side() -> None:
    script = textwrap.dedent(
        f"""
        import importlib, pkgutil, sys
        FORBIDDEN = {FORBIDDEN!r}

        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in FORBIDDEN:
                    raise ImportError("core imported " + name)
                return None

        sys.meta_path.insert(0, Block())
        import ekko_memory
        count = 0
        for mod in pkgutil.walk_packages(ekko_memory.__path__, "ekko_memory."):
            if mod.name.startswith("ekko_memory.interfaces.mcp"):
                # The MCP server needs the optional 'mcp' extra, not Qt; import it when present.
                try:
                    import mcp  # noqa: F401
                except ImportError:
                    continue
            if mod.name == "ekko_memory.integrations.hermes.provider":
                # Only Hermes Agent imports the provider (the 'hermes' extra; tests/hermes/).
                try:
                    import agent.memory_provider  # noqa: F401
                except ImportError:
                    continue
            importlib.import_module(mod.name)
            count += 1
        leaked = [m for m in sys.modules if m.split(".")[0] in FORBIDDEN]
        assert not leaked, leaked
        print(count)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.strip()) >= 10  # every core module was imported


def test_the_blocker_catches_a_leak() -> None:
    # The guard above must be able to fail: importing Qt under it raises.
    script = textwrap.dedent(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == "PySide6":
                    raise ImportError("blocked " + name)
                return None
        sys.meta_path.insert(0, Block())
        import PySide6.QtCore
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode != 0 and "blocked PySide6" in out.stderr


HERMES_MODULES = ("agent", "hermes_cli", "hermes_constants", "run_agent", "plugins", "tools")


def test_only_the_hermes_integration_imports_hermes() -> None:
    """Hermes Agent (and its YAML libraries) are imported in integrations/hermes/ only,
    and at module level only by provider.py, which Hermes alone imports."""
    core = Path(ekko_memory.__file__).parent
    for path in sorted(core.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside = path.parent.name == "hermes" and path.parent.parent.name == "integrations"
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in (*HERMES_MODULES, "yaml", "ruamel"):
                    assert inside, f"{path.relative_to(core)} imports {name}"
                    if top in HERMES_MODULES and node in tree.body:
                        assert path.name == "provider.py", f"{path.name} imports {name} at load"
