"""PostgreSQL URLs for the connection dialog and the recent list, with the standard library
only: build one from fields (the password quoted), read one back into fields, and remove
the password before anything is shown or saved.

The core checks and normalizes the URL when it opens it (``open_memory(url=...)``); these
helpers only assemble what the user typed and keep the password out of sight.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

SCHEME = "postgresql+psycopg"
DEFAULT_PORT = 5432
_SCHEMES = ("postgresql+psycopg", "postgresql", "postgres")


@dataclass(frozen=True)
class DatabaseFields:
    """What the dialog's fields hold."""

    host: str = "localhost"
    port: int = DEFAULT_PORT
    database: str = ""
    user: str = ""
    password: str = ""


def build_url(f: DatabaseFields) -> str:
    """``postgresql+psycopg://user:password@host:port/database``, user and password quoted.

    A host that is a folder (``/var/run/postgresql``) becomes the ``host`` query parameter,
    which is how libpq reaches a server over its Unix socket.
    """
    auth = quote(f.user.strip(), safe="")
    if f.password:
        auth += ":" + quote(f.password, safe="")
    host = f.host.strip()
    query = ""
    if host.startswith("/"):
        query = urlencode({"host": host})
        netloc = f"{auth}@" if auth else ""
    else:
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"  # an IPv6 address
        netloc = f"{auth}@{host}" if auth else host
        if f.port and f.port != DEFAULT_PORT:
            netloc += f":{f.port}"
    return urlunsplit((SCHEME, netloc, "/" + quote(f.database.strip(), safe=""), query, ""))


def parse_url(url: str) -> DatabaseFields | None:
    """The fields of a PostgreSQL URL (password included when it has one); None when it is
    not one the dialog can show as fields."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _SCHEMES:
        return None
    host = parts.hostname or ""
    query = dict(parse_qsl(parts.query))
    if not host and query.get("host"):
        host = query["host"]
    return DatabaseFields(
        host=host or "localhost",
        port=port or DEFAULT_PORT,
        database=unquote(parts.path.lstrip("/")),
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
    )


def has_password(url: str) -> bool:
    """The URL carries a password."""
    try:
        return urlsplit(url.strip()).password is not None
    except ValueError:
        return False


def without_password(url: str) -> str:
    """The same URL with no password in it (safe to save and to show)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return ""
    if "@" not in parts.netloc:
        return url.strip()
    auth, _, where = parts.netloc.rpartition("@")
    user = auth.split(":", 1)[0]
    netloc = f"{user}@{where}" if user else where
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def display_name(url: str) -> str:
    """``user@host:port/database`` for titles and the status line (never the password)."""
    f = parse_url(url)
    if f is None:
        return without_password(url)
    where = f.host if f.port == DEFAULT_PORT or f.host.startswith("/") else f"{f.host}:{f.port}"
    who = f"{f.user}@" if f.user else ""
    return f"{who}{where}/{f.database}"
