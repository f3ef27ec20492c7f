"""The conversation log: raw messages, the summary chain and the background cursors."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, field_validator

from ekko_memory.models.base import (
    MAX_CONTENT_CHARS,
    MAX_MESSAGE_CHARS,
    MAX_METADATA_JSON_BYTES,
    MAX_SUMMARY_CHARS,
    CamelModel,
    Role,
    StringList,
    UtcDatetime,
    bounded_text,
    check_json_size,
)

# The metadata of the message that keeps a tool call's ``userMessage`` nobody vouched for
# (role "tool"): the words an agent reports the user said, as its report.
REPORTED_BY_AGENT: dict[str, str] = {"reportedBy": "agent"}


class MemoryMessage(CamelModel):
    """One raw log entry: append-only, never rewritten."""

    id: str
    session_id: Annotated[str, bounded_text(200, allow_empty=False)]
    parent_id: str | None = None
    role: Role
    content: Annotated[str, bounded_text(MAX_MESSAGE_CHARS)]
    metadata: dict[str, Any] | None = None
    created_at: UtcDatetime

    @field_validator("metadata")
    @classmethod
    def _metadata(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is None:
            return None
        return check_json_size(value, MAX_METADATA_JSON_BYTES, "metadata")  # type: ignore[no-any-return]

    @property
    def reported_by_agent(self) -> bool:
        """The words an agent reported the user said (a tool call's ``userMessage``), kept
        as its report: never the user's own message, never read for their intent."""
        return self.role == "tool" and (self.metadata or {}).get("reportedBy") == "agent"


class MemorySummary(CamelModel):
    """One link of a session's summary chain (``parentSummaryId`` points to the previous)."""

    id: str
    session_id: Annotated[str, bounded_text(200, allow_empty=False)]
    parent_summary_id: str | None = None
    from_message_id: str
    to_message_id: str
    summary: Annotated[str, bounded_text(MAX_SUMMARY_CHARS)]
    current_goal: Annotated[str, bounded_text(MAX_CONTENT_CHARS)] | None = None
    constraints: StringList = Field(default_factory=list)
    preferences: StringList = Field(default_factory=list)
    decisions: StringList = Field(default_factory=list)
    completed_work: StringList = Field(default_factory=list)
    pending_work: StringList = Field(default_factory=list)
    known_issues: StringList = Field(default_factory=list)
    # Set when a message it was built from has been deleted; the next summary replaces it.
    stale: bool = False
    created_at: UtcDatetime


class SessionCursor(CamelModel):
    """How far one kind of background work (extraction, summaries) has read a session's log."""

    session_id: str
    kind: str
    message_id: str
    message_created_at: UtcDatetime
    updated_at: UtcDatetime
