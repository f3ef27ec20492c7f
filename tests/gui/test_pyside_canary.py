"""Canary for PySide6 6.12.0's leak of None on Python 3.11 (it aborts after a few thousand calls)."""

from __future__ import annotations

import sys

from PySide6 import __version__ as pyside_version
from PySide6.QtWidgets import QApplication


def test_pyside_version_is_pinned_below_6_12() -> None:
    major, minor = (int(x) for x in pyside_version.split(".")[:2])
    assert (major, minor) < (6, 12), f"PySide6 {pyside_version} is known to abort; pin <6.12"


def test_void_calls_do_not_leak_references_to_none(qapp: QApplication) -> None:
    before = sys.getrefcount(None)
    for _ in range(500):
        qapp.processEvents()
    after = sys.getrefcount(None)
    # A leaking build loses one reference per call (500 here); allow small noise.
    assert abs(after - before) < 50, (before, after)
