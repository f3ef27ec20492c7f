"""Compaction: give the space of deleted and superseded records back.

A store's files (or a PostgreSQL schema's tables) keep the pages that deleted rows,
rewritten versions and merged index segments used; the database reuses them for new
rows but never gives them back. ``compact`` rebuilds each store without them:

- SQLite: merge the full-text index's segments, ``VACUUM`` (a new copy of the database
  without free pages; it completes or leaves the file as it was) and
  ``PRAGMA wal_checkpoint(TRUNCATE)`` (the write-ahead log folded into the file and cut
  to zero bytes).
- PostgreSQL: ``VACUUM (FULL, ANALYZE)`` of the store's tables (each table and its
  indexes rewritten into new files in its own transaction, the old files removed; fresh
  planner statistics).

Nothing is read or changed but the layout. Stores are compacted one after the other
(workspace, then user); a cancel is honoured between stores (the one being compacted
finishes). Other programs keep working, but a store's writers (SQLite) or the table
being rewritten (PostgreSQL) wait until its rebuild is over; a lock held longer than the
store's timeout makes that store ``failed`` (try again later).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ekko_memory.errors import StoreUnavailable
from ekko_memory.models import CompactedFile, CompactedStore, CompactReport, StoreProblemNote
from ekko_memory.service.progress import CancelToken, ProgressCallback, Reporter

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService


def compact(
    service: MemoryService,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
) -> CompactReport:
    """Compact every store; progress stages ``compact:workspace``, ``compact:user``, ``done``."""
    rep = Reporter(progress, cancel)
    report = CompactReport()
    stores = service.stores()
    for i, (name, store) in enumerate(stores):
        entry = CompactedStore(
            store=name,
            location=store.health.location,
            backend=store.dialect.name,
            status="compacted",
        )
        report.stores.append(entry)
        if rep.cancelled:
            report.cancelled = True
            entry.status = "cancelled"
            entry.reason = "cancelled before its turn; nothing was done"
            continue
        if not store.health.writable:
            entry.status = "skipped"
            entry.reason = f"the store is {store.health.status}: {store.health.reason}"
            entry.problem = StoreProblemNote.of(name, store.health)
            continue
        rep(f"compact:{name}", i, len(stores))
        try:
            done = store.compact()
        except StoreUnavailable as e:
            entry.status = "failed"
            entry.reason = f"{e}; the store is as it was"
            entry._cause = e
            if e.reason_code is not None:
                entry.problem = StoreProblemNote(
                    store=name, status=e.status or "", code=e.reason_code, args=e.reason_args or {}
                )
            continue
        entry.ran = done.ran
        entry.warnings = done.warnings
        entry.bytes_before = done.bytes_before
        entry.bytes_after = done.bytes_after
        entry.files = [
            CompactedFile(path=str(path), bytes_before=before, bytes_after=after)
            for path, before, after in done.files
        ]
    rep("done", len(stores), len(stores))
    return report
