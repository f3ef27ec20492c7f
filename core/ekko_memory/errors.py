"""Exceptions the core raises; interfaces turn them into clear messages or error results."""

from __future__ import annotations

from pydantic import ValidationError


class EkkoMemoryError(Exception):
    """Base class of every error raised on purpose by the core."""

    code = "error"


class InvalidInput(EkkoMemoryError):
    """Arguments or data that fail validation; nothing was written."""

    code = "invalid_input"

    @classmethod
    def of(cls, what: str, error: ValidationError) -> InvalidInput:
        """A model's validation error, one short complaint per field (``what: field: …``)."""
        parts = [
            f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}" for err in error.errors()[:5]
        ]
        return cls(f"{what}: " + "; ".join(parts))


class NotFound(EkkoMemoryError):
    """A referenced record does not exist (or is not visible from here)."""

    code = "not_found"


class StoreUnavailable(EkkoMemoryError):
    """The store is disabled, read-only or failing; nothing was written."""

    code = "store_unavailable"


class PermissionDenied(EkkoMemoryError):
    """The caller may not do this (for example an agent approving a pending item)."""

    code = "permission_denied"


class Conflict(EkkoMemoryError):
    """The target changed under the caller (for example it is no longer the head of its chain)."""

    code = "conflict"
