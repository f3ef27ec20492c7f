"""The store's transactions as plain context managers: a read or write on a pooled
connection, and the hot path's snapshot on the thread's pinned connection.

They are the store's own machinery and use its private parts (its engine check, error
translation, serial lock and pins)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sqlalchemy.engine import Connection, RootTransaction

from ekko_memory.errors import EkkoMemoryError, InvalidInput
from ekko_memory.store.driver_errors import db_errors
from ekko_memory.store.reader import StoreReader
from ekko_memory.store.thread_pins import Pin
from ekko_memory.store.writer import StoreWriter

if TYPE_CHECKING:
    from ekko_memory.store.sql_store import SqlStore


R = TypeVar("R", bound=StoreReader)


class Transaction(Generic[R]):
    """One transaction on a pooled connection, as a plain context manager.

    Not a generator-based ``contextmanager``: this is on every read and write, and the
    generator machinery plus a nested error-translating context cost ~10 µs of the
    ~40 µs a write transaction spent outside SQLite (measured, empty transactions).
    """

    __slots__ = ("_conn", "_held", "_opened", "_store", "_txn", "_view", "_write")

    def __init__(self, store: SqlStore, view: type[R], *, write: bool) -> None:
        self._store = store
        self._view = view
        self._write = write
        self._conn: Connection | None = None
        self._txn: RootTransaction | None = None
        self._held = False
        self._opened: R | None = None

    def __enter__(self) -> R:
        store = self._store
        engine = store._require(write=self._write)
        dialect = store.dialect
        if store._serial is not None:
            store._serial.acquire()
            self._held = True
        try:
            options = dialect.write_options if self._write else dialect.read_options
            self._conn = conn = engine.connect()
            if options:
                conn.execution_options(**options)
            self._txn = conn.begin()
        except EkkoMemoryError:
            self._close()
            raise
        except db_errors(dialect) as e:
            self._close()
            raise store._translated(e) from e
        view = self._view(conn, dialect)
        if self._write:
            self._opened = view  # type: ignore[assignment]
        return view  # type: ignore[return-value]

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: Any
    ) -> None:
        store = self._store
        txn = self._txn
        try:
            if error is None:
                assert txn is not None
                txn.commit()
            elif txn is not None and txn.is_active:
                txn.rollback()
        except db_errors(store.dialect) as e:
            self._close()
            if error is None:
                raise store._translated(e) from e
            # The rollback failed too: report the body's error, translated below.
        else:
            self._close()
        if error is None:
            if self._write:
                store.dialect.committed()
                written = getattr(self._opened, "written_node_ids", None)
                self._opened = None
                if written and store.write_listeners:
                    store.tell_written(written)
            return
        self._opened = None
        raise_as_store_error(store, error)

    def _close(self) -> None:
        conn, self._conn, self._txn = self._conn, None, None
        try:
            if conn is not None:
                try:
                    conn.close()
                except db_errors(self._store.dialect):
                    pass  # a dead connection: the pool drops it
        finally:
            if self._held:
                self._held = False
                assert self._store._serial is not None
                self._store._serial.release()


class Snapshot:
    """A read transaction on the calling thread's pinned connection (``thread_pins``),
    begun and ended with a bare BEGIN/ROLLBACK (a read keeps nothing); through the pool
    when the thread's pin is busy (a nested read). Errors mean what they mean in
    ``Transaction``."""

    __slots__ = ("_inner", "_pin", "_store")

    def __init__(self, store: SqlStore) -> None:
        self._store = store
        self._pin: Pin | None = None
        self._inner: Transaction[StoreReader] | None = None

    def __enter__(self) -> StoreReader:
        store = self._store
        engine = store._require(write=False)
        try:
            pin = store._pins.take(engine)
            if pin is not None and pin.retire:
                # A bulk load's connection (``Pin.retire``): closed for good (not back
                # into the pool, where the next checkout would find it), a new one from
                # here on.
                pin.conn.invalidate()
                store._pins.give_back(pin, broken=True)
                pin = store._pins.take(engine)
        except db_errors(store.dialect) as e:
            raise store._translated(e) from e
        if pin is None:
            self._inner = inner = Transaction(store, StoreReader, write=False)
            return inner.__enter__()
        try:
            pin.driver.execute("BEGIN")
        except db_errors(store.dialect) as e:
            store._pins.give_back(pin, broken=True)
            raise store._translated(e) from e
        pin.snapshot_open = True
        self._pin = pin
        return StoreReader(pin.conn, store.dialect)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: Any
    ) -> None:
        if self._inner is not None:
            self._inner.__exit__(kind, error, tb)
            return
        store, pin = self._store, self._pin
        assert pin is not None
        self._pin = None
        pin.snapshot_open = False
        broken = False
        try:
            if pin.conn.in_transaction():
                # A query went through SQLAlchemy, which then counts the driver's
                # transaction as its own: end it there, so both agree it is over.
                pin.conn.rollback()
            elif pin.driver.in_transaction:
                pin.driver.execute("ROLLBACK")
        except db_errors(store.dialect) as e:
            broken = True
            if error is None:
                store._pins.give_back(pin, broken=True)
                raise store._translated(e) from e
        store._pins.give_back(pin, broken=broken)
        if error is not None:
            raise_as_store_error(store, error)


class PinnedWrite:
    """A write transaction on the calling thread's pinned connection (``thread_pins``),
    begun with a bare ``BEGIN IMMEDIATE`` and ended with ``COMMIT`` or ``ROLLBACK`` on the
    driver; through the pool (``Transaction``) when the thread's pin is busy (a write
    inside a read of the same thread). The same write lock, the same commit as
    ``Transaction``: only the pool's checkout, SQLAlchemy's transaction machinery and its
    events are skipped (~0.1 ms of a governed write at 100k memories)."""

    __slots__ = ("_inner", "_pin", "_store", "_view")

    def __init__(self, store: SqlStore) -> None:
        self._store = store
        self._pin: Pin | None = None
        self._inner: Transaction[StoreWriter] | None = None
        self._view: StoreWriter | None = None

    def __enter__(self) -> StoreWriter:
        store = self._store
        engine = store._require(write=True)
        try:
            pin = store._pins.take(engine)
        except db_errors(store.dialect) as e:
            raise store._translated(e) from e
        if pin is None:
            self._inner = inner = Transaction(store, StoreWriter, write=True)
            return inner.__enter__()
        try:
            pin.driver.execute("BEGIN IMMEDIATE")
        except db_errors(store.dialect) as e:
            # Nothing begun (the lock was not had): the connection is as it was.
            store._pins.give_back(pin, broken=pin.driver.in_transaction)
            raise store._translated(e) from e
        # A statement through SQLAlchemy then finds the transaction begun on the driver.
        pin.snapshot_open = True
        self._pin = pin
        self._view = view = StoreWriter(pin.conn, store.dialect)
        return view

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: Any
    ) -> None:
        if self._inner is not None:
            self._inner.__exit__(kind, error, tb)
            return
        store, pin, view = self._store, self._pin, self._view
        assert pin is not None and view is not None
        self._pin = self._view = None
        try:
            if error is None:
                if pin.conn.in_transaction():
                    # A statement went through SQLAlchemy, which counts the driver's
                    # transaction as its own: its commit commits the driver's.
                    pin.conn.commit()
                else:
                    pin.driver.execute("COMMIT")
            else:
                _roll_back(pin)
        except db_errors(store.dialect) as e:
            pin.snapshot_open = False
            try:
                _roll_back(pin)
            except db_errors(store.dialect):
                pass
            # A commit or rollback that failed (a full disk) may leave SQLAlchemy's side of
            # the connection in a state only a new one clears, as ``Transaction`` does by
            # closing its pooled connection: the next write takes a new one.
            store._pins.give_back(pin, broken=True)
            if error is None:
                raise store._translated(e) from e
            raise_as_store_error(store, error)
            return
        pin.snapshot_open = False
        # After a driver error in the body, the same: a new connection for the next one.
        store._pins.give_back(pin, broken=isinstance(error, db_errors(store.dialect)))
        if error is not None:
            raise_as_store_error(store, error)
            return
        store.dialect.committed()
        written = view.written_node_ids
        if written and store.write_listeners:
            store.tell_written(written)


def _roll_back(pin: Pin) -> None:
    """End a transaction begun on the pin's driver without keeping anything."""
    if pin.conn.in_transaction():
        pin.conn.rollback()
    elif pin.driver.in_transaction:
        pin.driver.execute("ROLLBACK")


def raise_as_store_error(store: SqlStore, error: BaseException) -> None:
    """Raise what a transaction body's ``error`` means to callers (a driver error as the
    store's own); return for any other error, which propagates as it is."""
    if isinstance(error, db_errors(store.dialect)) and not isinstance(error, EkkoMemoryError):
        raise store._translated(error) from error
    if isinstance(error, UnicodeEncodeError):
        # A lone surrogate in an id or a filter (the driver cannot encode it as UTF-8).
        raise InvalidInput(
            f"text with a lone surrogate ({error.object[error.start : error.end]!r})"
            " cannot be stored or looked up"
        ) from error
