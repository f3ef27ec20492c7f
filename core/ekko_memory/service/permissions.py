"""Permissions and confirmation (权限和确认策略), as a pure function of a proposal.

- session: allowed (temporary states, current tasks).
- workspace: allowed for project facts, technical constraints, task states.
- user: only when the user's own words ask to remember; otherwise it waits for the user.
- global: never written by an agent.
- Always waiting for the user: hard deletes, forgets that hit several memories, sensitive
  data (identifiers anywhere; health outside the session, but for a state that passes
  within two weeks: 今天胃不舒服 is no health record), and overwriting a
  high-confidence memory without clear intent (a session memory by another one excepted:
  the conversation's temporary states are its own to change).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from ekko_memory.identity import same_names
from ekko_memory.models import MemoryNode
from ekko_memory.schema import intent
from ekko_memory.schema.values import DIMENSION_WORDS, KEY_TOPIC_WORDS
from ekko_memory.service.extraction.lexicon import load_lexicon
from ekko_memory.service.extraction.takeback import takes_back
from ekko_memory.service.write_plan import Candidate, WriteContext

Action = Literal["allow", "pending", "reject"]

RULE_TEXT = {
    "user_scope_without_intent": "a long-term (user scope) memory the user did not ask to remember",
    "sensitive_data": "sensitive personal data",
    "overwrite_high_confidence": "it would overwrite a high-confidence memory without a clear request",
    "hard_delete": "a hard delete removes the memory for good",
    "forget_many": "the forget request matched several memories",
    "scope_promotion": "it would move a memory into the user's long-term scope",
    "sensitive_delete": "it deletes sensitive personal data",
    "unverified_value": "the value is not in the user's own words",
}


@dataclass(frozen=True)
class Verdict:
    """What happens to a proposal: written, held for the user (with the rule), or refused."""

    action: Action
    rule: str | None = None
    reason: str = ""


ALLOW = Verdict("allow")
_SEVERITY = {"allow": 0, "pending": 1, "reject": 2}


def stricter(a: Verdict, b: Verdict) -> Verdict:
    """The verdict that asks more of a change (refused, then held, then allowed)."""
    return b if _SEVERITY[b.action] > _SEVERITY[a.action] else a


# ``json.dumps(value, ensure_ascii=False)`` without building an encoder each call.
_ENCODE_READABLE = json.JSONEncoder(ensure_ascii=False).encode


def sensitive_kinds(node: MemoryNode, rule_sensitive_keys: Sequence[str] = ()) -> list[str]:
    """Kinds of sensitive data a node holds (phone number, health, …); empty when none."""
    text = " ".join([node.title, node.content, _ENCODE_READABLE(node.value_json)])
    kinds = intent.sensitive_identifiers(text)
    if node.key is not None and node.key in rule_sensitive_keys:
        kinds.append(node.key.replace("_", " "))
    if node.scope != "session" and not passing(node) and intent.mentions_health(text):
        kinds.append("health")
    return kinds


# A state that ends within this time is no health record (今天胃不舒服，少辣).
PASSING = timedelta(days=15)


def passing(node: MemoryNode) -> bool:
    """A temporary state that ends soon (a cold this week, a sprain for two weeks)."""
    return node.expires_at is not None and node.expires_at - node.created_at <= PASSING


def mentions(node: MemoryNode, text: str) -> bool:
    """The user's words name what the node is about (an entity, its value or its title)."""
    folded = text.casefold()
    subjects = list(node.entities)
    value = node.value_json
    if isinstance(value, str):
        subjects.append(value)
    elif isinstance(value, dict):
        subjects += [v for v in value.values() if isinstance(v, str)]
        # A flavor profile is named by its dimensions (辣, spicy…).
        subjects += [w for dim in value for w in DIMENSION_WORDS.get(dim, ())]
    if node.key is not None:
        subjects += KEY_TOPIC_WORDS.get(node.key, ())
        if names_decision_topic(node.key, folded):
            return True
    if not subjects:
        subjects.append(node.title)
    # In any of its names: "I can eat cilantro now" names 香菜.
    return any(name.casefold() in folded for s in subjects if s for name in same_names(s))


def names_decision_topic(key: str, folded: str) -> bool:
    """The (casefolded) words name what a project decision key is about, in the lexicon's
    words for it: 数据库改用 MySQL speaks of the database decision that PostgreSQL held,
    though it never names PostgreSQL. Latin words whole ("ci" is no part of "decision")."""
    for word in load_lexicon().key_words.get(key, ()):
        w = word.casefold()
        if w.isascii():
            if re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", folded):
                return True
        elif w in folded:
            return True
    return False


def clear_intent_about(target: MemoryNode, ctx: WriteContext) -> bool:
    """The user clearly asked to change this memory: an explicit request, or a correction naming it."""
    if ctx.explicit and mentions(target, ctx.source_text):
        return True
    return intent.is_correction(ctx.source_text) and mentions(target, ctx.source_text)


def within_session(old: MemoryNode, new: MemoryNode) -> bool:
    """One temporary state replaced by another (少辣 today, then no spice for a few days):
    session memories and passing states need no confirmation, and the history the
    high-confidence rule guards is what outlives them."""
    if old.scope == "session" and new.scope == "session":
        return True
    return old.scope == new.scope and passing(old) and passing(new)


def check_write(
    cand: Candidate,
    ctx: WriteContext,
    *,
    replaces: MemoryNode | None,
    high_confidence: float,
) -> Verdict:
    """Allow, hold or refuse writing ``cand`` (superseding ``replaces`` when given)."""
    node = cand.node
    if node.scope == "global":
        return Verdict(
            "reject", "global_scope", "global memories are read-only (shipped with the app)"
        )
    if not ctx.is_agent:
        return ALLOW
    if ctx.unverified:
        return Verdict(
            "pending",
            "unverified_value",
            f"{RULE_TEXT['unverified_value']} ({', '.join(ctx.unverified[:3])})",
        )
    kinds = sensitive_kinds(node, cand.rule.sensitive_keys if cand.rule else ())
    if kinds:
        return Verdict(
            "pending", "sensitive_data", f"{RULE_TEXT['sensitive_data']} ({', '.join(kinds)})"
        )
    if (
        replaces is not None
        and replaces.confidence >= high_confidence
        and not within_session(replaces, node)
        and not clear_intent_about(replaces, ctx)
    ):
        return Verdict(
            "pending", "overwrite_high_confidence", RULE_TEXT["overwrite_high_confidence"]
        )
    if node.scope == "user":
        explicit = ctx.explicit or (replaces is not None and clear_intent_about(replaces, ctx))
        if not explicit:
            rule = (
                "scope_promotion"
                if replaces is not None and replaces.scope != "user"
                else "user_scope_without_intent"
            )
            return Verdict("pending", rule, RULE_TEXT[rule])
    return ALLOW


def check_change(target: MemoryNode, ctx: WriteContext, *, high_confidence: float) -> Verdict:
    """Allow or hold expiring / soft-deleting one memory."""
    if target.scope == "global":
        return Verdict("reject", "global_scope", "global memories are read-only")
    if not ctx.is_agent:
        return ALLOW
    if sensitive_kinds(target):
        return Verdict("pending", "sensitive_delete", RULE_TEXT["sensitive_delete"])
    if target.confidence >= high_confidence and not (
        clear_intent_about(target, ctx)
        or intent.asks_to_forget(ctx.source_text)
        or (ctx.actor == "extractor" and takes_back(ctx.source_text))
    ):
        return Verdict(
            "pending", "overwrite_high_confidence", RULE_TEXT["overwrite_high_confidence"]
        )
    return ALLOW
