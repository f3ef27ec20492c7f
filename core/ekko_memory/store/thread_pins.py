"""Connections pinned to the threads that read a store most (the agent's turn).

A read through SQLAlchemy checks a connection out of the pool, begins through its
transaction machinery and events, commits and checks the connection back in: ~25 µs a
transaction beside ~1 µs for BEGIN and COMMIT on a connection already at hand, and a
turn's context reads two stores (measured with ``bench/bench_context.py``). A thread's
snapshot reads (``SqlStore.snapshot``) keep one pooled connection between reads instead.

At most ``PINNED_THREADS`` threads hold one: the least recently used idle pin is closed
when another thread takes one, so threads that come and go (a GUI's worker pool) never
pile up connections. A pin is used by its own thread only, and only between ``take``
and ``give_back``; a nested read on the same thread finds its pin busy and reads through
the pool.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

PINNED_THREADS = 4

# Counts forks: a child must not use (or close: SQLite would checkpoint and delete the
# parent's write-ahead log) the connections it inherited, whose thread ids it reuses.
_generation = 0


def _forked() -> None:
    global _generation
    _generation += 1


os.register_at_fork(after_in_child=_forked)
# The key of a pinned connection's ``Pin`` in its ``Connection.info``.
PIN_INFO = "ekko_pin"


class Pin:
    """A connection held by one thread: ``snapshot_open`` while a snapshot read has begun
    its transaction on the driver (a query through SQLAlchemy then must not begin one)."""

    __slots__ = ("busy", "conn", "driver", "engine", "retire", "snapshot_open")

    def __init__(self, engine: Engine, conn: Connection) -> None:
        self.engine = engine
        self.conn = conn
        self.driver: Any = conn.connection.dbapi_connection
        self.busy = True
        self.snapshot_open = False
        # Set by a bulk insert, which leaves the connection's settings wide (SQLite: the
        # page cache and the log's checkpoint threshold) for the batches after it: the
        # thread's next read closes it and takes a new one. (A connection that loaded 50k
        # nodes also kept state that made every ~15th small commit after it take ~70 ms;
        # a new connection has none.)
        self.retire = False
        conn.info[PIN_INFO] = self


def _close_quietly(conn: Connection) -> None:
    try:
        # The connection goes back to the pool, for any use: it is nobody's pin now.
        conn.info.pop(PIN_INFO, None)
        conn.close()
    except Exception:  # a dead connection: the pool drops it
        pass


class ThreadPins:
    """One held connection per reading thread, for at most ``limit`` threads."""

    def __init__(self, limit: int = PINNED_THREADS) -> None:
        self._lock = threading.Lock()
        self._held: OrderedDict[int, Pin] = OrderedDict()
        self._limit = limit
        self._closed = False
        self._generation = _generation

    def take(self, engine: Engine) -> Pin | None:
        """This thread's connection to ``engine``, now in use until ``give_back``; None
        when it is in use already (a nested read) or the pins are closed. May raise the
        driver's error when a new connection cannot be made."""
        if self._generation != _generation:
            # A forked child: forget the parent's pins (and a lock a parent thread held).
            self._lock = threading.Lock()
            self._held = OrderedDict()
            self._generation = _generation
        me = threading.get_ident()
        stale: list[Connection] = []
        with self._lock:
            if self._closed:
                return None
            pin = self._held.get(me)
            if pin is not None:
                if pin.busy:
                    return None
                if pin.engine is engine:
                    pin.busy = True
                    self._held.move_to_end(me)
                    return pin
                del self._held[me]  # the store opened again on another engine
                stale.append(pin.conn)
        for old in stale:
            _close_quietly(old)
        conn = engine.connect()
        try:
            fresh = Pin(engine, conn)
        except BaseException:
            _close_quietly(conn)
            raise
        with self._lock:
            if self._closed:
                closed_meanwhile = True
            else:
                closed_meanwhile = False
                self._held[me] = fresh
                stale = self._evict()
        if closed_meanwhile:
            _close_quietly(conn)
            return None
        for old in stale:
            _close_quietly(old)
        return fresh

    def _evict(self) -> list[Connection]:
        # Oldest first; a busy pin is in use on its thread and stays until given back.
        out = []
        for ident in list(self._held):
            if len(self._held) <= self._limit:
                break
            pin = self._held[ident]
            if not pin.busy:
                del self._held[ident]
                out.append(pin.conn)
        return out

    def give_back(self, pin: Pin, *, broken: bool = False) -> None:
        """End this thread's use of ``pin``; a broken one (its transaction could not end)
        is closed, and the thread's next read makes a new one."""
        me = threading.get_ident()
        with self._lock:
            mine = self._held.get(me) is pin
            keep = mine and not broken and not self._closed
            stale = []
            if keep:
                pin.busy = False
                if len(self._held) > self._limit:
                    # Pins taken while all others were busy went past the limit: back to it.
                    stale = self._evict()
            elif mine:
                del self._held[me]
        if not keep:
            _close_quietly(pin.conn)
        for conn in stale:
            _close_quietly(conn)

    def close(self) -> None:
        """Close the idle pins; a busy one closes when its thread gives it back."""
        with self._lock:
            self._closed = True
            idle = [ident for ident, pin in self._held.items() if not pin.busy]
            conns = [self._held.pop(ident).conn for ident in idle]
        for conn in conns:
            _close_quietly(conn)

    def held(self) -> int:
        """How many threads hold a connection (for tests and diagnostics)."""
        with self._lock:
            return len(self._held)
