"""CLI commands that move data in and out: export, import, purge, compact — and the MCP server."""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ekko_memory.interfaces.cli_output import (
    EXIT_DECLINED,
    EXIT_FAILED,
    EXIT_USAGE,
    CliError,
    Output,
    plural,
)
from ekko_memory.interfaces.cli_table import render_fields, render_table
from ekko_memory.models import (
    CompactedStore,
    CompactReport,
    ExportSelection,
    PurgeFilter,
    PurgePlan,
    PurgeReport,
)
from ekko_memory.service.progress import Progress
from ekko_memory.timeutil import parse_iso

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

KIND_NAMES = {
    "node": "memory versions",
    "audit": "audit entries (text scrubbed)",
    "pending": "pending items",
    "usage": "usage rows",
    "message": "messages",
    "summary": "summaries",
    "job": "retry jobs",
    "cursor": "session cursors",
}


def parse_date(value: str) -> datetime:
    """``2026-01-31`` (midnight UTC) or an ISO 8601 timestamp with its time zone."""
    try:
        return parse_iso(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _progress(out: Output) -> Any:
    def report(p: Progress) -> None:
        out.progress(p.stage, p.done, p.total)

    return report


# --- export / import ---------------------------------------------------------------------


def export(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """export --format json|md|csv --output PATH [--force] [--scope …] [--category PATH]."""
    selection = ExportSelection(
        scopes=args.scope,
        category_path_prefix=args.category,
        include_messages=not args.no_messages,
    )
    report = mem.exporter.export(
        args.output,
        format=args.format,
        selection=selection,
        progress=_progress(out),
        force=args.force,
    )
    out.end_progress()
    for w in report.warnings:
        out.note(f"warning: {w}")
    if out.as_json:
        out.json(report.to_json())
        return 0
    counts = ", ".join(f"{n} {k}" for k, n in report.counts.items() if n)
    out.text(f"Exported {counts or 'nothing'} to {report.path} ({report.bytes} bytes, owner-only)")
    return 0


# A large bundle supersedes or notes thousands of records: the terminal gets the first
# few, --json all of them.
SHOWN_ITEMS = 10


def _more(total: int) -> str:
    """What is left out after the first ``SHOWN_ITEMS`` of ``total``."""
    return f"… and {total - SHOWN_ITEMS} more (--json lists them all)"


def _listed(ids: list[str]) -> str:
    """The first ``SHOWN_ITEMS`` ids, and how many more."""
    shown = ids[:SHOWN_ITEMS]
    if len(ids) > SHOWN_ITEMS:
        shown = [*shown, _more(len(ids))]
    return ", ".join(shown)


def import_bundle(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """import PATH: read a JSON bundle back (idempotent)."""
    report = mem.importer.import_bundle(args.path, progress=_progress(out))
    out.end_progress()
    if out.as_json:
        data = report.to_json()
        data["counts"] = {o: report.count(o) for o in ("added", "skipped", "updated")}  # type: ignore[arg-type]
        out.json(data)
        return 0
    rows = []
    for kind in ("nodes", "audit", "messages", "summaries", "pending", "usage", "cursors"):
        added, skipped, updated = (
            len(getattr(report, o).get(kind, [])) for o in ("added", "skipped", "updated")
        )
        if added or skipped or updated:
            rows.append([kind, added, skipped, updated])
    if rows:
        out.text(
            render_table(("RECORDS", "ADDED", "SKIPPED", "UPDATED"), rows, max_width=out.width)
        )
    if report.superseded:
        out.text(
            f"\nSuperseded by a newer version ({len(report.superseded)}): "
            + _listed(report.superseded)
        )
    duplicates = [i for ids in report.duplicates.values() for i in ids]
    if duplicates:
        out.text(
            f"\nIn the bundle more than once, read once ({len(duplicates)}): {_listed(duplicates)}"
        )
    for note in report.notes[:SHOWN_ITEMS]:
        out.note(f"note: {note}")
    if len(report.notes) > SHOWN_ITEMS:
        out.note(f"note: {_more(len(report.notes))}")
    out.text("\nNothing new: everything was already here." if not report.changed else "\nImported.")
    return 0


# --- purge --------------------------------------------------------------------------------


def check_purge(args: argparse.Namespace) -> None:
    """Build the purge filter before anything is opened (bad filters are usage errors)."""
    try:
        args.purge_filter = PurgeFilter(
            scopes=args.scope,
            category_path_prefix=args.category,
            session_id=args.session,
            before=args.before,
            after=args.after,
            query=args.query,
            user_id=args.user_id,
            workspace_id=args.workspace_id,
            include_messages=args.messages,
            remove_backups=not args.keep_backups,
        )
    except ValidationError as e:
        message = e.errors()[0]["msg"].removeprefix("Value error, ")
        raise CliError(EXIT_USAGE, message) from None


def purge(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """purge FILTERS [--dry-run] [--yes]: remove data for good, after showing what goes."""
    f: PurgeFilter = args.purge_filter
    plan = mem.purger.plan(f)
    if args.dry_run:
        if out.as_json:
            out.json({**plan.to_json(), "counts": plan.counts(), "dryRun": True})
        else:
            out.text(plan_text(plan, out.width, full=True))
        return 0
    if not plan.targets:
        if out.as_json:
            out.json({**PurgeReport().to_json(), "counts": PurgeReport().counts()})
        else:
            out.text("Nothing matches; nothing was purged.")
        return 0
    if not args.yes:
        out.note(plan_text(plan, out.width, full=False))
        if not out.ask("Remove these records for good? This cannot be undone. [y/N]"):
            raise CliError(
                EXIT_DECLINED, "not confirmed; nothing was purged (add --yes to skip the question)"
            )
    report = mem.purger.purge(plan, progress=_progress(out))
    out.end_progress()
    for w in report.warnings:
        out.note(f"warning: {w}")
    if out.as_json:
        out.json({**report.to_json(), "counts": report.counts()})
    else:
        out.text(report_text(report))
    leaked = report.verification is not None and bool(report.verification.leaks)
    return EXIT_FAILED if leaked else 0


def plan_text(plan: PurgePlan, width: int, *, full: bool) -> str:
    """The dry run for people: counts per kind, then (``full``) every record."""
    counts = plan.counts()
    lines = [f"{plural(plan.memories, 'memory', 'memories')} would be purged:"]
    lines.append(
        render_fields([(f"  {KIND_NAMES[k]}", n) for k, n in counts.items() if n])
        or "  nothing matches"
    )
    if full and plan.targets:
        lines.append("")
        lines.append(
            render_table(
                ("KIND", "STORE", "ID", "ACTION", "WHAT"),
                [[t.kind, t.store, t.id, t.action, t.label] for t in plan.targets],
                max_width=width,
            )
        )
    if full:
        lines.append("\nDry run: nothing was changed.")
    return "\n".join(lines)


def report_text(report: PurgeReport) -> str:
    """What a purge did, and whether the text is gone."""
    counts = report.counts()
    lines = [f"Purged {plural(report.memories, 'memory', 'memories')}:"]
    lines.append(
        render_fields([(f"  {KIND_NAMES[k]}", n) for k, n in counts.items() if n]) or "  nothing"
    )
    for path in report.backups_removed:
        lines.append(f"Removed backup holding purged data: {path}")
    for path in report.backups_kept:
        lines.append(f"Kept backup holding purged data: {path}")
    v = report.verification
    if v is None:
        lines.append("Not verified (the purge was cancelled).")
        return "\n".join(lines)
    if v.clean:
        # Files are scanned only where the store is files (SQLite), not on a database server.
        where = (
            "the tables, the search index and the files"
            if v.files_scanned
            else "the tables and the search index (a database server's files are not scanned)"
        )
        lines.append(f"Verified: the purged text ({v.texts_checked} samples) is gone from {where}.")
    for f in v.leaks:
        lines.append(f"LEAK: {f.text!r} still in {f.location} ({f.count}x)")
    for f in v.kept:
        lines.append(
            f"kept: {f.text!r} is still held by {f.count} row(s) of {f.location.removeprefix('table:')}"
        )
    if not v.clean and not v.leaks:
        named = [f for f in v.kept if f.location.endswith(IDENTITY_SUFFIXES)]
        if named:
            lines.append(
                "Session or owner ids still spell it: a purge removes text, not those names"
                " (purge --session ID --messages removes a whole session)."
            )
        if len(named) < len(v.kept):
            lines.append(
                "Some text is still held by records the filter did not cover (add --messages?)."
            )
    return "\n".join(lines)


# Kept findings in these columns are ids that name a session or an owner.
IDENTITY_SUFFIXES = (".session_id", ".workspace_id", ".user_id")


# --- compact ------------------------------------------------------------------------------


def human_bytes(n: int) -> str:
    """``512 B``, ``3.4 KB``, ``12.0 MB`` (1 KB = 1024 bytes)."""
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{int(size)} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def compact(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """compact: give the space of deleted records back (VACUUM), store by store."""
    report = mem.compact(progress=_progress(out))
    out.end_progress()
    # A store that could not be written (read-only, disabled) was not compacted either.
    failed = [s for s in report.stores if s.status in ("failed", "skipped")]
    for entry in report.stores:
        for w in entry.warnings:
            out.note(f"warning: the {entry.store} store: {w}")
    if out.as_json:
        data = report.to_json()
        for entry, item in zip(report.stores, data["stores"], strict=True):
            item["freedBytes"] = entry.freed_bytes
        out.json({**data, "freedBytes": report.freed_bytes})
    else:
        out.text(compact_text(report))
    return EXIT_FAILED if failed else 0


def compact_text(report: CompactReport) -> str:
    """Per store: where, what happened, the sizes before and after, what ran."""
    lines: list[str] = []
    for entry in report.stores:
        lines.append(f"{entry.store} store  {entry.location}  {_status(entry)}")
        if entry.status != "compacted":
            continue
        rows: list[tuple[str, str]] = [
            (f"  {f.path}", f"{human_bytes(f.bytes_before)} → {human_bytes(f.bytes_after)}")
            for f in entry.files
        ]
        if not entry.files and entry.bytes_before is not None and entry.bytes_after is not None:
            rows.append(
                (
                    "  tables, indexes, TOAST",
                    f"{human_bytes(entry.bytes_before)} → {human_bytes(entry.bytes_after)}",
                )
            )
        rows.append(("  freed", human_bytes(entry.freed_bytes)))
        lines.append(render_fields(rows))
        if not entry.files:  # a server: say what ran there
            lines += [f"  ran: {sql}" for sql in entry.ran]
    lines.append("")
    not_run = [s.store for s in report.stores if s.status in ("failed", "skipped")]
    if any(s.status == "compacted" for s in report.stores):
        lines.append(f"Freed {human_bytes(report.freed_bytes)}.")
    if not_run:
        lines.append(
            f"Could not compact the {' and the '.join(not_run)} store"
            f"{'s' if len(not_run) > 1 else ''} (the reason is above): nothing was freed there."
        )
    if report.cancelled:
        lines.append("Interrupted: the stores marked cancelled were not compacted.")
    return "\n".join(lines)


def _status(entry: CompactedStore) -> str:
    return entry.status + (f" ({entry.reason})" if entry.reason else "")


# --- MCP ----------------------------------------------------------------------------------


def mcp(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """mcp: serve the memory tools over stdio until the client disconnects."""
    try:
        from ekko_memory.interfaces.mcp_server import Binding, Trust, serve_stdio
    except ImportError as e:
        raise CliError(
            EXIT_FAILED,
            f"the MCP server needs the 'mcp' extra ({e}); install it: pip install 'ekko-memory[mcp]'",
        ) from None
    trust = Trust(
        user_message=args.trust_user_message, identity_override=args.allow_identity_override
    )
    if trust.user_message:
        out.note(
            "warning: --trust-user-message: a call's userMessage counts as the user's own "
            "words (it can ask to remember without the user's approval)"
        )
    if trust.identity_override:
        out.note("warning: --allow-identity-override: a call may name any userId / workspaceId")
    serve_stdio(
        mem,
        Binding(session_id=args.session, user_id=args.user_id, workspace_id=args.workspace_id),
        trust,
    )
    return 0
