"""Joining the histories of rival memories an import settled.

When an imported memory and a local one held one value for the same key, the import
kept one current and superseded the other. The loser's chain is linked before the
winner's own versions, as a governed write links a new value after the one it replaces:
the winner's oldest version here that the loser's chain does not share gets the loser as
its older version (``supersedes_id``). Every version of either chain then leads to the
one in use (``head_of``, history, revert), and chains stay linear: one older and one
newer version per version.

The import links inside its own transaction; schema version 10 links what earlier
releases' imports left recorded only in the loser's audit (``supersededBy``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ekko_memory.models import MemoryNode
    from ekko_memory.store.reader import StoreReader
    from ekko_memory.store.writer import StoreWriter

# The actor of an import's audit events (the rivalries it settled are its ``supersede``s).
IMPORT_ACTOR = "import"
# Whether two nodes (a loser, its winner) are values of one memory.
Rivals = Callable[["MemoryNode", "MemoryNode"], bool]


def link_rivals(w: StoreWriter, same: Rivals | None = None) -> int:
    """Inside a write transaction: link each rival an import superseded before the version
    that won over it (see the module docstring); how many were linked. ``same``: whether
    a loser and its winner are two values of one memory (None: every recorded pair is)."""
    linked = 0
    for loser, winner in w.rivals_left_behind(IMPORT_ACTOR):
        links = _links(w, loser, winner, same)
        for node_id, older_id in links:
            w.set_supersedes(node_id, older_id)
        linked += bool(links)
    return linked


def _links(
    r: StoreReader, loser_id: str, winner_id: str, same: Rivals | None
) -> list[tuple[str, str]]:
    """The (version, its new older version) links that put the loser's chain before the
    winner's own versions; none when the two cannot be joined into one line."""
    losers = _versions_back(r, loser_id)
    winners = _versions_back(r, winner_id)
    lost = {v.id for v in losers}
    if not losers or not winners or winner_id in lost or loser_id in {v.id for v in winners}:
        return []  # a version gone, or the two are one chain already
    if same is not None and not same(losers[0], winners[0]):
        return []  # not two values of one memory (a bundle's audit can name any two ids)
    # Newest first: the winner's own versions end where it branched off the loser's chain.
    own = winners[: next((i for i, v in enumerate(winners) if v.id in lost), len(winners))]
    first = own[-1]
    older = first.supersedes_id
    if older is None or older in lost:
        # Its own oldest version (or the one that branched off the loser's chain).
        return [(first.id, loser_id)]
    if older in {v.id for v in own}:
        return []  # a loop: nothing sensible to join
    # The winner's chain goes on in the other store (a memory moved into the user's
    # scope): the loser's chain goes in between, when it has no older version there.
    if losers[-1].supersedes_id is not None:
        return []
    return [(losers[-1].id, older), (first.id, loser_id)]


def _versions_back(r: StoreReader, node_id: str) -> list[MemoryNode]:
    """``node_id`` and its older versions held in this store, newest first."""
    out: list[MemoryNode] = []
    seen: set[str] = set()
    current = r.get_node(node_id)
    while current is not None and current.id not in seen:
        out.append(current)
        seen.add(current.id)
        current = r.get_node(current.supersedes_id) if current.supersedes_id else None
    return out
