"""``MemoryService.retrieve``: structured + full-text retrieval across stores, filtered,
ranked and conflict-resolved, with every left-out match explained.

- ``exact``: nodes matching the structured fields (scope, domain, categoryPathPrefix,
  types, key, valueJson, tags, entities), and the query text when one is given; a query
  with neither fields nor text lists its scopes' memories in priority order.
- ``relevant``: other full-text matches of the query text (outside the structured frame);
  when nothing holds all of its words, matches of any of them (a sentence, not keywords).
- ``omitted``: matches left out, with the reason (expired, superseded, low_confidence,
  conflict_lost, over_limit, low_relevance). Deleted nodes are never mentioned.

With semantic recall on, ``relevant`` also holds the memories nearest in meaning to the
query text (any language), ranked with the keyword matches by relevance; a keyword match
the model finds unrelated (under the relevance floor) is omitted as ``low_relevance``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

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
from ekko_memory.service.semantic_stage import SemanticStage, fuse, store_of
from ekko_memory.store.filters import NodeFilter, Viewer
from ekko_memory.store.rows import NodeRow
from ekko_memory.store.sql_store import SqlStore

if TYPE_CHECKING:
    from ekko_memory.schema.registry import SchemaRegistry
    from ekko_memory.service.memory_service import MemoryService

VISIBLE_STATUSES = ("active", "superseded", "expired")
T = TypeVar("T")
# Questions longer than this are not remembered by a frozen store.
MEMO_CHARS = 200


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


def typed(nodes: Iterable[NodeLike]) -> list[MemoryNode]:
    """The nodes as ``MemoryNode`` (a store row read untyped is typed here, once chosen)."""
    return [n if isinstance(n, MemoryNode) else n.node() for n in nodes]  # type: ignore[attr-defined]


def _remembered(store: SqlStore, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """``compute()``, kept by the store until anyone commits to it (``SqlStore.kept``:
    an agent asking again what it asked a moment ago reads nothing), once per question
    by a frozen store (the global memories shipped with the app). The rows are
    immutable tuples, shared by the answers."""
    try:
        hash(key)
    except TypeError:  # a filter holding lists (tags, entities)
        return compute()
    return store.kept(key, compute)


def _tuple(items: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if items is None else tuple(items)


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

    # The plan: True reads each store once per query (one ranked pass yields both the
    # structured and the relevant matches, kept as untyped rows until they are chosen);
    # False, the plan before (a search per list, typed nodes), kept callable for the test
    # that holds the two to the same answers.
    bounded = True

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
            # Lists as tuples: a filter is then a key for what its store keeps (``kept``).
            category_prefix=_tuple(q.category_path_prefix) if structured else None,
            types=_tuple(q.types) if structured else None,
            key=key,
            tags=_tuple(q.tags),
            entities=_tuple(q.entities),
            session_id=None,
            subject=value_hint(registry, domain, q.types[0] if q.types else None, key, q.value_json)
            if structured
            else None,
            viewer=viewer_of(q),
        )

    def value_matches(self, q: MemoryQuery, node: NodeLike) -> bool:
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

    def _gather_text(self, q: MemoryQuery) -> tuple[list[NodeLike], list[NodeLike]] | None:
        """The structured and the relevant matches of ``q``'s text, one ranked statement
        per store (``framed_search_rows``); None when a store finds no searchable word
        (the search by substring then runs, the plan before)."""
        fetch = q.limit * 4 + 20
        structured = has_structure(q)
        exact: list[NodeLike] = []
        best: list[NodeLike] = []
        assert q.query_text
        for part in self.service.store_slices(q.scopes):
            whole = self._filter(q, part.scopes, structured=True)
            common = replace(
                whole,
                domain=None,
                category_prefix=None,
                types=None,
                key=None,
                subject=None,
            )
            frame = (
                NodeFilter(
                    statuses=None,
                    domain=whole.domain,
                    category_prefix=whole.category_prefix,
                    types=whole.types,
                    key=whole.key,
                    subject=whole.subject,
                )
                if structured
                else None
            )
            text = q.query_text

            def search(
                store: SqlStore = part.store,
                common: NodeFilter = common,
                frame: Any = frame,
                text: str = text,
            ) -> tuple[list[NodeRow], list[NodeRow]] | None:
                with store.snapshot() as r:
                    return r.framed_search_rows(text, common, frame, fetch)

            found = (
                search()
                if len(text) > MEMO_CHARS  # a pasted page is not kept alive by a cache
                else _remembered(part.store, ("framed", text, common, frame, fetch), search)
            )
            if found is None:
                return None
            framed, anywhere = found
            sees = viewer_of(q).sees
            if q.value_json is None:
                exact.extend(n for n in framed if sees(n))
            else:
                exact.extend(n for n in framed if sees(n) and self.value_matches(q, n))
            best.extend(n for n in anywhere if sees(n))
        seen = {n.id for n in exact}
        return exact, [n for n in best if n.id not in seen]

    def _gather(
        self, q: MemoryQuery, *, structured: bool, text: str | None, any_term: bool = False
    ) -> list[NodeLike]:
        fetch = q.limit * 4 + 20
        found: list[NodeLike] = []
        for part in self.service.store_slices(q.scopes):
            f = self._filter(q, part.scopes, structured=structured)
            hits: Sequence[NodeLike]
            if text:
                with part.store.snapshot() as r:
                    hits = [h.node for h in r.search_nodes(text, f, limit=fetch, any_term=any_term)]
            elif self.bounded:

                def rows(store: SqlStore = part.store, f: NodeFilter = f) -> list[NodeRow]:
                    with store.snapshot() as r:
                        return r.find_node_rows(f, limit=fetch)

                hits = _remembered(part.store, ("rows", f, fetch), rows)
            else:
                with part.store.snapshot() as r:
                    hits = r.find_nodes(f, limit=fetch)
            sees = viewer_of(q).sees
            if structured and q.value_json is not None:
                found.extend(n for n in hits if sees(n) and self.value_matches(q, n))
            else:
                found.extend(n for n in hits if sees(n))
        return found

    def retrieve(self, q: MemoryQuery, now: datetime | None = None) -> MemoryQueryResult:
        """Filtered, ordered, conflict-resolved nodes for ``q``."""
        now = now or self.service.now()
        exact_raw: list[NodeLike] = []
        relevant_raw: list[NodeLike] = []
        both = self._gather_text(q) if self.bounded and q.query_text else None
        if both is not None:
            exact_raw, relevant_raw = both
            if not exact_raw and not relevant_raw:
                relevant_raw = self._gather(q, structured=False, text=q.query_text, any_term=True)
        elif has_structure(q) or not q.query_text:
            # Without text or fields a query lists what its scopes hold, in priority
            # order (bounded by the limit): an empty search is a question, not a miss.
            exact_raw = self._gather(q, structured=True, text=q.query_text)
        if q.query_text and both is None:
            seen = {n.id for n in exact_raw}
            relevant_raw = [
                n for n in self._gather(q, structured=False, text=q.query_text) if n.id not in seen
            ]
            if not exact_raw and not relevant_raw:
                # Agents often ask in a sentence (用户的饮食偏好是什么): when no memory holds
                # all of it, any of its keywords, with enough evidence each.
                relevant_raw = self._gather(q, structured=False, text=q.query_text, any_term=True)
        omitted: list[OmittedNode] = []
        warnings: list[str] = []
        relevance: dict[str, float] = {}
        if q.query_text and q.query_text.strip() and self.service.semantic is not None:
            # The semantic stage reads typed nodes.
            exact_typed = typed(exact_raw)
            ranked, relevance = self._semantic(
                q, exact_typed, typed(relevant_raw), omitted, warnings
            )
            exact_raw, relevant_raw = list(exact_typed), list(ranked)
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
        if relevance:
            # Most related first, whatever the scope (conflicts were settled above).
            relevant.sort(key=lambda n: -relevance.get(n.id, 0.0))
        elif q.query_text:
            # Relevant nodes: scope first, then text relevance (the order search returned).
            order = {n.id: i for i, n in enumerate(relevant_raw)}
            relevant.sort(key=lambda n: (SCOPE_RANK.get(n.scope, 9), order.get(n.id, 0)))
        for extra in (*exact[q.limit :], *relevant[q.limit :]):
            omitted.append(omission(extra.id, "over_limit"))
        return MemoryQueryResult(
            # includeExpired hands out nodes past their expiry: they say expired, as the
            # context and the app do (the stored status changes only when written).
            exact=[n.seen_at(now) for n in typed(exact[: q.limit])],
            relevant=[n.seen_at(now) for n in typed(relevant[: q.limit])],
            omitted=omitted,
            warnings=[*self.service.unread_warnings(q.scopes), *warnings] or None,
        )

    def _semantic(
        self,
        q: MemoryQuery,
        exact: list[MemoryNode],
        keyword: list[MemoryNode],
        omitted: list[OmittedNode],
        warnings: list[str],
    ) -> tuple[list[MemoryNode], dict[str, float]]:
        """The relevant nodes with the nearest in meaning added, all ranked by relevance
        (keyword matches under the floor omitted as low_relevance); and their relevance."""
        recall = self.service.semantic
        assert recall is not None and q.query_text
        stage = SemanticStage(recall, q.query_text, warnings)
        if stage.vector() is None:
            return keyword, {}
        seen = {n.id for n in exact}
        near: list[tuple[MemoryNode, float]] = []
        for part in self.service.store_slices(q.scopes):
            if part.name == "global":
                continue
            f = self._filter(q, part.scopes, structured=False)
            with part.store.snapshot() as r:
                rows = stage.nearest(part.name, part.store, r, f, q.limit * 2 + 10)  # type: ignore[arg-type]
            near += [(row.node(), sim) for row, sim in rows if row.id not in seen]
        near = [(n, sim) for n, sim in near if visible(n, q)]
        sims = stage.similarity([(store_of(n.scope), n) for n in keyword])
        sims.update((n.id, sim) for n, sim in near)
        ranked, low = fuse(keyword, near, sims, stage.floor)
        omitted.extend(omission(i, "low_relevance") for i in low)
        return [n for n, _ in ranked], {n.id: score for n, score in ranked}

    def _screen(
        self, nodes: Iterable[NodeLike], q: MemoryQuery, now: datetime, omitted: list[OmittedNode]
    ) -> list[NodeLike]:
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
        if self.bounded:
            # resolve_conflicts ranks them (its keys remembered per row): sorting here too
            # parsed every row's times again.
            return kept
        return sorted(kept, key=lambda n: priority_key(n, now))
