"""What an extractor proposes: a summary patch and node operations."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field
from pydantic.alias_generators import to_camel

from ekko_memory.models.base import MAX_SUMMARY_CHARS, CamelModel, bounded_text
from ekko_memory.models.nodes import MemoryNodeDraft

ExtractionOperation = Literal["create", "update", "supersede", "expire", "ignore"]


class ExtractedNodeOperation(CamelModel):
    """One proposed change from an extractor."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    operation: ExtractionOperation
    target_id: str | None = None
    node: MemoryNodeDraft = Field(default_factory=MemoryNodeDraft)
    reason: Annotated[str, bounded_text(2000)] = ""


class MemoryExtraction(CamelModel):
    """An extractor's output: a summary patch and node operations, applied through governed writes."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    summary_patch: Annotated[str, bounded_text(MAX_SUMMARY_CHARS)] | None = None
    nodes: list[ExtractedNodeOperation] = Field(default_factory=list)
