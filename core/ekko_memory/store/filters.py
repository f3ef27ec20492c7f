"""Plain-data filters for node queries, turned into portable SQL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import TextClause, text

from ekko_memory.identity import same_names
from ekko_memory.store.rows import dumps
from ekko_memory.timeutil import to_db

if TYPE_CHECKING:
    from ekko_memory.models import BrowseSort, MemoryNode, NodeLike

NodeOrder = Literal[
    "priority", "recent", "updated_desc", "updated_asc", "created_asc", "title", "category"
]


@dataclass(frozen=True)
class Viewer:
    """Who is reading. A session sees its own session nodes only; a user, their own nodes
    and nobody's in particular; a workspace, its own session and workspace nodes. ``None``
    leaves that side open. One rule, checked in SQL (``where_sql``) so a shared store's
    other tenants can never fill a query's limit, and in Python (``sees``)."""

    session_id: str | None = None
    user_id: str | None = None
    workspace_id: str | None = None

    def sees(self, node: NodeLike) -> bool:
        """The node is this reader's to see."""
        if (
            self.session_id is not None
            and node.scope == "session"
            and node.session_id != self.session_id
        ):
            return False
        if self.user_id is not None and node.user_id not in (None, self.user_id):
            return False
        return not (
            self.workspace_id is not None
            and node.scope in ("session", "workspace")
            and node.workspace_id not in (None, self.workspace_id)
        )

    def __hash__(self) -> int:
        # A turn's cached filters are looked up by their viewer a dozen times: hashed once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.session_id, self.user_id, self.workspace_id))
            object.__setattr__(self, "_hash", cached)
        return cached

    @staticmethod
    @lru_cache(maxsize=256)
    def of(
        session_id: str | None = None, user_id: str | None = None, workspace_id: str | None = None
    ) -> Viewer:
        """The one ``Viewer`` of these ids (a session's turns share it, so the caches
        keyed by it find their entries by identity, without comparing field by field)."""
        return Viewer(session_id=session_id, user_id=user_id, workspace_id=workspace_id)


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
    # What the value is about (identity.value_subject): 香菜 finds "香菜" and {"ingredient": "香菜"}.
    subject: str | None = None
    # Every listed tag / entity must be present.
    tags: Sequence[str] | None = None
    entities: Sequence[str] | None = None
    # Written from any of these messages (``sourceMessageIds``). Not indexed: pair it with
    # ``updated_after`` (a node is written after its source messages) to read a range.
    source_message_ids: Sequence[str] | None = None
    # Only what this reader may see.
    viewer: Viewer | None = None

    def __hash__(self) -> int:
        # Every cached statement of a turn hashes its filter, and hashing all 25 fields cost
        # ~1 µs: hashed once (a filter holding lists raises TypeError, as before).
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in _NODE_FILTER_FIELDS))
            object.__setattr__(self, "_hash", cached)
        return cached


_NODE_FILTER_FIELDS = fields(NodeFilter)


def live_condition(col: str = "") -> str:
    """Not expired at ``:f_live`` (``col``: a table alias and its dot, or nothing)."""
    return f"({col}expires_at IS NULL OR {col}expires_at > :f_live)"


def where_sql(
    f: NodeFilter, *, alias: str = "", category_range: bool = False
) -> tuple[str, dict[str, Any]]:
    """Portable SQL for a filter: ``(condition, named params)``.

    Hand-built rather than SQLAlchemy expressions: these run on every turn and the
    expression layer cost more than the queries themselves (see bench/README.md).
    Parameters are named ``f_*`` so callers can add their own. ``category_range`` states
    the category prefix as one index range (the same rows; see ``StoreReader._find_sql``).
    """
    col = f"{alias}." if alias else ""
    parts: list[str] = []
    params: dict[str, Any] = {}

    def eq(column: str, name: str, value: Any) -> None:
        parts.append(f"{col}{column} = :{name}")
        params[name] = value

    def any_of(column: str, name: str, values: Sequence[str] | None) -> None:
        if values is None:
            return
        vals = list(values)
        if len(vals) == 1:
            eq(column, name, vals[0])
            return
        if not vals:
            parts.append("1 = 0")
            return
        names = [f"{name}{i}" for i in range(len(vals))]
        parts.append(f"{col}{column} IN ({', '.join(':' + x for x in names)})")
        params.update(zip(names, vals, strict=True))

    any_of("id", "f_id", f.ids)
    any_of("status", "f_status", f.statuses)
    any_of("scope", "f_scope", f.scopes)
    if f.domain is not None:
        eq("domain", "f_domain", f.domain)
    any_of("type", "f_type", f.types)
    if f.key is not None:
        eq("key", "f_key", f.key)
    any_of("key", "f_keys", f.keys)
    if f.category_prefix:
        # '/' is 0x2F and '0' is 0x30: every 'path/...' sorts in [path/, path0) — an
        # index range, where LIKE 'path/%' could not use the index.
        path = "/".join(f.category_prefix)
        if category_range:
            # [path, path0) holds path, path/… and siblings such as path-2 ('-' < '/'):
            # the second condition drops those without leaving the range.
            parts.append(
                f"{col}category_path_text >= :f_cat AND {col}category_path_text < :f_cat_hi"
                f" AND ({col}category_path_text = :f_cat OR {col}category_path_text >= :f_cat_lo)"
            )
        else:
            parts.append(
                f"({col}category_path_text = :f_cat OR ({col}category_path_text >= :f_cat_lo"
                f" AND {col}category_path_text < :f_cat_hi))"
            )
        params.update(f_cat=path, f_cat_lo=path + "/", f_cat_hi=path + "0")
    for column, name, value in (
        ("user_id", "f_user", f.user_id),
        ("workspace_id", "f_workspace", f.workspace_id),
        ("session_id", "f_session", f.session_id),
        ("supersedes_id", "f_supersedes", f.supersedes_id),
        ("origin", "f_origin", f.origin),
        ("title", "f_title", f.title),
    ):
        if value is not None:
            eq(column, name, value)
    if f.subject is not None:
        eq("subject", "f_subject", f.subject)
    v = f.viewer
    if v is not None:
        if v.session_id is not None:
            parts.append(f"({col}scope <> 'session' OR {col}session_id = :f_v_session)")
            params["f_v_session"] = v.session_id
        if v.user_id is not None:
            parts.append(f"({col}user_id IS NULL OR {col}user_id = :f_v_user)")
            params["f_v_user"] = v.user_id
        if v.workspace_id is not None:
            parts.append(
                f"({col}scope NOT IN ('session', 'workspace') OR {col}workspace_id IS NULL"
                f" OR {col}workspace_id = :f_v_workspace)"
            )
            params["f_v_workspace"] = v.workspace_id
    if f.live_at is not None:
        parts.append(live_condition(col))
        params["f_live"] = to_db(f.live_at)
    if f.expired_at is not None:
        parts.append(f"({col}expires_at IS NOT NULL AND {col}expires_at <= :f_expired)")
        params["f_expired"] = to_db(f.expired_at)
    if f.updated_after is not None:
        parts.append(f"{col}updated_at >= :f_after")
        params["f_after"] = to_db(f.updated_after)
    if f.updated_before is not None:
        parts.append(f"{col}updated_at < :f_before")
        params["f_before"] = to_db(f.updated_before)
    if f.created_after is not None:
        parts.append(f"{col}created_at >= :f_created_after")
        params["f_created_after"] = to_db(f.created_after)
    if f.created_before is not None:
        parts.append(f"{col}created_at < :f_created_before")
        params["f_created_before"] = to_db(f.created_before)
    for column, name, values in (
        ("tags_json", "f_tag", f.tags),
        ("entities_json", "f_entity", f.entities),
    ):
        for i, value in enumerate(values or ()):
            # An entity in any of its names (cilantro, 香菜, 芫荽): each must be there.
            names = same_names(value) if column == "entities_json" else (value,)
            ors = []
            for j, said in enumerate(names):
                # Stored arrays are compact JSON: an element appears exactly as its JSON string.
                ors.append(f"{col}{column} LIKE :{name}{i}_{j} ESCAPE '\\'")
                params[f"{name}{i}_{j}"] = (
                    "%" + like_escape(json.dumps(said, ensure_ascii=False)) + "%"
                )
            parts.append("(" + " OR ".join(ors) + ")")
    if f.source_message_ids is not None:
        ors = []
        for i, value in enumerate(f.source_message_ids):
            ors.append(f"{col}source_message_ids_json LIKE :f_src{i} ESCAPE '\\'")
            params[f"f_src{i}"] = "%" + like_escape(json.dumps(value)) + "%"
        parts.append("(" + (" OR ".join(ors) or "1 = 0") + ")")
    return (" AND ".join(parts) or "1 = 1"), params


def where_clause(f: NodeFilter) -> TextClause:
    """The filter as a SQLAlchemy clause (for Core queries off the hot path)."""
    cond, params = where_sql(f)
    return text(cond).bindparams(**params)


def like_escape(value: str) -> str:
    """Escape LIKE wildcards (the pattern uses ESCAPE '\\')."""
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# Current versions first, then history, when listing a category (Markdown export).
STATUS_RANK = {"active": 0, "expired": 1, "superseded": 2, "deleted": 3}

ORDER_SQL: dict[str, str] = {
    # Matches the (…, importance, updated_at) indexes so LIMIT stops early; finer
    # ranking (confidence, explicitness, scope) happens in retrieval.
    "priority": "importance DESC, updated_at DESC",
    # Newest first, in the order of the (…, updated_at) indexes (no tie-break: no sort step).
    "recent": "updated_at DESC",
    "updated_desc": "updated_at DESC, id DESC",
    "updated_asc": "updated_at, id",
    "created_asc": "created_at, id",
    "title": "title, id",
    # A category's current versions first, then its history (Markdown export).
    "category": "category_path_text, CASE status WHEN 'active' THEN 0 WHEN 'expired' THEN 1 "
    "WHEN 'superseded' THEN 2 WHEN 'deleted' THEN 3 ELSE 4 END, updated_at DESC, id",
}


def order_sql(order: NodeOrder, *, alias: str = "") -> str:
    """ORDER BY text for a named order."""
    text_ = ORDER_SQL[order]
    if not alias:
        return text_
    if order == "category":
        raise ValueError("the category order takes no table alias")
    return ", ".join(f"{alias}.{part.strip()}" for part in text_.split(","))


def order_clause(order: NodeOrder) -> TextClause:
    """The named order as a SQLAlchemy clause."""
    return text(order_sql(order))


# --- listing orders (the app's sortable columns) ------------------------------------

SCOPE_RANK = {"session": 0, "workspace": 1, "user": 2, "global": 3}
# A value sorts after every stored time: memories that never expire come last.
NEVER = "9999"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _rank_sql(column: str, ranks: dict[str, int]) -> str:
    whens = " ".join(f"WHEN '{k}' THEN {v}" for k, v in ranks.items())
    return f"CASE {column} {whens} ELSE {len(ranks)} END"


# What each order sorts on, as SQL; ``sort_value`` computes the same in Python (a test
# holds the two equal on both backends). Text compares by code point on both (SQLite's
# BINARY, the "C" collation of our PostgreSQL columns); lower() folds ASCII only there.
SORT_SQL: dict[str, str] = {
    "updated": "updated_at",
    "title": "lower(title)",
    "type": "type",
    "scope": _rank_sql("scope", SCOPE_RANK),
    "key": "COALESCE(key, '')",
    "value": "COALESCE(value_json, '')",
    "status": _rank_sql("status", STATUS_RANK),
    "confidence": "confidence",
    "importance": "importance",
    "expires": f"COALESCE(expires_at, '{NEVER}')",
    "category": "category_path_text",
    "origin": "origin",
}


def sort_value(node: MemoryNode, sort: BrowseSort) -> Any:
    """What ``node`` sorts on in the order ``sort`` (the Python twin of ``SORT_SQL``)."""
    if sort == "updated":
        return to_db(node.updated_at)
    if sort == "title":
        return node.title.translate(_ASCII_LOWER)
    if sort == "type":
        return node.type
    if sort == "scope":
        return SCOPE_RANK.get(node.scope, len(SCOPE_RANK))
    if sort == "key":
        return node.key or ""
    if sort == "value":
        return "" if node.value_json is None else dumps(node.value_json)
    if sort == "status":
        return STATUS_RANK.get(node.status, len(STATUS_RANK))
    if sort == "confidence":
        return node.confidence
    if sort == "importance":
        return node.importance
    if sort == "expires":
        return to_db(node.expires_at) or NEVER
    if sort == "category":
        return node.category_path_text
    if sort == "origin":
        return node.origin
    raise ValueError(f"unknown order {sort!r}")


def keyset_sql(
    sort: BrowseSort, descending: bool, after: tuple[Any, str] | None
) -> tuple[str, str, dict[str, Any]]:
    """Keyset paging in one order, ties broken by id: ``(condition after the cursor, ORDER
    BY text, params)``; no condition (``""``) on the first page."""
    expr = SORT_SQL[sort]
    way, cmp = ("DESC", "<") if descending else ("ASC", ">")
    order = f"{expr} {way}, id {way}"
    if after is None:
        return "", order, {}
    cond = f"({expr} {cmp} :k_v OR ({expr} = :k_v AND id {cmp} :k_id))"
    return cond, order, {"k_v": after[0], "k_id": after[1]}
