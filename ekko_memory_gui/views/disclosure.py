"""A section that opens on a click: "▸ Details" holds what experts look for."""

from __future__ import annotations

from ekko_memory_gui.qt import QSizePolicy, Qt, QToolButton, QVBoxLayout, QWidget


class Disclosure(QWidget):
    """A toggle button with an arrow and the widget it shows or hides (closed at first)."""

    def __init__(self, title: str, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.button = QToolButton(self)
        self.button.setText(title)
        self.button.setCheckable(True)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setArrowType(Qt.ArrowType.RightArrow)
        self.button.setAutoRaise(True)
        self.button.setAccessibleName(title)
        self.button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self.content = content
        content.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.button)
        layout.addWidget(content)
        self.button.toggled.connect(self.set_open)

    @property
    def is_open(self) -> bool:
        return self.button.isChecked()

    def set_open(self, open_: bool) -> None:
        if self.button.isChecked() != open_:
            self.button.setChecked(open_)  # toggled comes back here
            return
        self.button.setArrowType(Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow)
        self.content.setVisible(open_)
