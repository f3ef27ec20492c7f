"""Exceptions the core raises; interfaces turn them into clear messages or error results."""

from __future__ import annotations

from typing import Any, Self

from pydantic import ValidationError

# How a refusal that wrote nothing ends its English message, for agents that read it;
# interfaces read ``EkkoMemoryError.nothing_written``/``retry`` and ``detail`` instead.
NOTHING_WRITTEN = "; nothing was written"
TRY_AGAIN = "; nothing was written, try again"


class EkkoMemoryError(Exception):
    """Base class of every error raised on purpose by the core."""

    code = "error"
    # Whether the refusal wrote nothing, and whether trying again may work (the cause may
    # pass: a busy store, a memory another program keeps changing).
    nothing_written = False
    retry = False
    # Why, as a code and its specifics, for an interface to word in the user's language:
    # a store's problem (its ``StoreHealth.status``, ``reason_code`` and ``reason_args``)
    # or a reason of ``models.reasons.ERROR_REASONS`` (``because``). ``store``: the
    # store (workspace, user) a whole operation was refused for, as it cannot be written.
    status: str | None = None
    reason_code: str | None = None
    reason_args: dict[str, str] | None = None
    store: str | None = None

    def because(self, code: str, **params: object) -> Self:
        """This error with its reason as a code and its specifics (the codes are
        ``ekko_memory.models.reasons.ERROR_REASONS``), beside the English message."""
        self.reason_code = code
        self.reason_args = {name: str(value) for name, value in params.items()}
        return self

    @property
    def detail(self) -> str:
        """The message without the ending that says nothing was written."""
        text = str(self)
        for ending in (TRY_AGAIN, NOTHING_WRITTEN):
            if self.nothing_written and text.endswith(ending):
                return text.removesuffix(ending)
        return text

    def unwritten(self, *, retry: bool = False) -> Self:
        """This error as a refusal that wrote nothing (``retry``: trying again may work),
        its message ending in the words that say so."""
        if not self.nothing_written:
            ending = TRY_AGAIN if retry else NOTHING_WRITTEN
            self.args = (f"{self.args[0] if self.args else ''}{ending}", *self.args[1:])
        self.nothing_written, self.retry = True, retry or self.retry
        return self

    def for_store(self, store: str, health: Any) -> Self:
        """This error with the problem of ``store`` (its ``StoreHealth``) attached."""
        self.store = store
        self.status = health.status
        self.reason_code = health.reason_code
        self.reason_args = dict(health.reason_args)
        return self


class InvalidInput(EkkoMemoryError):
    """Arguments or data that fail validation; nothing was written."""

    code = "invalid_input"

    @classmethod
    def of(cls, what: str, error: ValidationError) -> InvalidInput:
        """A model's validation error, one short complaint per field (``what: field: …``)."""
        return cls(f"{what}: {validation_text(error)}")


def validation_text(error: ValidationError, limit: int = 5) -> str:
    """A pydantic error in one line: ``field: complaint; …`` (no input echo, no links)."""
    parts = []
    for err in error.errors()[:limit]:
        loc = ".".join(str(x) for x in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)


class NotFound(EkkoMemoryError):
    """A referenced record does not exist (or is not visible from here)."""

    code = "not_found"


class StoreUnavailable(EkkoMemoryError):
    """The store is disabled, read-only or failing; nothing was written."""

    code = "store_unavailable"
    # The message says where the store is before why ("memory store at … is readonly: …");
    # otherwise the reason is the whole message (the file became read-only, damaged).
    located = False


class PermissionDenied(EkkoMemoryError):
    """The caller may not do this (for example an agent approving a pending item)."""

    code = "permission_denied"


class Conflict(EkkoMemoryError):
    """The target changed under the caller (for example it is no longer the head of its chain)."""

    code = "conflict"
