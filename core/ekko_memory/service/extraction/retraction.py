"""The user takes back what still waits for approval (a pending proposal of this session).

A memory held for the user's approval (我不吃葱 without 记住) is not remembered yet; when the
user then takes it back in the same conversation, the inbox must not offer it any more. The
item is rejected, audited with the user's words as the reason. Conservative, never a guess:

- a statement the rule extractor reads as contradicting a memory (其实我现在可以吃葱了, we
  stopped using Redis, 文档写完了) contradicts a proposal of the same memory the same way:
  the extractor's own recognition runs with the session's proposals as the known memories,
  and an operation on one of them (expire, supersede) withdraws it;
- words that take something back or ask to forget it (忘掉, forget, 不用记了) withdraw the
  proposals about what they name (an ingredient, a cuisine, a technology: forget what I said
  about scallions);
- a bare take-back naming nothing (算了，不用记了; scratch that) withdraws the proposals from
  the user's message just before it, and only those.

Only proposals filed from earlier messages of the same session: a retraction never reaches
another conversation's items, nor what it or a later message proposed. What the retraction
states itself (可以吃一点葱) is extracted as every statement is; nothing else is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ekko_memory.identity import canonical_name, value_subject
from ekko_memory.models import MemoryMessage, MemoryNode, PendingItem
from ekko_memory.schema import intent
from ekko_memory.service.extraction.protocol import ExtractionInput
from ekko_memory.service.extraction.revising import detail_cut
from ekko_memory.service.extraction.rule_extractor import RuleBasedExtractor
from ekko_memory.service.extraction.rule_summarizer import clipped_line
from ekko_memory.service.extraction.statements import read_statements
from ekko_memory.service.extraction.takeback import (
    LAST_BIT,
    POINTS_BACK,
    earlier_in_message,
    kept_by,
    names,
    takes_back,
    what_is_taken_back,
)
from ekko_memory.store.sql_store import SqlStore

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

# Who withdraws it: the user, by their own words (the after-reply extraction only reads
# them). Recorded as the user's decision, the same actor as a rejection in the inbox.
ACTOR = "user"


@dataclass
class _Waiting:
    item: PendingItem
    store: SqlStore
    node: MemoryNode


class Retractions:
    """Withdraws the session's pending proposals that the user's new messages take back."""

    def __init__(self, service: MemoryService, rules: RuleBasedExtractor) -> None:
        self.service = service
        self.rules = rules

    def withdraw(
        self,
        session_id: str,
        messages: list[MemoryMessage],
        held: dict[str, list[str]] | None = None,
    ) -> list[dict[str, Any]]:
        """Reject, audited, what ``messages`` (the batch just extracted, in order) take
        back; one outcome per withdrawn item. ``held``: per pending item, the messages of
        this batch whose statements it also holds (a proposal said again is found waiting,
        not filed twice): a retraction before them does not withdraw it."""
        held = held or {}
        users = [m for m in messages if m.role == "user" and m.content.strip()]
        if not users:
            return []
        waiting = self._waiting(session_id)
        if not waiting:
            return []
        outcomes: list[dict[str, Any]] = []
        for msg in users:
            # Proposed from messages before this one (never from it or a later one).
            later = {m.id for m in messages if m.created_at >= msg.created_at} | {msg.id}
            open_ = [
                w
                for w in waiting
                if w.item.status == "pending"
                and not later & {*w.item.source_message_ids, *held.get(w.item.id, ())}
            ]
            if not open_:
                continue
            for w, why in self._taken_back(session_id, msg, open_):
                if self._reject(w, msg, why):
                    w.item = w.item.model_copy(update={"status": "rejected"})
                    outcomes.append(
                        {
                            "operation": "withdraw",
                            "accepted": True,
                            "status": "rejected",
                            "pendingId": w.item.id,
                            "reason": why,
                        }
                    )
        return outcomes

    def _waiting(self, session_id: str) -> list[_Waiting]:
        """The session's proposed writes still waiting for the user."""
        out: list[_Waiting] = []
        for _, store in self.service.stores():
            if not store.health.readable:
                continue
            with store.read() as r:
                items = r.list_pending()
            for item in items:
                if item.session_id != session_id or item.node is None:
                    continue
                if item.operation not in ("create", "supersede", "update"):
                    continue
                try:
                    node = MemoryNode.model_validate(item.node)
                except ValueError:
                    continue
                out.append(_Waiting(item, store, node.model_copy(update={"status": "active"})))
        return out

    def _taken_back(
        self, session_id: str, msg: MemoryMessage, waiting: list[_Waiting]
    ) -> list[tuple[_Waiting, str]]:
        said = clipped_line(msg.content, 60)
        # 1. What the rules read as contradicting the memory contradicts its proposal.
        by_node = {w.node.id: w for w in waiting}
        found = self.rules.extract(
            ExtractionInput(
                session_id=session_id,
                messages=[msg],
                previous_summary=None,
                known_nodes=[w.node for w in waiting],
                now=self.service.now(),
            )
        )
        hits: dict[str, tuple[_Waiting, str]] = {}
        for op in found.nodes:
            hit = by_node.get(op.target_id or "")
            if hit is None or op.operation not in ("expire", "supersede", "delete"):
                continue
            why = f"the user took it back: {op.reason} (said: “{said}”)"
            # The rules change one memory per key and subject; the same memory may wait
            # proposed twice (by the agent and by the extractor).
            for w in waiting:
                if w is hit or _same_memory(w.node, hit.node):
                    hits.setdefault(w.item.id, (w, why))
        # 2. Take-back or forget words, with what they name or the statement just before.
        text = msg.content
        if _within_message(msg):
            # 我不吃香菜。算了，这条别记了: what it takes back was never proposed.
            return list(hits.values())
        if intent.forgets_about(text):
            named = self._named(text)
            if named:
                for w in waiting:
                    if named & _subjects(w.node):
                        hits.setdefault(
                            w.item.id, (w, f"the user asked to forget it (said: “{said}”)")
                        )
            elif (words := _named_words(msg)) and (
                any(names(w.node, words) for w in waiting) or not POINTS_BACK.search(text)
            ):
                # 工资那个别记了: what the take-back's own clause names, whatever it is (and
                # nothing else: 刚才那句吃药的别记了, naming nothing waiting, is the message
                # before, as a take-back that names nothing).
                for w in waiting:
                    if names(w.node, words):
                        hits.setdefault(
                            w.item.id, (w, f"the user asked to forget it (said: “{said}”)")
                        )
            elif intent.takes_back(text) and not LAST_BIT.search(text):
                # (ignore that last bit: the rules above found what the end of it stated)
                before = self._previous_user_message(session_id, msg)
                for w in waiting:
                    if before is not None and before.id in w.item.source_message_ids:
                        hits.setdefault(
                            w.item.id,
                            (w, f"the user took back what they had just said (said: “{said}”)"),
                        )
        kept = kept_by(text)
        words = _named_words(msg)
        before = self._previous_user_message(session_id, msg) if words else None

        def detail_only(w: _Waiting) -> bool:
            # 锦华路那个地址别记了 of 我在成都，新家在锦华路: a detail said beside the city,
            # not the city (the rules change the city's words when they quote it).
            said = (
                before.content
                if before is not None and before.id in w.item.source_message_ids
                else w.node.content
            )
            return bool(words) and detail_cut(w.node, words, said) is not None

        # 当我没说，就记个目标就行: what the take-back keeps stays waiting.
        return [
            (w, why)
            for w, why in hits.values()
            if not (kept and names(w.node, kept)) and not detail_only(w)
        ]

    def _named(self, text: str) -> set[str]:
        """The subjects the words name: ingredients, cuisines, technologies (canonical)."""
        lex = self.rules.lexicon
        names = [lex.canonical(i) for i in lex.find_ingredients(text)]
        names += lex.find_cuisines(text)
        names += [name for name, _ in lex.find_tech(text)]
        return {canonical_name(n) for n in names if n}

    def _previous_user_message(self, session_id: str, msg: MemoryMessage) -> MemoryMessage | None:
        """The user's message just before ``msg`` in the session."""
        with self.service.workspace_store.read() as r:
            return r.last_user_message_before(session_id, msg.created_at)

    def _reject(self, w: _Waiting, msg: MemoryMessage, why: str) -> bool:
        """Reject the item, audited in the same transaction; False if decided meanwhile."""
        return withdraw_item(self.service, w.item, why, msg.id, store=w.store, node_id=w.node.id)


def withdraw_item(
    service: MemoryService,
    item: PendingItem,
    why: str,
    message_id: str | None,
    *,
    store: SqlStore | None = None,
    node_id: str | None = None,
) -> bool:
    """Reject a waiting item as the user's own withdrawal (their words took it back or
    replaced it), audited in the same transaction; False if it was decided meanwhile."""
    now = service.now()
    if store is None:
        store = service.user_store if item.store == "user" else service.workspace_store
    with store.write() as tx:
        if not tx.decide_pending(
            item.id, status="rejected", decided_by=ACTOR, at=now, note=why, result_node_id=None
        ):
            return False
        tx.add_audit(
            "reject",
            actor=ACTOR,
            reason=why,
            node_id=item.current_head_id or node_id or (item.node or {}).get("id"),
            session_id=item.session_id,
            workspace_id=item.workspace_id,
            user_id=item.user_id,
            at=now,
            payload={
                "pendingId": item.id,
                "kind": item.kind,
                "rule": item.rule,
                "withdrawnBy": message_id,
            },
        )
    return True


def _named_words(msg: MemoryMessage) -> str:
    """What the clauses that take something back name, in the user's words ("" when they
    name nothing: then it is the message before)."""
    said = [
        what_is_taken_back(st.text)
        for st in read_statements(msg.content, msg.created_at)
        if takes_back(st.text) or (st.index == 0 and takes_back(st.sentence))
    ]
    return " ".join(x for x in said if x)


def _within_message(msg: MemoryMessage) -> bool:
    """Every take-back of the message takes back a sentence said before it in the same
    message (我不吃香菜。算了，这条别记了), nothing of the messages before."""
    statements = read_statements(msg.content, msg.created_at)
    order = list(dict.fromkeys(st.sentence for st in statements))
    backs = [
        st
        for st in statements
        if takes_back(st.text) or (st.index == 0 and takes_back(st.sentence))
    ]
    return bool(backs) and all(
        earlier_in_message(order[: order.index(st.sentence)], st.text, st.sentence) for st in backs
    )


def _subjects(node: MemoryNode) -> set[str]:
    """What a proposed memory is about: its value's subject and its entities (canonical)."""
    out = {canonical_name(e) for e in node.entities or [] if e}
    subject = value_subject(node.value_json) if node.key is not None else None
    if subject:
        out.add(subject)
    return out


def _same_memory(a: MemoryNode, b: MemoryNode) -> bool:
    """Two proposals of one memory: the same key and value subject, for the same owner."""
    return (
        a.key is not None
        and a.key == b.key
        and a.scope == b.scope
        and value_subject(a.value_json) == value_subject(b.value_json)
        and (a.user_id, a.workspace_id) == (b.user_id, b.workspace_id)
    )
