"""SVG icons from ``resources/icons``, tinted to the palette and crisp at any DPI.

The SVGs draw with ``currentColor``; each icon is rendered for the palette's text colour
(and a muted one for the disabled state) at 1x and 2x sizes.
"""

from __future__ import annotations

from functools import lru_cache

from ekko_memory.resources import resource_path
from ekko_memory_gui.qt import (
    QApplication,
    QByteArray,
    QColor,
    QIcon,
    QPainter,
    QPalette,
    QPixmap,
    QSvgRenderer,
    Qt,
)

_SIZES = (16, 20, 24, 32, 48)


@lru_cache(maxsize=64)
def _svg_text(name: str) -> str:
    return resource_path("icons", f"{name}.svg").read_text(encoding="utf-8")


def _pixmap(name: str, color: str, size: int) -> QPixmap:
    data = _svg_text(name).replace("currentColor", color)
    renderer = QSvgRenderer(QByteArray(data.encode("utf-8")))
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return pix


@lru_cache(maxsize=256)
def _icon(name: str, color: str, disabled: str) -> QIcon:
    icon = QIcon()
    for size in _SIZES:
        icon.addPixmap(_pixmap(name, color, size), QIcon.Mode.Normal)
        icon.addPixmap(_pixmap(name, disabled, size), QIcon.Mode.Disabled)
    return icon


def icon(name: str, color: QColor | str | None = None) -> QIcon:
    """The icon ``name`` (file name without .svg), in ``color`` or the palette's text colour."""
    palette = QApplication.palette()
    if color is None:
        color = palette.color(QPalette.ColorRole.WindowText)
    text = QColor(color).name()
    disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText).name()
    return _icon(name, text, disabled)


def app_icon() -> QIcon:
    """The application's own icon (full colour)."""
    icon_ = QIcon()
    for size in (16, 32, 48, 64, 128, 256):
        renderer = QSvgRenderer(str(resource_path("icons", "app.svg")))
        pix = QPixmap(size, size)
        pix.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pix)
        renderer.render(painter)
        painter.end()
        icon_.addPixmap(pix)
    return icon_


def clear_cache() -> None:
    """Forget rendered icons (after a palette change)."""
    _icon.cache_clear()
