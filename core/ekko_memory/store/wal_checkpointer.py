"""Background WAL checkpoints for a SQLite store, so no writer pays for them.

With SQLite's own auto-checkpoint the commit that crosses the threshold copies the
whole write-ahead log into the database before it returns: one write in ~30 took
3-170 ms at 100k nodes and the checkpoints cost a fifth of the write throughput.
Here a daemon thread with its own connection runs a PASSIVE checkpoint every
``every`` commits instead (it never blocks writers or readers, and the driver
releases the GIL while it copies pages). The writers' auto-checkpoint stays on at a
higher threshold as the safety net should this thread fall behind or die.

Under a continuous stream of writes a PASSIVE checkpoint rarely catches the log's end,
so the log restarts when the safety net's checkpoint finds it already copied: the -wal
file can reach ~33 MB after a burst and keeps that size until the store closes or is
compacted. Cutting it back at every restart (``journal_size_limit``) cost 11% of the
write throughput (the file is regrown page by page), so it is not done.
"""

from __future__ import annotations

import sqlite3
import threading

# Pages in the log before a writer checkpoints by itself (the thread normally runs long
# before: a governed write adds ~35 pages, so ``every`` commits make ~1,100).
SAFETY_NET_PAGES = 8_000


class WalCheckpointer:
    """Runs ``PRAGMA wal_checkpoint(PASSIVE)`` on a background thread every N commits."""

    def __init__(self, uri: str, *, every: int = 32) -> None:
        self.uri = uri
        self.every = every
        self.runs = 0
        self._commits = 0
        self._wake = threading.Event()
        self._closing = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        # Held while a checkpoint runs: a TRUNCATE checkpoint of this process (a hard
        # delete's scrub, a compaction) would be refused while this one copies pages.
        self.running = threading.Lock()

    def committed(self, *, now: bool = False) -> None:
        """Count a committed write transaction; wakes the thread every ``every`` commits
        (``now``: at once, after a commit that wrote much)."""
        self._commits += 1
        if self._commits < self.every and not now:
            return
        self._commits = 0
        with self._lock:
            if self._closing:
                return
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="ekko-wal-checkpoint", daemon=True
                )
                self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(self.uri, uri=True, check_same_thread=False)
        except sqlite3.Error:
            return  # the writers' auto-checkpoint takes over
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._closing:
                    return
                try:
                    with self.running:
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.runs += 1
                except sqlite3.Error:
                    pass  # busy or gone: the next wake-up (or the safety net) tries again
        finally:
            conn.close()

    def close(self) -> None:
        """Stop the thread (it finishes a checkpoint in progress first)."""
        with self._lock:
            self._closing = True
            thread = self._thread
        self._wake.set()
        if thread is not None:
            thread.join(timeout=10)
