"""Packaging tests: ``bundle_config`` loaded from ``packaging/`` (not an importable package:
its name would shadow the ``packaging`` library)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"


def load_packaging_module(name: str) -> ModuleType:
    """Import ``packaging/<name>.py`` under its own name (as the spec does)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def bc() -> ModuleType:
    """``packaging/bundle_config.py``."""
    return load_packaging_module("bundle_config")
