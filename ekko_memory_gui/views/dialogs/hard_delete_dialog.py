"""Hard delete: names exactly what goes; Delete enables only after the user types the
memory's title (or DELETE)."""

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
from ekko_memory_gui.views.widgets import text_label

CONFIRM_WORD = "DELETE"


class HardDeleteDialog(QDialog):
    """``confirmation`` must equal the title or DELETE; ``with_messages`` also deletes sources."""

    def __init__(self, chain: list[MemoryNode], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("hardDeleteDialog")
        self.setWindowTitle(self.tr("Delete permanently"))
        self.setMinimumWidth(520)
        head = chain[-1]
        self.expected_title = head.title
        versions = "\n".join(
            f"  • {labels.short_time(n.created_at)}  {n.title} — {labels.value_text(n.value_json)} ({labels.status_label(n.status)})"
            for n in reversed(chain)
        )
        what = text_label(
            self.tr(
                "This removes “{title}” for good:\n{versions}\n\n"
                "Every version above, its search index entries and usage records go, and its "
                "text is scrubbed from the audit history and the file. This cannot be undone."
            ).format(title=head.title, versions=versions)
        )
        what.setObjectName("hardDeleteWhat")
        self.with_messages = QCheckBox(
            self.tr("Also delete the source messages (summaries built on them are marked stale)")
        )
        self.with_messages.setObjectName("withMessages")
        prompt = text_label(
            self.tr("Type the title “{title}” or {word} to confirm:").format(
                title=head.title, word=CONFIRM_WORD
            )
        )
        self.confirmation = QLineEdit()
        self.confirmation.setObjectName("confirmationEdit")
        self.confirmation.setPlaceholderText(head.title)
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

    def confirmed(self) -> bool:
        text = self.confirmation.text().strip()
        return text in (self.expected_title.strip(), CONFIRM_WORD)

    def _check(self) -> None:
        self.delete_button.setEnabled(self.confirmed())

    def _accept(self) -> None:
        if self.confirmed():  # the button is disabled otherwise; Enter must not bypass it
            self.accept()
