"""The semantic recall commands: ``reindex``, ``duplicates`` and ``similar``."""

from __future__ import annotations

import argparse

from ekko_memory.interfaces.cli_output import Output
from ekko_memory.interfaces.cli_table import render_table
from ekko_memory.interfaces.cli_transfer import _progress
from ekko_memory.service.memory_service import MemoryService


def reindex(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """reindex [--force]: embed every memory that has no vector of the current model."""
    report = mem.reindex(force=args.force, progress=_progress(out))
    out.end_progress()
    for w in report.warnings:
        out.note(f"warning: {w}")
    if out.as_json:
        out.json(report.to_json())
        return 0
    out.text(f"model {report.model}")
    for name, count in report.embedded.items():
        left = report.remaining.get(name, 0)
        removed = report.removed.get(name, 0)
        line = f"{name} store: {count} embedded, {left} without a vector"
        if removed:
            line += f", {removed} old vectors removed"
        out.text(line)
    return 0


def duplicates(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """duplicates [--threshold X] [--limit N]: pairs of active memories that say nearly the same."""
    pairs = mem.duplicates(args.threshold, args.limit)
    if out.as_json:
        out.json({"pairs": [p.to_json() for p in pairs]})
        return 0
    if not pairs:
        out.text("No near duplicates.")
        return 0
    rows: list[list[object]] = []
    for p in pairs:
        # One line per memory of the pair; the similarity on the first.
        for sim, node, by in (
            (f"{p.similarity:.2f}", p.first, p.first_written_by),
            ("", p.second, p.second_written_by),
        ):
            rows.append([sim, node.id, "/".join(node.category_path), node.title, by or node.origin])
    headers = ("SIMILARITY", "ID", "CATEGORY", "TITLE", "WRITTEN BY")
    out.text(render_table(headers, rows, max_width=out.width))
    return 0


def similar(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """similar ID [--limit N]: the memories nearest one in meaning."""
    found = mem.similar(args.id, args.limit)
    if out.as_json:
        out.json({"similar": [m.to_json() for m in found]})
        return 0
    rows = [
        [f"{m.similarity:.2f}", m.node.id, "/".join(m.node.category_path), m.node.title]
        for m in found
    ]
    out.text(render_table(("SIMILARITY", "ID", "CATEGORY", "TITLE"), rows, max_width=out.width))
    return 0
