"""The semantic stage of one retrieval: the message's vector, the memories nearest to it,
and how related each candidate is (the hybrid ranking's and the relevance floor's input).

Used by ``ContextBuilder`` (a turn) and ``Retriever`` (a query). Whatever fails here
leaves a warning and the keyword path: the stage never raises.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.rows import NodeRow

if TYPE_CHECKING:
    import numpy as np

    from ekko_memory.service.semantic.recall import SemanticRecall, StoreName
    from ekko_memory.service.semantic.vector_index import VectorIndex
    from ekko_memory.store.reader import StoreReader
    from ekko_memory.store.sql_store import SqlStore

# What a keyword match adds to a memory's rank (not to whether it passes the floor: a
# memory that shares only a word with the question scores under it). A match through the
# lexicon's other names (芫荽 → 香菜) is evidence the model lacks: it outranks a memory
# merely about the same topic (~0.05 apart).
KEYWORD_BONUS = 0.1


def store_of(scope: str) -> str | None:
    """The store a scope's memories live in (None: the global seed data)."""
    return "user" if scope == "user" else None if scope == "global" else "workspace"


class SemanticStage:
    """One retrieval's semantic side; ``vector()`` is None when it is off for this one."""

    def __init__(self, recall: SemanticRecall, text: str, warnings: list[str]) -> None:
        self.recall = recall
        self.floor = recall.floor
        self.warnings = warnings
        self._holder = recall.query(text)
        self._vector: np.ndarray | None = None
        self._asked = False
        self.indexes: dict[str, VectorIndex | None] = {}

    def vector(self) -> np.ndarray | None:
        """The message's vector (waiting for it at most the embedder's timeout)."""
        if not self._asked:
            self._asked = True
            self._vector = self._holder.get(self.recall.timeout_s)
            if self._vector is None and self._holder.error:
                self.warnings.append(
                    f"semantic recall off for this turn: {self._holder.error}; keyword search only"
                )
        return self._vector

    def nearest(
        self,
        name: StoreName,
        store: SqlStore,
        r: StoreReader,
        f: NodeFilter,
        limit: int,
        live_at: datetime | None = None,
    ) -> list[tuple[NodeRow, float]]:
        """Up to ``limit`` rows of ``f`` at or above the floor, most similar first, read in
        ``r``'s transaction."""
        q = self.vector()
        if q is None:
            return []
        try:
            index = self.recall.refreshed(name, store, r)
            self.indexes[name] = index
            if index is None:
                return []
            # Twice the limit: room for what the filter leaves out (other users, old versions).
            near = index.nearest(q, limit * 2, self.floor)
            if not near:
                return []
            sims = dict(near)
            rows = r.node_rows_by_id(
                list(sims), f if live_at is None else replace(f, live_at=live_at)
            )
        except Exception as e:  # the keyword path goes on
            self.warnings.append(f"semantic recall failed in the {name} store: {e}")
            self.indexes[name] = None
            return []
        found = sorted(((row, sims[row.id]) for row in rows), key=lambda p: -p[1])
        return found[:limit]

    def nearest_ids(
        self, name: StoreName, store: SqlStore, r: StoreReader, limit: int
    ) -> dict[str, float]:
        """``nearest``'s first half, for a caller that reads the rows itself (a batched
        read): the ids of the ``limit * 2`` memories nearest the message at or above the
        floor, with their similarity (the vectors brought up to date in ``r``)."""
        q = self.vector()
        if q is None:
            return {}
        try:
            index = self.recall.refreshed(name, store, r)
            self.indexes[name] = index
            if index is None:
                return {}
            return dict(index.nearest(q, limit * 2, self.floor))
        except Exception as e:  # the keyword path goes on
            self.warnings.append(f"semantic recall failed in the {name} store: {e}")
            self.indexes[name] = None
            return {}

    @staticmethod
    def nearest_rows(
        rows: Iterable[NodeRow], sims: dict[str, float], limit: int
    ) -> list[tuple[NodeRow, float]]:
        """``nearest``'s second half: the rows the filter let through, most similar first."""
        found = sorted(((row, sims[row.id]) for row in rows), key=lambda p: -p[1])
        return found[:limit]

    def similarity(self, rows: Iterable[tuple[str | None, Any]]) -> dict[str, float]:
        """Similarity of candidates (their store's name, or None for the global one; a row
        or node) with the message: from stored vectors, else embedded now (local model)."""
        q = self.vector()
        if q is None:
            return {}
        by_store: dict[str | None, list[Any]] = {}
        for name, row in rows:
            by_store.setdefault(name, []).append(row)
        out: dict[str, float] = {}
        try:
            for name, group in by_store.items():
                index = self.indexes.get(name) if name is not None else None
                out.update(self.recall.scored(name, index, q, group))  # type: ignore[arg-type]
        except Exception as e:
            self.warnings.append(f"semantic scoring failed: {e}")
        return out


def fuse(
    keyword: Sequence[Any],
    vector: Sequence[tuple[Any, float]],
    sims: dict[str, float],
    floor: float,
) -> tuple[list[tuple[Any, float]], list[str]]:
    """Keyword matches (best first) and vector matches in one ranking by relevance:
    similarity, plus ``KEYWORD_BONUS`` for a keyword match. A keyword match less similar
    than the floor is left out (its id in the second list); one with no vector yet keeps
    its keyword rank, just above the floor. Items are anything with ``id``."""
    scored: dict[str, tuple[Any, float]] = {}
    low: list[str] = []
    for i, item in enumerate(keyword):
        sim = sims.get(item.id)
        if sim is None:
            # No vector yet: found by keyword, ranked by its keyword rank.
            scored[item.id] = (item, floor + KEYWORD_BONUS - 0.001 * i)
        elif sim >= floor:
            scored[item.id] = (item, sim + KEYWORD_BONUS)
        else:
            low.append(item.id)
    for item, sim in vector:
        if item.id not in scored and item.id not in low:
            scored[item.id] = (item, sim)
    ranked = sorted(scored.values(), key=lambda p: -p[1])
    return ranked, low
