"""Small building blocks: selectable labels, one-line labels that elide, chips, section
titles, a flow layout, a thin bar for confidence and importance.
"""

from __future__ import annotations

from ekko_memory_gui.qt import (
    QColor,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPainter,
    QPoint,
    QRect,
    QSize,
    QSizeF,
    QSizePolicy,
    Qt,
    QTextEdit,
    QTextOption,
    QWidget,
)
from ekko_memory_gui.services.theme import current_colors

SELECTABLE = (
    Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
)


def text_label(
    text: str = "",
    *,
    role: str | None = None,
    wrap: bool = True,
    selectable: bool = True,
    parent: QWidget | None = None,
) -> QLabel:
    """A label whose text can be selected and copied."""
    label = QLabel(text, parent)
    label.setWordWrap(wrap)
    label.setTextFormat(Qt.TextFormat.PlainText)
    if selectable:
        label.setTextInteractionFlags(SELECTABLE)
    if role:
        label.setProperty("role", role)
    return label


class ElidedLabel(QLabel):
    """One line of text that never widens its window: it asks for its text's width but
    takes less when the window is narrower, ending in "…" (the whole text is ``text()``;
    callers put it in the tooltip). Line breaks in the text show as spaces. ``widest``
    caps the width it asks for, so a long text leaves room for its neighbours."""

    def __init__(
        self, text: str = "", *, role: str | None = None, widest: int | None = None
    ) -> None:
        super().__init__(text)
        self._widest = widest
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        if role:
            self.setProperty("role", role)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self._widest is not None:
            hint.setWidth(min(hint.width(), self._widest))
        return hint

    def minimumSizeHint(self) -> QSize:
        return QSize(
            self.fontMetrics().horizontalAdvance("…") * 4, super().minimumSizeHint().height()
        )

    def elided(self) -> str:
        """The text as it shows at the label's width."""
        line = " ".join(self.text().split())
        return self.fontMetrics().elidedText(
            line, Qt.TextElideMode.ElideRight, self.contentsRect().width()
        )

    def paintEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        shown = self.elided()
        if shown == self.text():
            super().paintEvent(event)  # fits: QLabel paints it (and its selection)
            return
        painter = QPainter(self)
        self.style().drawItemText(
            painter,
            self.contentsRect(),
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            shown,
            self.foregroundRole(),
        )
        painter.end()


class WrappedText(QTextEdit):
    """Read-only plain text that wraps anywhere, even inside a long word such as an id in
    monospace, and is as tall as its text at the width it gets: unlike a word-wrapped
    label, whose longest word sets its minimum width, it never widens its window. The
    text stays whole for selecting and copying."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setStyleSheet("QTextEdit { background: transparent; border: none; }")
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setLineWrapMode(QTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setTabChangesFocus(True)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().setDocumentMargin(0)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self.setPlainText(text)

    def _fit_height(self, size: QSizeF) -> None:
        self.setFixedHeight(int(size.height() + 0.999) + 2 * self.frameWidth())

    def sizeHint(self) -> QSize:
        return QSize(int(self.document().idealWidth()) + 2, self.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("0") * 8, self.height())


def chain_tabs(after: QWidget, widgets: list[QWidget]) -> None:
    """Put ``widgets`` in the Tab order right after ``after``, in the order given.

    Qt puts a widget made after its window last in the window's tab chain: widgets a view
    builds as data arrives (cards, Revert buttons, links) came after the toolbar, before
    the tree, instead of where they show."""
    previous = after
    for widget in widgets:
        QWidget.setTabOrder(previous, widget)
        previous = widget


def shorten(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters with "…" (for text quoted in a
    sentence, such as a search in an empty state)."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def chip(text: str, parent: QWidget | None = None) -> QLabel:
    """A rounded tag."""
    label = QLabel(text, parent)
    label.setProperty("role", "chip")
    label.setTextInteractionFlags(SELECTABLE)
    return label


def section_title(text: str, parent: QWidget | None = None) -> QLabel:
    label = QLabel(text.upper() if text.isascii() else text, parent)
    label.setProperty("role", "section")
    return label


def separator(parent: QWidget | None = None) -> QFrame:
    line = QFrame(parent)
    line.setFrameShape(QFrame.Shape.HLine)
    line.setStyleSheet(f"color: {current_colors().border};")
    return line


class FlowLayout(QLayout):
    """Lays children left to right, wrapping to the next line (for chips)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item) -> None:  # type: ignore[no-untyped-def]
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):  # type: ignore[no-untyped-def]
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):  # type: ignore[no-untyped-def]
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._do_layout(QRect(0, 0, width, 0), test=True)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._do_layout(rect, test=False)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _do_layout(self, rect: QRect, *, test: bool) -> int:
        x, y, line_height = rect.x(), rect.y(), 0
        for item in self._items:
            if item.isEmpty():  # a hidden widget takes no place (nor a gap)
                continue
            hint = item.sizeHint()
            next_x = x + hint.width() + self._spacing
            if next_x - self._spacing > rect.right() and line_height > 0:
                x = rect.x()
                y += line_height + self._spacing
                next_x = x + hint.width() + self._spacing
                line_height = 0
            if not test:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x = next_x
            line_height = max(line_height, hint.height())
        return y + line_height - rect.y()

    def clear(self) -> None:
        while self._items:
            item = self._items.pop()
            widget = item.widget()
            if widget is not None:
                widget.deleteLater()


class ScoreBar(QWidget):
    """A small horizontal bar for a 0–1 score, with its number beside."""

    def __init__(self, label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._value = 0.0
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self._label = text_label(label, role="muted", wrap=False, selectable=False)
        self._bar = _Bar(self)
        self._number = text_label("", wrap=False)
        layout.addWidget(self._label)
        layout.addWidget(self._bar, 1)
        layout.addWidget(self._number)

    def set_value(self, value: float) -> None:
        self._value = value
        self._bar.value = value
        self._bar.update()
        self._number.setText(f"{value:.2f}")


class _Bar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.value = 0.0
        self.setFixedHeight(6)
        self.setMinimumWidth(60)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def paintEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        c = current_colors()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(self.palette().mid())
        r = self.rect()
        p.drawRoundedRect(r, 3, 3)
        p.setBrush(QColor(c.accent))
        filled = QRect(r.x(), r.y(), int(r.width() * max(0.0, min(1.0, self.value))), r.height())
        p.drawRoundedRect(filled, 3, 3)
        p.end()
