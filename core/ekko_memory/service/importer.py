"""Import of a JSON bundle (see ``service/export.py`` for the format).

Rules:

- Everything is validated before anything is written; a bad bundle changes nothing.
- Ids are kept. A record whose id is already present is skipped, so importing the same
  bundle twice adds nothing. Exceptions, both about moving a record's state forward:
  a node the bundle shows superseded / expired / deleted later than the local copy
  takes that status, and a pending item the bundle shows decided takes that decision.
  A present node whose content differs is kept as it is (noted in the report).
- Nodes go to the store of their scope (session/workspace → workspace file, user →
  user file); global nodes are skipped (they ship with the app).
- Conflicts: a new node that is the active head of its chain is checked against the
  local active node with the same conflict identity (the same single-valued key, or the
  same subject of a many-valued key, in the same scope and binding — exactly what a
  governed write checks). The service's priority order decides (explicit user words over
  inference, then newer, then confidence…, see ``service/ranking.py``); a node
  continuing the local node's chain always wins. The loser is marked superseded,
  audited with actor ``import``, and listed in ``superseded``.
- A new node whose older version is local and still active makes that version superseded.
  When the local chain moved on since (the memory was edited here and there), the local
  head and the new node are rivals as above, noted in the report.
- The two rivals become one history: the loser's chain is linked before the winner's own
  versions (``link_rivals``), as a governed write links a new value after the one it
  replaces. The winner's oldest version here that the loser's chain does not share gets
  the loser as its older version (``supersedesId``), so every version of either chain
  leads to the one in use (``head_of``, history, revert) and chains stay linear: one
  older and one newer version per version. A link a present node holds is local
  structure: the bundle's differing link is not a content change.
- Each store is imported in one transaction; when it wrote anything, one ``import``
  audit event records the counts (so per-memory audit trails equal the exported ones).

Progress and cancellation: records are written in batches of ``BATCH``; after each batch
the import reports progress and checks the ``CancelToken``, and it checks once more right
before each store's commit. A cancel rolls back the transaction of the store being
imported, so that store holds exactly what it held before. The stores are two databases
(two files, or two schemas) and cannot commit together: the workspace store is imported
and committed first, then the user store. A cancel that comes after the workspace store
committed leaves it imported and rolls the user store back; the report's
``committed_stores`` and ``cancelled_stores`` name exactly which is which. Importing the
same bundle again completes it (what is already there is skipped).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from ekko_memory.errors import InvalidInput, NotFound
from ekko_memory.ids import is_valid_id
from ekko_memory.models import (
    AuditEvent,
    ImportReport,
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
from ekko_memory.service.governance import Governor
from ekko_memory.service.progress import Cancelled, CancelToken, ProgressCallback, Reporter
from ekko_memory.service.ranking import priority_key
from ekko_memory.store.rival_links import IMPORT_ACTOR as ACTOR
from ekko_memory.store.rival_links import link_rivals
from ekko_memory.store.writer import StoreWriter

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

M = TypeVar("M", bound=BaseModel)

# Id prefix of each kind of record (cursors are keyed by session and kind).
_PREFIX = {
    "nodes": "mem",
    "audit": "aud",
    "messages": "msg",
    "summaries": "sum",
    "pending": "pnd",
    "usage": "use",
}
# Records written between two progress reports (and cancellation checks).
BATCH = 500
# Why an import superseded one of two rivals (the audit's reason).
_SAME_KEY = "import: another memory with the same key took precedence"
_BRANCHED = "import: two versions continued this memory apart; the newer took precedence"


@dataclass
class _StoreBundle:
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
class _Tally:
    added: dict[str, list[str]] = field(default_factory=dict)
    skipped: dict[str, list[str]] = field(default_factory=dict)
    updated: dict[str, list[str]] = field(default_factory=dict)
    superseded: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, outcome: str, kind: str, record_id: str) -> None:
        getattr(self, outcome).setdefault(kind, []).append(record_id)

    @property
    def changed(self) -> bool:
        return bool(any(self.added.values()) or any(self.updated.values()) or self.superseded)


class _Ticker:
    """Counts the records handled; reports progress and checks for a cancel every batch."""

    def __init__(self, rep: Reporter, total: int) -> None:
        self.rep = rep
        self.total = total
        self.done = 0
        self._since = 0

    def __call__(self, n: int = 1) -> None:
        self.done += n
        self._since += n
        if self._since >= BATCH:
            self._since = 0
            self.rep.tick("import", self.done, self.total)

    def before_commit(self) -> None:
        """The last check of a store's transaction: raises ``Cancelled`` when asked to stop."""
        self._since = 0
        self.rep.tick("import", self.done, self.total)


def _batches(records: list[Any]) -> list[list[Any]]:
    return [records[i : i + BATCH] for i in range(0, len(records), BATCH)]


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
        raise InvalidInput(
            f"{p} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
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
        )
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
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


def _validate(cls: type[M], record: object, where: str) -> M:
    try:
        return cls.model_validate(record)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise InvalidInput(f"{where}{'.' + loc if loc else ''}: {err['msg']}") from e


def parse_bundle(data: dict[str, Any]) -> tuple[dict[StoreName, _StoreBundle], list[str]]:
    """Validate every record; route nodes to the store of their scope. Nothing is written."""
    out: dict[StoreName, _StoreBundle] = {"workspace": _StoreBundle(), "user": _StoreBundle()}
    notes: list[str] = []
    models: dict[str, type[BaseModel]] = {
        "nodes": MemoryNode,
        "audit": AuditEvent,
        "messages": MemoryMessage,
        "summaries": MemorySummary,
        "pending": PendingItem,
        "usage": UsageRecord,
        "cursors": SessionCursor,
    }
    for store_name, section in data["stores"].items():
        if store_name not in out:
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
                record = _validate(models[kind], raw, where)
                if kind in _PREFIX and not is_valid_id(getattr(record, "id", None), _PREFIX[kind]):
                    raise InvalidInput(f"{where}.id: not a valid {_PREFIX[kind]}_… id")
                if isinstance(record, PendingItem):
                    record = record.model_copy(update={"store": None})
                if isinstance(record, MemoryNode):
                    if record.scope == "global":
                        notes.append(
                            f"skipped global memory {record.id} (global memories ship with the app)"
                        )
                        continue
                    target: StoreName = "user" if record.scope == "user" else "workspace"
                    out[target].nodes.append(record)
                elif kind in ("messages", "summaries", "cursors"):
                    getattr(out["workspace"], kind).append(record)
                else:
                    getattr(out[store_name], kind).append(record)
    for part in out.values():
        # Older versions first, so a chain is rebuilt in order.
        part.nodes.sort(key=lambda n: (n.created_at, n.id))
    return out, notes


class Importer:
    """Imports JSON bundles; ``mem.importer.import_bundle(path)``."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    def import_bundle(
        self,
        path: str | os.PathLike[str],
        *,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> ImportReport:
        """Import a bundle made by ``export(format="json")``; idempotent, ids kept.

        ``cancel`` stops the import at the next batch: the store being imported is rolled
        back, a store imported before it stays imported (see the module docstring and the
        report's ``committed_stores`` / ``cancelled_stores``).
        """
        data, version = read_bundle(path, max_mb=self.service.config.import_max_mb)
        parts, notes = parse_bundle(data)
        for name, part in parts.items():
            store = self._store(name)
            if part.size and not store.health.writable:
                raise InvalidInput(
                    f"the {name} store cannot be written ({store.health.reason}); nothing was imported"
                ).for_store(name, store.health)
        tally = _Tally(notes=notes)
        ticker = _Ticker(Reporter(progress, cancel), sum(p.size for p in parts.values()))
        committed: list[StoreName] = []
        cancelled: list[StoreName] = []
        # The workspace store first, then the user store (``parse_bundle``'s order).
        for name, part in parts.items():
            if not part.size:
                continue
            if cancelled:
                cancelled.append(name)  # a cancel stops here: this store is not started
                continue
            store_tally = _Tally()
            try:
                with self._store(name).write() as w:
                    self._import_store(w, part, store_tally, ticker)
                    if store_tally.changed:
                        w.add_audit(
                            "import",
                            actor=ACTOR,
                            reason=f"imported {Path(path).name}",
                            payload={
                                "added": {k: len(v) for k, v in store_tally.added.items()},
                                "updated": {k: len(v) for k, v in store_tally.updated.items()},
                                "superseded": store_tally.superseded,
                            },
                        )
                    ticker.before_commit()
            except Cancelled:
                cancelled.append(name)  # the transaction was rolled back
                continue
            committed.append(name)
            if store_tally.added.get("nodes") or store_tally.updated.get("nodes"):
                # The import's index segments are merged now, not by the user's next write.
                self._store(name).optimize_search_index()
            _merge(tally, store_tally)
        if committed:
            # A chain imported across the two files is finished by the usual repair.
            self.service.repair_chains()
        return ImportReport(
            path=str(Path(path).expanduser()),
            bundle_version=version,
            added=tally.added,
            skipped=tally.skipped,
            updated=tally.updated,
            superseded=tally.superseded,
            notes=tally.notes,
            cancelled=bool(cancelled),
            committed_stores=committed,
            cancelled_stores=cancelled,
        )

    def _store(self, name: StoreName) -> Any:
        return self.service.workspace_store if name == "workspace" else self.service.user_store

    # --- one store, inside one write transaction -------------------------------------

    def _import_store(
        self, w: StoreWriter, part: _StoreBundle, tally: _Tally, tick: _Ticker
    ) -> None:
        plain = self._plain
        plain(w, "messages", part.messages, "memory_messages", w.insert_messages, tally, tick)
        plain(w, "summaries", part.summaries, "memory_summaries", w.insert_summaries, tally, tick)
        self._nodes(w, part.nodes, tally, tick)
        plain(w, "audit", part.audit, "memory_audit_events", w.insert_audit_events, tally, tick)
        self._pending(w, part.pending, tally, tick)
        plain(w, "usage", part.usage, "memory_usage", w.insert_usage, tally, tick)
        for cursor in part.cursors:
            key = f"{cursor.session_id}:{cursor.kind}"
            tally.add("added" if w.insert_cursor(cursor) else "skipped", "cursors", key)
            tick()
        # After the audit: a bundle's own rivalries (its audit names their winners) too.
        link_rivals(w)

    @staticmethod
    def _plain(
        w: StoreWriter,
        kind: str,
        records: list[Any],
        table: str,
        insert: Callable[[list[Any]], None],
        tally: _Tally,
        tick: _Ticker,
    ) -> None:
        """Append-only records: insert the new ids, skip the present ones (a batch at a time)."""
        for batch in _batches(records):
            present = w.existing_ids(table, [r.id for r in batch])
            fresh: dict[str, Any] = {}
            for r in batch:
                if r.id in present or r.id in fresh:
                    tally.add("skipped", kind, r.id)
                else:
                    fresh[r.id] = r
            insert(list(fresh.values()))
            for record_id in fresh:
                tally.add("added", kind, record_id)
            tick(len(batch))

    def _pending(
        self, w: StoreWriter, items: list[PendingItem], tally: _Tally, tick: _Ticker
    ) -> None:
        present = w.existing_ids("memory_pending", [i.id for i in items])
        for item in items:
            self._pending_item(w, item, present, tally)
            tick()

    @staticmethod
    def _pending_item(w: StoreWriter, item: PendingItem, present: set[str], tally: _Tally) -> None:
        if item.id not in present:
            w.insert_pending(item)
            present.add(item.id)
            tally.add("added", "pending", item.id)
            return
        local = w.get_pending(item.id)
        decided = item.status != "pending" and item.decided_at is not None
        if local is not None and local.status == "pending" and decided:
            assert item.decided_at is not None
            w.decide_pending(
                item.id,
                status=item.status,
                decided_by=item.decided_by or ACTOR,
                at=item.decided_at,
                note=item.decision_note,
                result_node_id=item.result_node_id,
            )
            tally.add("updated", "pending", item.id)
        else:
            tally.add("skipped", "pending", item.id)

    def _nodes(self, w: StoreWriter, nodes: list[MemoryNode], tally: _Tally, tick: _Ticker) -> None:
        present = w.existing_ids("memory_nodes", [n.id for n in nodes])
        now = self.service.now()
        governor = Governor(self.service)
        for node in nodes:
            self._node(w, node, present, tally, now, governor)
            tick()

    def _node(
        self,
        w: StoreWriter,
        node: MemoryNode,
        present: set[str],
        tally: _Tally,
        now: datetime,
        governor: Governor,
    ) -> None:
        if node.id in present:
            self._update_present(w, node, tally)
            return
        present.add(node.id)
        older = w.get_node(node.supersedes_id) if node.supersedes_id else None
        branch = None
        if older is not None and older.status == "superseded":
            # The chain moved on here since the bundle's version branched off it: the local
            # head and the bundle's version are two current versions of one memory.
            branch = self._local_head(w, older.id)
        if older is not None and older.status not in ("active", "expired"):
            older = None
        rival = None
        if node.status == "active" and not node.is_expired(now):
            rival = branch or governor.find_same(w, node, live_at=now)
            if rival is not None and older is not None and rival.id == older.id:
                rival = None  # the bundle continues this chain: handled below
        why = _BRANCHED if rival is not None and rival is branch else _SAME_KEY
        if rival is not None and priority_key(rival, now) < priority_key(node, now):
            lost = node.model_copy(update={"status": "superseded", "updated_at": now})
            w.insert_nodes([lost])
            self._audit_loss(w, lost, rival.id, now, why)
            tally.superseded.append(node.id)
            tally.add("added", "nodes", node.id)
            if rival is branch:
                tally.notes.append(f"kept the local version {rival.id}: newer than {node.id}")
            return
        w.insert_nodes([node])
        tally.add("added", "nodes", node.id)
        if rival is not None:
            w.set_node_status(rival.id, "superseded", now)
            self._audit_loss(w, rival, node.id, now, why)
            tally.superseded.append(rival.id)
            if rival is branch:
                tally.notes.append(f"{node.id} replaced the local version {rival.id}: newer")
        if older is not None:
            # The bundle continues a local chain: its older version steps down.
            w.set_node_status(older.id, "superseded", node.created_at)
            w.add_audit(
                "supersede",
                actor=ACTOR,
                reason="import: a newer version of this memory was imported",
                node=older,
                at=now,
                payload={"supersededBy": node.id},
            )
            tally.add("updated", "nodes", older.id)

    @staticmethod
    def _local_head(w: StoreWriter, node_id: str) -> MemoryNode | None:
        """The current version that continues ``node_id``'s chain in this store, if any."""
        seen = {node_id}
        current = w.successor_of(node_id)
        while current is not None and current.id not in seen:
            if current.status in ("active", "expired"):
                return current
            seen.add(current.id)
            current = w.successor_of(current.id)
        return None

    @staticmethod
    def _audit_loss(
        w: StoreWriter, loser: MemoryNode, winner_id: str, now: Any, reason: str
    ) -> None:
        w.add_audit(
            "supersede",
            actor=ACTOR,
            reason=reason,
            node=loser,
            at=now,
            payload={"supersededBy": winner_id, "conflict": True},
        )

    @staticmethod
    def _update_present(w: StoreWriter, node: MemoryNode, tally: _Tally) -> None:
        local = w.get_node(node.id)
        assert local is not None
        if local.to_json() == node.to_json():
            tally.add("skipped", "nodes", node.id)
            return
        # The link is local structure (``link_rivals`` may have moved it), not content.
        state = {"status", "updatedAt", "expiresAt", "supersedesId"}
        same_content = {k: v for k, v in local.to_json().items() if k not in state} == {
            k: v for k, v in node.to_json().items() if k not in state
        }
        if same_content and node.updated_at > local.updated_at:
            w.set_node_status(node.id, node.status, node.updated_at, expires_at=node.expires_at)
            tally.add("updated", "nodes", node.id)
            return
        tally.add("skipped", "nodes", node.id)
        if not same_content:
            tally.notes.append(f"kept the local version of {node.id}: it differs from the bundle's")


def _merge(into: _Tally, part: _Tally) -> None:
    for outcome in ("added", "skipped", "updated"):
        for kind, ids in getattr(part, outcome).items():
            getattr(into, outcome).setdefault(kind, []).extend(ids)
    into.superseded += part.superseded
    into.notes += part.notes
