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


def canonical_key(registry: SchemaRegistry, domain: str, node_type: str | None, key: str) -> str:
    """The controlled key for a synonym (``disliked_ingredient`` → ``avoid_ingredient``).

    Without a domain (a query that names only a key) the synonym is looked up in every
    domain's rules, of the type first: a synonym with one meaning there is resolved.
    Without a type (a query that names none) a key that some rule allows is that key —
    the 项目 key ``language`` is not the 个人 preference synonym of ``reply_language`` —
    and a synonym is looked up as a preference's first, as most synonyms are.
    """
    k = clean_key(key)
    if node_type is None:
        rules = registry.rules_for(domain) if domain else registry.rules
        if any(k in rule.allowed_keys for rule in rules):
            return k
        node_type = "preference"
    if not domain:
        return _any_domain_key(registry, node_type, k)
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


def _any_domain_key(registry: SchemaRegistry, node_type: str, k: str) -> str:
    for rules in (
        [r for r in registry.rules if r.type == node_type],
        registry.rules,
    ):
        if any(k in r.allowed_keys for r in rules):
            return k
        meanings = {r.key_aliases[k] for r in rules if k in r.key_aliases}
        if len(meanings) == 1:
            return meanings.pop()
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
