"""An editor for a memory's value that fits the controlled schema's shape: text, number,
yes/no, a list of chips, or a small key–value table (and raw JSON for anything else)."""

from __future__ import annotations

import json
from typing import Any

from ekko_memory_gui.qt import (
    QAbstractItemView,
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.fonts import mono_font
from ekko_memory_gui.views.widgets import FlowLayout, chip, text_label

_ORIGINAL = Qt.ItemDataRole.UserRole
SHAPES = ("string", "number", "boolean", "string[]", "object", "json")
_SPLIT = (",", "，", "、", ";", "；")


def shape_of(value: Any) -> str:
    """The editor shape that holds a value as it is."""
    if value is None or isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "string[]"
    if isinstance(value, dict) and all(
        isinstance(v, str | int | float | bool) or v is None for v in value.values()
    ):
        return "object"
    return "json"


def fits(shape: str, value: Any) -> bool:
    """Whether ``value`` can be shown in the editor for ``shape`` without loss."""
    return value is None or shape_of(value) == shape or (shape == "json")


def cell_text(value: Any) -> str:
    """How a table cell shows a field's value: text as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def cell_value(text: str, original: Any = None, *, has_original: bool = False) -> Any:
    """A table cell's value. An untouched cell keeps its value exactly (the text "1.10"
    stays that text); a field that held text keeps holding text. A new or non-text field
    is a number, true, false or null only when its text is exactly that JSON ("1.10" and
    "1e3" stay text), and text when quoted ("\"100080\"")."""
    if has_original:
        if text == cell_text(original):
            return original
        if isinstance(original, str):
            return text.strip()
    t = text.strip()
    try:
        parsed = json.loads(t)
    except ValueError:
        return t
    if isinstance(parsed, str) and t.startswith('"'):
        return parsed
    if parsed is None or isinstance(parsed, bool | int | float):
        return parsed if json.dumps(parsed) == t else t
    return t


class ValueEditor(QWidget):
    """``set_shape`` picks the editor; ``value()`` returns JSON; ``problem()`` explains bad input."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shape = "string"
        self.text = QLineEdit()
        self.text.setObjectName("valueText")
        self.number = QDoubleSpinBox()
        self.number.setObjectName("valueNumber")
        self.number.setRange(-1e12, 1e12)
        self.number.setDecimals(4)
        self.boolean = QCheckBox(self.tr("yes"))
        self.boolean.setObjectName("valueBoolean")

        self.list_edit = QLineEdit()
        self.list_edit.setObjectName("valueList")
        self.list_edit.setPlaceholderText(self.tr("items separated by commas: 香菜, 葱"))
        self.list_chips = FlowLayout()
        list_box = QWidget()
        lv = QVBoxLayout(list_box)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.list_edit)
        chips = QWidget()
        chips.setLayout(self.list_chips)
        lv.addWidget(chips)

        self.table = QTableWidget(0, 2)
        self.table.setObjectName("valueTable")
        self.table.setAccessibleName(self.tr("Fields of the value"))
        self.table.setHorizontalHeaderLabels([self.tr("Field"), self.tr("Value")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setMinimumHeight(110)
        add = QPushButton(self.tr("Add field"))
        add.setObjectName("addField")
        remove = QPushButton(self.tr("Remove field"))
        remove.setObjectName("removeField")
        add.clicked.connect(lambda: self._add_row("", ""))
        remove.clicked.connect(self._remove_row)
        table_box = QWidget()
        tv = QVBoxLayout(table_box)
        tv.setContentsMargins(0, 0, 0, 0)
        tv.addWidget(self.table)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        tv.addLayout(buttons)

        self.json = QPlainTextEdit()
        self.json.setObjectName("valueJson")
        self.json.setFont(mono_font())
        self.json.setMaximumHeight(120)
        self.json.setTabChangesFocus(True)  # Tab leaves the field, as in the rest of the form

        self.stack = QStackedWidget()
        self._pages = {
            "string": self.text,
            "number": self.number,
            "boolean": self.boolean,
            "string[]": list_box,
            "object": table_box,
            "json": self.json,
        }
        # Each page's own size policy, for when it shows: the others are Ignored, so the
        # stack is as tall as the editor showing (a one-line text field stood alone in a
        # box as tall as the field table).
        self._policies = {shape: page.sizePolicy() for shape, page in self._pages.items()}
        for page in self._pages.values():
            self.stack.addWidget(page)
        self.hint = text_label("", role="muted")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        layout.addWidget(self.hint)

        self.text.textChanged.connect(self.changed)
        self.number.valueChanged.connect(self.changed)
        self.boolean.toggled.connect(self.changed)
        self.list_edit.textChanged.connect(self._list_changed)
        self.table.itemChanged.connect(self.changed)
        self.json.textChanged.connect(self.changed)

    # --- shape ----------------------------------------------------------------------

    def set_shape(self, shape: str, value: Any = None) -> None:
        """Show the editor for ``shape`` holding ``value`` (raw JSON when it does not fit)."""
        if shape not in self._pages:
            shape = "json"
        if not fits(shape, value):
            shape = shape_of(value)
        self.shape = shape
        for name, page in self._pages.items():
            policy = QSizePolicy(self._policies[name])
            if name != shape:
                policy.setVerticalPolicy(QSizePolicy.Policy.Ignored)
            page.setSizePolicy(policy)
        self.stack.setCurrentWidget(self._pages[shape])
        self.stack.updateGeometry()
        self.hint.setText(
            {
                "string": self.tr("Text"),
                "number": self.tr("A number"),
                "boolean": self.tr("Yes or no"),
                "string[]": self.tr("A list"),
                "object": self.tr("Fields and values, e.g. ingredient = 香菜, amount = 少量"),
                "json": self.tr("Any JSON value"),
            }[shape]
        )
        self.set_value(value)

    def set_value(self, value: Any) -> None:
        if self.shape == "string":
            self.text.setText("" if value is None else str(value))
        elif self.shape == "number":
            self.number.setValue(float(value or 0))
        elif self.shape == "boolean":
            self.boolean.setChecked(bool(value))
        elif self.shape == "string[]":
            self.list_edit.setText(", ".join(value or []))
        elif self.shape == "object":
            self.table.setRowCount(0)
            for k, v in (value or {}).items():
                self._add_row(k, cell_text(v), original=(v,))
        else:
            self.json.setPlainText(
                "" if value is None else json.dumps(value, ensure_ascii=False, indent=2)
            )

    def value(self) -> Any:
        """The value as JSON (None for empty text)."""
        if self.shape == "string":
            return self.text.text().strip() or None
        if self.shape == "number":
            v = self.number.value()
            return int(v) if v.is_integer() else v
        if self.shape == "boolean":
            return self.boolean.isChecked()
        if self.shape == "string[]":
            return self._items()
        if self.shape == "object":
            out: dict[str, Any] = {}
            for row in range(self.table.rowCount()):
                k = self.table.item(row, 0)
                v = self.table.item(row, 1)
                key = k.text().strip() if k else ""
                if key:
                    original = v.data(_ORIGINAL) if v else None
                    out[key] = cell_value(
                        v.text() if v else "",
                        original[0] if original else None,
                        has_original=bool(original),
                    )
            return out or None
        text = self.json.toPlainText().strip()
        return json.loads(text) if text else None

    def problem(self) -> str | None:
        """Why the value cannot be saved, or None."""
        if self.shape == "json":
            try:
                self.value()
            except ValueError as e:
                return self.tr("The value is not valid JSON: {error}").format(error=e)
        if self.shape == "object":
            keys = [
                (self.table.item(r, 0).text().strip() if self.table.item(r, 0) else "")
                for r in range(self.table.rowCount())
            ]
            named = [k for k in keys if k]
            if len(named) != len(set(named)):
                return self.tr("Each field name may appear once.")
        return None

    # --- helpers --------------------------------------------------------------------

    def _items(self) -> list[str]:
        text = self.list_edit.text()
        for sep in _SPLIT[1:]:
            text = text.replace(sep, _SPLIT[0])
        return [t.strip() for t in text.split(_SPLIT[0]) if t.strip()]

    def _list_changed(self) -> None:
        self.list_chips.clear()
        for item in self._items():
            self.list_chips.addWidget(chip(item))
        self.changed.emit()

    def _add_row(self, key: str, value: str, *, original: tuple[Any] | None = None) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(key))
        cell = QTableWidgetItem(value)
        if original is not None:
            # The stored value, so an untouched cell saves exactly what it showed.
            cell.setData(_ORIGINAL, original)
        self.table.setItem(row, 1, cell)

    def _remove_row(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)
            self.changed.emit()
