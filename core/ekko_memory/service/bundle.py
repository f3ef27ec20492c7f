"""Reading a JSON bundle (see ``service/export.py`` for the format): parse it, validate
every record and route it to the store it belongs in. Nothing is written here.

A bundle carries data, never decisions or identity:

- Audit events keep their history (type, memory, time, reason) but are marked as
  imported: their actor becomes ``import`` and the actor they named is kept in
  ``payload.imported.actor``. No imported event reads as the user's (or an agent's) act.
- A pending item comes in undecided, as it was filed, or — decided in the bundle — as
  history decided by ``import``, never by the user. (A pending item already here is left
  as it is: only the user decides it, here.)
- A pending item's proposed memory is validated as any memory is, so approving it later
  meets no malformed node.
- Every string is bounded: the memory fields as the models bound them, reasons and notes
  as the tools bound theirs (a few times over, for the wording the service adds), names
  of actors and rules, and ids (``_check_sizes``).
- Dates name their time zone and lie where the stores can hold them
  (``timeutil.storable``, through the models).
- An id used twice in one bundle is reported as a duplicate; the first record is kept.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ekko_memory.errors import InvalidInput, NotFound
from ekko_memory.ids import is_valid_id
from ekko_memory.models import (
    AuditEvent,
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    PendingItem,
    SessionCursor,
    StoreName,
    UsageRecord,
    clean_json_value,
)
from ekko_memory.service.config import IMPORT_MAX_MB
from ekko_memory.service.export import BUNDLE_FORMAT, BUNDLE_KINDS, BUNDLE_VERSION
from ekko_memory.store.rival_links import IMPORT_ACTOR

M = TypeVar("M", bound=BaseModel)

_MODELS: dict[str, type[BaseModel]] = {
    "nodes": MemoryNode,
    "audit": AuditEvent,
    "messages": MemoryMessage,
    "summaries": MemorySummary,
    "pending": PendingItem,
    "usage": UsageRecord,
    "cursors": SessionCursor,
}
# Id prefix of each kind of record (cursors are keyed by session and kind).
_PREFIX = {
    "nodes": "mem",
    "audit": "aud",
    "messages": "msg",
    "summaries": "sum",
    "pending": "pnd",
    "usage": "use",
}
# A tool's reason is at most 2000 characters (``interfaces/tools.py``); what the service
# stores wraps one in its own words (``…; replaces mem_…, which replaced …``).
MAX_REASON_CHARS = 8 * 1024
# Actors, requesters, rules, cursor kinds: short names.
MAX_NAME_CHARS = 64
# Ids, and the session, workspace and user ids records are bound to.
MAX_ID_CHARS = 200
# An audit event's payload (a memory as written, the ids a forget removed).
MAX_PAYLOAD_BYTES = 1024 * 1024
_TEXT_LIMITS = {
    "reason": MAX_REASON_CHARS,
    "decision_note": MAX_REASON_CHARS,
    "actor": MAX_NAME_CHARS,
    "requester": MAX_NAME_CHARS,
    "decided_by": MAX_NAME_CHARS,
    "rule": MAX_NAME_CHARS,
    "kind": MAX_NAME_CHARS,
}


@dataclass
class StoreBundle:
    """The validated records bound for one store."""

    nodes: list[MemoryNode] = field(default_factory=list)
    audit: list[AuditEvent] = field(default_factory=list)
    messages: list[MemoryMessage] = field(default_factory=list)
    summaries: list[MemorySummary] = field(default_factory=list)
    pending: list[PendingItem] = field(default_factory=list)
    usage: list[UsageRecord] = field(default_factory=list)
    cursors: list[SessionCursor] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(len(getattr(self, k)) for k in BUNDLE_KINDS)


@dataclass
class ParsedBundle:
    """A bundle's records by store, with what parsing noted and the ids it held twice."""

    stores: dict[StoreName, StoreBundle]
    notes: list[str] = field(default_factory=list)
    duplicates: dict[str, list[str]] = field(default_factory=dict)


# \u0000 and \ud800-\udfff (a pair of them decodes to one character, which is harmless).
_UNSTORABLE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")


def read_bundle(
    path: str | os.PathLike[str], *, max_mb: int = IMPORT_MAX_MB
) -> tuple[dict[str, Any], int]:
    """The parsed bundle and its format version; InvalidInput / NotFound with a clear reason.
    A file over ``max_mb`` MiB is refused having read no more than that."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise NotFound(f"no bundle file at {p}")
    try:
        # A byte-order mark (a bundle saved again by a Windows editor) is not content.
        text = _read_at_most(p, max_mb).decode("utf-8-sig")
        data = json.loads(text)
    except UnicodeDecodeError as e:
        raise InvalidInput(f"{p} is not UTF-8 text ({e.reason})") from e
    except json.JSONDecodeError as e:
        detail = f"line {e.lineno}, column {e.colno}: {e.msg}"
        raise InvalidInput(f"{p} is not valid JSON ({detail})").because(
            "import.not_json", path=p, detail=detail
        ) from e
    except (ValueError, RecursionError) as e:
        # A number too long to convert, or arrays nested deeper than Python can parse.
        raise InvalidInput(f"{p} is not a bundle this release can read ({e})") from e
    except OSError as e:
        raise InvalidInput(f"cannot read {p}: {e.strerror or e}") from e
    if _UNSTORABLE_ESCAPE.search(text):
        # JSON escapes can spell what no store holds (a lone surrogate, NUL): U+FFFD, as
        # every other way in. Checked on the text first: cleaning walks the whole bundle.
        try:
            data = clean_json_value(data)
        except ValueError as e:
            raise InvalidInput(f"{p}: {e}") from e
    if not isinstance(data, dict) or data.get("format") != BUNDLE_FORMAT:
        raise InvalidInput(
            f'{p} is not an Ekko Memory bundle (expected "format": "{BUNDLE_FORMAT}"); '
            "only JSON bundles made by export can be imported"
        ).because("import.not_a_bundle", path=p)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise InvalidInput(f"{p}: the bundle has no valid version number")
    if version > BUNDLE_VERSION:
        raise InvalidInput(
            f"{p} uses bundle version {version}, newer than this release reads "
            f"({BUNDLE_VERSION}); upgrade Ekko Memory to import it"
        )
    if not isinstance(data.get("stores"), dict):
        raise InvalidInput(f'{p}: the bundle has no "stores" object')
    return data, version


def _read_at_most(p: Path, max_mb: int) -> bytes:
    """The file's bytes; InvalidInput naming the limit when it holds more than ``max_mb``
    MiB (read up to one byte past it: the size on disk can change, or lie, meanwhile)."""
    limit = max_mb * 1024 * 1024
    with p.open("rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise InvalidInput(
            f"{p} is larger than {max_mb} MiB, the most an import reads "
            f"(import_max_mb in config.json raises it); nothing was imported"
        )
    return data


def validated(cls: type[M], record: object, where: str) -> M:
    """``record`` as a ``cls``; InvalidInput naming the field (``where.field: complaint``)."""
    try:
        return cls.model_validate(record)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        raise InvalidInput(f"{where}{'.' + loc if loc else ''}: {msg}") from e


def parse_bundle(data: dict[str, Any]) -> ParsedBundle:
    """Validate every record; route nodes to the store of their scope. Nothing is written."""
    out = ParsedBundle({"workspace": StoreBundle(), "user": StoreBundle()})
    seen: dict[tuple[str, str], str] = {}
    for store_name, section in data["stores"].items():
        if store_name not in out.stores:
            raise InvalidInput(f"stores.{store_name}: unknown store (workspace or user)")
        if not isinstance(section, dict):
            raise InvalidInput(f"stores.{store_name} must be an object")
        for kind, records in section.items():
            if kind not in BUNDLE_KINDS:
                raise InvalidInput(f"stores.{store_name}.{kind}: unknown kind of record")
            if not isinstance(records, list):
                raise InvalidInput(f"stores.{store_name}.{kind} must be a list")
            for i, raw in enumerate(records):
                where = f"stores.{store_name}.{kind}[{i}]"
                record = _record(kind, raw, where)
                key = _key(kind, record)
                if key in seen:
                    out.duplicates.setdefault(kind, []).append(key[1])
                    out.notes.append(
                        f"{where}: {key[1]} is in the bundle more than once (first at"
                        f" {seen[key]}); only the first was read"
                    )
                    continue
                seen[key] = where
                _route(out, store_name, kind, record)
    for part in out.stores.values():
        # Older versions first, so a chain is rebuilt in order.
        part.nodes.sort(key=lambda n: (n.created_at, n.id))
    return out


def _key(kind: str, record: Any) -> tuple[str, str]:
    if isinstance(record, SessionCursor):
        return kind, f"{record.session_id}:{record.kind}"
    return kind, str(record.id)


def _record(kind: str, raw: object, where: str) -> Any:
    """One record, validated and bounded; an audit event marked, a pending item settled
    as this file's history (see the module docstring)."""
    record: Any = validated(_MODELS[kind], raw, where)
    if kind in _PREFIX and not is_valid_id(getattr(record, "id", None), _PREFIX[kind]):
        raise InvalidInput(f"{where}.id: not a valid {_PREFIX[kind]}_… id")
    _check_sizes(record, where)
    if isinstance(record, AuditEvent):
        return marked_imported(record)
    if isinstance(record, PendingItem):
        return _pending(record, where)
    return record


def _check_sizes(record: BaseModel, where: str) -> None:
    """The strings the models leave unbounded, bounded (InvalidInput names the field)."""
    for name, value in record:
        limit = _TEXT_LIMITS.get(name)
        if limit is None and name.endswith(("id", "_ids")):
            limit = MAX_ID_CHARS
        values = value if isinstance(value, list) else [value]
        if limit is not None:
            for v in values:
                if isinstance(v, str) and len(v) > limit:
                    raise InvalidInput(
                        f"{where}.{_camel(name)}: is {len(v)} characters long; the limit is {limit}"
                    )
        if name == "payload" and value is not None:
            size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
            if size > MAX_PAYLOAD_BYTES:
                raise InvalidInput(
                    f"{where}.payload: is {size} bytes as JSON; the limit is {MAX_PAYLOAD_BYTES}"
                )


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w.capitalize() for w in rest)


def marked_imported(event: AuditEvent) -> AuditEvent:
    """The event as this store keeps it: by ``import``, the actor it named kept in
    ``payload.imported.actor`` (an event an import wrote stays as it is)."""
    if event.actor == IMPORT_ACTOR:
        return event
    payload = {**(event.payload or {}), "imported": {"actor": event.actor}}
    return event.model_copy(update={"actor": IMPORT_ACTOR, "payload": payload})


def _pending(item: PendingItem, where: str) -> PendingItem:
    """A pending item as an import may add it: its proposed memory valid as any memory,
    its decision (if the bundle shows one) the import's, never the user's."""
    update: dict[str, Any] = {"store": None}
    if item.node is not None:
        node = validated(MemoryNode, item.node, f"{where}.node")
        if not is_valid_id(node.id, "mem"):
            raise InvalidInput(f"{where}.node.id: not a valid mem_… id")
        if node.scope == "global":
            raise InvalidInput(f"{where}.node.scope: global memories ship with the app")
        _check_sizes(node, f"{where}.node")
        update["node"] = node.to_json()
    if item.status == "pending":
        # Waiting: the decision is the user's, here (nothing decided travels with it).
        update.update(decided_by=None, decided_at=None, decision_note=None, result_node_id=None)
    else:
        update.update(decided_by=IMPORT_ACTOR, decided_at=item.decided_at or item.created_at)
    return item.model_copy(update=update)


def _route(out: ParsedBundle, store_name: str, kind: str, record: Any) -> None:
    """Nodes go to the store of their scope; the message log to the workspace store."""
    if isinstance(record, MemoryNode):
        if record.scope == "global":
            out.notes.append(
                f"skipped global memory {record.id} (global memories ship with the app)"
            )
            return
        target: StoreName = "user" if record.scope == "user" else "workspace"
        out.stores[target].nodes.append(record)
    elif kind in ("messages", "summaries", "cursors"):
        getattr(out.stores["workspace"], kind).append(record)
    else:
        getattr(out.stores[store_name], kind).append(record)  # type: ignore[index]
