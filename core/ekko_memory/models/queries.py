"""Asking memory: a structured query, its result, and the per-turn context."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field, PrivateAttr, field_validator

from ekko_memory.errors import InvalidInput
from ekko_memory.models.base import (
    MAX_LIST_ITEMS,
    MAX_QUERY_LIMIT,
    MAX_VALUE_JSON_BYTES,
    CamelModel,
    NodeType,
    OmitReason,
    Scope,
    StoreStatus,
    Unit,
    bounded_text,
    check_json_size,
    clean_text,
    trusted,
)
from ekko_memory.models.context_render import RENDER_NOTES, render_context
from ekko_memory.models.messages import MemoryMessage, MemorySummary
from ekko_memory.models.nodes import MemoryNode


class MemoryQuery(CamelModel):
    """A structured query; the runtime never writes SQL."""

    user_id: str | None = None
    workspace_id: str | None = None
    session_id: str | None = None
    scopes: list[Scope] | None = None
    domain: str | None = None
    category_path_prefix: list[str] | None = None
    types: list[NodeType] | None = None
    key: str | None = None
    value_json: Any = None
    tags: list[str] | None = None
    entities: list[str] | None = None
    query_text: Annotated[str, bounded_text(2000)] | None = None
    include_expired: bool = False
    limit: Annotated[int, Field(ge=1, le=MAX_QUERY_LIMIT)] = 20
    # Below this confidence a node is omitted as low_confidence.
    min_confidence: Unit = 0.3

    @field_validator("value_json")
    @classmethod
    def _value(cls, value: Any) -> Any:
        return check_json_size(value, MAX_VALUE_JSON_BYTES, "valueJson")

    @field_validator("category_path_prefix", "tags", "entities")
    @classmethod
    def _lists(cls, value: list[str] | None) -> list[str] | None:
        # An empty list constrains nothing (an agent's ``tags: []`` means "any tags").
        return [clean_text(v) for v in value][:MAX_LIST_ITEMS] or None if value else None

    @field_validator("scopes", "types")
    @classmethod
    def _choices(cls, value: list[str] | None) -> list[str] | None:
        # ``types: []`` means any type, not none: a query never silently matches nothing.
        return value or None

    @field_validator("user_id", "workspace_id", "session_id", "domain", "key")
    @classmethod
    def _texts(cls, value: str | None) -> str | None:
        return None if value is None else clean_text(value)


class OmittedNode(CamelModel):
    """A node that matched but was left out, and why (a report: read-only, so one can be
    shared by every context that omits the node for the same reason)."""

    model_config = ConfigDict(frozen=True)

    node_id: str
    reason: OmitReason


def omission(node_id: str, reason: OmitReason) -> OmittedNode:
    """The ``OmittedNode`` of a stored node's id and a reason: unvalidated, and shared
    (it is read-only) by every turn that omits the node again; a turn omits dozens."""
    key = (node_id, reason)
    found = _OMISSIONS.get(key)
    if found is None:
        found = trusted(OmittedNode, {"node_id": node_id, "reason": reason})
        if len(_OMISSIONS) >= _OMISSIONS_MAX:
            _OMISSIONS.clear()
        _OMISSIONS[key] = found
    return found


_OMISSIONS: dict[tuple[str, str], OmittedNode] = {}
_OMISSIONS_MAX = 4096


class MemoryQueryResult(CamelModel):
    """Filtered, ordered, conflict-resolved retrieval result."""

    exact: list[MemoryNode] = Field(default_factory=list)
    relevant: list[MemoryNode] = Field(default_factory=list)
    omitted: list[OmittedNode] = Field(default_factory=list)
    # Stores that hold requested scopes but could not be read (absent when all could):
    # an empty answer then means "unknown", not "nothing remembered".
    warnings: list[str] | None = None


class MemoryContextDiagnostics(CamelModel):
    """How retrieval went: always present, so a degraded store is explained, not hidden."""

    enabled: bool = True
    store_status: StoreStatus = "ok"
    warnings: list[str] = Field(default_factory=list)
    retrieved_node_count: int = 0
    omitted_node_count: int = 0
    # Why the context is off (``enabled`` false), as a reason code: ``memory.paused``.
    reason_code: str | None = None


class MemoryContext(CamelModel):
    """What the agent gets before a model call; ``render()`` turns it into prompt text."""

    latest_summary: MemorySummary | None = None
    recent_messages: list[MemoryMessage] = Field(default_factory=list)
    active_tasks: list[MemoryNode] = Field(default_factory=list)
    relevant_nodes: list[MemoryNode] = Field(default_factory=list)
    constraints: list[MemoryNode] = Field(default_factory=list)
    preferences: list[MemoryNode] = Field(default_factory=list)
    # Workspace decisions and facts (the design doc's default retrieval includes them).
    facts: list[MemoryNode] = Field(default_factory=list)
    # Standing facts about the user and the people in their life (where they live, family,
    # work, languages, health): a short profile every context carries.
    profile: list[MemoryNode] = Field(default_factory=list)
    # What the user said that waits for their approval (not stored as a memory yet).
    unconfirmed: list[MemoryNode] = Field(default_factory=list)
    used_memory_ids: list[str] = Field(default_factory=list)
    omitted: list[OmittedNode] = Field(default_factory=list)
    diagnostics: MemoryContextDiagnostics = Field(default_factory=MemoryContextDiagnostics)

    _rendered_ids: list[str] | None = PrivateAttr(default=None)

    def render(self, max_tokens: int | None = 800) -> str:
        """Compact prompt text within ``max_tokens`` (None: no budget); what does not fit
        is reported as over_limit. Memories are quoted as data (no line breaks, hidden
        characters or template tokens of their own); the diagnostics name those whose
        text quoting changed."""
        if max_tokens is not None and (
            isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 0
        ):
            raise InvalidInput(
                f"max_tokens must be a whole number of tokens, 0 or more, or None; got {max_tokens!r}"
            )
        rendered = render_context(self, max_tokens)
        included, dropped = rendered.included, rendered.dropped
        self._rendered_ids = included
        self.omitted = [o for o in self.omitted if o.reason != "over_limit"] + [
            omission(i, "over_limit") for i in dropped
        ]
        self.diagnostics.omitted_node_count = len(self.omitted)
        # Each render reports its own budget and quoting: a roomier render clears an
        # earlier warning.
        warnings = [w for w in self.diagnostics.warnings if not w.startswith(RENDER_NOTES)]
        if dropped:
            warnings.append(f"token budget {max_tokens}: {len(set(dropped))} memories left out")
        self.diagnostics.warnings = warnings + rendered.notes
        return rendered.text

    @property
    def rendered_memory_ids(self) -> list[str]:
        """Ids that reached the prompt in the last ``render()`` (all used ids if never rendered)."""
        return list(self.used_memory_ids if self._rendered_ids is None else self._rendered_ids)
