"""What an extractor and a summarizer receive and return."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from pydantic import ConfigDict, Field
from pydantic.alias_generators import to_camel

from ekko_memory.models import (
    CamelModel,
    MemoryExtraction,
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    StringList,
)


class ExtractionFailed(Exception):
    """The extractor could not produce a valid extraction (network, bad JSON…); retried later."""


@dataclass(frozen=True)
class ExtractionInput:
    """New messages of one session, with what is already known."""

    session_id: str
    messages: list[MemoryMessage]
    previous_summary: MemorySummary | None
    # Current memories the new messages may correct or update (targets for supersede).
    known_nodes: list[MemoryNode]
    now: datetime
    # The session's user messages just before ``messages`` (oldest first): what a
    # correction (不对，是周四) or a take-back (刚才那条不算) of the first new message
    # refers to.
    earlier: list[MemoryMessage] = field(default_factory=list)


class MemoryExtractor(Protocol):
    """Turns new messages into node operations; its output goes through governed writes."""

    name: str

    def extract(self, data: ExtractionInput) -> MemoryExtraction:
        """Propose operations (create/update/supersede/expire/ignore) with reasons."""
        ...


class SummaryDraft(CamelModel):
    """The content of the next summary in the chain (ids and links are added by the service)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    summary: str
    current_goal: str | None = None
    constraints: StringList = Field(default_factory=list)
    preferences: StringList = Field(default_factory=list)
    decisions: StringList = Field(default_factory=list)
    completed_work: StringList = Field(default_factory=list)
    pending_work: StringList = Field(default_factory=list)
    known_issues: StringList = Field(default_factory=list)


@dataclass(frozen=True)
class SummaryInput:
    """The previous summary and only the messages after it."""

    session_id: str
    previous: MemorySummary | None
    messages: list[MemoryMessage]
    # Memories written from these messages (they feed preferences/decisions/constraints).
    extracted: list[MemoryNode] = field(default_factory=list)
    # Messages some memory was written from, in any run or status: the memory (and its
    # later corrections) speaks for them, so a summary need not repeat their words.
    recorded_message_ids: frozenset[str] = frozenset()
    # What the extractor said the summary should add (its summaryPatch), oldest first.
    patches: tuple[str, ...] = ()


class Summarizer(Protocol):
    """Builds the next link of the summary chain from the previous one plus new messages."""

    name: str

    def summarize(self, data: SummaryInput) -> SummaryDraft:
        """The next summary's content."""
        ...
