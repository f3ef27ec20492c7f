"""What a sentence says, read without storing it: the memories it proposes."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ekko_memory.models.base import MAX_CONTENT_CHARS, CamelModel, bounded_text
from ekko_memory.models.nodes import MemoryNodeDraft


class Understanding(CamelModel):
    """The memories one sentence proposes (``MemoryService.understand``), nothing written.

    Each draft is filled as the schema would store it: domain, category path, kind
    (``type``), key and value in the key's shape, scope, expiry for a temporary state,
    title and content. ``understood`` is False when no extractor found anything: then
    ``memories`` holds one note keeping the sentence as written (never refused)."""

    text: Annotated[str, bounded_text(MAX_CONTENT_CHARS)]
    understood: bool
    memories: list[MemoryNodeDraft] = Field(default_factory=list)
