"""A refusal says whether it wrote nothing and whether trying again may work as flags an
interface reads, beside the English ending agents read."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ekko_memory import Conflict, StoreUnavailable, open_memory
from ekko_memory.service.governance import rejected


def test_unwritten_ends_the_message_once_and_keeps_the_detail() -> None:
    error = Conflict("the memory keeps changing").unwritten(retry=True)
    assert str(error) == "the memory keeps changing; nothing was written, try again"
    assert error.nothing_written and error.retry
    assert error.detail == "the memory keeps changing"
    # Said once, however often it is marked.
    assert str(error.unwritten()) == "the memory keeps changing; nothing was written, try again"
    plain = Conflict("already approved")
    assert not plain.nothing_written and not plain.retry and plain.detail == "already approved"


def test_a_refused_write_carries_its_causes_flags() -> None:
    cause = StoreUnavailable("memory store at /x stayed locked").unwritten(retry=True)
    outcome = rejected(str(cause), rule=cause.code, cause=cause)
    assert outcome.reason == "memory store at /x stayed locked; nothing was written, try again"
    assert outcome.detail == "memory store at /x stayed locked" and outcome.retry
    refused = rejected("global memories are read-only", rule="global_scope")
    assert refused.reason == "global memories are read-only; nothing was written"
    assert refused.detail == "global memories are read-only" and not refused.retry


@pytest.mark.sqlite_only(reason="SQLite's busy timeout")
def test_a_users_write_under_a_lock_says_try_again_by_its_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the app reads of a refused write: the reason without its ending and whether
    trying again may work, as fields of the outcome."""
    from ekko_memory.store import sqlite_dialect

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    ws = tmp_path / "ws"
    mem = open_memory(ws, user_home=tmp_path / "home")
    mem.actions.create(
        {"scope": "workspace", "domain": "项目", "type": "fact", "title": "t", "content": "开始"}
    )
    blocker = sqlite3.connect(ws / ".ekko" / "memory.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program's write transaction
    try:
        out = mem.actions.create(
            {"scope": "workspace", "domain": "项目", "type": "fact", "title": "u", "content": "锁"}
        )
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        mem.close()
    assert out.status == "rejected" and out.retry, out
    assert "locked by another process" in out.detail and "nothing was" not in out.detail
    assert out.reason.count("nothing was written") == 1
