"""What the user said that still waits for their approval, in the context as unconfirmed.

The write rules hold a user-scope memory the user did not ask to keep (我住在杭州 without
记住), and health data, for the user's approval in the app. Until they decide, the agent
still knows it — the user said it a moment ago — but marked as unconfirmed, never mixed
with what the user approved. Only what the extractor read from the user's own logged
words: an agent's proposal is the agent's claim, and a value the LLM extractor could not
find in the user's words waits unshown.

An unconfirmed statement is newer than the memory it would replace (其实我搬到苏州了 after
我住在杭州): for a one-value key it hides that memory from the context, which then says
what the user says now.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from ekko_memory.models import MemoryNode, PendingItem
from ekko_memory.schema.normalize import ConflictIdentity, conflict_identity
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.store.search_text import message_terms, supports

# The extractor's items only, never these rules' (a value not in the user's words).
HIDDEN_RULES = frozenset({"unverified_value"})
# Standing facts about the user and their people: in every context, as the profile is.
PROFILE_DOMAINS = frozenset({"个人", "人物"})


def is_profile(node: MemoryNode) -> bool:
    """A standing fact about the user or someone in their life (where they live, family,
    work, languages, health), a lasting like or dislike of theirs, or a food allergy: part
    of the short profile every context carries."""
    if node.domain in PROFILE_DOMAINS:
        return node.type in ("fact", "preference")
    return "过敏" in node.tags or node.key == "dietary_restriction"


def proposed_nodes(items: Iterable[PendingItem], now: datetime) -> list[MemoryNode]:
    """The live nodes the waiting items propose (newest first, one per identity)."""
    out: list[MemoryNode] = []
    for item in items:
        if item.rule in HIDDEN_RULES or item.node is None:
            continue
        if item.operation not in ("create", "supersede", "update"):
            continue
        try:
            node = MemoryNode.model_validate(item.node)
        except ValueError:
            continue  # an item the app will show as broken; not the agent's business
        if node.expires_at is not None and node.expires_at <= now:
            continue
        out.append(node)
    return out


def select(
    registry: SchemaRegistry,
    proposed: Sequence[MemoryNode],
    text: str,
    hints: Sequence[tuple[str, ...]],
) -> list[MemoryNode]:
    """The unconfirmed memories a turn about ``text`` should see: the profile's, the
    temporary ones, those of a category the message points at, and those it shares words
    with. One per conflict identity (the newest)."""
    terms = message_terms(text) if text else None
    seen: set[ConflictIdentity] = set()
    out: list[MemoryNode] = []
    for node in proposed:
        ident = conflict_identity(registry, node)
        if ident is not None:
            if ident in seen:
                continue
            seen.add(ident)
        hinted = any(tuple(node.category_path[: len(h)]) == h for h in hints)
        related = terms is not None and supports(
            terms, [node.title, *node.tags, *node.entities], node.content
        )
        if is_profile(node) or node.expires_at is not None or hinted or related:
            out.append(node)
    return out


def shadowed(registry: SchemaRegistry, unconfirmed: Sequence[MemoryNode]) -> set[ConflictIdentity]:
    """The one-value identities an unconfirmed statement speaks for (the memories it would
    replace stay out of the context)."""
    out: set[ConflictIdentity] = set()
    for node in unconfirmed:
        ident = conflict_identity(registry, node)
        if ident is not None and ident[0] == "one":
            out.add(ident)
    return out
