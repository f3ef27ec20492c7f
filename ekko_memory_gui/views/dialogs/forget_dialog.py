"""Forget everything about a word (or the selected memories), or delete all my memories:
a plain preview from the core ("3 memories, 6 messages, 2 summaries"), then a typed
confirmation, then Forget.

The dialog asks its ``previewer`` (the core's ``preview_forget_about`` or
``preview_delete_all``, run off the GUI thread) for the counts; Forget enables only when
the preview shown is of what the dialog holds now and the confirmation is typed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ekko_memory import EkkoMemoryError, ForgetPreview
from ekko_memory_gui.qt import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.widgets import text_label

CONFIRM_WORD = "DELETE"
# The memories a preview names, at most (the counts say how many there are).
SHOWN_TITLES = 8

Previewer = Callable[[str | None, bool], Awaitable[ForgetPreview]]


class ForgetDialog(QDialog):
    """``mode``: ``word`` (a word typed here), ``selection`` (memories chosen in the list)
    or ``all`` (delete all my memories)."""

    def __init__(
        self,
        mode: str,
        previewer: Previewer,
        parent: QWidget | None = None,
        *,
        word: str = "",
    ) -> None:
        super().__init__(parent)
        self.mode = mode
        self.previewer = previewer
        self.preview: ForgetPreview | None = None
        self.preview_task: asyncio.Task[Any] | None = None
        self.setObjectName("forgetDialog")
        self.setMinimumWidth(480)
        if mode == "all":
            self.setWindowTitle(self.tr("Delete all my memories"))
            intro = self.tr(
                "This deletes every memory you and the agent saved, with all their versions, "
                "in this workspace and in your user store."
            )
        elif mode == "selection":
            self.setWindowTitle(self.tr("Forget the selected memories"))
            intro = self.tr(
                "This forgets the selected memories, with all their versions and the "
                "conversation text they came from."
            )
        else:
            self.setWindowTitle(self.tr("Forget everything about…"))
            intro = self.tr(
                "Type a word or a name: every memory that mentions it goes, with all its "
                "versions, and the conversation text and summaries that mention it."
            )
        layout = QVBoxLayout(self)
        layout.addWidget(text_label(intro))

        self.word_edit = QLineEdit(word)
        self.word_edit.setObjectName("forgetWord")
        self.word_edit.setPlaceholderText(self.tr("A word, for example cilantro"))
        self.word_edit.setAccessibleName(self.tr("Word to forget"))
        self.word_edit.setAccessibleDescription(
            self.tr("Every memory and message that mentions this word is forgotten")
        )
        self.preview_button = QPushButton(self.tr("Preview"))
        self.preview_button.setObjectName("forgetPreview")
        self.preview_button.setAccessibleDescription(
            self.tr("Counts what would be forgotten; nothing changes yet")
        )
        self.preview_button.clicked.connect(self.request_preview)
        self.word_edit.returnPressed.connect(self.request_preview)
        row = QHBoxLayout()
        row.addWidget(self.word_edit, 1)
        row.addWidget(self.preview_button)
        layout.addLayout(row)
        self.word_edit.setVisible(mode == "word")
        self.preview_button.setVisible(mode == "word")

        self.with_messages = QCheckBox(
            self.tr("Also the conversation text and the summaries that mention it")
        )
        self.with_messages.setObjectName("forgetWithMessages")
        self.with_messages.setChecked(True)
        self.with_messages.setAccessibleDescription(
            self.tr("On by default: the words leave the conversation log too")
        )
        self.with_messages.toggled.connect(lambda _on: self.request_preview())
        layout.addWidget(self.with_messages)

        self.counts = text_label("")
        self.counts.setObjectName("forgetCounts")
        layout.addWidget(self.counts)
        self.titles = text_label("", role="muted")
        self.titles.setObjectName("forgetTitles")
        layout.addWidget(self.titles)

        self.prompt = text_label("")
        layout.addWidget(self.prompt)
        self.confirmation = QLineEdit()
        self.confirmation.setObjectName("forgetConfirmation")
        self.confirmation.textChanged.connect(lambda _t: self._check())
        layout.addWidget(self.confirmation)
        self.error = text_label("", role="danger")
        self.error.setObjectName("forgetError")
        layout.addWidget(self.error)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.forget_button = self.buttons.addButton(
            self.tr("Delete all") if mode == "all" else self.tr("Forget"),
            QDialogButtonBox.ButtonRole.AcceptRole,
        )
        self.forget_button.setObjectName("forgetConfirm")
        self.forget_button.setProperty("role", "danger")
        self.forget_button.setAccessibleDescription(
            self.tr("Removes for good what the preview counts; this cannot be undone")
        )
        self.forget_button.setEnabled(False)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._set_prompt()
        (self.word_edit if mode == "word" else self.confirmation).setFocus()
        self.word_edit.textChanged.connect(lambda _t: self._word_changed())
        fill_accessible(self)
        if mode != "word" or word.strip():
            self.request_preview()

    # --- the preview ---------------------------------------------------------------

    def expected(self) -> str:
        """What the user types to confirm: the word, or DELETE."""
        if self.mode == "word" and self.preview is not None and self.preview.word:
            return self.preview.word
        return CONFIRM_WORD

    def _set_prompt(self) -> None:
        if self.mode == "word":
            text = self.tr("Type the word again to confirm:")
        else:
            text = self.tr("Type {word} to confirm:").format(word=CONFIRM_WORD)
        self.prompt.setText(text)
        self.confirmation.setAccessibleName(text)
        self.confirmation.setAccessibleDescription(
            self.tr("Forget enables once this matches; nothing is removed before")
        )
        self.confirmation.setPlaceholderText(self.expected())

    def _word_changed(self) -> None:
        # A preview of another word must not be confirmed.
        self.preview = None
        self.counts.setText("")
        self.titles.setText("")
        self._set_prompt()
        self._check()

    def request_preview(self) -> asyncio.Task[Any] | None:
        """Ask the core what would go (off the GUI thread); the counts show when it answers."""
        word = self.word_edit.text().strip() if self.mode == "word" else None
        if self.mode == "word" and not word:
            self.error.setText(self.tr("Type a word first."))
            return None
        self.preview = None
        self._check()
        self.error.setText("")
        self.counts.setText(self.tr("Counting…"))
        self.preview_task = asyncio.ensure_future(
            self._preview(word, self.with_messages.isChecked())
        )
        return self.preview_task

    async def _preview(self, word: str | None, with_messages: bool) -> None:
        try:
            preview = await self.previewer(word, with_messages)
        except EkkoMemoryError as e:
            self.counts.setText("")
            self.error.setText(str(e))
            return
        current = self.word_edit.text().strip() if self.mode == "word" else None
        if current != word or with_messages != self.with_messages.isChecked():
            return  # the user changed it meanwhile; a newer preview is on its way
        self.show_preview(preview)

    def show_preview(self, preview: ForgetPreview) -> None:
        """Show the counts of ``preview`` in words."""
        self.preview = preview
        self.counts.setText(counts_text(preview))
        shown = preview.titles[:SHOWN_TITLES]
        more = preview.memories - len(shown)
        lines = [f"• {t}" for t in shown]
        if more > 0:
            lines.append(self.tr("and {n} more").format(n=more))
        self.titles.setText("\n".join(lines))
        self._set_prompt()
        self._check()

    # --- confirming ----------------------------------------------------------------

    def confirmed(self) -> bool:
        if self.preview is None or self.preview.plan is None:
            return False
        if not (self.preview.memories or self.preview.messages or self.preview.summaries):
            return False
        typed = self.confirmation.text().strip()
        return typed in (self.expected(), CONFIRM_WORD)

    def _check(self) -> None:
        self.forget_button.setEnabled(self.confirmed())

    def _accept(self) -> None:
        if self.confirmed():  # Enter must not bypass the disabled button
            self.accept()

    def show_error(self, text: str) -> None:
        self.error.setText(text)

    def done(self, result: int) -> None:
        """Closed: a preview still on its way has no dialog to show in."""
        if self.preview_task is not None and not self.preview_task.done():
            self.preview_task.cancel()
        super().done(result)


def counts_text(preview: ForgetPreview) -> str:
    """“1 memory (2 versions), 6 messages, 2 summaries” in the UI's language (nothing:
    said so)."""
    from ekko_memory_gui.qt import QCoreApplication as _Q

    m, v, n, s = preview.memories, preview.versions, preview.messages, preview.summaries
    if not (m or n or s):
        return _Q.translate("ForgetDialog", "Nothing matches: there is nothing to forget.")
    memories = (
        _Q.translate("ForgetDialog", "1 memory")
        if m == 1
        else _Q.translate("ForgetDialog", "{n} memories").format(n=m)
    )
    if v > m:
        memories = _Q.translate("ForgetDialog", "{memories} ({n} versions)").format(
            memories=memories, n=v
        )
    messages = (
        _Q.translate("ForgetDialog", "1 message")
        if n == 1
        else _Q.translate("ForgetDialog", "{n} messages").format(n=n)
    )
    summaries = (
        _Q.translate("ForgetDialog", "1 summary")
        if s == 1
        else _Q.translate("ForgetDialog", "{n} summaries").format(n=s)
    )
    return _Q.translate("ForgetDialog", "{memories}, {messages}, {summaries}").format(
        memories=memories, messages=messages, summaries=summaries
    )
