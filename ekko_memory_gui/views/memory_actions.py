"""The user's changes to memories, as flows over dialogs and operations: new, edit, revert,
delete (soft and permanent), restore, undo. The main window's menus, shortcuts and
detail pane buttons call these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ekko_memory import NotFound
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.operations import memory_ops
from ekko_memory_gui.operations.memory_ops import Outcome
from ekko_memory_gui.operations.undo import UndoEntry
from ekko_memory_gui.qt import QObject, QWidget, Signal
from ekko_memory_gui.views.dialogs.hard_delete_dialog import HardDeleteDialog
from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog


class MemoryActions(QObject):
    """Runs each flow; ``select`` asks the window to show a memory, ``message`` to say something."""

    select = Signal(str)
    message = Signal(str)

    def __init__(self, controller: AppController, parent_widget: QWidget) -> None:
        super().__init__(parent_widget)
        self.controller = controller
        self.parent_widget = parent_widget
        self.dialogs = controller.dialogs
        self.undo_stack = controller.undo

    def _rules(self) -> Any:
        return self.controller.runner.memory.registry.rules

    async def _edit_loop(self, dialog: MemoryEditDialog, save: Callable[[], Any]) -> Outcome | None:
        """Show the dialog until the core accepts what it holds (or the user cancels)."""
        try:
            while True:
                if not await self.dialogs.run(dialog):
                    return None
                outcome: Outcome = await save()
                if outcome.accepted:
                    return outcome
                dialog.show_error(outcome.text)
        finally:
            dialog.deleteLater()

    async def _read_only(self, title: str) -> None:
        """Say that global memories cannot be changed (Enter, Del and Shift+Del reach them
        from the list, where no button is hidden)."""
        await self.dialogs.error(
            self.parent_widget,
            title,
            self.tr("Global memories ship with the app and are read-only."),
        )

    async def _chain(self, node_id: str) -> list[Any]:
        """The memory's versions, or none (with a note) when it is gone for good."""
        try:
            return await memory_ops.load_chain(self.controller, node_id)
        except NotFound:  # deleted permanently by another program a moment ago
            self.message.emit(self.tr("This memory no longer exists: it was deleted permanently."))
            return []

    # --- create / edit --------------------------------------------------------------

    async def new_memory(self, defaults: dict[str, Any] | None = None) -> Outcome | None:
        """Create a memory by hand (actor user)."""
        dialog = MemoryEditDialog(
            self._rules(), mode="create", defaults=defaults, parent=self.parent_widget
        )
        outcome = await self._edit_loop(
            dialog, lambda: memory_ops.create(self.controller, _draft(dialog.values()))
        )
        if outcome is None or outcome.node_id is None:
            return outcome
        created = outcome.node_id
        if outcome.status != "duplicate":
            self.undo_stack.push(
                UndoEntry(
                    self.tr("Undo new memory “{title}”").format(title=dialog.values()["title"]),
                    lambda: self._trash_current(created),
                )
            )
        self.select.emit(created)
        return outcome

    async def edit(self, node_id: str) -> Outcome | None:
        """A new version of the memory (the old one is superseded, never overwritten)."""
        chain = await self._chain(node_id)
        node = next((n for n in chain if n.id == node_id), None)
        if node is None:
            return None
        if node.scope == "global":
            # Enter on a global row opened the form, its scope showing "session" (the form
            # has no global scope), and saving said "a session-scope memory needs a session".
            await self._read_only(self.tr("Edit memory"))
            return None
        if chain[-1].id != node_id or node.status == "deleted":
            # Enter on a row of Including history or the trash: the form could only be
            # refused after it was filled in.
            self.message.emit(
                self.tr(
                    "This is an earlier version of “{title}”: edit its current version, or "
                    "use Revert to this."
                ).format(title=chain[-1].title)
                if chain[-1].id != node_id
                else self.tr("“{title}” is in the trash: restore it first.").format(
                    title=node.title
                )
            )
            return None
        dialog = MemoryEditDialog(
            self._rules(), mode="edit", node=node.to_json(), parent=self.parent_widget
        )
        target = node_id

        async def save() -> Outcome:
            nonlocal target
            outcome = await memory_ops.edit(self.controller, target, dialog.changes())
            if outcome.accepted or outcome.rule != "conflict":
                return outcome
            # Another program (the agent, the CLI) made a newer version while the form was
            # open: keep what the user typed and offer to apply it to that version — the
            # fields the user did not touch keep the newer version's values.
            chain = await memory_ops.load_chain(self.controller, target)
            newest = chain[-1] if chain else None
            if newest is None or newest.id == target or newest.status == "deleted":
                return outcome
            target = newest.id
            return Outcome(
                accepted=False,
                status="changed",
                reason=self.tr(
                    "This memory was changed meanwhile (now “{title}”). Your changes are "
                    "still here: save again to apply them to the newest version."
                ).format(title=newest.title),
            )

        outcome = await self._edit_loop(dialog, save)
        if outcome is None:
            return None
        if outcome.status == "duplicate":
            self.message.emit(self.tr("Nothing changed."))
            return outcome
        old = outcome.superseded_id or node_id
        made = outcome.node_id
        self.undo_stack.push(
            UndoEntry(
                self.tr("Undo edit of “{title}”").format(title=node.title),
                lambda: self._revert_unless_changed(old, made),
            )
        )
        if outcome.node_id:
            self.select.emit(outcome.node_id)
        self.message.emit(self.tr("Saved as a new version; the earlier one is in the history."))
        return outcome

    async def revert(self, version_id: str) -> Outcome | None:
        """Make an older version the current one again (a new version)."""
        outcome = await memory_ops.revert(self.controller, version_id)
        if not outcome.accepted:
            await self.dialogs.error(self.parent_widget, self.tr("Revert"), outcome.text)
            return outcome
        previous = outcome.superseded_id
        made = outcome.node_id
        if previous:
            self.undo_stack.push(
                UndoEntry(
                    self.tr("Undo revert"),
                    lambda: self._revert_unless_changed(previous, made),
                )
            )
        if outcome.node_id:
            self.select.emit(outcome.node_id)
        return outcome

    # --- delete / restore -----------------------------------------------------------

    async def soft_delete(self, node_id: str) -> list[str]:
        """Move to the trash (undo restores it)."""
        chain = await self._chain(node_id)
        node = next((n for n in chain if n.id == node_id), None)
        if node is None or node.status == "deleted":
            return []
        if chain[-1].id != node_id:
            # An earlier version (Including history): trashing it alone could never be
            # undone or restored (the core restores only a chain's newest version).
            self.message.emit(
                self.tr(
                    "This is an earlier version of “{title}”: select its current version to "
                    "move the memory to the trash."
                ).format(title=chain[-1].title)
            )
            return []
        if node.scope == "global":
            await self._read_only(self.tr("Delete"))
            return []
        deleted = await memory_ops.soft_delete(self.controller, node_id)
        if node_id in deleted:
            self.undo_stack.push(
                UndoEntry(
                    self.tr("Undo delete of “{title}”").format(title=node.title),
                    lambda: memory_ops.restore(self.controller, node_id),
                    select_after=node_id,
                )
            )
            self.message.emit(self.tr("Moved to the trash. Ctrl+Z brings it back."))
        return deleted

    async def hard_delete(self, node_id: str) -> list[str]:
        """Delete for good, after the user typed the title (or DELETE)."""
        try:
            chain = await memory_ops.load_chain(self.controller, node_id)
        except Exception as e:
            await self.dialogs.error(
                self.parent_widget, self.tr("Delete permanently"), labels.error_text(e)
            )
            return []
        if not chain:
            return []
        if chain[-1].scope == "global":
            await self._read_only(self.tr("Delete permanently"))
            return []
        dialog = HardDeleteDialog(chain, self.parent_widget)
        try:
            if not await self.dialogs.run(dialog) or not dialog.confirmed():
                return []
            with_messages = dialog.with_messages.isChecked()
        finally:
            dialog.deleteLater()
        # A hard delete also compacts the store (on a server: VACUUM and an index rebuild,
        # a second or more): say so while it runs, beside the status line's busy bar.
        self.message.emit(self.tr("Deleting permanently…"))
        deleted = await memory_ops.hard_delete(
            self.controller, chain[-1].id, with_messages=with_messages
        )
        self.message.emit(self.tr("Deleted permanently: {n} versions.").format(n=len(deleted)))
        return deleted

    async def restore(self, node_id: str) -> Outcome | None:
        outcome = await memory_ops.restore(self.controller, node_id)
        if not outcome.accepted:
            await self.dialogs.error(self.parent_widget, self.tr("Restore"), outcome.text)
            return outcome
        self.undo_stack.push(
            UndoEntry(self.tr("Undo restore"), lambda: self._trash_current(node_id))
        )
        self.select.emit(node_id)
        self.message.emit(self.tr("Restored."))
        return outcome

    # --- undo -----------------------------------------------------------------------

    async def undo(self) -> bool:
        """Take back the last edit made in the app."""
        entry = self.undo_stack.pop()
        if entry is None:
            return False
        try:
            result = await entry.undo()
        except NotFound:  # deleted permanently since (here or by another program)
            self.message.emit(self.tr("Not undone: the memory has been deleted permanently since."))
            return False
        if isinstance(result, Outcome) and not result.accepted:
            self.message.emit(self.tr("Not undone: {reason}").format(reason=result.text))
            return False
        target = entry.select_after or getattr(result, "node_id", None)
        if isinstance(target, str):
            self.select.emit(target)
        self.message.emit(self.tr("Undone."))
        return True

    async def _trash_current(self, node_id: str) -> list[str]:
        """Undo a create or a restore: the memory goes to the trash as it is now (an edit
        since made a newer version; deleting the one first made would leave that active)."""
        chain = await memory_ops.load_chain(self.controller, node_id)
        if not chain or chain[-1].status == "deleted":
            return []
        return await memory_ops.soft_delete(self.controller, chain[-1].id)

    async def _revert_unless_changed(self, version_id: str, made: str | None) -> Outcome:
        """Undo an edit or a revert: bring ``version_id`` back, unless the memory changed
        again since (another program, the agent): overwriting that change unasked would
        lose it, so the undo is refused and says where to look."""
        chain = await memory_ops.load_chain(self.controller, version_id)
        head = chain[-1] if chain else None
        if made is not None and head is not None and head.id != made:
            return Outcome(
                accepted=False,
                status="unchanged",
                reason=self.tr(
                    "“{title}” changed again since; its history can bring back an older version"
                ).format(title=head.title),
            )
        return await memory_ops.revert(self.controller, version_id)


def _draft(values: dict[str, Any]) -> dict[str, Any]:
    """Leave out empty fields so the core fills its defaults (category from the key…)."""
    return {k: v for k, v in values.items() if v not in (None, "", [])}
