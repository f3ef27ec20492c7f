"""Fonts: a CJK-capable family chosen explicitly, so Chinese never shows as boxes.

Qt's own fallback is platform-dependent (and absent on a bare X server), so the app
font names a CJK family after the UI family: Latin text keeps the UI font, Chinese
takes the CJK one.
"""

from __future__ import annotations

from ekko_memory_gui.qt import QApplication, QFont, QFontDatabase

# Most specific first: the fonts that ship with each platform or are one package away.
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Microsoft YaHei UI",
    "Microsoft YaHei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Droid Sans Fallback",
    "AR PL UMing CN",
)
MONO_FAMILIES = ("JetBrains Mono", "DejaVu Sans Mono", "Noto Sans Mono", "Menlo", "Consolas")


def available_cjk_family() -> str | None:
    """The first installed family that covers Simplified Chinese."""
    families = set(QFontDatabase.families())
    for name in CJK_FAMILIES:
        if name in families:
            return name
    # Anything else that declares Simplified Chinese.
    for name in QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
        return name
    return None


def ui_font(point_size: float | None = None) -> QFont:
    """The application font: the platform UI family, then the CJK family."""
    font = QFont(QApplication.font())
    cjk = available_cjk_family()
    families = [f for f in font.families() if f] or [font.family()]
    if cjk and cjk not in families:
        families.append(cjk)
    font.setFamilies(families)
    if point_size is not None:
        font.setPointSizeF(point_size)
    return font


def mono_font() -> QFont:
    """Monospace for values and ids, with the CJK family as a fallback for Chinese values."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    installed = set(QFontDatabase.families())
    families = [f for f in MONO_FAMILIES if f in installed] or [font.family()]
    cjk = available_cjk_family()
    if cjk:
        families.append(cjk)
    font.setFamilies(families)
    return font


def apply_fonts(app: QApplication) -> str | None:
    """Set the app font; returns the CJK family in use (None when none is installed)."""
    app.setFont(ui_font())
    return available_cjk_family()
