"""Governed writes: every proposal is normalized, checked, and then written in one
transaction with its audit events — or held for the user, or refused with a reason.

A failed write reports ``accepted: false``; the agent must not tell the user it remembered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from ekko_memory.errors import NOTHING_WRITTEN, Conflict, EkkoMemoryError, InvalidInput, NotFound
from ekko_memory.identity import node_subject, value_subject
from ekko_memory.ids import new_id
from ekko_memory.models import MemoryNode, MemoryNodeDraft, PendingItem, PendingKind
from ekko_memory.schema.normalize import conflict_identity
from ekko_memory.schema.values import values_match
from ekko_memory.service.controls import pinned_error
from ekko_memory.service.permissions import Verdict, check_change, check_write, stricter
from ekko_memory.service.write_plan import Candidate, WriteContext, plan_node
from ekko_memory.store import marks
from ekko_memory.store.chain_writes import delete_in, supersede_in
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.reader import StoreReader
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.store.writer import StoreWriter, written
from ekko_memory.timeutil import utcnow

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

Operation = Literal["create", "update", "supersede", "expire", "delete"]
OPERATIONS: tuple[Operation, ...] = ("create", "update", "supersede", "expire", "delete")
# What makes two versions different (ids, times, provenance and status do not).
CONTENT_FIELDS = (
    "scope",
    "domain",
    "category_path",
    "type",
    "key",
    "value_json",
    "title",
    "content",
    "confidence",
    "importance",
    "tags",
    "entities",
    "expires_at",
)
OutcomeStatus = Literal[
    "created", "superseded", "duplicate", "expired", "deleted", "restored", "pending", "rejected"
]


@dataclass
class WriteOutcome:
    """What a proposal led to, in the design doc's result shape (``to_json``)."""

    accepted: bool
    status: OutcomeStatus
    reason: str
    node_id: str | None = None
    superseded_id: str | None = None
    pending_id: str | None = None
    rule: str | None = None
    notes: list[str] = field(default_factory=list)
    # The error that refused it (not in ``to_json``): a store's says why in codes
    # (``StoreUnavailable.reason_code``) an interface can word in the user's language.
    cause: BaseException | None = field(default=None, compare=False, repr=False)
    # ``reason`` as a code and its specifics (``models.reasons``): a duplicate's, or the
    # refusing error's (``EkkoMemoryError.reason_code``); a rule's is ``rule``.
    reason_code: str | None = None
    reason_params: dict[str, str] = field(default_factory=dict)
    # A refusal's ``reason`` without the ending agents read ("; nothing was written"),
    # and whether trying again may work: what an interface words in its own language.
    detail: str = ""
    retry: bool = False

    def __post_init__(self) -> None:
        if not self.detail:
            self.detail = self.reason
        if self.reason_code is None and self.cause is not None:
            code = getattr(self.cause, "reason_code", None)
            if code is not None:
                self.reason_code = code
                self.reason_params = dict(getattr(self.cause, "reason_args", None) or {})

    def to_json(self) -> dict[str, Any]:
        """``{accepted, nodeId?, reason, status, pendingId?, supersededId?, rule?,
        reasonCode?, reasonParams?, notes?}``."""
        out: dict[str, Any] = {
            "accepted": self.accepted,
            "status": self.status,
            "reason": self.reason,
        }
        for key, value in (
            ("nodeId", self.node_id),
            ("supersededId", self.superseded_id),
            ("pendingId", self.pending_id),
            ("rule", self.rule),
        ):
            if value is not None:
                out[key] = value
        if self.reason_code is not None:
            out["reasonCode"] = self.reason_code
            out["reasonParams"] = self.reason_params
        if self.notes:
            out["notes"] = self.notes
        return out


def rejected(
    reason: str, rule: str | None = None, cause: BaseException | None = None
) -> WriteOutcome:
    """A proposal refused; nothing was written (said once: a store's error says it already)."""
    detail, retry = reason, False
    if isinstance(cause, EkkoMemoryError) and cause.nothing_written:
        detail, retry = cause.detail, cause.retry
    elif NOTHING_WRITTEN in reason:
        detail = reason.split(NOTHING_WRITTEN, 1)[0]
    said = reason if NOTHING_WRITTEN in reason else detail + NOTHING_WRITTEN
    return WriteOutcome(False, "rejected", said, rule=rule, cause=cause, detail=detail, retry=retry)


def same_binding(a: MemoryNode, b: MemoryNode) -> bool:
    """Two nodes live in the same scope instance (same session / workspace / user)."""
    if a.scope != b.scope:
        return False
    if a.scope == "session":
        return a.session_id == b.session_id
    if a.scope == "user":
        return a.user_id in (None, b.user_id) or b.user_id is None
    return a.workspace_id in (None, b.workspace_id) or b.workspace_id is None


class Governor:
    """Runs proposals through normalization, permissions and transactional writes."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    # --- entry point ----------------------------------------------------------------

    def propose(
        self,
        operation: str,
        draft: MemoryNodeDraft,
        ctx: WriteContext,
        *,
        target_id: str | None = None,
        reason: str = "",
    ) -> WriteOutcome:
        """Apply one proposal; never raises for bad input (the outcome says what went wrong)."""
        if operation not in OPERATIONS:
            return rejected(f"unknown operation {operation!r}; use one of {', '.join(OPERATIONS)}")
        reason = reason.strip() or f"{ctx.actor} {operation}"
        try:
            if operation == "create":
                if target_id is not None:
                    raise InvalidInput("create takes no targetId; use update or supersede")
                return self._create(draft, ctx, reason)
            if target_id is None:
                raise InvalidInput(f"{operation} needs a targetId (the memory to change)")
            target, _ = self.service.locate(target_id)
            if ctx.is_agent and not ctx.viewer.sees(target):
                # Agents and extractors reach only what their session may see.
                raise NotFound(f"no memory {target_id}")
            if target.status == "superseded":
                head = self.service.head_of(target.id)
                raise Conflict(
                    f"memory {target_id} is an old version; change its current version {head.id} instead"
                ).because("node.old_version", id=target_id, head=head.id)
            if target.status == "deleted":
                raise Conflict(f"memory {target_id} is deleted").because(
                    "node.deleted", id=target_id
                )
            if ctx.is_agent:
                # The user pinned it: agents and the extractor read it, never change it.
                self.service.controls.refuse_if_pinned(target)
            if operation == "expire" and target.status == "expired":
                return WriteOutcome(
                    True,
                    "duplicate",
                    "already expired",
                    node_id=target.id,
                    reason_code="write.already_expired",
                )
            if operation in ("update", "supersede"):
                return self._replace(target, draft, ctx, reason)
            return self._change_status(
                target, "expired" if operation == "expire" else "deleted", ctx, reason
            )
        except EkkoMemoryError as e:
            return rejected(str(e), rule=getattr(e, "code", None), cause=e)

    # --- create ---------------------------------------------------------------------

    def _create(self, draft: MemoryNodeDraft, ctx: WriteContext, reason: str) -> WriteOutcome:
        now = self.service.now()
        cand = plan_node(self.service.registry, draft, ctx, now)
        store = self.service.store_for_scope(cand.node.scope)
        with store.write() as w:
            match = self.current_match(w, cand)
            if match is not None and self.same_value(match, cand.node):
                return WriteOutcome(
                    True,
                    "duplicate",
                    "already remembered; nothing new was written",
                    node_id=match.id,
                    notes=cand.notes,
                    reason_code="write.already_remembered",
                )
            if match is not None and ctx.is_agent and marks.marked(w.conn, marks.PIN, [match.id]):
                # It would supersede a memory the user pinned.
                error = pinned_error(match.id)
                return rejected(str(error), rule=error.code, cause=error)
            verdict = check_write(
                cand, ctx, replaces=match, high_confidence=self.service.config.high_confidence
            )
            if verdict.action == "reject":
                return rejected(verdict.reason, verdict.rule)
            if verdict.action == "pending":
                return self._hold_in(
                    w,
                    "write",
                    "create" if match is None else "supersede",
                    cand,
                    [match.id] if match else [],
                    verdict,
                    ctx,
                    reason,
                )
            if match is None:
                self.insert(w, cand.node, ctx, reason)
                return WriteOutcome(
                    True, "created", "remembered", node_id=cand.node.id, notes=cand.notes
                )
            supersede_in(
                w,
                match,
                cand.node.model_copy(update={"supersedes_id": match.id}),
                actor=ctx.actor,
                reason=reason,
            )
            return WriteOutcome(
                True,
                "superseded",
                "remembered; the earlier version was superseded",
                node_id=cand.node.id,
                superseded_id=match.id,
                notes=cand.notes,
            )

    def current_match(self, r: StoreReader, cand: Candidate) -> MemoryNode | None:
        """The active node ``cand`` would duplicate or replace (``find_same``), if any.

        ``cand`` takes the merged value of a key that holds one object (``merge_value``).
        """
        match = self.find_same(r, cand.node)
        if match is not None:
            merge_value(match, cand)
        return match

    def find_same(
        self, w: StoreReader, node: MemoryNode, *, live_at: datetime | None = None
    ) -> MemoryNode | None:
        """The active node this one would duplicate or replace in the same scope, if any
        (unexpired at ``live_at``, by default the node's creation).

        A targeted lookup (type, key group, the value's subject, the session), never a
        capped scan: with thousands of values under one key the old one must still be found.
        """
        live_at = live_at or node.created_at
        registry = self.service.registry
        frame: dict[str, Any] = {
            "statuses": ["active"],
            "scopes": [node.scope],
            "domain": node.domain,
            "types": [node.type],
            "live_at": live_at,
            "session_id": node.session_id if node.scope == "session" else None,
        }
        if node.key is None:
            hits = w.find_nodes(
                NodeFilter(**frame, title=node.title, subject=node_subject(None, None, node.title)),
                limit=None,
            )
            return next((n for n in hits if same_binding(n, node)), None)
        ident = conflict_identity(registry, node)
        rule = registry.rule_for_key(node.domain, node.type, node.key)
        keys = next((g for g in (rule.key_groups if rule else []) if node.key in g), [node.key])
        # Multi-valued keys: the same subject (香菜) under any key of the group.
        subject = (
            value_subject(node.value_json) if ident is not None and ident[0] == "many" else None
        )
        f = NodeFilter(**frame, keys=keys, subject=subject)
        for other in w.find_nodes(f, limit=None, order="updated_desc"):
            if same_binding(other, node) and conflict_identity(registry, other) == ident:
                return other
        return None

    @staticmethod
    def same_value(old: MemoryNode, new: MemoryNode) -> bool:
        """``new`` says what ``old`` says (the same value, or for a note the same text)."""
        if new.key is None:
            return old.title == new.title and old.content.strip() == new.content.strip()
        return (
            old.key == new.key
            and values_match(new.value_json, old.value_json)
            and values_match(old.value_json, new.value_json)
        )

    def insert(self, w: StoreWriter, node: MemoryNode, ctx: WriteContext, reason: str) -> None:
        """Inside a write transaction: insert a new node and audit it."""
        w.insert_nodes([node])
        w.add_audit(
            "create",
            actor=ctx.actor,
            reason=reason,
            node=node,
            at=node.created_at,
            payload={"node": written(node), "sourceMessageIds": ctx.source_message_ids},
        )

    # --- update / supersede ---------------------------------------------------------

    def _replace(
        self, target: MemoryNode, draft: MemoryNodeDraft, ctx: WriteContext, reason: str
    ) -> WriteOutcome:
        now = self.service.now()
        cand = plan_node(self.service.registry, draft, ctx, now, base=target)
        if all(getattr(cand.node, f) == getattr(target, f) for f in CONTENT_FIELDS):
            return WriteOutcome(
                True, "duplicate", "nothing changed", node_id=target.id, notes=cand.notes
            )
        high = self.service.config.high_confidence
        verdict = check_write(cand, ctx, replaces=target, high_confidence=high)
        if cand.node.scope != target.scope:
            # A move into a scope that holds the key already: the moved value replaces that
            # memory too (merged with it, as a new statement would be), and needs whatever
            # replacing it needs.
            with self.service.store_for_scope(cand.node.scope).read() as r:
                rival = self.current_match(r, cand)
                if (
                    rival is not None
                    and ctx.is_agent
                    and marks.marked(r.conn, marks.PIN, [rival.id])
                ):
                    raise pinned_error(rival.id)
            if rival is not None and rival.id != target.id:
                verdict = stricter(
                    verdict, check_write(cand, ctx, replaces=rival, high_confidence=high)
                )
        return self.write_replacement(target, cand, ctx, reason, verdict)

    def write_replacement(
        self,
        target: MemoryNode,
        cand: Candidate,
        ctx: WriteContext,
        reason: str,
        verdict: Verdict,
        also: Callable[[StoreWriter], None] | None = None,
    ) -> WriteOutcome:
        """Supersede ``target`` with ``cand`` (or hold / refuse it), in as few transactions as possible.

        ``also`` runs inside the transaction that marks the old version superseded (the
        approval of a pending item is recorded atomically with the write it approves).
        """
        if verdict.action == "reject":
            return rejected(verdict.reason, verdict.rule)
        new_store = self.service.store_for_scope(cand.node.scope)
        old_store = self.service.store_for_scope(target.scope)
        new = cand.node.model_copy(update={"supersedes_id": target.id})
        if verdict.action == "pending":
            kind: PendingKind = "scope_promotion" if verdict.rule == "scope_promotion" else "write"
            with new_store.write() as w:
                return self._hold_in(w, kind, "supersede", cand, [target.id], verdict, ctx, reason)
        moved = new.scope != target.scope
        rival: MemoryNode | None = None
        if new_store is old_store:
            with old_store.write() as w:
                self._require_head(w, target)
                if moved:
                    rival = self._replace_rival(w, target, new, ctx.actor)
                supersede_in(w, target, new, actor=ctx.actor, reason=reason)
                if also is not None:
                    also(w)
        else:
            # Two files: write the new version first; if the process dies before the
            # second step, the repair at open marks the old one superseded (see
            # MemoryService.repair_chains).
            with new_store.write() as w:
                # Another writer (another process) may have moved it here meanwhile.
                if w.successor_of(target.id) is not None:
                    raise Conflict(f"memory {target.id} changed meanwhile (now superseded)")
                rival = self._replace_rival(w, target, new, ctx.actor)
                w.insert_nodes([new])
                w.add_audit(
                    "create",
                    actor=ctx.actor,
                    reason=reason,
                    node=new,
                    at=new.created_at,
                    payload={"supersedes": target.id, "node": written(new)},
                )
            try:
                with old_store.write() as w:
                    if not _repaired(w, target, new):
                        self._require_head(w, target)
                        w.set_node_status(target.id, "superseded", new.created_at)
                        w.add_audit(
                            "supersede",
                            actor=ctx.actor,
                            reason=reason,
                            node=target,
                            at=new.created_at,
                            payload={"supersededBy": new.id},
                        )
                    if also is not None:
                        also(w)
            except Conflict as e:
                # Refused (changed meanwhile by another writer): the new version must not
                # stay active beside the one that won.
                self._withdraw(new_store, new, ctx.actor, str(e), rival)
                raise
            _move_marks(old_store, new_store, target.id, new.id)
        return WriteOutcome(
            True,
            "superseded",
            "updated; the earlier version was superseded",
            node_id=new.id,
            superseded_id=target.id,
            notes=cand.notes,
        )

    def _replace_rival(
        self, w: StoreWriter, target: MemoryNode, new: MemoryNode, actor: str
    ) -> MemoryNode | None:
        """Inside the write of a moved version: expire the memory its new scope held under
        the same key (a scope keeps one), audited; returns it as it was."""
        rival = self.find_same(w, new)
        if rival is None or rival.id == target.id:
            return None
        self.apply_status(
            w, rival, "expired", actor, f"replaced by {new.id}, moved into {new.scope} scope"
        )
        return rival

    @staticmethod
    def _withdraw(
        store: SqlStore, node: MemoryNode, actor: str, why: str, rival: MemoryNode | None = None
    ) -> None:
        """Take back a version written in the first step of a two-file replacement whose
        second step was refused: removed, with an audit event saying why (and the memory
        it replaced in its new scope back as it was)."""
        with store.write() as w:
            if rival is not None:
                w.replace_node(rival)
                w.add_audit(
                    "restore",
                    actor=actor,
                    reason=f"the move that replaced it was refused ({why})",
                    node=rival,
                    payload={"status": rival.status},
                )
            if not w.hard_delete_nodes([node.id]):
                return
            w.add_audit(
                "hard_delete",
                actor=actor,
                reason=f"withdrawn: the change it belonged to was refused ({why})",
                node_id=node.id,
                session_id=node.session_id,
                workspace_id=node.workspace_id,
                user_id=node.user_id,
                payload={"mode": "withdraw"},
            )

    @staticmethod
    def _require_head(w: StoreWriter, target: MemoryNode) -> None:
        current = w.get_node(target.id)
        if current is None or current.status not in ("active", "expired"):
            raise Conflict(
                f"memory {target.id} changed meanwhile (now {current.status if current else 'gone'})"
            )

    # --- expire / delete ------------------------------------------------------------

    def _change_status(
        self,
        target: MemoryNode,
        status: Literal["expired", "deleted"],
        ctx: WriteContext,
        reason: str,
    ) -> WriteOutcome:
        verdict = check_change(target, ctx, high_confidence=self.service.config.high_confidence)
        if verdict.action == "reject":
            return rejected(verdict.reason, verdict.rule)
        store = self.service.store_for_scope(target.scope)
        with store.write() as w:
            if verdict.action == "pending":
                return self._hold_in(
                    w,
                    "write",
                    "expire" if status == "expired" else "delete",
                    None,
                    [target.id],
                    verdict,
                    ctx,
                    reason,
                )
            self._require_head(w, target)
            self.apply_status(w, target, status, ctx.actor, reason)
        return WriteOutcome(True, status, f"memory {status}", node_id=target.id)

    def apply_status(
        self, w: StoreWriter, target: MemoryNode, status: str, actor: str, reason: str
    ) -> None:
        """Inside a write transaction: expire or soft delete ``target``, audited."""
        now = self.service.now()
        if status == "deleted":
            delete_in(w, target, mode="soft", actor=actor, reason=reason, at=now)
            return
        w.set_node_status(target.id, "expired", now, expires_at=now)
        w.add_audit(
            "expire",
            actor=actor,
            reason=reason,
            node=target,
            at=now,
            payload={"from": target.status},
        )

    # --- pending --------------------------------------------------------------------

    def _hold_in(
        self,
        w: StoreWriter,
        kind: PendingKind,
        operation: str,
        cand: Candidate | None,
        target_ids: list[str],
        verdict: Verdict,
        ctx: WriteContext,
        reason: str,
    ) -> WriteOutcome:
        """Inside a write transaction: store a pending item (or find the same one waiting)."""
        node_json = cand.node.to_json() if cand is not None else None
        for item in w.list_pending():
            if (
                item.kind == kind
                and item.target_ids == target_ids
                and _same_proposal(item.node, node_json)
            ):
                return WriteOutcome(
                    False,
                    "pending",
                    f"already waiting for the user's approval: {item.reason}",
                    pending_id=item.id,
                    rule=item.rule,
                )
        item = PendingItem(
            id=new_id("pnd"),
            kind=kind,
            status="pending",
            operation=operation,  # type: ignore[arg-type]
            node=node_json,
            target_ids=target_ids,
            current_head_id=target_ids[0] if target_ids and kind != "forget_many" else None,
            rule=verdict.rule or kind,
            reason=verdict.reason,
            requester=ctx.actor,
            session_id=ctx.session_id,
            workspace_id=ctx.workspace_id,
            user_id=ctx.user_id,
            source_message_ids=ctx.source_message_ids,
            created_at=self.service.now(),
        )
        w.insert_pending(item)
        w.add_audit(
            "pending",
            actor=ctx.actor,
            reason=reason,
            node_id=target_ids[0] if target_ids else (cand.node.id if cand else None),
            session_id=ctx.session_id,
            workspace_id=ctx.workspace_id,
            user_id=ctx.user_id,
            payload={
                "pendingId": item.id,
                "kind": kind,
                "rule": item.rule,
                "operation": operation,
                "targetIds": target_ids,
            },
        )
        return WriteOutcome(
            False,
            "pending",
            f"waits for the user's approval: {verdict.reason}; do not tell the user it is remembered yet",
            pending_id=item.id,
            rule=item.rule,
            notes=cand.notes if cand else [],
        )


def _repaired(w: StoreWriter, target: MemoryNode, new: MemoryNode) -> bool:
    """Inside the second step of a two-file replacement: another process opening the
    stores between the two steps already marked ``target`` superseded by ``new`` (its
    repair of interrupted writes, ``MemoryService.repair_chains``, cannot tell this write
    from one cut short by a crash). The step is then done, not refused."""
    current = w.get_node(target.id)
    if current is None or current.status != "superseded":
        return False
    return any(
        e.event_type == "supersede" and (e.payload or {}).get("supersededBy") == new.id
        for e in w.audit_for_node(target.id)
    )


def _move_marks(old_store: SqlStore, new_store: SqlStore, old_id: str, new_id: str) -> None:
    """A memory moved into the other store: its marks (a pin, pairs said to be no
    duplicates) follow its new version there."""
    with old_store.read() as r:
        found = marks.marks_of(r.conn, [old_id])
    if not found:
        return
    with new_store.write() as w:
        for kind, a, b in found:
            first = new_id if a == old_id else a
            second = new_id if b == old_id else b
            if b:
                first, second = marks.pair(first, second)
            marks.put_mark(w.conn, kind, first, second, actor="user", at=utcnow())
    with old_store.write() as w:
        marks.drop_marks(w.conn, [old_id])


def merge_value(current: MemoryNode, cand: Candidate) -> None:
    """One object per key (flavor_profile): ``cand`` keeps the fields of ``current`` it does
    not name ("less spicy" does not drop "less oil")."""
    if (
        current.key == cand.node.key
        and isinstance(current.value_json, dict)
        and isinstance(cand.node.value_json, dict)
    ):
        merged = dict(sorted({**current.value_json, **cand.node.value_json}.items()))
        cand.node = cand.node.model_copy(update={"value_json": merged})


def _same_proposal(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """Two proposed nodes are the same proposal: the same memory for the same owner (one
    user's proposal is never answered with another user's item waiting in a shared store)."""
    if a is None or b is None:
        return a is b
    fields = (
        "scope",
        "domain",
        "type",
        "key",
        "valueJson",
        "title",
        "content",
        "categoryPath",
        "userId",
        "workspaceId",
        "sessionId",
    )
    return all(a.get(f) == b.get(f) for f in fields)
