"""Long work: export, import, purge (dry run, purge, verification), compacting the stores,
embedding the memories for semantic recall.

Each runs on the memory worker; progress reports come back to the GUI thread through
the event loop, and a CancelToken stops an export, an import or a purge at the next
batch boundary (the core never leaves half a batch behind). After an import or a purge every
view reloads: they touch too many memories to name them one by one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from ekko_memory import (
    CancelToken,
    CompactReport,
    ExportReport,
    ExportSelection,
    ImportReport,
    Progress,
    PurgeFilter,
    PurgePlan,
    PurgeReport,
    ReindexReport,
)
from ekko_memory_gui.controller import AppController

ProgressHandler = Callable[[Progress], None]


def _relay(on_progress: ProgressHandler | None) -> Callable[[Progress], None] | None:
    """A progress callback for the worker thread that hands each report to the GUI thread."""
    if on_progress is None:
        return None
    loop = asyncio.get_running_loop()

    def forward(p: Progress) -> None:
        loop.call_soon_threadsafe(on_progress, p)

    return forward


async def export(
    c: AppController,
    path: Path,
    *,
    format: str,
    selection: ExportSelection,
    on_progress: ProgressHandler | None = None,
    cancel: CancelToken | None = None,
    force: bool = False,
) -> ExportReport:
    """Write a JSON bundle, Markdown or CSV; a cancelled export leaves no file. An existing
    file is replaced only with ``force`` (after the user said so); a memory database or a
    store's folder never."""
    mem = c.runner.memory
    return await c.runner.call(
        mem.exporter.export,
        path,
        format=format,
        selection=selection,
        progress=_relay(on_progress),
        cancel=cancel,
        force=force,
    )


async def check_export_target(c: AppController, path: Path) -> None:
    """Raises the core's InvalidInput when no export may write ``path`` whatever the user
    says (a memory database, a store's folder); an existing ordinary file passes."""
    await c.runner.call(c.runner.memory.exporter.target, path, force=True)


async def import_bundle(
    c: AppController,
    path: Path,
    *,
    on_progress: ProgressHandler | None = None,
    cancel: CancelToken | None = None,
) -> ImportReport:
    """Read a JSON bundle back (idempotent, ids kept); a cancel rolls back the store being
    imported (the report names the stores that were committed)."""
    mem = c.runner.memory
    report = await c.runner.call(
        mem.importer.import_bundle, path, progress=_relay(on_progress), cancel=cancel
    )
    await c.refresh_after_write()
    c.refresh_everything()
    return report


async def plan_purge(c: AppController, f: PurgeFilter) -> PurgePlan:
    """The dry run: every record the purge would touch; nothing changes."""
    mem = c.runner.memory
    return await c.runner.call(mem.purger.plan, f)


async def purge(
    c: AppController,
    plan: PurgePlan,
    *,
    on_progress: ProgressHandler | None = None,
    cancel: CancelToken | None = None,
) -> PurgeReport:
    """Remove exactly what the plan lists, compact the files, and search them afterwards."""
    mem = c.runner.memory
    report = await c.runner.call(
        mem.purger.purge, plan, progress=_relay(on_progress), cancel=cancel
    )
    await c.refresh_after_write()
    c.refresh_everything()
    c.undo.clear()  # edits to purged memories cannot be undone any more
    return report


async def compact(
    c: AppController,
    *,
    on_progress: ProgressHandler | None = None,
    cancel: CancelToken | None = None,
) -> CompactReport:
    """Give the space of deleted records back, store by store (a cancel is honoured between
    stores). The memories do not change; the change watcher takes a fresh look afterwards."""
    mem = c.runner.memory
    report = await c.runner.call(mem.compact, progress=_relay(on_progress), cancel=cancel)
    await c.refresh_after_write()
    return report


async def reindex(
    c: AppController,
    *,
    force: bool = False,
    on_progress: ProgressHandler | None = None,
    cancel: CancelToken | None = None,
) -> ReindexReport:
    """Embed every memory semantic recall has no vector for yet (``force``: all again),
    on the memory worker, with progress; the memories themselves do not change."""
    mem = c.runner.memory
    return await c.runner.call(
        mem.reindex, force=force, progress=_relay(on_progress), cancel=cancel
    )


async def semantic_status(c: AppController) -> tuple[str | None, dict[str, tuple[int, int]]]:
    """The embedder's model (None: semantic recall off) and, per store, how many memories
    have a vector and how many wait for one."""
    mem = c.runner.memory
    recall = mem.semantic
    if recall is None:
        return None, {}
    return recall.model, await c.runner.call(recall.status)
