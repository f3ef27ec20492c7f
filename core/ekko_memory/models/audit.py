"""What happened to memories and what waits for the user: audit events, pending items,
usage records and a memory's history."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ekko_memory.models.base import CamelModel, OptUtcDatetime, ReadDatetime, UtcDatetime
from ekko_memory.models.messages import MemoryMessage
from ekko_memory.models.nodes import MemoryNode
from ekko_memory.models.reasons import read_stored_reason

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
    "pin",
    "unpin",
    "pause",
    "resume",
    "merge",
    "unmerge",
    "dismiss",
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
    # ``reason`` as a code and its specifics (``models.reasons.STORED_REASONS``) when the
    # core wrote it, for an interface to word; None for a reason someone typed.
    reason_code: str | None = None
    reason_params: dict[str, str] = Field(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        if self.reason_code is None:
            self.reason_code, self.reason_params = read_stored_reason(self.reason)


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
    # The specifics of ``rule`` ``reason`` names, e.g. ``{"kinds": "phone number, id card"}``
    # for sensitive_data, ``{"values": …}`` for unverified_value.
    reason_params: dict[str, str] = Field(default_factory=dict)
    # ``decision_note`` as a code and params (``models.reasons.STORED_REASONS``) when the
    # core wrote it (a withdrawal by the user's words, "approved by the user").
    decision_code: str | None = None
    decision_params: dict[str, str] = Field(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        if not self.reason_params and self.rule in _LISTING_RULES:
            listed = _listed(self.reason)
            if listed is not None:
                self.reason_params = {_LISTING_RULES[self.rule]: listed}
        if self.decision_code is None:
            self.decision_code, self.decision_params = read_stored_reason(self.decision_note)


# The rules whose reason ends with what it found, in brackets ("… (phone number, email)").
_LISTING_RULES = {"sensitive_data": "kinds", "unverified_value": "values"}


def _listed(reason: str) -> str | None:
    reason = reason.strip()
    if not reason.endswith(")") or "(" not in reason:
        return None
    return reason[reason.rindex("(") + 1 : -1]


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
