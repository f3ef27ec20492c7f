"""Helpers for service-level tests: seed nodes through the real (governed) write path."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ekko_memory import MemoryService, MemorySession
from ekko_memory.models import MemoryNode, MemoryNodeDraft
from ekko_memory.service.governance import Governor
from ekko_memory.service.write_plan import WriteContext
from ekko_memory.store.filters import NodeFilter
from tests.backends import raw_pages

COOKING = ["生活技能", "做饭", "饮食偏好"]


def user_write(mem: MemoryService, **node: Any) -> str:
    """Write a node as the user would in the app (no approval needed); returns its id."""
    ctx = WriteContext(
        actor="user",
        user_id=node.pop("user_id", "u1"),
        workspace_id=node.pop("workspace_id", "w1"),
        session_id=node.pop("session_id", None),
    )
    outcome = Governor(mem).propose(
        "create", MemoryNodeDraft.model_validate(node), ctx, reason="test seed"
    )
    assert outcome.accepted, outcome
    assert outcome.node_id is not None
    return outcome.node_id


def propose(s: MemorySession, user_says: str | None, **node: Any) -> dict[str, Any]:
    """The agent proposes a create after the user said ``user_says``."""
    if user_says is not None:
        s.append_message("user", user_says)
    return s.call_tool(
        "memory_propose_update", {"operation": "create", "node": node, "reason": "test"}
    )


def every_node(mem: MemoryService) -> list[MemoryNode]:
    """Every version of every memory in both stores, whatever its status."""
    statuses = ("active", "superseded", "expired", "deleted")
    nodes: list[MemoryNode] = []
    for _, store in mem.stores():
        with store.read() as r:
            nodes += r.find_nodes(NodeFilter(statuses=statuses), limit=None)
    return nodes


def flavor(value: dict[str, str], title: str, **extra: Any) -> dict[str, Any]:
    """A user-scope flavor_profile memory's fields (for ``propose``)."""
    return {
        "scope": "user",
        "domain": "生活技能",
        "categoryPath": COOKING,
        "type": "preference",
        "key": "flavor_profile",
        "valueJson": value,
        "title": title,
        **extra,
    }


def promotion_held(
    s: MemorySession, reason: str, content: str = "一直少辣"
) -> tuple[str, dict[str, Any]]:
    """A session memory (今天少辣, low confidence) and the agent's proposal, with ``reason``,
    to move it into the user's scope, which waits in the user store: (its id, the proposal)."""
    s.append_message("user", "记住，今天少辣。")
    today = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "r",
            "node": {
                **flavor({"spicy": "low"}, "今天少辣"),
                "scope": "session",
                "content": "今天少辣",
                "confidence": 0.5,
            },
        },
    )
    assert today["accepted"], today
    s.append_message("user", "嗯。")
    held = s.call_tool(
        "memory_propose_update",
        {
            "operation": "update",
            "targetId": today["nodeId"],
            "reason": reason,
            "node": {"scope": "user", "title": "一直少辣", "content": content},
        },
    )
    assert held["rule"] == "scope_promotion", held
    return today["nodeId"], held


def raw_bytes(mem: MemoryService) -> bytes:
    """Every byte of both database files and their WALs, read from disk (PostgreSQL: every
    page of both stores' relations, read through the server)."""
    out = b""
    for store in (mem.workspace_store, mem.user_store):
        if store.dialect.name == "postgresql":
            out += raw_pages(store)
            continue
        db = Path(store.health.location)
        for path in (db, db.with_name(db.name + "-wal")):
            if path.exists():
                out += path.read_bytes()
    return out


@contextmanager
def keyword_path(mem: MemoryService) -> Iterator[None]:
    """Inside, ``mem`` retrieves by keywords alone (semantic recall set aside): for tests of
    the keyword rules themselves, which semantic recall adds the nearest in meaning to."""
    recall, mem.semantic = mem.semantic, None
    try:
        yield
    finally:
        mem.semantic = recall
