"""Hard delete: names exactly what goes; Delete enables only after the user types the
memory's title (or DELETE; for a batch, only DELETE).

The same confirmation guards the user's own hard delete of a memory and the approval of
the agent's hard-delete requests in the inbox: both delete for good.
"""

from __future__ import annotations

from ekko_memory import MemoryNode
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.widgets import text_label

CONFIRM_WORD = "DELETE"


def _line(n: MemoryNode, *, dated: bool) -> str:
    when = f"{labels.short_time(n.created_at)}  " if dated else ""
    value = labels.value_text(n.value_json)
    return f"  • {when}{n.title} — {value} ({labels.status_label(n.status)})"


class HardDeleteDialog(QDialog):
    """``confirmation`` must equal the title (one memory) or DELETE; ``with_messages``
    also deletes the sources (offered for the user's own delete of one memory)."""

    def __init__(
        self,
        chain: list[MemoryNode],
        parent: QWidget | None = None,
        *,
        approvals: int = 0,
        deleting: int | None = None,
        notes: list[str] | None = None,
    ) -> None:
        """``chain``: one memory's versions, oldest first. With ``approvals`` (the number
        of inbox items being approved), ``chain`` is instead the memories those approvals
        delete for good; one memory in one approval is confirmed by its title, anything
        more only by DELETE. ``deleting``: how many of those approvals delete (all by
        default); ``notes``: what the others do, one line each."""
        super().__init__(parent)
        self.setObjectName("hardDeleteDialog")
        self.setWindowTitle(self.tr("Delete permanently"))
        self.setMinimumWidth(520)
        batch = approvals > 1 or (approvals == 1 and len(chain) != 1)
        self.expected_title: str | None = None if batch or not chain else chain[-1].title
        self.deleting = approvals if deleting is None else deleting
        self.notes = list(notes or [])
        what = text_label(self._approval_text(chain, approvals) if approvals else self._text(chain))
        what.setObjectName("hardDeleteWhat")
        self.with_messages = QCheckBox(
            self.tr("Also delete the source messages (summaries built on them are marked stale)")
        )
        self.with_messages.setObjectName("withMessages")
        # An approval deletes what the request names, nothing more.
        self.with_messages.setVisible(not approvals)
        if self.expected_title is None:
            prompt_text = self.tr("Type {word} to confirm:").format(word=CONFIRM_WORD)
        else:
            prompt_text = self.tr("Type the title “{title}” or {word} to confirm:").format(
                title=self.expected_title, word=CONFIRM_WORD
            )
        prompt = text_label(prompt_text)
        self.confirmation = QLineEdit()
        self.confirmation.setObjectName("confirmationEdit")
        self.confirmation.setPlaceholderText(self.expected_title or CONFIRM_WORD)
        self.confirmation.setAccessibleName(prompt_text)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.delete_button = self.buttons.addButton(
            self.tr("Delete permanently"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.delete_button.setObjectName("confirmDelete")
        self.delete_button.setProperty("role", "danger")
        self.delete_button.setEnabled(False)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        self.confirmation.textChanged.connect(self._check)
        layout = QVBoxLayout(self)
        layout.addWidget(what)
        layout.addWidget(self.with_messages)
        layout.addWidget(prompt)
        layout.addWidget(self.confirmation)
        layout.addWidget(self.buttons)
        # The dialog opens in the field to type in (the first control, the checkbox, had the
        # focus: typing needed a Tab, and Space ticked deleting the messages too).
        self.confirmation.setFocus()
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

    def _text(self, chain: list[MemoryNode]) -> str:
        head = chain[-1]
        versions = "\n".join(_line(n, dated=True) for n in reversed(chain))
        return self.tr(
            "This removes “{title}” for good:\n{versions}\n\n"
            "Every version above, its search index entries and usage records go, and its "
            "text is scrubbed from the audit history and the file. This cannot be undone."
        ).format(title=head.title, versions=versions)

    def _approval_text(self, targets: list[MemoryNode], approvals: int) -> str:
        listed = "\n".join(_line(n, dated=False) for n in targets) or "  —"
        if approvals == 1:
            head = self.tr("Approving this request deletes for good:\n{memories}")
        elif self.deleting >= approvals:
            head = self.tr("Approving these {n} items deletes for good:\n{memories}")
        else:
            # Not every item is a deletion: say how many are, and what the others do.
            head = self.tr("You approve {n} items; {k} of them delete for good:\n{memories}")
        text = (
            head.format(n=approvals, k=self.deleting, memories=listed)
            + "\n\n"
            + self.tr(
                "Every version, its search index entries and usage records go, and its text "
                "is scrubbed from the audit history and the file. This cannot be undone."
            )
        )
        return "\n\n".join([text, *self.notes]) if self.notes else text

    def confirmed(self) -> bool:
        text = self.confirmation.text().strip()
        if text == CONFIRM_WORD:
            return True
        return self.expected_title is not None and text == self.expected_title.strip()

    def _check(self) -> None:
        self.delete_button.setEnabled(self.confirmed())

    def _accept(self) -> None:
        if self.confirmed():  # the button is disabled otherwise; Enter must not bypass it
            self.accept()
