"""The seam between the portable store and one database's specifics."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Protocol

from sqlalchemy.engine import Connection


class Dialect(Protocol):
    """What the store needs from a backend beyond portable SQL."""

    name: str
    write_options: ClassVar[dict[str, Any]]
    exclusive_options: ClassVar[dict[str, Any]]

    def backup(self, version: int) -> Path | None: ...

    def create_search_index(self, conn: Connection) -> None: ...

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

    def unindex_nodes(self, conn: Connection, seqs: list[int]) -> None: ...

    def compact_search_index(self, conn: Connection) -> None: ...

    def search_sql(
        self, query: str, *, prefix_last: bool = False, cap: int | None = None
    ) -> tuple[str, dict[str, Any]] | None: ...

    # Maintenance takes the raw driver connection, in autocommit (see SqlStore.raw).
    def checkpoint(self, raw: Any) -> bool: ...

    def storage_files(self) -> list[Path]: ...

    def backup_files(self) -> list[Path]: ...

    def vacuum(self, raw: Any) -> None: ...

    def analyze(self, raw: Any) -> None: ...

    def has_statistics(self, raw: Any) -> bool: ...

    def data_version(self, conn: Connection) -> int: ...

    def change_marks(self, conn: Connection) -> tuple[int, ...]: ...

    def fetch(
        self, conn: Connection, sql: str, params: dict[str, Any]
    ) -> list[tuple[Any, ...]]: ...

    def execute(
        self, conn: Connection, sql: str, params: dict[str, Any] | list[dict[str, Any]]
    ) -> None: ...
