"""What to do when a test's outside tool is missing (a Debian package, PostgreSQL, a font).

On a developer's machine the test is skipped and says what to install. In CI, where
``.ci/run`` installs all of it and sets ``EKKO_TEST_REQUIRE_ALL=1``, a missing tool is a
broken CI set-up: the test fails instead of passing silently as a skip.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

REQUIRE_ENV = "EKKO_TEST_REQUIRE_ALL"


def missing(what: str, install: str) -> NoReturn:
    """Skip (or in CI fail) a test because ``what`` is not available; ``install`` says how."""
    reason = f"{what} ({install})"
    if os.environ.get(REQUIRE_ENV):
        pytest.fail(f"{reason}; CI must provide it")
    pytest.skip(reason)
