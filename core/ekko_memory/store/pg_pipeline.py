"""Statements sent to PostgreSQL in one libpq pipeline, flushed once.

psycopg's pipeline mode (``Connection.pipeline()``) sends each statement as it is
executed: per statement a poll, a ``send`` and a look for answers, and the server woken
for each. A turn's ~30 statements (two stores) cost the client 3.1–3.5 ms of CPU that way,
measured at 100k memories on 2 busy cores, against 1.9 ms queued in libpq's buffer and
sent with one ``Sync`` (bench/README.md, the PostgreSQL turn's fifth pass).
This module drives the connection's libpq handle (``psycopg.pq``) directly: the
statements are queued, sent at once, and their answers decoded with the connection's own
type adapters (``psycopg.adapt.Transformer``), as its cursors would.

Statements asked to reuse their plan are prepared once per connection under names of
their own (``ekko_<n>``, beside psycopg's ``_pg3_<n>``), at most ``PREPARED_MAX`` of
them (the least recently used deallocated in the next pipeline). psycopg may deallocate
every prepared statement of a connection (after a DROP, ALTER or ROLLBACK it ran with
statements of its own prepared): a pipeline that finds one of its names gone rolls back,
forgets them all and is sent once more, preparing under new names (never one used
before on that connection, in case some of the old ones are still there).

psycopg is imported when a pipeline runs, never at import time (the core imports
without the ``postgres`` extra).
"""

from __future__ import annotations

import re
import select
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# ``:name`` outside quotes, not a ``::type`` cast (as postgres_dialect._NAMED).
_NAMED = re.compile(r"('(?:[^']|'')*')|(?<![:\w]):([A-Za-z_]\w*)")
# Prepared statements kept per connection (psycopg keeps 100 of its own).
PREPARED_MAX = 128
# SQLSTATE of "prepared statement … does not exist".
_UNKNOWN_STATEMENT = "26000"


@dataclass(frozen=True)
class Sent:
    """One statement: SQL with ``:name`` parameters and their values; ``prepare``: run
    under a named prepared statement (planned once; how is up to ``plan_cache_mode``),
    else parsed and planned for its values each time."""

    sql: str
    params: dict[str, Any]
    prepare: bool


@lru_cache(maxsize=1024)
def numbered(sql: str) -> tuple[bytes, tuple[str, ...]]:
    """``sql`` with its ``:name`` parameters as ``$1``, ``$2``… and the names in that
    order (a name used twice is one parameter)."""
    names: list[str] = []

    def swap(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return m.group(1)
        name = m.group(2)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _NAMED.sub(swap, sql).encode(), tuple(names)


class _Names:
    """A connection's prepared statements: (SQL, parameter types) → name, oldest first."""

    def __init__(self) -> None:
        self.names: OrderedDict[tuple[bytes, tuple[int, ...]], bytes] = OrderedDict()
        self.made = 0

    def new(self, key: tuple[bytes, tuple[int, ...]]) -> bytes:
        name = f"ekko_{self.made}".encode()
        self.made += 1
        self.names[key] = name
        return name


# Keyed by the psycopg connection: its prepared statements die with it.
_prepared: weakref.WeakKeyDictionary[Any, _Names] = weakref.WeakKeyDictionary()


class StatementGone(Exception):
    """One of this module's prepared statements was deallocated behind its back."""


def run(
    driver: Any, begin: str, statements: Sequence[Sent], end: str
) -> list[list[tuple[Any, ...]]]:
    """Every statement's rows, sent in one pipeline between ``begin`` and ``end`` (one
    transaction) on ``driver`` (a psycopg connection in autocommit, not in a pipeline);
    one flush, one ``Sync``, the answers read together. A failed statement raises its
    psycopg error once the pipeline is read to its end; the connection is then in a
    failed transaction (the caller drops it, as after any failed read)."""
    return send(driver, begin, statements, end).receive()


@dataclass
class Pending:
    """A pipeline sent and not yet read: ``receive()`` its answers. The connection must
    not be used for anything else meanwhile."""

    driver: Any
    begin: str
    statements: Sequence[Sent]
    end: str
    # Per command sent: the statement whose rows it answers (None: no rows wanted).
    answers: list[int | None]
    # The prepared statements this pipeline makes.
    made: list[tuple[bytes, tuple[int, ...]]]
    transformer: Any

    def receive(self) -> list[list[tuple[Any, ...]]]:
        """Every statement's rows (see ``run``)."""
        try:
            return self._receive()
        except StatementGone:
            # The server has forgotten our names: end the failed transaction, forget
            # them all, and send the pipeline again (preparing anew).
            known = _prepared.get(self.driver)
            if known is not None:
                known.names.clear()  # ``made`` goes on: new names
            _command(self.driver.pgconn, b"ROLLBACK")
            return send(self.driver, self.begin, self.statements, self.end)._receive()

    def _receive(self) -> list[list[tuple[Any, ...]]]:
        from psycopg import errors, pq

        pgconn = self.driver.pgconn
        tx = self.transformer
        out: list[list[tuple[Any, ...]]] = [[] for _ in self.statements]
        failed: Any = None
        try:
            for wanted in self.answers:
                result = _get(pgconn)
                if _get(pgconn) is not None:  # a command's results end with None
                    raise _protocol_error("more than one result for a statement")
                if result.status == pq.ExecStatus.FATAL_ERROR:
                    failed = failed or result
                elif wanted is not None and result.status == pq.ExecStatus.TUPLES_OK:
                    tx.set_pgresult(result)
                    out[wanted] = tx.load_rows(0, result.ntuples, tuple)
            if _get(pgconn).status != pq.ExecStatus.PIPELINE_SYNC:
                raise _protocol_error("no Sync at the end of the pipeline")
        except BaseException:
            _leave_pipeline(pgconn)
            raise
        pgconn.exit_pipeline_mode()
        if failed is not None:
            known = _prepared.get(self.driver)
            for key in self.made:  # not prepared, or not known to be
                if known is not None:
                    known.names.pop(key, None)
            error = errors.error_from_result(failed, encoding=self.driver.info.encoding)
            if error.sqlstate == _UNKNOWN_STATEMENT:
                raise StatementGone() from error
            raise error
        return out


def send(driver: Any, begin: str, statements: Sequence[Sent], end: str) -> Pending:
    """Send ``statements`` between ``begin`` and ``end`` in one pipeline (one flush, one
    ``Sync``) without waiting for the server: another connection's pipeline can be sent
    before this one's answers are read (``Pending.receive``)."""
    from psycopg.adapt import PyFormat, Transformer

    pgconn = driver.pgconn
    tx = Transformer(driver)
    known = _prepared.get(driver)
    if known is None:
        known = _prepared[driver] = _Names()
    answers: list[int | None] = []
    made: list[tuple[bytes, tuple[int, ...]]] = []
    pgconn.enter_pipeline_mode()
    try:
        pgconn.send_query_params(begin.encode(), None)
        answers.append(None)
        while len(known.names) > PREPARED_MAX:
            _, old = known.names.popitem(last=False)
            _send_close(pgconn, old)
            answers.append(None)
        for i, st in enumerate(statements):
            sql, order = numbered(st.sql)
            values = [st.params[name] for name in order]
            dumped = tx.dump_sequence(values, [PyFormat.AUTO] * len(values))
            types, formats = tuple(tx.types or ()), tx.formats
            if st.prepare:
                key = (sql, types)
                name = known.names.get(key)
                if name is None:
                    name = known.new(key)
                    made.append(key)
                    pgconn.send_prepare(name, sql, param_types=types)
                    answers.append(None)
                else:
                    known.names.move_to_end(key)
                pgconn.send_query_prepared(name, dumped, param_formats=formats)
            else:
                pgconn.send_query_params(sql, dumped, param_types=types, param_formats=formats)
            answers.append(i)
        pgconn.send_query_params(end.encode(), None)
        answers.append(None)
        pgconn.pipeline_sync()
        _flush(pgconn)
    except BaseException:
        for key in made:
            known.names.pop(key, None)
        _leave_pipeline(pgconn)
        raise
    return Pending(driver, begin, statements, end, answers, made, tx)


def _send_close(pgconn: Any, name: bytes) -> None:
    """Deallocate a prepared statement: by the protocol's Close where libpq has it (17+;
    PgBouncer passes it on, not a ``DEALLOCATE``), else by SQL."""
    from psycopg import pq

    if pq.version() >= 170000 and hasattr(pgconn, "send_close_prepared"):
        pgconn.send_close_prepared(name)
    else:
        pgconn.send_query_params(b"DEALLOCATE " + name, None)


def _leave_pipeline(pgconn: Any) -> None:
    try:
        pgconn.exit_pipeline_mode()
    except Exception:  # answers left unread: the caller drops the connection
        pass


def _protocol_error(what: str) -> Exception:
    from psycopg import InternalError

    return InternalError(f"unexpected answer in a pipeline: {what}")


def _command(pgconn: Any, sql: bytes) -> None:
    """Run one statement whose answer is not wanted (outside a pipeline)."""
    pgconn.send_query_params(sql, None)
    _flush(pgconn)
    while _get(pgconn) is not None:
        pass


def _flush(pgconn: Any) -> None:
    """Send what libpq holds. When the socket is full, the server may be blocked sending
    answers we have not read: those are read in meanwhile (as psycopg's ``send`` does)."""
    while pgconn.flush():  # 1: more to send once the socket takes it
        if _wait(pgconn.socket, write=True):
            pgconn.consume_input()


def _get(pgconn: Any) -> Any:
    """The next result (None: the current statement's results are all read)."""
    while pgconn.is_busy():
        _wait(pgconn.socket, write=False)
        pgconn.consume_input()
    return pgconn.get_result()


def _wait(fd: int, *, write: bool) -> bool:
    """Block until ``fd`` can be read (or, with ``write``, written); whether it can be
    read."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN | (select.POLLOUT if write else 0))
        events = poller.poll()
        return any(ev & (select.POLLIN | select.POLLERR | select.POLLHUP) for _, ev in events)
    # Windows: no poll(); select() takes sockets there.
    readable, _, _ = select.select([fd], [fd] if write else [], [])
    return bool(readable)
