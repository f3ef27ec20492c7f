"""Dialogs open no larger than the screen they open on (the purge dialog opened 1140
pixels wide, past the edge of a 1024-pixel screen; the edit form taller than 700)."""

from __future__ import annotations

from ekko_memory_gui.qt import QGuiApplication, QSize, QWidget

# The share of the screen's free area a dialog may take at most.
SHARE = 0.95


def available(widget: QWidget) -> QSize:
    """The free area of the screen ``widget`` is on (or the primary screen)."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry().size()


def fit_to_screen(widget: QWidget, wanted: QSize) -> QSize:
    """Resize ``widget`` to ``wanted``, shrunk to the screen's free area; returns the size."""
    free = available(widget)
    size = wanted.boundedTo(QSize(int(free.width() * SHARE), int(free.height() * SHARE)))
    widget.resize(size.expandedTo(widget.minimumSize()))
    return widget.size()
