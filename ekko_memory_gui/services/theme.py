"""Light and dark palettes, a calm stylesheet, and the semantic colours views draw with.

``system`` follows the platform's colour scheme (and its changes); ``light`` and
``dark`` force one. The Fusion style draws the same everywhere, so screenshots and
users see one look.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs

from ekko_memory_gui.qt import QApplication, QColor, QPalette, Qt


@dataclass(frozen=True)
class ThemeColors:
    """Colours beyond the palette: muted text, accents, chips, cards."""

    dark: bool
    window: str
    base: str
    alt_base: str
    text: str
    muted: str
    border: str
    accent: str
    accent_text: str
    amber: str
    danger: str
    success: str
    chip: str
    card: str
    highlight_match: str


LIGHT = ThemeColors(
    dark=False,
    window="#F5F6F8",
    base="#FFFFFF",
    alt_base="#F7F8FA",
    text="#1F2328",
    muted="#6B7280",
    border="#DDE1E6",
    accent="#3A6EA5",
    accent_text="#FFFFFF",
    amber="#B7791F",
    danger="#B42318",
    success="#2F7D4F",
    chip="#E8EEF6",
    card="#FFFFFF",
    highlight_match="#FFE9A8",
)

DARK = ThemeColors(
    dark=True,
    window="#1D2024",
    base="#15171A",
    alt_base="#1A1D21",
    text="#E4E6EA",
    muted="#9AA1AB",
    border="#33383F",
    accent="#5B8FCC",
    accent_text="#FFFFFF",
    amber="#E3A948",
    danger="#F07167",
    success="#6CC08B",
    chip="#2A3340",
    card="#22262B",
    highlight_match="#6B5A1E",
)


def system_prefers_dark() -> bool:
    """The platform's colour scheme is dark (Qt 6.5+; light when unknown)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return False
    try:
        return app.styleHints().colorScheme() == Qt.ColorScheme.Dark
    except AttributeError:  # Qt before 6.5
        return False


def colors_for(mode: str) -> ThemeColors:
    """The colours of ``system``, ``light`` or ``dark``."""
    if mode == "dark" or (mode == "system" and system_prefers_dark()):
        return DARK
    return LIGHT


def current_colors() -> ThemeColors:
    """The colours in use now (read back from the application palette)."""
    palette = QApplication.palette()
    return DARK if palette.color(QPalette.ColorRole.Window).lightness() < 128 else LIGHT


def palette_for(c: ThemeColors) -> QPalette:
    """A full QPalette for the colours."""
    p = QPalette()
    role = QPalette.ColorRole
    p.setColor(role.Window, QColor(c.window))
    p.setColor(role.WindowText, QColor(c.text))
    p.setColor(role.Base, QColor(c.base))
    p.setColor(role.AlternateBase, QColor(c.alt_base))
    p.setColor(role.Text, QColor(c.text))
    p.setColor(role.Button, QColor(c.card if c.dark else "#FBFBFC"))
    p.setColor(role.ButtonText, QColor(c.text))
    p.setColor(role.ToolTipBase, QColor(c.card))
    p.setColor(role.ToolTipText, QColor(c.text))
    p.setColor(role.PlaceholderText, QColor(c.muted))
    p.setColor(role.Highlight, QColor(c.accent))
    p.setColor(role.HighlightedText, QColor(c.accent_text))
    p.setColor(role.Link, QColor(c.accent))
    p.setColor(role.Mid, QColor(c.border))
    p.setColor(role.Midlight, QColor(c.border))
    p.setColor(role.Dark, QColor(c.muted))
    p.setColor(role.Light, QColor(c.base))
    disabled = QPalette.ColorGroup.Disabled
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(disabled, r, QColor(c.muted))
    return p


_CHECK_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 14 14">'
    '<path d="M3 7.5l2.6 2.6L11 4.4" fill="none" stroke="{color}" stroke-width="2" '
    'stroke-linecap="round" stroke-linejoin="round"/></svg>'
)


def check_mark(color: str) -> str:
    """A check mark in ``color`` as an SVG file the stylesheet can name (styled check boxes
    draw their mark from an image). Written once per colour into the cache folder; the
    path uses forward slashes, as a stylesheet's url() wants."""
    folder = Path(platformdirs.user_cache_dir("ekko-memory", appauthor=False)) / "theme"
    path = folder / f"check-{color.lstrip('#').lower()}.svg"
    text = _CHECK_SVG.format(color=color)
    try:
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    except OSError:  # no cache folder: the box is drawn without its mark's image
        return ""
    return path.as_posix()


def stylesheet_for(c: ThemeColors) -> str:
    """The few styles the palette cannot express: cards, chips, section titles."""
    return f"""
    QToolBar {{ border: none; padding: 4px 6px; spacing: 6px; background: {c.window}; }}
    QToolBar QToolButton {{ padding: 4px 8px; border-radius: 6px; }}
    QToolBar QToolButton:hover {{ background: {c.chip}; }}
    QToolBar QToolButton#qt_toolbar_ext_button {{ padding: 0px; min-width: 16px; }}
    QLineEdit#searchField {{ padding: 5px 8px; border: 1px solid {c.border};
        border-radius: 8px; background: {c.base}; min-width: 160px; }}
    QLineEdit#searchField:focus {{ border-color: {c.accent}; }}
    QTreeView, QTableView, QListView {{ border: none; background: {c.base}; }}
    QTableView {{ gridline-color: transparent; }}
    QHeaderView::section {{ background: {c.window}; color: {c.muted}; border: none;
        border-bottom: 1px solid {c.border}; padding: 4px 6px; }}
    QSplitter::handle {{ background: {c.border}; }}
    QSplitter::handle:horizontal {{ width: 1px; }}
    QFrame#card {{ background: {c.card}; border: 1px solid {c.border}; border-radius: 10px; }}
    QFrame#card[selected="true"] {{ border: 2px solid {c.accent}; }}
    QLabel[role="chip"] {{ background: {c.chip}; border-radius: 9px; padding: 1px 8px; }}
    QLabel[role="section"] {{ color: {c.muted}; font-weight: 600; padding-top: 10px; }}
    QLabel[role="muted"] {{ color: {c.muted}; }}
    QLabel[role="title"] {{ font-size: 16pt; font-weight: 600; }}
    QLabel[role="empty"] {{ color: {c.muted}; padding: 24px; }}
    QLabel[role="amber"] {{ color: {c.amber}; }}
    QLabel[role="danger"] {{ color: {c.danger}; }}
    QLabel#badge {{ background: {c.danger}; color: white; border-radius: 8px;
        padding: 0px 5px; font-weight: 600; }}
    QPushButton[role="primary"] {{ background: {c.accent}; color: {c.accent_text};
        border: none; border-radius: 6px; padding: 5px 14px; }}
    QPushButton[role="primary"]:disabled {{ background: {c.border}; color: {c.muted}; }}
    QPushButton[role="danger"] {{ color: {c.danger}; }}
    QPlainTextEdit#valueView {{ background: {c.alt_base}; border: 1px solid {c.border};
        border-radius: 6px; }}
    QStatusBar {{ background: {c.window}; border-top: 1px solid {c.border}; }}
    QCheckBox::indicator {{ width: 14px; height: 14px; border-radius: 3px;
        border: 1px solid {c.muted}; background: {c.base}; }}
    QCheckBox::indicator:hover {{ border-color: {c.accent}; }}
    QCheckBox::indicator:checked {{ border-color: {c.accent}; background: {c.accent};
        image: url({check_mark(c.accent_text)}); }}
    QCheckBox::indicator:disabled {{ border-color: {c.border}; background: {c.window}; }}
    QCheckBox::indicator:checked:disabled {{ background: {c.border};
        image: url({check_mark(c.muted)}); }}
    QProgressBar#busyBar {{ border: none; background: {c.border}; max-height: 3px; }}
    QProgressBar#busyBar::chunk {{ background: {c.accent}; }}
    """


def apply_theme(app: QApplication, mode: str) -> ThemeColors:
    """Apply ``system``, ``light`` or ``dark`` to the whole application."""
    from ekko_memory_gui.services import icons

    colors = colors_for(mode)
    app.setStyle("Fusion")
    app.setPalette(palette_for(colors))
    app.setStyleSheet(stylesheet_for(colors))
    icons.clear_cache()
    return colors
