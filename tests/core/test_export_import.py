"""Export (JSON bundle, Markdown, CSV) and import of bundles: round trip, idempotence, conflicts."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from ekko_memory import (
    CancelToken,
    ExportSelection,
    InvalidInput,
    MemoryQuery,
    MemoryService,
    NotFound,
    Progress,
)
from ekko_memory.models import MemoryNodeDraft
from ekko_memory.service.importer import BATCH
from ekko_memory.store.filters import NodeFilter
from tests.backends import Backend
from tests.core.factories import make_message, make_node
from tests.core.helpers import COOKING, propose, user_write
from tests.core.sample_data import CILANTRO, dump, seed


@pytest.fixture
def other(backend: Backend, tmp_path: Path) -> Iterator[MemoryService]:
    """A second, empty workspace with its own user home (on the backend under test)."""
    service = backend.open_memory(tmp_path / "other", key="other")
    yield service
    service.close()


def bundle_of(mem: MemoryService, path: Path, **selection: object) -> dict:
    report = mem.exporter.export(path, selection=ExportSelection.model_validate(selection))
    assert report.path == str(path) and not report.cancelled
    return json.loads(path.read_text(encoding="utf-8"))


def test_round_trip_into_an_empty_workspace(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    sample = seed(mem)
    path = tmp_path / "bundle.json"
    mem.exporter.export(path)
    report = other.importer.import_bundle(path)

    for name in ("workspace", "user"):
        src = dump(getattr(mem, f"{name}_store"))
        dst = dump(getattr(other, f"{name}_store"))
        for kind in ("nodes", "messages", "summaries", "pending", "usage", "cursors"):
            assert dst[kind] == src[kind], (name, kind)
        # The same audit trail, each event marked as imported (the actor it named kept
        # in its payload), plus one event that records the import itself.
        extra = {k: v for k, v in dst["audit"].items() if k not in src["audit"]}
        assert {k: dst["audit"][k] for k in src["audit"]} == {
            k: {
                **e,
                "actor": "import",
                "payload": {**e.get("payload", {}), "imported": {"actor": e["actor"]}},
            }
            for k, e in src["audit"].items()
        }
        assert [e["eventType"] for e in extra.values()] == ["import"]
        assert report.count("added")["nodes" if name == "user" else "messages"] > 0
    assert [n.id for n in other.chain(sample.spicy_new)] == [sample.spicy_old, sample.spicy_new]
    there = mem.history(sample.spicy_new).audit
    here = other.history(sample.spicy_new).audit
    assert [(e.id, e.event_type, e.reason, e.created_at) for e in here] == [
        (e.id, e.event_type, e.reason, e.created_at) for e in there
    ]
    assert [(e.actor, (e.payload or {})["imported"]) for e in here] == [
        ("import", {"actor": e.actor}) for e in there
    ]
    assert other.history(sample.cilantro).usage == mem.history(sample.cilantro).usage
    assert [p.id for p in other.pending()] == [sample.pending]
    assert report.superseded == [] and report.skipped == {}


def test_importing_twice_adds_nothing(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    seed(mem)
    path = tmp_path / "bundle.json"
    mem.exporter.export(path)
    first = other.importer.import_bundle(path)
    before = (dump(other.workspace_store), dump(other.user_store))
    second = other.importer.import_bundle(path)
    assert (dump(other.workspace_store), dump(other.user_store)) == before
    assert not second.changed and second.count("added") == {}
    assert second.count("skipped") == first.count("added")
    # Importing into the workspace it came from changes nothing either.
    again = mem.importer.import_bundle(path)
    assert not again.changed


def test_bundle_is_private_versioned_and_holds_every_version(
    mem: MemoryService, tmp_path: Path
) -> None:
    sample = seed(mem)
    path = tmp_path / "bundle.json"
    data = bundle_of(mem, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert (data["format"], data["version"]) == ("ekko-memory-bundle", 1)
    user_nodes = {n["id"]: n["status"] for n in data["stores"]["user"]["nodes"]}
    assert user_nodes[sample.spicy_old] == "superseded"
    assert user_nodes[sample.spicy_new] == "active"
    assert user_nodes[sample.scallion_deleted] == "deleted"
    ws = data["stores"]["workspace"]
    assert [m["id"] for m in ws["messages"]] == sample.messages
    assert [s["id"] for s in ws["summaries"]] == [sample.summary]
    assert data["counts"]["nodes"] == len(user_nodes) + len(ws["nodes"])
    assert "用户不吃香菜" in path.read_text(encoding="utf-8")  # Chinese stays readable


def test_selection_by_scope_and_category_branch(mem: MemoryService, tmp_path: Path) -> None:
    sample = seed(mem)
    data = bundle_of(mem, tmp_path / "ws.json", scopes=["workspace"])
    assert [n["id"] for n in data["stores"]["workspace"]["nodes"]] == [sample.database]
    assert "user" not in data["stores"]
    # A scope-only selection of the workspace file is partial: no summaries, only sources.
    assert data["stores"]["workspace"]["summaries"] == []
    sources = {m["id"] for m in data["stores"]["workspace"]["messages"]}
    assert sources == set(data["stores"]["workspace"]["nodes"][0]["sourceMessageIds"])

    data = bundle_of(mem, tmp_path / "cooking.json", categoryPathPrefix=["生活技能", "做饭"])
    ids = {n["id"] for n in data["stores"]["user"]["nodes"]}
    assert ids == {sample.cilantro, sample.spicy_old, sample.spicy_new, sample.scallion_deleted}
    assert all(
        n["scope"] != "workspace" for n in data["stores"].get("workspace", {}).get("nodes", [])
    )
    audit_nodes = {a.get("nodeId") for a in data["stores"]["user"]["audit"]}
    assert audit_nodes <= ids
    assert [p["id"] for p in data["stores"]["user"]["pending"]] == [sample.pending]


def test_a_partial_selection_keeps_whole_chains(mem: MemoryService, tmp_path: Path) -> None:
    old = user_write(
        mem,
        scope="user",
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        key="avoid_ingredient",
        valueJson="芹菜",
        title="不吃芹菜",
    )
    new = mem.actions.edit(old, {"categoryPath": ["生活技能", "做饭", "忌口"], "title": "芹菜不吃"})
    assert new.node_id is not None
    data = bundle_of(mem, tmp_path / "b.json", categoryPathPrefix=["生活技能", "做饭", "忌口"])
    assert [n["id"] for n in data["stores"]["user"]["nodes"]] == [old, new.node_id]


def test_markdown_is_grouped_by_category(mem: MemoryService, tmp_path: Path) -> None:
    seed(mem)
    path = tmp_path / "memories.md"
    report = mem.exporter.export(path, format="md")
    text = path.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    cooking = text.index("## 生活技能 / 做饭 / 饮食偏好")
    project = text.index("## 项目")
    assert cooking < text.index("### 用户不吃香菜") < project or project < cooking
    assert "### 喜欢吃辣 _(superseded)_" in text and "### 用户不吃葱 _(deleted)_" in text
    assert "> 用户明确要求以后做饭推荐不要香菜。" in text
    assert "**avoid_ingredient**: 香菜" in text
    # Within a category the current memory comes before its history.
    assert text.index("### 少辣") < text.index("### 喜欢吃辣")
    assert report.counts == {"nodes": 5}


def test_markdown_lines_stay_lines_whatever_the_text(mem: MemoryService, tmp_path: Path) -> None:
    """Text from a chat may hold line breaks anywhere: in a title, a tag or an entity they
    would start a heading of their own in the Markdown."""
    mem.actions.create(
        {
            "scope": "workspace",
            "domain": "项目",
            "type": "fact",
            "title": "标题\n# 假标题一",
            "content": "内容\n# 引用里的井号",
            "tags": ["标签\n# 假标题二"],
            "entities": ["实体\n## 假标题三"],
        }
    )
    path = tmp_path / "memories.md"
    mem.exporter.export(path, format="md")
    headings = [line for line in path.read_text(encoding="utf-8").splitlines() if line[:1] == "#"]
    assert not [h for h in headings if "假标题" in h and not h.startswith("### 标题")], headings
    assert "> # 引用里的井号" in path.read_text(encoding="utf-8")


def test_csv_is_the_node_table(mem: MemoryService, tmp_path: Path) -> None:
    sample = seed(mem)
    path = tmp_path / "nodes.csv"
    mem.exporter.export(path, format="csv", selection=ExportSelection(scopes=["user"]))
    with path.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    by_id = {r["id"]: r for r in rows}
    assert set(by_id) == {
        sample.cilantro,
        sample.spicy_old,
        sample.spicy_new,
        sample.scallion_deleted,
    }
    row = by_id[sample.cilantro]
    assert (row["title"], row["valueJson"], row["categoryPath"], row["status"]) == (
        "用户不吃香菜",
        '"香菜"',
        "生活技能/做饭/饮食偏好",
        "active",
    )
    assert json.loads(row["tags"]) == ["忌口", "菜谱推荐"] and row["store"] == "user"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_csv_cells_never_run_as_spreadsheet_formulas(mem: MemoryService, tmp_path: Path) -> None:
    hostile = make_node(
        title='=HYPERLINK("http://evil.example","点我")',
        content="+cmd|' /C calc'!A0",
        value_json="@SUM(1+1)",
        tags=["-2+3"],
    )
    mem.user_store.upsert_node(hostile)
    path = tmp_path / "nodes.csv"
    mem.exporter.export(path, format="csv")
    with path.open(encoding="utf-8-sig", newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == hostile.id)
    assert row["title"] == '\'=HYPERLINK("http://evil.example","点我")'
    assert row["content"] == "'+cmd|' /C calc'!A0"
    # JSON-encoded cells start with a quote or bracket and are left as they are.
    assert row["valueJson"] == '"@SUM(1+1)"' and row["tags"] == '["-2+3"]'
    assert float(row["confidence"]) == hostile.confidence


def test_progress_and_cancellation(mem: MemoryService, tmp_path: Path) -> None:
    with mem.user_store.write() as w:
        w.insert_nodes(
            [make_node(key=None, value_json=None, title=f"笔记 {i}") for i in range(1200)]
        )
    seen: list[Progress] = []
    path = tmp_path / "big.json"
    report = mem.exporter.export(path, progress=seen.append)
    assert (
        report.counts["nodes"] == 1200
        and len(json.loads(path.read_text())["stores"]["user"]["nodes"]) == 1200
    )
    done = [p.done for p in seen if p.stage == "export"]
    assert done == sorted(done) and len(done) >= 2 and seen[-1].stage == "done"

    token = CancelToken()

    def stop(p: Progress) -> None:
        if p.done >= 500:
            token.cancel()

    for fmt in ("json", "md", "csv"):
        target = tmp_path / f"cancelled.{fmt}"
        cancelled = mem.exporter.export(target, format=fmt, progress=stop, cancel=token)  # type: ignore[arg-type]
        assert cancelled.cancelled and cancelled.path is None
        assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    assert path.exists()  # an earlier export is untouched


def big_bundle(mem: MemoryService, path: Path) -> dict:
    """The sample plus 1200 messages and 1200 user notes: a few batches in each store."""
    seed(mem)
    with mem.workspace_store.write() as w:
        w.insert_messages([make_message("s-long", content=f"第 {i} 条消息") for i in range(1200)])
    with mem.user_store.write() as w:
        w.insert_nodes(
            [make_node(key=None, value_json=None, title=f"笔记 {i}") for i in range(1200)]
        )
    return bundle_of(mem, path)


def both(mem: MemoryService) -> tuple[dict, dict]:
    return dump(mem.workspace_store), dump(mem.user_store)


def import_events(mem: MemoryService) -> list[str]:
    return [
        name
        for name, store in mem.stores()
        for e in dump(store)["audit"].values()
        if e["eventType"] == "import"
    ]


def test_a_cancelled_import_rolls_back_the_store_it_was_importing(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    path = tmp_path / "big.json"
    bundle = big_bundle(mem, path)
    seed(other, session_id="s-other")  # the same keys: the import would supersede these
    before = both(other)
    token = CancelToken()
    seen: list[Progress] = []

    def stop(p: Progress) -> None:
        seen.append(p)
        if p.done >= BATCH:
            token.cancel()  # after the first batch, inside the workspace store's transaction

    report = other.importer.import_bundle(path, progress=stop, cancel=token)
    assert report.cancelled and report.committed_stores == []
    assert report.cancelled_stores == ["workspace", "user"]
    assert not report.changed and report.added == {} and report.superseded == []
    assert 0 < seen[-1].done < seen[-1].total  # it stopped mid-way, with records written
    assert both(other) == before  # exactly what it held before: the batch was rolled back
    assert import_events(other) == []

    # Importing again completes it, as if nothing had been cancelled.
    again = other.importer.import_bundle(path)
    assert not again.cancelled and again.committed_stores == ["workspace", "user"]
    assert again.cancelled_stores == []
    ws, user = both(other)
    for name, store in (("workspace", ws), ("user", user)):
        for kind, records in bundle["stores"][name].items():
            ids = {
                r["id"] if kind != "cursors" else f"{r['sessionId']}:{r['kind']}" for r in records
            }
            assert ids <= set(store[kind]), (name, kind)
    assert again.superseded  # the local seed lost to the bundle's newer memories
    assert sorted(import_events(other)) == ["user", "workspace"]
    assert not other.importer.import_bundle(path).changed


def test_a_cancel_after_the_workspace_store_committed_keeps_it_and_says_so(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    path = tmp_path / "big.json"
    bundle = big_bundle(mem, path)
    user_before = dump(other.user_store)
    in_workspace = sum(len(v) for v in bundle["stores"]["workspace"].values())
    token = CancelToken()

    def stop(p: Progress) -> None:
        if p.done > in_workspace:
            token.cancel()  # the workspace store has committed; the user store is under way

    report = other.importer.import_bundle(path, progress=stop, cancel=token)
    assert report.cancelled
    assert report.committed_stores == ["workspace"] and report.cancelled_stores == ["user"]
    # The report counts what was committed: the workspace store's records, none of the user's.
    assert len(report.added["messages"]) == len(bundle["stores"]["workspace"]["messages"])
    user_ids = {
        r["id"]
        for kind, recs in bundle["stores"]["user"].items()
        if kind != "cursors"
        for r in recs
    }
    assert user_ids and not user_ids & {i for ids in report.added.values() for i in ids}
    assert dump(other.user_store) == user_before
    assert set(dump(other.workspace_store)["messages"]) == {
        m["id"] for m in bundle["stores"]["workspace"]["messages"]
    }
    assert import_events(other) == ["workspace"]

    again = other.importer.import_bundle(path)
    assert not again.cancelled and again.committed_stores == ["workspace", "user"]
    assert len(again.added["nodes"]) == len(bundle["stores"]["user"]["nodes"])
    assert "messages" not in again.added  # already there: skipped
    assert dump(other.user_store)["nodes"] == dump(mem.user_store)["nodes"]
    assert sorted(import_events(other)) == ["user", "workspace"]


def test_export_refuses_a_missing_folder(mem: MemoryService, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="does not exist"):
        mem.exporter.export(tmp_path / "nope" / "b.json")
    with pytest.raises(InvalidInput, match="folder"):
        mem.exporter.export(tmp_path)
    with pytest.raises(InvalidInput, match="format"):
        mem.exporter.export(tmp_path / "x.txt", format="txt")  # type: ignore[arg-type]


# --- conflicts ------------------------------------------------------------------------


def flavor(mem: MemoryService, value: str, says: str = "记住，") -> str:
    s = mem.session("s9", user_id="u1", workspace_id="w1")
    res = propose(
        s,
        says + value,
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        key="flavor_profile",
        valueJson=value,
        title=value,
    )
    assert res["accepted"], res
    return str(res["nodeId"])


def test_import_conflict_newer_bundle_node_supersedes_local(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    local = flavor(other, "少油")
    theirs = flavor(mem, "少辣")  # written later: newer
    path = tmp_path / "b.json"
    mem.exporter.export(path)
    report = other.importer.import_bundle(path)
    assert report.superseded == [local]
    assert other.get_node(local).status == "superseded"  # type: ignore[union-attr]
    assert other.get_node(theirs).status == "active"  # type: ignore[union-attr]
    events = other.history(local).audit
    assert events[0].event_type == "supersede" and events[0].actor == "import"
    assert events[0].payload == {"supersededBy": theirs, "conflict": True}
    # Exactly one active flavor profile remains.
    with other.user_store.read() as r:
        active = r.find_nodes(NodeFilter(key="flavor_profile"), limit=None)
    assert [n.id for n in active] == [theirs]


def test_import_conflict_newer_local_node_wins(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    theirs = flavor(mem, "少辣")
    path = tmp_path / "b.json"
    mem.exporter.export(path)
    local = flavor(other, "少油")  # written after the export: newer
    report = other.importer.import_bundle(path)
    assert report.superseded == [theirs]
    assert other.get_node(theirs).status == "superseded"  # type: ignore[union-attr]
    assert other.get_node(local).status == "active"  # type: ignore[union-attr]
    # Idempotent after a conflict too.
    assert not other.importer.import_bundle(path).changed


def test_a_local_memory_an_import_replaced_leads_to_the_winner_and_reverts(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    """The replaced local memory and the imported one are one history: the replaced one
    leads to the one in use, and reverting to it makes its value current again."""
    local = flavor(other, "少油")
    theirs = flavor(mem, "少辣")  # newer: wins
    path = tmp_path / "b.json"
    mem.exporter.export(path)
    other.importer.import_bundle(path)
    assert [v.id for v in other.chain(local)] == [local, theirs]
    assert other.head_of(local).id == theirs

    back = other.actions.revert(local)
    assert back.accepted and back.superseded_id == theirs, back
    head = other.head_of(local)
    assert head.id == back.node_id and head.title == "少油" and head.status == "active"
    assert other.get_node(theirs).status == "superseded"  # type: ignore[union-attr]
    stepped_down = next(e for e in other.history(theirs).audit if e.node_id == theirs)
    assert (stepped_down.event_type, stepped_down.actor) == ("supersede", "user")
    assert stepped_down.payload == {"supersededBy": back.node_id}
    # Reversible like any revert.
    again = other.actions.revert(theirs)
    assert again.accepted and other.head_of(local).title == "少辣"


def test_an_agent_changing_a_memory_an_import_replaced_is_sent_to_the_imported_one(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    local = flavor(other, "少油")
    theirs = flavor(mem, "少辣")
    path = tmp_path / "b.json"
    mem.exporter.export(path)
    other.importer.import_bundle(path)
    s = other.session("s9", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，改成微辣")
    res = s.call_tool(
        "memory_propose_update",
        {"operation": "update", "targetId": local, "node": {"title": "微辣"}, "reason": "test"},
    )
    assert res["error"]["code"] == "conflict", res
    assert f"change its current version {theirs} instead" in res["error"]["message"], res


def test_an_imported_memory_that_lost_leads_to_the_local_winner(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    theirs = flavor(mem, "少辣")
    path = tmp_path / "b.json"
    mem.exporter.export(path)
    local = flavor(other, "少油")  # newer: wins
    other.importer.import_bundle(path)
    assert [v.id for v in other.chain(local)] == [theirs, local]
    assert other.head_of(theirs).id == local
    assert other.actions.revert(theirs).accepted
    assert other.head_of(local).title == "少辣"


def test_an_imported_chain_that_won_follows_the_local_chain_it_replaced(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    """The winner arrives with older versions of its own: the whole imported chain comes
    after the local one, in order, and an old local version can be reverted to."""
    ours = seed(mem)
    src = seed(other)
    path = tmp_path / "b.json"
    other.exporter.export(path)
    mem.importer.import_bundle(path)
    chain = [v.id for v in mem.chain(ours.spicy_old)]
    assert chain == [ours.spicy_old, ours.spicy_new, src.spicy_old, src.spicy_new]
    assert [v.status for v in mem.chain(src.spicy_old)][-1] == "active"
    assert mem.head_of(ours.spicy_old).id == src.spicy_new
    assert mem.head_of(ours.cilantro).id == src.cilantro
    reverted = mem.actions.revert(ours.spicy_old)
    assert reverted.accepted and reverted.superseded_id == src.spicy_new
    assert mem.head_of(src.spicy_old).value_json == {"spicy": "high"}
    # Importing the bundle again changes nothing and says nothing about the moved link.
    again = mem.importer.import_bundle(path)
    assert not again.changed and not again.notes, again


def test_the_joined_history_travels_back_with_the_next_bundle(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    """The side the winner came from gets the replaced memory back in a later bundle: it
    joins the same history there (its audit names the winner)."""
    local = flavor(other, "少油")
    theirs = flavor(mem, "少辣")
    there, back = tmp_path / "there.json", tmp_path / "back.json"
    mem.exporter.export(there)
    other.importer.import_bundle(there)
    other.exporter.export(back)
    mem.importer.import_bundle(back)
    assert [v.id for v in mem.chain(theirs)] == [local, theirs]
    assert mem.head_of(local).id == theirs


def test_a_database_imported_into_before_the_link_is_joined_by_its_upgrade(
    backend: Backend, mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    """An import by an earlier release left the winner only in the audit: the upgrade to
    schema version 10 links the two histories."""
    local = flavor(other, "少油")
    theirs = flavor(mem, "少辣")
    path = tmp_path / "b.json"
    mem.exporter.export(path)
    other.importer.import_bundle(path)
    with other.user_store.write() as w:  # the file as an earlier release left it: no link
        w.conn.execute(
            text("UPDATE memory_nodes SET supersedes_id = NULL WHERE id = :id"), {"id": theirs}
        )
        w.conn.execute(text("DELETE FROM memory_schema_migrations WHERE version >= 10"))
    assert other.head_of(local).id == local
    other.close()
    reopened = backend.open_memory(tmp_path / "other", key="other")
    assert [v.id for v in reopened.chain(local)] == [local, theirs]
    assert reopened.actions.revert(local).accepted


def _shared_fact(mem: MemoryService, other: MemoryService, tmp_path: Path) -> str:
    """A workspace fact (部署说明 v1) written here and imported there; its id."""
    draft = {"type": "fact", "scope": "workspace", "domain": "项目", "title": "部署说明 v1"}
    x = mem.actions.create(MemoryNodeDraft.model_validate({**draft, "content": "部署说明 v1"}))
    assert x.node_id is not None
    first = tmp_path / "first.json"
    mem.exporter.export(first)
    other.importer.import_bundle(first)
    return x.node_id


@pytest.mark.parametrize("newer", ["theirs", "ours"])
def test_a_memory_edited_on_both_sides_keeps_one_current_version(
    mem: MemoryService, other: MemoryService, tmp_path: Path, newer: str
) -> None:
    """Edited here and there since the last exchange: the two versions continue one memory
    apart. The newer stays current, the other is superseded (audited, noted), never two
    active versions of one memory."""

    x = _shared_fact(mem, other, tmp_path)
    edits = [(other, "这边改过的部署说明"), (mem, "那边改过的部署说明")]
    if newer == "ours":
        edits.reverse()
    for service, title in edits:
        service.actions.edit(x, {"title": title})
    second = tmp_path / "second.json"
    mem.exporter.export(second)
    report = other.importer.import_bundle(second)
    with other.workspace_store.read() as r:
        current = [
            n
            for n in r.find_nodes(NodeFilter(domain="项目"), limit=None)
            if n.title != "部署说明 v1"
        ]
    assert [n.title for n in current] == [edits[-1][1]], [(n.title, n.status) for n in current]
    assert len(report.superseded) == 1 and report.notes, report
    loser = other.get_node(report.superseded[0])
    assert loser is not None and loser.status == "superseded"
    assert other.history(loser.id).audit[0].reason.startswith("import: two versions")
    # One line of versions: the first, the one that lost, the one in use.
    assert [v.id for v in other.chain(x)] == [x, loser.id, current[0].id]
    assert other.head_of(loser.id).id == current[0].id
    assert not other.importer.import_bundle(second).changed


def test_a_memory_edited_on_both_sides_is_deleted_whole(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    """After such an import the memory has two versions after its first: its history goes
    through the replaced one to the current one, and a hard delete takes both (the
    superseded one quotes it too)."""

    x = _shared_fact(mem, other, tmp_path)
    other.actions.edit(x, {"title": "这边改的 ZQA"})  # older: loses the import
    mem.actions.edit(x, {"title": "那边改的 ZQB"})
    second = tmp_path / "second.json"
    mem.exporter.export(second)
    (loser,) = other.importer.import_bundle(second).superseded
    head = other.head_of(x)
    assert head.title == "那边改的 ZQB" and head.status == "active"
    assert [v.id for v in other.chain(x)] == [x, loser, head.id]
    assert other.head_of(loser).id == head.id
    deleted = other.actions.delete(head.id, "hard")
    assert sorted(deleted) == sorted([x, head.id, loser])
    with other.workspace_store.read() as r:
        # With the words around them ("ZQA" alone can be inside an id).
        assert r.text_occurrences("改的 ZQA") == {} and r.text_occurrences("改的 ZQB") == {}


def test_many_valued_keys_do_not_conflict(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    s = other.session("s1", user_id="u1")
    local = propose(s, "记住我不吃葱", **{**CILANTRO, "valueJson": "葱", "title": "不吃葱"})
    seed(mem)
    path = tmp_path / "b.json"
    mem.exporter.export(path)
    report = other.importer.import_bundle(path)
    assert report.superseded == []
    assert other.get_node(local["nodeId"]).status == "active"  # type: ignore[union-attr]


def test_a_later_bundle_moves_state_forward(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    sample = seed(mem)
    path = tmp_path / "b.json"
    mem.exporter.export(path)
    other.importer.import_bundle(path)
    edited = mem.actions.edit(
        sample.cilantro, MemoryNodeDraft(content="香菜一点都不要。", importance=0.99)
    )
    assert edited.accepted, edited
    mem.actions.delete(sample.database)
    mem.exporter.export(path, force=True)
    report = other.importer.import_bundle(path)
    assert edited.node_id in report.added["nodes"]
    assert sample.cilantro in report.updated["nodes"] and sample.database in report.updated["nodes"]
    assert other.get_node(sample.cilantro).status == "superseded"  # type: ignore[union-attr]
    assert other.get_node(sample.database).status == "deleted"  # type: ignore[union-attr]
    assert dump(other.user_store)["nodes"] == dump(mem.user_store)["nodes"]


def test_a_bad_bundle_changes_nothing(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    seed(other)
    before = (dump(other.workspace_store), dump(other.user_store))
    path = tmp_path / "bad.json"
    with pytest.raises(NotFound):
        other.importer.import_bundle(tmp_path / "missing.json")
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(InvalidInput, match="not valid JSON"):
        other.importer.import_bundle(path)
    path.write_text(json.dumps({"nodes": []}), encoding="utf-8")
    with pytest.raises(InvalidInput, match="not an Ekko Memory bundle"):
        other.importer.import_bundle(path)
    path.write_text(json.dumps({"format": "ekko-memory-bundle", "version": 99, "stores": {}}))
    with pytest.raises(InvalidInput, match="newer"):
        other.importer.import_bundle(path)
    # Nested deeper than the parser recurses, a number longer than int() converts.
    for unreadable in ("[" * 100_000 + "]" * 100_000, '{"version": 1' + "0" * 5000 + "}"):
        path.write_text(unreadable, encoding="utf-8")
        with pytest.raises(InvalidInput, match="not a bundle this release can read"):
            other.importer.import_bundle(path)
    seed(mem)
    good = tmp_path / "good.json"
    mem.exporter.export(good)
    data = json.loads(good.read_text(encoding="utf-8"))
    data["stores"]["user"]["nodes"][-1]["confidence"] = 2
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput, match=r"stores\.user\.nodes\[\d+\]\.confidence"):
        other.importer.import_bundle(path)
    data["stores"]["user"]["nodes"][-1]["confidence"] = 0.5
    data["stores"]["user"]["audit"][0]["id"] = "not-an-id"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InvalidInput, match="audit"):
        other.importer.import_bundle(path)
    assert (dump(other.workspace_store), dump(other.user_store)) == before


def test_a_bundle_saved_with_a_byte_order_mark_imports(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    """Opened and saved again in an editor that writes UTF-8 with a byte-order mark."""
    sample = seed(mem)
    path = tmp_path / "bundle.json"
    mem.exporter.export(path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    other.importer.import_bundle(path)
    assert other.get_node(sample.cilantro) is not None


def test_json_escapes_no_store_can_hold_are_cleaned_on_import(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    """A bundle edited by hand (or by another tool) may spell a lone surrogate or NUL in
    JSON escapes: they arrive as U+FFFD, as through every other way in, not as an error
    halfway through the import."""
    sample = seed(mem)
    path = tmp_path / "bundle.json"
    mem.exporter.export(path)
    text = path.read_text(encoding="utf-8")
    title = CILANTRO["title"]
    assert text.count(title) >= 2  # the node and its audit payload
    path.write_text(text.replace(title, "用户\\ud800不吃\\u0000香菜"), encoding="utf-8")
    other.importer.import_bundle(path)
    node = other.get_node(sample.cilantro)
    assert node is not None and node.title == "用户\ufffd不吃\ufffd香菜"
    found = other.retrieve(MemoryQuery(query_text="不吃"))
    assert sample.cilantro in [n.id for n in found.exact + found.relevant]


@pytest.mark.sqlite_only(reason="FTS5 segments of the SQLite file")
def test_an_import_leaves_the_search_index_merged(
    mem: MemoryService, other: MemoryService, tmp_path: Path
) -> None:
    seed(mem)
    path = tmp_path / "bundle.json"
    mem.exporter.export(path)
    # Written one at a time, the receiving store's index holds several segments.
    for i in range(5):
        other.user_store.upsert_node(make_node(title=f"本地记忆{i}", value_json=f"食材{i}"))

    def segments() -> int:
        with other.user_store.raw() as raw:
            return int(
                raw.execute("SELECT count(DISTINCT segid) FROM memory_nodes_fts_idx").fetchone()[0]
            )

    assert segments() > 1
    report = other.importer.import_bundle(path)
    assert report.added["nodes"]
    # Merged by the import, not left for the user's next write to pay for.
    assert segments() == 1
    assert other.search_nodes(query="香菜", limit=5)


def test_a_bundle_over_the_configured_size_is_refused_before_it_is_read(
    mem: MemoryService, tmp_path: Path
) -> None:
    """A bundle is parsed whole in memory: a huge or hostile file is refused with the
    limit named (import_max_mb in config.json), on the command line too; one at the limit
    imports."""
    from ekko_memory import open_memory
    from ekko_memory.interfaces.cli import main

    sample = seed(mem)
    bundle = tmp_path / "bundle.json"
    mem.exporter.export(bundle)
    ws, home = tmp_path / "small", tmp_path / "small-home"
    (ws / ".ekko").mkdir(parents=True)
    (ws / ".ekko" / "config.json").write_text(json.dumps({"import_max_mb": 1}), encoding="utf-8")
    limit = 1024 * 1024
    data = bundle.read_bytes()
    assert len(data) < limit
    over = tmp_path / "over.json"
    over.write_bytes(data + b" " * (limit + 1 - len(data)))  # valid JSON, one byte too many
    small = open_memory(ws, user_home=home)
    try:
        with pytest.raises(InvalidInput, match=r"larger than 1 MiB.*import_max_mb"):
            small.importer.import_bundle(over)
        assert small.get_node(sample.cilantro) is None
    finally:
        small.close()
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["--workspace", str(ws), "--user-home", str(home), "import", str(over)])
    assert code != 0 and "larger than 1 MiB" in err.getvalue()
    at_limit = tmp_path / "at-limit.json"
    at_limit.write_bytes(data + b" " * (limit - len(data)))
    small = open_memory(ws, user_home=home)
    try:
        small.importer.import_bundle(at_limit)
        assert small.get_node(sample.cilantro) is not None
    finally:
        small.close()
