"""Shared test setup: offscreen Qt before any Qt import, and no test touches the real ~/.ekko."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _private_ekko_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    monkeypatch.setenv("EKKO_HOME", str(tmp_path_factory.mktemp("ekko-home")))
    yield


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace folder."""
    ws = tmp_path / "workspace"
    ws.mkdir()
    return ws
