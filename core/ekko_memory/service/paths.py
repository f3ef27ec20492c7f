"""Where the workspace and user stores live on disk."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DB_NAME = "memory.db"


def default_user_home() -> Path:
    """``$EKKO_HOME`` if set, else ``~/.ekko``."""
    env = os.environ.get("EKKO_HOME")
    return Path(env).expanduser() if env else Path.home() / ".ekko"


@dataclass(frozen=True)
class StorePaths:
    """The two database files of one open memory."""

    workspace_dir: Path
    user_home: Path

    @property
    def workspace_db(self) -> Path:
        """``<workspace>/.ekko/memory.db``."""
        return self.workspace_dir / ".ekko" / DB_NAME

    @property
    def user_db(self) -> Path:
        """``<user home>/memory.db`` (``~/.ekko/memory.db`` by default)."""
        return self.user_home / DB_NAME

    @classmethod
    def resolve(
        cls, workspace_dir: str | os.PathLike[str], user_home: str | os.PathLike[str] | None
    ) -> StorePaths:
        """Absolute paths from what the caller gave (``~`` expanded)."""
        ws = Path(workspace_dir).expanduser().resolve()
        home = (
            Path(user_home).expanduser().resolve() if user_home is not None else default_user_home()
        )
        return cls(ws, home)
