"""No date can poison the store. Dates outside what Python and the stores hold (before the
year 1000, the year 9999 with an offset) and dates without a time zone are refused with a
clear error at every entry: an imported bundle, an agent's ``expiresAt``, the command
line. Rows an older release stored with such dates are read, not crashed on: every
command runs, the agent's context keeps its memories, ``stats`` says what is odd, and
``export`` takes everything out."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.intact import (
    Workspace,
    assert_cli_runs,
    assert_intact,
    seeded,
    seeded_bundle,
    snapshot,
)

# (the value, what the refusal says)
BAD_DATES = [
    ("0999-01-01T00:00:00Z", "outside the dates"),
    ("0001-01-01T00:00:00+05:00", "outside the dates"),
    ("9999-12-31T23:00:00-05:00", "outside the dates"),
    ("9999-06-01T00:00:00Z", "outside the dates"),
    ("2026-01-01T00:00:00", "no time zone"),
    ("2026-01-01", "no time zone"),
]
# Every date field of every kind of record a bundle carries.
FIELDS = [
    ("nodes", "createdAt"),
    ("nodes", "updatedAt"),
    ("nodes", "expiresAt"),
    ("audit", "createdAt"),
    ("pending", "createdAt"),
    ("pending", "decidedAt"),
    ("messages", "createdAt"),
    ("summaries", "createdAt"),
    ("usage", "usedAt"),
    ("cursors", "messageCreatedAt"),
    ("cursors", "updatedAt"),
]


@pytest.fixture
def source(tmp_path: Path) -> tuple[Workspace, dict[str, Any]]:
    """A seeded workspace and its exported bundle (as JSON)."""
    return seeded_bundle(tmp_path)


@pytest.mark.parametrize(("kind", "field"), FIELDS)
def test_a_bundle_with_a_date_out_of_range_changes_nothing(
    tmp_path: Path, source: tuple[Workspace, dict[str, Any]], kind: str, field: str
) -> None:
    _, bundle = source
    # The store whose records of this kind the seed wrote (the log lives in the workspace).
    store = next(s for s in ("user", "workspace") if bundle["stores"][s][kind])
    target, _ = seeded(tmp_path / "target")
    before = snapshot(target)
    for value, why in BAD_DATES:
        records = bundle["stores"][store][kind]
        bad = json.loads(json.dumps(bundle))
        bad["stores"][store][kind][-1][field] = value
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad), encoding="utf-8")
        code, out, err = target.cli("import", str(path))
        assert code == 2 and out == "" and "Traceback" not in err, (value, err)
        assert f"stores.{store}.{kind}[{len(records) - 1}].{field}" in err, err
        assert why in err, err
    assert_intact(target, before, tmp_path / "out" / "after")


@pytest.mark.parametrize(("value", "why"), BAD_DATES)
def test_an_agent_cannot_store_a_date_out_of_range(tmp_path: Path, value: str, why: str) -> None:
    w, _ = seeded(tmp_path)
    before = snapshot(w)
    mem = w.open()
    try:
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        s.append_message("user", "记住，我今天胃不舒服，别推荐辣的")
        res = s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "temporary state",
                "node": {
                    "scope": "session",
                    "domain": "生活技能",
                    "type": "constraint",
                    "title": "今天胃不舒服",
                    "expiresAt": value,
                },
            },
        )
    finally:
        mem.close()
    assert res["accepted"] is False and res["error"]["code"] == "invalid_arguments", res
    assert "node.expiresAt" in res["error"]["message"] and why in res["error"]["message"]
    after = snapshot(w)
    # The user's message was logged; nothing else changed.
    assert {k: v for k, v in after["workspace"].items() if k != "messages"} == {
        k: v for k, v in before["workspace"].items() if k != "messages"
    }
    assert after["user"] == before["user"]
    assert_intact(w, None, tmp_path / "out" / "after")


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("0999-01-01", "outside the dates"),
        ("9999-12-31T23:00:00-05:00", "outside the dates"),
        ("2026-01-01T10:00", "no time zone"),
        ("yesterday", "is not a date"),
    ],
)
def test_the_command_line_refuses_a_date_out_of_range(tmp_path: Path, value: str, why: str) -> None:
    w, _ = seeded(tmp_path)
    before = snapshot(w)
    for flag in ("--before", "--after"):
        code, out, err = w.cli("purge", flag, value, "--dry-run")
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert why in err and "Traceback" not in err, err
    assert_intact(w, before, tmp_path / "out" / "after")


# What older releases (or a hand) left in a store's date columns.
LEGACY = [
    "999-01-01T00:00:00.000000Z",  # the year 999 as strftime wrote it: no zero
    "0999-01-01T00:00:00.000000Z",
    "9999-12-31T23:59:59.999999Z",
    "not a date",
]


@pytest.mark.parametrize("stored", LEGACY)
def test_rows_an_older_release_stored_are_read_not_crashed_on(tmp_path: Path, stored: str) -> None:
    w, sample = seeded(tmp_path)
    for db in w.databases():
        conn = sqlite3.connect(db)
        with conn:
            for table, column in (
                ("memory_nodes", "created_at"),
                ("memory_nodes", "updated_at"),
                ("memory_audit_events", "created_at"),
                ("memory_pending", "created_at"),
                ("memory_messages", "created_at"),
                ("memory_usage", "used_at"),
                ("memory_summaries", "created_at"),
            ):
                conn.execute(f"UPDATE {table} SET {column} = ?", (stored,))
            conn.execute(
                "UPDATE memory_nodes SET expires_at = ? WHERE id = ?", (stored, sample.cilantro)
            )
        conn.close()
    # Every command runs and the export holds every memory.
    bundle = assert_cli_runs(w, tmp_path / "out" / "legacy")
    exported = {n["id"] for part in bundle["stores"].values() for n in part["nodes"]}
    assert {sample.cilantro, sample.spicy_new, sample.database} <= exported
    code, _, err = w.cli("stats")
    assert code == 0 and "holds dates this release does not write" in err, err
    mem = w.open()
    try:
        ctx = mem.session("s2", user_id="u1", workspace_id="w1").build_context("今晚吃什么？")
        assert ctx.diagnostics.warnings == [] and ctx.diagnostics.store_status == "ok"
        assert ctx.render()  # the memories are there (the expired one left out, if any)
        assert mem.decide(sample.pending, approve=False)["status"] == "rejected"
    finally:
        mem.close()
    for db in w.databases():
        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
