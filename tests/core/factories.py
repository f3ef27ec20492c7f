"""Builders for test data."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ekko_memory.ids import new_id
from ekko_memory.models import MemoryMessage, MemoryNode, MemorySummary
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
