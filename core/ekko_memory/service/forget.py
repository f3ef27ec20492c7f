"""Forgetting (删除和遗忘): exact lookup first; one hit is soft-deleted, several need the
user's confirmation, and a hard delete always waits for the user unless the user asks.

A hard delete first removes the migration backups that hold the memory (once its rows
are gone nothing names what a backup still holds), then every version of the memory,
its index rows and usage records, scrubs its text from audit and pending rows (in both
stores), and (on request) the source messages, marking the summaries built on them
stale. The file is then compacted so that no readable copy of the text is left in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ekko_memory.errors import EkkoMemoryError, InvalidInput, NotFound
from ekko_memory.models import MemoryNode, MemoryQuery, Scope
from ekko_memory.schema.normalize import canonical_key
from ekko_memory.service.chains import chain_closure
from ekko_memory.service.controls import pinned_error
from ekko_memory.service.governance import Governor
from ekko_memory.service.permissions import RULE_TEXT, Verdict, sensitive_kinds
from ekko_memory.service.purge_verify import clear_backups, clear_job_errors
from ekko_memory.service.retrieval import value_hint, viewer_of, visible
from ekko_memory.service.write_plan import WriteContext
from ekko_memory.store.chain_writes import delete_in, settle_pending
from ekko_memory.store.filters import NodeFilter

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

Mode = Literal["soft", "hard"]


def _statuses(mode: Mode) -> list[str]:
    """The statuses a forget request reaches: a hard delete reaches soft-deleted memories too."""
    return ["active", "expired", "deleted"] if mode == "hard" else ["active", "expired"]


@dataclass
class ForgetRequest:
    """What to forget: an id, or an exact description (scope/domain/category/type/key/value)."""

    reason: str
    id: str | None = None
    scope: Scope | None = None
    domain: str | None = None
    category_path_prefix: list[str] | None = None
    type: str | None = None
    key: str | None = None
    value_json: Any = None
    mode: Mode = "soft"
    # Also delete the source messages (and mark summaries built on them stale).
    cascade_messages: bool = False


@dataclass
class ForgetOutcome:
    """The design doc's result: deletedIds, mode, requiresConfirmation, reason (+ candidates)."""

    deleted_ids: list[str]
    mode: Mode
    reason: str
    requires_confirmation: bool = False
    pending_id: str | None = None
    candidates: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # The error code when the request itself could not be carried out (it named nothing,
    # a read-only memory, a store that is down): the tool result is then an error result.
    error_code: str | None = None
    # Why, as a code with its specifics (``models.reasons``): ``node.pinned``…
    reason_code: str | None = None
    reason_params: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON for tool results (with ``error: {code, message}`` when it failed)."""
        out: dict[str, Any] = {
            "deletedIds": self.deleted_ids,
            "mode": self.mode,
            "reason": self.reason,
        }
        if self.requires_confirmation:
            out["requiresConfirmation"] = True
        if self.pending_id:
            out["pendingId"] = self.pending_id
        if self.candidates:
            out["candidates"] = self.candidates
        if self.warnings:
            out["warnings"] = self.warnings
        if self.error_code is not None:
            out["error"] = {"code": self.error_code, "message": self.reason}
            if self.reason_code is not None:
                out["error"] |= {"reasonCode": self.reason_code, "reasonParams": self.reason_params}
        return out


def candidate_json(node: MemoryNode) -> dict[str, Any]:
    """A short description of a node, for confirmations."""
    out: dict[str, Any] = {
        "id": node.id,
        "title": node.title,
        "scope": node.scope,
        "categoryPath": node.category_path,
        "type": node.type,
    }
    if node.key:
        out["key"] = node.key
        out["valueJson"] = node.value_json
    return out


class Forgetter:
    """Runs forget requests for agents (governed) and for the user (direct)."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    def find(self, req: ForgetRequest, ctx: WriteContext) -> list[MemoryNode]:
        """The memories a request names: the current ones for a soft delete (no deleted
        ones, no old versions); for a hard delete the soft-deleted ones too, whose text is
        still in the file until then ("忘掉…", later "彻底删除…")."""
        svc = self.service
        frame = MemoryQuery(
            session_id=ctx.session_id, user_id=ctx.user_id, workspace_id=ctx.workspace_id
        )
        if req.id is not None:
            node, _ = svc.locate(req.id)
            # Agents reach only what their session may see; global seeds are read-only.
            if ctx.is_agent and not visible(node, frame):
                return []
            if node.status not in _statuses(req.mode) or node.status == "superseded":
                return []
            if node.scope == "global":
                raise InvalidInput("global memories are read-only (shipped with the app)").because(
                    "node.global_read_only"
                )
            return [node]
        if not any(
            (
                req.scope,
                req.domain,
                req.category_path_prefix,
                req.type,
                req.key,
                req.value_json is not None,
            )
        ):
            raise InvalidInput(
                "name the memory to forget: an id, or scope/domain/categoryPathPrefix/type/key/valueJson"
            )
        domain = svc.registry.canonical_domain(req.domain) if req.domain else None
        key = canonical_key(svc.registry, domain or "", req.type, req.key) if req.key else None
        out: list[MemoryNode] = []
        for part in svc.store_slices([req.scope] if req.scope else None):
            f = NodeFilter(
                statuses=_statuses(req.mode),
                scopes=part.scopes,
                domain=domain,
                category_prefix=req.category_path_prefix,
                types=[req.type] if req.type else None,
                key=key,
                subject=value_hint(svc.registry, domain, req.type, key, req.value_json),
                viewer=viewer_of(frame),
            )
            with part.store.read() as r:
                nodes = r.find_nodes(f, limit=1000)
            out += [n for n in nodes if visible(n, frame) and n.scope != "global"]
        if req.value_json is not None:
            retriever = svc.retriever
            q = MemoryQuery(value_json=req.value_json)
            out = [n for n in out if retriever.value_matches(q, n)]
        return out

    def forget(self, req: ForgetRequest, ctx: WriteContext) -> ForgetOutcome:
        """Forget what ``req`` names; agents get confirmations and pending items where needed."""
        try:
            return self._forget(req, ctx)
        except EkkoMemoryError as e:
            return ForgetOutcome(
                [],
                req.mode,
                f"{e}; nothing was deleted" if "nothing was" not in str(e) else str(e),
                error_code=e.code,
                reason_code=e.reason_code,
                reason_params=dict(e.reason_args or {}),
            )

    def _forget(self, req: ForgetRequest, ctx: WriteContext) -> ForgetOutcome:
        if req.mode not in ("soft", "hard"):
            raise InvalidInput("mode is 'soft' or 'hard'")
        # Stores that could not be searched: "nothing matched" is then not the whole answer.
        unread = self.service.unread_warnings([req.scope] if req.scope else None)
        try:
            targets = self.find(req, ctx)
        except NotFound:
            return ForgetOutcome(
                [], req.mode, f"no memory {req.id}; nothing was deleted", warnings=unread
            )
        if not targets:
            return ForgetOutcome([], req.mode, self._nothing(req, ctx), warnings=unread)
        candidates = [candidate_json(n) for n in targets]
        if ctx.is_agent:
            # The user pinned it: agents never forget it (the user still can).
            for pinned in self.service.controls.pinned_among(targets)[:1]:
                raise pinned_error(pinned.id)
            verdict = None
            kind: Literal["hard_delete", "forget_many", "write"] = "write"
            if req.mode == "hard":
                verdict, kind = (
                    Verdict("pending", "hard_delete", RULE_TEXT["hard_delete"]),
                    "hard_delete",
                )
            elif len(targets) > 1:
                verdict, kind = (
                    Verdict("pending", "forget_many", RULE_TEXT["forget_many"]),
                    "forget_many",
                )
            elif sensitive_kinds(targets[0]):
                verdict = Verdict("pending", "sensitive_delete", RULE_TEXT["sensitive_delete"])
            if verdict is not None:
                store = self.service.store_for_scope(targets[0].scope)
                with store.write() as w:
                    held = Governor(self.service)._hold_in(
                        w, kind, "delete", None, [n.id for n in targets], verdict, ctx, req.reason
                    )
                return ForgetOutcome(
                    [],
                    req.mode,
                    f"{verdict.reason}: ask the user to confirm (it waits in their inbox); nothing was deleted yet",
                    requires_confirmation=True,
                    pending_id=held.pending_id,
                    candidates=candidates,
                )
        deleted, warnings = self.execute(
            targets,
            req.mode,
            actor=ctx.actor,
            reason=req.reason,
            cascade_messages=req.cascade_messages,
        )
        return ForgetOutcome(
            deleted,
            req.mode,
            f"forgot {len(deleted)} memor{'y' if len(deleted) == 1 else 'ies'}",
            warnings=warnings,
        )

    def _nothing(self, req: ForgetRequest, ctx: WriteContext) -> str:
        """Why a request found nothing to delete: for an id the caller may see, what
        state the memory is in (so an agent can tell the user, or ask again)."""
        nothing = "no matching memory; nothing was deleted"
        if req.id is None:
            return nothing
        node = self.service.get_node(req.id)
        frame = MemoryQuery(
            session_id=ctx.session_id, user_id=ctx.user_id, workspace_id=ctx.workspace_id
        )
        if node is None or (ctx.is_agent and not visible(node, frame)):
            return nothing
        if node.status == "deleted":
            return f"memory {node.id} is already deleted (mode 'hard' removes it for good); nothing was deleted"
        if node.status == "superseded":
            head = self.service.head_of(node.id)
            return f"memory {node.id} is an old version; forget its current version {head.id}; nothing was deleted"
        return nothing

    def _versions(self, node: MemoryNode) -> list[MemoryNode]:
        """Every version of ``node``'s memory: its chain, oldest first, then any version
        off it (a memory edited on two machines branched; an import marked one branch
        superseded, and the chain goes on through the other)."""
        chain = self.service.chain(node.id)
        known = {v.id for v in chain}
        for name, ids in chain_closure(self.service, known).items():
            if missing := sorted(ids - known):
                store = (
                    self.service.workspace_store if name == "workspace" else self.service.user_store
                )
                with store.read() as r:
                    chain += list(r.iter_nodes_by_id(missing))
        return chain

    def _sessions_of(self, chains: list[list[MemoryNode]], message_ids: list[str]) -> set[str]:
        """The sessions a memory was said in: its own, and its source messages'."""
        sessions = {v.session_id for chain in chains for v in chain if v.session_id}
        store = self.service.workspace_store
        if message_ids and store.health.readable:
            with store.read() as r:
                sessions |= {m.session_id for m in r.get_messages(message_ids)}
        return sessions

    def _unlist(
        self, chains: list[list[MemoryNode]], sessions: set[str], touched: set[int]
    ) -> None:
        """A summary lists the memories written from its messages by title, and the later
        links carry the lists forward: a memory deleted for good leaves them all."""
        store = self.service.workspace_store
        titles = {v.title for chain in chains for v in chain}
        if not sessions or not titles or not store.health.writable:
            return
        with store.write() as w:
            if w.unlist_from_summaries(titles, sessions):
                touched.add(id(store))

    def _scrub_elsewhere(
        self, deleted: dict[int, list[str]], touched: set[int], *, actor: str
    ) -> None:
        """A store can refer to memories deleted for good in the other store: a proposal
        to move a session memory into the user's scope waits in the user store, its audit
        row quoting the agent. Settle such proposals and scrub their text and audit there
        too, as ``delete_in`` did in the deleted memory's own store."""
        for _, store in self.service.stores():
            others = [i for key, ids in deleted.items() if key != id(store) for i in ids]
            if not others or not store.health.writable:
                continue
            with store.read() as r:
                waiting = [p for p in r.pending_about(others) if p.operation != "delete"]
                mentioned = bool(waiting or r.audit_ids_for_nodes(others))
            if not mentioned:
                continue
            with store.write() as w:
                for item in waiting:
                    settle_pending(
                        w,
                        item,
                        reason="no longer applies: the memory it would change was deleted for good",
                        actor=actor,
                        at=self.service.now(),
                    )
                w.redact_references(others)
            touched.add(id(store))

    def execute(
        self,
        targets: list[MemoryNode],
        mode: Mode,
        *,
        actor: str,
        reason: str,
        cascade_messages: bool = False,
    ) -> tuple[list[str], list[str]]:
        """Delete now (already permitted): soft per node, or hard for whole chains. Returns (ids, warnings)."""
        governor = Governor(self.service)
        deleted: list[str] = []
        warnings: list[str] = []
        if mode == "soft":
            for node in targets:
                with self.service.store_for_scope(node.scope).write() as w:
                    current = w.get_node(node.id)
                    if current is None or current.status == "deleted":
                        continue
                    governor.apply_status(w, current, "deleted", actor, reason)
                    deleted.append(node.id)
            return deleted, warnings
        chains = [self._versions(node) for node in targets]
        message_ids = [m for chain in chains for v in chain for m in v.source_message_ids]
        touched: set[int] = set()
        # Read before the messages may go: the sessions whose summaries list the memories.
        sessions = self._sessions_of(chains, message_ids)
        # A migration backup is a copy of the file from before: the memory is in it too.
        # The backups go first: after the rows nothing would name what they still hold
        # (a process killed in between left the memory there for good).
        markers = [
            *(v.id for chain in chains for v in chain),
            *(message_ids if cascade_messages else []),
        ]
        removed_backups, _ = clear_backups(
            [store for _, store in self.service.stores()], ids=markers, remove=True
        )
        if removed_backups:
            warnings.append(
                f"removed {len(removed_backups)} migration backups that held the deleted data"
            )
        if cascade_messages and message_ids:
            # The messages first: a crash after them leaves the memories, which a second
            # delete finds again; the other way round nothing would name the messages.
            removed, stale = self.service.delete_messages(message_ids, actor=actor, reason=reason)
            if removed:
                warnings.append(
                    f"deleted {removed} source messages; {stale} summaries marked stale"
                )
            touched.add(id(self.service.workspace_store))
        deleted_in: dict[int, list[str]] = {}
        for chain in chains:
            by_store: dict[int, list[MemoryNode]] = {}
            for version in chain:
                by_store.setdefault(id(self.service.store_for_scope(version.scope)), []).append(
                    version
                )
            for versions in by_store.values():
                store = self.service.store_for_scope(versions[0].scope)
                with store.write() as w:
                    for version in versions:
                        if w.get_node(version.id) is not None:
                            delete_in(
                                w,
                                version,
                                mode="hard",
                                actor=actor,
                                reason=reason,
                                at=self.service.now(),
                            )
                            deleted.append(version.id)
                            deleted_in.setdefault(id(store), []).append(version.id)
                touched.add(id(store))
        self._scrub_elsewhere(deleted_in, touched, actor=actor)
        self._unlist(chains, sessions, touched)
        if deleted and clear_job_errors(self.service.workspace_store):
            touched.add(id(self.service.workspace_store))
        stores = [store for _, store in self.service.stores() if id(store) in touched]
        for store in stores:
            warnings += store.scrub()
        return deleted, warnings
