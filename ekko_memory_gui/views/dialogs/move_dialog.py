"""Move memories to a category: pick one in use or type a new path ("项目 / 架构");
its first part is the domain. Each memory gets a new version there."""

from __future__ import annotations

from ekko_memory_gui.qt import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.widgets import text_label

SEPARATOR = " / "


def path_text(path: list[str]) -> str:
    return SEPARATOR.join(path)


def parse_path(text: str) -> list[str]:
    """``项目 / 架构`` → ["项目", "架构"] (empty parts dropped)."""
    return [p.strip() for p in text.replace("／", "/").split("/") if p.strip()]


class MoveDialog(QDialog):
    """``path()`` is the category chosen; OK enables once there is one."""

    def __init__(self, count: int, paths: list[list[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("moveDialog")
        self.setWindowTitle(self.tr("Move to category"))
        self.setMinimumWidth(420)
        intro = text_label(
            self.tr(
                "Move {n} memories to the category below. Each gets a new version there; the "
                "earlier one stays in its history, and Ctrl+Z moves them back."
            ).format(n=count)
            if count != 1
            else self.tr(
                "Move this memory to the category below. It gets a new version there; the "
                "earlier one stays in its history, and Ctrl+Z moves it back."
            )
        )
        label = QLabel(self.tr("&Category (domain / category / …):"))
        self.combo = QComboBox()
        self.combo.setObjectName("moveCategory")
        self.combo.setEditable(True)
        self.combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for p in paths:
            self.combo.addItem(path_text(p), p)
        self.combo.setCurrentIndex(-1)
        self.combo.setEditText("")
        self.combo.setAccessibleName(self.tr("Category"))
        self.combo.setAccessibleDescription(
            self.tr("A category in use, or a new path such as 项目 / 架构")
        )
        line = self.combo.lineEdit()
        if line is not None:
            line.setPlaceholderText(self.tr("for example 项目 / 架构"))
            line.setAccessibleName(self.tr("Category"))
            # Enter in the field moves (once there is a category), as OK does.
            line.returnPressed.connect(self._accept)
        label.setBuddy(self.combo)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Move"))
        self.ok_button.setObjectName("moveButton")
        self.ok_button.setEnabled(False)
        self.ok_button.setDefault(True)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        self.combo.editTextChanged.connect(lambda _t: self._check())
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(label)
        layout.addWidget(self.combo)
        layout.addWidget(self.buttons)
        self.combo.setFocus()
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

    def path(self) -> list[str]:
        return parse_path(self.combo.currentText())

    def _check(self) -> None:
        self.ok_button.setEnabled(bool(self.path()))

    def _accept(self) -> None:
        if self.path():  # Enter in an empty field must not move anything
            self.accept()
