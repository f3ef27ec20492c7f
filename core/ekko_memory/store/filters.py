"""Plain-data filters for node queries, turned into portable SQLAlchemy clauses."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, and_, case, or_

from ekko_memory.store.tables import memory_nodes as n
from ekko_memory.timeutil import to_db

NodeOrder = Literal["priority", "updated_desc", "updated_asc", "created_asc", "title", "category"]

# Current versions first, then history, when listing a category (Markdown export).
STATUS_RANK = {"active": 0, "expired": 1, "superseded": 2, "deleted": 3}


@dataclass(frozen=True)
class NodeFilter:
    """Which nodes a query wants. ``None`` means "any"."""

    ids: Sequence[str] | None = None
    statuses: Sequence[str] | None = ("active",)
    scopes: Sequence[str] | None = None
    domain: str | None = None
    category_prefix: Sequence[str] | None = None
    types: Sequence[str] | None = None
    key: str | None = None
    keys: Sequence[str] | None = None
    user_id: str | None = None
    workspace_id: str | None = None
    session_id: str | None = None
    # Only nodes not expired at this moment (status active and expiry in the future or none).
    live_at: datetime | None = None
    # Only nodes whose expiry has passed at this moment.
    expired_at: datetime | None = None
    updated_after: datetime | None = None
    updated_before: datetime | None = None
    # Creation time in [created_after, created_before).
    created_after: datetime | None = None
    created_before: datetime | None = None
    supersedes_id: str | None = None
    origin: str | None = None
    title: str | None = None
    # Every listed tag / entity must be present.
    tags: Sequence[str] | None = None
    entities: Sequence[str] | None = None


def category_clause(prefix: Sequence[str]) -> ColumnElement[bool]:
    """Nodes filed at ``prefix`` or below it; a range on the indexed text path, not LIKE."""
    text = "/".join(prefix)
    # '/' is 0x2F and '0' is 0x30: every 'text/...' sorts in [text/, text0).
    return or_(
        n.c.category_path_text == text,
        and_(n.c.category_path_text >= text + "/", n.c.category_path_text < text + "0"),
    )


def node_clauses(f: NodeFilter) -> list[ColumnElement[bool]]:
    """WHERE clauses for a filter."""
    out: list[ColumnElement[bool]] = []

    def in_or_eq(col: Any, values: Sequence[str] | None) -> None:
        if values is None:
            return
        vals = list(values)
        out.append(col == vals[0] if len(vals) == 1 else col.in_(vals))

    in_or_eq(n.c.id, f.ids)
    in_or_eq(n.c.status, f.statuses)
    in_or_eq(n.c.scope, f.scopes)
    in_or_eq(n.c.type, f.types)
    in_or_eq(n.c.key, f.keys)
    if f.domain is not None:
        out.append(n.c.domain == f.domain)
    if f.category_prefix:
        out.append(category_clause(f.category_prefix))
    if f.key is not None:
        out.append(n.c.key == f.key)
    if f.user_id is not None:
        out.append(n.c.user_id == f.user_id)
    if f.workspace_id is not None:
        out.append(n.c.workspace_id == f.workspace_id)
    if f.session_id is not None:
        out.append(n.c.session_id == f.session_id)
    if f.live_at is not None:
        out.append(or_(n.c.expires_at.is_(None), n.c.expires_at > to_db(f.live_at)))
    if f.expired_at is not None:
        out.append(and_(n.c.expires_at.is_not(None), n.c.expires_at <= to_db(f.expired_at)))
    if f.updated_after is not None:
        out.append(n.c.updated_at >= to_db(f.updated_after))
    if f.updated_before is not None:
        out.append(n.c.updated_at < to_db(f.updated_before))
    if f.created_after is not None:
        out.append(n.c.created_at >= to_db(f.created_after))
    if f.created_before is not None:
        out.append(n.c.created_at < to_db(f.created_before))
    if f.supersedes_id is not None:
        out.append(n.c.supersedes_id == f.supersedes_id)
    if f.origin is not None:
        out.append(n.c.origin == f.origin)
    if f.title is not None:
        out.append(n.c.title == f.title)
    for tag in f.tags or ():
        out.append(n.c.tags_json.contains(_json_string(tag), autoescape=True))
    for entity in f.entities or ():
        out.append(n.c.entities_json.contains(_json_string(entity), autoescape=True))
    return out


def _json_string(value: str) -> str:
    # The stored arrays are compact JSON, so an element appears exactly as its JSON string.
    return json.dumps(value, ensure_ascii=False)


def order_by(order: NodeOrder) -> list[Any]:
    """ORDER BY columns for a named order (``priority`` is the design doc's query order)."""
    if order == "priority":
        # Matches the (…, importance, updated_at) indexes so LIMIT stops early; finer
        # ranking (confidence, explicitness, scope) happens in retrieval.
        return [n.c.importance.desc(), n.c.updated_at.desc()]
    if order == "updated_desc":
        return [n.c.updated_at.desc(), n.c.id.desc()]
    if order == "updated_asc":
        return [n.c.updated_at, n.c.id]
    if order == "created_asc":
        return [n.c.created_at, n.c.id]
    if order == "category":
        rank = case(STATUS_RANK, value=n.c.status, else_=4)
        return [n.c.category_path_text, rank, n.c.updated_at.desc(), n.c.id]
    return [n.c.title, n.c.id]
