"""Messages by id (for the app's inbox and "used in") and the demo workspace."""

from __future__ import annotations

from pathlib import Path

from ekko_memory import BrowseFilter, MemoryService, open_memory
from ekko_memory.demo import create_demo_workspace


def test_messages_by_id_across_sessions_in_order(mem: MemoryService) -> None:
    a = mem.session("s1", user_id="u1").append_message("user", "记住，我不吃香菜。")
    b = mem.session("s2", user_id="u1").append_message("user", "from now on, reply in English")
    found = mem.browse.messages_by_id([b.id, a.id, "msg_unknown"])
    assert [m.id for m in found] == [a.id, b.id]
    assert found[0].content == "记住，我不吃香菜。"
    assert mem.browse.messages_by_id([]) == []


def test_demo_workspace_has_what_the_app_shows(tmp_path: Path) -> None:
    report = create_demo_workspace(tmp_path)
    assert not report.warnings
    mem = open_memory(report.workspace, user_home=report.user_home)
    try:
        every = mem.browse.list_nodes(BrowseFilter(statuses=None), limit=500).nodes
        statuses = {n.status for n in every}
        assert {"active", "superseded", "expired", "deleted"} <= statuses
        titles = {n.title for n in every}
        assert {"用户不吃香菜", "用户可接受少量香菜", "Database: SQLite (desktop build)"} <= titles
        # Supersede chains: 香菜 (avoid → limit) and the database decision.
        chain = mem.chain(report.node_ids["some_coriander"])
        assert [n.title for n in chain] == ["用户不吃香菜", "用户可接受少量香菜"]
        assert len(mem.chain(report.node_ids["db_sqlite"])) == 2
        # Items that wait for the user, for different rules.
        rules = {p.rule for p in mem.pending()}
        assert {"user_scope_without_intent", "sensitive_data", "hard_delete"} <= rules
        # Two sessions with messages and summary chains; usage recorded.
        sessions = {s.session_id: s for s in mem.browse.sessions()}
        assert set(sessions) == {"s-cooking", "s-project"}
        assert len(mem.browse.summaries("s-cooking")) == 2
        usage = mem.history(report.node_ids["some_coriander"]).usage
        assert usage is not None and usage.count >= 1
        # Filled once: a second call reuses it.
        again = create_demo_workspace(tmp_path)
        assert again.workspace == report.workspace and not again.node_ids
    finally:
        mem.close()
