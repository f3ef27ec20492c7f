"""Round trips to PostgreSQL, counted on the wire: libpq's own protocol trace of every
psycopg connection opened while a ``WireCounter`` is installed.

A round trip is a simple ``Query`` (``BEGIN``, ``COMMIT``, a pool ping) or an
extended-protocol ``Sync`` (a statement with parameters, a prepare; a pipeline of
statements ends with one), each answered by one ``ReadyForQuery``. Counting those messages counts what crossed the wire, whatever
layer (SQLAlchemy, the store's raw-driver reads, a pinned connection) sent it.

    with WireCounter() as wire:
        mem = open_memory(url=...)        # connections opened now are traced
        mark = wire.mark()
        mem.build_context(...)
        print(wire.since(mark))           # round trips of that call
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import psycopg


class WireCounter:
    """Traces every psycopg connection made while installed into one file."""

    def __init__(self) -> None:
        fd, self.path = tempfile.mkstemp(prefix="ekko-wire-", suffix=".trace")
        os.close(fd)
        self._saved: list[tuple[Any, str, Any]] = []
        self._files: list[Any] = []

    def __enter__(self) -> WireCounter:
        original = psycopg.Connection.connect
        counter = self

        def connect(*args: Any, **kwargs: Any) -> Any:
            conn = original(*args, **kwargs)
            counter.trace(conn)
            return conn

        self._saved = [
            (psycopg, "connect", psycopg.connect),
            (psycopg.Connection, "connect", psycopg.Connection.__dict__["connect"]),
        ]
        psycopg.connect = connect  # type: ignore[assignment]
        psycopg.Connection.connect = staticmethod(connect)  # type: ignore[method-assign,assignment]
        return self

    def trace(self, conn: Any) -> None:
        """Trace one more connection (one opened before the counter was installed)."""
        f = open(self.path, "ab")  # noqa: SIM115 - libpq writes through it until the end
        self._files.append(f)
        conn.pgconn.trace(f.fileno())

    def __exit__(self, *exc: object) -> None:
        for owner, name, value in self._saved:
            setattr(owner, name, value)
        self._saved = []

    def close(self) -> None:
        """Stop counting and remove the trace (the traced connections should be closed)."""
        for f in self._files:
            try:
                f.close()
            except OSError:
                pass
        self._files = []
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    def mark(self) -> int:
        """Where the trace is now (for ``since``)."""
        return os.path.getsize(self.path)

    def lines(self, mark: int) -> list[str]:
        """The trace lines written after ``mark``."""
        with open(self.path, "rb") as f:
            f.seek(mark)
            return f.read().decode("utf-8", "replace").splitlines()

    def since(self, mark: int) -> int:
        """Round trips begun after ``mark``: the client's simple ``Query`` and extended
        protocol ``Sync`` messages, each answered by one ``ReadyForQuery``. (Counted at
        the client's side: libpq reads a ``ReadyForQuery`` only as the next command
        starts, so the server's side would count one call's last answer in the next.)"""
        return sum(
            1
            for line in self.lines(mark)
            if "\tF\t" in line and ("\tQuery\t" in line or line.rstrip().endswith("\tSync"))
        )

    def queries(self, mark: int) -> list[str]:
        """What the client sent after ``mark``, one line per message that asked for an
        answer (a simple query, or an extended-protocol statement's Parse or Bind)."""
        return [
            line.split("\t", 4)[-1]
            for line in self.lines(mark)
            if "\tF\t" in line
            and ("\tQuery\t" in line or "\tParse\t" in line or "\tBind\t" in line)
        ]
