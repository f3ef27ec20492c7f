"""CLI commands that read memories and record the user's decisions.

Each takes the open service, the parsed arguments and the output, and returns an exit code.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from ekko_memory.errors import Conflict, NotFound
from ekko_memory.interfaces.cli_output import EXIT_DECLINED, EXIT_USAGE, CliError, Output, plural
from ekko_memory.interfaces.cli_table import clean_cell, render_fields, render_table
from ekko_memory.models import (
    NODE_STATUSES,
    AuditEvent,
    BrowseFilter,
    MemoryNode,
    NodeHistory,
    PendingItem,
)
from ekko_memory.service.forget import ForgetRequest, Forgetter, candidate_json
from ekko_memory.service.pending import proposal_of, why_no_memory
from ekko_memory.service.write_plan import WriteContext

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService


def when(value: Any) -> str:
    """A timestamp for tables (minutes, UTC)."""
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M")


def value_text(value: Any) -> str:
    """A node value in one line."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def key_value(node: MemoryNode) -> str:
    """``key = value`` (empty for keyless memories)."""
    return f"{node.key} = {value_text(node.value_json)}" if node.key else ""


def store_of(node: MemoryNode) -> str:
    """Which file holds a node."""
    return {"user": "user", "global": "global"}.get(node.scope, "workspace")


def node_rows(nodes: list[MemoryNode], now: datetime) -> list[list[Any]]:
    return [
        [
            n.id,
            n.scope,
            n.status_at(now),
            "/".join(n.category_path),
            n.title,
            key_value(n),
            when(n.updated_at),
        ]
        for n in nodes
    ]


NODE_HEADERS = ("ID", "SCOPE", "STATUS", "CATEGORY", "TITLE", "KEY = VALUE", "UPDATED")


# --- reading ---------------------------------------------------------------------------


def check_search(args: argparse.Namespace) -> None:
    """Usage errors of ``search``."""
    if args.limit < 1 or args.limit > 1000:
        raise _usage("--limit must be between 1 and 1000")


def search_filters(args: argparse.Namespace) -> list[BrowseFilter]:
    """The filters of ``search``, statuses as people (and the app) see them: an active
    memory whose expiry has passed is expired — not listed as active, found by
    ``--status expired``."""
    base = BrowseFilter(
        statuses=None,
        scopes=args.scope,
        category_path_prefix=args.category,
        types=args.type,
        key=args.key,
        session_id=args.session,
        text=args.text,
    )
    if args.all:
        return [base]
    wanted = set(args.status or ["active"])
    filters = []
    if "active" in wanted:
        filters.append(base.model_copy(update={"statuses": ["active"], "hide_expired": True}))
    stored = [s for s in NODE_STATUSES if s in wanted and s != "active"]
    if stored:
        filters.append(base.model_copy(update={"statuses": stored}))
    if "expired" in wanted:
        filters.append(base.model_copy(update={"statuses": ["active"], "only_expired": True}))
    return filters


def search(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """search [TEXT]: full-text search, or the newest memories."""
    nodes: list[MemoryNode] = []
    if args.text and args.text.strip():
        # Each status group ranked best first; the active memories' group leads.
        for f in search_filters(args):
            nodes += mem.browse.search(f, limit=args.limit)
    else:
        for f in search_filters(args):
            nodes += mem.browse.list_nodes(f, limit=args.limit).nodes
        nodes.sort(key=lambda n: (n.updated_at, n.id), reverse=True)
    now = mem.now()
    nodes = [n.seen_at(now) for n in nodes[: args.limit]]
    if out.as_json:
        out.json({"count": len(nodes), "nodes": [n.to_json() for n in nodes]})
        return 0
    if not nodes:
        out.text("No memories found.")
        return 0
    out.text(render_table(NODE_HEADERS, node_rows(nodes, now), max_width=out.width))
    out.text("\n" + plural(len(nodes), "memory", "memories"))
    return 0


def show(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """show ID: every field of one memory (or what became of a proposal that showed ID)."""
    try:
        node, store = mem.locate(args.id)
    except NotFound:
        item = proposal_of(mem, args.id)
        if item is None:
            raise
        reason, _ = why_no_memory(item, args.id)
        raise NotFound(f"no memory {args.id}: {reason}") from None
    node = node.seen_at(mem.now())  # past its expiry is expired, as ``search`` lists it
    if out.as_json:
        out.json({**node.to_json(), "store": store})
        return 0
    out.text(render_fields(node_fields(node, store, mem.now())))
    return 0


def node_fields(node: MemoryNode, store: str, now: datetime) -> list[tuple[str, Any]]:
    """The labelled fields of a node, for ``show``."""
    pairs: list[tuple[str, Any]] = [
        ("id", node.id),
        ("title", node.title),
        ("content", node.content),
        ("status", node.status_at(now)),
        ("scope", f"{node.scope} ({store} store)"),
        ("category", "/".join(node.category_path)),
        ("type", node.type),
        ("key", node.key or ""),
        ("value", value_text(node.value_json)),
        ("confidence", f"{node.confidence:.2f}"),
        ("importance", f"{node.importance:.2f}"),
        ("origin", node.origin),
        ("tags", ", ".join(node.tags)),
        ("entities", ", ".join(node.entities)),
        ("sources", ", ".join(node.source_message_ids)),
        ("supersedes", node.supersedes_id or ""),
        ("session", node.session_id or ""),
        ("workspace", node.workspace_id or ""),
        ("user", node.user_id or ""),
        ("created", when(node.created_at)),
        ("updated", when(node.updated_at)),
        ("expires", when(node.expires_at)),
    ]
    return [(k, v) for k, v in pairs if v not in ("", None) or k in ("key", "value")]


def history(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """history ID: the supersede chain (old → new), audit trail, sources and usage
    (statuses as ``MemoryService.history`` reads them: past its expiry is expired)."""
    h = mem.history(args.id)
    if out.as_json:
        out.json(h.to_json())
        return 0
    out.text(history_text(h, out.width))
    return 0


def actor_text(e: AuditEvent) -> str:
    """Who did it: an imported event names the actor it was recorded with elsewhere."""
    imported = (e.payload or {}).get("imported") if e.actor == "import" else None
    if isinstance(imported, dict) and isinstance(imported.get("actor"), str):
        return f"{imported['actor']} (imported)"
    return e.actor


def history_text(h: NodeHistory, width: int) -> str:
    """The human rendering of a node's history."""
    created = {e.node_id: e for e in h.audit if e.event_type == "create"}
    head = h.chain[-1] if h.chain else None
    # A title is the agent's text: escape sequences in it must not reach the terminal.
    title = clean_cell(head.title) if head else h.node_id
    lines = [f"{title}  ({h.node_id}, {h.store} store)", ""]
    lines.append(f"Versions, oldest first ({len(h.chain)})")
    rows = []
    for i, v in enumerate(h.chain, 1):
        ev = created.get(v.id)
        rows.append(
            [
                i,
                v.id,
                v.status,
                v.title,
                key_value(v),
                when(v.created_at),
                f"{actor_text(ev)}: {ev.reason}" if ev else "",
            ]
        )
    lines.append(
        render_table(
            ("#", "ID", "STATUS", "TITLE", "KEY = VALUE", "CREATED", "BY / WHY"),
            rows,
            max_width=width,
        )
    )
    lines += ["", f"Audit trail, newest first ({len(h.audit)})"]
    lines.append(
        render_table(
            ("TIME", "EVENT", "ACTOR", "MEMORY", "REASON"),
            [
                [when(e.created_at), e.event_type, actor_text(e), e.node_id or "", e.reason]
                for e in h.audit
            ],
            max_width=width,
        )
    )
    if h.sources:
        lines += ["", "Source messages"]
        lines.append(
            render_table(
                ("TIME", "ROLE", "MESSAGE"),
                [
                    # Words an agent passed on as the user's: its report, not the user's.
                    [
                        when(m.created_at),
                        "agent's report" if m.reported_by_agent else m.role,
                        m.content,
                    ]
                    for m in h.sources
                ],
                max_width=width,
            )
        )
    usage = h.usage
    if usage is not None and usage.count:
        used = plural(usage.count, "reply", "replies")
        lines += ["", f"Used in {used}, last {when(usage.last_used_at)}"]
    else:
        lines += ["", "Not used in any reply yet"]
    return "\n".join(lines)


def pending(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """pending [--all]: what waits for the user's decision."""
    items = mem.pending(None if args.all else "pending")
    if out.as_json:
        out.json({"count": len(items), "items": [i.to_json() for i in items]})
        return 0
    if not items:
        out.text("Nothing waits for your decision." if not args.all else "No pending items.")
        return 0
    headers = ["ID", "KIND", "RULE", "PROPOSED", "CURRENT", "BY", "CREATED"]
    if args.all:
        headers.insert(1, "STATUS")
    rows = []
    for item in items:
        row = [
            item.id,
            item.kind,
            item.rule,
            proposal_text(item),
            current_text(mem, item),
            item.requester,
            when(item.created_at),
        ]
        if args.all:
            row.insert(1, item.status)
        rows.append(row)
    out.text(render_table(headers, rows, max_width=out.width))
    out.text("\nDecide with: ekko-memory approve ID   or   ekko-memory reject ID")
    return 0


def proposal_text(item: PendingItem) -> str:
    """What a pending item would do, in a few words."""
    node = item.node
    if node:
        kv = (
            f" ({node.get('key')} = {value_text(node.get('valueJson'))})" if node.get("key") else ""
        )
        return f"{item.operation}: {node.get('title', '')}{kv}"
    return f"{item.operation} {plural(len(item.target_ids), 'memory', 'memories')}"


def current_text(mem: MemoryService, item: PendingItem) -> str:
    """The memory a pending item would replace or delete."""
    ids = [item.current_head_id] if item.current_head_id else item.target_ids
    titles = []
    for node_id in ids[:3]:
        node = mem.get_node(node_id)
        titles.append(node.title if node else node_id)
    return "; ".join(titles)


def stats(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """stats: counts per store, pending items, file locations and health."""
    data = mem.browse.stats()
    open_items = len(mem.pending())
    odd = mem.browse.odd_dates()
    for name, columns in odd.items():
        where = ", ".join(f"{c} ({n})" for c, n in columns.items())
        out.note(
            f"warning: the {name} store holds dates this release does not write, in {where}:"
            " before the year 1000, in 9999, or no date (read as 1000-01-01). They are"
            " read and exported as they are; an import refuses them until they are corrected"
        )
    if out.as_json:
        out.json({"stores": data, "pending": open_items, "oddDates": odd})
        return 0
    for name, entry in data.items():
        status = entry["status"] + (f" ({entry['reason']})" if entry.get("reason") else "")
        out.text(f"{name} store  {entry['location']}  {status}")
        nodes = entry.get("nodes", {})
        tables = entry.get("tables", {})
        pairs = [
            (f"memories {s}", nodes.get(s, 0))
            for s in ("active", "superseded", "expired", "deleted")
        ]
        pairs += [(t.removeprefix("memory_"), n) for t, n in tables.items() if t != "memory_nodes"]
        out.text(render_fields([(f"  {k}", v) for k, v in pairs]))
        out.text()
    waits = "item waits" if open_items == 1 else "items wait"
    out.text(f"{open_items} {waits} for your decision")
    return 0


# --- the user's decisions ---------------------------------------------------------------


def approve(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """approve ID: the user approves a pending item."""
    return _decide(mem, args, out, approve=True)


def reject(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """reject ID: the user rejects a pending item."""
    return _decide(mem, args, out, approve=False)


def _decide(mem: MemoryService, args: argparse.Namespace, out: Output, *, approve: bool) -> int:
    if not str(args.id).startswith("pnd_"):
        raise NotFound(f"no pending item {args.id!r} (pending ids start with pnd_)")
    result = mem.decide(args.id, approve=approve, actor="user", note=args.note)
    if out.as_json:
        out.json(result)
        return 0
    text = f"{result['status'].capitalize()} {result['pendingId']}"
    if result.get("nodeId"):
        text += f" → memory {result['nodeId']}"
    if result.get("deletedIds") is not None and approve:
        text += f" → deleted {plural(len(result['deletedIds']), 'memory', 'memories')}"
    out.text(text)
    return 0


def check_forget(args: argparse.Namespace) -> None:
    """Usage errors of ``forget``."""
    described = (args.scope, args.domain, args.category, args.type, args.key, args.value)
    if not args.id and all(v is None for v in described):
        raise _usage(
            "name what to forget: an id, or --scope/--domain/--category/--type/--key/--value"
        )
    if args.scope and len(args.scope) > 1:
        raise _usage("forget takes one --scope")
    if args.messages and not args.hard:
        raise _usage("--messages goes with --hard (source messages are deleted for good)")


def forget(mem: MemoryService, args: argparse.Namespace, out: Output) -> int:
    """forget [ID | description]: the user deletes memories (soft unless --hard)."""
    mode: Literal["soft", "hard"] = "hard" if args.hard else "soft"
    forgetter = Forgetter(mem)
    if args.id:
        node, _ = mem.locate(args.id)
        if node.status == "superseded" and mode == "soft":
            head = mem.head_of(node.id)
            raise Conflict(f"{node.id} is an old version; forget its current version {head.id}")
        targets = [node]
    else:
        req = ForgetRequest(
            reason=args.reason,
            scope=args.scope[0] if args.scope else None,
            domain=args.domain,
            category_path_prefix=args.category,
            type=args.type,
            key=args.key,
            value_json=args.value,
            mode=mode,
        )
        targets = forgetter.find(req, WriteContext(actor="user"))
        if not targets:
            raise NotFound("no matching memory; nothing was deleted")
    if (len(targets) > 1 or mode == "hard") and not args.yes:
        _confirm(out, targets, mode)
    deleted, warnings = forgetter.execute(
        targets, mode, actor="user", reason=args.reason, cascade_messages=args.messages
    )
    for w in warnings:
        out.note(f"warning: {w}")
    if out.as_json:
        out.json({"deletedIds": deleted, "mode": mode, "warnings": warnings})
        return 0
    if not deleted:
        out.text("Nothing was deleted (already deleted).")
    else:
        what = "removed for good" if mode == "hard" else "deleted (restorable in the app)"
        out.text(f"{plural(len(deleted), 'memory', 'memories')} {what}:")
        for i in deleted:
            out.text(f"  {i}")
    return 0


def _confirm(out: Output, targets: list[MemoryNode], mode: str) -> None:
    out.note(
        render_table(
            ("ID", "SCOPE", "TITLE", "KEY = VALUE"),
            [
                [c["id"], c["scope"], c["title"], key_value(n)]
                for c, n in ((candidate_json(n), n) for n in targets)
            ],
            max_width=out.width,
        )
    )
    verb = "remove for good" if mode == "hard" else "delete"
    these = "this memory" if len(targets) == 1 else f"these {len(targets)} memories"
    if not out.ask(f"{verb.capitalize()} {these}? [y/N]"):
        raise CliError(
            EXIT_DECLINED,
            f"not confirmed; nothing was deleted (add --yes to {verb} without asking)",
        )


def _usage(message: str) -> Exception:
    return CliError(EXIT_USAGE, message)
