"""Markdown exports in the UI's language (the core writes its Markdown in English: a
Chinese UI exported "### … - preference · user scope · confidence 0.95 · updated …").

The words are translated on the GUI thread (``MarkdownWords``, made by the view); the
memories are read and the file written on the memory worker. As the core's export: the
file is replaced only with ``force``, never a store's database or folder, readable only
by its owner, and a cancelled export leaves no file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ekko_memory import (
    STORED_SCOPES,
    BrowseFilter,
    CancelToken,
    ExportReport,
    ExportSelection,
    MemoryNode,
    Progress,
)
from ekko_memory_gui.controller import AppController

# Memories read between two progress reports (and checks for Cancel).
PAGE = 500


@dataclass(frozen=True)
class MarkdownWords:
    """Every word the file holds, in the UI's language (``{…}`` fields filled in here)."""

    heading: str = "Ekko Memory export"
    exported: str = "Exported {when}."
    selected: str = "{n} selected memories."
    no_memories: str = "No memories."
    updated: str = "updated {when}"
    expires: str = "expires {when}"
    confidence: str = "confidence {n}"
    importance: str = "importance {n}"
    tags: str = "tags: {list}"
    entities: str = "entities: {list}"
    uncategorized: str = "Uncategorized"
    separator: str = ", "
    types: dict[str, str] = field(default_factory=dict)
    scopes: dict[str, str] = field(default_factory=dict)
    statuses: dict[str, str] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    value_text: Callable[[Any], str] = str
    when: Callable[[datetime | None], str] = lambda d: "" if d is None else d.isoformat()


def _line(text: str) -> str:
    """One line of Markdown (headings and list items cannot span lines)."""
    return " ".join(text.split())


def entry(node: MemoryNode, w: MarkdownWords) -> str:
    """One memory: its title, key and value, what kind, when, tags, and its content."""
    status = "" if node.status == "active" else f" _({w.statuses.get(node.status, node.status)})_"
    lines = [f"\n### {_line(node.title)}{status}\n"]
    if node.key:
        lines.append(f"- **{node.key}**: {_line(w.value_text(node.value_json))}")
    lines.append(
        "- "
        + " · ".join(
            [
                w.types.get(node.type, node.type),
                w.scopes.get(node.scope, node.scope),
                w.confidence.format(n=f"{node.confidence:.2f}"),
                w.importance.format(n=f"{node.importance:.2f}"),
                w.origins.get(node.origin, node.origin),
            ]
        )
    )
    dates = "- " + w.updated.format(when=w.when(node.updated_at))
    if node.expires_at is not None:
        dates += " · " + w.expires.format(when=w.when(node.expires_at))
    lines.append(dates)
    listed = [
        w.tags.format(list=w.separator.join(map(_line, node.tags))) if node.tags else "",
        w.entities.format(list=w.separator.join(map(_line, node.entities)))
        if node.entities
        else "",
    ]
    if any(listed):
        lines.append("- " + " · ".join(p for p in listed if p))
    lines.append(f"- id `{node.id}`")
    if node.content.strip():
        lines.append("")
        lines += [f"> {t}" if t.strip() else ">" for t in node.content.splitlines()]
    return "\n".join(lines) + "\n"


def render(nodes: Iterable[MemoryNode], w: MarkdownWords, header: str) -> tuple[str, int]:
    """The whole file for ``nodes`` (grouped by category), and how many memories it holds."""
    ordered = sorted(nodes, key=lambda n: (list(n.category_path), n.title, n.id))
    parts = [f"# {w.heading}\n\n{header}\n"]
    category: list[str] | None = None
    for node in ordered:
        path = list(node.category_path)
        if path != category:
            category = path
            parts.append(f"\n## {' / '.join(_line(s) for s in path) or w.uncategorized}\n")
        parts.append(entry(node, w))
    if not ordered:
        parts.append(f"\n{w.no_memories}\n")
    return "".join(parts), len(ordered)


def _write_private(target: Path, text: str) -> int:
    """Write ``text`` beside ``target`` and move it in place (0600); returns the bytes."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target.stat().st_size


async def export_markdown(
    c: AppController,
    path: Path,
    words: MarkdownWords,
    *,
    selection: ExportSelection | None = None,
    node_ids: list[str] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    cancel: CancelToken | None = None,
    force: bool = False,
) -> ExportReport:
    """Write the memories of ``selection`` (every version, as the core's export), or the
    current state of ``node_ids``, to ``path`` as Markdown in ``words``' language."""
    mem = c.runner.memory
    loop_report = _relay(on_progress)

    def work() -> ExportReport:
        target = mem.exporter.target(path, force=force)
        nodes: list[MemoryNode] = []
        now = mem.now()
        if node_ids is not None:
            nodes = [n for i in node_ids if (n := mem.get_node(i)) is not None]
            header = (
                words.exported.format(when=words.when(now))
                + " "
                + words.selected.format(n=len(nodes))
            )
        else:
            sel = selection or ExportSelection()
            f = BrowseFilter(
                statuses=None,
                scopes=list(sel.scopes or STORED_SCOPES),
                category_path_prefix=sel.category_path_prefix,
                hide_expired=False,
            )
            after = None
            while True:
                if cancel is not None and cancel.cancelled:
                    return ExportReport(path=None, format="md", cancelled=True)
                page = mem.browse.list_nodes(f, after=after, limit=PAGE)
                nodes += page.nodes
                if loop_report is not None:
                    loop_report(Progress("export", len(nodes), 0))
                if page.next_cursor is None or not page.nodes:
                    break
                after = page.next_cursor
            header = words.exported.format(when=words.when(now))
        text, count = render((n.seen_at(now) for n in nodes), words, header)
        if cancel is not None and cancel.cancelled:
            return ExportReport(path=None, format="md", cancelled=True)
        size = _write_private(target, text)
        if loop_report is not None:
            loop_report(Progress("done", 1, 1))
        return ExportReport(path=str(target), format="md", counts={"nodes": count}, bytes=size)

    return await c.runner.call(work)


def _relay(
    on_progress: Callable[[Progress], None] | None,
) -> Callable[[Progress], None] | None:
    """Progress reported on the worker, handed to the GUI thread."""
    if on_progress is None:
        return None
    import asyncio

    loop = asyncio.get_running_loop()

    def forward(p: Progress) -> None:
        loop.call_soon_threadsafe(on_progress, p)

    return forward
