"""The facade every caller uses: the agent, the CLI, the MCP server and the app."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from ekko_memory.models import Scope
from ekko_memory.service.paths import StorePaths
from ekko_memory.store.sql_store import SqlStore, StoreHealth

StoreName = Literal["workspace", "user"]


class MemoryService:
    """Long-term memory over a workspace store and a user store (plus read-only global data)."""

    def __init__(self, paths: StorePaths) -> None:
        self.paths = paths
        self.workspace_store = SqlStore.open_sqlite(paths.workspace_db)
        self.user_store = SqlStore.open_sqlite(paths.user_db)

    def store_for_scope(self, scope: Scope) -> SqlStore:
        """Session and workspace scope live in the workspace store; user scope in the user store."""
        if scope == "user":
            return self.user_store
        if scope in ("session", "workspace"):
            return self.workspace_store
        raise ValueError(f"scope {scope!r} has no writable store")

    def stores(self) -> list[tuple[StoreName, SqlStore]]:
        """The writable stores by name."""
        return [("workspace", self.workspace_store), ("user", self.user_store)]

    def health(self) -> dict[str, StoreHealth]:
        """Each store's health."""
        return {name: store.health for name, store in self.stores()}

    def close(self) -> None:
        """Close both stores."""
        for _, store in self.stores():
            store.close()

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_memory(
    workspace_dir: str | os.PathLike[str], *, user_home: str | os.PathLike[str] | None = None
) -> MemoryService:
    """Open (creating and migrating) the workspace and user stores. Never raises on a bad file:
    a store that cannot open is disabled and ``health()`` says why."""
    return MemoryService(StorePaths.resolve(Path(workspace_dir), user_home))
