"""The inbox: what waits for the user, as cards; decisions one by one or in a batch."""

from __future__ import annotations

import asyncio
from typing import Any

from ekko_memory import MemoryNode, PendingItem
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.labels.sentences import category_label
from ekko_memory_gui.models.pending_model import PendingListModel, category_of
from ekko_memory_gui.operations import memory_ops, pending_ops
from ekko_memory_gui.operations.changes import ChangeSet
from ekko_memory_gui.operations.pending_ops import InboxEntry
from ekko_memory_gui.qt import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.icons import icon
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.dialogs.hard_delete_dialog import HardDeleteDialog
from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog
from ekko_memory_gui.views.dialogs.reject_sensitive_dialog import RejectSensitiveDialog
from ekko_memory_gui.views.inbox_batch_text import (
    batch_effects,
    sensitive_entries,
    sensitive_kinds,
)
from ekko_memory_gui.views.pending_card import PendingCard
from ekko_memory_gui.views.widgets import chain_tabs, text_label

ALL = ""


class InboxView(QWidget):
    """Cards of waiting items; emits ``count_changed`` for the toolbar badge."""

    count_changed = Signal(int)
    decided = Signal(str, str)  # pending id, "approved" | "rejected"

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.runner = controller.runner
        self.model = PendingListModel(self)
        self.entries: list[InboxEntry] = []
        self.cards: list[PendingCard] = []
        self._loading: asyncio.Task[None] | None = None
        self._again = False

        title = QLabel(self.tr("Inbox"))
        title.setProperty("role", "title")
        self.count_label = text_label("", role="muted", wrap=False)
        self.count_label.setObjectName("inboxCount")
        self.category_combo = QComboBox()
        self.category_combo.setObjectName("inboxCategory")
        self.category_combo.currentIndexChanged.connect(lambda _i: self._rebuild_cards())
        self.approve_shown = QPushButton(icon("approve"), self.tr("Approve all shown"))
        self.approve_shown.setObjectName("approveShown")
        self.reject_shown = QPushButton(icon("reject"), self.tr("Reject all shown"))
        self.reject_shown.setObjectName("rejectShown")
        self.approve_selected = QPushButton(self.tr("Approve selected"))
        self.approve_selected.setObjectName("approveSelected")
        self.reject_selected = QPushButton(self.tr("Reject selected"))
        self.reject_selected.setObjectName("rejectSelected")
        self.approve_shown.clicked.connect(lambda: self._batch(self._shown_ids(), True))
        self.reject_shown.clicked.connect(lambda: self._batch(self._shown_ids(), False))
        self.approve_selected.clicked.connect(lambda: self._batch(self._selected_ids(), True))
        self.reject_selected.clicked.connect(lambda: self._batch(self._selected_ids(), False))

        head = QHBoxLayout()
        head.addWidget(title)
        head.addWidget(self.count_label)
        head.addStretch(1)
        head.addWidget(text_label(self.tr("Category"), role="muted", wrap=False, selectable=False))
        head.addWidget(self.category_combo)
        bar = QHBoxLayout()
        bar.addStretch(1)
        for b in (
            self.approve_selected,
            self.reject_selected,
            self.approve_shown,
            self.reject_shown,
        ):
            bar.addWidget(b)

        self.list_box = QWidget()
        self.list_layout = QVBoxLayout(self.list_box)
        self.list_layout.setContentsMargins(0, 0, 0, 0)
        self.list_layout.setSpacing(10)
        self.list_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.list_box)
        scroll.setAccessibleName(self.tr("Waiting items"))
        self.empty = text_label(
            self.tr(
                "Nothing waits for you.\n\nWhen the agent wants to keep something you did not "
                "explicitly ask it to remember, touches sensitive data, overwrites a memory it "
                "was sure about, or wants to delete something for good, it asks here first."
            ),
            role="empty",
        )
        self.empty.setObjectName("inboxEmpty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 12, 18, 12)
        layout.addLayout(head)
        layout.addLayout(bar)
        layout.addWidget(self.empty, 1)
        layout.addWidget(scroll, 1)
        self.scroll = scroll
        self._update_buttons()

    # --- loading --------------------------------------------------------------------

    def reload(self) -> asyncio.Task[None] | None:
        if not self.runner.attached:
            return None
        if self._loading is not None and not self._loading.done():
            self._again = True
            return self._loading
        self._loading = self.runner.spawn(self._reload(), self.tr("Loading the inbox"))
        return self._loading

    async def _reload(self) -> None:
        while True:
            self._again = False
            entries = await pending_ops.load_inbox(self.controller)
            self.set_entries(entries)
            if not self._again:
                return

    def set_entries(self, entries: list[InboxEntry]) -> None:
        self.entries = entries
        self.model.set_items([e.item for e in entries])
        current = self.category_combo.currentData()
        self.category_combo.blockSignals(True)
        self.category_combo.clear()
        self.category_combo.addItem(self.tr("All categories"), ALL)
        for c in self.model.categories():
            # Shown in the UI's language; the raw path stays the filter's key.
            shown = " / ".join(category_label(p) for p in c.split(" / "))
            self.category_combo.addItem(shown, c)
        self.category_combo.setCurrentIndex(max(0, self.category_combo.findData(current)))
        self.category_combo.blockSignals(False)
        self._rebuild_cards()
        n = len(entries)
        self.count_label.setText(self.tr("{n} waiting").format(n=n) if n else "")
        self.count_changed.emit(n)

    def _rebuild_cards(self) -> None:
        for card in self.cards:
            card.setParent(None)
            card.deleteLater()
        self.cards = []
        category = self.category_combo.currentData() or ALL
        for entry in self.entries:
            if category != ALL and category_of(entry.item) != category:
                continue
            card = PendingCard(entry)
            card.approve.connect(lambda pid: self._spawn(self.approve(pid)))
            card.reject.connect(lambda pid: self._spawn(self.reject(pid)))
            card.edit_and_approve.connect(lambda pid: self._spawn(self.edit_and_approve(pid)))
            card.selection_changed.connect(self._update_buttons)
            self.list_layout.insertWidget(self.list_layout.count() - 1, card)
            self.cards.append(card)
        # Tab in reading order: the cards, top to bottom, after the batch buttons above.
        chain_tabs(self.reject_shown, [w for c in self.cards for w in c.tab_widgets()])
        for card in self.cards:
            fill_accessible(card)
        self.empty.setVisible(not self.entries)
        self.scroll.setVisible(bool(self.entries))
        self._update_buttons()

    def apply_changes(self, changes: ChangeSet) -> None:
        if changes.pending or changes.everything or changes.node_ids:
            self.reload()

    # --- decisions ------------------------------------------------------------------

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        return self.runner.spawn(coro, self.tr("Deciding"))

    def entry(self, pending_id: str) -> InboxEntry | None:
        return next((e for e in self.entries if e.item.id == pending_id), None)

    def card(self, pending_id: str) -> PendingCard | None:
        return next((c for c in self.cards if c.pending_id == pending_id), None)

    async def approve(self, pending_id: str) -> dict[str, Any] | None:
        entry = self.entry(pending_id)
        if entry is None:
            return None
        if entry.item.kind == "hard_delete" and entry.targets:
            if not await self._confirm_for_good(entry.targets, 1):
                return None
        elif entry.item.kind in ("hard_delete", "forget_many"):
            titles = "\n".join(f"• {t.title}" for t in entry.targets) or "—"
            ok = await self.controller.dialogs.confirm(
                self,
                self.tr("Approve deletion"),
                self.tr("These memories will be deleted{how}:\n{titles}").format(
                    how=self.tr(" permanently (this cannot be undone)")
                    if entry.item.kind == "hard_delete"
                    else "",
                    titles=titles,
                ),
                ok_label=self.tr("Delete"),
            )
            if not ok:
                return None
        result = await pending_ops.decide(self.controller, pending_id, approve=True)
        self.decided.emit(pending_id, "approved")
        await self._reload()
        return result

    async def _confirm_for_good(
        self,
        targets: list[MemoryNode],
        approvals: int,
        *,
        deleting: int | None = None,
        notes: list[str] | None = None,
    ) -> bool:
        """UI.md's hard delete confirmation for approvals that delete ``targets`` for good:
        the user types the title (one memory, one item) or DELETE. ``deleting`` of the
        ``approvals`` delete; ``notes`` say what the others do."""
        dialog = HardDeleteDialog(
            targets, self, approvals=approvals, deleting=deleting, notes=notes
        )
        try:
            return await self.controller.dialogs.run(dialog) and dialog.confirmed()
        finally:
            dialog.deleteLater()

    async def reject(self, pending_id: str) -> dict[str, Any] | None:
        entry = self.entry(pending_id)
        if entry is None:
            return None
        remove_from_log = False
        if sensitive_entries([entry]) and entry.item.source_message_ids:
            # Sensitive data: offer to take its words out of the conversation log too.
            dialog = RejectSensitiveDialog(
                str((entry.item.node or {}).get("title") or ""),
                sensitive_kinds([entry]) or self.tr("personal data"),
                len(entry.item.source_message_ids),
                self,
            )
            try:
                if not await self.controller.dialogs.run(dialog):
                    return None
                remove_from_log = dialog.remove_from_log.isChecked()
            finally:
                dialog.deleteLater()
        result = await pending_ops.decide(
            self.controller, pending_id, approve=False, remove_from_log=remove_from_log
        )
        self.decided.emit(pending_id, "rejected")
        await self._reload()
        return result

    async def edit_and_approve(self, pending_id: str) -> dict[str, Any] | None:
        entry = self.entry(pending_id)
        if entry is None or entry.item.node is None:
            return None
        dialog = MemoryEditDialog(
            self.runner.memory.registry.rules, mode="approve", node=entry.item.node, parent=self
        )
        try:
            while True:
                if not await self.controller.dialogs.run(dialog):
                    return None
                try:
                    result = await pending_ops.decide(
                        self.controller, pending_id, approve=True, edits=dialog.changes()
                    )
                except Exception as e:
                    now = await self._decided_item(pending_id)
                    if now is not None:  # another program decided it while the form was open
                        return await self._decided_elsewhere(now, dialog.changes())
                    # The core refused the edits: say why, let the user fix them.
                    dialog.show_error(labels.error_text(e))
                    continue
                self.decided.emit(pending_id, "approved")
                await self._reload()
                return result
        finally:
            dialog.deleteLater()

    async def _decided_item(self, pending_id: str) -> PendingItem | None:
        """The item if it is no longer pending (decided by another program), else None."""
        try:
            item = await pending_ops.load_item(self.controller, pending_id)
        except Exception:  # the store did not answer: the decision's own error says so
            return None
        return item if item is not None and item.status != "pending" else None

    async def _decided_elsewhere(
        self, item: PendingItem, edits: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The form's item was decided by another program while the user edited it: say
        so and close the form. When it was approved, the user's changes are not lost: they
        may be saved as a new version of the approved memory (the user wanted the memory
        with those changes). Returns the edit's result, or None."""
        await self._reload()
        title = self.tr("Already decided")
        text = self._decided_text(item)
        if item.status == "approved" and item.result_node_id and edits:
            ok = await self.controller.dialogs.confirm(
                self,
                title,
                text
                + "\n\n"
                + self.tr(
                    "Save your changes as a new version of the approved memory? "
                    "Otherwise they are discarded."
                ),
                ok_label=self.tr("Save as new version"),
            )
            if not ok:
                return None
            return await self._edit_approved(item.result_node_id, edits)
        if edits:
            text += "\n\n" + self.tr("Your changes were not saved.")
        await self.controller.dialogs.inform(self, title, text)
        return None

    def _decided_text(self, item: PendingItem) -> str:
        """“…” was approved/rejected by whom while the form was open, in the UI's words."""
        name = (item.node or {}).get("title") or item.id
        who = (
            self.tr("you, in another program (such as the command line)")
            if item.decided_by in (None, "user")
            else labels.actor_label(item.decided_by)
        )
        if item.status == "rejected" and labels.is_withdrawal(item.decision_code):
            # The user took it back in the conversation (the agent's chat), in their words.
            text = self.tr("“{name}” was withdrawn while you were editing it: {why}.")
            return text.format(name=name, why=labels.decision_text(item))
        if item.status == "approved":
            text = self.tr("“{name}” was approved by {who} while you were editing it.")
        elif item.status == "rejected":
            text = self.tr("“{name}” was rejected by {who} while you were editing it.")
        else:
            text = self.tr(
                "“{name}” is no longer waiting ({status}) — it changed while you were editing it."
            )
        return text.format(name=name, who=who, status=labels.status_label(item.status))

    async def _edit_approved(self, node_id: str, edits: dict[str, Any]) -> dict[str, Any] | None:
        """The user's changes as a new version of the memory the approval wrote (its
        current version: it may have moved on since)."""
        head = await self.runner.call(self.runner.memory.head_of, node_id)
        outcome = await memory_ops.edit(self.controller, head.id, edits)
        if not outcome.accepted:
            await self.controller.dialogs.error(
                self, self.tr("Your changes were not saved"), outcome.text
            )
            return None
        return {"nodeId": outcome.node_id, "status": outcome.status}

    def _item_name(self, pending_id: str) -> str:
        """An item as the user knows it from its card: the memory's title (or the titles a
        delete would take), not its pnd_… id."""
        entry = self.entry(pending_id)
        if entry is None:
            return pending_id
        title = (entry.item.node or {}).get("title") or "、".join(t.title for t in entry.targets)
        return f"“{title}”" if title else pending_id

    def _shown_ids(self) -> list[str]:
        return [c.pending_id for c in self.cards]

    def _selected_ids(self) -> list[str]:
        return [c.pending_id for c in self.cards if c.selected]

    def _update_buttons(self) -> None:
        any_selected = any(c.selected for c in self.cards)
        self.approve_selected.setEnabled(any_selected)
        self.reject_selected.setEnabled(any_selected)
        self.approve_shown.setEnabled(bool(self.cards))
        self.reject_shown.setEnabled(bool(self.cards))

    def _batch(self, ids: list[str], approve: bool) -> asyncio.Task[Any] | None:
        if not ids:
            return None
        return self._spawn(self.decide_batch(ids, approve))

    async def decide_batch(self, ids: list[str], approve: bool) -> pending_ops.BatchResult | None:
        """Approve or reject several items after one confirmation."""
        deletes = [
            e
            for e in self.entries
            if e.item.id in ids and e.item.kind in ("hard_delete", "forget_many")
        ]
        verb = self.tr("Approve") if approve else self.tr("Reject")
        text = (
            self.tr("{verb} this item?") if len(ids) == 1 else self.tr("{verb} {n} items?")
        ).format(verb=verb, n=len(ids))
        for_good = [t for e in deletes if e.item.kind == "hard_delete" for t in e.targets]
        chosen = [e for e in self.entries if e.item.id in ids]
        # What the batch does besides: saves (with sensitive data named), deletions.
        effects = batch_effects(chosen, approve) if len(ids) > 1 else []
        if approve and for_good:
            # Memories go for good: the typed confirmation of a hard delete, not a yes.
            others = [line for line in effects if line not in batch_effects(deletes, True)]
            if not await self._confirm_for_good(
                for_good, len(ids), deleting=len(deletes), notes=others
            ):
                return None
        else:
            if effects:
                text += "\n" + "\n".join(effects)
            elif approve and deletes:
                text += "\n" + self.tr("{n} of them delete memories.").format(n=len(deletes))
            if not await self.controller.dialogs.confirm(self, verb, text, ok_label=verb):
                return None
        result = await pending_ops.decide_many(self.controller, ids, approve=approve)
        for pid in result.done:
            self.decided.emit(pid, "approved" if approve else "rejected")
        if result.failed:
            await self.controller.dialogs.error(
                self,
                self.tr("Some decisions failed"),
                "\n".join(
                    f"{self._item_name(pid)}: {labels.error_text(why)}"
                    for pid, why in result.failed
                ),
            )
        await self._reload()
        return result
