"""``MemoryService.retrieve``: structured + full-text retrieval across stores, filtered,
ranked and conflict-resolved, with every left-out match explained.

- ``exact``: nodes matching the structured fields (scope, domain, categoryPathPrefix,
  types, key, valueJson, tags, entities), and the query text when one is given; a query
  with neither fields nor text lists its scopes' memories in priority order.
- ``relevant``: other full-text matches of the query text (outside the structured frame);
  when nothing holds all of its words, matches of any of them (a sentence, not keywords).
- ``omitted``: matches left out, with the reason (expired, superseded, low_confidence,
  conflict_lost, over_limit). Deleted nodes are never mentioned.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ekko_memory.identity import SUBJECT_FIELDS, value_subject
from ekko_memory.models import (
    MemoryNode,
    MemoryQuery,
    MemoryQueryResult,
    NodeLike,
    OmittedNode,
    Scope,
    omission,
)
from ekko_memory.schema.normalize import canonical_key
from ekko_memory.schema.values import ValueError_, normalize_value, values_match
from ekko_memory.service.ranking import SCOPE_RANK, priority_key, resolve_conflicts
from ekko_memory.store.filters import NodeFilter, Viewer
from ekko_memory.store.sql_store import SqlStore

if TYPE_CHECKING:
    from ekko_memory.schema.registry import SchemaRegistry
    from ekko_memory.service.memory_service import MemoryService

VISIBLE_STATUSES = ("active", "superseded", "expired")


@dataclass(frozen=True)
class StoreSlice:
    """One store and the scopes a query reads from it."""

    name: str
    store: SqlStore
    scopes: tuple[Scope, ...]


def viewer_of(q: MemoryQuery) -> Viewer:
    """The reader a query speaks for."""
    return Viewer.of(q.session_id, q.user_id, q.workspace_id)


def visible(node: NodeLike, q: MemoryQuery) -> bool:
    """Session nodes belong to their session; user nodes to their user (or to nobody in particular)."""
    return viewer_of(q).sees(node)


def value_hint(
    registry: SchemaRegistry, domain: str | None, node_type: str | None, key: str | None, value: Any
) -> str | None:
    """The subject a stored value matching ``value`` must have (an indexed pre-filter; the exact
    comparison happens in Python), or None when the key's shape leaves it open (少辣 →
    {"spicy": "low"} names no subject)."""
    if value is None or key is None:
        return None
    rule = registry.rule_for_key(domain or "", node_type or "preference", key) if domain else None
    try:
        shaped = normalize_value(
            key, None if rule is None else rule.key_shapes.get(key, rule.value_shape), value
        )
    except ValueError_:
        shaped = value
    if isinstance(shaped, dict) and not any(f in shaped for f in SUBJECT_FIELDS):
        return None
    return value_subject(shaped)


def has_structure(q: MemoryQuery) -> bool:
    """The query names structured fields (beyond scopes and text)."""
    return bool(
        q.domain
        or q.category_path_prefix
        or q.types
        or q.key
        or q.value_json is not None
        or q.tags
        or q.entities
    )


class Retriever:
    """Runs MemoryQuery against the service's stores."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    def _filter(self, q: MemoryQuery, scopes: tuple[Scope, ...], *, structured: bool) -> NodeFilter:
        registry = self.service.registry
        domain = registry.canonical_domain(q.domain) if q.domain else None
        key = None
        if structured and q.key:
            key = canonical_key(registry, domain or "", q.types[0] if q.types else None, q.key)
        return NodeFilter(
            statuses=VISIBLE_STATUSES,
            scopes=scopes,
            domain=domain if structured else None,
            category_prefix=q.category_path_prefix if structured else None,
            types=q.types if structured else None,
            key=key,
            tags=q.tags,
            entities=q.entities,
            session_id=None,
            subject=value_hint(registry, domain, q.types[0] if q.types else None, key, q.value_json)
            if structured
            else None,
            viewer=viewer_of(q),
        )

    def value_matches(self, q: MemoryQuery, node: MemoryNode) -> bool:
        """The node's value matches the query's valueJson (normalized the node key's way)."""
        if q.value_json is None:
            return True
        if node.key is None:
            return False
        try:
            rule = self.service.registry.rule_for_key(node.domain, node.type, node.key)
            shape = None if rule is None else rule.key_shapes.get(node.key, rule.value_shape)
            wanted = normalize_value(node.key, shape, q.value_json)
        except ValueError_:
            wanted = q.value_json
        return values_match(wanted, node.value_json) or values_match(q.value_json, node.value_json)

    def _gather(
        self, q: MemoryQuery, *, structured: bool, text: str | None, any_term: bool = False
    ) -> list[MemoryNode]:
        fetch = q.limit * 4 + 20
        found: list[MemoryNode] = []
        for part in self.service.store_slices(q.scopes):
            f = self._filter(q, part.scopes, structured=structured)
            with part.store.snapshot() as r:
                if text:
                    hits = [h.node for h in r.search_nodes(text, f, limit=fetch, any_term=any_term)]
                else:
                    hits = r.find_nodes(f, limit=fetch)
            found.extend(
                n for n in hits if visible(n, q) and (not structured or self.value_matches(q, n))
            )
        return found

    def retrieve(self, q: MemoryQuery, now: datetime | None = None) -> MemoryQueryResult:
        """Filtered, ordered, conflict-resolved nodes for ``q``."""
        now = now or self.service.now()
        exact_raw: list[MemoryNode] = []
        relevant_raw: list[MemoryNode] = []
        if has_structure(q) or not q.query_text:
            # Without text or fields a query lists what its scopes hold, in priority
            # order (bounded by the limit): an empty search is a question, not a miss.
            exact_raw = self._gather(q, structured=True, text=q.query_text)
        if q.query_text:
            seen = {n.id for n in exact_raw}
            relevant_raw = [
                n for n in self._gather(q, structured=False, text=q.query_text) if n.id not in seen
            ]
            if not exact_raw and not relevant_raw:
                # Agents often ask in a sentence (用户的饮食偏好是什么): when no memory holds
                # all of it, any of its keywords, with enough evidence each.
                relevant_raw = self._gather(q, structured=False, text=q.query_text, any_term=True)
        omitted: list[OmittedNode] = []
        exact = self._screen(exact_raw, q, now, omitted)
        relevant = self._screen(relevant_raw, q, now, omitted)
        # Conflicts are resolved over both lists together: a relevant node cannot
        # contradict an exact one.
        resolution = resolve_conflicts(self.service.registry, [*exact, *relevant], now)
        lost = {o.node_id for o in resolution.lost}
        omitted.extend(resolution.lost)
        exact_ids = {n.id for n in exact}
        exact = [n for n in resolution.kept if n.id in exact_ids]
        relevant = [n for n in resolution.kept if n.id not in exact_ids and n.id not in lost]
        if q.query_text:
            # Relevant nodes: scope first, then text relevance (the order search returned).
            order = {n.id: i for i, n in enumerate(relevant_raw)}
            relevant.sort(key=lambda n: (SCOPE_RANK.get(n.scope, 9), order.get(n.id, 0)))
        for extra in (*exact[q.limit :], *relevant[q.limit :]):
            omitted.append(omission(extra.id, "over_limit"))
        return MemoryQueryResult(
            # includeExpired hands out nodes past their expiry: they say expired, as the
            # context and the app do (the stored status changes only when written).
            exact=[n.seen_at(now) for n in exact[: q.limit]],
            relevant=[n.seen_at(now) for n in relevant[: q.limit]],
            omitted=omitted,
            warnings=self.service.unread_warnings(q.scopes) or None,
        )

    def _screen(
        self, nodes: Iterable[MemoryNode], q: MemoryQuery, now: datetime, omitted: list[OmittedNode]
    ) -> list[MemoryNode]:
        kept = []
        for node in nodes:
            if node.status == "superseded":
                omitted.append(omission(node.id, "superseded"))
            elif node.is_expired(now) and not q.include_expired:
                omitted.append(omission(node.id, "expired"))
            elif node.confidence < q.min_confidence:
                omitted.append(omission(node.id, "low_confidence"))
            else:
                kept.append(node)
        return sorted(kept, key=lambda n: priority_key(n, now))
