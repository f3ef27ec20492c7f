"""Near duplicates: ``mem.similar(node_id)`` and the duplicates report (pairs of active
memories above a similarity threshold), for the app's triage view and the CLI.

Both read the vectors held in memory (``VectorIndex``) and the nodes from their stores;
a memory not embedded yet has no neighbours until the indexer reaches it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from ekko_memory.errors import InvalidInput, NotFound
from ekko_memory.models import DuplicatePair, SimilarMemory
from ekko_memory.service.semantic.vector_index import _simd, int8_dots
from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.reader_base import chunks
from ekko_memory.store.rows import NodeRow

if TYPE_CHECKING:
    from ekko_memory.service.semantic.recall import SemanticRecall

# Pairs at or above this similarity are reported as near duplicates by default (USE:
# a paraphrase of one sentence scores ~0.8, two memories about one topic ~0.5).
DUPLICATE_THRESHOLD = 0.8
# Rows compared at once with every later row by their sign bits (a block's distances are
# PAIR_BLOCK × n float64: 32 × 100k = 26 MB).
PAIR_BLOCK = 32


def similar(recall: SemanticRecall, node_id: str, limit: int = 10) -> list[SimilarMemory]:
    """Active memories nearest ``node_id`` in meaning, most similar first (itself left out)."""
    if not 1 <= limit <= 100:
        raise InvalidInput("limit is 1 to 100")
    node, _ = recall.service.locate(node_id)
    held = list(recall.all_vectors())
    vector = None
    for _, _, index in held:
        vector = index.vector_of(node.id)
        if vector is not None:
            break
    if vector is None:
        found = recall.passages({node.id: f"{node.title}\n{node.content}".strip()})
        vector = found.get(node.id)
    if vector is None:
        raise NotFound(f"{node_id} has no vector yet (semantic recall is still indexing)")
    out: list[SimilarMemory] = []
    for _, store, index in held:
        near = index.nearest(vector, limit * 3, -1.0, exclude={node.id})
        with store.read() as r:
            rows = {row.id: row for row in r.node_rows_by_id([i for i, _ in near], NodeFilter())}
        out += [SimilarMemory(node=rows[i].node(), similarity=s) for i, s in near if i in rows]
    out.sort(key=lambda m: -m.similarity)
    return out[:limit]


def duplicates(
    recall: SemanticRecall, threshold: float = DUPLICATE_THRESHOLD, limit: int = 100
) -> list[DuplicatePair]:
    """Pairs of active memories at or above ``threshold``, most similar first (each store
    with itself and the two stores with each other)."""
    if not 0 < threshold <= 1:
        raise InvalidInput("threshold is above 0 and at most 1")
    if not 1 <= limit <= 10_000:
        raise InvalidInput("limit is 1 to 10000")
    parts = []
    for _, store, index in recall.all_vectors():
        q, scales, ids = index.snapshot()
        active: dict[str, NodeRow] = {}
        with store.read() as r:
            for chunk in chunks(ids):
                active.update((row.id, row) for row in r.node_rows_by_id(chunk, NodeFilter()))
        keep = [i for i, node_id in enumerate(ids) if node_id in active]
        parts.append((q[keep], scales[keep], [ids[i] for i in keep], active))
    if not parts:
        return []
    q = np.concatenate([p[0] for p in parts])
    scales = np.concatenate([p[1] for p in parts])
    ids = [i for p in parts for i in p[2]]
    rows = {k: v for p in parts for k, v in p[3].items()}
    found = [(sim, a, b) for a, b, sim in _pairs_above(q, scales, threshold) if sim >= threshold]
    found.sort(key=lambda f: -f[0])
    found = found[:limit]
    writers = _first_actors(recall, {ids[i] for _, a, b in found for i in (a, b)})
    out = []
    for sim, a, b in found:
        first, second = rows[ids[a]].node(), rows[ids[b]].node()
        out.append(
            DuplicatePair(
                first=first,
                second=second,
                similarity=min(sim, 1.0),
                first_written_by=writers.get(first.id),
                second_written_by=writers.get(second.id),
            )
        )
    return out


def _pairs_above(
    q: np.ndarray, scales: np.ndarray, threshold: float
) -> Iterator[tuple[int, int, float]]:
    """(row, later row, similarity) of the pairs that may reach ``threshold``: candidates
    by the Hamming distance of their sign bits, in blocks of rows against the rows after
    them (100k memories: ~3000 calls instead of 10^10 int8 products), then scored
    exactly. Without simsimd, every pair exactly (small stores)."""
    n = len(q)
    if n < 2:
        return
    if _simd is None:
        for i in range(n - 1):
            sims = int8_dots(q[i + 1 :], q[i]) * scales[i + 1 :] * scales[i]
            for j in np.nonzero(sims >= threshold)[0]:
                yield i, i + 1 + int(j), float(sims[j])
        return
    bits = np.packbits(q > 0, axis=1)
    # Sign bits part at about angle/π of the bits; a generous margin over it.
    angle = float(np.arccos(min(1.0, max(-1.0, threshold))))
    radius = q.shape[1] * angle / np.pi * 1.6 + 16
    for start in range(0, n - 1, PAIR_BLOCK):
        stop = min(n, start + PAIR_BLOCK)
        dist = np.asarray(
            _simd.cdist(bits[start:stop], bits[start:], metric="hamming", dtype="bin8")
        )
        local_rows, cols = np.nonzero(dist <= radius)
        first: np.ndarray = local_rows + start
        second: np.ndarray = cols + start
        later = second > first
        first, second = first[later], second[later]
        if not len(first):
            continue
        dots = np.einsum("ij,ij->i", q[first].astype(np.int32), q[second].astype(np.int32))
        sims = dots * scales[first] * scales[second]
        yield from zip(first.tolist(), second.tolist(), sims.tolist(), strict=True)


def _first_actors(recall: SemanticRecall, node_ids: set[str]) -> dict[str, str]:
    """The actor of each node's earliest audit event (who wrote it)."""
    out: dict[str, str] = {}
    for _, store in recall.service.stores():
        if not store.health.readable:
            continue
        with store.read() as r:
            for node_id in node_ids - set(out):
                events = r.audit_for_node(node_id)
                if events:
                    out[node_id] = min(events, key=lambda e: e.created_at).actor
    return out
