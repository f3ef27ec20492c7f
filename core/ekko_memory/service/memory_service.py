"""The facade every caller uses: the agent, the CLI, the MCP server and the app."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import ValidationError

from ekko_memory.errors import EkkoMemoryError, InvalidInput, NotFound, StoreUnavailable
from ekko_memory.models import (
    SCOPES,
    CompactReport,
    DuplicatePair,
    ForgetPreview,
    ForgetResult,
    MemoryContext,
    MemoryContextDiagnostics,
    MemoryMessage,
    MemoryNode,
    MemoryQuery,
    MemoryQueryResult,
    MemorySummary,
    NodeHistory,
    PauseState,
    PendingItem,
    PendingStatus,
    PurgeReport,
    ReindexReport,
    Scope,
    SimilarMemory,
    Understanding,
    clean_text,
)
from ekko_memory.resources import resource_path
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.service import compact as compaction
from ekko_memory.service import forget_about
from ekko_memory.service import pending as pending_ops
from ekko_memory.service.browse import Browser
from ekko_memory.service.config import MemoryConfig, load_config
from ekko_memory.service.context_builder import ContextBuilder
from ekko_memory.service.controls import Controls
from ekko_memory.service.export import Exporter
from ekko_memory.service.extraction.llm_client import ChatClient
from ekko_memory.service.extraction.llm_extractor import LlmExtractor, LlmSummarizer
from ekko_memory.service.extraction.pipeline import SUMMARIZE, AfterReply, AfterReplyReport
from ekko_memory.service.extraction.protocol import MemoryExtractor, Summarizer
from ekko_memory.service.extraction.rule_extractor import RuleBasedExtractor
from ekko_memory.service.extraction.rule_summarizer import RuleBasedSummarizer
from ekko_memory.service.importer import Importer
from ekko_memory.service.paths import StoreLocations, resolve_locations
from ekko_memory.service.progress import CancelToken, ProgressCallback
from ekko_memory.service.purge import Purger
from ekko_memory.service.retrieval import Retriever, StoreSlice
from ekko_memory.service.runtime import BackgroundWorker
from ekko_memory.service.semantic.embedders import make_embedder
from ekko_memory.service.session import MemorySession
from ekko_memory.service.user_actions import UserActions
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.health import StoreHealth
from ekko_memory.store.problem import Problem
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.timeutil import utcnow

if TYPE_CHECKING:
    from ekko_memory.service.semantic.recall import SemanticRecall

StoreName = Literal["workspace", "user", "global"]


def load_global_store(folder: Path | None = None) -> SqlStore | None:
    """Read-only global seed memories from ``resources/global`` in an in-memory store."""
    try:
        folder = folder or resource_path("global")
    except FileNotFoundError:
        return None
    nodes = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        nodes += [
            MemoryNode.model_validate({"status": "active", **n}) for n in data.get("nodes", [])
        ]
    store = SqlStore.open_in_memory()
    with store.write() as w:
        w.insert_nodes(nodes)
    store.health.set_problem(
        "readonly",
        Problem("global_read_only", "global memories ship with the app and are read-only"),
    )
    if all(n.expires_at is None for n in nodes):
        # A turn's search of them then costs a lookup, not a transaction and two queries.
        store.freeze()
    return store


class MemoryService:
    """Long-term memory over a workspace store and a user store (plus read-only global data)."""

    def __init__(
        self,
        paths: StoreLocations,
        *,
        config: MemoryConfig | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.paths = paths
        self.config_warning: str | None = None
        if config is None:
            try:
                config = load_config(paths.config_dir)
            except InvalidInput as e:
                self.config_warning = f"{e}; using defaults"
                config = MemoryConfig()
        self.config = config
        self.clock = clock or utcnow
        self.registry = SchemaRegistry.load()
        # Two SQLite files, or two schemas of a PostgreSQL database (see paths.py).
        self.workspace_store, self.user_store = paths.open_stores()
        self.global_store = load_global_store()
        self.retriever = Retriever(self)
        # Listing for the app and the CLI, and what the user does there.
        self.browse = Browser(self)
        # Pins and the pause switch (what agents may do), then what the user does.
        self.controls = Controls(self)
        self.actions = UserActions(self)
        # After the reply: rule-based by default, the LLM when configured.
        self.extractor: MemoryExtractor
        self.summarizer: Summarizer
        if config.llm is not None:
            client = ChatClient(config.llm)
            self.extractor = LlmExtractor(client, self.registry)
            self.summarizer = LlmSummarizer(client)
        else:
            self.extractor = RuleBasedExtractor(self.registry)
            self.summarizer = RuleBasedSummarizer()
        self.after_reply_runner = AfterReply(self)
        self._background: BackgroundWorker | None = None
        # Semantic recall (None: off; the warning says why when it was asked for).
        self.semantic: SemanticRecall | None = None
        self.semantic_warning: str | None = None
        self._start_semantic()
        # Export (JSON bundle, Markdown, CSV), import of bundles, and purge for good.
        self.exporter = Exporter(self)
        self.importer = Importer(self)
        self.purger = Purger(self)
        self.repair_chains()

    # --- plumbing -------------------------------------------------------------------

    def now(self) -> datetime:
        """The service clock (UTC); tests may replace ``clock``."""
        return self.clock()

    def _start_semantic(self) -> None:
        embedder, self.semantic_warning = make_embedder(self.config.embedder)
        if embedder is None:
            return
        from ekko_memory.service.semantic.recall import SemanticRecall

        # Its indexer starts with the first turn, search or write: a short command that
        # does neither (the CLI's show, stats…) never loads the model.
        self.semantic = SemanticRecall(self, embedder)

    def store_for_scope(self, scope: str) -> SqlStore:
        """Session and workspace scope live in the workspace store; user scope in the user store."""
        if scope == "user":
            return self.user_store
        if scope in ("session", "workspace"):
            return self.workspace_store
        if scope == "global":
            raise InvalidInput("global memories are read-only").because("node.global_read_only")
        raise InvalidInput(f"unknown scope {scope!r}")

    def stores(self) -> list[tuple[Literal["workspace", "user"], SqlStore]]:
        """The writable stores by name."""
        return [("workspace", self.workspace_store), ("user", self.user_store)]

    def store_slices(self, scopes: Sequence[Scope] | None) -> list[StoreSlice]:
        """Readable stores and which of the requested scopes each holds."""
        wanted = tuple(scopes) if scopes else SCOPES
        out = []
        for name, store, held in (
            ("workspace", self.workspace_store, ("session", "workspace")),
            ("user", self.user_store, ("user",)),
            ("global", self.global_store, ("global",)),
        ):
            part = tuple(s for s in held if s in wanted)
            if part and store is not None and store.health.readable:
                out.append(StoreSlice(name, store, part))  # type: ignore[arg-type]
        return out

    def unread_warnings(self, scopes: Sequence[Scope] | None) -> list[str]:
        """Why stores holding some of ``scopes`` cannot be read (empty when all can)."""
        wanted = tuple(scopes) if scopes else SCOPES
        out = []
        for name, store, held in (
            ("workspace", self.workspace_store, ("session", "workspace")),
            ("user", self.user_store, ("user",)),
        ):
            part = [s for s in held if s in wanted]
            if part and not store.health.readable:
                out.append(
                    f"{name} store {store.health.status}: {store.health.reason}; "
                    f"its {' and '.join(part)} memories could not be read"
                )
        return out

    def health(self) -> dict[str, StoreHealth]:
        """Each store's health."""
        return {name: store.health for name, store in self.stores()}

    def compact(
        self, *, progress: ProgressCallback | None = None, cancel: CancelToken | None = None
    ) -> CompactReport:
        """Give the space of deleted records back, store by store (SQLite: VACUUM and a WAL
        checkpoint; PostgreSQL: VACUUM FULL); sizes before and after in the report. A cancel
        is honoured between stores. See ``service/compact.py``."""
        return compaction.compact(self, progress=progress, cancel=cancel)

    def status_line(self) -> str:
        """One line for status bars and diagnostics."""
        parts = []
        for name, h in self.health().items():
            parts.append(
                f"{name} {h.status}" + (f" ({h.reason})" if h.reason and h.status != "ok" else "")
            )
        return " · ".join(parts)

    def repair_chains(self) -> int:
        """Mark superseded any node whose successor lives in the other store but whose own
        update was cut short (a crash between the two transactions of a cross-store write)."""
        fixed = 0
        for name, store in self.stores():
            other = self.user_store if name == "workspace" else self.workspace_store
            if not (store.health.writable and other.health.readable):
                continue
            with other.read() as r:
                links = r.cross_links()
            for new_id, old_id, at in links:
                try:
                    with store.write() as w:
                        old = w.get_node(old_id)
                        if old is not None and old.status == "active":
                            w.set_node_status(old_id, "superseded", at)
                            w.add_audit(
                                "supersede",
                                actor="system",
                                reason="repair: finish an interrupted supersede",
                                node=old,
                                payload={"supersededBy": new_id},
                            )
                            fixed += 1
                except EkkoMemoryError:
                    continue
        return fixed

    @property
    def background(self) -> BackgroundWorker:
        """The after-reply worker thread (started on first use)."""
        if self._background is None:
            self._background = BackgroundWorker(self)
        return self._background

    def retry_failed_work(self, *, force: bool = False) -> AfterReplyReport:
        """Retry queued extraction and summary jobs that are due (``force``: all of them now)."""
        return self.after_reply_runner.retry_due(force=force)

    def close(self) -> None:
        """Finish background work, then close the stores."""
        if self._background is not None:
            self._background.stop()
            self._background = None
        if self.semantic is not None:
            self.semantic.close()
        for _, store in self.stores():
            store.close()
        if self.global_store is not None:
            self.global_store.close()

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- sessions -------------------------------------------------------------------

    def session(
        self, session_id: str, *, user_id: str | None = None, workspace_id: str | None = None
    ) -> MemorySession:
        """A handle bound to one session (and the user and workspace it belongs to)."""
        if not isinstance(session_id, str) or not session_id.strip() or len(session_id) > 200:
            raise InvalidInput("session_id must be a non-empty string of at most 200 characters")
        # As its messages store them (NUL and lone surrogates as U+FFFD): the handle must
        # find its own messages again.
        return MemorySession(
            self,
            clean_text(session_id),
            user_id=clean_text(user_id) if isinstance(user_id, str) else user_id,
            workspace_id=clean_text(workspace_id)
            if isinstance(workspace_id, str)
            else workspace_id,
        )

    # --- the design doc's MemoryStore, routed to the right file ---------------------

    def append_message(
        self, message: MemoryMessage, *, after_latest: bool = False
    ) -> MemoryMessage:
        """Append a raw message to the workspace store's log (``after_latest``: its parent is
        the session's newest message when it is written); returns the message as stored."""
        return self.workspace_store.append_message(message, after_latest=after_latest)

    def list_recent_messages(self, session_id: str, limit: int) -> list[MemoryMessage]:
        """The session's last ``limit`` messages, oldest first."""
        return self.workspace_store.list_recent_messages(session_id=session_id, limit=limit)

    def append_summary(self, summary: MemorySummary) -> None:
        """Append a summary to its session's chain."""
        self.workspace_store.append_summary(summary)

    def get_latest_summary(self, session_id: str) -> MemorySummary | None:
        """The session's newest summary."""
        return self.workspace_store.get_latest_summary(session_id=session_id)

    def upsert_node(
        self, node: MemoryNode, *, actor: str = "system", reason: str = "upsert"
    ) -> None:
        """Store a node as given (no governance: for tools that already validated it)."""
        self.store_for_scope(node.scope).upsert_node(node, actor=actor, reason=reason)

    def supersede_node(
        self,
        old_node_id: str,
        new_node: MemoryNode,
        *,
        actor: str = "system",
        reason: str = "supersede",
    ) -> None:
        """Supersede a node by a new one in the same store (no governance)."""
        self.store_for_scope(new_node.scope).supersede_node(
            old_node_id=old_node_id, new_node=new_node, actor=actor, reason=reason
        )

    def delete_node(
        self, node_id: str, mode: Literal["soft", "hard"], reason: str, *, actor: str = "user"
    ) -> bool:
        """Soft or hard delete one node by id, as the user (see ``forget`` for governed deletes)."""
        node, _ = self.locate(node_id)
        if mode == "hard":
            from ekko_memory.service.forget import Forgetter

            deleted, _ = Forgetter(self).execute([node], "hard", actor=actor, reason=reason)
            return bool(deleted)
        return self.store_for_scope(node.scope).delete_node(
            node_id=node_id, mode="soft", reason=reason, actor=actor
        )

    def list_active_nodes(
        self,
        *,
        limit: int,
        user_id: str | None = None,
        session_id: str | None = None,
        workspace_id: str | None = None,
        domain: str | None = None,
        category_path: Sequence[str] | None = None,
        types: Sequence[str] | None = None,
    ) -> list[MemoryNode]:
        """Active, unexpired nodes across stores, by the design doc's order."""
        out: list[MemoryNode] = []
        for part in self.store_slices(None):
            out += part.store.list_active_nodes(
                limit=limit,
                user_id=user_id,
                session_id=session_id,
                workspace_id=workspace_id,
                domain=domain,
                category_path=category_path,
                types=types,
                now=self.now(),
            )
        out.sort(key=lambda n: (-n.importance, -n.confidence, -n.updated_at.timestamp()))
        return out[:limit]

    def search_nodes(
        self,
        query: str,
        limit: int,
        *,
        user_id: str | None = None,
        session_id: str | None = None,
        workspace_id: str | None = None,
        domain: str | None = None,
        tags: Sequence[str] | None = None,
    ) -> list[MemoryNode]:
        """Full-text search (Chinese included) across stores."""
        hits = []
        for part in self.store_slices(None):
            f = NodeFilter(
                user_id=user_id,
                session_id=session_id,
                workspace_id=workspace_id,
                domain=domain,
                tags=tags,
                live_at=self.now(),
                scopes=part.scopes,
            )
            with part.store.read() as r:
                hits += r.search_nodes(query, f, limit=limit)
        hits.sort(key=lambda h: h.rank)
        return [h.node for h in hits[:limit]]

    # --- reading --------------------------------------------------------------------

    def retrieve(self, query: MemoryQuery | Mapping[str, Any]) -> MemoryQueryResult:
        """Filtered, ordered, conflict-resolved memories for a structured query (a
        ``MemoryQuery``, or its JSON as a dict: ``{"queryText": "香菜"}``)."""
        return self.retriever.retrieve(as_query(query))

    def build_context(
        self,
        session_id: str,
        user_message: str,
        *,
        user_id: str | None = None,
        workspace_id: str | None = None,
    ) -> MemoryContext:
        """The per-turn context; never raises (diagnostics explain what went wrong).
        While memory is paused it is empty: ``diagnostics.enabled`` is false and
        ``diagnostics.reason_code`` is ``memory.paused``."""
        builder = ContextBuilder(self)
        paused = self.controls.paused_context(read_by_turn=builder.reads_pause_of())
        if paused is not None:
            return paused
        try:
            return builder.build(
                session_id, user_message, user_id=user_id, workspace_id=workspace_id
            )
        except Exception as e:  # each step degrades on its own; this is the last resort
            return MemoryContext(
                recent_messages=self._recent_or_none(session_id),
                diagnostics=MemoryContextDiagnostics(
                    store_status="degraded",
                    warnings=[f"memory context failed: {type(e).__name__}: {e}"],
                ),
            )

    # --- what agents may do: pause ---------------------------------------------------

    def pause(self) -> PauseState:
        """Pause memory: until ``resume()``, agents neither read nor write it (reason code
        ``memory.paused``; see ``service/controls.py``). Kept in the stores, so every
        process sees it; audited. The user's own actions still work."""
        return self.controls.set_paused(True)

    def resume(self) -> PauseState:
        """Let agents read and write memory again (audited)."""
        return self.controls.set_paused(False)

    def pause_state(self) -> PauseState:
        """Whether memory is paused, since when and by whom."""
        return self.controls.pause_state()

    # --- forgetting everything about… ----------------------------------------------

    def preview_forget_about(
        self,
        word: str | None = None,
        node_ids: Sequence[str] | None = None,
        *,
        include_messages: bool = True,
    ) -> ForgetPreview:
        """What forgetting everything about ``word`` (or the memories ``node_ids``) would
        remove, in counts (memories, their versions, messages, summaries); nothing changes.
        Any case; a Latin word only whole, Chinese as a substring. ``include_messages``:
        the conversation text that mentions it and the summaries built on it or quoting
        it go too (for a selection: the messages the memories came from). See
        ``service/forget_about.py``; pass the preview to ``forget_previewed``."""
        return forget_about.preview(
            self, word=word, node_ids=node_ids, include_messages=include_messages
        )

    def preview_delete_all(self, *, include_messages: bool = True) -> ForgetPreview:
        """What deleting all memories (every scope, both stores, every version) would
        remove; with ``include_messages`` (default) the whole conversation log and its
        summaries too. Pass the preview to ``forget_previewed``."""
        return forget_about.preview(self, everything=True, include_messages=include_messages)

    def forget_previewed(
        self,
        preview: ForgetPreview,
        *,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> ForgetResult:
        """Remove for good what ``preview`` showed (a purge: the files are compacted and
        their bytes searched afterwards, ``result.report.verification``). Refused with
        reason code ``forget.preview_outdated`` (Conflict) when the records changed since
        the preview: preview again."""
        return forget_about.forget(self, preview, progress=progress, cancel=cancel)

    # --- a sentence, understood ------------------------------------------------------

    def understand(self, text: str) -> Understanding:
        """The memories a sentence proposes (category, kind, key and value, expiry), read by
        the extractor as a user's message would be, normalized under the schema; nothing is
        written. A sentence nothing understands comes back as one note (``understood``
        False). Empty or oversized text is InvalidInput."""
        from ekko_memory.service.understand import understand

        return understand(self, text)

    # --- semantic recall ------------------------------------------------------------

    def _recall(self) -> SemanticRecall:
        if self.semantic is None:
            raise InvalidInput(
                self.semantic_warning
                or "semantic recall is off (EKKO_EMBEDDER=none, or the config); install "
                "'ekko-memory[semantic]' or configure an embedder to use it"
            )
        return self.semantic

    def similar(self, node_id: str, limit: int = 10) -> list[SimilarMemory]:
        """Active memories nearest ``node_id`` in meaning, most similar first."""
        from ekko_memory.service.semantic.similar import similar

        return similar(self._recall(), node_id, limit)

    def duplicates(self, threshold: float | None = None, limit: int = 100) -> list[DuplicatePair]:
        """Pairs of active memories that say nearly the same (similarity at or above
        ``threshold``, 0.8 by default), most similar first."""
        from ekko_memory.service.duplicates import not_duplicates
        from ekko_memory.service.semantic.similar import DUPLICATE_THRESHOLD, duplicates

        # Pairs the user said are no duplicates stay out (asked for a few more to fill in).
        dismissed = not_duplicates(self)
        pairs = duplicates(
            self._recall(),
            DUPLICATE_THRESHOLD if threshold is None else threshold,
            limit + len(dismissed),
        )
        kept = [p for p in pairs if tuple(sorted((p.first.id, p.second.id))) not in dismissed]
        return kept[:limit]

    def reindex(
        self,
        *,
        force: bool = False,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> ReindexReport:
        """Embed every memory without a vector of the current model now (``force``: all
        again), with progress; after a change of model, the old vectors go."""
        return self._recall().reindex(force=force, progress=progress, cancel=cancel)

    def _recent_or_none(self, session_id: str) -> list[MemoryMessage]:
        """The session's recent messages, or none when even they cannot be read: when
        retrieval fails the agent goes on with the recent messages and the user's input
        (检索失败：只使用最近消息和当前输入)."""
        try:
            return self.list_recent_messages(session_id, self.config.recent_messages)
        except Exception:  # the log is unreadable too: the user's input is all there is
            return []

    def locate(self, node_id: str) -> tuple[MemoryNode, StoreName]:
        """A node by id from whichever store holds it."""
        if not isinstance(node_id, str) or not node_id.startswith("mem_"):
            raise NotFound(f"no memory {node_id!r}")
        for name, store in (
            ("workspace", self.workspace_store),
            ("user", self.user_store),
            ("global", self.global_store),
        ):
            if store is None or not store.health.readable:
                continue
            with store.read() as r:
                node = r.get_node(node_id)
            if node is not None:
                return node, name  # type: ignore[return-value]
        raise NotFound(f"no memory {node_id}")

    def get_node(self, node_id: str) -> MemoryNode | None:
        """A node by id, or None."""
        try:
            return self.locate(node_id)[0]
        except (NotFound, StoreUnavailable):
            return None

    def _successor(self, node_id: str) -> MemoryNode | None:
        for _, store in self.stores():
            if store.health.readable:
                with store.read() as r:
                    nxt = r.successor_of(node_id)
                if nxt is not None:
                    return nxt
        return None

    def chain(self, node_id: str) -> list[MemoryNode]:
        """Every version of a memory, oldest first (across both stores)."""
        node, _ = self.locate(node_id)
        older: list[MemoryNode] = []
        cur = node
        seen = {node.id}
        while cur.supersedes_id and cur.supersedes_id not in seen:
            prev = self.get_node(cur.supersedes_id)
            if prev is None:
                break
            older.append(prev)
            seen.add(prev.id)
            cur = prev
        newer: list[MemoryNode] = []
        cur = node
        while (nxt := self._successor(cur.id)) is not None and nxt.id not in seen:
            newer.append(nxt)
            seen.add(nxt.id)
            cur = nxt
        return [*reversed(older), node, *newer]

    def head_of(self, node_id: str) -> MemoryNode:
        """The newest version of the memory ``node_id`` belongs to."""
        return self.chain(node_id)[-1]

    def history(self, node_id: str) -> NodeHistory:
        """A memory's versions, audit trail (newest first), source messages and usage.

        The versions carry the status a person is shown now (``MemoryNode.status_at``): a
        version past its ``expiresAt`` reads expired, as in the app and the context.
        """
        node, store_name = self.locate(node_id)
        now = self.now()
        chain = [version.seen_at(now) for version in self.chain(node_id)]
        audit = []
        usage = None
        for version in chain:
            store = (
                self.global_store
                if version.scope == "global"
                else self.store_for_scope(version.scope)
            )
            if store is None:
                continue
            with store.read() as r:
                audit += r.audit_for_node(version.id)
                if version.id == node.id:
                    usage = r.usage_for_node(node.id)
        audit.sort(key=lambda e: (e.created_at, e.id), reverse=True)
        source_ids = list(dict.fromkeys(i for v in chain for i in v.source_message_ids))
        sources: list[MemoryMessage] = []
        if source_ids and self.workspace_store.health.readable:
            with self.workspace_store.read() as r:
                sources = r.get_messages(source_ids)
        return NodeHistory(
            node_id=node_id,
            chain=chain,
            audit=audit,
            sources=sources,
            usage=usage,
            store=store_name,
        )

    # --- pending --------------------------------------------------------------------

    def pending(self, status: str | None = "pending") -> list[PendingItem]:
        """Items waiting for the user (or all, with ``status=None``), oldest first."""
        if status is not None and status not in get_args(PendingStatus):
            raise InvalidInput(
                f"status is one of {', '.join(get_args(PendingStatus))} or None; got {status!r}"
            )
        out: list[PendingItem] = []
        for name, store in self.stores():
            if not store.health.readable:
                continue
            with store.read() as r:
                items = r.list_pending(None if status is None else (status,))
            out += [i.model_copy(update={"store": name}) for i in items]
        out.sort(key=lambda i: (i.created_at, i.id))
        return out

    def decide(
        self,
        pending_id: str,
        approve: bool,
        actor: str = "user",
        *,
        edits: dict[str, Any] | None = None,
        note: str | None = None,
        remove_from_log: bool = False,
    ) -> dict[str, Any]:
        """The user's decision on a pending item: ``{pendingId, status, nodeId?, deletedIds?}``.

        ``remove_from_log`` (a rejection only: sensitive data the user does not want kept):
        the messages the item came from are purged from the conversation log too, with
        the summaries built on them and the item itself; the result then has
        ``removedMessages`` (a count) and ``purge`` (the purge report's JSON).

        Raises only Ekko Memory's own errors: an item whose stored data cannot be applied
        (written by another program, or by an older release) is InvalidInput, and
        nothing is written."""
        if remove_from_log and approve:
            raise InvalidInput("remove_from_log goes with a rejection (approve=False)")
        try:
            out = pending_ops.decide(
                self, pending_id, approve=approve, actor=actor, edits=edits, note=note
            )
            if remove_from_log:
                report = self.remove_pending_from_log(pending_id)
                out["removedMessages"] = report.counts()["message"]
                out["purge"] = report.model_dump(mode="json", by_alias=True)
            return out
        except (ValidationError, ValueError, TypeError, KeyError) as e:
            raise InvalidInput(
                f"pending item {pending_id} cannot be decided: its stored data is not"
                f" valid ({type(e).__name__}: {e})"
            ).unwritten() from e

    def remove_pending_from_log(self, pending_id: str) -> PurgeReport:
        """Purge from the conversation log the messages a pending item came from (sensitive
        data the user rejected, or rejects now), with the summaries built on them and the
        items quoting them; the purge's report (its verification searched the files)."""
        return forget_about.remove_item_messages(self, pending_id)

    # --- messages -------------------------------------------------------------------

    def record_usage(
        self, message: MemoryMessage, node_ids: Sequence[str], *, workspace_id: str | None = None
    ) -> None:
        """Remember that ``node_ids`` fed the reply ``message`` (in each node's own store)."""
        remaining = list(dict.fromkeys(node_ids))
        for name, store in reversed(self.stores()):  # user store first, workspace takes the rest
            if not remaining or not store.health.writable:
                continue
            with store.write() as w:
                here = remaining if name == "workspace" else list(w.node_seqs(remaining))
                w.record_usage(
                    message.id,
                    here,
                    session_id=message.session_id,
                    workspace_id=workspace_id,
                    at=message.created_at,
                )
            remaining = [i for i in remaining if i not in here]

    def delete_messages(
        self, message_ids: Sequence[str], *, actor: str, reason: str
    ) -> tuple[int, int]:
        """Delete messages for good and mark summaries built on them stale: (deleted, stale).
        The next after-reply run summarizes the stale links' remaining messages again."""
        with self.workspace_store.write() as w:
            sessions = {m.session_id for m in w.get_messages(message_ids)}
            deleted, stale = w.delete_messages(message_ids, actor=actor, reason=reason)
            if stale:
                for session_id in sorted(sessions):
                    w.rewind_cursor(session_id, SUMMARIZE)
            return deleted, stale


def as_query(query: object) -> MemoryQuery:
    """A ``MemoryQuery`` from one or from its JSON dict; anything else is InvalidInput."""
    if isinstance(query, MemoryQuery):
        return query
    if isinstance(query, Mapping):
        try:
            return MemoryQuery.model_validate(dict(query))
        except ValidationError as e:
            raise InvalidInput.of("invalid query", e) from None
    raise InvalidInput(
        f"retrieve takes a MemoryQuery (or its JSON dict), not {type(query).__name__}"
    )


def open_memory(
    workspace_dir: str | os.PathLike[str] | None = None,
    *,
    workspace: str | os.PathLike[str] | None = None,
    user_home: str | os.PathLike[str] | None = None,
    config: MemoryConfig | None = None,
    url: str | None = None,
    namespace: str | None = None,
    user_url: str | None = None,
) -> MemoryService:
    """Open (creating and migrating) the workspace and user stores.

    ``open_memory(workspace_dir, user_home=None)``: two SQLite files, as always
    (``open_memory(workspace=..., user_home=...)`` names the same folder by keyword).
    ``open_memory(url="postgresql+psycopg://user:pw@host/db")``: both stores in that
    PostgreSQL database, as the schemas ``<namespace>_workspace`` and ``<namespace>_user``
    (namespace ``ekko`` by default, ``$EKKO_DATABASE_NAMESPACE`` overrides; ``user_url``
    puts the user store elsewhere). With neither a folder nor a URL, ``$EKKO_DATABASE_URL``
    is used. A workspace folder given with a URL only supplies ``config.json``.

    Never raises on a bad file or an unreachable server: a store that cannot open is
    disabled and ``health()`` says why; the agent keeps working with what is left. An
    unusable URL (another database, garbage) raises InvalidInput.
    """
    if workspace is not None:
        if workspace_dir is not None:
            raise InvalidInput("give the workspace folder once: positionally or as workspace=")
        workspace_dir = workspace
    locations = resolve_locations(
        workspace_dir, user_home, url=url, namespace=namespace, user_url=user_url
    )
    return MemoryService(locations, config=config)
