"""Conversion between table rows and pydantic models; ORM rows never leave the store."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ekko_memory.identity import canonical_json, node_subject
from ekko_memory.models import MemoryMessage, MemoryNode, MemorySummary, trusted
from ekko_memory.store import tables
from ekko_memory.timeutil import from_db, from_db_required, to_db

# Column orders of the raw-driver read path (rows arrive as tuples in this order).
NODE_COLUMNS: tuple[str, ...] = tuple(c.name for c in tables.memory_nodes.columns)
MESSAGE_COLUMNS: tuple[str, ...] = tuple(c.name for c in tables.memory_messages.columns)
SUMMARY_COLUMNS: tuple[str, ...] = tuple(c.name for c in tables.memory_summaries.columns)


# One encoder for all: ``json.dumps`` with any option builds a new one each call (~2 µs;
# a written node dumps five lists and its audit event one more).
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def dumps(value: Any) -> str:
    """Compact JSON text, Chinese kept readable."""
    return _ENCODE(value)


def _loads(value: str | None, default: Any = None) -> Any:
    return default if value is None else json.loads(value)


_LIST_CACHE: dict[str, tuple[Any, ...]] = {}


def _list(value: str) -> Any:
    # Category paths, tags and entities repeat across nodes: decode each text once
    # (bounded cache) and hand out fresh lists.
    if value == "[]":
        return []
    cached = _LIST_CACHE.get(value)
    if cached is None:
        cached = tuple(json.loads(value))
        if len(_LIST_CACHE) > 20_000:
            _LIST_CACHE.clear()
        _LIST_CACHE[value] = cached
    return list(cached)


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
        "subject": node_subject(node.key, node.value_json, node.title),
    }


_NODE_POS = {name: i for i, name in enumerate(NODE_COLUMNS)}
_P = [
    _NODE_POS[name]
    for name in (
        "id",
        "parent_id",
        "supersedes_id",
        "session_id",
        "workspace_id",
        "user_id",
        "scope",
        "domain",
        "category_path_json",
        "type",
        "key",
        "value_json",
        "title",
        "content",
        "status",
        "confidence",
        "importance",
        "tags_json",
        "entities_json",
        "source_message_ids_json",
        "origin",
        "created_at",
        "updated_at",
        "expires_at",
    )
]


def node_from_tuple(r: Sequence[Any]) -> MemoryNode:
    """A node from a driver row in NODE_COLUMNS order (the hot read path)."""
    return trusted(MemoryNode, _node_values(r))


def _node_values(r: Sequence[Any]) -> dict[str, Any]:
    p = _P
    return {
        "id": r[p[0]],
        "parent_id": r[p[1]],
        "supersedes_id": r[p[2]],
        "session_id": r[p[3]],
        "workspace_id": r[p[4]],
        "user_id": r[p[5]],
        "scope": r[p[6]],
        "domain": r[p[7]],
        "category_path": _list(r[p[8]]),
        "type": r[p[9]],
        "key": r[p[10]],
        "value_json": _loads(r[p[11]]),
        "title": r[p[12]],
        "content": r[p[13]],
        "status": r[p[14]],
        "confidence": r[p[15]],
        "importance": r[p[16]],
        "tags": _list(r[p[17]]),
        "entities": _list(r[p[18]]),
        "source_message_ids": _list(r[p[19]]),
        "origin": r[p[20]],
        "created_at": from_db(r[p[21]]),
        "updated_at": from_db(r[p[22]]),
        "expires_at": from_db(r[p[23]]),
    }


class RowMemo:
    """Decoded values of driver rows seen lately: every turn reads the same few dozen
    nodes and the same recent messages again, and decoding their JSON and timestamps
    cost half of what building the models did. Callers copy what they hand out
    (``dict(values)``, fresh lists): the remembered values are shared.

    Looked up by the row's id and used only when the whole row is equal to the one
    decoded (any change of any column decodes afresh): comparing equal texts costs less
    than hashing the fresh ones a driver returns for every row of every turn.
    """

    __slots__ = ("_decode", "_id_at", "_limit", "seen")

    def __init__(
        self,
        decode: Callable[[Sequence[Any]], dict[str, Any]],
        *,
        id_at: int = 0,
        limit: int = 4096,
    ) -> None:
        self._decode = decode
        self._id_at = id_at
        self._limit = limit
        # id → (the row as decoded, its values); read directly on the hottest path.
        self.seen: dict[Any, tuple[tuple[Any, ...], dict[str, Any]]] = {}

    def values(self, r: tuple[Any, ...]) -> dict[str, Any]:
        """The decoded values of row ``r`` (decoded now if not seen lately)."""
        key = r[self._id_at]
        seen = self.seen.get(key)
        if seen is not None and seen[0] == r:
            return seen[1]
        values = self._decode(r)
        if len(self.seen) >= self._limit:
            self.seen.clear()
        self.seen[key] = (tuple(r), values)
        return values


_NODE_MEMO = RowMemo(_node_values, id_at=_NODE_POS["id"])


def _remembered_node(r: tuple[Any, ...]) -> MemoryNode:
    """As ``node_from_tuple``, from remembered values; every node gets its own lists and
    value (callers may change them), sharing only immutable ones."""
    # Spelled out: a turn types a few dozen nodes, and each call or loop here cost more.
    seen = _NODE_MEMO.seen.get(r[_ID])
    fresh = dict(seen[1] if seen is not None and seen[0] == r else _NODE_MEMO.values(r))
    fresh["category_path"] = fresh["category_path"][:]
    fresh["tags"] = fresh["tags"][:]
    fresh["entities"] = fresh["entities"][:]
    fresh["source_message_ids"] = fresh["source_message_ids"][:]
    value = fresh["value_json"]
    if type(value) is dict or type(value) is list:
        fresh["value_json"] = json_copy(value)
    return trusted(MemoryNode, fresh, every_field=True)


def json_copy(value: Any) -> Any:
    """A copy of decoded JSON that shares nothing mutable with ``value`` (half the time of
    decoding the text again, a third of ``copy.deepcopy``'s)."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    return value


class NodeRow(tuple[Any, ...]):
    """A node row as the driver returned it (NODE_COLUMNS order; trailing extra columns
    such as a search rank are ignored), read through the fields ranking needs.

    A turn's context ranks ~3 candidates for each node it keeps: ranking rows and
    building the typed ``MemoryNode`` (``node()``) only for the winners costs a fraction
    of typing every candidate. Attribute names match MemoryNode's, so ranking and
    visibility accept either.
    """

    __slots__ = ()

    if TYPE_CHECKING:
        id: str
        session_id: str | None
        workspace_id: str | None
        user_id: str | None
        scope: str
        domain: str
        type: str
        key: str | None
        status: str
        confidence: float
        importance: float
        origin: str
        subject: str | None
        title: str
        content: str
    else:
        # C-level getters, as namedtuple's: these are read for every candidate of a turn.
        id = property(itemgetter(_NODE_POS["id"]))
        session_id = property(itemgetter(_NODE_POS["session_id"]))
        workspace_id = property(itemgetter(_NODE_POS["workspace_id"]))
        user_id = property(itemgetter(_NODE_POS["user_id"]))
        scope = property(itemgetter(_NODE_POS["scope"]))
        domain = property(itemgetter(_NODE_POS["domain"]))
        type = property(itemgetter(_NODE_POS["type"]))
        key = property(itemgetter(_NODE_POS["key"]))
        status = property(itemgetter(_NODE_POS["status"]))
        confidence = property(itemgetter(_NODE_POS["confidence"]))
        importance = property(itemgetter(_NODE_POS["importance"]))
        origin = property(itemgetter(_NODE_POS["origin"]))
        subject = property(itemgetter(_NODE_POS["subject"]))
        title = property(itemgetter(_NODE_POS["title"]))
        content = property(itemgetter(_NODE_POS["content"]))

    @property
    def updated_at(self) -> datetime:
        """When the node was last written."""
        return from_db_required(self[_UPDATED_AT])

    @property
    def expires_at(self) -> datetime | None:
        """When the node stops holding, if ever."""
        return from_db(self[_EXPIRES_AT])

    @property
    def value_json(self) -> Any:
        """The decoded value (decoded on each read: rows are shared, values mutable)."""
        return _loads(self[_VALUE_JSON])

    def labels(self) -> list[str]:
        """What the node is about: its title, tags and entities."""
        return [self.title, *_list(self[_TAGS]), *_list(self[_ENTITIES])]

    def is_expired(self, now: datetime) -> bool:
        """As MemoryNode.is_expired."""
        expires = self[_EXPIRES_AT]
        return self.status == "expired" or (
            expires is not None and from_db_required(expires) <= now
        )

    def value_identity(self) -> str:
        """As MemoryNode.value_identity, from the stored subject column when it has one."""
        subject: str | None = self[_SUBJECT]
        if subject is not None and self[_KEY] is not None:
            return subject
        return canonical_json(self.value_json)

    def node(self) -> MemoryNode:
        """The typed node (its decoded values are remembered for the next turn)."""
        return _remembered_node(self)


# The columns ranking reads (``service.ranking``: priority and conflict identity): a
# row's facts are remembered under these alone, so the long texts (content, tags,
# category path) are not hashed for every candidate of every turn.
RANKING_COLUMNS = (
    "id",
    "scope",
    "domain",
    "type",
    "key",
    "value_json",
    "subject",
    "status",
    "confidence",
    "importance",
    "origin",
    "updated_at",
    "expires_at",
)
ranking_columns = itemgetter(*(_NODE_POS[name] for name in RANKING_COLUMNS))

_ID = _NODE_POS["id"]
_UPDATED_AT = _NODE_POS["updated_at"]
_EXPIRES_AT = _NODE_POS["expires_at"]
_VALUE_JSON = _NODE_POS["value_json"]
_SUBJECT = _NODE_POS["subject"]
_KEY = _NODE_POS["key"]
_TAGS = _NODE_POS["tags_json"]
_ENTITIES = _NODE_POS["entities_json"]


def row_to_node(row: Mapping[str, Any]) -> MemoryNode:
    """A node from a row mapping (column name → value)."""
    return node_from_tuple([row[name] for name in NODE_COLUMNS])


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


def row_to_message(row: Mapping[str, Any]) -> MemoryMessage:
    """A message from its row."""
    return trusted(MemoryMessage, _message_values([row[name] for name in MESSAGE_COLUMNS]))


_MESSAGE_POS = {name: i for i, name in enumerate(MESSAGE_COLUMNS)}
_M = [
    _MESSAGE_POS[name]
    for name in ("id", "session_id", "parent_id", "role", "content", "metadata_json", "created_at")
]


def _message_values(r: Sequence[Any]) -> dict[str, Any]:
    m = _M
    return {
        "id": r[m[0]],
        "session_id": r[m[1]],
        "parent_id": r[m[2]],
        "role": r[m[3]],
        "content": r[m[4]],
        "metadata": _loads(r[m[5]]),
        "created_at": from_db(r[m[6]]),
    }


_MESSAGE_MEMO = RowMemo(_message_values, id_at=_MESSAGE_POS["id"], limit=1024)


def message_from_tuple(r: tuple[Any, ...]) -> MemoryMessage:
    """A message from a driver row in MESSAGE_COLUMNS order, from remembered values (its
    metadata decoded afresh: callers may change it)."""
    fresh = dict(_MESSAGE_MEMO.values(r))
    fresh["metadata"] = json_copy(fresh["metadata"])
    return trusted(MemoryMessage, fresh, every_field=True)


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


def row_to_summary(row: Mapping[str, Any]) -> MemorySummary:
    """A summary from its row."""
    return trusted(MemorySummary, _summary_values([row[name] for name in SUMMARY_COLUMNS]))


_SUMMARY_POS = {name: i for i, name in enumerate(SUMMARY_COLUMNS)}
_SUMMARY_TEXTS = (
    "id",
    "session_id",
    "parent_summary_id",
    "from_message_id",
    "to_message_id",
    "summary",
    "current_goal",
)


def _summary_values(r: Sequence[Any]) -> dict[str, Any]:
    pos = _SUMMARY_POS
    values: dict[str, Any] = {name: r[pos[name]] for name in _SUMMARY_TEXTS}
    values["stale"] = bool(r[pos["stale"]])
    values["created_at"] = from_db(r[pos["created_at"]])
    for name in SUMMARY_LISTS:
        values[name] = _list(r[pos[f"{name}_json"]])
    return values


_SUMMARY_MEMO = RowMemo(_summary_values, id_at=_SUMMARY_POS["id"], limit=256)


def summary_from_tuple(r: tuple[Any, ...]) -> MemorySummary:
    """A summary from a driver row in SUMMARY_COLUMNS order, from remembered values (with
    fresh lists: callers may change them)."""
    fresh = dict(_SUMMARY_MEMO.values(r))
    for name in SUMMARY_LISTS:
        fresh[name] = list(fresh[name])
    return trusted(MemorySummary, fresh, every_field=True)
