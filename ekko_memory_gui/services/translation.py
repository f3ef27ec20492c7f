"""UI translations: Qt Linguist ``.ts`` sources in ``resources/i18n``, compiled at start.

At start the ``.ts`` of the chosen language is compiled to ``.qm`` with ``lrelease``
(shipped with PySide6) into the cache folder, once per content of the ``.ts``; a
``.qm`` shipped beside the ``.ts`` by a build is used as is. Where no ``lrelease``
can be found, the ``.ts`` is read directly by ``TsCatalogTranslator``, so the
translation works offline either way.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from ekko_memory.resources import resource_path
from ekko_memory_gui.qt import (
    PYSIDE_DIR,
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QObject,
    QTranslator,
)

SUPPORTED = ("en", "zh_CN")
CATALOG = "ekko_memory"


def resolve_language(setting: str) -> str:
    """``system`` becomes the system's language when supported (Chinese → zh_CN), else en."""
    if setting in SUPPORTED:
        return setting
    name = QLocale.system().name()
    return "zh_CN" if name.startswith("zh") else "en"


def ts_path(language: str) -> Path:
    """The Linguist source of a language."""
    return resource_path("i18n", f"{CATALOG}_{language}.ts")


def find_lrelease() -> str | None:
    """``lrelease`` from PySide6 (beside the interpreter or in the package), or on PATH."""
    candidates = [Path(sys.executable).parent / "pyside6-lrelease", PYSIDE_DIR / "lrelease"]
    for c in candidates:
        if c.is_file():
            return str(c)
    return shutil.which("pyside6-lrelease") or shutil.which("lrelease")


def compile_catalog(ts: Path, cache_dir: Path | None = None) -> Path | None:
    """The ``.qm`` for ``ts``: shipped, cached, or compiled now; None when it cannot be made."""
    shipped = ts.with_suffix(".qm")
    if not ts.is_file():
        return shipped if shipped.is_file() else None
    if shipped.is_file() and shipped.stat().st_mtime >= ts.stat().st_mtime:
        return shipped
    digest = hashlib.sha256(ts.read_bytes()).hexdigest()[:16]
    folder = cache_dir or Path(platformdirs.user_cache_dir("ekko-memory", appauthor=False))
    target = folder / "i18n" / f"{ts.stem}-{digest}.qm"
    if target.is_file():
        return target
    tool = find_lrelease()
    if tool is None:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(
            [tool, "-silent", str(ts), "-qm", str(target)],
            check=True,
            capture_output=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return target if target.is_file() else None


def read_ts(ts: Path) -> dict[tuple[str, str], str]:
    """Finished translations of a ``.ts`` file by (context, source)."""
    out: dict[tuple[str, str], str] = {}
    root = ET.parse(ts).getroot()
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source")
            node = message.find("translation")
            if source is None or node is None or node.get("type") in ("unfinished", "obsolete"):
                continue
            if node.text:
                out[(name, source)] = node.text
    return out


class TsCatalogTranslator(QTranslator):
    """A translator that reads a ``.ts`` file directly (when ``lrelease`` is unavailable)."""

    def __init__(self, messages: dict[tuple[str, str], str], parent: QObject | None = None):
        super().__init__(parent)
        self._messages = messages

    def translate(
        self,
        context: str,
        source_text: str,
        disambiguation: str | None = None,
        n: int = -1,
    ) -> str:
        return self._messages.get((context, source_text), "")

    def isEmpty(self) -> bool:
        return not self._messages


@dataclass
class LoadedTranslation:
    """What was installed: the language, how the catalog was loaded, the translators."""

    language: str
    method: str  # "qm", "ts" or "none" (English needs none)
    translators: list[QTranslator]


def install_translation(
    app: QCoreApplication, setting: str, *, prefer_ts: bool = False
) -> LoadedTranslation:
    """Install the app's and Qt's own translators for a language setting."""
    language = resolve_language(setting)
    QLocale.setDefault(QLocale(language if language != "en" else "en_US"))
    if language == "en":
        return LoadedTranslation(language, "none", [])
    translators: list[QTranslator] = []
    method = "none"
    ts = ts_path(language)
    qm = None if prefer_ts else compile_catalog(ts)
    if qm is not None:
        t = QTranslator(app)
        if t.load(str(qm)):
            translators.append(t)
            method = "qm"
    if not translators and ts.is_file():
        translators.append(TsCatalogTranslator(read_ts(ts), app))
        method = "ts"
    # Qt's own strings (OK, Cancel, file dialogs).
    qt = QTranslator(app)
    if qt.load(
        QLocale(language),
        "qtbase",
        "_",
        QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath),
    ):
        translators.append(qt)
    for t in translators:
        app.installTranslator(t)
    return LoadedTranslation(language, method, translators)


def remove_translation(app: QCoreApplication, loaded: LoadedTranslation | None) -> None:
    """Uninstall translators installed by ``install_translation``."""
    if loaded is None:
        return
    for t in loaded.translators:
        app.removeTranslator(t)
