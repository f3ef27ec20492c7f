"""What the user does in the app or the CLI: create, edit (a new version), revert, expire,
delete, restore. Always actor ``user``, always through the governed write path, never
an in-place overwrite.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

from ekko_memory.errors import Conflict, InvalidInput
from ekko_memory.models import MemoryNode, MemoryNodeDraft
from ekko_memory.models.reasons import stored_reason
from ekko_memory.service import duplicates
from ekko_memory.service.forget import Forgetter
from ekko_memory.service.governance import CONTENT_FIELDS, Governor, WriteOutcome
from ekko_memory.service.permissions import ALLOW
from ekko_memory.service.write_plan import WriteContext, plan_node
from ekko_memory.store import marks

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService


class UserActions:
    """User-initiated changes; each returns the governed outcome."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    def _ctx(self, node: MemoryNode | None = None, **ids: str | None) -> WriteContext:
        return WriteContext(
            actor="user",
            session_id=ids.get("session_id") or (node.session_id if node else None),
            user_id=ids.get("user_id") or (node.user_id if node else None),
            workspace_id=ids.get("workspace_id") or (node.workspace_id if node else None),
            source_message_ids=list(node.source_message_ids) if node else [],
        )

    def create(
        self,
        draft: MemoryNodeDraft | dict[str, Any],
        *,
        user_id: str | None = None,
        workspace_id: str | None = None,
        session_id: str | None = None,
        reason: str = "created by the user",
    ) -> WriteOutcome:
        """A new memory written by hand."""
        d = _draft(draft)
        ctx = self._ctx(user_id=user_id, workspace_id=workspace_id, session_id=session_id)
        return Governor(self.service).propose("create", d, ctx, reason=reason)

    def edit(
        self,
        node_id: str,
        changes: MemoryNodeDraft | dict[str, Any],
        *,
        reason: str = "edited by the user",
    ) -> WriteOutcome:
        """A new version of ``node_id`` with ``changes``, superseding it."""
        d = _draft(changes)
        node = self.service.head_of(node_id)
        if node.id != node_id:
            raise Conflict(
                f"memory {node_id} is an old version; edit its current version {node.id}"
            ).because("node.old_version", id=node_id, head=node.id)
        return Governor(self.service).propose(
            "update", d, self._ctx(node), target_id=node_id, reason=reason
        )

    def revert(self, version_id: str, *, reason: str | None = None) -> WriteOutcome:
        """Make an older version the content of a new head (nothing is rewritten)."""
        old, _ = self.service.locate(version_id)
        head = self.service.head_of(version_id)
        if head.id == old.id:
            raise InvalidInput("this is already the current version").because(
                "node.already_current"
            )
        if head.status == "deleted":
            raise Conflict("the memory is deleted; restore it first").because("node.restore_first")
        draft = MemoryNodeDraft.model_validate({f: getattr(old, f) for f in CONTENT_FIELDS})
        if old.expires_at is not None and old.expires_at <= self.service.now():
            draft.expires_at = None
        ctx = self._ctx(old)
        cand = plan_node(self.service.registry, draft, ctx, self.service.now(), base=head)
        cand.node = cand.node.model_copy(update={"source_message_ids": old.source_message_ids})
        # The version's own time (its updated_at moved when it was superseded), in UTC.
        text = (
            reason or f"reverted to the version of {old.created_at:%Y-%m-%d %H:%M} UTC ({old.id})"
        )
        return Governor(self.service).write_replacement(head, cand, ctx, text, ALLOW)

    def expire(self, node_id: str, *, reason: str = "expired by the user") -> WriteOutcome:
        """Mark a memory expired now."""
        node, _ = self.service.locate(node_id)
        return Governor(self.service).propose(
            "expire", MemoryNodeDraft(), self._ctx(node), target_id=node_id, reason=reason
        )

    def delete(
        self,
        node_id: str,
        mode: Literal["soft", "hard"] = "soft",
        *,
        reason: str = "deleted by the user",
        cascade_messages: bool = False,
    ) -> list[str]:
        """Soft delete one memory, or hard delete it with every version. Returns deleted ids."""
        node, _ = self.service.locate(node_id)
        deleted, _ = Forgetter(self.service).execute(
            [node], mode, actor="user", reason=reason, cascade_messages=cascade_messages
        )
        return deleted

    def restore(self, node_id: str, *, reason: str = "restored by the user") -> WriteOutcome:
        """Bring a soft-deleted memory back (it must still be the newest version)."""
        node, _ = self.service.locate(node_id)
        if node.status != "deleted":
            raise InvalidInput(f"memory {node_id} is {node.status}, not deleted")
        if self.service.head_of(node_id).id != node_id:
            raise Conflict("a newer version exists; restore that one instead").because(
                "node.newer_version_exists"
            )
        now = self.service.now()
        with self.service.store_for_scope(node.scope).write() as w:
            status = (
                "expired" if node.expires_at is not None and node.expires_at <= now else "active"
            )
            w.set_node_status(node.id, status, now)
            w.add_audit(
                "restore", actor="user", reason=reason, node=node, at=now, payload={"to": status}
            )
        return WriteOutcome(True, "restored", f"restored ({status})", node_id=node_id)

    # --- what agents may do: pins ----------------------------------------------------

    def pin(self, node_id: str, *, reason: str | None = None) -> bool:
        """Pin a memory: agents (tool calls, the extractor) may read it but never change,
        supersede, expire, delete or forget it (refused with reason code ``node.pinned``);
        you still can, and its new versions stay pinned. Audited. False when it was
        pinned already."""
        return self._pin(node_id, True, reason)

    def unpin(self, node_id: str, *, reason: str | None = None) -> bool:
        """Unpin a memory (audited); False when it was not pinned."""
        return self._pin(node_id, False, reason)

    def is_pinned(self, node_id: str) -> bool:
        """Whether the memory ``node_id`` is pinned."""
        node, _ = self.service.locate(node_id)
        return self.service.controls.pinned_at(node) is not None

    def pinned(self) -> dict[str, datetime]:
        """Every pinned memory's id (its current version), with when it was pinned."""
        return self.service.controls.pinned()

    def _pin(self, node_id: str, on: bool, reason: str | None) -> bool:
        node, _ = self.service.locate(node_id)
        if node.scope == "global":
            raise InvalidInput("global memories ship with the app and are read-only").because(
                "node.global_read_only"
            )
        if on and node.status == "superseded":
            head = self.service.head_of(node_id)
            raise Conflict(
                f"memory {node_id} is an old version; pin its current version {head.id}"
            ).because("node.old_version", id=node_id, head=head.id)
        if on and node.status == "deleted":
            raise Conflict(f"memory {node_id} is deleted").because("node.deleted", id=node_id)
        now = self.service.now()
        with self.service.store_for_scope(node.scope).write() as w:
            if on:
                changed = marks.put_mark(w.conn, marks.PIN, node.id, "", actor="user", at=now)
            else:
                changed = marks.remove_mark(w.conn, marks.PIN, node.id)
            if changed:
                w.add_audit(
                    "pin" if on else "unpin",
                    actor="user",
                    reason=reason or stored_reason("user.pinned" if on else "user.unpinned"),
                    node=node,
                    at=now,
                    payload={"pinned": on},
                )
        return changed

    # --- duplicates -----------------------------------------------------------------

    def merge_duplicates(self, keep_id: str, drop_id: str) -> WriteOutcome:
        """Merge two duplicates: ``drop_id`` is superseded by ``keep_id`` (its history goes
        before the kept one's, its source messages join it; a pin it had moves to the
        kept memory). Audited; ``unmerge(drop_id)`` undoes it."""
        return duplicates.merge(self.service, keep_id, drop_id)

    def unmerge(self, drop_id: str) -> WriteOutcome:
        """Undo ``merge_duplicates(…, drop_id)``: it is its own memory again (audited)."""
        return duplicates.unmerge(self.service, drop_id)

    def dismiss_duplicates(self, a: str, b: str) -> bool:
        """Say ``a`` and ``b`` are no duplicates: the pair stops appearing in
        ``mem.duplicates()`` (kept in the stores, following both to new versions;
        audited). False when it was dismissed already."""
        return duplicates.dismiss(self.service, a, b)

    def undismiss_duplicates(self, a: str, b: str) -> bool:
        """Take back ``dismiss_duplicates(a, b)`` (audited); False when it was not dismissed."""
        return duplicates.dismiss(self.service, a, b, undo=True)


def _draft(fields: MemoryNodeDraft | dict[str, Any]) -> MemoryNodeDraft:
    """The fields as a draft; fields that fail validation are an InvalidInput (nothing written)."""
    if isinstance(fields, MemoryNodeDraft):
        return fields
    try:
        return MemoryNodeDraft.model_validate(fields)
    except ValidationError as e:
        raise InvalidInput.of("invalid memory", e) from e
