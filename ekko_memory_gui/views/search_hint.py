"""The search field's hint, fitted to its width: the full hint where it fits, a shorter one
in a narrow window (at 1024×700 the full hint was cut mid-word), never cut."""

from __future__ import annotations

from ekko_memory_gui.qt import QCoreApplication as _Q
from ekko_memory_gui.qt import QEvent, QLineEdit, QObject

# Room the field's own parts take from the text: the search icon, the clear button, the
# frame and the padding of the stylesheet.
_CHROME = 72


def hints() -> list[str]:
    """The hints, longest first (the last one always fits a field of the minimum width)."""
    return [
        _Q.translate("SearchHint", "Search memories (香菜, database…)  Ctrl+F"),
        _Q.translate("SearchHint", "Search memories (香菜, database…)"),
        _Q.translate("SearchHint", "Search memories  Ctrl+F"),
        _Q.translate("SearchHint", "Search memories"),
        _Q.translate("SearchHint", "Search"),
    ]


def room(field: QLineEdit) -> int:
    """The width the hint may take in ``field``."""
    return field.width() - _CHROME


def fitting_hint(field: QLineEdit) -> str:
    """The longest hint that fits ``field`` as wide as it is now."""
    metrics = field.fontMetrics()
    options = hints()
    for text in options:
        if metrics.horizontalAdvance(text) <= room(field):
            return text
    return options[-1]


class SearchHint(QObject):
    """Keeps ``field``'s placeholder fitted as the field is resized."""

    def __init__(self, field: QLineEdit) -> None:
        super().__init__(field)
        self.field = field
        field.setToolTip(_Q.translate("SearchHint", "Search memories (Ctrl+F)"))
        field.installEventFilter(self)
        self.refit()

    def refit(self) -> None:
        text = fitting_hint(self.field)
        if self.field.placeholderText() != text:
            self.field.setPlaceholderText(text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.field and event.type() in (
            QEvent.Type.Resize,
            QEvent.Type.FontChange,
            QEvent.Type.Show,
        ):
            self.refit()
        return False
