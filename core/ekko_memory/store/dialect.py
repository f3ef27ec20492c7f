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
    ) -> None: ...

    def unindex_nodes(self, conn: Connection, seqs: list[int]) -> None: ...

    def compact_search_index(self, conn: Connection) -> None: ...

    def search_sql(
        self, query: str, *, prefix_last: bool = False, cap: int | None = None
    ) -> tuple[str, dict[str, Any]] | None: ...

    def checkpoint(self, conn: Connection) -> bool: ...

    def storage_files(self) -> list[Path]: ...

    def backup_files(self) -> list[Path]: ...

    def vacuum(self, conn: Connection) -> None: ...

    def analyze(self, conn: Connection) -> None: ...

    def data_version(self, conn: Connection) -> int: ...

    def change_marks(self, conn: Connection) -> tuple[int, ...]: ...
