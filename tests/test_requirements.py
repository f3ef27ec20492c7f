"""The missing-tool rule: a skip on a developer's machine, a failure in CI."""

from __future__ import annotations

import pytest

from tests.requirements import REQUIRE_ENV, missing


def test_a_missing_tool_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="make is not installed"):
        missing("make is not installed", "apt install make")


def test_a_missing_tool_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="CI must provide it"):
        missing("make is not installed", "apt install make")
