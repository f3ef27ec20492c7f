"""What the user does with the duplicates report (``mem.duplicates``): merge a pair into
one memory, or say it is no duplicate so that it stops appearing. Both are audited and
reversible (``unmerge``, ``undismiss``).

A merge keeps one memory and supersedes the other by it, as an import settles two rival
values: the dropped memory's chain is linked before the kept one's oldest version
(``supersedes_id``), so every version of either leads to the one in use (``head_of``,
history), the dropped one turns ``superseded``, and its source messages join the kept
memory's. Nothing is rewritten but that link, the status and the sources; the ``merge``
audit event records what changed, which is how ``unmerge`` puts it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import update

from ekko_memory.errors import Conflict, InvalidInput
from ekko_memory.models import MemoryNode
from ekko_memory.models.reasons import stored_reason
from ekko_memory.service.governance import WriteOutcome
from ekko_memory.store import marks
from ekko_memory.store import tables as t
from ekko_memory.store.rows import dumps
from ekko_memory.store.writer import StoreWriter

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

ACTOR = "user"


def not_duplicates(service: MemoryService) -> set[tuple[str, str]]:
    """Every pair (ids in sorted order) the user said is no duplicate."""
    out: set[tuple[str, str]] = set()
    for _, store in service.stores():
        if store.health.readable:
            with store.read() as r:
                out |= marks.pairs(r.conn, marks.NOT_DUPLICATE)
    return out


def _current(service: MemoryService, node_id: str, what: str) -> MemoryNode:
    node, _ = service.locate(node_id)
    if node.scope == "global":
        raise InvalidInput("global memories ship with the app and are read-only").because(
            "node.global_read_only"
        )
    if node.status == "superseded":
        head = service.head_of(node.id)
        raise Conflict(
            f"memory {node.id} is an old version; {what} its current version {head.id}"
        ).because("node.old_version", id=node.id, head=head.id)
    if node.status == "deleted":
        raise Conflict(f"memory {node.id} is deleted").because("node.deleted", id=node.id)
    return node


def _set_sources(w: StoreWriter, node_id: str, sources: list[str]) -> None:
    n = t.memory_nodes
    w.conn.execute(
        update(n).where(n.c.id == node_id).values(source_message_ids_json=dumps(sources))
    )


def dismiss(service: MemoryService, a: str, b: str, *, undo: bool = False) -> bool:
    """Say ``a`` and ``b`` are no duplicates (``undo``: take that back); False when it was
    so already. Kept in the store of each, audited on each."""
    if a == b:
        raise InvalidInput("a memory is no duplicate of itself")
    first, second = (service.locate(i)[0] for i in marks.pair(a, b))
    if first.scope == "global" or second.scope == "global":
        raise InvalidInput("global memories ship with the app and are read-only").because(
            "node.global_read_only"
        )
    changed = False
    now = service.now()
    done: set[int] = set()
    for node, other in ((first, second), (second, first)):
        store = service.store_for_scope(node.scope)
        with store.write() as w:
            if id(store) not in done:
                if undo:
                    changed |= marks.remove_mark(w.conn, marks.NOT_DUPLICATE, first.id, second.id)
                else:
                    changed |= marks.put_mark(
                        w.conn, marks.NOT_DUPLICATE, first.id, second.id, actor=ACTOR, at=now
                    )
                done.add(id(store))
            if changed:
                w.add_audit(
                    "dismiss",
                    actor=ACTOR,
                    reason=stored_reason(
                        "user.duplicates_again" if undo else "user.not_duplicates", id=other.id
                    ),
                    node=node,
                    at=now,
                    payload={"notDuplicateOf": other.id, "undo": undo},
                )
    return changed


def merge(service: MemoryService, keep_id: str, drop_id: str) -> WriteOutcome:
    """Merge ``drop_id`` into ``keep_id`` (see the module docstring)."""
    if keep_id == drop_id:
        raise InvalidInput("merge two different memories")
    keep = _current(service, keep_id, "merge")
    drop = _current(service, drop_id, "merge")
    chain = service.chain(keep.id)
    if drop.id in {v.id for v in chain}:
        raise InvalidInput(f"{drop.id} is a version of {keep.id} already")
    oldest = chain[0]
    if oldest.supersedes_id is not None:
        raise Conflict(f"the history of {keep.id} cannot take another memory before it")
    added = [i for i in drop.source_message_ids if i not in keep.source_message_ids]
    now = service.now()
    payload: dict[str, Any] = {
        "mergedInto": keep.id,
        "linkedVersion": oldest.id,
        "addedSources": added,
        "from": drop.status,
    }
    keep_store = service.store_for_scope(keep.scope)
    drop_store = service.store_for_scope(drop.scope)
    with drop_store.write() as w:
        current = w.get_node(drop.id)
        if current is None or current.status != drop.status:
            raise Conflict(f"memory {drop.id} changed meanwhile")
        w.set_node_status(drop.id, "superseded", now)
        w.add_audit(
            "merge",
            actor=ACTOR,
            reason=stored_reason("user.merged", id=keep.id),
            node=drop,
            at=now,
            payload=payload,
        )
        # Pairs with the dropped memory are settled by the merge.
        marks.clear_kind(w.conn, marks.NOT_DUPLICATE, [drop.id])
        pinned = bool(marks.marked(w.conn, marks.PIN, [drop.id]))
        marks.clear_kind(w.conn, marks.PIN, [drop.id])
    with keep_store.write() as w:
        w.set_supersedes(oldest.id, drop.id)
        _set_sources(w, keep.id, [*keep.source_message_ids, *added])
        if pinned:
            # A pinned memory merged away leaves the one it lives on in pinned.
            marks.put_mark(w.conn, marks.PIN, keep.id, "", actor=ACTOR, at=now)
        w.add_audit(
            "merge",
            actor=ACTOR,
            reason=stored_reason("user.merged", id=keep.id),
            node=keep,
            at=now,
            payload={"merged": drop.id, **payload, "pinCarried": pinned},
        )
    return WriteOutcome(
        True,
        "superseded",
        f"merged {drop.id} into {keep.id}",
        node_id=keep.id,
        superseded_id=drop.id,
    )


def unmerge(service: MemoryService, drop_id: str) -> WriteOutcome:
    """Undo the merge of ``drop_id``: it is its own memory again, as it was, and the sources
    it brought leave the memory it was merged into."""
    drop, _ = service.locate(drop_id)
    drop_store = service.store_for_scope(drop.scope)
    with drop_store.read() as r:
        events = [e for e in r.audit_for_node(drop.id) if e.event_type in ("merge", "unmerge")]
    events.sort(key=lambda e: (e.created_at, e.id))
    last = events[-1] if events else None
    if last is None or last.event_type != "merge" or not last.payload:
        raise InvalidInput(f"memory {drop.id} was not merged into another")
    payload = last.payload
    keep_id = str(payload.get("mergedInto"))
    linked_id = str(payload.get("linkedVersion"))
    linked = service.get_node(linked_id)
    if drop.status != "superseded" or linked is None or linked.supersedes_id != drop.id:
        raise Conflict(f"the merge of {drop.id} cannot be undone: its history changed since")
    head = service.head_of(keep_id)
    now = service.now()
    added = set(payload.get("addedSources") or [])
    back = str(payload.get("from") or "active")
    keep_store = service.store_for_scope(head.scope)
    with keep_store.write() as w:
        w.set_supersedes(linked_id, None)
        _set_sources(w, head.id, [i for i in head.source_message_ids if i not in added])
        w.add_audit(
            "unmerge",
            actor=ACTOR,
            reason=stored_reason("user.unmerged", id=keep_id),
            node=head,
            at=now,
            payload={"unmerged": drop.id},
        )
    with drop_store.write() as w:
        w.set_node_status(drop.id, back, now)
        w.add_audit(
            "unmerge",
            actor=ACTOR,
            reason=stored_reason("user.unmerged", id=keep_id),
            node=drop,
            at=now,
            payload={"to": back, "mergedInto": keep_id},
        )
    return WriteOutcome(True, "restored", f"{drop.id} is its own memory again", node_id=drop.id)
