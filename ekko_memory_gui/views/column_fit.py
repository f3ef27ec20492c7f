"""Columns as wide as their longest text (the audit's event column was cut to "已…":
``ResizeToContents`` measured before the rows' font and style were final)."""

from __future__ import annotations

from ekko_memory_gui.qt import QHeaderView, QStyle, Qt, QTableView

# Beside a header's text: the section's padding (the stylesheet's 6 px a side) and room
# for the sort arrow.
HEADER_ROOM = 16


def cell_room(view: QTableView) -> int:
    """What a cell takes beside its text: the style's text margins on both sides."""
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return 2 * margin + 4


def needed_width(view: QTableView, column: int) -> int:
    """The width that shows every cell of ``column``, and its header, in full."""
    model = view.model()
    metrics = view.fontMetrics()
    widest = 0
    for row in range(model.rowCount()):
        text = model.index(row, column).data(Qt.ItemDataRole.DisplayRole)
        if text:
            widest = max(widest, metrics.horizontalAdvance(str(text)))
    header = view.horizontalHeader()
    title = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
    head = header.fontMetrics().horizontalAdvance(str(title or "")) + HEADER_ROOM
    return max(widest + cell_room(view), head)


def fit_columns(view: QTableView, columns: list[int]) -> None:
    """Size ``columns`` to their text now (call after the rows changed)."""
    header = view.horizontalHeader()
    for column in columns:
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        view.setColumnWidth(column, needed_width(view, column))
