"""Rejecting an inbox item that holds sensitive data (a phone number, an address…): the
item goes, and — ticked by default — the conversation messages it came from go too, with
the summaries built on them (the core's ``decide(..., remove_from_log=True)``)."""

from __future__ import annotations

from ekko_memory_gui.qt import QCheckBox, QDialog, QDialogButtonBox, QVBoxLayout, QWidget
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.widgets import text_label


class RejectSensitiveDialog(QDialog):
    """Reject, and (``remove_from_log``) remove the item's words from the log."""

    def __init__(self, title: str, kinds: str, messages: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("rejectSensitiveDialog")
        self.setWindowTitle(self.tr("Reject sensitive data"))
        self.setMinimumWidth(440)
        layout = QVBoxLayout(self)
        layout.addWidget(
            text_label(
                self.tr(
                    "“{title}” holds sensitive data ({kinds}). Rejecting it keeps it out of "
                    "memory, but the conversation log still has the words."
                ).format(title=title, kinds=kinds)
            )
        )
        self.remove_from_log = QCheckBox(
            self.tr("Also remove it from the conversation log ({n} messages)").format(n=messages)
        )
        self.remove_from_log.setObjectName("removeFromLog")
        self.remove_from_log.setChecked(True)
        self.remove_from_log.setAccessibleDescription(
            self.tr(
                "The messages it came from and the summaries built on them are deleted for good"
            )
        )
        layout.addWidget(self.remove_from_log)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.reject_button = self.buttons.addButton(
            self.tr("Reject"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.reject_button.setObjectName("confirmReject")
        self.reject_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.reject_button.setFocus()
        fill_accessible(self)
