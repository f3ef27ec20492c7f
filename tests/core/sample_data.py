"""A small but complete workspace: chains, both stores, pending items, usage, a summary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ekko_memory import MemoryService
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.sql_store import SqlStore
from tests.core.factories import make_summary
from tests.core.helpers import COOKING, propose

CILANTRO: dict[str, Any] = {
    "scope": "user",
    "domain": "生活技能",
    "categoryPath": COOKING,
    "type": "preference",
    "key": "avoid_ingredient",
    "valueJson": "香菜",
    "title": "用户不吃香菜",
    "content": "用户明确要求以后做饭推荐不要香菜。",
    "confidence": 0.99,
    "importance": 0.95,
    "tags": ["忌口", "菜谱推荐"],
    "entities": ["香菜"],
}


@dataclass
class Sample:
    """Ids of what ``seed`` wrote."""

    cilantro: str
    spicy_old: str
    spicy_new: str
    database: str
    scallion_deleted: str
    pending: str
    messages: list[str]
    summary: str


def seed(mem: MemoryService, session_id: str = "s1") -> Sample:
    """Write a realistic little history through the public paths."""
    s = mem.session(session_id, user_id="u1", workspace_id="w1")
    cilantro = propose(s, "记住，我以后做饭不要香菜。", **CILANTRO)
    spicy_old = propose(
        s,
        "记住，我喜欢吃辣",
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        key="flavor_profile",
        valueJson={"spicy": "high"},
        title="喜欢吃辣",
        confidence=0.8,
    )
    spicy_new = propose(
        s,
        "记住，以后少辣",
        domain="生活技能",
        categoryPath=COOKING,
        type="preference",
        key="flavor_profile",
        valueJson="少辣",
        title="少辣",
    )
    database = propose(
        s,
        "我们决定数据库用 PostgreSQL",
        domain="项目",
        type="decision",
        key="database",
        valueJson="PostgreSQL",
        title="数据库用 PostgreSQL",
    )
    scallion = propose(
        s,
        "记住，我不吃葱",
        **{
            **CILANTRO,
            "valueJson": "葱",
            "title": "用户不吃葱",
            "content": "不吃葱。",
            "entities": ["葱"],
        },
    )
    pending = propose(
        s,
        "我昨天做了红烧肉，挺好吃的。",
        scope="user",
        domain="生活技能",
        type="preference",
        key="preferred_ingredient",
        valueJson="猪肉",
        title="用户喜欢红烧肉",
        confidence=0.6,
    )
    for res in (cilantro, spicy_old, spicy_new, database, scallion):
        assert res["accepted"], res
    assert spicy_new["supersededId"] == spicy_old["nodeId"]
    assert pending["status"] == "pending"
    mem.actions.delete(scallion["nodeId"])
    ctx = s.build_context("今晚吃什么？")
    ctx.render()
    s.record_reply("推荐番茄炒蛋，不放香菜，少辣。", ctx)
    msgs = mem.list_recent_messages(session_id=session_id, limit=50)
    summary = make_summary(
        session_id, msgs[0], msgs[-1], "用户不吃香菜，喜欢少辣；项目用 PostgreSQL。"
    )
    mem.append_summary(summary)
    return Sample(
        cilantro=cilantro["nodeId"],
        spicy_old=spicy_old["nodeId"],
        spicy_new=spicy_new["nodeId"],
        database=database["nodeId"],
        scallion_deleted=scallion["nodeId"],
        pending=pending["pendingId"],
        messages=[m.id for m in msgs],
        summary=summary.id,
    )


def dump(store: SqlStore) -> dict[str, dict[str, Any]]:
    """Every record of a store as JSON, by kind and id (seq numbers aside)."""
    with store.read() as r:
        return {
            "nodes": {n.id: n.to_json() for n in r.iter_nodes(NodeFilter(statuses=None))},
            "audit": {a.id: a.to_json() for a in r.iter_audit()},
            "messages": {m.id: m.to_json() for m in r.iter_messages()},
            "summaries": {x.id: x.to_json() for x in r.iter_summaries()},
            "pending": {p.id: p.to_json() for p in r.list_pending(None)},
            "usage": {u.id: u.to_json() for u in r.iter_usage()},
            "cursors": {f"{c.session_id}:{c.kind}": c.to_json() for c in r.list_cursors()},
        }
