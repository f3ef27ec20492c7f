"""The duplicates view: pairs of memories that say nearly the same (the core's
``mem.duplicates`` report), each with both sentences, its category and who wrote each;
Merge keeps the first and folds the second into it, "Not duplicates" hides the pair for
good, Undo takes the last of either back (``unmerge`` / ``undismiss_duplicates``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ekko_memory import DuplicatePair, EkkoMemoryError, MemoryNode
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.labels.sentences import author_text, category_text, node_sentence
from ekko_memory_gui.qt import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.widgets import text_label

if TYPE_CHECKING:
    from ekko_memory_gui.views.memory_controls import MemoryControls


def pair_text(pair: DuplicatePair) -> str:
    """Both sentences, the category, who wrote each, in the UI's language."""
    from ekko_memory_gui.qt import QCoreApplication as _Q

    def who(node: MemoryNode, written_by: str | None) -> str:
        # Who wrote it, as the list says it (You / The agent); the report's actor else.
        if node.origin:
            return author_text(node.origin)
        return labels.actor_label(written_by) if written_by else "—"

    category = category_text([pair.first.domain, *pair.first.category_path])
    return _Q.translate(
        "DuplicatesDialog", "“{a}” ({who_a})\n“{b}” ({who_b})\n{category} · {similar}% alike"
    ).format(
        a=node_sentence(pair.first),
        b=node_sentence(pair.second),
        who_a=who(pair.first, pair.first_written_by),
        who_b=who(pair.second, pair.second_written_by),
        category=category,
        similar=round(pair.similarity * 100),
    )


class DuplicatesDialog(QDialog):
    """The pairs, and Merge / Not duplicates / Undo on the pair chosen."""

    def __init__(self, controls: MemoryControls, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controls = controls
        self.pairs: list[DuplicatePair] = []
        # What Undo takes back: ("merge", drop_id) or ("dismiss", a, b).
        self.undo_stack: list[tuple[str, ...]] = []
        self.task: asyncio.Task[Any] | None = None
        self.setObjectName("duplicatesDialog")
        self.setWindowTitle(self.tr("Duplicates"))
        self.setMinimumWidth(520)
        layout = QVBoxLayout(self)
        layout.addWidget(
            text_label(
                self.tr(
                    "These memories say nearly the same. Merge keeps the first and folds "
                    "the second into it (its history stays); “Not duplicates” hides the pair."
                )
            )
        )
        self.list = QListWidget()
        self.list.setObjectName("duplicatesList")
        self.list.setAccessibleName(self.tr("Pairs of similar memories"))
        self.list.setAccessibleDescription(
            self.tr("Each pair: both sentences, who wrote each, the category")
        )
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        layout.addWidget(self.list, 1)
        self.empty = text_label(self.tr("No duplicates found."), role="muted")
        self.empty.setObjectName("duplicatesEmpty")
        layout.addWidget(self.empty)
        self.note = text_label("", role="muted")
        self.note.setObjectName("duplicatesNote")
        layout.addWidget(self.note)
        row = QHBoxLayout()
        self.merge_button = QPushButton(self.tr("Merge"))
        self.merge_button.setObjectName("mergeDuplicates")
        self.merge_button.setAccessibleDescription(
            self.tr("Keep the first memory and fold the second into it")
        )
        self.dismiss_button = QPushButton(self.tr("Not duplicates"))
        self.dismiss_button.setObjectName("dismissDuplicates")
        self.dismiss_button.setAccessibleDescription(
            self.tr("These two are different: stop showing this pair")
        )
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.setObjectName("undoDuplicates")
        self.undo_button.setAccessibleDescription(self.tr("Take back the last merge or dismissal"))
        for b in (self.merge_button, self.dismiss_button, self.undo_button):
            row.addWidget(b)
        row.addStretch(1)
        layout.addLayout(row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.merge_button.clicked.connect(lambda: self._run(self.merge_current()))
        self.dismiss_button.clicked.connect(lambda: self._run(self.dismiss_current()))
        self.undo_button.clicked.connect(lambda: self._run(self.undo_last()))
        self.list.currentRowChanged.connect(lambda _r: self._enable())
        fill_accessible(self)
        self._enable()
        self.list.setFocus()  # arrows choose a pair, Tab reaches Merge

    def _run(self, coro: Any) -> asyncio.Task[Any]:
        self.task = asyncio.ensure_future(coro)
        return self.task

    def show_pairs(self, pairs: list[DuplicatePair]) -> None:
        """Fill the list (the first pair chosen)."""
        self.pairs = list(pairs)
        self.list.clear()
        for p in self.pairs:
            item = QListWidgetItem(pair_text(p))
            item.setData(Qt.ItemDataRole.AccessibleTextRole, pair_text(p).replace("\n", "; "))
            self.list.addItem(item)
        if self.pairs:
            self.list.setCurrentRow(0)
        self.empty.setVisible(not self.pairs)
        self._enable()

    def _enable(self) -> None:
        chosen = 0 <= self.list.currentRow() < len(self.pairs)
        self.merge_button.setEnabled(chosen)
        self.dismiss_button.setEnabled(chosen)
        self.undo_button.setEnabled(bool(self.undo_stack))

    def current(self) -> DuplicatePair | None:
        row = self.list.currentRow()
        return self.pairs[row] if 0 <= row < len(self.pairs) else None

    async def _act(self, fn: Any, *args: Any, done: str) -> bool:
        runner = self.controls.runner
        try:
            await runner.call(fn, *args)
        except EkkoMemoryError as e:
            self.note.setText(labels.error_text(e) if hasattr(labels, "error_text") else str(e))
            return False
        await self.controls.controller.refresh_after_write()
        await self.reload()
        self.note.setText(done)
        return True

    async def reload(self) -> None:
        mem = self.controls.runner.memory
        try:
            pairs = await self.controls.runner.call(mem.duplicates)
        except EkkoMemoryError as e:
            self.show_pairs([])
            self.empty.setText(str(e))
            return
        self.show_pairs(pairs)

    async def merge_current(self) -> bool:
        pair = self.current()
        if pair is None:
            return False
        actions = self.controls.runner.memory.actions
        ok = await self._act(
            actions.merge_duplicates, pair.first.id, pair.second.id, done=self.tr("Merged.")
        )
        if ok:
            self.undo_stack.append(("merge", pair.second.id))
            self._enable()
        return ok

    async def dismiss_current(self) -> bool:
        pair = self.current()
        if pair is None:
            return False
        actions = self.controls.runner.memory.actions
        ok = await self._act(
            actions.dismiss_duplicates,
            pair.first.id,
            pair.second.id,
            done=self.tr("Marked as not duplicates."),
        )
        if ok:
            self.undo_stack.append(("dismiss", pair.first.id, pair.second.id))
            self._enable()
        return ok

    async def undo_last(self) -> bool:
        if not self.undo_stack:
            return False
        last = self.undo_stack.pop()
        actions = self.controls.runner.memory.actions
        if last[0] == "merge":
            ok = await self._act(actions.unmerge, last[1], done=self.tr("Merge undone."))
        else:
            ok = await self._act(
                actions.undismiss_duplicates, last[1], last[2], done=self.tr("Shown again.")
            )
        self._enable()
        return ok


async def run_duplicates(controls: MemoryControls) -> DuplicatesDialog:
    """Open the duplicates view over the core's report."""
    dialog = DuplicatesDialog(controls, controls.window)
    await dialog.reload()
    try:
        await controls.controller.dialogs.run(dialog)
    finally:
        dialog.deleteLater()
    return dialog
