"""Key normalization and conflict identity under the controlled schema."""

from __future__ import annotations

import re
from typing import Any

from ekko_memory.models import NodeLike
from ekko_memory.schema.registry import SchemaRegistry

_KEY_CHARS = re.compile(r"[^a-z0-9_]+")


def clean_key(key: str) -> str:
    """``"Avoid Food"`` → ``"avoid_food"``: lowercase snake_case ascii."""
    k = _KEY_CHARS.sub("_", key.strip().casefold().replace("-", "_").replace(" ", "_"))
    return re.sub(r"_+", "_", k).strip("_")


def canonical_key(registry: SchemaRegistry, domain: str, node_type: str, key: str) -> str:
    """The controlled key for a synonym (``disliked_ingredient`` → ``avoid_ingredient``)."""
    k = clean_key(key)
    for rule in registry.rules_for(domain, node_type):  # type: ignore[arg-type]
        if k in rule.allowed_keys:
            return k
        if k in rule.key_aliases:
            return rule.key_aliases[k]
    # The same synonym may be declared for another type of the domain.
    for rule in registry.rules_for(domain):
        if k in rule.key_aliases:
            return rule.key_aliases[k]
    return k


ConflictIdentity = tuple[Any, ...]


def conflict_identity(registry: SchemaRegistry, node: NodeLike) -> ConflictIdentity | None:
    """Nodes with equal identities speak about the same thing and cannot both win.

    Single-valued keys: one identity per (domain, key). Multi-valued keys: one per
    (domain, key group, subject), so 不吃香菜 and 可接受少量香菜 collide but 不吃葱 does not.
    Keyless nodes have no identity (duplicates are caught at write time).
    """
    if node.key is None:
        return None
    head = registry.conflict_head(node.domain, node.type, node.key)
    return head if head[0] == "one" else (*head, node.value_identity())
