"""What the app and the CLI list: a browse filter, category counts, sessions."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ekko_memory.models.base import (
    CamelModel,
    NodeStatus,
    NodeType,
    ReadDatetime,
    Scope,
    bounded_text,
)


class BrowseFilter(CamelModel):
    """What the app or the CLI lists: statuses, scopes, a category branch, types, text."""

    statuses: list[NodeStatus] | None = Field(default_factory=lambda: list[NodeStatus](["active"]))
    scopes: list[Scope] | None = None
    domain: str | None = None
    category_path_prefix: list[str] | None = None
    types: list[NodeType] | None = None
    key: str | None = None
    session_id: str | None = None
    text: Annotated[str, bounded_text(2000)] | None = None
    # Only nodes whose expiry has not passed (False keeps expired ones visible).
    hide_expired: bool = False
    # Only nodes whose expiry has passed (an active memory past its expiresAt is expired).
    only_expired: bool = False


class CategoryCount(CamelModel):
    """Active memories filed exactly at one category path."""

    domain: str
    category_path: list[str]
    count: int


class SessionSummaryInfo(CamelModel):
    """One session at a glance."""

    session_id: str
    message_count: int
    first_at: ReadDatetime = None
    last_at: ReadDatetime = None
    # The session's first words (its first user message, shortened): what a person
    # recognizes a conversation by, where its id says nothing.
    first_words: str | None = None
