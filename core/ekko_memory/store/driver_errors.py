"""Which exceptions come from the database driver, and the driver's own message."""

from __future__ import annotations

from sqlalchemy import exc

from ekko_memory.store.dialect import Dialect


def db_errors(dialect: Dialect) -> tuple[type[BaseException], ...]:
    """SQLAlchemy's wrapped driver errors plus those the dialect's driver raises bare."""
    return (exc.DBAPIError, *dialect.driver_errors)


def driver_message(e: BaseException) -> str:
    """The driver's message of ``e`` on one line (SQLAlchemy's wrapper adds its own)."""
    return " ".join(str(getattr(e, "orig", None) or e).split())
