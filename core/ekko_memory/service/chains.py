"""Whole supersede chains for bulk work: export and purge take every version of a memory.

A chain can cross stores (a session memory promoted to a user memory keeps a link to
its older version in the workspace file), so the closure walks both stores until it
stops growing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ekko_memory.models import StoreName

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService


def chain_closure(service: MemoryService, seeds: Iterable[str]) -> dict[StoreName, set[str]]:
    """Every version of every chain touching ``seeds``, by the store that holds it."""
    stores = [(name, store) for name, store in service.stores() if store.health.readable]
    everything = set(seeds)
    frontier = set(everything)
    while frontier:
        found: set[str] = set()
        for _, store in stores:
            with store.read() as r:
                found |= r.chain_neighbours(frontier)
        frontier = found - everything
        everything |= frontier
    out: dict[StoreName, set[str]] = {}
    for name, store in stores:
        with store.read() as r:
            out[name] = r.existing_ids("memory_nodes", everything)
    return out


def chain_groups(node_links: dict[str, str | None]) -> list[list[str]]:
    """Split node ids into chains (``node_links``: id → the id it supersedes, or None).

    Versions whose older version is outside the map start a chain of their own.
    """
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    for node_id, older in node_links.items():
        parent.setdefault(node_id, node_id)
        if older is not None and older in node_links:
            parent.setdefault(older, older)
            parent[root(node_id)] = root(older)
    groups: dict[str, list[str]] = {}
    for node_id in node_links:
        groups.setdefault(root(node_id), []).append(node_id)
    return list(groups.values())
