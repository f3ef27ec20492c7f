"""The per-turn context (默认自动检索): four-way retrieval, merged and conflict-resolved.

1. recent messages of the session, 2. its latest summary, 3. active nodes of the
current scopes (session nodes, workspace tasks / constraints / decisions / facts, the
user's preferences for what the message is about), 4. full-text matches of the message.
Every step degrades on its own: a failing store yields a warning, never an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from ekko_memory.errors import EkkoMemoryError
from ekko_memory.ids import new_id
from ekko_memory.models import (
    MemoryContext,
    MemoryContextDiagnostics,
    MemoryMessage,
    MemoryNode,
    MemoryQuery,
    OmittedNode,
)
from ekko_memory.service.ranking import resolve_conflicts
from ekko_memory.service.retrieval import visible
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.reader import StoreReader

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

T = TypeVar("T")
LIVE = ("active", "expired")
# Node types that have their own section; everything else is "relevant".
SECTION_OF = {
    "constraint": "constraints",
    "preference": "preferences",
    "task": "active_tasks",
    "decision": "facts",
    "fact": "facts",
}


class ContextBuilder:
    """Builds MemoryContext for one turn of one session."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service
        self.warnings: list[str] = []

    def _try(self, what: str, fn: Callable[[], T], default: T) -> T:
        try:
            return fn()
        except EkkoMemoryError as e:
            self.warnings.append(f"{what}: {e}")
        except Exception as e:  # a retrieval bug must not take the agent down
            self.warnings.append(f"{what} failed: {type(e).__name__}: {e}")
        return default

    def build(
        self,
        session_id: str,
        user_message: str,
        *,
        user_id: str | None,
        workspace_id: str | None,
    ) -> MemoryContext:
        """The context for a reply to ``user_message``."""
        svc = self.service
        cfg = svc.config
        now = svc.now()
        ws, us = svc.workspace_store, svc.user_store
        for store_name, store in svc.stores():
            if store.health.status != "ok":
                self.warnings.append(
                    f"{store_name} store {store.health.status}: {store.health.reason}"
                )

        recent: list[MemoryMessage] = []
        summary = None
        if ws.health.readable:
            recent = self._try(
                "recent messages",
                lambda: ws.list_recent_messages(session_id=session_id, limit=cfg.recent_messages),
                [],
            )
            summary = self._try(
                "latest summary", lambda: ws.get_latest_summary(session_id=session_id), None
            )
        if not recent and user_message and not ws.health.readable:
            # Without the log the agent still gets the current input.
            recent = [
                MemoryMessage(
                    id=new_id("msg"),
                    session_id=session_id,
                    role="user",
                    content=user_message,
                    created_at=now,
                )
            ]

        frame = MemoryQuery(session_id=session_id, user_id=user_id, workspace_id=workspace_id)
        hints = svc.registry.hinted_categories(user_message)
        candidates: dict[str, MemoryNode] = {}

        def add(nodes: Sequence[MemoryNode]) -> None:
            for n in nodes:
                if visible(n, frame):
                    candidates.setdefault(n.id, n)

        if ws.health.readable:
            add(
                self._try(
                    "workspace memories", lambda: self._workspace_nodes(session_id, hints), []
                )
            )
        if us.health.readable:
            add(self._try("user memories", lambda: self._user_nodes(hints), []))
        relevant_ids: set[str] = set()
        if user_message.strip():
            no_hits: list[MemoryNode] = []
            found = self._try("full-text search", lambda: self._search(user_message), no_hits)
            fresh = [n for n in found if n.id not in candidates]
            add(fresh)
            relevant_ids = {n.id for n in fresh}

        omitted: list[OmittedNode] = []
        live: list[MemoryNode] = []
        for node in candidates.values():
            if node.is_expired(now):
                omitted.append(OmittedNode(node_id=node.id, reason="expired"))
            elif node.confidence < cfg.min_confidence:
                omitted.append(OmittedNode(node_id=node.id, reason="low_confidence"))
            else:
                live.append(node)
        resolution = resolve_conflicts(svc.registry, live, now)
        omitted.extend(resolution.lost)

        sections: dict[str, list[MemoryNode]] = {
            "constraints": [],
            "preferences": [],
            "active_tasks": [],
            "facts": [],
            "relevant_nodes": [],
        }
        for node in resolution.kept:
            section = SECTION_OF.get(node.type, "relevant_nodes")
            if node.id in relevant_ids and section == "facts":
                section = "relevant_nodes"
            sections[section].append(node)
        limits = cfg.section_limits
        for name, nodes in sections.items():
            for extra in nodes[limits[name] :]:
                omitted.append(OmittedNode(node_id=extra.id, reason="over_limit"))
            del nodes[limits[name] :]

        used = [n.id for nodes in sections.values() for n in nodes]
        enabled = ws.health.readable or us.health.readable
        degraded = bool(self.warnings) or any(s.health.status != "ok" for _, s in svc.stores())
        diagnostics = MemoryContextDiagnostics(
            enabled=enabled,
            store_status="disabled" if not enabled else ("degraded" if degraded else "ok"),
            warnings=self.warnings,
            retrieved_node_count=len(used),
            omitted_node_count=len(omitted),
        )
        return MemoryContext(
            latest_summary=summary,
            recent_messages=recent,
            used_memory_ids=used,
            omitted=omitted,
            diagnostics=diagnostics,
            **sections,
        )

    # --- the queries ----------------------------------------------------------------

    def _workspace_nodes(self, session_id: str, hints: list[tuple[str, ...]]) -> list[MemoryNode]:
        lim = self.service.config.section_limits
        out: list[MemoryNode] = []
        with self.service.workspace_store.read() as r:
            out += r.find_nodes(
                NodeFilter(statuses=LIVE, scopes=["session"], session_id=session_id), limit=40
            )
            out += r.find_nodes(
                NodeFilter(statuses=LIVE, scopes=["workspace"], types=["task"]),
                limit=lim["active_tasks"] * 2,
            )
            out += r.find_nodes(
                NodeFilter(statuses=LIVE, scopes=["workspace"], types=["constraint"]),
                limit=lim["constraints"] * 2,
            )
            out += r.find_nodes(
                NodeFilter(statuses=LIVE, scopes=["workspace"], types=["decision", "fact"]),
                limit=lim["facts"] * 2,
            )
            out += self._hinted(r, "workspace", hints)
        return out

    def _user_nodes(self, hints: list[tuple[str, ...]]) -> list[MemoryNode]:
        lim = self.service.config.section_limits
        out: list[MemoryNode] = []
        with self.service.user_store.read() as r:
            out += self._hinted(r, "user", hints)
            for rule in self.service.registry.always_in_context_rules():
                out += r.find_nodes(
                    NodeFilter(
                        statuses=LIVE,
                        scopes=["user"],
                        domain=rule.domain,
                        category_prefix=rule.category_path_prefix,
                        types=[rule.type],
                    ),
                    limit=lim["preferences"],
                )
            if not hints:
                # Nothing points at a topic: the user's most important preferences only.
                top = r.find_nodes(
                    NodeFilter(statuses=LIVE, scopes=["user"], types=["preference", "constraint"]),
                    limit=lim["preferences"],
                )
                out += [
                    n for n in top if n.importance >= self.service.config.topicless_min_importance
                ]
        return out

    def _hinted(self, r: StoreReader, scope: str, hints: list[tuple[str, ...]]) -> list[MemoryNode]:
        lim = self.service.config.section_limits
        out: list[MemoryNode] = []
        for path in hints:
            # Recipes and skills come in through the text search, not by topic alone.
            for types, limit in (
                (["constraint"], lim["constraints"]),
                (["preference"], lim["preferences"]),
            ):
                out += r.find_nodes(
                    NodeFilter(
                        statuses=LIVE,
                        scopes=[scope],
                        domain=path[0],
                        category_prefix=path,
                        types=types,
                    ),
                    limit=limit * 2,
                )
        return out

    def _search(self, text: str) -> list[MemoryNode]:
        limit = self.service.config.section_limits["relevant_nodes"] * 2
        hits = []
        for part in self.service.store_slices(None):
            with part.store.read() as r:
                hits += r.search_nodes(
                    text,
                    NodeFilter(statuses=["active"], scopes=part.scopes, live_at=self.service.now()),
                    limit=limit,
                )
        hits.sort(key=lambda h: h.rank)
        return [h.node for h in hits[:limit]]
