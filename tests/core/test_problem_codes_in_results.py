"""Results that quote a store's problem (a compaction skipping a store, an export leaving
one out, an import or a purge refused) carry its code beside the English text for the app
(``StoreProblemNote``, the errors' ``reason_code``), and their JSON and English stay
exactly as before: agents, the CLI and MCP see no change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ekko_memory import InvalidInput, MemoryService, StoreUnavailable
from ekko_memory.interfaces.cli_transfer import compact_text
from ekko_memory.models import PurgeFilter
from ekko_memory.store import migrations
from ekko_memory.store.problem import Problem
from tests.core.sample_data import seed

# The keys each result's JSON had before the codes were carried beside it.
COMPACTED_KEYS = {"store", "location", "backend", "status", "reason", "files", "ran", "warnings"}
EXPORT_KEYS = {"path", "format", "counts", "bytes", "cancelled", "warnings"}


def read_only_user(mem: MemoryService) -> str:
    """The user store as a read-only file leaves it (its health's problem); the sentence."""
    where = mem.user_store.health.location
    problem = Problem(
        "read_only_file",
        f"{where} is read-only: memories can be read but not changed"
        " (fix the file's permissions to write)",
        {"path": where},
    )
    mem.user_store.health.set_problem("readonly", problem)
    return problem.text


def test_a_compaction_skipping_a_store_reads_as_before_and_carries_the_code(
    mem: MemoryService,
) -> None:
    said = read_only_user(mem)
    report = mem.compact()
    user = next(s for s in report.stores if s.store == "user")
    assert user.status == "skipped"
    assert user.reason == f"the store is readonly: {said}"
    assert user.problem is not None
    assert (user.problem.store, user.problem.status, user.problem.code) == (
        "user",
        "readonly",
        "read_only_file",
    )
    assert user.problem.args == {"path": mem.user_store.health.location}
    data = report.to_json()
    (entry,) = [e for e in data["stores"] if e["store"] == "user"]
    assert set(entry) == COMPACTED_KEYS, entry
    assert entry["reason"] == f"the store is readonly: {said}"
    assert "problem" not in json.dumps(data) and "cause" not in json.dumps(data)
    assert f"user store  {user.location}  skipped (the store is readonly: {said})" in (
        compact_text(report)
    )


def test_an_export_leaving_a_store_out_reads_as_before_and_carries_the_code(
    mem: MemoryService, tmp_path: Path
) -> None:
    seed(mem)
    latest = migrations.latest_version()
    problem = Problem(
        "newer_schema",
        f"the database uses schema version {latest + 1}, newer than this release's {latest};"
        " upgrade Ekko Memory to open it",
        {"version": str(latest + 1), "latest": str(latest)},
    )
    mem.user_store.health.set_problem("disabled", problem)
    report = mem.exporter.export(tmp_path / "out.json")
    assert report.warnings == [f"the user store was skipped: {problem.text}"]
    (note,) = report.warning_problems
    assert note is not None and (note.store, note.code) == ("user", "newer_schema")
    assert note.args == problem.args
    data = report.to_json()
    assert set(data) == EXPORT_KEYS, data
    assert data["warnings"] == [f"the user store was skipped: {problem.text}"]


def test_an_import_or_purge_refused_by_a_store_says_the_same_and_carries_the_code(
    mem: MemoryService, tmp_path: Path
) -> None:
    seed(mem)
    bundle = tmp_path / "bundle.json"
    mem.exporter.export(bundle)
    said = read_only_user(mem)
    with pytest.raises(InvalidInput) as imported:
        mem.importer.import_bundle(bundle)
    assert str(imported.value) == (
        f"the user store cannot be written ({said}); nothing was imported"
    )
    assert imported.value.code == "invalid_input"
    e = imported.value
    assert (e.store, e.status, e.reason_code) == ("user", "readonly", "read_only_file")
    with pytest.raises(StoreUnavailable) as purged:
        mem.purger.purge(PurgeFilter(scopes=["user"]))
    assert str(purged.value) == f"the user store cannot be written ({said}); nothing was purged"
    assert purged.value.code == "store_unavailable"
    e = purged.value
    assert (e.store, e.status, e.reason_code) == ("user", "readonly", "read_only_file")
