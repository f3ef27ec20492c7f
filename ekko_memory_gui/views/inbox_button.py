"""The toolbar's Inbox button with its count badge."""

from __future__ import annotations

from ekko_memory_gui.qt import QLabel, Qt, QToolButton, QWidget


class InboxButton(QToolButton):
    """A toolbar button with a red count badge."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.badge = QLabel("", self)
        self.badge.setObjectName("badge")
        self.badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.badge.setVisible(False)
        self.count = 0

    def set_count(self, n: int) -> None:
        self.count = n
        self.badge.setText(str(n))
        # The badge is painted: a screen reader hears the count from the button's name.
        self.setAccessibleName(self.tr("Inbox, {n} waiting").format(n=n) if n else "")
        self.badge.setVisible(n > 0)
        self.badge.adjustSize()
        self._place()

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().resizeEvent(event)
        self._place()

    def _place(self) -> None:
        self.badge.move(max(0, self.width() - self.badge.width() - 1), 0)
        self.badge.raise_()
