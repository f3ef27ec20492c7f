"""The user's decisions on pending items. Only the user decides: agent tools cannot reach this."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

from ekko_memory.errors import (
    Conflict,
    InvalidInput,
    NotFound,
    PermissionDenied,
    validation_text,
)
from ekko_memory.models import MemoryNode, MemoryNodeDraft, PendingItem
from ekko_memory.service.forget import Forgetter
from ekko_memory.service.governance import Governor, merge_value
from ekko_memory.service.permissions import ALLOW
from ekko_memory.service.write_plan import WriteContext, plan_node
from ekko_memory.store.chain_writes import settle_pending
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.store.writer import StoreWriter

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

USER_ACTORS = frozenset({"user"})
# A decision's note is bounded as a tool's reason is.
MAX_NOTE_CHARS = 2000
# Times an approval is planned again when another writer (another process: an agent, the
# CLI) wrote the same memory between the approval's look and its write.
REPLAN_ATTEMPTS = 3


class _Replan(Exception):
    """Raised inside an approval's write transaction (rolled back): plan it again."""


def find_pending(service: MemoryService, pending_id: str) -> tuple[PendingItem, SqlStore]:
    """A pending item and the store holding it."""
    for name, store in service.stores():
        if not store.health.readable:
            continue
        with store.read() as r:
            item = r.get_pending(pending_id)
        if item is not None:
            return item.model_copy(update={"store": name}), store
    raise NotFound(f"no pending item {pending_id}")


def decide(
    service: MemoryService,
    pending_id: str,
    *,
    approve: bool,
    actor: str,
    edits: dict[str, Any] | None = None,
    note: str | None = None,
) -> dict[str, Any]:
    """Approve (optionally with edits) or reject a pending item, as the user."""
    if actor not in USER_ACTORS:
        raise PermissionDenied(
            "only the user decides pending items (actor='user'); agents cannot approve"
        )
    if note is not None and len(note) > MAX_NOTE_CHARS:
        raise InvalidInput(
            f"the note is {len(note)} characters long; the limit is {MAX_NOTE_CHARS}"
        )
    item, store = find_pending(service, pending_id)
    if item.status != "pending":
        why = f" ({item.decision_note})" if item.status == "expired" and item.decision_note else ""
        raise Conflict(f"pending item {pending_id} is already {item.status}{why}").because(
            "pending.already_decided", id=pending_id, status=item.status
        )
    now = service.now()
    reason = note or ("approved by the user" if approve else "rejected by the user")
    if not approve:
        with store.write() as w:
            if not w.decide_pending(
                pending_id,
                status="rejected",
                decided_by=actor,
                at=now,
                note=note,
                result_node_id=None,
            ):
                raise Conflict(f"pending item {pending_id} was decided meanwhile").because(
                    "pending.decided_meanwhile", id=pending_id
                )
            w.add_audit(
                "reject",
                actor=actor,
                reason=reason,
                node_id=item.current_head_id,
                session_id=item.session_id,
                workspace_id=item.workspace_id,
                user_id=item.user_id,
                payload={"pendingId": pending_id, "kind": item.kind, "rule": item.rule},
            )
        return {"pendingId": pending_id, "status": "rejected"}

    ctx = WriteContext(
        actor="user",
        session_id=item.session_id,
        user_id=item.user_id,
        workspace_id=item.workspace_id,
        source_message_ids=item.source_message_ids,
    )
    if item.kind in ("hard_delete", "forget_many") or item.operation in ("delete", "expire"):
        return _approve_change(service, item, store, ctx, reason)
    for _ in range(REPLAN_ATTEMPTS - 1):
        try:
            return _approve_write(service, item, store, ctx, reason, edits)
        except _Replan:
            item, store = find_pending(service, pending_id)
            if item.status != "pending":
                raise Conflict(f"pending item {pending_id} was decided meanwhile").because(
                    "pending.decided_meanwhile", id=pending_id
                ) from None
    try:
        return _approve_write(service, item, store, ctx, reason, edits)
    except _Replan:
        raise Conflict(
            f"pending item {pending_id}: the memory it would write keeps changing"
            " (another program is writing it)"
        ).unwritten(retry=True) from None


def _recorder(
    service: MemoryService,
    item: PendingItem,
    actor: str,
    reason: str,
    result: str | None,
    payload: dict[str, Any],
) -> Callable[[StoreWriter], None]:
    """Records the approval inside a write transaction (of the store holding the item)."""

    def record(w: StoreWriter) -> None:
        if not w.decide_pending(
            item.id,
            status="approved",
            decided_by=actor,
            at=service.now(),
            note=reason,
            result_node_id=result,
        ):
            raise Conflict(f"pending item {item.id} was decided meanwhile").because(
                "pending.decided_meanwhile", id=item.id
            )
        w.add_audit(
            "approve",
            actor=actor,
            reason=reason,
            node_id=result or item.current_head_id,
            session_id=item.session_id,
            workspace_id=item.workspace_id,
            user_id=item.user_id,
            payload={"pendingId": item.id, "kind": item.kind, "rule": item.rule, **payload},
        )

    return record


def _mark(
    service: MemoryService,
    store: SqlStore,
    item: PendingItem,
    actor: str,
    reason: str,
    result: str | None,
    payload: dict[str, Any],
) -> None:
    with store.write() as w:
        _recorder(service, item, actor, reason, result, payload)(w)


def _approve_write(
    service: MemoryService,
    item: PendingItem,
    store: SqlStore,
    ctx: WriteContext,
    reason: str,
    edits: dict[str, Any] | None,
) -> dict[str, Any]:
    """Write what the user approved, re-planned against the memories as they are now.

    The item was filed against the state of its time; meanwhile the memory may have moved
    on. The user's approval is the newest statement: it replaces the current version of the
    memory (the head of the chain it was filed against, else the active memory it would
    duplicate or replace, as a new write would), or, saying the same as that version,
    writes nothing and points at it. When the version it replaces is not the one it was
    filed against, the approval's reason and audit say so (``filedAgainst``).
    """
    if item.node is None:  # a hard delete of the memory it would change scrubbed it
        raise _moot(service, store, item, f"the memory {item.current_head_id} was deleted for good")
    filed = _filed_head(service, store, item)
    try:
        proposed = MemoryNode.model_validate(item.node)
    except ValidationError as e:
        # Stored by an older release's import: no valid memory to write. Rejecting it works.
        raise InvalidInput(
            f"pending item {item.id} proposes no valid memory ({validation_text(e)});"
            " reject it, nothing was written"
        ) from e
    draft_fields = {
        k: v for k, v in proposed.model_dump().items() if k in MemoryNodeDraft.model_fields
    }
    try:
        draft = MemoryNodeDraft.model_validate({**draft_fields, **(edits or {})})
    except ValidationError as e:
        raise InvalidInput.of("the edits", e) from e
    draft.source_message_ids = proposed.source_message_ids
    cand = plan_node(service.registry, draft, ctx, service.now())
    cand.node = cand.node.model_copy(
        update={
            "id": _shown_id(service, proposed, cand.node.id),
            "origin": proposed.origin if not edits else "user_edit",
        }
    )
    governor = Governor(service)
    node_store = service.store_for_scope(cand.node.scope)
    with node_store.read() as r:
        current = governor.current_match(r, cand)
    target = filed if filed is not None else current
    if filed is not None and filed.status != "active" and current is not None:
        # The filed memory expired and another now holds the key: replacing the expired
        # one would leave two active memories of a one-value key.
        target = current
    if target is not None:
        merge_value(target, cand)
    payload: dict[str, Any] = {"edited": bool(edits)}
    if item.current_head_id is not None:
        payload["filedAgainst"] = item.current_head_id
    # Saying the same in the same scope: a move into another scope (a promotion into the
    # user's long-term memory) keeps the value and changes where it lives.
    same = next(
        (
            n
            for n in (target, current)
            if n is not None and n.scope == cand.node.scope and governor.same_value(n, cand.node)
        ),
        None,
    )
    if same is not None:
        # Already remembered (the user or the agent said it meanwhile): one memory, not two.
        payload["duplicateOf"] = same.id
        _mark(service, store, item, ctx.actor, reason, same.id, payload)
        return {"pendingId": item.id, "status": "approved", "nodeId": same.id}
    if target is not None and target.id != item.current_head_id:
        reason = f"{reason}; replaces {target.id}, " + (
            f"which replaced {item.current_head_id} after this was proposed"
            if item.current_head_id is not None
            else "written after this was proposed"
        )
    node_id = cand.node.id
    payload["supersedes"] = target.id if target else None
    record = _recorder(service, item, ctx.actor, reason, node_id, payload)
    if target is not None:
        same_store = service.store_for_scope(target.scope) is store
        governor.write_replacement(
            target, cand, ctx, reason, ALLOW, also=record if same_store else None
        )
        if not same_store:
            _mark(service, store, item, ctx.actor, reason, node_id, payload)
    elif node_store is store:
        with store.write() as w:
            _still_unmatched(governor, w, cand.node)
            governor.insert(w, cand.node, ctx, reason)
            record(w)
    else:
        with node_store.write() as w:
            _still_unmatched(governor, w, cand.node)
            governor.insert(w, cand.node, ctx, reason)
        _mark(service, store, item, ctx.actor, reason, node_id, payload)
    return {"pendingId": item.id, "status": "approved", "nodeId": node_id}


def _shown_id(service: MemoryService, proposed: MemoryNode, fresh: str) -> str:
    """The id the approved memory takes: the one shown while it waited (the inbox, ``pending
    --json``, the pending audit event), which the user or the agent may have kept — unless a
    memory already holds it (a store imported with its decided items), then ``fresh``."""
    return fresh if service.get_node(proposed.id) is not None else proposed.id


def _still_unmatched(governor: Governor, w: StoreWriter, node: MemoryNode) -> None:
    """Inside the write transaction of an approval that found no memory to replace: still
    none. Another process may have written the same key since the approval looked (an
    agent's create, the CLI); inserting beside it would leave a one-value key with two
    active memories, so the approval is planned again against it (``_Replan``)."""
    if governor.find_same(w, node) is not None:
        raise _Replan


def _filed_head(service: MemoryService, store: SqlStore, item: PendingItem) -> MemoryNode | None:
    """The current version of the memory the item was filed against (None: filed against
    none). Raises the ``Conflict`` of ``_moot`` when that memory was deleted since."""
    if item.current_head_id is None:
        return None
    try:
        head = service.head_of(item.current_head_id)
    except NotFound:
        gone = f"the memory it would change ({item.current_head_id}) was deleted for good"
    else:
        if head.status in ("active", "expired"):
            return head
        gone = f"the memory it would change ({head.id}) is {head.status}"
    raise _moot(service, store, item, gone)


def _moot(service: MemoryService, store: SqlStore, item: PendingItem, gone: str) -> Conflict:
    """Settle an item that no longer applies (expired, audited); the ``Conflict`` to raise."""
    with store.write() as w:
        settle_pending(w, item, reason=f"no longer applies: {gone}", actor="user", at=service.now())
    return Conflict(f"pending item {item.id} no longer applies: {gone}").unwritten()


def _approve_change(
    service: MemoryService, item: PendingItem, store: SqlStore, ctx: WriteContext, reason: str
) -> dict[str, Any]:
    targets = []
    moved: list[str] = []
    for node_id in item.target_ids:
        try:
            node, _ = service.locate(node_id)
        except NotFound:
            continue
        if node.status == "superseded" and item.kind != "hard_delete":
            # Edited since: the user's decision is about the memory, so it applies to the
            # current version (and the audit says so).
            head = service.head_of(node.id)
            if head.status not in ("active", "expired"):
                continue
            moved.append(f"{head.id} (which replaced {node.id} after this was proposed)")
            node = head
        if node.status not in ("deleted", "superseded") or item.kind == "hard_delete":
            targets.append(node)
    if not targets:
        raise _moot(service, store, item, "the memories it would change are gone")
    if moved:
        reason = f"{reason}; applies to the current version {', '.join(moved)}"
    if item.operation == "expire":
        governor = Governor(service)
        for node in targets:
            with service.store_for_scope(node.scope).write() as w:
                governor.apply_status(w, node, "expired", ctx.actor, reason)
        _mark(
            service, store, item, ctx.actor, reason, None, {"expiredIds": [n.id for n in targets]}
        )
        return {"pendingId": item.id, "status": "approved", "deletedIds": []}
    mode: Literal["soft", "hard"] = "hard" if item.kind == "hard_delete" else "soft"
    deleted, _ = Forgetter(service).execute(targets, mode, actor=ctx.actor, reason=reason)
    _mark(service, store, item, ctx.actor, reason, None, {"deletedIds": deleted, "mode": mode})
    return {"pendingId": item.id, "status": "approved", "deletedIds": deleted}


def proposal_of(service: MemoryService, node_id: str) -> PendingItem | None:
    """The pending item (any status) that showed ``node_id`` as its proposed memory."""
    for name, store in service.stores():
        if not store.health.readable:
            continue
        with store.read() as r:
            item = r.pending_proposing(node_id)
        if item is not None:
            return item.model_copy(update={"store": name})
    return None


def why_no_memory(item: PendingItem, node_id: str) -> tuple[str, str | None]:
    """Why the id ``node_id`` that ``item`` showed names no memory, and the memory it became
    (an approval that said the same as a memory already there is that memory)."""
    if item.status == "pending":
        return (
            f"{node_id} is a proposal still waiting for the user's approval"
            f" ({item.id}); it is not remembered yet",
            None,
        )
    if item.status == "rejected":
        return f"{node_id} was proposed, and the user rejected it ({item.id})", None
    if item.status == "expired":
        why = f": {item.decision_note}" if item.decision_note else ""
        return f"{node_id} was proposed, and the proposal no longer applies{why}", None
    if item.result_node_id is not None and item.result_node_id != node_id:
        return (
            f"{node_id} was proposed and approved as {item.result_node_id}, a memory that"
            " already said the same",
            item.result_node_id,
        )
    return f"{node_id} was proposed and approved, then deleted for good", None
