"""What happened to memories and what waits for the user: audit events, pending items,
usage records and a memory's history."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ekko_memory.models.base import CamelModel, OptUtcDatetime, ReadDatetime, UtcDatetime
from ekko_memory.models.messages import MemoryMessage
from ekko_memory.models.nodes import MemoryNode

AuditEventType = Literal[
    "create",
    "update",
    "supersede",
    "expire",
    "delete",
    "hard_delete",
    "restore",
    "pending",
    "approve",
    "reject",
    "import",
    "purge",
    "revert",
]


class AuditEvent(CamelModel):
    """One row of ``memory_audit_events``: who did what to which node, and why."""

    id: str
    event_type: AuditEventType
    node_id: str | None = None
    session_id: str | None = None
    workspace_id: str | None = None
    user_id: str | None = None
    actor: str
    reason: str
    payload: dict[str, Any] | None = None
    created_at: UtcDatetime


PendingKind = Literal["write", "hard_delete", "forget_many", "scope_promotion"]
PendingStatus = Literal["pending", "approved", "rejected", "expired"]
PendingOperation = Literal["create", "update", "supersede", "expire", "delete"]


class PendingItem(CamelModel):
    """A write or delete that waits for the user's decision."""

    id: str
    kind: PendingKind
    status: PendingStatus = "pending"
    operation: PendingOperation
    # The proposed node (a full MemoryNode JSON for writes), None for deletes.
    node: dict[str, Any] | None = None
    target_ids: list[str] = Field(default_factory=list)
    current_head_id: str | None = None
    # Machine-readable rule that sent it here (user_scope_without_intent, sensitive_data, ...).
    rule: str
    reason: str
    requester: str
    session_id: str | None = None
    workspace_id: str | None = None
    user_id: str | None = None
    source_message_ids: list[str] = Field(default_factory=list)
    created_at: UtcDatetime
    decided_by: str | None = None
    decided_at: OptUtcDatetime = None
    decision_note: str | None = None
    result_node_id: str | None = None
    # Which store holds it ("workspace" or "user"); filled when read.
    store: str | None = None


class NodeUsage(CamelModel):
    """Where a memory was used: how many replies, and the latest ones."""

    node_id: str
    count: int = 0
    last_used_at: ReadDatetime = None
    recent_message_ids: list[str] = Field(default_factory=list)


class NodeHistory(CamelModel):
    """A memory's whole story: its versions (oldest first), audit events, sources and usage."""

    node_id: str
    chain: list[MemoryNode] = Field(default_factory=list)
    audit: list[AuditEvent] = Field(default_factory=list)
    sources: list[MemoryMessage] = Field(default_factory=list)
    usage: NodeUsage | None = None
    store: str | None = None


class UsageRecord(CamelModel):
    """One row of the usage record: a memory fed one assistant reply."""

    id: str
    node_id: str
    message_id: str
    session_id: str | None = None
    workspace_id: str | None = None
    used_at: UtcDatetime
