"""A cheap test of whether a SQLite file changed since a reader last looked."""

from __future__ import annotations

import sqlite3
import threading


class ChangeCounter:
    """A number that changes whenever any connection commits to the file: this process's
    pooled ones or another process's (``PRAGMA data_version`` on a connection of its own
    that never writes; ~1 µs). Lets a reader keep a result until the file changes."""

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._closed = False

    def value(self) -> int | None:
        """The current count; None when it cannot be read (then nothing may be kept)."""
        with self._lock:
            if self._closed:
                return None
            try:
                if self._conn is None:
                    self._conn = sqlite3.connect(
                        self.uri + "?mode=ro", uri=True, check_same_thread=False
                    )
                row = self._conn.execute("PRAGMA data_version").fetchone()
            except sqlite3.Error:
                return None
            return int(row[0])

    def close(self) -> None:
        """Close its connection; later values are None."""
        with self._lock:
            self._closed = True
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
