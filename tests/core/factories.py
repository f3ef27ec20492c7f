"""Builders for test data."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ekko_memory.ids import new_id
from ekko_memory.models import MemoryMessage, MemoryNode, MemorySummary
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.timeutil import utcnow


def make_node(**overrides: Any) -> MemoryNode:
    """A valid active cooking preference, with any field overridden."""
    now = overrides.pop("now", None) or utcnow()
    fields: dict[str, Any] = {
        "id": new_id("mem"),
        "scope": "user",
        "domain": "生活技能",
        "category_path": ["生活技能", "做饭", "饮食偏好"],
        "type": "preference",
        "key": "avoid_ingredient",
        "value_json": "香菜",
        "title": "用户不吃香菜",
        "content": "用户明确要求以后做饭推荐不要香菜。",
        "status": "active",
        "confidence": 0.98,
        "importance": 0.9,
        "tags": ["忌口", "菜谱推荐"],
        "entities": ["香菜"],
        "user_id": "u1",
        "created_at": now,
        "updated_at": now,
    }
    fields.update(overrides)
    return MemoryNode.model_validate(fields)


def make_message(
    session_id: str = "s1",
    role: str = "user",
    content: str = "你好",
    at: datetime | None = None,
    **kw: Any,
) -> MemoryMessage:
    """A valid message."""
    return MemoryMessage(
        id=new_id("msg"),
        session_id=session_id,
        role=role,
        content=content,  # type: ignore[arg-type]
        created_at=at or utcnow(),
        **kw,
    )


def make_summary(
    session_id: str,
    first: MemoryMessage,
    last: MemoryMessage,
    text: str,
    parent: str | None = None,
    at: datetime | None = None,
) -> MemorySummary:
    """A valid summary over first..last."""
    return MemorySummary(
        id=new_id("sum"),
        session_id=session_id,
        parent_summary_id=parent,
        from_message_id=first.id,
        to_message_id=last.id,
        summary=text,
        created_at=at or utcnow(),
    )


def hours(n: float) -> timedelta:
    """A timedelta of ``n`` hours."""
    return timedelta(hours=n)


SECRET_BRANCH = ["项目", "秘密"]


def secret_rules(store: SqlStore, marker: str, count: int) -> None:
    """``count`` messages "记住这个项目的规则 <marker><i>", each the source of a workspace rule
    under 项目/秘密 (what a purge of that branch with its messages removes)."""
    messages = [make_message(content=f"记住这个项目的规则 {marker}{i}") for i in range(count)]
    with store.write() as w:
        w.insert_messages(messages)
        w.insert_nodes(
            [
                make_node(
                    scope="workspace",
                    domain="项目",
                    category_path=SECRET_BRANCH,
                    type="constraint",
                    key=None,
                    value_json=None,
                    title=f"规则{i}",
                    content=f"规则内容{i}",
                    source_message_ids=[m.id],
                )
                for i, m in enumerate(messages)
            ]
        )
