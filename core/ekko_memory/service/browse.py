"""Browsing for the app and the CLI: pages of nodes, the category tree, sessions, changes.

Pages use keyset pagination on (sort value, id) so the 1000th page costs what the first
does; the two stores are merged page by page. Newest first by default; any column of the
app's table on request (``BrowseSort``), ties broken by id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from ekko_memory.models import (
    AuditEvent,
    BrowseFilter,
    BrowseSort,
    CategoryCount,
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    SessionSummaryInfo,
)
from ekko_memory.store.filters import NodeFilter, sort_value

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

Cursor = tuple[Any, str]  # (sort value, id) of the last row of a page


@dataclass(frozen=True)
class NodePage:
    """One page of nodes in the order asked, and the cursor for the next page (None at the end)."""

    nodes: list[MemoryNode]
    next_cursor: Cursor | None


@dataclass(frozen=True)
class ChangeToken:
    """Changes when any store changes (compare two tokens to know whether to refresh)."""

    parts: tuple[Any, ...]


# How much of a session's first message names it in a list.
FIRST_WORDS_CHARS = 60


def _first_words(messages: Sequence[MemoryMessage]) -> str | None:
    """The first user message (else the first message) on one line, shortened."""
    first = next((m for m in messages if m.role == "user"), messages[0] if messages else None)
    if first is None:
        return None
    text = " ".join(first.content.split())
    return text if len(text) <= FIRST_WORDS_CHARS else text[: FIRST_WORDS_CHARS - 1] + "…"


class Browser:
    """Read-only listing over the service's stores."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    def _node_filter(self, f: BrowseFilter, scopes: tuple[str, ...]) -> NodeFilter:
        wanted = tuple(s for s in scopes if f.scopes is None or s in f.scopes)
        domain = self.service.registry.canonical_domain(f.domain) if f.domain else None
        return NodeFilter(
            statuses=f.statuses,
            scopes=wanted,
            domain=domain,
            category_prefix=f.category_path_prefix,
            types=f.types,
            key=f.key,
            session_id=f.session_id,
            live_at=self.service.now() if f.hide_expired else None,
            expired_at=self.service.now() if f.only_expired else None,
        )

    def _slices(self, f: BrowseFilter) -> list[tuple[Any, NodeFilter]]:
        out = []
        for part in self.service.store_slices(f.scopes):
            nf = self._node_filter(f, part.scopes)
            if nf.scopes:
                out.append((part, nf))
        return out

    def list_nodes(
        self,
        f: BrowseFilter,
        *,
        after: Cursor | None = None,
        limit: int = 200,
        sort: BrowseSort | None = None,
        descending: bool = False,
    ) -> NodePage:
        """A page of nodes, newest first or in the order ``sort`` (ties by id).

        A text filter returns one page: its best ``limit`` matches, best first, or in the
        order ``sort``.
        """
        if f.text and f.text.strip():
            hits = self.search(f, limit=limit)
            if sort is not None:
                hits.sort(key=partial(self.sort_key, sort=sort), reverse=descending)
            return NodePage(hits, None)
        order: BrowseSort = sort or "updated"
        if sort is None:
            descending = True
        rows: list[MemoryNode] = []
        for part, nf in self._slices(f):
            with part.store.read() as r:
                rows += r.page_nodes(
                    nf, after=after, limit=limit, sort=order, descending=descending
                )
        rows.sort(key=partial(self.sort_key, sort=order), reverse=descending)
        page = rows[:limit]
        more = len(rows) > limit or len(page) == limit
        cursor = self.sort_key(page[-1], order) if page and more else None
        return NodePage(page, cursor)

    @staticmethod
    def sort_key(node: MemoryNode, sort: BrowseSort) -> Cursor:
        """Where ``node`` falls in the order ``sort`` (ascending; ties by id): what
        ``list_nodes`` sorts by, so a caller can place a changed memory among a page's."""
        return (sort_value(node, sort), node.id)

    def search(self, f: BrowseFilter, *, limit: int = 200) -> list[MemoryNode]:
        """Full-text matches (Chinese included) within the filter, best first; partial last words match."""
        text = (f.text or "").strip()
        hits = []
        for part, nf in self._slices(f):
            with part.store.read() as r:
                hits += r.search_nodes(text, nf, limit=limit, prefix_last=True)
        hits.sort(key=lambda h: h.rank)
        return [h.node for h in hits[:limit]]

    def count(self, f: BrowseFilter) -> int:
        """How many nodes match (text filters count up to 1000 matches)."""
        if f.text and f.text.strip():
            return len(self.search(f, limit=1000))
        total = 0
        for part, nf in self._slices(f):
            with part.store.read() as r:
                total += r.count_nodes(nf)
        return total

    def category_counts(self, f: BrowseFilter) -> list[CategoryCount]:
        """Node counts per exact category path, merged over stores."""
        merged: dict[tuple[str, tuple[str, ...]], int] = {}
        for part, nf in self._slices(f):
            with part.store.read() as r:
                for c in r.category_counts(nf):
                    merged[(c.domain, c.category_path)] = (
                        merged.get((c.domain, c.category_path), 0) + c.count
                    )
        return [
            CategoryCount(domain=d, category_path=list(p), count=n)
            for (d, p), n in sorted(merged.items(), key=lambda kv: kv[0][1])
        ]

    def sessions(self, limit: int = 500) -> list[SessionSummaryInfo]:
        """Sessions of the workspace, most recently active first."""
        store = self.service.workspace_store
        if not store.health.readable:
            return []
        with store.read() as r:
            return [
                SessionSummaryInfo(
                    session_id=s.session_id,
                    message_count=s.message_count,
                    first_at=s.first_at,
                    last_at=s.last_at,
                    first_words=_first_words(r.list_messages(s.session_id, offset=0, limit=5)),
                )
                for s in r.list_sessions(limit)
            ]

    def messages(
        self, session_id: str, *, offset: int = 0, limit: int = 500
    ) -> list[MemoryMessage]:
        """A session's messages in order."""
        with self.service.workspace_store.read() as r:
            return r.list_messages(session_id, offset=offset, limit=limit)

    def messages_by_id(self, message_ids: Sequence[str]) -> list[MemoryMessage]:
        """Messages by id (any session), in order; unknown ids are skipped.

        For showing the source of a pending item or the replies that used a memory.
        """
        store = self.service.workspace_store
        if not message_ids or not store.health.readable:
            return []
        with store.read() as r:
            return r.get_messages(list(message_ids)[:500])

    def used_in_reply(self, message_id: str) -> list[MemoryNode]:
        """The memories that fed one reply (the context it was written with), as they are
        now, most important first; memories deleted for good since are left out."""
        ids: list[str] = []
        for _, store in self.service.stores():
            if store.health.readable:
                with store.read() as r:
                    ids += r.usage_for_message(message_id)
        nodes = [n for n in (self.service.get_node(i) for i in dict.fromkeys(ids)) if n]
        return sorted(nodes, key=lambda n: (-n.importance, n.title))

    def last_used(self, node_ids: Sequence[str]) -> dict[str, datetime]:
        """When each memory last fed a reply (those never used are left out)."""
        out: dict[str, datetime] = {}
        for _, store in self.service.stores():
            if store.health.readable:
                with store.read() as r:
                    for node_id, when in r.last_used(node_ids).items():
                        if node_id not in out or out[node_id] < when:
                            out[node_id] = when
        return out

    def summaries(self, session_id: str) -> list[MemorySummary]:
        """A session's summary chain, oldest first (stale ones included and flagged)."""
        with self.service.workspace_store.read() as r:
            return r.list_summaries(session_id)

    def change_token(self) -> ChangeToken:
        """Cheap fingerprint of both stores (newest audit event, message and pending rows)."""
        parts: list[Any] = []
        for _, store in self.service.stores():
            if not store.health.readable:
                parts.append(None)
                continue
            with store.read() as r:
                parts.append(r.change_marks())
        return ChangeToken(tuple(parts))

    def audit_since(
        self, since: datetime | None, limit: int = 1000, after_id: str | None = None
    ) -> list[AuditEvent]:
        """The first ``limit`` audit events of both stores at or after ``since``, oldest
        first. A full page may have more after it: ask again from its last event
        (``since=last.created_at, after_id=last.id``)."""
        events: list[AuditEvent] = []
        for _, store in self.service.stores():
            if store.health.readable:
                with store.read() as r:
                    events += r.audit_since(since, limit, after_id)
        events.sort(key=lambda e: (e.created_at, e.id))
        return events[:limit]

    def odd_dates(self) -> dict[str, dict[str, int]]:
        """Per readable store, the date columns holding dates this release does not write
        (and how many rows): written by an older release, or by hand. A full scan."""
        out: dict[str, dict[str, int]] = {}
        for name, store in self.service.stores():
            if store.health.readable:
                with store.read() as r:
                    found = r.odd_dates()
                if found:
                    out[name] = found
        return out

    def stats(self) -> dict[str, Any]:
        """Counts per store and status, pending items, file locations and health."""
        out: dict[str, Any] = {}
        for name, store in self.service.stores():
            entry: dict[str, Any] = {
                "location": store.health.location,
                "status": store.health.status,
                "reason": store.health.reason,
            }
            if store.health.readable:
                with store.read() as r:
                    entry["tables"] = r.table_counts()
                    # As the app and the context see them: past its expiry is expired.
                    entry["nodes"] = r.node_status_counts(self.service.now())
            out[name] = entry
        return out
