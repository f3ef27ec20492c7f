"""Shared test setup: offscreen Qt before any Qt import, no test touches the real ~/.ekko,
and a throwaway PostgreSQL cluster for the core tests that run on both backends."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

BACKENDS = ("sqlite", "postgres")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        choices=("all", *BACKENDS),
        default=os.environ.get("EKKO_TEST_BACKEND", "all"),
        help="which store backends the core tests run on (default: all; "
        "PostgreSQL comes from $EKKO_TEST_PG_URL or a throwaway cluster)",
    )


@pytest.fixture(autouse=True)
def _private_ekko_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    monkeypatch.setenv("EKKO_HOME", str(tmp_path_factory.mktemp("ekko-home")))
    monkeypatch.delenv("EKKO_DATABASE_URL", raising=False)
    yield


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace folder."""
    ws = tmp_path / "workspace"
    ws.mkdir()
    return ws
