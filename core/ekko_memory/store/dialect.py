"""The seam between the portable store and one database's specifics."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol

from sqlalchemy.engine import Connection

from ekko_memory.store.count_cache import CountCache
from ekko_memory.store.search_text import QueryTerm

# What a driver error means for the store: try again (busy), the database refuses
# writes (readonly), it is damaged (corrupt), a constraint said no (integrity), the
# server cannot be reached (unreachable), or anything else (other).
ErrorKind = Literal["busy", "readonly", "corrupt", "io", "integrity", "unreachable", "other"]


class Dialect(Protocol):
    """What the store needs from a backend beyond portable SQL."""

    name: str
    # Driver exceptions that escape SQLAlchemy's wrapping (caught beside DBAPIError).
    driver_errors: ClassVar[tuple[type[BaseException], ...]]
    # Execution options of write transactions, of the migration's, and of read transactions.
    write_options: ClassVar[dict[str, Any]]
    exclusive_options: ClassVar[dict[str, Any]]
    read_options: ClassVar[dict[str, Any]]
    # Whether snapshot reads may begin and end on a connection pinned to their thread with
    # a bare BEGIN/COMMIT (``SqlStore.snapshot``); otherwise they go through the pool.
    pins_reads: ClassVar[bool]
    # What a hard delete's scrub reports when ``checkpoint`` could not finish.
    checkpoint_warning: ClassVar[str]
    # Whether ``checkpoint`` rewrites the tables as ``vacuum`` does (no need for both).
    checkpoint_vacuums: ClassVar[bool]
    # How many active nodes a topic query starts from (see StoreReader._find_sql).
    topic_sizes: CountCache[Hashable]

    def backup(self, version: int) -> Path | None: ...

    def file_problem(self) -> str | None:
        """Why the store's file is no longer the one it opened (deleted, replaced), or None."""
        ...

    def prepare_schema(self, conn: Connection) -> None: ...

    def create_search_index(self, conn: Connection) -> None: ...

    def bound_search_backlog(self, conn: Connection) -> None: ...

    def index_node(
        self,
        conn: Connection,
        seq: int,
        title: str,
        content: str,
        tags: list[str],
        entities: list[str],
        *,
        new: bool = False,
    ) -> None: ...

    def index_nodes(
        self,
        conn: Connection,
        items: list[tuple[int, str, str, list[str], list[str]]],
        *,
        new: bool = False,
    ) -> None:
        """``index_node`` for several nodes (seq, title, content, tags, entities) at once."""
        ...

    def bulk_write(self, conn: Connection, rows: int) -> AbstractContextManager[None]:
        """What a bulk insert of ``rows`` nodes runs inside (SQLite: a wider page cache)."""
        ...

    def unindex_nodes(self, conn: Connection, seqs: list[int]) -> None: ...

    def compact_search_index(self, conn: Connection) -> None: ...

    def search_sql(
        self,
        terms: Sequence[QueryTerm],
        *,
        any_term: bool = False,
        cap: int | None = None,
        ranked: bool = True,
        window: int | None = None,
    ) -> tuple[str, dict[str, Any]] | None:
        """SQL yielding ``(seq, rank)`` for nodes matching all ``terms`` (any, with
        ``any_term``), lower rank = better: the best ``cap`` (all when None), ranking only
        the newest ``window`` matches if given; unranked, ``seq`` alone. None when no
        term is searchable."""
        ...

    def term_counts(self, conn: Connection, terms: Sequence[str], cap: int) -> dict[str, int]:
        """How many nodes hold each single-token term, up to ``cap`` (absent: none)."""
        ...

    # Maintenance takes the raw driver connection, in autocommit (see SqlStore.raw).
    def checkpoint(self, raw: Any) -> bool: ...

    def storage_files(self) -> list[Path]: ...

    def backup_files(self) -> list[Path]: ...

    def vacuum(self, raw: Any) -> None: ...

    def compact(self, raw: Any) -> tuple[list[str], list[str]]:
        """Give freed space back (File ▸ Compact stores); returns (statements run, warnings)."""
        ...

    def storage_bytes(self, raw: Any) -> int | None: ...

    def analyze(self, raw: Any) -> None: ...

    def has_statistics(self, raw: Any) -> bool: ...

    def data_version(self, conn: Connection) -> int: ...

    def change_count(self) -> int | None:
        """A number that changes whenever anyone commits to the store, read without a
        transaction; None when there is none (nothing may then be kept between reads)."""
        ...

    def change_marks(self, conn: Connection) -> tuple[int, ...]: ...

    def fetch(
        self, conn: Connection, sql: str, params: dict[str, Any], *, reuse_plan: bool = True
    ) -> list[tuple[Any, ...]]:
        """Rows of portable SQL with ``:name`` parameters. ``reuse_plan=False``: plan it for
        these values every time (a server may otherwise reuse a generic plan)."""
        ...

    def execute(
        self, conn: Connection, sql: str, params: dict[str, Any] | list[dict[str, Any]]
    ) -> None: ...

    def classify_error(self, error: BaseException) -> ErrorKind: ...

    def committed(self) -> None:
        """Called after every committed write transaction (background housekeeping)."""
        ...

    def close(self) -> None: ...
