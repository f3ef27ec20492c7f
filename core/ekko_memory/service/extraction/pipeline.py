"""After the reply (抽取流程): extraction and the summary chain, off the reply's critical path.

Triggers (the design doc's): 6–10 new messages (``summary_every_messages``), new text over a
token threshold, an explicit preference / decision / correction / long-term goal, a task
state change. Extraction output goes through the governed write path as actor
``extractor``. A failing extractor or summarizer never raises: the work is queued in
``memory_retry_queue`` and retried later with backoff. A store that cannot be written while
the extraction's operations are applied (locked, read-only, disabled) fails the extraction
the same way: the cursor stays before the batch, so nothing said is lost, and the operations
that did get written are not written twice when the batch runs again (``recorded.py``).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ekko_memory.errors import EkkoMemoryError, StoreUnavailable
from ekko_memory.identity import value_identity
from ekko_memory.ids import new_id
from ekko_memory.models import (
    ExtractedNodeOperation,
    MemoryExtraction,
    MemoryMessage,
    MemoryNode,
    MemoryNodeDraft,
    MemorySummary,
    PendingItem,
)
from ekko_memory.schema import intent
from ekko_memory.service.context_render import estimate_tokens
from ekko_memory.service.extraction.grounding import ungrounded
from ekko_memory.service.extraction.project import work_done
from ekko_memory.service.extraction.protocol import ExtractionFailed, ExtractionInput, SummaryInput
from ekko_memory.service.extraction.recorded import Recorded
from ekko_memory.service.extraction.retraction import Retractions, withdraw_item
from ekko_memory.service.extraction.rule_extractor import RuleBasedExtractor
from ekko_memory.service.extraction.rule_summarizer import clipped_line
from ekko_memory.service.governance import Governor, WriteOutcome, rejected
from ekko_memory.service.unconfirmed import proposed_nodes
from ekko_memory.service.write_plan import WriteContext, plan_node
from ekko_memory.store.filters import NodeFilter, Viewer

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

RETRY_BASE = timedelta(seconds=30)
RETRY_MAX = timedelta(hours=1)
EXTRACT = "extract"
SUMMARIZE = "summarize"
MAX_ATTEMPTS = 10
_DECISION = re.compile(
    r"决定|就用|改用|选用|我们用|we use|decided|let'?s use|switch to", re.IGNORECASE
)
_GOAL = re.compile(
    r"我的目标|目标是|我想要|打算|计划|my goal|i want to|i plan to|long[- ]term", re.IGNORECASE
)
_TASK = re.compile(
    r"完成了|已完成|(?:写|做|改|测|弄|搞|修)(?:完|好)了|TODO|待办|接下来|下一步|finished|done with|next i need"
    r"|\b(?:is|are|was|were|all) done\b",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"喜欢|不喜欢|爱吃|不吃|讨厌|偏好|口味|少油|少辣|不辣|(?:别|不要|先别|暂时别).{0,4}(?:辣|油|咸|甜|推荐)"
    r"|prefer|i like|i love|i hate|don'?t eat|\bno\s+\w+|less (?:spicy|oil|salt|sugar)",
    re.IGNORECASE,
)


def _restates(op: ExtractedNodeOperation, nodes: list[MemoryNode]) -> bool:
    """The operation proposes again what one of ``nodes`` (waiting) already says: the same
    key and value."""
    return op.node.key is not None and any(
        n.key == op.node.key and n.value_identity() == value_identity(op.node.value_json)
        for n in nodes
    )


class StoreBusy(ExtractionFailed):
    """A store could not take the extraction's writes (locked, read-only, disabled): the
    batch is extracted again later. ``outcomes``: the operations applied before it."""

    def __init__(self, reason: str, outcomes: list[dict[str, Any]]) -> None:
        super().__init__(f"memory store unavailable: {reason}")
        self.outcomes = outcomes


@dataclass
class AfterReplyReport:
    """What one after-reply run did."""

    session_id: str
    triggers: list[str] = field(default_factory=list)
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    summary_id: str | None = None
    queued_jobs: list[str] = field(default_factory=list)
    retried_jobs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # Memory was paused (reason code ``memory.paused``): nothing was read or stored.
    paused: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON for logs and tools (``paused: true`` when memory was paused)."""
        out: dict[str, Any] = {
            "sessionId": self.session_id,
            "triggers": self.triggers,
            "outcomes": self.outcomes,
            "summaryId": self.summary_id,
            "queuedJobs": self.queued_jobs,
            "retriedJobs": self.retried_jobs,
            "errors": self.errors,
        }
        if self.paused:
            out["paused"] = True
        return out


def triggers_for(messages: list[MemoryMessage], *, every: int, token_threshold: int) -> list[str]:
    """Which of the design doc's triggers the new messages fire."""
    fired = []
    if len(messages) >= every:
        fired.append(f"{len(messages)} new messages")
    if estimate_tokens("\n".join(m.content for m in messages)) >= token_threshold:
        fired.append("token threshold")
    users = [m.content for m in messages if m.role == "user"]
    if any(intent.has_explicit_intent(t) or _PREFERENCE.search(t) for t in users):
        fired.append("explicit preference")
    if any(intent.is_correction(t) for t in users):
        fired.append("correction")
    if any(intent.forgets_about(t) for t in users):
        fired.append("retraction")
    if any(_DECISION.search(t) for t in users):
        fired.append("decision")
    if any(_GOAL.search(t) for t in users):
        fired.append("long-term goal")
    # The extractor's own words for work done too: 重构好了 finishes a task as 写完了 does.
    if any(_TASK.search(t) or work_done(t) for t in users):
        fired.append("task state change")
    return fired


class AfterReply:
    """Runs extraction and summaries for sessions; thread-safe (one run per session at a time)."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        # Rule patterns as a trigger (whatever extractor runs); built on first use.
        self._detector: RuleBasedExtractor | None = None
        # The extractor's summary patches (summaryPatch) per session, until a summary holds
        # them. Kept in this process only: a patch lost to a restart leaves the summary to
        # the messages themselves.
        self._patches: dict[str, list[str]] = {}

    def _lock(self, session_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(session_id, threading.Lock())

    def run(
        self,
        session_id: str,
        *,
        user_id: str | None,
        workspace_id: str | None,
        force: bool = False,
    ) -> AfterReplyReport:
        """Extract and summarize what is new in the session, as the triggers say (``force``:
        whatever is new, triggers or not — a conversation that ends). Never raises."""
        report = AfterReplyReport(session_id)
        if self._paused(report):
            return report
        with self._lock(session_id):
            self._guarded(
                report, lambda: self._run(session_id, user_id, workspace_id, report, force=force)
            )
        return report

    def _paused(self, report: AfterReplyReport) -> bool:
        """While memory is paused nothing is extracted or summarized (the cursors stay)."""
        try:
            report.paused = self.service.controls.is_paused()
        except Exception:  # a store that cannot say: the run meets it and says why
            report.paused = False
        return report.paused

    @staticmethod
    def _guarded(report: AfterReplyReport, fn: Any) -> None:
        try:
            fn()
        except EkkoMemoryError as e:
            report.errors.append(str(e))
        except Exception as e:  # background work must never take the agent down
            report.errors.append(f"{type(e).__name__}: {e}")

    def _run(
        self,
        session_id: str,
        user_id: str | None,
        workspace_id: str | None,
        report: AfterReplyReport,
        *,
        force: bool,
    ) -> None:
        start = len(report.errors)
        ok_extract = self._extract_new(session_id, user_id, workspace_id, report, force=force)
        middle = len(report.errors)
        ok_summary = self._summarize_new(session_id, report, force=force)
        # Each job keeps its own step's error, not whichever failed last.
        errors = {EXTRACT: report.errors[start:middle], SUMMARIZE: report.errors[middle:]}
        for kind, ok in ((EXTRACT, ok_extract), (SUMMARIZE, ok_summary)):
            if not ok:
                job = self._queue(
                    kind,
                    session_id,
                    {"userId": user_id, "workspaceId": workspace_id},
                    (errors[kind] or [f"{kind} failed"])[-1],
                )
                report.queued_jobs.append(job)

    # --- extraction -----------------------------------------------------------------

    def _since_cursor(self, session_id: str, kind: str) -> list[MemoryMessage]:
        with self.service.workspace_store.read() as r:
            cursor = r.get_cursor(session_id, kind)
            return r.list_messages(session_id, after=cursor[1] if cursor else None, limit=500)

    def _extract_new(
        self,
        session_id: str,
        user_id: str | None,
        workspace_id: str | None,
        report: AfterReplyReport,
        *,
        force: bool,
    ) -> bool:
        """Extract from the messages after the cursor; False when it failed (cursor kept)."""
        cfg = self.service.config
        new = self._since_cursor(session_id, EXTRACT)
        if not new:
            return True
        fired = triggers_for(
            new, every=cfg.summary_every_messages, token_threshold=cfg.summary_token_threshold
        )
        if not fired and isinstance(self.service.extractor, RuleBasedExtractor):
            # The rules cost milliseconds: they read every turn (a task reported done
            # needs the tasks to know it, which the trigger check does not read).
            fired.append("every turn")
        if not fired and self._memorable(session_id, new):
            fired.append("memorable statement")
        report.triggers += fired
        if not fired and not force:
            return True
        try:
            report.outcomes += self.extract(
                session_id, new, user_id=user_id, workspace_id=workspace_id
            )
        except ExtractionFailed as e:
            # The cursor stays put: the next run (or the retry job) reads these messages again.
            if isinstance(e, StoreBusy):
                report.outcomes += e.outcomes
            report.errors.append(f"extraction failed: {e}")
            return False
        self._advance(session_id, EXTRACT, new[-1])
        return True

    def _memorable(self, session_id: str, messages: list[MemoryMessage]) -> bool:
        """Whether the rule patterns find something to remember in the users' messages: the
        trigger words cannot list every phrasing the extractor knows (今天别放葱, 提交前必须跑
        测试, 这个项目用 PostgreSQL), and an LLM extractor must not miss what rules see."""
        users = [m for m in messages if m.role == "user"]
        if not users:
            return False
        if any(self._rules().notable(m.content) for m in users):
            return True
        found = self._rules().extract(
            ExtractionInput(
                session_id=session_id,
                messages=users,
                previous_summary=None,
                known_nodes=[],
                now=self.service.now(),
            )
        )
        return bool(found.nodes)

    def _rules(self) -> RuleBasedExtractor:
        if self._detector is None:
            self._detector = RuleBasedExtractor(self.service.registry)
        return self._detector

    def extract(
        self,
        session_id: str,
        messages: list[MemoryMessage],
        *,
        user_id: str | None,
        workspace_id: str | None,
    ) -> list[dict[str, Any]]:
        """Run the extractor over ``messages`` and apply its operations (governed)."""
        svc = self.service
        viewer = Viewer(session_id=session_id, user_id=user_id, workspace_id=workspace_id)
        waiting = self._waiting(viewer)
        data = ExtractionInput(
            session_id=session_id,
            messages=messages,
            previous_summary=svc.get_latest_summary(session_id=session_id),
            # What the user said before that still waits for approval is known too: a
            # correction or a take-back of it changes the proposal, not a stored memory.
            known_nodes=self._known(viewer) + [node for node, _ in waiting.values()],
            now=svc.now(),
            earlier=self._earlier(session_id, messages),
        )
        try:
            extraction = svc.extractor.extract(data)
        except ExtractionFailed:
            raise
        except Exception as e:  # a broken extractor is a failed extraction, retried later
            raise ExtractionFailed(f"{type(e).__name__}: {e}") from e
        withdrawn: list[dict[str, Any]] = []
        held: dict[str, list[str]] = {}
        try:
            extraction, withdrawn = self._on_waiting(extraction, waiting, messages, held)
        except StoreUnavailable as e:
            raise StoreBusy(str(e), []) from e
        outcomes = withdrawn + self.apply(
            extraction,
            messages,
            session_id=session_id,
            user_id=user_id,
            workspace_id=workspace_id,
            held=held,
        )
        # What the user took back of what waits for approval (whatever extractor runs: the
        # inbox must not offer it) — not what a later message of the batch said again.
        try:
            outcomes += Retractions(svc, self._rules()).withdraw(session_id, messages, held)
        except StoreUnavailable as e:
            raise StoreBusy(str(e), outcomes) from e
        patch = (extraction.summary_patch or "").strip()
        if patch:
            with self._guard:
                self._patches.setdefault(session_id, []).append(patch)
        return outcomes

    def _waiting(self, viewer: Viewer) -> dict[str, tuple[MemoryNode, PendingItem]]:
        """This user's proposals still waiting (by the id their node would get): what they
        said, not yet approved."""
        out: dict[str, tuple[MemoryNode, PendingItem]] = {}
        for name, store in self.service.stores():
            if not store.health.readable:
                continue
            with store.read() as r:
                items = r.waiting_proposals(
                    requester="extractor",
                    user_id=viewer.user_id,
                    workspace_id=viewer.workspace_id,
                    limit=100,
                )
            for item in items:
                for node in proposed_nodes([item], self.service.now()):
                    out[node.id] = (
                        node.model_copy(update={"status": "active"}),
                        item.model_copy(update={"store": name}),
                    )
        return out

    def _earlier(self, session_id: str, messages: list[MemoryMessage]) -> list[MemoryMessage]:
        """The session's last user messages before the batch (what a correction or a bare
        take-back at its start refers to), oldest first."""
        if not messages:
            return []
        with self.service.workspace_store.read() as r:
            before = r.last_user_message_before(session_id, messages[0].created_at)
            recent = r.list_recent_messages(session_id, 8)
        # The assistant's last words before the batch: what a short answer replies to
        # (你住哪个城市？ → 成都).
        asked = [
            m for m in recent if m.role == "assistant" and m.created_at < messages[0].created_at
        ][-1:]
        # And the user's message before that one: whom 他 of a take-back names may have been
        # spoken of two turns ago (我前男友叫周凯 … 我下周出差 … 关于他的都删了吧).
        users = [
            m
            for m in recent
            if m.role == "user" and before is not None and m.created_at < before.created_at
        ][-1:]
        return sorted(
            [*users, *([before] if before is not None else []), *asked], key=lambda m: m.created_at
        )

    def _on_waiting(
        self,
        extraction: MemoryExtraction,
        waiting: dict[str, tuple[MemoryNode, PendingItem]],
        messages: list[MemoryMessage],
        held: dict[str, list[str]],
    ) -> tuple[MemoryExtraction, list[dict[str, Any]]]:
        """Operations on a proposal still waiting: it is withdrawn (the user took it back or
        said it again otherwise), and a replacement is proposed as new."""
        if not waiting:
            return extraction, []
        said = next((m.content for m in reversed(messages) if m.role == "user"), "")
        ops: list[ExtractedNodeOperation] = []
        outcomes: list[dict[str, Any]] = []
        later = list(extraction.nodes)
        gone: set[str] = set()
        for i, op in enumerate(extraction.nodes):
            hit = waiting.get(op.target_id or "")
            if hit is None and op.operation == "create":
                # A one-value fact said anew (我上周搬去佛山了 after 我在广州): what waited
                # with the old value is withdrawn; the new statement waits in its place.
                for old, old_item in list(waiting.values()):
                    if (
                        old_item.id not in gone
                        and self._replaces(op, old)
                        and withdraw_item(
                            self.service,
                            old_item,
                            f"the user said it anew (said: “{clipped_line(said, 60)}”)",
                            messages[-1].id,
                        )
                    ):
                        gone.add(old_item.id)
                        outcomes.append(
                            {
                                "operation": "withdraw",
                                "accepted": True,
                                "status": "rejected",
                                "pendingId": old_item.id,
                                "reason": "said anew",
                            }
                        )
            if hit is None:
                again = [(n, it) for n, it in waiting.values() if _restates(op, [n])]
                if op.operation == "create" and again:
                    # Said again: the item waiting already holds it (a retraction before
                    # this in the batch does not withdraw it).
                    for _, it in again:
                        held.setdefault(it.id, []).extend(op.node.source_message_ids or [])
                    continue
                ops.append(op)
                continue
            node, item = hit
            if item.id in gone:
                continue  # withdrawn by an earlier operation of this batch
            if op.operation == "expire" and any(
                o.operation == "create" and _restates(o, [node]) for o in later[i + 1 :]
            ):
                continue  # taken back, then said again in the same batch: it stays
            why = f"withdrawn by the user's words: {op.reason} (said: “{clipped_line(said, 60)}”)"
            gone.add(item.id)
            if withdraw_item(self.service, item, why, messages[-1].id if messages else None):
                outcomes.append(
                    {
                        "operation": "withdraw",
                        "accepted": True,
                        "status": "rejected",
                        "pendingId": item.id,
                        "reason": why,
                    }
                )
            if op.operation == "supersede":
                ops.append(op.model_copy(update={"operation": "create", "target_id": None}))
            elif op.operation == "update":
                # An update names only what changes: the waiting node, changed so, waits anew.
                fields = {
                    k: v for k, v in node.model_dump().items() if k in MemoryNodeDraft.model_fields
                }
                changed = op.node.model_dump(exclude_unset=True)
                ops.append(
                    op.model_copy(
                        update={
                            "operation": "create",
                            "target_id": None,
                            "node": MemoryNodeDraft.model_validate({**fields, **changed}),
                        }
                    )
                )
        return extraction.model_copy(update={"nodes": ops}), outcomes

    def _replaces(self, op: ExtractedNodeOperation, old: MemoryNode) -> bool:
        """``op`` states a new value of the one-value fact ``old`` holds (same key)."""
        new = op.node
        if (
            new.key is None
            or new.key != old.key
            or new.domain != old.domain
            or new.type != old.type
        ):
            return False
        if not self.service.registry.single_valued(old.domain, old.type, old.key or ""):
            return False
        return value_identity(new.value_json) != old.value_identity()

    def _known(self, viewer: Viewer) -> list[MemoryNode]:
        """The memories the extractor may build on (and an LLM extractor is shown): only
        what this session may see, filtered in SQL so other tenants of a shared store
        never fill the limit, and never leave this user's hands."""
        known: list[MemoryNode] = []
        for part in self.service.store_slices(["session", "workspace", "user"]):
            with part.store.read() as r:
                known += r.find_nodes(
                    NodeFilter(
                        scopes=part.scopes,
                        types=["preference", "constraint", "task", "decision", "fact"],
                        viewer=viewer,
                    ),
                    limit=200,
                )
        return known

    def apply(
        self,
        extraction: MemoryExtraction,
        messages: list[MemoryMessage],
        *,
        session_id: str,
        user_id: str | None,
        workspace_id: str | None,
        held: dict[str, list[str]] | None = None,
    ) -> list[dict[str, Any]]:
        """Send each operation through the governed write path as the extractor, except what
        is already recorded or older than what is recorded (``recorded.py``).

        ``held`` gets, per pending item an operation was held in (or found waiting as the
        same proposal), the ids of the messages that operation came from.

        Raises ``StoreBusy`` (with the outcomes so far) at the first operation a store could
        not take: the batch is extracted again later.
        """
        by_id = {m.id: m for m in messages}
        users = [m for m in messages if m.role == "user"]
        governor = Governor(self.service)
        outcomes: list[dict[str, Any]] = []
        try:
            recorded = Recorded.load(self.service, messages)
            for op in extraction.nodes:
                if op.operation == "ignore":
                    continue
                asked = op.node.source_message_ids or []
                sources = [
                    by_id[i] for i in asked if i in by_id and by_id[i].role == "user"
                ] or users
                ctx = WriteContext(
                    actor="extractor",
                    session_id=session_id,
                    user_id=user_id,
                    workspace_id=workspace_id,
                    source_message_ids=[m.id for m in sources],
                    source_text="\n".join(m.content for m in sources),
                )
                if op.operation != "expire" and not isinstance(
                    self.service.extractor, RuleBasedExtractor
                ):
                    # A model may state what nobody said: such a value waits for the user.
                    said = "\n".join(m.content for m in users)
                    ctx.unverified = ungrounded(op.node.value_json, said)
                draft = op.node.model_copy(update={"source_message_ids": None})
                outcome = self._left_alone(governor, recorded, op, draft, ctx, sources)
                if outcome is None:
                    outcome = governor.propose(
                        op.operation, draft, ctx, target_id=op.target_id, reason=op.reason
                    )
                if outcome.rule == StoreUnavailable.code:
                    raise StoreBusy(outcome.reason, outcomes)
                if held is not None and outcome.pending_id is not None:
                    held.setdefault(outcome.pending_id, []).extend(ctx.source_message_ids)
                outcomes.append({"operation": op.operation, **outcome.to_json()})
        except StoreUnavailable as e:
            raise StoreBusy(str(e), outcomes) from e
        return outcomes

    def _left_alone(
        self,
        governor: Governor,
        recorded: Recorded,
        op: ExtractedNodeOperation,
        draft: MemoryNodeDraft,
        ctx: WriteContext,
        sources: list[MemoryMessage],
    ) -> WriteOutcome | None:
        """The outcome of an operation that must not be written (already recorded from its
        message, or older than the memory it would replace); None to go ahead."""
        svc = self.service
        if not sources:
            return None
        current: MemoryNode | None = None
        if op.operation == "create":
            try:
                cand = plan_node(svc.registry, draft, ctx, svc.now())
            except EkkoMemoryError:
                return None  # the governed write says what is wrong with it
            same = recorded.covering(svc.registry, cand.node, ctx.source_message_ids)
            if same is not None:
                return WriteOutcome(
                    True,
                    "duplicate",
                    f"already remembered from the same message ({same.id}); nothing new was written",
                    node_id=same.id,
                )
            with svc.store_for_scope(cand.node.scope).read() as r:
                current = governor.current_match(r, cand)
            if current is not None and governor.same_value(current, cand.node):
                return None  # the governed write reports the duplicate
        elif op.target_id is not None:
            current = svc.get_node(op.target_id)
        if current is None or current.status not in ("active", "expired"):
            return None
        if recorded.stated_at(current) > max(m.created_at for m in sources):
            return rejected(
                f"memory {current.id} was stated later than this message; "
                "an older statement does not replace it",
                rule="outdated",
            )
        return None

    # --- summaries ------------------------------------------------------------------

    def _summarize_new(self, session_id: str, report: AfterReplyReport, *, force: bool) -> bool:
        """Append the next summary when enough is new; False when it failed (cursor kept)."""
        cfg = self.service.config
        new = self._since_cursor(session_id, SUMMARIZE)
        if not new:
            return True
        tokens = estimate_tokens("\n".join(m.content for m in new))
        if (
            not force
            and not self._patches.get(session_id)  # the extractor asked for the summary
            and len(new) < cfg.summary_every_messages
            and tokens < cfg.summary_token_threshold
        ):
            return True
        try:
            latest = self.service.get_latest_summary(session_id=session_id)
            report.summary_id = self.summarize(session_id, latest, new, report.outcomes)
        except ExtractionFailed as e:
            report.errors.append(f"summary failed: {e}")
            return False
        return True

    def summarize(
        self,
        session_id: str,
        previous: MemorySummary | None,
        messages: list[MemoryMessage],
        outcomes: list[dict[str, Any]],
    ) -> str:
        """Append the next summary (previous + these messages only) and move the summary
        cursor past the messages; returns its id."""
        svc = self.service
        with self._guard:
            patches = tuple(self._patches.get(session_id, ()))
        ids = {m.id for m in messages}
        written = Recorded.load(svc, messages).nodes
        recorded = frozenset(i for n in written for i in n.source_message_ids if i in ids)
        try:
            draft = svc.summarizer.summarize(
                SummaryInput(
                    session_id=session_id,
                    previous=previous,
                    messages=messages,
                    extracted=self._extracted(written, outcomes),
                    recorded_message_ids=recorded,
                    patches=patches,
                )
            )
        except ExtractionFailed:
            raise
        except Exception as e:
            raise ExtractionFailed(f"{type(e).__name__}: {e}") from e
        summary = MemorySummary(
            id=new_id("sum"),
            session_id=session_id,
            parent_summary_id=previous.id if previous else None,
            from_message_id=messages[0].id,
            to_message_id=messages[-1].id,
            created_at=svc.now(),
            **draft.model_dump(),
        )
        # One transaction: a process killed between the summary and its cursor summarized
        # the same messages again at the next run, into a second link repeating the first.
        with svc.workspace_store.write() as w:
            w.insert_summary(summary)
            w.set_cursor(session_id, SUMMARIZE, messages[-1], svc.now())
        with self._guard:
            left = self._patches.get(session_id, [])[len(patches) :]
            if left:
                self._patches[session_id] = left
            else:
                self._patches.pop(session_id, None)
        return summary.id

    def _extracted(
        self, written: list[MemoryNode], outcomes: list[dict[str, Any]]
    ) -> list[MemoryNode]:
        """The memories a summary lists as its constraints, preferences and decisions: those
        written from its messages on any turn it covers (the agent's, the user's, earlier
        runs'), with this run's writes, as they stand now — a version superseded or deleted
        since no longer says what the user wants. Oldest first."""
        ran = [o["nodeId"] for o in outcomes if o.get("accepted") and o.get("nodeId")]
        known = {n.id for n in written}
        fresh = [self.service.get_node(i) for i in dict.fromkeys(ran) if i not in known]
        nodes = written + [n for n in fresh if n is not None]
        return sorted((n for n in nodes if n.status == "active"), key=lambda n: n.created_at)

    # --- cursors and the retry queue -------------------------------------------------

    def _advance(self, session_id: str, kind: str, last: MemoryMessage) -> None:
        with self.service.workspace_store.write() as w:
            w.set_cursor(session_id, kind, last, self.service.now())

    def _queue(self, kind: str, session_id: str, meta: dict[str, Any], error: str) -> str:
        """One job per (session, kind): a failing step is retried from its cursor."""
        now = self.service.now()
        with self.service.workspace_store.write() as w:
            for job in w.due_jobs(datetime.max.replace(tzinfo=now.tzinfo), limit=1000):
                if job["session_id"] == session_id and job["kind"] == kind:
                    return str(job["id"])
            job_id = w.add_job(kind, session_id, meta, now)
            w.reschedule_job(job_id, error=error, next_at=now + RETRY_BASE)
        return job_id

    def retry_due(self, *, force: bool = False) -> AfterReplyReport:
        """Retry every job whose time has come (``force``: every job now). Never raises."""
        report = AfterReplyReport(session_id="*")
        if self._paused(report):
            return report
        now = self.service.now()
        with self.service.workspace_store.read() as r:
            jobs = r.due_jobs(datetime.max.replace(tzinfo=now.tzinfo) if force else now, limit=1000)
        for job in jobs:
            if job["attempts"] >= MAX_ATTEMPTS and not force:
                continue
            with self._lock(job["session_id"]):
                self._guarded(report, lambda job=job: self._retry(job, report))
        return report

    def _retry(self, job: dict[str, Any], report: AfterReplyReport) -> None:
        meta = json.loads(job["payload_json"])
        session_id = job["session_id"]
        errors = len(report.errors)
        if job["kind"] == EXTRACT:
            ok = self._extract_new(
                session_id, meta.get("userId"), meta.get("workspaceId"), report, force=True
            )
        else:
            ok = self._summarize_new(session_id, report, force=True)
        with self.service.workspace_store.write() as w:
            if ok:
                w.remove_job(job["id"])
                report.retried_jobs.append(job["id"])
            else:
                backoff = min(RETRY_MAX, RETRY_BASE * 2 ** int(job["attempts"]))
                error = report.errors[-1] if len(report.errors) > errors else "failed"
                w.reschedule_job(job["id"], error=error, next_at=self.service.now() + backoff)
