"""Purge: dry run equals the purge, batches and cancellation, and nothing left anywhere —
not in the tables, the full-text index, the database file's bytes, its WAL, or backups."""

from __future__ import annotations

import contextlib
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from ekko_memory import (
    BrowseFilter,
    CancelToken,
    Conflict,
    MemoryService,
    Progress,
    PurgeFilter,
    StoreUnavailable,
)
from ekko_memory.models import PURGE_KINDS
from ekko_memory.service.purge import Purger
from ekko_memory.service.purge_verify import verify_purge
from ekko_memory.store.filters import NodeFilter
from tests.backends import Backend
from tests.core.conftest import Clock
from tests.core.factories import SECRET_BRANCH, make_node, secret_rules
from tests.core.helpers import promotion_held, propose
from tests.core.helpers import raw_bytes as raw
from tests.core.sample_data import CILANTRO, dump, seed

CILANTRO_BYTES = "香菜".encode()
LIVE_SCOPES = ["session", "workspace", "user"]


def by_kind(targets: list) -> dict[str, set[str]]:
    return {k: {t.id for t in targets if t.kind == k} for k in PURGE_KINDS}


def test_query_purge_dry_run_equals_purge_and_leaves_nothing(mem: MemoryService) -> None:
    sample = seed(mem)
    assert CILANTRO_BYTES in raw(mem)
    before = (dump(mem.workspace_store), dump(mem.user_store))
    plan = mem.purger.plan(PurgeFilter(query="香菜", include_messages=True))
    assert (dump(mem.workspace_store), dump(mem.user_store)) == before  # a dry run writes nothing

    planned = by_kind(plan.targets)
    assert sample.cilantro in planned["node"] and plan.memories == 1
    assert planned["audit"] and planned["usage"]
    # The user's request and the assistant's reply both quote 香菜; the summary too.
    assert len(planned["message"]) == 2 and planned["summary"] == {sample.summary}
    assert plan.counts()["node"] == 1 and plan.needles[0] == "香菜"

    seen: list[Progress] = []
    report = mem.purger.purge(plan, progress=seen.append)
    assert by_kind(report.purged) == planned  # the same ids, kind by kind
    assert report.memories == 1 and not report.cancelled
    assert {p.stage for p in seen} >= {"memories", "messages", "compacting", "verifying"}
    assert report.verification is not None and report.verification.clean, report.verification
    assert report.verification.texts_checked >= 1

    assert mem.get_node(sample.cilantro) is None
    hits = mem.browse.search(BrowseFilter(text="香菜", statuses=None, scopes=LIVE_SCOPES))
    assert hits == []
    for store in (mem.workspace_store, mem.user_store):
        with store.read() as r:
            assert r.text_occurrences("香菜") == {}
            assert r.orphan_index_hits("香菜") == 0
    assert CILANTRO_BYTES not in raw(mem)
    # What the purge did not cover is still there.
    assert mem.get_node(sample.spicy_new) is not None and mem.get_node(sample.database) is not None
    with mem.workspace_store.read() as r:
        summary = r.list_summaries("s1")[0]
    assert summary.stale and summary.summary == ""


def test_the_audit_keeps_who_and_when_but_not_the_text(mem: MemoryService) -> None:
    sample = seed(mem)
    report = mem.purger.purge(PurgeFilter(query="香菜"))
    with mem.user_store.read() as r:
        events = r.audit_for_node(sample.cilantro)
    assert {e.event_type for e in events} >= {"create", "hard_delete"}
    assert all(e.payload in (None, {"mode": "hard"}) for e in events)
    assert report.counts()["node"] == 1


def test_purge_without_messages_reports_what_is_kept(mem: MemoryService) -> None:
    seed(mem)
    report = mem.purger.purge(PurgeFilter(query="香菜"))
    v = report.verification
    assert v is not None and not v.clean and v.leaks == []
    assert {f.location for f in v.kept if f.text == "香菜"} == {
        "table:memory_messages",
        "table:memory_summaries",
    }


def test_purge_of_one_session_with_its_log(mem: MemoryService) -> None:
    keep = seed(mem, "s1")
    s2 = mem.session("s2", user_id="u1", workspace_id="w1")
    tmp = propose(
        s2,
        "今天有点胃不舒服，吃清淡点",
        scope="user",
        domain="生活技能",
        type="constraint",
        key="flavor_profile",
        valueJson="清淡",
        title="今天胃不舒服",
    )
    assert tmp["accepted"]
    s2.append_message("assistant", "好的，今天推荐白粥。")
    plan = mem.purger.plan(PurgeFilter(session_id="s2", include_messages=True))
    assert by_kind(plan.targets)["node"] == {tmp["nodeId"]}
    assert len(plan.ids("message")) == 2
    report = mem.purger.purge(plan)
    assert by_kind(report.purged) == by_kind(plan.targets)
    assert mem.browse.messages("s2") == [] and len(mem.browse.messages("s1")) == len(keep.messages)
    assert report.verification is not None and report.verification.clean
    assert "白粥".encode() not in raw(mem) and "胃不舒服".encode() not in raw(mem)


def test_purge_by_scope_category_and_dates(mem: MemoryService, clock: Clock) -> None:
    sample = seed(mem)
    plan = mem.purger.plan(PurgeFilter(scopes=["workspace"]))
    assert by_kind(plan.targets)["node"] == {sample.database}
    plan = mem.purger.plan(PurgeFilter(category_path_prefix=["生活技能", "做饭"]))
    assert by_kind(plan.targets)["node"] == {
        sample.cilantro,
        sample.spicy_old,
        sample.spicy_new,
        sample.scallion_deleted,
    }
    assert plan.memories == 3 and by_kind(plan.targets)["pending"] == {sample.pending}
    later = mem.now() + timedelta(seconds=1)
    clock.advance(seconds=2)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    new = propose(
        s,
        "记住，我不吃洋葱",
        scope="user",
        domain="生活技能",
        type="preference",
        key="avoid_ingredient",
        valueJson="洋葱",
        title="不吃洋葱",
    )
    assert by_kind(mem.purger.plan(PurgeFilter(after=later)).targets)["node"] == {new["nodeId"]}
    older = by_kind(mem.purger.plan(PurgeFilter(before=later, scopes=["user"])).targets)["node"]
    assert new["nodeId"] not in older and sample.cilantro in older
    assert by_kind(mem.purger.plan(PurgeFilter(user_id="nobody")).targets)["node"] == set()
    assert by_kind(mem.purger.plan(PurgeFilter(workspace_id="w1")).targets)["node"] == {
        sample.database
    }
    mine = by_kind(mem.purger.plan(PurgeFilter(user_id="u1", scopes=["user"])).targets)["node"]
    assert {sample.cilantro, sample.spicy_old, sample.spicy_new, new["nodeId"]} <= mine


def test_a_filter_must_name_something() -> None:
    with pytest.raises(ValidationError, match="name what to purge"):
        PurgeFilter()
    with pytest.raises(ValidationError, match="global"):
        PurgeFilter(scopes=["global"])
    with pytest.raises(ValidationError, match="earlier"):
        PurgeFilter(after="2026-01-02", before="2026-01-01")  # type: ignore[arg-type]


def test_cancel_stops_between_batches_with_whole_chains(mem: MemoryService) -> None:
    nodes = []
    for i in range(130):
        first = make_node(key=None, value_json=None, title=f"秘密 {i}", status="superseded")
        second = make_node(key=None, value_json=None, title=f"秘密 {i} v2", supersedes_id=first.id)
        nodes += [first, second]
    with mem.user_store.write() as w:
        w.insert_nodes(nodes)
    plan = mem.purger.plan(PurgeFilter(query="秘密"))
    assert plan.memories == 130 and plan.counts()["node"] == 260
    token = CancelToken()

    def stop(p: Progress) -> None:
        if p.stage == "memories" and p.done > 0:
            token.cancel()

    report = mem.purger.purge(plan, progress=stop, cancel=token)
    assert report.cancelled and report.verification is None
    gone = by_kind(report.purged)["node"]
    assert len(gone) == 200 and report.memories == 100  # one batch of 100 chains
    with mem.user_store.read() as r:
        left = {n.id: n for n in r.find_nodes(NodeFilter(statuses=None), limit=None)}
    for n in nodes:  # never half a chain
        partner = n.supersedes_id or next(m.id for m in nodes if m.supersedes_id == n.id)
        assert (n.id in left) == (partner in left)
    # Running the rest finishes the job.
    rest = mem.purger.purge(PurgeFilter(query="秘密"))
    assert rest.memories == 30 and rest.verification is not None and rest.verification.clean


@pytest.mark.sqlite_only(
    reason="migration backups are SQLite files (a server's are its operator's)"
)
def test_backups_holding_purged_data_are_removed_or_reported(mem: MemoryService) -> None:
    seed(mem)
    backup = mem.user_store.dialect.backup(3)
    assert backup is not None and CILANTRO_BYTES in backup.read_bytes()
    kept = mem.purger.purge(PurgeFilter(query="香菜", remove_backups=False, include_messages=True))
    assert kept.backups_kept == [str(backup)] and backup.exists()
    assert kept.verification is not None and not kept.verification.clean
    assert any(f.location == f"backup:{backup}" for f in kept.verification.leaks)

    s = mem.session("s1", user_id="u1")
    assert propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)["accepted"]
    newer = mem.user_store.dialect.backup(3)
    assert newer is not None and newer != backup
    report = mem.purger.purge(PurgeFilter(query="香菜", include_messages=True))
    assert sorted(report.backups_removed) == sorted([str(backup), str(newer)])
    assert not backup.exists() and not newer.exists()
    assert report.verification is not None and report.verification.clean


def test_pending_items_and_usage_rows_go(mem: MemoryService) -> None:
    sample = seed(mem)
    plan = mem.purger.plan(PurgeFilter(query="红烧肉"))
    assert by_kind(plan.targets)["pending"] == {sample.pending}
    mem.purger.purge(plan)
    assert mem.pending() == []
    usage = by_kind(mem.purger.plan(PurgeFilter(scopes=["user"])).targets)["usage"]
    assert usage
    mem.purger.purge(PurgeFilter(scopes=["user"]))
    with mem.user_store.read() as r:
        assert list(r.iter_usage()) == []


def test_the_audit_of_a_purged_proposal_loses_its_text(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1")
    s.append_message("user", "我昨天做了红烧肉，挺好吃的。")
    held = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "node": {
                "scope": "user",
                "domain": "生活技能",
                "type": "preference",
                "key": "preferred_ingredient",
                "valueJson": "猪肉",
                "title": "用户喜欢红烧肉",
                "confidence": 0.6,
            },
            "reason": "用户说红烧肉好吃",
        },
    )
    assert held["status"] == "pending"
    plan = mem.purger.plan(PurgeFilter(query="红烧肉", include_messages=True))
    assert by_kind(plan.targets)["pending"] == {held["pendingId"]}
    assert by_kind(plan.targets)["audit"]  # the "pending" event quoting the proposal
    report = mem.purger.purge(plan)
    assert by_kind(report.purged) == by_kind(plan.targets)
    assert report.verification is not None and report.verification.clean, report.verification
    assert "红烧肉".encode() not in raw(mem)


def test_a_purge_stopped_after_memories_leaves_none_of_their_messages(
    mem: MemoryService,
) -> None:
    """Stopped between batches of memories (cancelled, or the program killed), a purge is
    finished by running it again: the memories gone in the first run must not take the
    only record of which messages were theirs with them."""
    branch = SECRET_BRANCH
    secret_rules(mem.workspace_store, "ZQM", 130)
    purge = PurgeFilter(category_path_prefix=branch, include_messages=True)
    token = CancelToken()

    def stop(p: Progress) -> None:
        if p.stage == "memories" and p.done > 0:
            token.cancel()

    first = mem.purger.purge(purge, progress=stop, cancel=token)
    assert first.cancelled and 0 < first.memories < 130
    rest = mem.purger.purge(purge)
    assert first.memories + rest.memories == 130
    with mem.workspace_store.read() as r:
        assert r.text_occurrences("规则 ZQM") == {}  # ("ZQM" alone can be inside an id)
    assert rest.verification is not None and rest.verification.clean


def test_a_purge_scrubs_the_other_stores_audit_of_its_memories(mem: MemoryService) -> None:
    """A proposal to move a session memory into the user's scope is filed in the user store,
    its audit row (the agent's reason) there too."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    secret = "私房辣酱ZQP"
    promotion_held(s, f"长期偏好，配{secret}")
    with mem.user_store.read() as r:
        assert r.text_occurrences(secret) == {"memory_audit_events": 1}
    report = mem.purger.purge(PurgeFilter(scopes=["session"]))
    assert report.verification is not None and report.verification.clean
    with mem.user_store.read() as r:
        assert r.text_occurrences(secret) == {}
    assert mem.pending(None) == []


def test_a_purge_that_fails_midway_says_what_is_already_gone(
    mem: MemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk (or a lock held too long) in the second batch: the first batch is
    purged for good, and the error says so instead of 'nothing was written'."""
    nodes = [make_node(key=None, value_json=None, title=f"秘密 {i}") for i in range(130)]
    with mem.user_store.write() as w:
        w.insert_nodes(nodes)
    batches = 0
    delete_nodes = Purger._delete_nodes

    def full_disk_second_time(self: Purger, *args: Any) -> None:
        nonlocal batches
        batches += 1
        if batches == 2:
            raise StoreUnavailable("database or disk is full; nothing was written")
        delete_nodes(self, *args)

    monkeypatch.setattr(Purger, "_delete_nodes", full_disk_second_time)
    with pytest.raises(StoreUnavailable, match="stopped partway: 100 records") as info:
        mem.purger.purge(PurgeFilter(query="秘密"))
    assert "run it again" in str(info.value)
    monkeypatch.undo()
    rest = mem.purger.purge(PurgeFilter(query="秘密"))
    assert rest.memories == 30 and rest.verification is not None and rest.verification.clean


@pytest.mark.parametrize("query", ["[", "]", ",", ":", '"', "{}", '","'])
def test_a_query_of_json_punctuation_plans_only_what_holds_it(
    mem: MemoryService, query: str
) -> None:
    """Tags, entities and values are stored as JSON: their brackets, quotes and commas are
    not the memory's text (a purge of "[" planned every memory with a tag list)."""
    plain = make_node(
        key="avoid_ingredient", value_json="葱", tags=["忌口", "做饭"], title="不吃葱"
    )
    holding = make_node(
        key=None, value_json=None, title=f"记号 {query} 在标题里", content="…", tags=[], entities=[]
    )
    with mem.user_store.write() as w:
        w.insert_nodes([plain, holding])
    planned = {t.id for t in mem.purger.plan(PurgeFilter(query=query)).targets if t.kind == "node"}
    assert planned == {holding.id}


def test_a_query_with_quotes_finds_a_tag_holding_them(mem: MemoryService) -> None:
    """Inside JSON a quote is spelled \\": the text is searched for as JSON spells it."""
    node = make_node(tags=['他说"少放盐"'], title="调味", content="…", entities=[])
    with mem.user_store.write() as w:
        w.insert_nodes([node])
    plan = mem.purger.plan(PurgeFilter(query='说"少放'))
    assert {t.id for t in plan.targets if t.kind == "node"} == {node.id}


@pytest.mark.parametrize("word", ["user", "agent", "active", "preference", "index", "text"])
def test_a_purge_of_a_word_the_machine_columns_spell_verifies_clean(
    mem: MemoryService, word: str
) -> None:
    """Scopes, actors, roles, statuses, types, ids and the field names and enum values of
    audit payloads spell these words in every row (and a SQLite file's schema spells
    "index" and "text"): they are not the user's text, and the verification no longer
    reports them as kept, or as leaked into the file, forever. (A session's name is
    another matter: tests/reliability/test_small_findings.py.)"""
    seed(mem)
    report = mem.purger.purge(PurgeFilter(query=word, include_messages=True))
    v = report.verification
    assert v is not None and v.clean, v
    assert v.kept == [] and v.leaks == []


def _plant(mem: MemoryService, where: str, text: str) -> str:
    """Put ``text`` where user text can live, next to machine fields spelling it too;
    returns the table it went into."""
    now = mem.now()
    if where == "audit payload":
        with mem.user_store.write() as w:
            w.add_audit(
                "create",
                actor="agent",
                reason="r",
                node_id="mem_x",
                payload={"node": {"title": f"留着 {text} 手册", "scope": "user"}},
            )
        return "memory_audit_events"
    if where == "audit reason":
        with mem.user_store.write() as w:
            w.add_audit("delete", actor="user", reason=f"用户说 {text} 不要了", node_id="mem_x")
        return "memory_audit_events"
    if where == "message metadata":
        s = mem.session("s9", user_id="u1", workspace_id="w1")
        s.append_message("user", "你好", metadata={"note": f"关于 {text}"})
        return "memory_messages"
    if where == "retry error":
        with mem.workspace_store.write() as w:
            job = w.add_job("extract", "s9", {"userId": "u1"}, now)
            w.reschedule_job(job, error=f"the model said: {text} likes it", next_at=now)
        return "memory_retry_queue"
    raise AssertionError(where)


@pytest.mark.parametrize(
    "where", ["audit payload", "audit reason", "message metadata", "retry error"]
)
@pytest.mark.parametrize("text", ["user", "香菜"])
def test_a_leftover_copy_of_the_purged_text_is_still_reported(
    mem: MemoryService, where: str, text: str
) -> None:
    """Verifying only the user's text must not make it blind: a copy of the purged text
    left where user text lives is found, for a machine word as for a real one."""
    seed(mem)
    report = mem.purger.purge(PurgeFilter(query=text, include_messages=True))
    assert report.verification is not None and report.verification.clean
    table = _plant(mem, where, text)
    stores = [mem.workspace_store, mem.user_store]
    again = verify_purge(stores, [text], query=text)
    assert not again.clean
    assert [(f.location, f.count) for f in again.kept] == [(f"table:{table}", 1)]


def test_the_products_own_reasons_are_listed_as_such() -> None:
    """The default reasons of the user's actions and the purge's own are the product's
    wording (not the user's text): a new default must be listed, or a purge of a word in
    it ("user") reports it as kept."""
    import inspect

    from ekko_memory.service import purge
    from ekko_memory.service.user_actions import UserActions
    from ekko_memory.store.user_text import PRODUCT_REASONS

    defaults = [
        p.default
        for _, fn in inspect.getmembers(UserActions, inspect.isfunction)
        for name, p in inspect.signature(fn).parameters.items()
        if name == "reason" and isinstance(p.default, str)
    ]
    assert len(defaults) >= 5
    assert set(defaults) | {purge.REASON} <= set(PRODUCT_REASONS)


def _templated_reasons(mem: MemoryService, backend: Backend, tmp_path: Path) -> None:
    """A history whose audit holds reasons the product built from templates: an import of a
    file, a revert to an older version, an approval, a change that no longer applies."""
    sample = seed(mem)
    mem.actions.revert(sample.spicy_old)  # "reverted to the version of … UTC (mem_…)"
    source = backend.open_memory(tmp_path / "source", key="source")
    try:
        seed(source)
        bundle = tmp_path / "bundle.json"
        source.exporter.export(bundle)
    finally:
        source.close()
    assert mem.importer.import_bundle(bundle).added  # "imported bundle.json"
    mem.decide(sample.pending, approve=True, actor="user")  # "approved by the user"
    today, held = promotion_held(mem.session("s1", user_id="u1", workspace_id="w1"), "推测")
    mem.actions.delete(today, "soft")
    with contextlib.suppress(Conflict):  # settled by the delete, or now: "no longer applies"
        mem.decide(held["pendingId"], approve=True, actor="user")
    reasons = []
    for _, store in mem.stores():
        with store.read() as r:
            reasons += [e.reason for e in r.audit_since(None, limit=10_000)]
    for start in ("imported bundle.json", "reverted to the version of ", "approved by the user"):
        assert any(r.startswith(start) for r in reasons), (start, reasons)
    assert any("no longer applies: " in r for r in reasons), reasons


@pytest.mark.parametrize("word", ["imported", "reverted", "UTC", "approved", "applies"])
def test_a_purge_of_a_word_of_the_products_templated_reasons_verifies_clean(
    mem: MemoryService, backend: Backend, tmp_path: Path, word: str
) -> None:
    """Reasons the product builds around ids and times ("imported <file>", "reverted to the
    version of <time> UTC (<id>)") are its wording, not the user's text kept forever."""
    _templated_reasons(mem, backend, tmp_path)
    report = mem.purger.purge(PurgeFilter(query=word, include_messages=True))
    v = report.verification
    assert v is not None and v.clean, v
    assert v.kept == [] and v.leaks == []


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        ("import", "imported {}.json"),
        ("approve", "{} 不要了; replaces mem_X, written after this was proposed"),
        ("approve", "{} 不要了"),
        ("hard_delete", "withdrawn: the change it belonged to was refused ({})"),
        ("delete", "用户说 {} 不要了"),
    ],
)
def test_the_chosen_part_of_a_templated_reason_still_counts(
    mem: MemoryService, backend: Backend, tmp_path: Path, event: str, reason: str
) -> None:
    """What a template embeds that someone chose (the import's file name, the user's note
    on an approval, a quoted error) is still found after a purge of a word in it: a file
    name is the user's (it can name a person or a secret), and so is a note that only
    starts like the product's wording."""
    _templated_reasons(mem, backend, tmp_path)
    report = mem.purger.purge(PurgeFilter(query="imported", include_messages=True))
    assert report.verification is not None and report.verification.clean
    with mem.user_store.write() as w:
        w.add_audit(event, actor="user", reason=reason.format("imported"), node_id="mem_x")
    again = verify_purge([mem.workspace_store, mem.user_store], ["imported"], query="imported")
    assert not again.clean
    assert [(f.location, f.count) for f in again.kept] == [("table:memory_audit_events", 1)]


def test_a_templated_reason_keeps_only_what_someone_chose() -> None:
    """The product's wording around a template's chosen part is not user text; the part
    is (read again: a note that is itself the product's default is not)."""
    from ekko_memory.store.user_text import reason_user_text

    revert = "reverted to the version of 2026-01-02 03:04 UTC (mem_01ABC)"
    assert reason_user_text(revert, "create") == []
    assert reason_user_text("imported 王芳病历.json", "import") == ["王芳病历.json"]
    assert reason_user_text("imported 王芳病历.json", "approve") == ["imported 王芳病历.json"]
    later = "; replaces mem_2, which replaced mem_1 after this was proposed"
    assert reason_user_text("approved by the user" + later, "approve") == []
    assert reason_user_text("对，我喜欢" + later, "approve") == ["对，我喜欢"]
    settled = "pending item pnd_1 no longer applies: the memory it would change (mem_1) was deleted"
    assert reason_user_text(settled, "expire") == []


@pytest.mark.parametrize("removal", ["hard delete", "purge"])
def test_a_failed_jobs_error_quoting_a_memory_goes_with_it(
    mem: MemoryService, removal: str
) -> None:
    """A failed extraction's error can quote what the extractor was shown (a crashing
    extractor's message, a model's reply): nobody can tell which memory, so a hard delete
    or a purge drops every job's error text, and the jobs stay to be retried."""
    secret = "暗号是青柠檬ZQW"
    made = mem.actions.create(
        {"scope": "user", "domain": "生活技能", "type": "fact", "title": f"我的{secret}"},
        user_id="u1",
    )
    assert made.node_id is not None
    _plant(mem, "retry error", secret)
    if removal == "hard delete":
        mem.actions.delete(made.node_id, "hard")
    else:
        report = mem.purger.purge(PurgeFilter(query=secret))
        assert report.verification is not None and report.verification.clean
    assert secret.encode() not in raw(mem)
    with mem.workspace_store.read() as r:
        jobs = r.due_jobs(mem.now())
    assert [j["last_error"] for j in jobs] == ["[redacted]"]


@pytest.mark.sqlite_only(
    reason="migration backups are SQLite files (a server's are its operator's)"
)
def test_backups_are_judged_by_the_user_text_they_hold_not_their_bytes(
    mem: MemoryService,
) -> None:
    """Every backup's bytes spell "user" (scopes, actors): a purge of "user" removed (or
    reported as leaking) every backup, though only one held a memory with the word."""
    seed(mem)
    older = mem.user_store.dialect.backup(3)

    def manual(title: str) -> None:
        node = make_node(key=None, value_json=None, title=title, content="…", tags=[], entities=[])
        with mem.user_store.write() as w:
            w.insert_nodes([node])

    manual("user manual")
    newer = mem.user_store.dialect.backup(3)
    assert older is not None and newer is not None and b"user" in older.read_bytes()
    kept = mem.purger.purge(PurgeFilter(query="user", remove_backups=False))
    assert kept.backups_kept == [str(newer)]
    assert kept.verification is not None
    assert {f.location for f in kept.verification.leaks} == {f"backup:{newer}"}
    manual("user guide")
    report = mem.purger.purge(PurgeFilter(query="user"))
    assert report.backups_removed == [str(newer)] and older.exists() and not newer.exists()
    assert report.verification is not None and report.verification.clean, report.verification


def test_a_deleted_message_leaves_no_later_link_of_the_summary_chain(
    mem: MemoryService,
) -> None:
    """彻底删除相关对话: each summary is built from the one before it and the new messages,
    so a deleted message's words live on in every later link — those links are rebuilt
    (made stale) too, and the context no longer quotes the message."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    said = s.append_message("user", "我家的门锁密码提示是青龙白虎")
    s.append_message("assistant", "好的")
    for i in range(7):  # two summaries: the second rolls the first forward
        s.after_reply()
        s.append_message("user", f"随便聊聊第{i}句")
        s.append_message("assistant", "好的")
    s.after_reply()
    first, second = mem.browse.summaries("s1")
    assert second.parent_summary_id == first.id and "青龙白虎" in second.summary

    assert mem.delete_messages([said.id], actor="user", reason="彻底删除相关对话") == (1, 2)
    assert [(x.stale, x.summary) for x in mem.browse.summaries("s1")] == [(True, ""), (True, "")]
    assert "青龙白虎" not in s.build_context("你好").render(max_tokens=2000)


def test_a_memory_deleted_for_good_leaves_the_summaries_that_listed_it(
    mem: MemoryService,
) -> None:
    """A summary lists the memories written from its messages (关键约束、用户偏好): a hard
    delete ("no readable copy in the file") takes the memory's title out of those lists,
    in the summary that heard it and in the later links that carried it forward."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，我对花生过敏，我喜欢少油少辣。")
    s.append_message("assistant", "好的")
    s.after_reply()
    (held,) = mem.pending()
    node_id = mem.decide(held.id, approve=True, actor="user")["nodeId"]
    for i in range(7):  # two summaries, the second carrying the first's lists forward
        s.append_message("user", f"随便聊聊第{i}句")
        s.append_message("assistant", "好的")
        s.after_reply()
    links = mem.browse.summaries("s1")
    assert len(links) == 2 and all("用户对花生过敏" in x.preferences for x in links)

    assert mem.delete_node(node_id, "hard", "隐私")  # the log is kept: the user did not ask
    assert [x.preferences for x in mem.browse.summaries("s1")] == [["用户偏好少油少辣"]] * 2


def test_the_summaries_of_a_deleted_message_are_rebuilt_from_what_remains(
    mem: MemoryService,
) -> None:
    """重新生成受影响摘要: the links made stale by a deleted message are summarized again,
    from the messages that remain, on the next run — the session keeps a summary of its
    conversation, without the deleted words."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    said = s.append_message("user", "我家的门锁密码提示是青龙白虎")
    s.append_message("assistant", "好的")
    for i in range(7):
        s.after_reply()
        s.append_message("user", f"随便聊聊第{i}句")
        s.append_message("assistant", "好的")
    s.after_reply()
    mem.delete_messages([said.id], actor="user", reason="彻底删除相关对话")
    assert mem.get_latest_summary(session_id="s1") is None

    s.append_message("user", "今天天气不错")
    s.append_message("assistant", "是的")
    assert s.after_reply().summary_id is not None
    rebuilt = mem.get_latest_summary(session_id="s1")
    assert rebuilt is not None and "青龙白虎" not in rebuilt.summary
    assert "随便聊聊第0句" in rebuilt.summary and "今天天气不错" in rebuilt.summary


def test_a_purge_of_a_message_rebuilds_the_summaries_it_scrubbed(mem: MemoryService) -> None:
    """A purge by text takes the message and every summary link that carried its words;
    the next run summarizes the messages that remain again, without them."""
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "我家的门锁密码提示是青龙白虎")
    s.append_message("assistant", "好的")
    for i in range(7):
        s.after_reply()
        s.append_message("user", f"随便聊聊第{i}句")
        s.append_message("assistant", "好的")
    s.after_reply()
    report = mem.purger.purge(PurgeFilter(query="青龙白虎", include_messages=True))
    assert report.verification is not None and report.verification.clean, report.verification
    assert mem.get_latest_summary(session_id="s1") is None

    s.append_message("user", "今天天气不错")
    s.append_message("assistant", "是的")
    assert s.after_reply().summary_id is not None
    rebuilt = mem.get_latest_summary(session_id="s1")
    assert rebuilt is not None and "随便聊聊第0句" in rebuilt.summary
