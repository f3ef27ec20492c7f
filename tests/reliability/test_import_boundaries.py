"""An import carries data, never decisions or identity. A bundle cannot decide a pending
item here, bring items decided "by the user", write audit events as the user, or retire
a memory by naming it as an older version (``supersedesId``); its pending proposals are
validated like any memory and its strings are bounded; what it changed, it says."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import InvalidInput
from ekko_memory.ids import new_id
from tests.core.sample_data import Sample
from tests.reliability.intact import Workspace, assert_intact, seeded, snapshot


def export(w: Workspace, path: Path) -> dict[str, Any]:
    code, _, err = w.cli("export", "--output", str(path), "--force")
    assert code == 0, err
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write(data: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def import_json(w: Workspace, path: Path) -> tuple[int, dict[str, Any], str]:
    code, out, err = w.cli("import", str(path), "--json")
    return code, json.loads(out), err


def status(w: Workspace, node_id: str) -> str:
    mem = w.open()
    try:
        node = mem.get_node(node_id)
        assert node is not None
        return node.status
    finally:
        mem.close()


def pending_status(w: Workspace, pending_id: str) -> str:
    mem = w.open()
    try:
        (item,) = [p for p in mem.pending(status=None) if p.id == pending_id]
        return item.status
    finally:
        mem.close()


@pytest.fixture
def here(tmp_path: Path) -> tuple[Workspace, Sample]:
    return seeded(tmp_path / "here")


@pytest.mark.parametrize("approve", [True, False])
def test_a_bundle_cannot_decide_a_pending_item_here(
    tmp_path: Path, here: tuple[Workspace, Sample], approve: bool
) -> None:
    """A copy of this workspace where the item was decided: its bundle brings the data
    (the memory an approval wrote), the item here still waits for the user."""
    w, sample = here
    there = Workspace(tmp_path / "there")
    shutil.copytree(w.root, there.root)
    mem = there.open()
    try:
        mem.decide(sample.pending, approve=approve, note="decided over there")
    finally:
        mem.close()
    bundle = export(there, tmp_path / "decided.json")
    code, report, err = import_json(w, tmp_path / "decided.json")
    assert code == 0, err
    assert pending_status(w, sample.pending) == "pending"
    assert sample.pending in report["skipped"]["pending"]
    assert any(sample.pending in n and "does not decide" in n for n in report["notes"])
    # The decision's audit event came as history, by the import.
    decision = "approve" if approve else "reject"
    (event,) = [e for e in bundle["stores"]["user"]["audit"] if e["eventType"] == decision]
    mem = w.open()
    try:
        with mem.user_store.read() as r:
            (mine,) = [e for e in r.iter_audit() if e.id == event["id"]]
        assert mine.actor == "import" and mine.payload["imported"] == {"actor": "user"}
        # The user decides here, as always.
        assert mem.decide(sample.pending, approve=True)["status"] == "approved"
    finally:
        mem.close()
    assert_intact(w, None, tmp_path / "out" / "after")


def test_a_bundle_cannot_add_items_decided_by_the_user(
    tmp_path: Path, here: tuple[Workspace, Sample]
) -> None:
    w, _ = here
    bundle = export(w, tmp_path / "b.json")
    (item,) = bundle["stores"]["user"]["pending"]
    forged = {
        **item,
        "id": new_id("pnd"),
        "status": "approved",
        "decidedBy": "user",
        "decidedAt": item["createdAt"],
        "decisionNote": "the user approved this",
    }
    waiting = {**item, "id": new_id("pnd"), "decidedBy": "user", "decidedAt": item["createdAt"]}
    bundle["stores"]["user"]["pending"] = [forged, waiting]
    code, report, err = import_json(w, write(bundle, tmp_path / "forged.json"))
    assert code == 0, err
    assert sorted(report["added"]["pending"]) == sorted([forged["id"], waiting["id"]])
    mem = w.open()
    try:
        got = {p.id: p for p in mem.pending(status=None)}
    finally:
        mem.close()
    assert (got[forged["id"]].status, got[forged["id"]].decided_by) == ("approved", "import")
    # A waiting item carries no decision at all.
    assert got[waiting["id"]].status == "pending"
    assert (got[waiting["id"]].decided_by, got[waiting["id"]].decided_at) == (None, None)
    code, out, _ = w.cli("pending", "--all")
    assert code == 0 and forged["id"] in out


def test_imported_audit_events_never_read_as_the_users(
    tmp_path: Path, here: tuple[Workspace, Sample]
) -> None:
    w, sample = here
    target, _ = seeded(tmp_path / "target")
    bundle = export(w, tmp_path / "b.json")
    users_before = _events_by(target, "user")
    code, report, err = import_json(target, tmp_path / "b.json")
    assert code == 0, err
    assert _events_by(target, "user") == users_before  # none came in as the user's
    imported = [e["id"] for part in bundle["stores"].values() for e in part["audit"]]
    assert sorted(report["added"]["audit"]) == sorted(imported)
    code, out, _ = target.cli("history", sample.cilantro)
    assert code == 0 and "agent (imported)" in out, out
    assert_intact(target, None, tmp_path / "out" / "after")


def _events_by(w: Workspace, actor: str) -> set[str]:
    out: set[str] = set()
    for db in w.databases():
        conn = sqlite3.connect(db)
        out |= {
            r[0]
            for r in conn.execute("SELECT id FROM memory_audit_events WHERE actor = ?", (actor,))
        }
        conn.close()
    return out


def _newer(node: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A bundle's new version of ``node``, written later."""
    return {
        **node,
        "id": new_id("mem"),
        "createdAt": "2030-01-01T00:00:00Z",
        "updatedAt": "2030-01-01T00:00:00Z",
        **fields,
    }


# A bundle node naming a memory here as its older version: (which one, what it is).
ATTACKS = {
    "another key": (
        "cilantro",
        {"key": "preferred_ingredient", "valueJson": "牛肉", "title": "喜欢牛肉"},
    ),
    "the same many-valued key, another value": (
        "cilantro",
        {"valueJson": "葱", "title": "不吃葱", "entities": ["葱"]},
    ),
    "a memory of the other store": (
        "database",
        {"scope": "user", "title": "数据库改用 MySQL", "valueJson": "MySQL"},
    ),
}


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_bundle_cannot_retire_another_memory_by_naming_it(
    tmp_path: Path, here: tuple[Workspace, Sample], attack: str
) -> None:
    w, sample = here
    victim_name, fields = ATTACKS[attack]
    victim = getattr(sample, victim_name)
    bundle = export(w, tmp_path / "b.json")
    nodes = {n["id"]: n for part in bundle["stores"].values() for n in part["nodes"]}
    base = nodes[sample.database if victim_name == "database" else sample.cilantro]
    forged = _newer(base, supersedesId=victim, **fields)
    store = "user" if forged["scope"] == "user" else "workspace"
    attack_bundle = {**bundle, "stores": {store: {"nodes": [forged]}}}
    code, report, err = import_json(w, write(attack_bundle, tmp_path / "attack.json"))
    assert code == 0, err
    assert report["added"]["nodes"] == [forged["id"]]
    assert victim not in report["superseded"]
    assert any(
        forged["id"] in n and f"link to an older version: {victim}" in n for n in report["notes"]
    )
    assert status(w, victim) == "active"  # and after a reopen (which repairs cross-store chains)
    mem = w.open()
    try:
        came = mem.get_node(forged["id"])
        assert came is not None and came.supersedes_id is None
    finally:
        mem.close()
    assert status(w, victim) == "active"
    assert_intact(w, None, tmp_path / "out" / "after")


def test_a_newer_version_of_the_same_memory_still_replaces_it_and_says_so(
    tmp_path: Path, here: tuple[Workspace, Sample]
) -> None:
    """The control: a bundle continuing a memory's own chain supersedes it, listed."""
    w, sample = here
    bundle = export(w, tmp_path / "b.json")
    (base,) = [n for n in bundle["stores"]["user"]["nodes"] if n["id"] == sample.cilantro]
    newer = _newer(base, supersedesId=sample.cilantro, content="香菜一点都不要。")
    code, report, err = import_json(
        w, write({**bundle, "stores": {"user": {"nodes": [newer]}}}, tmp_path / "newer.json")
    )
    assert code == 0, err
    assert report["superseded"] == [sample.cilantro]
    assert status(w, sample.cilantro) == "superseded"
    code, out, _ = w.cli("import", str(tmp_path / "newer.json"))
    assert code == 0 and "Nothing new" in out


def test_a_bundles_rivalry_cannot_join_two_unrelated_memories(
    tmp_path: Path, here: tuple[Workspace, Sample]
) -> None:
    """An import links the rivals it settled by their audit (``supersededBy``, conflict):
    a forged one naming two memories that are not one cannot join their histories."""
    w, sample = here
    bundle = export(w, tmp_path / "b.json")
    user = bundle["stores"]["user"]
    (cilantro,) = [n for n in user["nodes"] if n["id"] == sample.cilantro]
    loser = {
        **cilantro,
        "id": new_id("mem"),
        "type": "fact",
        "title": "无关的事实",
        "status": "superseded",
    }
    del loser["key"], loser["valueJson"]
    forged = {
        **user["audit"][0],
        "id": new_id("aud"),
        "eventType": "supersede",
        "actor": "import",
        "nodeId": loser["id"],
        "payload": {"supersededBy": sample.cilantro, "conflict": True},
    }
    attack = {**bundle, "stores": {"user": {"nodes": [loser], "audit": [forged]}}}
    code, _, err = import_json(w, write(attack, tmp_path / "rival.json"))
    assert code == 0, err
    mem = w.open()
    try:
        assert [v.id for v in mem.chain(sample.cilantro)] == [sample.cilantro]
        assert mem.head_of(loser["id"]).id == loser["id"]
    finally:
        mem.close()


# A pending proposal's memory, broken: (field, value, what the refusal names).
BAD_PROPOSALS = [
    ("confidence", 5, "node.confidence"),
    ("title", "", "node.title"),
    ("createdAt", "0999-01-01T00:00:00Z", "node.createdAt"),
    ("scope", "global", "node.scope"),
    ("id", "mem_not-an-id", "node.id"),
]


@pytest.mark.parametrize(("field", "value", "named"), BAD_PROPOSALS)
def test_a_pending_proposal_is_validated_like_any_memory(
    tmp_path: Path, here: tuple[Workspace, Sample], field: str, value: Any, named: str
) -> None:
    w, _ = here
    bundle = export(w, tmp_path / "b.json")
    (item,) = bundle["stores"]["user"]["pending"]
    item = {**item, "id": new_id("pnd"), "node": {**item["node"], field: value}}
    bundle["stores"]["user"]["pending"] = [item]
    before = snapshot(w)
    code, out, err = w.cli("import", str(write(bundle, tmp_path / "bad.json")))
    assert code == 2 and out == "" and "Traceback" not in err, err
    assert f"stores.user.pending[0].{named}" in err, err
    assert_intact(w, before, tmp_path / "out" / "after")


def test_deciding_a_broken_stored_proposal_raises_ekkos_own_error(
    tmp_path: Path, here: tuple[Workspace, Sample]
) -> None:
    """What an older release imported unchecked: approving it is a clear refusal (no
    pydantic traceback), nothing is written, and rejecting it works."""
    w, sample = here
    mem = w.open()
    try:
        with pytest.raises(InvalidInput, match="the edits"):
            mem.decide(sample.pending, approve=True, edits={"title": "ok", "confidence": 9})
        with pytest.raises(InvalidInput, match="the note is"):
            mem.decide(sample.pending, approve=False, note="x" * 5000)
    finally:
        mem.close()
    conn = sqlite3.connect(w.home / "memory.db")
    with conn:
        (raw,) = conn.execute(
            "SELECT node_json FROM memory_pending WHERE id = ?", (sample.pending,)
        ).fetchone()
        node = {**json.loads(raw), "confidence": 5, "title": ""}
        conn.execute(
            "UPDATE memory_pending SET node_json = ? WHERE id = ?",
            (json.dumps(node), sample.pending),
        )
    conn.close()
    before = snapshot(w)
    mem = w.open()
    try:
        with pytest.raises(
            InvalidInput, match=f"pending item {sample.pending} proposes no valid memory"
        ):
            mem.decide(sample.pending, approve=True)
    finally:
        mem.close()
    assert snapshot(w) == before and pending_status(w, sample.pending) == "pending"
    code, out, err = w.cli("approve", sample.pending)
    assert code == 2 and "proposes no valid memory" in err and "Traceback" not in err, err
    code, out, err = w.cli("reject", sample.pending)
    assert code == 0 and "Rejected" in out, err


# Strings a bundle may not bring, however big the file may be: (where, field, value).
BIG = 5 * 1024 * 1024
OVERSIZED = [
    ("audit", "reason", "x" * BIG),
    ("audit", "actor", "user" * 100),
    ("audit", "payload", {"note": "x" * (2 * 1024 * 1024)}),
    ("pending", "reason", "x" * BIG),
    ("pending", "decisionNote", "x" * BIG),
    ("pending", "requester", "agent" * 100),
    ("nodes", "userId", "u" * 1000),
    ("nodes", "sessionId", "s" * 1000),
]


@pytest.mark.parametrize(
    ("kind", "field", "value"), OVERSIZED, ids=[f"{k}.{f}" for k, f, _ in OVERSIZED]
)
def test_imported_strings_are_bounded(
    tmp_path: Path, here: tuple[Workspace, Sample], kind: str, field: str, value: Any
) -> None:
    w, _ = here
    bundle = export(w, tmp_path / "b.json")
    record = {**bundle["stores"]["user"][kind][0], field: value}
    record["id"] = new_id({"audit": "aud", "pending": "pnd", "nodes": "mem"}[kind])
    bundle["stores"] = {"user": {kind: [record]}}
    before = snapshot(w)
    code, out, err = w.cli("import", str(write(bundle, tmp_path / "big.json")))
    assert code == 2 and out == "" and "Traceback" not in err, err
    assert f"stores.user.{kind}[0].{field}" in err and "the limit is" in err, err[:300]
    assert_intact(w, before, tmp_path / "out" / "after")


def test_duplicate_ids_in_one_bundle_are_reported_as_duplicates(
    tmp_path: Path, here: tuple[Workspace, Sample]
) -> None:
    w, sample = here
    target, _ = seeded(tmp_path / "target")
    bundle = export(w, tmp_path / "b.json")
    user = bundle["stores"]["user"]
    (cilantro,) = [n for n in user["nodes"] if n["id"] == sample.cilantro]
    user["nodes"].append({**cilantro, "title": "另一个版本"})
    user["audit"].append(user["audit"][0])
    code, report, err = import_json(target, write(bundle, tmp_path / "dup.json"))
    assert code == 0, err
    assert report["duplicates"] == {"nodes": [sample.cilantro], "audit": [user["audit"][0]["id"]]}
    mem = target.open()
    try:
        node = mem.get_node(sample.cilantro)
        assert node is not None and node.title == cilantro["title"]  # the first one read
    finally:
        mem.close()
    code, out, _ = target.cli("import", str(tmp_path / "dup.json"))
    assert code == 0 and "more than once, read once (2)" in out, out
