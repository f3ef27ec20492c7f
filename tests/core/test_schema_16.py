"""Schema 16: indexes on memory_nodes that no plan needs are dropped (every write paid for
them). A store of schema 15 upgrades, answers as it did, and writes, audits and takes
back a write as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from ekko_memory.store import migrations, tables
from tests.backends import Backend
from tests.core.test_retrieve_plans import answer, node_indexes, seed

# As a store of release 15 declared them (tables.py no longer does).
RELEASE_15 = {
    "idx_memory_nodes_domain": "status, domain, type, importance, updated_at",
    "idx_memory_nodes_status_category": "status, category_path_text, updated_at",
}

ASKED = [
    {"domain": "生活技能"},
    {"queryText": "香菜"},
    {"queryText": "豆腐", "categoryPathPrefix": ["生活技能", "做饭"], "limit": 3},
    {"domain": "生活技能", "types": ["preference"], "key": "avoid_ingredient", "valueJson": "香菜"},
]


def test_the_dropped_indexes_are_the_ones_release_15_declared() -> None:
    assert set(migrations.UNUSED_NODE_INDEXES) == set(RELEASE_15)
    declared = {index.name for index in tables.memory_nodes.indexes}
    assert declared.isdisjoint(RELEASE_15)


def test_a_store_of_schema_15_drops_the_unused_indexes_and_keeps_its_answers(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = list(migrations.MIGRATIONS)
    at = next(i for i, m in enumerate(shipped) if m[2] is migrations._v16_drop_unused_indexes)
    assert shipped[at][0] == 16
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", shipped[:at])
        old = backend.open_memory(tmp_path, key="m")
        assert {s.health.schema_version for _, s in old.stores()} == {15}
        for _, store in old.stores():
            # Step 1 creates the tables as declared now: release 15 had these too.
            with store.engine.begin() as conn:
                for name, columns in RELEASE_15.items():
                    conn.exec_driver_sql(f"CREATE INDEX {name} ON memory_nodes ({columns})")
            assert set(RELEASE_15) <= node_indexes(store)
        seed(old, 300)
        before = [answer(old, q, bounded=True) for q in ASKED]
        old.close()
    mem = backend.open_memory(tmp_path, key="m")
    kept = {index.name for index in tables.memory_nodes.indexes}
    for _, store in mem.stores():
        assert store.health.schema_version == migrations.latest_version() >= 16
        indexes = node_indexes(store)
        assert indexes.isdisjoint(RELEASE_15)
        assert kept <= indexes
    assert [answer(mem, q, bounded=True) for q in ASKED] == before
    # Writes are as they were: validated, written with their audit, reversible.
    s = mem.session("s-16", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，我不吃茴香。")
    made = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "the user asked",
            "node": {
                "domain": "生活技能",
                "type": "preference",
                "key": "avoid_ingredient",
                "valueJson": "茴香",
                "title": "用户不吃茴香",
            },
        },
    )
    assert made["accepted"] and made["status"] == "created", made
    refused = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "r",
            "node": {"domain": "生活技能", "type": "preference", "key": "x"},
        },
    )
    assert not refused["accepted"]
    assert [e.event_type for e in mem.history(made["nodeId"]).audit] == ["create"]
    gone = s.call_tool("memory_forget", {"id": made["nodeId"], "reason": "test"})
    assert gone["deletedIds"] == [made["nodeId"]]
    history = mem.history(made["nodeId"])
    assert history.chain[-1].status == "deleted"
    assert len(history.audit) == 2
