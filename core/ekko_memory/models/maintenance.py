"""Housekeeping reports: compaction of the stores and the semantic index, and the
semantic neighbours of a memory."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PrivateAttr

from ekko_memory.models.base import CamelModel, StoreName
from ekko_memory.models.nodes import MemoryNode
from ekko_memory.models.reasons import StoreProblemNote

CompactStatus = Literal["compacted", "failed", "skipped", "cancelled"]


class CompactedFile(CamelModel):
    """One SQLite file (the database or its write-ahead log): its size before and after."""

    path: str
    bytes_before: int
    bytes_after: int


class CompactedStore(CamelModel):
    """What ``compact`` did to one store.

    ``status``: ``compacted``; ``failed`` (it could not run now — a lock another program
    held, a full disk — and the store is as it was, see ``reason``); ``skipped`` (the store
    cannot be written: read-only or disabled); ``cancelled`` (not started: the caller
    cancelled before its turn). ``bytes_before`` / ``bytes_after``: the SQLite files, or
    on PostgreSQL the server's bytes for the schema's tables with their indexes and TOAST
    (None when unknown). ``ran``: the statements run.

    Not in the JSON, for an interface that words ``reason`` in the user's language:
    ``problem``, the store problem it quotes (a store skipped as it cannot be written, or
    refused for its health's reason), and ``cause``, the error that made it ``failed``.
    """

    store: StoreName
    location: str
    backend: str
    status: CompactStatus
    reason: str | None = None
    problem: StoreProblemNote | None = Field(default=None, exclude=True)
    bytes_before: int | None = None
    bytes_after: int | None = None
    files: list[CompactedFile] = Field(default_factory=list)
    ran: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    _cause: BaseException | None = PrivateAttr(default=None)

    @property
    def cause(self) -> BaseException | None:
        """The error that made the store ``failed`` (None otherwise)."""
        return self._cause

    @property
    def freed_bytes(self) -> int:
        """Bytes given back (0 when unknown or when the store grew)."""
        if self.bytes_before is None or self.bytes_after is None:
            return 0
        return max(0, self.bytes_before - self.bytes_after)


class CompactReport(CamelModel):
    """What ``mem.compact()`` did, store by store (workspace first, then user).

    ``cancelled``: the caller cancelled; stores not started then have status
    ``cancelled``. A store that was being compacted finished first (a VACUUM completes or
    leaves the store as it was).
    """

    stores: list[CompactedStore] = Field(default_factory=list)
    cancelled: bool = False

    @property
    def freed_bytes(self) -> int:
        """Bytes given back by all stores."""
        return sum(s.freed_bytes for s in self.stores)


class SimilarMemory(CamelModel):
    """A memory near another in meaning (``mem.similar``): cosine similarity 0–1."""

    node: MemoryNode
    similarity: float


class DuplicatePair(CamelModel):
    """Two active memories that say nearly the same (``mem.duplicates``): what each is
    about (category) and who wrote it (origin; the actor of its first audit event)."""

    first: MemoryNode
    second: MemoryNode
    similarity: float
    first_written_by: str | None = None
    second_written_by: str | None = None


class ReindexReport(CamelModel):
    """What ``mem.reindex()`` did, per store: memories embedded, memories still without a
    vector of the model, vectors removed (another model's, or all with ``force``)."""

    model: str
    embedded: dict[str, int] = Field(default_factory=dict)
    remaining: dict[str, int] = Field(default_factory=dict)
    removed: dict[str, int] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    cancelled: bool = False
