"""Conversion between table rows and pydantic models; ORM rows never leave the store."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel
from sqlalchemy import RowMapping

from ekko_memory.models import MemoryMessage, MemoryNode, MemorySummary
from ekko_memory.timeutil import from_db, to_db

M = TypeVar("M", bound=BaseModel)


def trusted(cls: type[M], values: dict[str, Any]) -> M:
    """Build a model from values the store validated on the way in, without validating again.

    ``model_construct`` costs ~20 µs a node (defaults, alias handling); this sets the same
    four attributes directly. A test compares its output with full validation.
    """
    obj = cls.__new__(cls)
    object.__setattr__(obj, "__dict__", values)
    object.__setattr__(obj, "__pydantic_fields_set__", set(values))
    object.__setattr__(obj, "__pydantic_extra__", None)
    object.__setattr__(obj, "__pydantic_private__", None)
    return obj


def dumps(value: Any) -> str:
    """Compact JSON text, Chinese kept readable."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _loads(value: str | None, default: Any = None) -> Any:
    return default if value is None else json.loads(value)


def _list(value: str) -> Any:
    # Most arrays are empty; skip the decoder for them.
    return [] if value == "[]" else json.loads(value)


def node_to_row(node: MemoryNode) -> dict[str, Any]:
    """Column values for a node (without ``seq``, which the store assigns)."""
    return {
        "id": node.id,
        "parent_id": node.parent_id,
        "supersedes_id": node.supersedes_id,
        "session_id": node.session_id,
        "workspace_id": node.workspace_id,
        "user_id": node.user_id,
        "scope": node.scope,
        "domain": node.domain,
        "category_path_json": dumps(node.category_path),
        "category_path_text": node.category_path_text,
        "type": node.type,
        "key": node.key,
        "value_json": None if node.value_json is None else dumps(node.value_json),
        "title": node.title,
        "content": node.content,
        "status": node.status,
        "confidence": node.confidence,
        "importance": node.importance,
        "tags_json": dumps(node.tags),
        "entities_json": dumps(node.entities),
        "source_message_ids_json": dumps(node.source_message_ids),
        "origin": node.origin,
        "created_at": to_db(node.created_at),
        "updated_at": to_db(node.updated_at),
        "expires_at": to_db(node.expires_at),
    }


def row_to_node(row: RowMapping) -> MemoryNode:
    """A node from its row; rows were validated on the way in, so no second validation."""
    return trusted(
        MemoryNode,
        dict(
            id=row["id"],
            parent_id=row["parent_id"],
            supersedes_id=row["supersedes_id"],
            session_id=row["session_id"],
            workspace_id=row["workspace_id"],
            user_id=row["user_id"],
            scope=row["scope"],
            domain=row["domain"],
            category_path=_list(row["category_path_json"]),
            type=row["type"],
            key=row["key"],
            value_json=_loads(row["value_json"]),
            title=row["title"],
            content=row["content"],
            status=row["status"],
            confidence=row["confidence"],
            importance=row["importance"],
            tags=_list(row["tags_json"]),
            entities=_list(row["entities_json"]),
            source_message_ids=_list(row["source_message_ids_json"]),
            origin=row["origin"],
            created_at=from_db(row["created_at"]),
            updated_at=from_db(row["updated_at"]),
            expires_at=from_db(row["expires_at"]),
        ),
    )


def message_to_row(msg: MemoryMessage) -> dict[str, Any]:
    """Column values for a message."""
    return {
        "id": msg.id,
        "session_id": msg.session_id,
        "parent_id": msg.parent_id,
        "role": msg.role,
        "content": msg.content,
        "metadata_json": None if msg.metadata is None else dumps(msg.metadata),
        "created_at": to_db(msg.created_at),
    }


def row_to_message(row: RowMapping) -> MemoryMessage:
    """A message from its row."""
    return trusted(
        MemoryMessage,
        dict(
            id=row["id"],
            session_id=row["session_id"],
            parent_id=row["parent_id"],
            role=row["role"],
            content=row["content"],
            metadata=_loads(row["metadata_json"]),
            created_at=from_db(row["created_at"]),
        ),
    )


SUMMARY_LISTS = (
    "constraints",
    "preferences",
    "decisions",
    "completed_work",
    "pending_work",
    "known_issues",
)


def summary_to_row(s: MemorySummary) -> dict[str, Any]:
    """Column values for a summary."""
    row: dict[str, Any] = {
        "id": s.id,
        "session_id": s.session_id,
        "parent_summary_id": s.parent_summary_id,
        "from_message_id": s.from_message_id,
        "to_message_id": s.to_message_id,
        "summary": s.summary,
        "current_goal": s.current_goal,
        "stale": int(s.stale),
        "created_at": to_db(s.created_at),
    }
    for name in SUMMARY_LISTS:
        row[f"{name}_json"] = dumps(getattr(s, name))
    return row


def row_to_summary(row: RowMapping) -> MemorySummary:
    """A summary from its row."""
    fields: dict[str, Any] = {name: _list(row[f"{name}_json"]) for name in SUMMARY_LISTS}
    return trusted(
        MemorySummary,
        dict(
            id=row["id"],
            session_id=row["session_id"],
            parent_summary_id=row["parent_summary_id"],
            from_message_id=row["from_message_id"],
            to_message_id=row["to_message_id"],
            summary=row["summary"],
            current_goal=row["current_goal"],
            stale=bool(row["stale"]),
            created_at=from_db(row["created_at"]),
            **fields,
        ),
    )
