"""Pydantic types of the design document.

JSON uses camelCase names (``sessionId``, ``valueJson``) exactly as the design doc;
Python attributes are snake_case. Every text field is cleaned of lone surrogates
(which cannot be stored as UTF-8) and bounded in size, so bad input fails here,
before anything touches the database.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from typing import Annotated, Any, Literal, NamedTuple, Protocol, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from ekko_memory.errors import InvalidInput
from ekko_memory.identity import value_identity
from ekko_memory.timeutil import storable, to_utc

Scope = Literal["session", "workspace", "user", "global"]
NodeType = Literal[
    "preference", "fact", "decision", "task", "recipe", "skill", "constraint", "correction"
]
NodeStatus = Literal["active", "superseded", "expired", "deleted"]
Role = Literal["system", "user", "assistant", "tool"]
# Where a node came from: conflict resolution ranks explicit user statements over inference.
Origin = Literal["user_explicit", "user_edit", "inferred", "imported", "seed"]
# low_relevance: semantic recall found the memory unrelated to the message (under the floor).
OmitReason = Literal[
    "expired", "superseded", "low_confidence", "conflict_lost", "over_limit", "low_relevance"
]
StoreStatus = Literal["ok", "disabled", "degraded"]

SCOPES: tuple[Scope, ...] = ("session", "workspace", "user", "global")
# The scopes the stores hold and people write (global is read-only seed data).
STORED_SCOPES: tuple[Scope, ...] = ("session", "workspace", "user")
NODE_TYPES: tuple[NodeType, ...] = (
    "preference",
    "fact",
    "decision",
    "task",
    "recipe",
    "skill",
    "constraint",
    "correction",
)
NODE_STATUSES: tuple[NodeStatus, ...] = ("active", "superseded", "expired", "deleted")
# The orders a listing of memories can take (``Browser.list_nodes``); ties go by id.
BrowseSort = Literal[
    "updated",
    "title",
    "type",
    "scope",
    "key",
    "value",
    "status",
    "confidence",
    "importance",
    "expires",
]

MAX_MESSAGE_CHARS = 8 * 1024 * 1024
MAX_TITLE_CHARS = 200
MAX_CONTENT_CHARS = 32 * 1024
MAX_SUMMARY_CHARS = 64 * 1024
MAX_LIST_ITEMS = 64
MAX_LIST_ITEM_CHARS = 200
MAX_VALUE_JSON_BYTES = 16 * 1024
MAX_METADATA_JSON_BYTES = 256 * 1024
MAX_CATEGORY_DEPTH = 8
MAX_CATEGORY_SEGMENT_CHARS = 64
# The most nodes one retrieval returns per list (exact, relevant): memory_search's answer
# is read by a model, and 100 memories already fill thousands of tokens. Bulk reading is
# ``mem.browse`` and the CLI's ``search`` (up to 1000), or an export.
MAX_QUERY_LIMIT = 100
KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


class NodeLimits(NamedTuple):
    """The sizes a memory's fields may have, as validation enforces them (for forms that
    check before they send)."""

    title_chars: int
    content_chars: int
    list_items: int  # tags, entities
    list_item_chars: int
    category_depth: int
    category_segment_chars: int


NODE_LIMITS = NodeLimits(
    title_chars=MAX_TITLE_CHARS,
    content_chars=MAX_CONTENT_CHARS,
    list_items=MAX_LIST_ITEMS,
    list_item_chars=MAX_LIST_ITEM_CHARS,
    category_depth=MAX_CATEGORY_DEPTH,
    category_segment_chars=MAX_CATEGORY_SEGMENT_CHARS,
)

# Lone surrogates cannot be encoded as UTF-8, and PostgreSQL's text type refuses NUL:
# both become U+FFFD, so every backend stores the same text.
_SURROGATES = re.compile("[\ud800-\udfff\x00]")


def clean_text(value: str) -> str:
    """Replace lone surrogates (unstorable as UTF-8) and NUL with U+FFFD; keep everything else."""
    return _SURROGATES.sub("\ufffd", value)


def clean_json_value(value: Any, *, depth: int = 0) -> Any:
    """Clean strings inside a JSON value and reject what JSON cannot hold (NaN, sets, objects)."""
    if depth > 32:
        raise ValueError("value is nested too deeply (over 32 levels)")
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("value holds NaN or infinity, which JSON cannot represent")
        return value
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list | tuple):
        return [clean_json_value(v, depth=depth + 1) for v in value]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ValueError("object keys must be strings")
            out[clean_text(k)] = clean_json_value(v, depth=depth + 1)
        return out
    raise ValueError(f"a {type(value).__name__} is not a JSON value")


def _bounded_text(limit: int, *, allow_empty: bool = True) -> Any:
    def check(value: str) -> str:
        value = clean_text(value)
        if not allow_empty and not value.strip():
            raise ValueError("must not be empty")
        if len(value) > limit:
            raise ValueError(f"is {len(value)} characters long; the limit is {limit}")
        return value

    return AfterValidator(check)


def _string_list(value: list[str]) -> list[str]:
    if len(value) > MAX_LIST_ITEMS:
        raise ValueError(f"has {len(value)} items; the limit is {MAX_LIST_ITEMS}")
    out: list[str] = []
    for item in value:
        item = clean_text(item).strip()
        if len(item) > MAX_LIST_ITEM_CHARS:
            raise ValueError(f"an item is longer than {MAX_LIST_ITEM_CHARS} characters")
        if item and item not in out:
            out.append(item)
    return out


def _category_path(value: list[str]) -> list[str]:
    if not value:
        raise ValueError("needs at least one segment, e.g. ['生活技能']")
    if len(value) > MAX_CATEGORY_DEPTH:
        raise ValueError(f"is deeper than {MAX_CATEGORY_DEPTH} levels")
    out = []
    for seg in value:
        seg = clean_text(seg).strip()
        if not seg:
            raise ValueError("has an empty segment")
        if "/" in seg:
            raise ValueError(f"segment {seg!r} contains '/', which separates segments")
        if len(seg) > MAX_CATEGORY_SEGMENT_CHARS:
            raise ValueError(f"has a segment longer than {MAX_CATEGORY_SEGMENT_CHARS} characters")
        out.append(seg)
    return out


def _utc(value: datetime | None) -> datetime | None:
    return None if value is None else storable(value)


Title = Annotated[str, _bounded_text(MAX_TITLE_CHARS, allow_empty=False)]
Content = Annotated[str, _bounded_text(MAX_CONTENT_CHARS)]
StringList = Annotated[list[str], AfterValidator(_string_list)]
CategoryPath = Annotated[list[str], AfterValidator(_category_path)]
# Dates that name their time zone and that the stores can hold (``timeutil.storable``).
UtcDatetime = Annotated[datetime, AfterValidator(storable)]
OptUtcDatetime = Annotated[datetime | None, AfterValidator(_utc)]


def _read(value: datetime | None) -> datetime | None:
    return None if value is None else to_utc(value)


# A date read from a store, never taken from outside (what a summary of stored rows
# shows): whatever an older release stored, as it is.
ReadDatetime = Annotated[datetime | None, AfterValidator(_read)]


def _date_alone(value: Any) -> Any:
    """A date alone (``2026-01-31``) given to a filter means midnight UTC."""
    if isinstance(value, str) and len(value.strip()) <= len("2026-01-31"):
        return value.strip() + "T00:00:00Z"
    return value


# A bound of a filter (created before / after): as ``OptUtcDatetime``, or a date alone.
FilterDatetime = Annotated[datetime | None, BeforeValidator(_date_alone), AfterValidator(_utc)]
Unit = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]


class CamelModel(BaseModel):
    """Base for every API model: camelCase JSON, snake_case attributes, unknown fields rejected."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        validate_assignment=False,
    )

    def to_json(self) -> dict[str, Any]:
        """The design doc's JSON shape: camelCase keys, ISO timestamps, absent optionals left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


def _check_json_size(value: Any, limit: int, what: str) -> Any:
    value = clean_json_value(value)
    size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    if size > limit:
        raise ValueError(f"{what} is {size} bytes as JSON; the limit is {limit}")
    return value


# The metadata of the message that keeps a tool call's ``userMessage`` nobody vouched for
# (role "tool"): the words an agent reports the user said, as its report.
REPORTED_BY_AGENT: dict[str, str] = {"reportedBy": "agent"}


class MemoryMessage(CamelModel):
    """One raw log entry: append-only, never rewritten."""

    id: str
    session_id: Annotated[str, _bounded_text(200, allow_empty=False)]
    parent_id: str | None = None
    role: Role
    content: Annotated[str, _bounded_text(MAX_MESSAGE_CHARS)]
    metadata: dict[str, Any] | None = None
    created_at: UtcDatetime

    @field_validator("metadata")
    @classmethod
    def _metadata(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is None:
            return None
        return _check_json_size(value, MAX_METADATA_JSON_BYTES, "metadata")  # type: ignore[no-any-return]

    @property
    def reported_by_agent(self) -> bool:
        """The words an agent reported the user said (a tool call's ``userMessage``), kept
        as its report: never the user's own message, never read for their intent."""
        return self.role == "tool" and (self.metadata or {}).get("reportedBy") == "agent"


class MemorySummary(CamelModel):
    """One link of a session's summary chain (``parentSummaryId`` points to the previous)."""

    id: str
    session_id: Annotated[str, _bounded_text(200, allow_empty=False)]
    parent_summary_id: str | None = None
    from_message_id: str
    to_message_id: str
    summary: Annotated[str, _bounded_text(MAX_SUMMARY_CHARS)]
    current_goal: Annotated[str, _bounded_text(MAX_CONTENT_CHARS)] | None = None
    constraints: StringList = Field(default_factory=list)
    preferences: StringList = Field(default_factory=list)
    decisions: StringList = Field(default_factory=list)
    completed_work: StringList = Field(default_factory=list)
    pending_work: StringList = Field(default_factory=list)
    known_issues: StringList = Field(default_factory=list)
    # Set when a message it was built from has been deleted; the next summary replaces it.
    stale: bool = False
    created_at: UtcDatetime


class MemoryNode(CamelModel):
    """A structured memory: one version in a supersede chain."""

    id: str
    parent_id: str | None = None
    supersedes_id: str | None = None
    session_id: str | None = None
    workspace_id: str | None = None
    user_id: str | None = None
    scope: Scope
    domain: Annotated[str, _bounded_text(64, allow_empty=False)]
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
        return _check_json_size(value, MAX_VALUE_JSON_BYTES, "valueJson")

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
    domain: Annotated[str, _bounded_text(64, allow_empty=False)] | None = None
    category_path: CategoryPath | None = None
    type: NodeType | None = None
    key: Annotated[str, _bounded_text(64, allow_empty=False)] | None = None
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
        return _check_json_size(value, MAX_VALUE_JSON_BYTES, "valueJson")


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
    query_text: Annotated[str, _bounded_text(2000)] | None = None
    include_expired: bool = False
    limit: Annotated[int, Field(ge=1, le=MAX_QUERY_LIMIT)] = 20
    # Below this confidence a node is omitted as low_confidence.
    min_confidence: Unit = 0.3

    @field_validator("value_json")
    @classmethod
    def _value(cls, value: Any) -> Any:
        return _check_json_size(value, MAX_VALUE_JSON_BYTES, "valueJson")

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


M = TypeVar("M", bound=BaseModel)


# The four slots every model instance holds, set through their own descriptors: half
# the time of ``object.__setattr__``, which looks each name up on the class first.
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_new = object.__new__


def trusted(cls: type[M], values: dict[str, Any], *, every_field: bool = False) -> M:
    """Build a model from values the store validated on the way in, without validating again.

    ``model_construct`` costs ~20 µs a node (defaults, alias handling); this sets the same
    four attributes directly, with every field in ``values`` and private attributes at
    their defaults. ``tests/core/test_retrieval.py`` compares its output with full
    validation. With ``every_field`` (``values`` holds every field of ``cls``), the
    models share one set of the fields set: pydantic only ever adds a field's name to
    it, and every name is there already.
    """
    shape = _SHAPES.get(cls)
    if shape is None:
        private = cls.__private_attributes__
        shape = _SHAPES[cls] = (set(cls.model_fields), dict(private) if private else None)
    every, private_attrs = shape
    obj = _new(cls)
    _set_dict(obj, values)
    if every_field:
        assert len(values) == len(every), (cls, sorted(values))
        _set_fields_set(obj, every)
    else:
        _set_fields_set(obj, set(values))
    _set_extra(obj, None)
    _set_private(
        obj,
        None
        if private_attrs is None
        else {name: attr.get_default() for name, attr in private_attrs.items()},
    )
    return obj


# Per model class: the names of all its fields, and its private attributes (if any).
_SHAPES: dict[type[BaseModel], tuple[set[str], dict[str, Any] | None]] = {}


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
        from ekko_memory.service.context_render import RENDER_NOTES, render_context

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


ExtractionOperation = Literal["create", "update", "supersede", "expire", "ignore"]


class ExtractedNodeOperation(CamelModel):
    """One proposed change from an extractor."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    operation: ExtractionOperation
    target_id: str | None = None
    node: MemoryNodeDraft = Field(default_factory=MemoryNodeDraft)
    reason: Annotated[str, _bounded_text(2000)] = ""


class MemoryExtraction(CamelModel):
    """An extractor's output: a summary patch and node operations, applied through governed writes."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    summary_patch: Annotated[str, _bounded_text(MAX_SUMMARY_CHARS)] | None = None
    nodes: list[ExtractedNodeOperation] = Field(default_factory=list)


ValueShape = Literal["string", "number", "boolean", "string[]", "object"]


class MemorySchemaRule(CamelModel):
    """Controlled schema for one domain/type: which keys exist and what their values look like."""

    domain: str
    category_path_prefix: list[str] | None = None
    type: NodeType
    allowed_keys: list[str]
    value_shape: ValueShape
    default_scope: Scope
    requires_explicit_user_intent: bool
    # Extensions beyond the design doc (all optional in the rule files):
    # keys that hold one value at a time (a new value supersedes); others hold many.
    single_value_keys: list[str] = Field(default_factory=list)
    # Per-key value shape when a rule mixes shapes (flavor_profile is an object, avoid_ingredient a string).
    key_shapes: dict[str, ValueShape] = Field(default_factory=dict)
    # Synonyms mapped to the controlled key (disliked_ingredient -> avoid_ingredient).
    key_aliases: dict[str, str] = Field(default_factory=dict)
    # Keys that speak about the same subject and contradict each other for it
    # (avoid / prefer / limit an ingredient): at most one is active per subject.
    key_groups: list[list[str]] = Field(default_factory=list)
    # Keys whose values are personal data: writes and deletes wait for the user.
    sensitive_keys: list[str] = Field(default_factory=list)
    # The category a key files under when the proposal names none.
    key_categories: dict[str, list[str]] = Field(default_factory=dict)
    # Preferences of this rule enter every context, whatever the topic (reply language...).
    always_in_context: bool = False
    description: str = ""

    @model_validator(mode="after")
    def _keys(self) -> MemorySchemaRule:
        for key in self.allowed_keys:
            if not KEY_PATTERN.match(key):
                raise ValueError(f"allowed key {key!r} is not snake_case")
        return self


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


class BrowseFilter(CamelModel):
    """What the app or the CLI lists: statuses, scopes, a category branch, types, text."""

    statuses: list[NodeStatus] | None = Field(default_factory=lambda: list[NodeStatus](["active"]))
    scopes: list[Scope] | None = None
    domain: str | None = None
    category_path_prefix: list[str] | None = None
    types: list[NodeType] | None = None
    key: str | None = None
    session_id: str | None = None
    text: Annotated[str, _bounded_text(2000)] | None = None
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


# --- export, import and purge -------------------------------------------------------

ExportFormat = Literal["json", "md", "csv"]
StoreName = Literal["workspace", "user"]


class UsageRecord(CamelModel):
    """One row of the usage record: a memory fed one assistant reply."""

    id: str
    node_id: str
    message_id: str
    session_id: str | None = None
    workspace_id: str | None = None
    used_at: UtcDatetime


class SessionCursor(CamelModel):
    """How far one kind of background work (extraction, summaries) has read a session's log."""

    session_id: str
    kind: str
    message_id: str
    message_created_at: UtcDatetime
    updated_at: UtcDatetime


class ExportSelection(CamelModel):
    """What to export: everything (the default), some scopes, and/or one category branch.

    A store selected whole (no category, all of its scopes) is exported with its whole
    message log, summaries, audit and pending items; a partial selection carries its
    nodes (every version of their chains), their audit, usage and related pending
    items, and the nodes' source messages when ``include_messages``.
    """

    scopes: list[Scope] | None = None
    category_path_prefix: CategoryPath | None = None
    include_messages: bool = True


class StoreProblemNote(CamelModel):
    """The store problem behind a result's English text (a warning, a reason): the store,
    its status and its health's code and specifics (``StoreHealth.reason_code`` /
    ``reason_args``), for an interface that words it in the user's language. Results carry
    it beside their text and leave it out of their JSON: agents and scripts read the text."""

    store: StoreName
    status: str
    code: str | None = None
    args: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def of(cls, store: StoreName, health: Any) -> StoreProblemNote:
        """The problem of ``store`` as its ``StoreHealth`` gives it."""
        return cls(
            store=store,
            status=health.status,
            code=health.reason_code,
            args=dict(health.reason_args),
        )


class ExportReport(CamelModel):
    """What an export wrote (``path`` is None when it was cancelled: nothing is left behind).

    ``warning_problems`` (not in the JSON): for each of ``warnings``, the store problem it
    quotes (a store skipped as it cannot be read), or None.
    """

    path: str | None
    format: ExportFormat
    counts: dict[str, int] = Field(default_factory=dict)
    bytes: int = 0
    cancelled: bool = False
    warnings: list[str] = Field(default_factory=list)
    warning_problems: list[StoreProblemNote | None] = Field(default_factory=list, exclude=True)


class ImportReport(CamelModel):
    """What an import did, by kind of record (nodes, audit, messages, summaries, pending, usage, cursors).

    ``added``: new records; ``skipped``: already present (or refused, see ``notes``);
    ``updated``: present records whose status the bundle moved on (a node superseded,
    expired or deleted since, an older version a newer imported one continues);
    ``superseded``: every node id the import left superseded — that lost a conflict with
    a newer node for the same key (imported or local), that a newer imported version
    continues, or that the bundle shows superseded since. These count only what was
    committed. ``duplicates``: ids the bundle held more than once, by kind of record
    (only the first was read).

    ``committed_stores``: the stores whose import was committed (a store the bundle has
    nothing for is in neither list). ``cancelled``: the import was cancelled;
    ``cancelled_stores`` then names the stores the bundle had records for that hold
    nothing of it (their transaction was rolled back, or never started). Importing the
    same bundle again completes a cancelled import.
    """

    path: str
    bundle_version: int
    added: dict[str, list[str]] = Field(default_factory=dict)
    skipped: dict[str, list[str]] = Field(default_factory=dict)
    updated: dict[str, list[str]] = Field(default_factory=dict)
    superseded: list[str] = Field(default_factory=list)
    duplicates: dict[str, list[str]] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    cancelled: bool = False
    committed_stores: list[StoreName] = Field(default_factory=list)
    cancelled_stores: list[StoreName] = Field(default_factory=list)

    def count(self, what: Literal["added", "skipped", "updated"]) -> dict[str, int]:
        """Record counts per kind for one outcome."""
        return {kind: len(ids) for kind, ids in getattr(self, what).items() if ids}

    @property
    def changed(self) -> bool:
        """True when the import wrote anything."""
        return any(self.added.values()) or any(self.updated.values()) or bool(self.superseded)


PurgeKind = Literal["node", "audit", "pending", "usage", "message", "summary", "job", "cursor"]
PURGE_KINDS: tuple[PurgeKind, ...] = (
    "node",
    "audit",
    "pending",
    "usage",
    "message",
    "summary",
    "job",
    "cursor",
)


class PurgeFilter(CamelModel):
    """What to purge for good; every given criterion must hold (they are ANDed).

    Nodes match by scope, workspace id, user id, category branch, session, creation time
    (``after`` ≤ t < ``before``) and text (``query``: the words anywhere in title, content,
    value, tags or entities, full-text or substring). Every version of a matching
    memory goes. With ``include_messages`` the nodes' source messages go too, and so do
    messages matching the session / time / text criteria; summaries covering them lose
    their text (a purged session's summaries go entirely).
    """

    scopes: list[Scope] | None = None
    workspace_id: str | None = None
    user_id: str | None = None
    category_path_prefix: CategoryPath | None = None
    session_id: str | None = None
    after: FilterDatetime = None
    before: FilterDatetime = None
    query: Annotated[str, _bounded_text(2000)] | None = None
    include_messages: bool = False
    # Migration backups holding purged data are deleted (False: kept and reported).
    remove_backups: bool = True

    @model_validator(mode="after")
    def _something(self) -> PurgeFilter:
        if self.query is not None and not self.query.strip():
            raise ValueError("query is empty")
        if not any(
            (
                self.scopes,
                self.workspace_id,
                self.user_id,
                self.category_path_prefix,
                self.session_id,
                self.after,
                self.before,
                self.query,
            )
        ):
            raise ValueError(
                "name what to purge: scopes, workspace, user, category, session, dates or a query"
            )
        if self.after and self.before and self.after >= self.before:
            raise ValueError("'after' must be earlier than 'before'")
        if "global" in (self.scopes or []):
            raise ValueError("global memories ship with the app and cannot be purged")
        return self


class PurgeTarget(CamelModel):
    """One record a purge removes (``delete``) or empties of text (``scrub``)."""

    store: StoreName
    kind: PurgeKind
    id: str
    action: Literal["delete", "scrub"] = "delete"
    label: str = ""


class PurgePlan(CamelModel):
    """The dry run: every record the purge will touch. ``purge(plan)`` touches exactly these."""

    filter: PurgeFilter
    targets: list[PurgeTarget] = Field(default_factory=list)
    # Memories (chains) among the node versions.
    memories: int = 0
    # Text the verification looks for afterwards (the query, titles and contents).
    needles: list[str] = Field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many records of each kind (``node`` counts versions)."""
        out: dict[str, int] = dict.fromkeys(PURGE_KINDS, 0)
        for t in self.targets:
            out[t.kind] += 1
        return out

    def ids(self, kind: PurgeKind, store: StoreName | None = None) -> list[str]:
        """Ids of one kind (in one store)."""
        return [t.id for t in self.targets if t.kind == kind and store in (None, t.store)]


class PurgeFinding(CamelModel):
    """Where purged text was still found (``location``: table:…, search-index, file:…, backup:…)."""

    text: str
    location: str
    count: int = 1


class PurgeVerification(CamelModel):
    """The search for the purged text after the purge.

    ``leaks``: text found where no live record explains it (free pages, the WAL, an
    orphaned index entry, a backup). ``kept``: text still held by records the purge did
    not cover (a message when messages were not included, another memory with the same
    title). ``clean`` means no leaks, and the query text (if any) is nowhere.
    """

    clean: bool
    texts_checked: int = 0
    files_scanned: list[str] = Field(default_factory=list)
    leaks: list[PurgeFinding] = Field(default_factory=list)
    kept: list[PurgeFinding] = Field(default_factory=list)


class PurgeReport(CamelModel):
    """What a purge did: the records removed, files cleaned, and the verification."""

    purged: list[PurgeTarget] = Field(default_factory=list)
    memories: int = 0
    cancelled: bool = False
    backups_removed: list[str] = Field(default_factory=list)
    backups_kept: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    verification: PurgeVerification | None = None

    def counts(self) -> dict[str, int]:
        """How many records of each kind were purged."""
        out: dict[str, int] = dict.fromkeys(PURGE_KINDS, 0)
        for t in self.purged:
            out[t.kind] += 1
        return out


CompactStatus = Literal["compacted", "failed", "skipped", "cancelled"]


class CompactedFile(CamelModel):
    """One SQLite file (the database or its write-ahead log): its size before and after."""

    path: str
    bytes_before: int
    bytes_after: int


class CompactedStore(CamelModel):
    """What ``compact`` did to one store.

    ``status``: ``compacted``; ``failed`` (it could not run now — a lock another program
    held, a full disk — and the store is as it was, see ``reason``); ``skipped`` (the store
    cannot be written: read-only or disabled); ``cancelled`` (not started: the caller
    cancelled before its turn). ``bytes_before`` / ``bytes_after``: the SQLite files, or
    on PostgreSQL the server's bytes for the schema's tables with their indexes and TOAST
    (None when unknown). ``ran``: the statements run.

    Not in the JSON, for an interface that words ``reason`` in the user's language:
    ``problem``, the store problem it quotes (a store skipped as it cannot be written, or
    refused for its health's reason), and ``cause``, the error that made it ``failed``.
    """

    store: StoreName
    location: str
    backend: str
    status: CompactStatus
    reason: str | None = None
    problem: StoreProblemNote | None = Field(default=None, exclude=True)
    bytes_before: int | None = None
    bytes_after: int | None = None
    files: list[CompactedFile] = Field(default_factory=list)
    ran: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    _cause: BaseException | None = PrivateAttr(default=None)

    @property
    def cause(self) -> BaseException | None:
        """The error that made the store ``failed`` (None otherwise)."""
        return self._cause

    @property
    def freed_bytes(self) -> int:
        """Bytes given back (0 when unknown or when the store grew)."""
        if self.bytes_before is None or self.bytes_after is None:
            return 0
        return max(0, self.bytes_before - self.bytes_after)


class CompactReport(CamelModel):
    """What ``mem.compact()`` did, store by store (workspace first, then user).

    ``cancelled``: the caller cancelled; stores not started then have status
    ``cancelled``. A store that was being compacted finished first (a VACUUM completes or
    leaves the store as it was).
    """

    stores: list[CompactedStore] = Field(default_factory=list)
    cancelled: bool = False

    @property
    def freed_bytes(self) -> int:
        """Bytes given back by all stores."""
        return sum(s.freed_bytes for s in self.stores)


class SimilarMemory(CamelModel):
    """A memory near another in meaning (``mem.similar``): cosine similarity 0–1."""

    node: MemoryNode
    similarity: float


class DuplicatePair(CamelModel):
    """Two active memories that say nearly the same (``mem.duplicates``): what each is
    about (category) and who wrote it (origin; the actor of its first audit event)."""

    first: MemoryNode
    second: MemoryNode
    similarity: float
    first_written_by: str | None = None
    second_written_by: str | None = None


class ReindexReport(CamelModel):
    """What ``mem.reindex()`` did, per store: memories embedded, memories still without a
    vector of the model, vectors removed (another model's, or all with ``force``)."""

    model: str
    embedded: dict[str, int] = Field(default_factory=dict)
    remaining: dict[str, int] = Field(default_factory=dict)
    removed: dict[str, int] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    cancelled: bool = False
