"""The per-turn context (默认自动检索): four-way retrieval, merged and conflict-resolved.

1. recent messages of the session, 2. its latest summary, 3. active nodes of the
current scopes (session nodes, workspace tasks / constraints / decisions / facts, the
user's preferences for what the message is about), 4. full-text matches of the message's
keywords (any of them, best first, each hit with enough evidence).
Every step degrades on its own: a failing store yields a warning, never an exception.

Candidates stay untyped store rows (``NodeRow``) through screening, ranking and conflict
resolution; only the nodes that make it into the context become ``MemoryNode``s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from ekko_memory.errors import EkkoMemoryError
from ekko_memory.ids import new_id
from ekko_memory.models import (
    MemoryContext,
    MemoryContextDiagnostics,
    MemoryMessage,
    MemorySummary,
    OmittedNode,
    PendingItem,
    clean_text,
    omission,
    trusted,
)
from ekko_memory.schema.normalize import conflict_identity
from ekko_memory.service import unconfirmed
from ekko_memory.service.controls import SETTING as PAUSE_SETTING
from ekko_memory.service.controls import Controls
from ekko_memory.service.ranking import resolve_conflicts
from ekko_memory.service.semantic_stage import SemanticStage, fuse, store_of
from ekko_memory.store.filters import NodeFilter, Viewer
from ekko_memory.store.reader import StoreReader
from ekko_memory.store.rows import NodeRow
from ekko_memory.store.search_reads import RowHit
from ekko_memory.store.search_text import MEMO_CHARS
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.store.turn_reads import (
    KeywordAsk,
    NodeAsk,
    TurnAsk,
    TurnRows,
    WaitingAsk,
    read_turn,
    read_turns,
)

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService
    from ekko_memory.service.semantic.recall import StoreName

T = TypeVar("T")
# What a turn's read of each store gives: the workspace's recent messages, summary,
# nodes, keyword hits and waiting proposals; the user store's nodes, hits and proposals.
WorkspaceFound = tuple[
    list[MemoryMessage], MemorySummary | None, list[NodeRow], list[RowHit], list[PendingItem]
]
UserFound = tuple[list[NodeRow], list[RowHit], list[PendingItem]]
# Node types that have their own section; everything else is "relevant".
SECTION_OF = {
    "constraint": "constraints",
    "preference": "preferences",
    "task": "active_tasks",
    "decision": "facts",
    "fact": "facts",
}


# Workspace nodes every context considers, by type, and the section they fill.
WORKSPACE_SECTIONS = (
    ("task", "active_tasks"),
    ("constraint", "constraints"),
    ("decision", "facts"),
    ("fact", "facts"),
)


# The share of the relevance floor a workspace decision or fact must reach to stay in a
# context (see ContextBuilder._hybrid).
GATE_SHARE = 0.67


def _floored(row: NodeRow) -> bool:
    """A memory the context takes only when it is related to the message (semantic recall
    on): the workspace's decisions and facts, which it used to take whatever was asked."""
    return row.scope == "workspace" and row.type in ("decision", "fact")


@lru_cache(maxsize=256)
def topic_filter(
    viewer: Viewer,
    scope: str,
    node_type: str,
    domain: str | None = None,
    prefix: tuple[str, ...] | None = None,
) -> NodeFilter:
    """A reader's active nodes of one scope and type (under a category, if given): the same
    few filters every turn of a session, built once (the store caches their statements)."""
    return NodeFilter(
        scopes=(scope,), types=(node_type,), domain=domain, category_prefix=prefix, viewer=viewer
    )


@lru_cache(maxsize=256)
def keyword_filter(viewer: Viewer, scopes: tuple[str, ...]) -> NodeFilter:
    """What a reader's keyword search looks in (live at the turn's instant, given apart):
    the same filter every turn, so its statement is built once."""
    return NodeFilter(scopes=scopes, viewer=viewer)


@lru_cache(maxsize=256)
def session_filter(viewer: Viewer, session_id: str) -> NodeFilter:
    """A session's own nodes (by session id alone, so the (session_id, status,
    updated_at) index serves it)."""
    return NodeFilter(session_id=session_id, viewer=viewer)


class ContextBuilder:
    """Builds MemoryContext for one turn of one session."""

    # Read a PostgreSQL store's part of a turn in one pipeline, both stores' pipelines
    # sent before either answer is awaited (``store.turn_reads``; off: the reads one by
    # one in a transaction per store, one store after the other, as on SQLite;
    # bench/bench_pg_context.py compares the two).
    batch_postgres = True

    def __init__(self, service: MemoryService) -> None:
        self.service = service
        self.warnings: list[str] = []
        # One instant for the whole turn: what the searches count as live is what the
        # screening below counts as unexpired.
        self.now = service.now()
        self.viewer = Viewer()
        # The semantic stage (None: off, or no message to compare with).
        self.semantic: SemanticStage | None = None
        self.vector_hits: list[tuple[NodeRow, float]] = []
        # Per store: the similarity of the ids a batched read looks up (``_near_ask``),
        # and the rows it found (added to ``vector_hits`` in store order).
        self._near_sims: dict[str, dict[str, float]] = {}
        self._near_hits: dict[str, list[tuple[NodeRow, float]]] = {}
        # The pause switch as each batched read found it, in the turn's own snapshot.
        self.pause_values: list[Any] = []

    def _try(
        self, what: str, fn: Callable[[], T], default: T, warnings: list[str] | None = None
    ) -> T:
        sink = self.warnings if warnings is None else warnings
        try:
            return fn()
        except EkkoMemoryError as e:
            sink.append(f"{what}: {e}")
        except Exception as e:  # a retrieval bug must not take the agent down
            sink.append(f"{what} failed: {type(e).__name__}: {e}")
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
        now = self.now
        if not isinstance(user_message, str):
            # An agent's bug (None, a number) must not cost it its context.
            self.warnings.append(
                f"the user message is {type(user_message).__name__}, not text: read as "
                + ("empty" if user_message is None else "text")
            )
            user_message = "" if user_message is None else str(user_message)
        user_message = clean_text(user_message)
        ws, us = svc.workspace_store, svc.user_store
        if svc.config_warning:
            # Say it where the agent looks: a typo there silently turned the LLM off.
            self.warnings.append(svc.config_warning)
        for store_name, store in svc.stores():
            if store.health.status != "ok":
                self.warnings.append(
                    f"{store_name} store {store.health.status}: {store.health.reason}"
                )

        # The queries leave out what this session may not see (another user's or another
        # workspace's memories in a shared store), so those never fill their limits.
        self.viewer = Viewer.of(session_id, user_id, workspace_id)
        hints = svc.registry.hinted_categories(user_message)
        text = user_message if user_message.strip() else ""
        if svc.semantic_warning:
            self.warnings.append(svc.semantic_warning)
        if text and svc.semantic is not None:
            # Started first: an endpoint's answer arrives while the stores are read.
            self.semantic = SemanticStage(svc.semantic, text, self.warnings)
        recent: list[MemoryMessage] = []
        summary = None
        found: list[NodeRow] = []
        hits: list[RowHit] = []
        waiting: list[PendingItem] = []
        # One read transaction per store: every query of a turn sees one snapshot.
        read_ws: Callable[[], WorkspaceFound] = lambda: self._read_workspace(  # noqa: E731
            session_id, text, hints
        )
        read_us: Callable[[], UserFound] = lambda: self._read_user(text, hints)  # noqa: E731
        if ws.health.readable and us.health.readable and self._batched(ws) and self._batched(us):
            # Two servers' (or one server's two schemas') work at once.
            read_ws, read_us = self._read_both(session_id, text, hints)
        if ws.health.readable:
            got = self._try("workspace memories", read_ws, None)
            if got is not None:
                recent, summary, nodes, ws_hits, ws_waiting = got
                found += nodes
                hits += ws_hits
                waiting += ws_waiting
            self.vector_hits += self._near_hits.pop("workspace", [])
        if us.health.readable:
            got_user = self._try("user memories", read_us, None)
            self.vector_hits += self._near_hits.pop("user", [])
            if got_user is not None:
                found += got_user[0]
                hits += got_user[1]
                waiting += got_user[2]
        if Controls.state_of(self.pause_values).paused:
            # Paused between the check before the turn and these reads (or a batched
            # store's switch, read here, not before): nothing read goes to the agent.
            return Controls.empty_context()
        if text and svc.global_store is not None:
            hits += self._try(
                "global memories", lambda: self._search(svc.global_store, ("global",), text), []
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

        candidates: dict[str, NodeRow] = {}
        for n in found:
            candidates.setdefault(n.id, n)
        hits.sort(key=lambda h: h.rank)
        relevant_ids: set[str] = set()
        unrelated: list[str] = []
        relevance: dict[str, float] = {}
        wanted = cfg.section_limits["relevant_nodes"] * 2
        if self.semantic is not None and self.semantic.vector() is not None:
            relevant_rows, unrelated, relevance = self._hybrid(candidates, [h.row for h in hits])
            for node_id in unrelated:
                row = candidates.get(node_id)
                # Only what the floor governs leaves: a task, a constraint, a preference
                # or a profile fact the rules brought in stays, related or not.
                if row is not None and _floored(row):
                    del candidates[node_id]
            unrelated = [i for i in unrelated if i not in candidates]
        else:
            relevant_rows = [h.row for h in hits]
        for hit_row in relevant_rows[:wanted]:
            if hit_row.id not in candidates:
                candidates[hit_row.id] = hit_row
                relevant_ids.add(hit_row.id)

        # What the user said that waits for their approval, newest first; a one-value
        # statement of it speaks for them over the memory it would replace.
        said = unconfirmed.select(
            svc.registry,
            unconfirmed.proposed_nodes(
                sorted(waiting, key=lambda i: i.created_at, reverse=True), now
            ),
            text,
            hints,
        )
        shadow = unconfirmed.shadowed(svc.registry, said)
        # 周四 after 每周二晚上七点去上瑜伽课: the memory a waiting correction would replace.
        replaced = {n.supersedes_id for n in said if n.supersedes_id}
        omitted: list[OmittedNode] = []
        if shadow or replaced:
            for node_id, row in list(candidates.items()):
                if node_id in replaced or conflict_identity(svc.registry, row) in shadow:
                    del candidates[node_id]
                    omitted.append(omission(node_id, "conflict_lost"))

        # Expired and unsure candidates are omitted in the pass that ranks the others.
        resolution = resolve_conflicts(
            svc.registry, candidates.values(), now, screen_below=cfg.min_confidence
        )
        omitted += resolution.lost
        omitted += [omission(i, "low_relevance") for i in dict.fromkeys(unrelated)]

        sections: dict[str, list[NodeRow]] = {
            "profile": [],
            "constraints": [],
            "preferences": [],
            "active_tasks": [],
            "facts": [],
            "relevant_nodes": [],
        }
        for node in resolution.kept:
            section = SECTION_OF.get(node.type, "relevant_nodes")
            if node.type == "fact" and node.domain in unconfirmed.PROFILE_DOMAINS:
                section = "profile"
            elif node.id in relevant_ids and section == "facts":
                section = "relevant_nodes"
            sections[section].append(node)
        if relevance:
            # Most related first (the priority order above breaks ties).
            sections["relevant_nodes"].sort(key=lambda r: -relevance.get(r.id, 0.0))
        limits = cfg.section_limits
        for name, rows in sections.items():
            for extra in rows[limits[name] :]:
                omitted.append(omission(extra.id, "over_limit"))
        chosen = {name: [r.node() for r in rows[: limits[name]]] for name, rows in sections.items()}
        chosen["unconfirmed"] = said[: limits["unconfirmed"]]

        # Unconfirmed statements are no stored memories yet: no usage is recorded for them.
        used = [n.id for name, nodes in chosen.items() if name != "unconfirmed" for n in nodes]
        enabled = ws.health.readable or us.health.readable
        degraded = bool(self.warnings) or any(s.health.status != "ok" for _, s in svc.stores())
        # Built unvalidated: every value above is of its field's type already (a context
        # is built before every reply; validating it cost ~20 µs).
        diagnostics = trusted(
            MemoryContextDiagnostics,
            {
                "enabled": enabled,
                "store_status": "disabled" if not enabled else ("degraded" if degraded else "ok"),
                "warnings": self.warnings,
                "retrieved_node_count": len(used),
                "omitted_node_count": len(omitted),
                "reason_code": None,
            },
            every_field=True,
        )
        return trusted(
            MemoryContext,
            {
                "latest_summary": summary,
                "recent_messages": recent,
                **chosen,
                "used_memory_ids": used,
                "omitted": omitted,
                "diagnostics": diagnostics,
            },
            every_field=True,
        )

    def _hybrid(
        self, candidates: dict[str, NodeRow], keyword: list[NodeRow]
    ) -> tuple[list[NodeRow], list[str], dict[str, float]]:
        """The relevant rows in one ranking of keyword and vector matches, the ids found
        unrelated to the message, and each one's relevance.

        Workspace decisions and facts, which every context took whatever the message, must
        now be related to it too, by two thirds of the floor (``GATE_SHARE``): a project's rule
        scores ~0 against a cooking question and 0.13–0.31 against a coding one, while
        the floor (0.18) ranks memories competing for the relevant section. Tasks,
        constraints, preferences, the profile and the session's own memories keep their
        own rules."""
        stage = self.semantic
        assert stage is not None
        gated = [row for row in candidates.values() if _floored(row)]
        sims = stage.similarity([(store_of(r.scope), r) for r in (*gated, *keyword)])
        sims.update((row.id, sim) for row, sim in self.vector_hits)
        ranked, low = fuse(keyword, self.vector_hits, sims, stage.floor)
        gate = stage.floor * GATE_SHARE
        gated_ids = {row.id for row in gated}
        unrelated = [i for i in low if i not in gated_ids]
        for row in gated:
            sim = sims.get(row.id)
            if sim is not None and sim < gate:
                unrelated.append(row.id)
        relevance = {row.id: score for row, score in ranked}
        for row in gated:
            if row.id in sims:
                relevance.setdefault(row.id, sims[row.id])
        return [row for row, _ in ranked], unrelated, relevance

    # --- the queries ----------------------------------------------------------------

    def _limit(self, section: str) -> int:
        # A little slack over the section's size for expired and conflicting nodes.
        return self.service.config.section_limits[section] + 2

    def _read_both(
        self, session_id: str, text: str, hints: list[tuple[str, ...]]
    ) -> tuple[Callable[[], WorkspaceFound], Callable[[], UserFound]]:
        """Both stores read at once from this thread (``read_turns``: each store's pipeline
        sent before either answer is awaited), as two calls that give what
        ``_read_workspace`` and ``_read_user`` give, or raise what they would have."""
        store_ws, store_us = self.service.workspace_store, self.service.user_store

        def ask_of(make: Callable[[], TurnAsk]) -> TurnAsk | Exception:
            try:
                return make()
            except Exception as e:  # raised where the store's read would have raised it
                return e

        ask_ws = ask_of(lambda: self._workspace_ask(session_id, text, hints))
        ask_us = ask_of(lambda: self._user_ask(text, hints))
        asked = [
            (st, a) for st, a in ((store_ws, ask_ws), (store_us, ask_us)) if isinstance(a, TurnAsk)
        ]
        answers = iter(read_turns(asked))
        got_ws = next(answers) if isinstance(ask_ws, TurnAsk) else ask_ws
        got_us = next(answers) if isinstance(ask_us, TurnAsk) else ask_us

        def rows(got: TurnRows | Exception) -> TurnRows:
            if isinstance(got, Exception):
                raise got
            return got

        return (
            lambda: self._workspace_found(rows(got_ws)),
            lambda: self._user_found(rows(got_us), hints),
        )

    def _workspace_ask(self, session_id: str, text: str, hints: list[tuple[str, ...]]) -> TurnAsk:
        """What a batched read asks the workspace store."""
        cfg = self.service.config
        store = self.service.workspace_store
        return TurnAsk(
            recent=(session_id, cfg.recent_messages),
            summary_of=session_id,
            nodes=[
                NodeAsk(session_filter(self.viewer, session_id), 30, "recent"),
                *(
                    NodeAsk(topic_filter(self.viewer, "workspace", node_type), self._limit(section))
                    for node_type, section in WORKSPACE_SECTIONS
                ),
                *(NodeAsk(f, limit) for f, limit in self._hinted_filters("workspace", hints)),
            ],
            keywords=self._keyword_ask(("session", "workspace"), text),
            waiting=self._waiting_ask(),
            near=self._near_ask("workspace", store, ("session", "workspace")),
            setting=PAUSE_SETTING,
        )

    def _workspace_found(
        self, got: TurnRows
    ) -> tuple[
        list[MemoryMessage], MemorySummary | None, list[NodeRow], list[RowHit], list[PendingItem]
    ]:
        """``_read_workspace``'s answer from a batched read's rows."""
        self.pause_values.append(got.setting)
        self._near_found("workspace", got.near)
        nodes = [row for part in got.nodes for row in part]
        return got.recent, got.summary, nodes, got.hits, got.waiting

    def _read_workspace(
        self, session_id: str, text: str, hints: list[tuple[str, ...]]
    ) -> tuple[
        list[MemoryMessage], MemorySummary | None, list[NodeRow], list[RowHit], list[PendingItem]
    ]:
        cfg = self.service.config
        store = self.service.workspace_store
        nodes: list[NodeRow] = []
        if self._batched(store):
            return self._workspace_found(
                read_turn(store, self._workspace_ask(session_id, text, hints))
            )
        with store.snapshot() as r:
            recent = r.list_recent_messages(session_id, cfg.recent_messages)
            summary = r.get_latest_summary(session_id)
            nodes += r.find_node_rows(
                session_filter(self.viewer, session_id), limit=30, order="recent"
            )
            for node_type, section in WORKSPACE_SECTIONS:
                nodes += r.find_node_rows(
                    topic_filter(self.viewer, "workspace", node_type), limit=self._limit(section)
                )
            nodes += self._hinted(r, "workspace", hints)
            hits = self._search_in(r, ("session", "workspace"), text) if text else []
            self._nearest(r, "workspace", store, ("session", "workspace"))
            waiting = self._waiting(r)
        return recent, summary, nodes, hits, waiting

    def _user_ask(self, text: str, hints: list[tuple[str, ...]]) -> TurnAsk:
        """What a batched read asks the user store (the topicless preferences last)."""
        store = self.service.user_store
        asks = [NodeAsk(f, limit) for f, limit in self._hinted_filters("user", hints)]
        asks += [
            NodeAsk(
                topic_filter(
                    self.viewer,
                    "user",
                    rule.type,
                    rule.domain,
                    tuple(rule.category_path_prefix or ()),
                ),
                self._limit("preferences"),
            )
            for rule in self.service.registry.always_in_context_rules()
        ]
        if not hints:
            asks.append(
                NodeAsk(topic_filter(self.viewer, "user", "preference"), self._limit("preferences"))
            )
        return TurnAsk(
            nodes=asks,
            keywords=self._keyword_ask(("user",), text),
            waiting=self._waiting_ask(),
            near=self._near_ask("user", store, ("user",)),
            setting=PAUSE_SETTING,
        )

    def _user_found(
        self, got: TurnRows, hints: list[tuple[str, ...]]
    ) -> tuple[list[NodeRow], list[RowHit], list[PendingItem]]:
        """``_read_user``'s answer from a batched read's rows."""
        self.pause_values.append(got.setting)
        self._near_found("user", got.near)
        parts = got.nodes
        if not hints:
            # Nothing points at a topic: the user's most important preferences only.
            top = parts.pop()
            min_importance = self.service.config.topicless_min_importance
            parts.append([n for n in top if n.importance >= min_importance])
        return [row for part in parts for row in part], got.hits, got.waiting

    def _read_user(
        self, text: str, hints: list[tuple[str, ...]]
    ) -> tuple[list[NodeRow], list[RowHit], list[PendingItem]]:
        cfg = self.service.config
        nodes: list[NodeRow] = []
        store = self.service.user_store
        if self._batched(store):
            return self._user_found(read_turn(store, self._user_ask(text, hints)), hints)
        with store.snapshot() as r:
            nodes += self._hinted(r, "user", hints)
            for rule in self.service.registry.always_in_context_rules():
                nodes += r.find_node_rows(
                    topic_filter(
                        self.viewer,
                        "user",
                        rule.type,
                        rule.domain,
                        tuple(rule.category_path_prefix or ()),
                    ),
                    limit=self._limit("preferences"),
                )
            if not hints:
                # Nothing points at a topic: the user's most important preferences only.
                top = r.find_node_rows(
                    topic_filter(self.viewer, "user", "preference"),
                    limit=self._limit("preferences"),
                )
                nodes += [n for n in top if n.importance >= cfg.topicless_min_importance]
            hits = self._search_in(r, ("user",), text) if text else []
            self._nearest(r, "user", self.service.user_store, ("user",))
            waiting = self._waiting(r)
        return nodes, hits, waiting

    def reads_pause_of(self) -> list[SqlStore]:
        """The stores whose pause switch this turn reads with its own reads (the batched
        ones: one more round trip each, were it read before)."""
        return [s for _, s in self.service.stores() if s.health.readable and self._batched(s)]

    def _batched(self, store: SqlStore) -> bool:
        """Whether this turn reads ``store`` in one pipeline (``store.turn_reads``)."""
        return self.batch_postgres and store.dialect.name == "postgresql"

    def _near_ask(
        self, name: StoreName, store: SqlStore, scopes: tuple[str, ...]
    ) -> Callable[[StoreReader], tuple[list[str], NodeFilter]] | None:
        """``_nearest``'s search, for a batched read: the ids nearest the message (their
        rows are read in the pipeline, through the keyword search's filter)."""
        stage = self.semantic
        if stage is None:
            return None

        def ask(r: StoreReader) -> tuple[list[str], NodeFilter]:
            sims = stage.nearest_ids(name, store, r, self._limit("relevant_nodes") * 2)
            self._near_sims[name] = sims
            return list(sims), replace(keyword_filter(self.viewer, scopes), live_at=self.now)

        return ask

    def _near_found(self, name: StoreName, rows: list[NodeRow]) -> None:
        """``_nearest``'s result from the rows a batched read found."""
        sims = self._near_sims.pop(name, None)
        if self.semantic is not None and sims:
            self._near_hits[name] = self.semantic.nearest_rows(
                rows, sims, self._limit("relevant_nodes") * 2
            )

    def _keyword_ask(self, scopes: tuple[str, ...], text: str) -> KeywordAsk | None:
        """``_search_in``'s search, for a batched read."""
        if not text:
            return None
        return KeywordAsk(
            text, keyword_filter(self.viewer, scopes), self._limit("relevant_nodes"), self.now
        )

    def _waiting_ask(self) -> WaitingAsk:
        """``_waiting``'s read, for a batched read."""
        return WaitingAsk(
            "extractor",
            self.viewer.user_id,
            self.viewer.workspace_id,
            self.service.config.section_limits["unconfirmed"] * 4,
        )

    def _waiting(self, r: StoreReader) -> list[PendingItem]:
        """What the extractor read from this user's words that waits for their approval."""
        return r.waiting_proposals(
            requester="extractor",
            user_id=self.viewer.user_id,
            workspace_id=self.viewer.workspace_id,
            limit=self.service.config.section_limits["unconfirmed"] * 4,
        )

    def _nearest(
        self, r: StoreReader, name: StoreName, store: SqlStore, scopes: tuple[str, ...]
    ) -> None:
        """The memories nearest the message in this store (the semantic stage's search)."""
        if self.semantic is not None:
            self.vector_hits += self.semantic.nearest(
                name,
                store,
                r,
                keyword_filter(self.viewer, scopes),
                self._limit("relevant_nodes") * 2,
                live_at=self.now,
            )

    def _hinted_filters(
        self, scope: str, hints: list[tuple[str, ...]]
    ) -> list[tuple[NodeFilter, int]]:
        # Recipes and skills come in through the text search, not by topic alone.
        return [
            (topic_filter(self.viewer, scope, node_type, path[0], path), self._limit(section))
            for path in hints
            for node_type, section in (("constraint", "constraints"), ("preference", "preferences"))
        ]

    def _hinted(self, r: StoreReader, scope: str, hints: list[tuple[str, ...]]) -> list[NodeRow]:
        out: list[NodeRow] = []
        for f, limit in self._hinted_filters(scope, hints):
            out += r.find_node_rows(f, limit=limit)
        return out

    def _search_in(self, r: StoreReader, scopes: tuple[str, ...], text: str) -> list[RowHit]:
        # A message is a sentence, not a phrase: any of its keywords, best first.
        return r.search_rows(
            text,
            keyword_filter(self.viewer, scopes),
            limit=self._limit("relevant_nodes"),
            any_term=True,
            live_at=self.now,
        )

    def _search(self, store: SqlStore | None, scopes: tuple[str, ...], text: str) -> list[RowHit]:
        if store is None or not store.health.readable:
            return []

        def search() -> list[RowHit]:
            with store.snapshot() as r:
                return self._search_in(r, scopes, text)

        if len(text) > MEMO_CHARS:
            return search()  # a pasted page is not kept alive by a cache
        # Hits are immutable rows: a frozen store's can be handed out again.
        return list(store.remembered(("keywords", scopes, text, self.viewer), search))
