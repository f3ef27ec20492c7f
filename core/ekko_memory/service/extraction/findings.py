"""What a frame found in a statement, before it becomes a proposed memory."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ekko_memory.identity import canonical_name
from ekko_memory.models import ExtractedNodeOperation, MemoryNode, MemoryNodeDraft
from ekko_memory.service.extraction.statements import Statement


@dataclass
class Finding:
    """One memory a statement states: its place in the schema and its words.

    ``person``: whose fact it is when not the user's (儿子, wife Anna) — filed under 人物
    and never read as the user's own. ``replace_key``: a one-value fact of that person
    (their age, their school) that a new value replaces.
    """

    type: str
    domain: str
    category: list[str]
    key: str | None
    value: Any
    title: str
    content: str
    statement: Statement
    scope: str | None = None
    expires_at: datetime | None = None
    tags: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    confidence: float = 0.9
    importance: float = 0.7
    person: str = ""
    reason: str = "a fact the user stated"

    def draft(self) -> dict[str, Any]:
        """The fields of the proposed node (MemoryNodeDraft names)."""
        out: dict[str, Any] = {
            "domain": self.domain,
            "category_path": self.category,
            "type": self.type,
            "key": self.key,
            "value_json": self.value,
            "title": self.title,
            "content": self.content,
            "tags": self.tags,
            "entities": [e for e in dict.fromkeys(self.entities) if e],
            "confidence": self.confidence,
            "importance": self.importance,
        }
        if self.scope is not None:
            out["scope"] = self.scope
        if self.expires_at is not None:
            out["expires_at"] = self.expires_at
        return out


def clip(text: str, limit: int = 40) -> str:
    """``text`` without edge punctuation, cut to ``limit`` characters ("…" marks the cut)."""
    text = text.strip(" ，,。.!！；;")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def subject_name(node: MemoryNode) -> str:
    """The canonical name a stored memory is about (its value, or the value's ingredient)."""
    value = node.value_json
    if isinstance(value, dict):
        value = value.get("ingredient") or value.get("name") or ""
    return canonical_name(str(value))


@dataclass
class Found:
    """The operations one extraction proposes, and the language of the message being read
    (titles follow the user's language)."""

    ops: list[ExtractedNodeOperation] = field(default_factory=list)
    zh: bool = True

    def t(self, zh: str, en: str) -> str:
        """Title or content in the language the user wrote in."""
        return zh if self.zh else en

    def add(self, operation: str, reason: str, target_id: str | None = None, **node: Any) -> None:
        """Propose one operation (node fields as MemoryNodeDraft names)."""
        self.ops.append(
            ExtractedNodeOperation(
                operation=operation,  # type: ignore[arg-type]
                target_id=target_id,
                node=MemoryNodeDraft.model_validate(node),
                reason=reason,
            )
        )
