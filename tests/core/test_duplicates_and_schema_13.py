"""Merging and dismissing the pairs of the duplicates report (audited, reversible,
persisted), and the upgrade of an existing store from schema 12 to 13."""

from __future__ import annotations

from pathlib import Path

import pytest

from ekko_memory import InvalidInput, MemoryService
from ekko_memory.store import migrations
from tests.backends import Backend
from tests.core.helpers import every_node, propose
from tests.core.sample_data import CILANTRO, seed
from tests.core.test_semantic import CAT, NURSE, fact

TWIN = "用户家里有只猫，名叫团子"


def _pair(mem: MemoryService) -> tuple[str, str]:
    first, second = fact(CAT), fact(TWIN)
    for node in (first, second, fact(NURSE)):
        mem.upsert_node(node)
    mem.reindex()
    pairs = mem.duplicates(threshold=0.7)
    assert [{p.first.id, p.second.id} for p in pairs] == [{first.id, second.id}]
    return first.id, second.id


def test_a_dismissed_pair_stops_appearing_and_can_come_back(
    mem: MemoryService, backend: Backend, tmp_path: Path
) -> None:
    a, b = _pair(mem)
    assert mem.actions.dismiss_duplicates(b, a) is True
    assert mem.actions.dismiss_duplicates(a, b) is False  # one pair, whatever the order
    assert mem.duplicates(threshold=0.7) == []
    # Persisted: another process sees it.
    assert backend.open_memory(tmp_path).duplicates(threshold=0.7) == []
    # It follows the memory to a new version.
    edited = mem.actions.edit(a, {"content": "一只橘猫"})
    assert edited.node_id is not None
    mem.reindex()
    assert mem.duplicates(threshold=0.7) == []
    events = [e for e in mem.history(b).audit if e.event_type == "dismiss"]
    assert [e.reason_code for e in events] == ["user.not_duplicates"]
    assert mem.actions.undismiss_duplicates(edited.node_id, b) is True
    assert [{p.first.id, p.second.id} for p in mem.duplicates(threshold=0.7)] == [
        {edited.node_id, b}
    ]
    with pytest.raises(InvalidInput):
        mem.actions.dismiss_duplicates(a, a)


def test_merge_keeps_one_with_both_histories_and_sources_and_undoes(
    mem: MemoryService,
) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    keep = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)["nodeId"]
    twin = {**CILANTRO, "key": None, "valueJson": None, "title": "做饭别放香菜"}
    drop = propose(s, "记住，做饭别放香菜", **twin)["nodeId"]
    keep_node, drop_node = mem.get_node(keep), mem.get_node(drop)
    assert keep_node is not None and drop_node is not None
    mem.actions.pin(drop)
    outcome = mem.actions.merge_duplicates(keep, drop)
    assert outcome.accepted and outcome.node_id == keep and outcome.superseded_id == drop
    merged = mem.get_node(keep)
    dropped = mem.get_node(drop)
    assert merged is not None and dropped is not None and dropped.status == "superseded"
    assert merged.source_message_ids == [
        *keep_node.source_message_ids,
        *drop_node.source_message_ids,
    ]
    assert [v.id for v in mem.chain(keep)] == [drop, keep]  # one history, the kept one last
    assert mem.head_of(drop).id == keep
    assert mem.actions.is_pinned(keep)  # the pin moved to the memory it lives on in
    assert {e.event_type for e in mem.history(keep).audit} >= {"merge"}
    merges = [e for e in mem.history(drop).audit if e.event_type == "merge"]
    assert {e.node_id for e in merges} == {keep, drop}
    assert {e.reason_code for e in merges} == {"user.merged"}
    # Only the kept memory is in the context now.
    ctx = s.build_context("做饭要注意什么？")
    assert drop not in ctx.rendered_memory_ids and drop not in [n.id for n in ctx.preferences]

    undone = mem.actions.unmerge(drop)
    assert undone.accepted and undone.node_id == drop
    back, kept = mem.get_node(drop), mem.get_node(keep)
    assert back is not None and back.status == "active"
    assert kept is not None and kept.source_message_ids == keep_node.source_message_ids
    assert [v.id for v in mem.chain(keep)] == [keep] and mem.head_of(drop).id == drop
    with pytest.raises(InvalidInput):
        mem.actions.unmerge(drop)  # not merged any more
    with pytest.raises(InvalidInput):
        mem.actions.merge_duplicates(keep, keep)


def test_merge_refuses_an_old_version_and_two_versions_of_one_memory(
    mem: MemoryService,
) -> None:
    from ekko_memory import Conflict

    sample = seed(mem)
    with pytest.raises(Conflict) as e:
        mem.actions.merge_duplicates(sample.cilantro, sample.spicy_old)
    assert e.value.reason_code == "node.old_version"
    with pytest.raises(Conflict):
        mem.actions.merge_duplicates(sample.cilantro, sample.scallion_deleted)


def test_a_store_of_schema_12_is_upgraded_to_13_with_its_data(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = list(migrations.MIGRATIONS)
    assert shipped[12][0] == 13
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", shipped[:12])
        old = backend.open_memory(tmp_path, key="m")
        for _, store in old.stores():
            assert store.health.schema_version == 12
        # What a release of schema 12 wrote (nothing here touches the new tables).
        cat, nurse = fact(CAT), fact(NURSE, scope="workspace")
        for node in (cat, nurse):
            old.upsert_node(node)
        old.session("s1", user_id="u1").append_message("user", "我养了一只猫")
        before = sorted((n.id, n.status) for n in every_node(old))
        old.close()
    mem = backend.open_memory(tmp_path, key="m")
    for _, store in mem.stores():
        assert store.health.status == "ok"
        assert store.health.schema_version == migrations.latest_version() >= 13
    assert sorted((n.id, n.status) for n in every_node(mem)) == before
    assert not mem.pause_state().paused and mem.actions.pinned() == {}
    assert [m.content for m in mem.list_recent_messages("s1", 10)] == ["我养了一只猫"]
    assert mem.actions.pin(cat.id) and mem.actions.pin(nurse.id) and mem.pause().paused
    assert set(mem.actions.pinned()) == {cat.id, nurse.id}
    if not backend.is_postgres:
        # The upgrade backed the file up first, as every upgrade does.
        assert any(p.name.startswith("memory-v12-") for p in mem.workspace_store.backups())
