"""Purge: remove private data for good, after a dry run that lists everything affected.

``plan(filter)`` is the dry run: every node version (whole chains), the audit rows
whose reasons and payloads will be scrubbed, pending items, usage rows and, when the
filter includes messages, source messages, summaries, retry jobs and cursors.
``purge(plan)`` removes exactly those records, in batches (one transaction each, a
chain never split; the message log before the memories that name its messages),
reporting progress and stopping between batches when cancelled.
Then it compacts the full-text index, VACUUMs, checkpoints the WAL, deletes migration
backups that still hold purged data and the temporary files killed exports left, and
searches the tables, the index, the files' raw bytes and the temporary files of exports
still running for the purged text (``service/purge_verify.py``).

Which messages go (``include_messages``): the source messages of purged memories, and —
when the filter does not name a category or a user and its scopes include the log's
(session/workspace) — the messages matching its session, dates and query. A purge of a
whole session (or of the whole log) deletes its summaries; otherwise summaries built on
purged messages, or quoting the query, lose their text and turn stale (the chain keeps
its shape so the next summary can be rebuilt).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ekko_memory.errors import StoreUnavailable
from ekko_memory.models import (
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    PendingItem,
    PurgeFilter,
    PurgeKind,
    PurgePlan,
    PurgeReport,
    PurgeTarget,
    StoreName,
)
from ekko_memory.service.chains import chain_closure, chain_groups
from ekko_memory.service.export_target import PARTS_FOLDER, live_parts, sweep_stale_parts
from ekko_memory.service.extraction.pipeline import SUMMARIZE
from ekko_memory.service.progress import CancelToken, ProgressCallback, Reporter
from ekko_memory.service.purge_verify import clear_backups, clear_job_errors, verify_purge
from ekko_memory.service.word_match import is_cjk_word, speaks_of, word_matcher
from ekko_memory.store.chain_writes import delete_in
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.reader_base import chunks
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.store.writer import REDACTED

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

STORES: tuple[StoreName, ...] = ("workspace", "user")
ACTOR = "user"
REASON = "purged by the user"
# Chains per node transaction, messages per message transaction.
CHAIN_BATCH = 100
MESSAGE_BATCH = 500
# Texts the verification searches for (each one scans the tables once).
MAX_NEEDLES = 64
# Ids compared against backup files.
MAX_BACKUP_MARKERS = 500


@dataclass
class _Log:
    """The part of the message log a filter names directly."""

    session_id: str | None
    after: Any
    before: Any
    query: str | None

    @property
    def whole_sessions(self) -> bool:
        """Every message of the session (or of the log) goes: summaries and cursors too."""
        return not (self.after or self.before or self.query)


def log_selection(f: PurgeFilter) -> _Log | None:
    """The messages a filter names beyond its memories' sources (None: only the sources)."""
    if (
        not f.include_messages
        or f.category_path_prefix
        or f.user_id
        or f.node_ids is not None
        or f.messages_only
    ):
        return None
    if f.scopes and not {"session", "workspace"} & set(f.scopes):
        return None
    return _Log(f.session_id, f.after, f.before, f.query)


def _sample(items: Sequence[str], limit: int) -> list[str]:
    if len(items) <= limit:
        return list(items)
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


class Purger:
    """Dry run and purge; ``mem.purger.plan(filter)`` then ``mem.purger.purge(plan)``."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service

    def _store(self, name: StoreName) -> SqlStore:
        return self.service.workspace_store if name == "workspace" else self.service.user_store

    # --- the dry run ----------------------------------------------------------------

    def plan(self, f: PurgeFilter | dict[str, Any]) -> PurgePlan:
        """Everything ``purge`` would remove for ``f``; nothing is changed."""
        f = f if isinstance(f, PurgeFilter) else PurgeFilter.model_validate(f)
        seeds: set[str] = set()
        for part in self.service.store_slices(f.scopes):
            if part.name == "global" or f.messages_only:
                continue
            nf = NodeFilter(
                statuses=None,
                scopes=part.scopes,
                category_prefix=f.category_path_prefix,
                user_id=f.user_id,
                workspace_id=f.workspace_id,
                session_id=f.session_id,
                created_after=f.after,
                created_before=f.before,
                ids=f.node_ids,
            )
            with part.store.read() as r:
                if not f.query:
                    seeds.update(r.node_ids(nf))
                elif f.match == "words":
                    found = r.node_ids_with_text(f.query, nf, fold=True)
                    seeds.update(
                        node.id
                        for node in r.iter_nodes_by_id(found)
                        if _node_speaks_of(node, word_matcher(f.query))
                    )
                else:
                    seeds.update(r.node_ids_with_text(f.query, nf))
        targets: list[PurgeTarget] = []
        nodes: list[MemoryNode] = []
        closure = chain_closure(self.service, seeds) if seeds else {}
        for name, ids in closure.items():
            with self._store(name).read() as r:
                here = sorted(r.iter_nodes_by_id(sorted(ids)), key=lambda n: (n.created_at, n.id))
                nodes += here
                targets += [
                    PurgeTarget(
                        store=name,
                        kind="node",
                        id=n.id,
                        label=f"{n.title} ({n.status})",
                        text=n.title,
                        status=n.status,
                    )
                    for n in here
                ]
                targets += [
                    PurgeTarget(store=name, kind="audit", id=a, action="scrub")
                    for a in r.audit_ids_for_nodes(sorted(ids))
                ]
        node_ids = {n.id for n in nodes}
        messages = self._plan_log(f, nodes, targets)
        message_ids = [m.id for m in messages]
        for name, store in self.service.stores():
            if not store.health.readable:
                continue
            with store.read() as r:
                usage = r.usage_ids(node_ids=closure.get(name, ()), message_ids=message_ids)
                targets += [PurgeTarget(store=name, kind="usage", id=u) for u in sorted(usage)]
                held = [
                    p
                    for p in r.list_pending(None)
                    if _pending_matches(p, node_ids, f, set(message_ids))
                ]
                targets += [
                    PurgeTarget(store=name, kind="pending", id=p.id, label=p.reason) for p in held
                ]
                # The audit of a proposal that never became a memory quotes it too, and so
                # can this store's audit of a memory in the other store (a proposal to
                # move it into the user's scope waits in the user store).
                proposed = [str(p.node["id"]) for p in held if p.node and "id" in p.node]
                elsewhere = [i for n, ids in closure.items() if n != name for i in ids]
                planned = {t.id for t in targets if t.kind == "audit"}
                targets += [
                    PurgeTarget(store=name, kind="audit", id=a, action="scrub")
                    for a in r.audit_ids_for_nodes([*proposed, *sorted(elsewhere)])
                    if a not in planned
                ]
        superseded = {n.supersedes_id for n in nodes}
        return PurgePlan(
            filter=f,
            targets=targets,
            memories=sum(1 for n in nodes if n.id not in superseded),
            needles=self._needles(f, nodes, messages),
        )

    def _plan_log(
        self, f: PurgeFilter, nodes: list[MemoryNode], targets: list[PurgeTarget]
    ) -> list[MemoryMessage]:
        """Add the log's records to ``targets``; returns the messages that go."""
        store = self.service.workspace_store
        if not f.include_messages or not store.health.readable:
            return []
        log = log_selection(f)
        with store.read() as r:
            sources = {m for n in nodes for m in n.source_message_ids} | set(f.message_ids or ())
            found = {m.id: m for m in r.iter_messages(sorted(sources))}
            words = f.match == "words" and log is not None and log.query is not None
            matches = word_matcher(log.query) if words and log and log.query else None
            if log is not None:
                hits = r.find_messages(
                    session_id=log.session_id,
                    after=log.after,
                    before=log.before,
                    text_=log.query,
                    fold=words,
                )
                for chunk in chunks(h[0] for h in hits if h[0] not in found):
                    found.update(
                        (m.id, m)
                        for m in r.get_messages(chunk)
                        if matches is None or matches(m.content)
                    )
            messages = sorted(found.values(), key=lambda m: (m.created_at, m.id))
            targets += [
                PurgeTarget(
                    store="workspace",
                    kind="message",
                    id=m.id,
                    label=f"{m.role}: {m.content[:60]}",
                    text=m.content[:60],
                    role=m.role,
                )
                for m in messages
            ]
            sessions = sorted({m.session_id for m in messages})
            if log is not None and log.whole_sessions:
                wanted = {log.session_id} if log.session_id else None
                doomed = [
                    s.id for s in r.iter_summaries() if wanted is None or s.session_id in wanted
                ]
                targets += [PurgeTarget(store="workspace", kind="summary", id=s) for s in doomed]
                targets += [
                    PurgeTarget(store="workspace", kind="cursor", id=f"{c.session_id}:{c.kind}")
                    for c in r.list_cursors()
                    if wanted is None or c.session_id in wanted
                ]
                if wanted is None:
                    sessions = sorted({*sessions, *(s.session_id for s in r.list_sessions(10**9))})
            else:
                scrub = set(r.summaries_covering(messages))
                if log is not None and log.query:
                    quoting = r.summary_ids_with_text(log.query, log.session_id, fold=words)
                    if matches is not None:
                        wanted_ids = set(quoting)
                        quoting = [
                            s.id
                            for s in r.iter_summaries()
                            if s.id in wanted_ids and _summary_speaks_of(s, matches)
                        ]
                    scrub.update(quoting)
                targets += [
                    PurgeTarget(store="workspace", kind="summary", id=s, action="scrub")
                    for s in sorted(scrub)
                ]
            targets += [
                PurgeTarget(store="workspace", kind="job", id=j)
                for j in r.job_ids_for_sessions(sessions)
            ]
        return messages

    @staticmethod
    def _needles(
        f: PurgeFilter, nodes: list[MemoryNode], messages: list[MemoryMessage]
    ) -> list[str]:
        texts: list[str] = []
        for n in nodes:
            texts += [n.title.strip(), n.content.strip()]
        texts += [m.content.strip()[:40] for m in messages]
        unique = [t for t in dict.fromkeys(texts) if len(t) >= 2 and t != f.query]
        head = [f.query] if f.query else []
        return head + _sample(unique, MAX_NEEDLES - len(head))

    # --- the purge ------------------------------------------------------------------

    def purge(
        self,
        what: PurgePlan | PurgeFilter,
        *,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> PurgeReport:
        """Remove what the plan lists (a filter is planned first), then clean and verify."""
        plan = what if isinstance(what, PurgePlan) else self.plan(what)
        rep = Reporter(progress, cancel)
        for name in {t.store for t in plan.targets}:
            store = self._store(name)
            if not store.health.writable:
                raise StoreUnavailable(
                    f"the {name} store cannot be written ({store.health.reason}); nothing was purged"
                ).for_store(name, store.health)
        run = _Run(plan)
        try:
            # The log first: the memories name their source messages, so a purge stopped
            # (or killed) after the messages is finished by planning it again; stopped
            # after the memories, nothing would name their messages any more.
            cancelled = self._purge_log(plan, run, rep)
            if not cancelled:
                cancelled = self._purge_nodes(plan, run, rep)
            if not cancelled:
                self._purge_pending(plan, run)
            if run.purged and clear_job_errors(self.service.workspace_store):
                run.touched.add("workspace")
        except StoreUnavailable as e:
            if not run.purged:
                raise
            # A full disk or a lock midway: the batches before it are gone for good.
            raise StoreUnavailable(
                f"the purge stopped partway: {len(run.purged)} records were already removed"
                f" for good; run it again to finish ({e})"
            ) from e
        report = PurgeReport(
            purged=run.purged, memories=run.memories, cancelled=cancelled, warnings=run.warnings
        )
        if cancelled:
            report.warnings.append(
                "cancelled: what was purged is gone for good; run the purge again to finish"
            )
        touched = [self._store(n) for n in STORES if n in run.touched]
        query = plan.filter.query
        if query:
            # The record of this purge (and the rows it scrubbed) must not name the query
            # in their session or owner ids.
            for store in touched:
                with store.write() as w:
                    w.forget_identities_in_audit(query, (REASON, REDACTED))
        for i, store in enumerate(touched):
            rep("compacting", i, len(touched))
            report.warnings += self._scrub(store)
        rep("backups", 0, 1)
        purged_ids = [t.id for t in run.purged if t.kind in ("node", "message")]
        report.backups_removed, report.backups_kept = clear_backups(
            touched,
            texts=plan.needles,
            ids=_sample(purged_ids, MAX_BACKUP_MARKERS),
            remove=plan.filter.remove_backups,
        )
        if report.backups_kept:
            report.warnings.append(
                f"{len(report.backups_kept)} migration backups still hold purged data "
                "(kept because remove_backups is off)"
            )
        # A killed export's temporary file holds exported memories: gone with the purge.
        parts = self.service.paths.state_dir / PARTS_FOLDER
        for path in sweep_stale_parts(parts):
            report.warnings.append(
                f"removed the temporary file of an export that was killed: {path}"
            )
        if not cancelled:
            rep("verifying", 0, 1)
            readable = [s for _, s in self.service.stores() if s.health.readable]
            report.verification = verify_purge(
                readable,
                plan.needles,
                query=_nowhere_after(plan.filter),
                kept_backups=report.backups_kept,
                exports=live_parts(parts),
            )
        rep("done", 1, 1)
        return report

    def _purge_nodes(self, plan: PurgePlan, run: _Run, rep: Reporter) -> bool:
        """Hard delete whole chains, a batch per transaction; True when cancelled."""
        where: dict[str, StoreName] = {}
        links: dict[str, str | None] = {}
        for name in STORES:
            ids = plan.ids("node", name)
            if not ids:
                continue
            with self._store(name).read() as r:
                for node in r.iter_nodes_by_id(ids):
                    where[node.id] = name
                    links[node.id] = node.supersedes_id
        groups = chain_groups(links)
        batches = [groups[i : i + CHAIN_BATCH] for i in range(0, len(groups), CHAIN_BATCH)]
        done = 0
        rep("memories", 0, len(groups))
        for batch in batches:
            ids = [i for group in batch for i in group]
            for name in STORES:
                here = [i for i in ids if where[i] == name]
                if here:
                    self._delete_nodes(name, here, run)
            done += len(batch)
            superseded = {links[i] for i in ids}
            run.memories += sum(1 for i in ids if i not in superseded)
            rep("memories", done, len(groups))
            if rep.cancelled and done < len(groups):
                return True
        return False

    def _delete_nodes(self, name: StoreName, ids: list[str], run: _Run) -> None:
        with self._store(name).write() as w:
            audit = w.audit_ids_for_nodes(ids)  # before delete_in adds its own events
            usage = sorted(w.usage_ids(node_ids=ids))
            for node in w.get_nodes(ids):
                delete_in(w, node, mode="hard", actor=ACTOR, reason=REASON, settle=False)
                run.add(name, "node", node.id)
            for a in audit:
                run.add(name, "audit", a, "scrub")
            for u in usage:
                run.add(name, "usage", u)
        run.touched.add(name)

    def _purge_pending(self, plan: PurgePlan, run: _Run) -> None:
        for name in STORES:
            ids = plan.ids("pending", name)
            audit = [a for a in plan.ids("audit", name) if a not in run.seen]
            if not (ids or audit):
                continue
            with self._store(name).write() as w:
                present = w.existing_ids("memory_pending", ids)
                w.delete_rows("memory_pending", present)
                found = w.existing_ids("memory_audit_events", audit)
                w.redact_audit(ids=found)
            for i in ids:
                if i in present:
                    run.add(name, "pending", i)
            for a in audit:
                if a in found:
                    run.add(name, "audit", a, "scrub")
            run.touched.add(name)

    def _purge_log(self, plan: PurgePlan, run: _Run, rep: Reporter) -> bool:
        """Messages in batches, then their usage rows, summaries, jobs, cursors; True when cancelled."""
        message_ids = plan.ids("message")
        total = len(message_ids)
        for done, batch in enumerate(chunks(message_ids, MESSAGE_BATCH), start=1):
            with self.service.workspace_store.write() as w:
                present = w.existing_ids("memory_messages", batch)
                usage = sorted(w.usage_ids(message_ids=batch))
                w.delete_messages(batch, actor=ACTOR, reason=REASON)
            for i in batch:
                if i in present:
                    run.add("workspace", "message", i)
            for u in usage:
                run.add("workspace", "usage", u)
            run.touched.add("workspace")
            # Replies can have used user memories: those usage rows live in the user file.
            user_usage = set(plan.ids("usage", "user")) - run.seen
            if user_usage and self.service.user_store.health.writable:
                with self.service.user_store.write() as w:
                    gone = w.usage_ids(message_ids=batch) & user_usage
                    w.delete_rows("memory_usage", gone)
                for u in sorted(gone):
                    run.add("user", "usage", u)
            rep("messages", min(done * MESSAGE_BATCH, total), total)
            if rep.cancelled and done * MESSAGE_BATCH < total:
                return True
        summaries = [t for t in plan.targets if t.kind == "summary"]
        jobs = plan.ids("job")
        cursors = plan.ids("cursor")
        if not (summaries or jobs or cursors):
            return False
        with self.service.workspace_store.write() as w:
            present = w.existing_ids("memory_summaries", [t.id for t in summaries])
            scrubbed = [t.id for t in summaries if t.action == "scrub" and t.id in present]
            rebuild = {w.summary_session(i) for i in scrubbed} - {None}
            w.blank_summaries(scrubbed)
            # The next run summarizes the scrubbed links' remaining messages again.
            for session_id in sorted(x for x in rebuild if x is not None):
                w.rewind_cursor(session_id, SUMMARIZE)
            w.delete_rows("memory_summaries", (t.id for t in summaries if t.action == "delete"))
            for t in summaries:
                if t.id in present:
                    run.add("workspace", "summary", t.id, t.action)
            gone_jobs = w.existing_ids("memory_retry_queue", jobs)
            w.delete_rows("memory_retry_queue", gone_jobs)
            for j in jobs:
                if j in gone_jobs:
                    run.add("workspace", "job", j)
            live = {f"{c.session_id}:{c.kind}" for c in w.list_cursors()}
            w.delete_cursors({c.split(":", 1)[0] for c in cursors})
            for c in cursors:
                if c in live:
                    run.add("workspace", "cursor", c)
        run.touched.add("workspace")
        return False

    @staticmethod
    def _scrub(store: SqlStore) -> list[str]:
        """Compact the index, VACUUM and checkpoint; a VACUUM blocked by a reader is a warning."""
        try:
            return store.scrub(vacuum=True)
        except StoreUnavailable as e:
            return [
                f"VACUUM was not possible ({e}); deleted pages were zeroed but remain",
                *store.scrub(),
            ]


class _Run:
    """What a purge has done so far (labels come from the plan)."""

    def __init__(self, plan: PurgePlan) -> None:
        self.labels = {(t.kind, t.id): t.label for t in plan.targets}
        self.purged: list[PurgeTarget] = []
        self.seen: set[str] = set()
        self.touched: set[StoreName] = set()
        self.memories = 0
        self.warnings: list[str] = []

    def add(
        self, store: StoreName, kind: PurgeKind, record_id: str, action: str = "delete"
    ) -> None:
        if record_id in self.seen:
            return
        self.seen.add(record_id)
        self.purged.append(
            PurgeTarget(
                store=store,
                kind=kind,
                id=record_id,
                action="scrub" if action == "scrub" else "delete",
                label=self.labels.get((kind, record_id), ""),
            )
        )


def _pending_matches(
    item: PendingItem, node_ids: set[str], f: PurgeFilter, message_ids: set[str] | None = None
) -> bool:
    """A pending item about purged memories, or one whose proposal the filter covers (a
    filter of messages alone: one that came from purged messages)."""
    if {*item.target_ids, item.current_head_id, item.result_node_id} & node_ids:
        return True
    if f.messages_only:
        return bool(set(item.source_message_ids) & (message_ids or set()))
    node = item.node
    if not node:
        return False
    checks: Iterable[bool] = (
        not f.scopes or node.get("scope") in f.scopes,
        not f.category_path_prefix
        or list(node.get("categoryPath") or [])[: len(f.category_path_prefix)]
        == f.category_path_prefix,
        not f.session_id or f.session_id in (item.session_id, node.get("sessionId")),
        not f.user_id or f.user_id in (item.user_id, node.get("userId")),
        not f.workspace_id or f.workspace_id in (item.workspace_id, node.get("workspaceId")),
        not f.after or item.created_at >= f.after,
        not f.before or item.created_at < f.before,
        not f.query or _mentions(node, f.query, words=f.match == "words"),
        not f.node_ids,
    )
    return all(checks)


def _mentions(node: dict[str, Any], text: str, *, words: bool = False) -> bool:
    fields = ("title", "content", "valueJson", "tags", "entities")
    if words:
        return speaks_of(word_matcher(text), *(node.get(k) for k in fields))
    blob = json.dumps([node.get(k) for k in fields], ensure_ascii=False)
    return text.casefold() in blob.casefold()


def _node_speaks_of(node: MemoryNode, match: Callable[[str], bool]) -> bool:
    return speaks_of(match, node.title, node.content, node.value_json, node.tags, node.entities)


def _summary_speaks_of(summary: MemorySummary, match: Callable[[str], bool]) -> bool:
    return speaks_of(
        match,
        summary.summary,
        summary.current_goal,
        summary.constraints,
        summary.preferences,
        summary.decisions,
        summary.completed_work,
        summary.pending_work,
        summary.known_issues,
    )


def _nowhere_after(f: PurgeFilter) -> str | None:
    """The text a purge must leave nowhere in the files: its query — but for a Latin word
    matched whole, which other words may still hold ("salt" in "salty")."""
    if f.query and f.match == "words" and not is_cjk_word(f.query):
        return None
    return f.query
