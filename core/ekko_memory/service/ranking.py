"""The design doc's priority order and conflict resolution (冲突消解).

Order, best first: session > workspace > user > global; unexpired over expired; an
explicit user statement over model inference; a temporary constraint over a long-term
preference; newer over older; higher confidence; higher importance.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter
from typing import Any, Generic, TypeVar

from ekko_memory.models import NodeLike, OmittedNode
from ekko_memory.schema.normalize import conflict_identity
from ekko_memory.schema.registry import SchemaRegistry

SCOPE_RANK = {"session": 0, "workspace": 1, "user": 2, "global": 3}
EXPLICIT_ORIGINS = frozenset({"user_explicit", "user_edit"})
N = TypeVar("N", bound=NodeLike)


def is_temporary_constraint(node: NodeLike) -> bool:
    """A constraint that holds for a while (it expires, or lives in one session)."""
    return node.type == "constraint" and (node.expires_at is not None or node.scope == "session")


def priority_key(node: NodeLike, now: datetime) -> tuple[Any, ...]:
    """Sort key: smaller sorts first (wins)."""
    return (
        SCOPE_RANK.get(node.scope, 9),
        1 if node.is_expired(now) else 0,
        0 if node.origin in EXPLICIT_ORIGINS else 1,
        0 if is_temporary_constraint(node) else 1,
        -node.updated_at.timestamp(),
        -node.confidence,
        -node.importance,
        node.id,
    )


def sort_by_priority(nodes: Iterable[N], now: datetime) -> list[N]:
    """Nodes best first: the order of ``priority_key``, in three stable sorts (each key
    cheaper than the whole tuple; this runs on every candidate of every turn)."""
    ordered = sorted(nodes, key=_node_id)
    ordered.sort(key=_recency, reverse=True)
    ordered.sort(key=lambda n: _standing(n, now))
    return ordered


_node_id = attrgetter("id")
# Newer, then more confident, then more important first.
_recency = attrgetter("updated_at", "confidence", "importance")


def _standing(node: NodeLike, now: datetime) -> tuple[int, bool, bool, bool]:
    return (
        SCOPE_RANK.get(node.scope, 9),
        node.is_expired(now),
        node.origin not in EXPLICIT_ORIGINS,
        not is_temporary_constraint(node),
    )


def _shadowed(loser: Any, winner: Any) -> bool:
    """The winner's value says everything the loser's says (about the same fields)."""
    if isinstance(loser, dict) and isinstance(winner, dict):
        return set(loser) <= set(winner)
    return True


@dataclass
class Resolution(Generic[N]):
    """Conflict resolution outcome: who stays (best first) and who lost."""

    kept: list[N] = field(default_factory=list)
    lost: list[OmittedNode] = field(default_factory=list)


def resolve_conflicts(registry: SchemaRegistry, nodes: Iterable[N], now: datetime) -> Resolution[N]:
    """Keep one winner per conflict identity; the rest are omitted as ``conflict_lost``.

    Within one scope a single-valued key keeps exactly one node. Across scopes, a
    lower-priority object value that says more than the winner (user {oil, spicy} under
    session {spicy}) stays below it; one that is fully shadowed is omitted.
    """
    result: Resolution[N] = Resolution()
    winners: dict[tuple[Any, ...], list[N]] = {}
    # Values are decoded at most once each (a row decodes its JSON on every read).
    values: dict[str, Any] = {}

    def value_of(node: N) -> Any:
        if node.id not in values:
            values[node.id] = node.value_json
        return values[node.id]

    for node in sort_by_priority(nodes, now):
        ident = conflict_identity(registry, node)
        if ident is None:
            result.kept.append(node)
            continue
        earlier = winners.get(ident)
        if earlier is None:
            winners[ident] = [node]
            result.kept.append(node)
            continue
        lost = (
            ident[0] == "many"
            or any(w.scope == node.scope for w in earlier)
            or any(_shadowed(value_of(node), value_of(w)) for w in earlier)
        )
        if lost:
            result.lost.append(OmittedNode(node_id=node.id, reason="conflict_lost"))
        else:
            earlier.append(node)
            result.kept.append(node)
    return result
