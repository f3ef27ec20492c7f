"""What an agent cannot do through its tools, however it crafts the arguments."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ekko_memory import MemoryService, open_memory


@pytest.fixture
def two_workspaces(tmp_path: Path):  # type: ignore[no-untyped-def]
    home = tmp_path / "home"
    a = open_memory(tmp_path / "a", user_home=home)
    b = open_memory(tmp_path / "b", user_home=tmp_path / "home-b")
    yield a, b
    a.close()
    b.close()


def pending_item(mem: MemoryService) -> str:
    s = mem.session("s1", user_id="u1")
    s.append_message("user", "我挺喜欢吃鱼的")
    res = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "inferred",
            "node": {
                "scope": "user",
                "domain": "生活技能",
                "type": "preference",
                "key": "preferred_ingredient",
                "valueJson": "鱼",
                "title": "用户喜欢鱼",
            },
        },
    )
    assert res["status"] == "pending"
    return str(res["pendingId"])


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("memory_approve", {"pendingId": "PID"}),
        ("memory_decide", {"pendingId": "PID", "approve": True}),
        ("approve", {"id": "PID"}),
        (
            "memory_propose_update",
            {"operation": "update", "targetId": "PID", "reason": "approve", "approve": True},
        ),
        ("memory_propose_update", {"operation": "approve", "targetId": "PID", "reason": "x"}),
        ("memory_forget", {"id": "PID", "reason": "x", "pendingId": "PID"}),
        ("memory_search", {"queryText": "x", "decision": "approve"}),
    ],
)
def test_agents_cannot_approve(two_workspaces, tool: str, args: dict) -> None:  # type: ignore[no-untyped-def, type-arg]
    mem, _ = two_workspaces
    pid = pending_item(mem)
    crafted = {k: (pid if v == "PID" else v) for k, v in args.items()}
    result = mem.session("s1", user_id="u1").call_tool(tool, crafted)
    assert "error" in result or result.get("accepted") is False
    assert [p.status for p in mem.pending(status=None)] == ["pending"]


def test_agents_cannot_write_global(two_workspaces) -> None:  # type: ignore[no-untyped-def]
    mem, _ = two_workspaces
    s = mem.session("s1", user_id="u1")
    s.append_message("user", "记住，这是所有人的常识。")
    global_id = "mem_00000000000000000000000001"
    for args in (
        {
            "operation": "create",
            "reason": "x",
            "node": {"scope": "global", "domain": "生活技能", "type": "fact", "title": "常识"},
        },
        {
            "operation": "update",
            "targetId": global_id,
            "reason": "x",
            "node": {"title": "改掉种子"},
        },
        {"operation": "delete", "targetId": global_id, "reason": "x"},
        {"operation": "expire", "targetId": global_id, "reason": "x"},
    ):
        result = s.call_tool("memory_propose_update", args)
        assert result["accepted"] is False, (args, result)
    forget = s.call_tool("memory_forget", {"id": global_id, "reason": "x", "mode": "hard"})
    assert forget["deletedIds"] == []
    assert mem.get_node(global_id) is not None and mem.get_node(global_id).status == "active"  # type: ignore[union-attr]


def test_crafted_ids_and_paths_do_not_reach_another_workspace(
    two_workspaces, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    a, b = two_workspaces
    sb = b.session("sb", user_id="u2")
    sb.append_message("user", "记住：项目B用 MySQL")
    secret = sb.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "x",
            "node": {
                "scope": "workspace",
                "domain": "项目",
                "type": "decision",
                "key": "database",
                "valueJson": "MySQL",
                "title": "项目B的数据库",
            },
        },
    )["nodeId"]
    b_message = sb.latest_user_message()
    assert b_message is not None
    sa = a.session("sa", user_id="u1")
    sa.append_message("user", "查一下")
    for crafted in (
        secret,
        "../b/.ekko/memory.db",
        str(tmp_path / "b" / ".ekko" / "memory.db"),
        "mem_../../b",
        "file:" + str(tmp_path / "b" / ".ekko" / "memory.db"),
    ):
        got = sa.call_tool("memory_get", {"id": crafted})
        assert got.get("found") is False, (crafted, got)
        upd = sa.call_tool(
            "memory_propose_update",
            {"operation": "update", "targetId": crafted, "reason": "x", "node": {"title": "偷改"}},
        )
        assert upd["accepted"] is False
        gone = sa.call_tool("memory_forget", {"id": crafted, "reason": "x"})
        assert gone["deletedIds"] == []
    # A message id from the other workspace cannot be used as a source.
    bound = sa.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "x",
            "sourceMessageIds": [b_message.id],
            "node": {"scope": "session", "domain": "项目", "type": "fact", "title": "x"},
        },
    )
    assert bound["accepted"] is False and "unknown source messages" in bound["reason"]
    assert b.get_node(secret).title == "项目B的数据库"  # type: ignore[union-attr]
    assert sa.call_tool("memory_search", {"queryText": "MySQL"})["relevant"] == []


def test_other_sessions_are_not_visible_by_id(two_workspaces) -> None:  # type: ignore[no-untyped-def]
    mem, _ = two_workspaces
    s1 = mem.session("s1", user_id="u1")
    s1.append_message("user", "今天胃不舒服，先别放辣")
    res = s1.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "x",
            "node": {
                "scope": "session",
                "domain": "生活技能",
                "type": "constraint",
                "key": "flavor_profile",
                "valueJson": "不辣",
                "title": "今天不吃辣",
            },
        },
    )
    other = mem.session("s2", user_id="u1")
    assert other.call_tool("memory_get", {"id": res["nodeId"]})["found"] is False
    other.append_message("user", "删掉")
    assert (
        other.call_tool("memory_forget", {"id": res["nodeId"], "reason": "x"})["deletedIds"] == []
    )


@pytest.mark.parametrize("fmt", ["json", "md", "csv"])
def test_exported_bundles_are_user_only(two_workspaces, tmp_path: Path, fmt: str) -> None:  # type: ignore[no-untyped-def]
    mem, _ = two_workspaces
    s = mem.session("s1", user_id="u1")
    s.append_message("user", "记住，我以后做饭不要香菜。")
    s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "x",
            "node": {
                "scope": "user",
                "domain": "生活技能",
                "type": "preference",
                "key": "avoid_ingredient",
                "valueJson": "香菜",
                "title": "用户不吃香菜",
            },
        },
    )
    old = os.umask(0o022)  # a permissive umask must not leak into the bundle's mode
    try:
        report = mem.exporter.export(tmp_path / f"bundle.{fmt}", format=fmt)
    finally:
        os.umask(old)
    assert report.path is not None
    mode = Path(report.path).stat().st_mode & 0o777
    assert mode == 0o600, oct(mode)
    for db in (mem.paths.workspace_db, mem.paths.user_db):
        assert db.stat().st_mode & 0o077 == 0, f"{db} readable by others"
