"""Where the workspace and user stores live: two SQLite files, or two schemas of a
PostgreSQL database."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ekko_memory.errors import InvalidInput
from ekko_memory.store import postgres_dialect
from ekko_memory.store.sql_store import SqlStore

DB_NAME = "memory.db"
DEFAULT_NAMESPACE = "ekko"
# open_memory() with neither a workspace folder nor a URL reads these.
URL_ENV = "EKKO_DATABASE_URL"
NAMESPACE_ENV = "EKKO_DATABASE_NAMESPACE"


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

    @property
    def config_dir(self) -> Path:
        """Where ``config.json`` is read from: ``<workspace>/.ekko``."""
        return self.workspace_db.parent

    @property
    def database_files(self) -> list[Path]:
        """The stores' database files (an export never writes over them)."""
        return [self.workspace_db, self.user_db]

    @property
    def store_folders(self) -> list[Path]:
        """The folders holding the stores and their configuration (no export goes there)."""
        return [self.workspace_db.parent, self.user_home]

    @property
    def state_dir(self) -> Path:
        """The user's own folder of Ekko Memory: where exports under way are recorded."""
        return self.user_home

    def open_stores(self) -> tuple[SqlStore, SqlStore]:
        """(workspace store, user store), each ok, read-only or disabled with a reason."""
        return SqlStore.open_sqlite(self.workspace_db), SqlStore.open_sqlite(self.user_db)

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


@dataclass(frozen=True)
class DatabaseStores:
    """Both stores in one PostgreSQL database, as two schemas: ``<namespace>_workspace``
    (session and workspace scope, messages, summaries) and ``<namespace>_user`` (user scope).

    Rows carry ``workspace_id`` / ``user_id``, so one deployment serves many workspaces
    and users; a separate namespace gives a team (or a test) a deployment of its own in
    the same database. ``user_url`` puts the user store in another database.
    """

    url: str
    namespace: str = DEFAULT_NAMESPACE
    user_url: str | None = None
    # Where config.json is read from (the workspace's .ekko folder, or the user home).
    config_dir: Path = field(default_factory=default_user_home)

    @property
    def workspace_schema(self) -> str:
        """The schema of the workspace store."""
        return f"{self.namespace}_workspace"

    @property
    def user_schema(self) -> str:
        """The schema of the user store."""
        return f"{self.namespace}_user"

    @property
    def database_files(self) -> list[Path]:
        """No files: the stores live on the server."""
        return []

    @property
    def store_folders(self) -> list[Path]:
        """The folder holding the configuration (no export goes there)."""
        return [self.config_dir]

    @property
    def state_dir(self) -> Path:
        """Where exports under way are recorded: the configuration's folder."""
        return self.config_dir

    def open_stores(self) -> tuple[SqlStore, SqlStore]:
        """(workspace store, user store); an unreachable server gives disabled stores."""
        return (
            SqlStore.open_postgres(self.url, schema=self.workspace_schema),
            SqlStore.open_postgres(self.user_url or self.url, schema=self.user_schema),
        )

    def describe(self) -> str:
        """The URL without its password, and the namespace."""
        return f"{postgres_dialect.redact_url(self.url)} (namespace {self.namespace})"

    @classmethod
    def resolve(
        cls,
        url: str,
        *,
        namespace: str | None = None,
        user_url: str | None = None,
        config_dir: Path | None = None,
    ) -> DatabaseStores:
        """Checked and normalized (``postgresql+psycopg://``); InvalidInput says what is wrong."""
        ns = namespace or os.environ.get(NAMESPACE_ENV) or DEFAULT_NAMESPACE
        try:
            normalized = postgres_dialect.normalize_url(url)
            normalized_user = postgres_dialect.normalize_url(user_url) if user_url else None
            postgres_dialect.check_schema_name(f"{ns}_workspace")
        except ValueError as e:
            raise InvalidInput(str(e)) from e
        return cls(normalized, ns, normalized_user, config_dir or default_user_home())


StoreLocations = StorePaths | DatabaseStores


def resolve_locations(
    workspace_dir: str | os.PathLike[str] | None,
    user_home: str | os.PathLike[str] | None,
    *,
    url: str | None = None,
    namespace: str | None = None,
    user_url: str | None = None,
) -> StoreLocations:
    """SQLite files for a workspace folder; PostgreSQL for a URL (or ``$EKKO_DATABASE_URL``
    when neither is given). With a URL, a workspace folder only supplies ``config.json``."""
    if url is None and workspace_dir is None:
        url = os.environ.get(URL_ENV) or None
        if url is None:
            raise InvalidInput(
                f"open_memory needs a workspace folder or a database URL (url=… or ${URL_ENV})"
            )
    if url is None:
        assert workspace_dir is not None
        return StorePaths.resolve(workspace_dir, user_home)
    if workspace_dir is not None:
        config_dir = Path(workspace_dir).expanduser().resolve() / ".ekko"
    else:
        config_dir = (
            Path(user_home).expanduser().resolve() if user_home is not None else default_user_home()
        )
    return DatabaseStores.resolve(
        url, namespace=namespace, user_url=user_url, config_dir=config_dir
    )
