"""Export: a JSON bundle with everything (the import format), Markdown to read, CSV of nodes.

The bundle is streamed store by store, each from one read snapshot, so a 100k-memory
export never sits in memory and agents keep writing meanwhile. Every file is written
to a temporary name with user-only permissions (0600) and renamed into place at the
end: a cancelled or failed export leaves nothing behind, and no export replaces a store,
writes into a store's folder, or replaces an existing file unless asked to
(``service/export_target.py``).

Bundle format (``format: ekko-memory-bundle``, ``version: 1``)::

    {"format": "ekko-memory-bundle", "version": 1, "exportedAt": "…Z", "generator": "…",
     "selection": {…},
     "stores": {"workspace": {"nodes": […], "audit": […], "messages": […], "summaries": […],
                              "pending": […], "usage": […], "cursors": […]},
                "user": {…}},
     "counts": {"nodes": n, …}}

Records are the core's models in their camelCase JSON (``MemoryNode.to_json()``…),
nodes oldest first so every older version precedes the version that supersedes it.
"""

from __future__ import annotations

import csv
import heapq
import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ekko_memory.errors import InvalidInput
from ekko_memory.models import (
    STORED_SCOPES,
    CamelModel,
    ExportFormat,
    ExportReport,
    ExportSelection,
    MemoryNode,
    PendingItem,
    Scope,
    StoreName,
    StoreProblemNote,
)
from ekko_memory.service.chains import chain_closure
from ekko_memory.service.export_target import (
    PARTS_FOLDER,
    check_target,
    sweep_stale_parts,
    write_private,
)
from ekko_memory.service.progress import Cancelled, CancelToken, ProgressCallback, Reporter
from ekko_memory.store.filters import STATUS_RANK, NodeFilter, NodeOrder
from ekko_memory.store.reader import StoreReader
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.timeutil import to_db

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

BUNDLE_FORMAT = "ekko-memory-bundle"
BUNDLE_VERSION = 1
BUNDLE_KINDS = ("nodes", "audit", "messages", "summaries", "pending", "usage", "cursors")
FORMATS: tuple[ExportFormat, ...] = ("json", "md", "csv")
# Which scopes each store holds.
STORE_SCOPES: dict[StoreName, tuple[Scope, ...]] = {
    "workspace": ("session", "workspace"),
    "user": ("user",),
}
# Records written between two progress reports (and cancellation checks).
BATCH = 500

CSV_COLUMNS = (
    "id",
    "store",
    "scope",
    "domain",
    "categoryPath",
    "type",
    "key",
    "valueJson",
    "title",
    "content",
    "status",
    "confidence",
    "importance",
    "tags",
    "entities",
    "origin",
    "sourceMessageIds",
    "supersedesId",
    "parentId",
    "sessionId",
    "workspaceId",
    "userId",
    "createdAt",
    "updatedAt",
    "expiresAt",
)


@dataclass
class _Part:
    """What one store contributes: all of it (``node_ids`` None) or some chains."""

    name: StoreName
    store: SqlStore
    node_ids: set[str] | None = None
    # Messages to carry: None = the whole log (whole workspace store), else these ids.
    message_ids: set[str] | None = field(default_factory=set)

    @property
    def whole(self) -> bool:
        return self.node_ids is None


def generator_name() -> str:
    """``ekko-memory <version>`` for the bundle's ``generator`` field."""
    try:
        return f"ekko-memory {metadata.version('ekko-memory')}"
    except metadata.PackageNotFoundError:
        return "ekko-memory"


class Exporter:
    """Exports what the user selects; ``mem.exporter.export(path, format=...)``."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    def export(
        self,
        path: str | os.PathLike[str],
        *,
        format: ExportFormat = "json",
        selection: ExportSelection | None = None,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        force: bool = False,
    ) -> ExportReport:
        """Write the selection to ``path`` as a JSON bundle, Markdown or CSV (0600).

        InvalidInput, with nothing written, when ``path`` is a store's database, lies in a
        store's folder, or is any memory database; an existing file is replaced only with
        ``force``. The part files that killed exports left behind are removed first.
        """
        if format not in FORMATS:
            raise InvalidInput(f"unknown export format {format!r}; use json, md or csv")
        sel = selection or ExportSelection()
        target = self.target(path, force=force)
        parts_dir = self.service.paths.state_dir / PARTS_FOLDER
        sweep_stale_parts(parts_dir, beside=target)
        parts, notes = self._parts(sel)
        warnings = [text for text, _ in notes]
        problems = [problem for _, problem in notes]
        rep = Reporter(progress, cancel)
        writers: dict[str, Callable[[IO[str]], dict[str, int]]] = {
            "json": lambda fh: self._write_json(fh, parts, sel, rep),
            "md": lambda fh: self._write_markdown(fh, parts, sel, rep),
            "csv": lambda fh: self._write_csv(fh, parts, rep),
        }
        # Spreadsheet programs read UTF-8 CSV correctly only with a byte-order mark.
        encoding = "utf-8-sig" if format == "csv" else "utf-8"
        try:
            counts = write_private(target, writers[format], parts=parts_dir, encoding=encoding)
        except Cancelled:  # raised inside a writer: the temporary file is already gone
            return ExportReport(
                path=None,
                format=format,
                cancelled=True,
                warnings=warnings,
                warning_problems=problems,
            )
        rep("done", 1, 1)
        return ExportReport(
            path=str(target),
            format=format,
            counts=counts,
            bytes=target.stat().st_size,
            warnings=warnings,
            warning_problems=problems,
        )

    def target(self, path: str | os.PathLike[str], *, force: bool = False) -> Path:
        """The absolute file an export to ``path`` writes; InvalidInput saying why not (a
        store's database or folder, a memory database; an existing file without ``force``).
        Nothing is written: an app asks this before it asks to replace a file."""
        where = self.service.paths
        return check_target(
            path, databases=where.database_files, folders=where.store_folders, force=force
        )

    # --- what goes in ---------------------------------------------------------------

    def _parts(
        self, sel: ExportSelection
    ) -> tuple[list[_Part], list[tuple[str, StoreProblemNote | None]]]:
        """What goes in, and the warnings (each with the store problem it quotes)."""
        wanted = set(sel.scopes or STORED_SCOPES)
        parts: dict[StoreName, _Part] = {}
        warnings: list[tuple[str, StoreProblemNote | None]] = []
        seeds: set[str] = set()
        for name, store in self.service.stores():
            if not store.health.readable:
                warnings.append(
                    (
                        f"the {name} store was skipped: {store.health.reason}",
                        StoreProblemNote.of(name, store.health),
                    )
                )
                continue
            scopes = tuple(s for s in STORE_SCOPES[name] if s in wanted)
            if not scopes:
                continue
            if scopes == STORE_SCOPES[name] and not sel.category_path_prefix:
                parts[name] = _Part(name, store, None, None if sel.include_messages else set())
                continue
            f = NodeFilter(statuses=None, scopes=scopes, category_prefix=sel.category_path_prefix)
            with store.read() as r:
                seeds.update(r.node_ids(f))
        if seeds:
            for name, ids in chain_closure(self.service, seeds).items():
                if ids and name not in parts:
                    parts[name] = _Part(name, self._store(name), ids)
        if sel.include_messages:
            self._add_source_messages(parts)
        return [parts[n] for n in ("workspace", "user") if n in parts], warnings

    def _store(self, name: StoreName) -> SqlStore:
        return self.service.workspace_store if name == "workspace" else self.service.user_store

    def _add_source_messages(self, parts: dict[StoreName, _Part]) -> None:
        """Partial selections carry their nodes' source messages (from the workspace log)."""
        ws = parts.get("workspace")
        if ws is not None and ws.message_ids is None:
            return  # the whole log goes anyway
        sources: set[str] = set()
        for part in parts.values():
            if part.node_ids:
                with part.store.read() as r:
                    for node in r.iter_nodes_by_id(part.node_ids):
                        sources.update(node.source_message_ids)
        if not sources or not self.service.workspace_store.health.readable:
            return
        if ws is None:
            ws = parts["workspace"] = _Part("workspace", self.service.workspace_store, set())
        assert ws.message_ids is not None
        ws.message_ids |= sources

    @staticmethod
    def _nodes(r: StoreReader, part: _Part, order: NodeOrder) -> Iterator[MemoryNode]:
        if part.node_ids is None:
            return r.iter_nodes(NodeFilter(statuses=None), order=order)
        nodes = list(r.iter_nodes_by_id(part.node_ids))
        if order == "category":
            nodes.sort(
                key=lambda n: (
                    n.category_path_text,
                    STATUS_RANK.get(n.status, 4),
                    -n.updated_at.timestamp(),
                    n.id,
                )
            )
        else:
            nodes.sort(key=lambda n: (n.created_at, n.id))
        return iter(nodes)

    def _sections(
        self, r: StoreReader, part: _Part, sel: ExportSelection
    ) -> list[tuple[str, Iterable[CamelModel]]]:
        carries_log = part.name == "workspace"
        if part.whole:
            log = carries_log and part.message_ids is None
            return [
                ("nodes", self._nodes(r, part, "created_asc")),
                ("audit", r.iter_audit()),
                ("messages", r.iter_messages() if log else ()),
                ("summaries", r.iter_summaries() if log else ()),
                ("pending", r.list_pending(None)),
                ("usage", r.iter_usage()),
                ("cursors", r.list_cursors() if log else ()),
            ]
        ids = part.node_ids or set()
        pending = [i for i in r.list_pending(None) if _pending_related(i, ids, sel)]
        messages = sorted(part.message_ids or ())
        return [
            ("nodes", self._nodes(r, part, "created_asc")),
            ("audit", r.iter_audit(sorted(ids))),
            ("messages", r.iter_messages(messages) if messages else ()),
            ("summaries", ()),
            ("pending", pending),
            ("usage", r.iter_usage(sorted(ids))),
            ("cursors", ()),
        ]

    def _estimate(self, parts: list[_Part]) -> int:
        total = 0
        for part in parts:
            if part.whole:
                with part.store.read() as r:
                    total += sum(r.table_counts().values())
            else:
                total += len(part.node_ids or ()) * 3 + len(part.message_ids or ())
        return total

    # --- writers --------------------------------------------------------------------

    def _write_json(
        self, fh: IO[str], parts: list[_Part], sel: ExportSelection, rep: Reporter
    ) -> dict[str, int]:
        counts = dict.fromkeys(BUNDLE_KINDS, 0)
        total = self._estimate(parts)
        done = 0
        head = {
            "format": BUNDLE_FORMAT,
            "version": BUNDLE_VERSION,
            "exportedAt": to_db(self.service.now()),
            "generator": generator_name(),
            "selection": sel.to_json(),
        }
        fh.write(json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "stores": {')
        for i, part in enumerate(parts):
            fh.write(("," if i else "") + f"\n  {json.dumps(part.name)}: {{")
            with part.store.read() as r:
                for j, (kind, records) in enumerate(self._sections(r, part, sel)):
                    fh.write(("," if j else "") + f'\n   "{kind}": [')
                    n = 0
                    for record in records:
                        text = json.dumps(record.to_json(), ensure_ascii=False)
                        fh.write(("," if n else "") + "\n    " + text)
                        n += 1
                        done += 1
                        if done % BATCH == 0:
                            self._tick(rep, "export", done, total)
                    fh.write("\n   ]" if n else "]")
                    counts[kind] += n
            fh.write("\n  }")
        fh.write('\n },\n "counts": ' + json.dumps(counts) + "\n}\n")
        return counts

    def _write_markdown(
        self, fh: IO[str], parts: list[_Part], sel: ExportSelection, rep: Reporter
    ) -> dict[str, int]:
        total = self._estimate(parts)
        now = self.service.now()
        fh.write("# Ekko Memory export\n\n")
        fh.write(f"Exported {_when(now)} by {generator_name()}.")
        if sel.scopes:
            fh.write(f" Scopes: {', '.join(sel.scopes)}.")
        if sel.category_path_prefix:
            fh.write(f" Category: {' / '.join(sel.category_path_prefix)}.")
        fh.write("\n")
        count = 0
        with ExitStack() as stack:
            streams = []
            for part in parts:
                r = stack.enter_context(part.store.read())
                streams.append(self._nodes(r, part, "category"))
            category = None
            for node in heapq.merge(*streams, key=lambda n: n.category_path_text):
                if node.category_path_text != category:
                    category = node.category_path_text
                    fh.write(f"\n## {' / '.join(_line(s) for s in node.category_path)}\n")
                # Statuses as people see them (past its expiry is expired); the JSON
                # bundle keeps the stored record, which an import reads the same way.
                fh.write(_markdown_entry(node.seen_at(now)))
                count += 1
                if count % BATCH == 0:
                    self._tick(rep, "export", count, total)
        if not count:
            fh.write("\nNo memories.\n")
        return {"nodes": count}

    def _write_csv(self, fh: IO[str], parts: list[_Part], rep: Reporter) -> dict[str, int]:
        total = self._estimate(parts)
        out = csv.writer(fh, lineterminator="\r\n")
        out.writerow(CSV_COLUMNS)
        now = self.service.now()
        count = 0
        for part in parts:
            with part.store.read() as r:
                for node in self._nodes(r, part, "category"):
                    out.writerow(_csv_row(node.seen_at(now), part.name))
                    count += 1
                    if count % BATCH == 0:
                        self._tick(rep, "export", count, total)
        return {"nodes": count}

    @staticmethod
    def _tick(rep: Reporter, stage: str, done: int, total: int) -> None:
        rep.tick(stage, done, max(total, done))


def _pending_related(item: PendingItem, ids: set[str], sel: ExportSelection) -> bool:
    """A pending item about exported nodes, or proposing a node inside the selection."""
    refs = {*item.target_ids, item.current_head_id, item.result_node_id}
    if refs & ids:
        return True
    node = item.node or {}
    if not node:
        return False
    if sel.scopes and node.get("scope") not in sel.scopes:
        return False
    prefix = sel.category_path_prefix
    return not prefix or list(node.get("categoryPath") or [])[: len(prefix)] == prefix


def _when(value: Any) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M UTC")


def _line(text: str) -> str:
    """One line of Markdown text (headings and list items cannot span lines)."""
    return " ".join(text.split())


def _value_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _markdown_entry(node: MemoryNode) -> str:
    status = "" if node.status == "active" else f" _({node.status})_"
    lines = [f"\n### {_line(node.title)}{status}\n"]
    if node.key:
        lines.append(f"- **{node.key}**: {_line(_value_text(node.value_json))}")
    lines.append(
        f"- {node.type} · {node.scope} scope · confidence {node.confidence:.2f}"
        f" · importance {node.importance:.2f} · {node.origin.replace('_', ' ')}"
    )
    dates = f"- updated {_when(node.updated_at)}"
    if node.expires_at is not None:
        dates += f" · expires {_when(node.expires_at)}"
    lines.append(dates)
    if node.tags or node.entities:
        lines.append(
            "- "
            + " · ".join(
                part
                for part in (
                    "tags: " + ", ".join(map(_line, node.tags)) if node.tags else "",
                    "entities: " + ", ".join(map(_line, node.entities)) if node.entities else "",
                )
                if part
            )
        )
    ident = f"- id `{node.id}`"
    if node.supersedes_id:
        ident += f" · supersedes `{node.supersedes_id}`"
    lines.append(ident)
    if node.content.strip():
        lines.append("")
        lines += [f"> {line}" if line.strip() else ">" for line in node.content.splitlines()]
    return "\n".join(lines) + "\n"


def _csv_row(node: MemoryNode, store: StoreName) -> list[Any]:
    data = node.to_json()

    def cell(name: str) -> Any:
        value = data.get(name)
        if name == "categoryPath":
            return "/".join(node.category_path)
        if name == "valueJson":
            return (
                "" if node.value_json is None else json.dumps(node.value_json, ensure_ascii=False)
            )
        if isinstance(value, list):
            return json.dumps(value, ensure_ascii=False)
        return "" if value is None else value

    return [store if c == "store" else _spreadsheet_safe(cell(c)) for c in CSV_COLUMNS]


# A cell starting with one of these is a formula to Excel, LibreOffice and Sheets.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _spreadsheet_safe(value: Any) -> Any:
    """Text a spreadsheet would run as a formula (a memory titled ``=HYPERLINK(…)``, written
    from a chat) gets a leading apostrophe, which shows it as text (OWASP's advice)."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value
