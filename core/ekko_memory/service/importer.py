"""Import of a JSON bundle (see ``service/export.py`` for the format).

Rules:

- Everything is validated before anything is written; a bad bundle changes nothing.
  A bundle carries data, never decisions or identity (``service/bundle.py``): its audit
  events are marked as imported, its decided pending items are decided by ``import``.
- Ids are kept. A record whose id is already present is skipped, so importing the same
  bundle twice adds nothing. The one exception moves a memory's state forward: a node
  the bundle shows superseded / expired / deleted later than the identical local copy
  takes that status. A present node whose content differs is kept as it is (noted in
  the report). A pending item here is never decided by a bundle: the user decides it.
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
  head and the new node are rivals as above, noted in the report. Only a newer version
  of the same memory does so (``same_memory``): when the memory its link
  (``supersedesId``) would retire has another type, key or domain (or, for a key that
  holds many values, another value), or is current in the other store, the node comes
  in without that link (noted) and nothing is retired.
- ``superseded`` lists every memory the import left superseded: conflict losers, local
  versions a newer imported version continues, and local copies the bundle shows
  superseded since.
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

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ekko_memory.errors import InvalidInput
from ekko_memory.models import ImportReport, MemoryNode, PendingItem, StoreName
from ekko_memory.schema.normalize import conflict_identity
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.service.bundle import StoreBundle, parse_bundle, read_bundle
from ekko_memory.service.governance import Governor
from ekko_memory.service.progress import Cancelled, CancelToken, ProgressCallback, Reporter
from ekko_memory.service.ranking import priority_key
from ekko_memory.store.rival_links import IMPORT_ACTOR as ACTOR
from ekko_memory.store.rival_links import link_rivals
from ekko_memory.store.writer import StoreWriter

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

# Records written between two progress reports (and cancellation checks).
BATCH = 500
# The statuses a bundle may move a memory here to (forward: none brings one back).
_RETIRED = ("superseded", "expired", "deleted")
# Why an import superseded one of two rivals (the audit's reason).
_SAME_KEY = "import: another memory with the same key took precedence"
_BRANCHED = "import: two versions continued this memory apart; the newer took precedence"


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
        parsed = parse_bundle(data)
        parts = parsed.stores
        for name, part in parts.items():
            store = self._store(name)
            if part.size and not store.health.writable:
                raise InvalidInput(
                    f"the {name} store cannot be written ({store.health.reason}); nothing was imported"
                ).for_store(name, store.health)
        tally = _Tally(notes=list(parsed.notes))
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
                    self._import_store(w, name, part, store_tally, ticker)
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
            duplicates=parsed.duplicates,
            notes=tally.notes,
            cancelled=bool(cancelled),
            committed_stores=committed,
            cancelled_stores=cancelled,
        )

    def _store(self, name: StoreName) -> Any:
        return self.service.workspace_store if name == "workspace" else self.service.user_store

    # --- one store, inside one write transaction -------------------------------------

    def _import_store(
        self, w: StoreWriter, name: StoreName, part: StoreBundle, tally: _Tally, tick: _Ticker
    ) -> None:
        plain = self._plain
        plain(w, "messages", part.messages, "memory_messages", w.insert_messages, tally, tick)
        plain(w, "summaries", part.summaries, "memory_summaries", w.insert_summaries, tally, tick)
        other: StoreName = "user" if name == "workspace" else "workspace"
        self._nodes(w, part.nodes, tally, tick, other)
        plain(w, "audit", part.audit, "memory_audit_events", w.insert_audit_events, tally, tick)
        self._pending(w, part.pending, tally, tick)
        plain(w, "usage", part.usage, "memory_usage", w.insert_usage, tally, tick)
        for cursor in part.cursors:
            key = f"{cursor.session_id}:{cursor.kind}"
            tally.add("added" if w.insert_cursor(cursor) else "skipped", "cursors", key)
            tick()
        # After the audit: a bundle's own rivalries (its audit names their winners) too,
        # when the two it names are values of one memory.
        link_rivals(w, lambda a, b: rivals(self.service.registry, a, b))

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
        # Only the user decides an item waiting here; a bundle's decision is not theirs.
        tally.add("skipped", "pending", item.id)
        local = w.get_pending(item.id)
        if local is not None and local.status == "pending" and item.status != "pending":
            tally.notes.append(
                f"pending item {item.id} still waits for your decision here: the bundle shows"
                f" it {item.status}, but an import does not decide"
            )

    def _nodes(
        self,
        w: StoreWriter,
        nodes: list[MemoryNode],
        tally: _Tally,
        tick: _Ticker,
        other: StoreName,
    ) -> None:
        present = w.existing_ids("memory_nodes", [n.id for n in nodes])
        now = self.service.now()
        governor = Governor(self.service)
        for node in nodes:
            if node.id in present:
                self._update_present(w, node, tally)
            else:
                present.add(node.id)
                self._node(w, self._checked_link(w, node, tally, other), tally, now, governor)
            tick()

    def _node(
        self,
        w: StoreWriter,
        node: MemoryNode,
        tally: _Tally,
        now: datetime,
        governor: Governor,
    ) -> None:
        """A node not present here: inserted, settling what it continues or rivals."""
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
            tally.superseded.append(older.id)

    def _checked_link(
        self, w: StoreWriter, node: MemoryNode, tally: _Tally, other: StoreName
    ) -> MemoryNode:
        """``node``, or ``node`` without its link to an older version (noted) when following
        the link would retire what is not an older version of the same memory: a memory of
        another type, key or domain, or a current memory of the other store."""
        older_id = node.supersedes_id
        if older_id is None:
            return node
        older = w.get_node(older_id)
        if older is not None:
            # What following the link retires here: the older version while it is
            # current, else the version that continued it here since (``_node``).
            retired = older if older.status in ("active", "expired") else None
            if older.status == "superseded":
                retired = self._local_head(w, older.id)
            if retired is None or same_memory(self.service.registry, retired, node):
                return node
            why = f"{retired.id} is another memory (its type, key, domain or value differ)"
        elif not self._store(other).health.readable:
            why = f"{older_id} may be a memory of the {other} store, which cannot be read now"
        else:
            with self._store(other).read() as r:
                elsewhere = r.get_node(older_id)
            if elsewhere is None or elsewhere.status not in ("active", "expired"):
                return node  # nothing current is retired by the link
            why = f"{older_id} is a current memory of the {other} store"
        tally.notes.append(
            f"imported {node.id} without its link to an older version: {why},"
            " which an import does not retire"
        )
        return node.model_copy(update={"supersedes_id": None})

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
        # Forward only: a bundle retires what it retired there since, it revives nothing.
        forward = node.status in _RETIRED and node.status != local.status
        if same_content and forward and node.updated_at > local.updated_at:
            w.set_node_status(node.id, node.status, node.updated_at, expires_at=node.expires_at)
            tally.add("updated", "nodes", node.id)
            if node.status == "superseded" and local.status in ("active", "expired"):
                tally.superseded.append(node.id)
            else:
                tally.notes.append(f"{node.id} is {node.status} now, as in the bundle")
            return
        tally.add("skipped", "nodes", node.id)
        if not same_content:
            tally.notes.append(f"kept the local version of {node.id}: it differs from the bundle's")


def same_memory(registry: SchemaRegistry, older: MemoryNode, newer: MemoryNode) -> bool:
    """Two versions of one memory: the same type, key and domain, and for a key that holds
    many values, the same one (不吃葱 is no newer version of 不吃香菜)."""
    if (older.type, older.key, older.domain) != (newer.type, newer.key, newer.domain):
        return False
    return rivals(registry, older, newer)


def rivals(registry: SchemaRegistry, a: MemoryNode, b: MemoryNode) -> bool:
    """Two values of one memory, as a governed write judges them: the same conflict
    identity, or (keyless) the same type and domain."""
    if a.key is None or b.key is None:
        return a.key == b.key and (a.type, a.domain) == (b.type, b.domain)
    return conflict_identity(registry, a) == conflict_identity(registry, b)


def _merge(into: _Tally, part: _Tally) -> None:
    for outcome in ("added", "skipped", "updated"):
        for kind, ids in getattr(part, outcome).items():
            getattr(into, outcome).setdefault(kind, []).extend(ids)
    into.superseded += part.superseded
    into.notes += part.notes
