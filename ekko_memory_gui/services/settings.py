"""The app's own settings (recent workspaces and databases, language, theme, window layout).

Passwords are never saved: a recent database is its URL with the password removed (on
reopening, libpq finds it in ``~/.pgpass`` or ``$PGPASSWORD``, or the app asks).

Stored in an INI file: ``$EKKO_HOME/gui.ini`` when ``EKKO_HOME`` is set (so tests and
portable setups keep it beside their data), else in the platform's config folder.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from ekko_memory_gui.qt import QByteArray, QSettings
from ekko_memory_gui.services.database_url import without_password

MAX_RECENT = 8
LANGUAGES = ("system", "en", "zh_CN")
THEMES = ("system", "light", "dark")


@dataclass(frozen=True)
class RecentDatabase:
    """A PostgreSQL store opened before: its URL without the password, and the namespace."""

    url: str
    namespace: str


def settings_file() -> Path:
    """Where the settings live."""
    home = os.environ.get("EKKO_HOME")
    if home:
        return Path(home) / "gui.ini"
    return Path(platformdirs.user_config_dir("ekko-memory", appauthor=False)) / "gui.ini"


class AppSettings:
    """Typed access to the settings file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or settings_file()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._qs = QSettings(str(self.path), QSettings.Format.IniFormat)

    def _str(self, key: str, default: str = "") -> str:
        value = self._qs.value(key, default)
        return value if isinstance(value, str) else default

    # --- workspaces -----------------------------------------------------------------

    def recent_workspaces(self) -> list[Path]:
        """Recently opened workspaces, newest first (folders that no longer exist left out)."""
        raw = self._qs.value("workspaces/recent", [])
        items = [raw] if isinstance(raw, str) else list(raw or [])
        return [Path(p) for p in items if isinstance(p, str) and p and Path(p).is_dir()]

    def remember_workspace(self, path: Path) -> None:
        """Put ``path`` at the top of the recent list and make it the last opened."""
        text = str(path.resolve())
        items = [text] + [str(p) for p in self.recent_workspaces() if str(p) != text]
        self._qs.setValue("workspaces/recent", items[:MAX_RECENT])
        self._qs.setValue("workspaces/last", text)
        self._qs.sync()

    def last_workspace(self) -> Path | None:
        """The workspace opened last, if it still exists."""
        text = self._str("workspaces/last")
        return Path(text) if text and Path(text).is_dir() else None

    # --- databases ------------------------------------------------------------------

    def recent_databases(self) -> list[RecentDatabase]:
        """PostgreSQL stores opened recently, newest first (URLs without passwords)."""
        try:
            raw = json.loads(self._str("databases/recent", "[]"))
        except ValueError:
            return []
        out = []
        for item in raw if isinstance(raw, list) else []:
            if isinstance(item, dict) and isinstance(item.get("url"), str):
                ns = item.get("namespace")
                out.append(RecentDatabase(item["url"], ns if isinstance(ns, str) else "ekko"))
        return out

    def remember_database(self, url: str, namespace: str) -> None:
        """Put a database at the top of the recent list, its password removed."""
        entry = RecentDatabase(without_password(url), namespace)
        items = [entry] + [d for d in self.recent_databases() if d != entry]
        data = [{"url": d.url, "namespace": d.namespace} for d in items[:MAX_RECENT]]
        self._qs.setValue("databases/recent", json.dumps(data, ensure_ascii=False))
        self._qs.sync()

    # --- look -----------------------------------------------------------------------

    def language(self) -> str:
        """``system``, ``en`` or ``zh_CN``."""
        value = self._str("ui/language", "system")
        return value if value in LANGUAGES else "system"

    def set_language(self, value: str) -> None:
        self._qs.setValue("ui/language", value if value in LANGUAGES else "system")
        self._qs.sync()

    def theme(self) -> str:
        """``system``, ``light`` or ``dark``."""
        value = self._str("ui/theme", "system")
        return value if value in THEMES else "system"

    def set_theme(self, value: str) -> None:
        self._qs.setValue("ui/theme", value if value in THEMES else "system")
        self._qs.sync()

    def show_builtin(self) -> bool:
        """Whether "my memories" also list the built-in ones (recipes, tips shipped with the app)."""
        return self._str("ui/show_builtin", "false") == "true"

    def set_show_builtin(self, value: bool) -> None:
        self._qs.setValue("ui/show_builtin", "true" if value else "false")
        self._qs.sync()

    # --- window ---------------------------------------------------------------------

    def window_state(self) -> tuple[QByteArray | None, QByteArray | None]:
        """Saved geometry and dock/toolbar state of the main window."""
        geo = self._qs.value("window/geometry")
        state = self._qs.value("window/state")
        return (
            geo if isinstance(geo, QByteArray) else None,
            state if isinstance(state, QByteArray) else None,
        )

    def save_window_state(self, geometry: QByteArray, state: QByteArray) -> None:
        self._qs.setValue("window/geometry", geometry)
        self._qs.setValue("window/state", state)
        self._qs.sync()

    def splitter_state(self, name: str) -> QByteArray | None:
        value = self._qs.value(f"splitters/{name}")
        return value if isinstance(value, QByteArray) else None

    def save_splitter_state(self, name: str, state: QByteArray) -> None:
        self._qs.setValue(f"splitters/{name}", state)
