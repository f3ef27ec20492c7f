"""Memories: a node (one version of a chain), what reads it, and a proposal of one."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Protocol

from pydantic import ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from ekko_memory.identity import value_identity
from ekko_memory.models.base import (
    KEY_PATTERN,
    MAX_VALUE_JSON_BYTES,
    CamelModel,
    CategoryPath,
    Content,
    NodeStatus,
    NodeType,
    OptUtcDatetime,
    Origin,
    Scope,
    StringList,
    Title,
    Unit,
    UtcDatetime,
    bounded_text,
    check_json_size,
)


class MemoryNode(CamelModel):
    """A structured memory: one version in a supersede chain."""

    id: str
    parent_id: str | None = None
    supersedes_id: str | None = None
    session_id: str | None = None
    workspace_id: str | None = None
    user_id: str | None = None
    scope: Scope
    domain: Annotated[str, bounded_text(64, allow_empty=False)]
    category_path: CategoryPath
    type: NodeType
    key: str | None = None
    value_json: Any = None
    title: Title
    content: Content = ""
    status: NodeStatus = "active"
    confidence: Unit
    importance: Unit
    tags: StringList = Field(default_factory=list)
    entities: StringList = Field(default_factory=list)
    source_message_ids: StringList = Field(default_factory=list)
    origin: Origin = "inferred"
    created_at: UtcDatetime
    updated_at: UtcDatetime
    expires_at: OptUtcDatetime = None

    @field_validator("key")
    @classmethod
    def _key(cls, value: str | None) -> str | None:
        if value is not None and not KEY_PATTERN.match(value):
            raise ValueError("must be snake_case ascii, e.g. 'avoid_ingredient'")
        return value

    @field_validator("value_json")
    @classmethod
    def _value(cls, value: Any) -> Any:
        return check_json_size(value, MAX_VALUE_JSON_BYTES, "valueJson")

    @property
    def category_path_text(self) -> str:
        """The category path joined with '/', as stored for prefix queries."""
        return "/".join(self.category_path)

    def is_expired(self, now: datetime) -> bool:
        """True when the node's status is expired or its expiry time has passed."""
        return self.status == "expired" or (self.expires_at is not None and self.expires_at <= now)

    def status_at(self, now: datetime) -> NodeStatus:
        """The status a person is shown at ``now``: an active memory whose expiry has
        passed is expired (its stored status changes only when something writes it)."""
        return "expired" if self.status == "active" and self.is_expired(now) else self.status

    def seen_at(self, now: datetime) -> MemoryNode:
        """This node with the status a person is shown at ``now`` (``status_at``): what
        histories, tool results and readable exports hand out. The store is unchanged."""
        status = self.status_at(now)
        return self if status == self.status else self.model_copy(update={"status": status})

    def value_identity(self) -> str:
        """What the value is about (its subject, else its canonical JSON): conflict identities."""
        return value_identity(self.value_json)


class NodeLike(Protocol):
    """What ranking, conflict resolution and visibility read of a node: a ``MemoryNode``,
    or a store row not yet typed (``store.rows.NodeRow``)."""

    @property
    def id(self) -> str: ...
    @property
    def session_id(self) -> str | None: ...
    @property
    def workspace_id(self) -> str | None: ...
    @property
    def user_id(self) -> str | None: ...
    @property
    def scope(self) -> str: ...
    @property
    def domain(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def key(self) -> str | None: ...
    @property
    def status(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def importance(self) -> float: ...
    @property
    def origin(self) -> str: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def expires_at(self) -> datetime | None: ...
    @property
    def value_json(self) -> Any: ...

    def is_expired(self, now: datetime) -> bool:
        """True when expired by status or time."""

    def value_identity(self) -> str:
        """What the value is about."""


class MemoryNodeDraft(CamelModel):
    """``Partial<MemoryNode>``: what an agent or extractor proposes; the service fills the rest."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    scope: Scope | None = None
    domain: Annotated[str, bounded_text(64, allow_empty=False)] | None = None
    category_path: CategoryPath | None = None
    type: NodeType | None = None
    key: Annotated[str, bounded_text(64, allow_empty=False)] | None = None
    value_json: Any = None
    title: Title | None = None
    content: Content | None = None
    status: NodeStatus | None = None
    confidence: Unit | None = None
    importance: Unit | None = None
    tags: StringList | None = None
    entities: StringList | None = None
    source_message_ids: StringList | None = None
    session_id: str | None = None
    workspace_id: str | None = None
    user_id: str | None = None
    expires_at: OptUtcDatetime = None

    @field_validator("value_json")
    @classmethod
    def _value(cls, value: Any) -> Any:
        return check_json_size(value, MAX_VALUE_JSON_BYTES, "valueJson")
