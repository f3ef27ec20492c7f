"""Draws the words of the current search highlighted inside table cells."""

from __future__ import annotations

from ekko_memory_gui.qt import (
    QColor,
    QModelIndex,
    QPainter,
    QPalette,
    QPersistentModelIndex,
    QRect,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
)
from ekko_memory_gui.services.theme import current_colors


def match_spans(text: str, terms: list[str]) -> list[tuple[int, int]]:
    """(start, end) of every case-insensitive occurrence of the terms, merged."""
    folded = text.casefold()
    spans: list[tuple[int, int]] = []
    for term in terms:
        t = term.casefold()
        if not t:
            continue
        start = folded.find(t)
        while start >= 0:
            spans.append((start, start + len(t)))
            start = folded.find(t, start + len(t))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


class MatchHighlightDelegate(QStyledItemDelegate):
    """Paints search matches with a soft background; other cells as usual."""

    def __init__(self, parent=None) -> None:  # type: ignore[no-untyped-def]
        super().__init__(parent)
        self.terms: list[str] = []

    def set_query(self, text: str) -> None:
        self.terms = [t for t in text.split() if t]

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        text = index.data(Qt.ItemDataRole.DisplayRole)
        spans = match_spans(text, self.terms) if self.terms and isinstance(text, str) else []
        if not spans:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = opt.widget.style() if opt.widget is not None else None
        opt.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
            rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        else:
            rect = opt.rect
        rect = rect.adjusted(3, 0, -3, 0)
        metrics = opt.fontMetrics
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setFont(opt.font)
        fg = index.data(Qt.ItemDataRole.ForegroundRole)
        if selected:
            color = opt.palette.color(QPalette.ColorRole.HighlightedText)
        elif isinstance(fg, QColor):
            color = fg
        else:
            color = opt.palette.color(QPalette.ColorRole.Text)
        align = int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft)
        painter.setPen(color)
        painter.drawText(rect, align, shown)
        # Each match on a soft yellow mark, in dark text (readable on a selected row too).
        colors = current_colors()
        top = rect.y() + (rect.height() - metrics.height()) // 2
        for s, e in match_spans(shown, self.terms):
            x0 = rect.x() + metrics.horizontalAdvance(shown[:s])
            width = metrics.horizontalAdvance(shown[s:e])
            box = QRect(x0, top, width, metrics.height())
            painter.fillRect(box, QColor(colors.highlight_match))
            painter.setPen(QColor(colors.text if colors.dark else "#1F2328"))
            painter.drawText(box, align, shown[s:e])
        painter.restore()
