"""What every model shares: the literal types, the size limits, text cleaning, the
validated field types, ``CamelModel`` and ``trusted`` construction."""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from typing import Annotated, Any, Literal, NamedTuple, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.alias_generators import to_camel

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
StoreName = Literal["workspace", "user"]

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
    "category",
    "origin",
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
    # Nearly every text is clean, and each governed write cleans ~30: ASCII text holds no
    # surrogate, and text that encodes as UTF-8 holds none either (the codec refuses
    # exactly those), both told far quicker than the pattern's scan (~0.2 against ~0.5 µs
    # for a short note, 0.1 against 16 for 2,000 characters).
    if "\x00" not in value:
        if value.isascii():
            return value
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            pass
        else:
            return value
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


def bounded_text(limit: int, *, allow_empty: bool = True) -> Any:
    """A validator for text cleaned of unstorable characters and at most ``limit`` long."""

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


Title = Annotated[str, bounded_text(MAX_TITLE_CHARS, allow_empty=False)]
Content = Annotated[str, bounded_text(MAX_CONTENT_CHARS)]
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


# ``json.dumps(value, ensure_ascii=False)`` without building an encoder each call.
_ENCODE_READABLE = json.JSONEncoder(ensure_ascii=False).encode


def check_json_size(value: Any, limit: int, what: str) -> Any:
    """``value`` cleaned (``clean_json_value``), refused when its JSON is over ``limit`` bytes."""
    value = clean_json_value(value)
    size = len(_ENCODE_READABLE(value).encode("utf-8"))
    if size > limit:
        raise ValueError(f"{what} is {size} bytes as JSON; the limit is {limit}")
    return value


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
