"""The in-memory vector search above ``EXACT_UP_TO`` vectors: the sign-bit prefilter keeps
the nearest by Hamming distance (ties at its radius included), and the search through it
finds what scoring every vector finds when the nearest stand apart from the rest.

The thresholds are lowered so a few thousand vectors take the path 100k take in a store.
"""

from __future__ import annotations

import numpy as np
import pytest

from ekko_memory.service.semantic import vector_index as vi
from ekko_memory.service.semantic.vector_index import VectorIndex, unit
from ekko_memory.store.vectors import VectorRow, quantize

pytest.importorskip("simsimd")  # the prefilter runs on simsimd's Hamming distances

DIM = 64


def filled(vectors: np.ndarray) -> VectorIndex:
    """An index holding ``vectors`` as nodes n0, n1, …"""
    index = VectorIndex("test-model", DIM)
    q, scales = quantize(vectors.astype(np.float32))
    index.add(
        [
            VectorRow(f"n{i}", "test-model", DIM, "h", float(scales[i]), q[i].tobytes(), i + 1)
            for i in range(len(vectors))
        ]
    )
    return index


def hamming(bits: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Hamming distances of packed rows to ``q``'s sign bits, in numpy."""
    return np.unpackbits(bits ^ np.packbits(q > 0), axis=1).sum(axis=1)


@pytest.fixture
def vectors() -> np.ndarray:
    rng = np.random.default_rng(3)
    v = rng.standard_normal((3000, DIM))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_prefilter_keeps_the_nearest_sign_bits_in_row_order(vectors: np.ndarray) -> None:
    index = filled(vectors)
    bits = index._bits[: index._n]
    query, _ = index.query_parts(unit(vectors[7] + 0.3 * vectors[8]))
    for count in (1, 50, 300, 1000):
        rows = VectorIndex._by_bits(bits, query, count)
        assert len(rows) >= count
        assert np.all(np.diff(rows) > 0)  # increasing: the gather reads forwards
        d = hamming(bits, query)
        kept = np.zeros(len(d), dtype=bool)
        kept[rows] = True
        # Nothing left out is nearer than anything kept.
        assert d[~kept].min() >= d[kept].max()
        # Ties at the radius are taken whole, unless that makes more than 1.5 × count.
        assert len(rows) <= count + count // 2 or len(rows) == count
    assert len(VectorIndex._by_bits(bits, query, 5000)) == len(bits)


def test_search_through_the_prefilter_finds_what_exact_scoring_finds(
    vectors: np.ndarray, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(5)
    # Five memories close to one direction, the other 3000 anywhere.
    target = vectors[11]
    near = [unit(target + 0.15 * rng.standard_normal(DIM)) for _ in range(5)]
    index = filled(np.vstack([vectors, np.array(near)]))
    monkeypatch.setattr(vi, "EXACT_UP_TO", 10**9)
    exact = index.nearest(target, 6, -1.0)
    monkeypatch.setattr(vi, "EXACT_UP_TO", 500)
    monkeypatch.setattr(vi, "PREFILTER", 300)
    through = index.nearest(target, 6, -1.0)
    assert [i for i, _ in through] == [i for i, _ in exact]
    assert {i for i, _ in through} >= {"n11", "n3000", "n3001", "n3002", "n3003", "n3004"}
    assert [s for _, s in through] == sorted((s for _, s in through), reverse=True)
    # An excluded id and the floor apply after the prefilter, as without it.
    monkeypatch.setattr(vi, "EXACT_UP_TO", 10**9)
    exact7 = [i for i, _ in index.nearest(target, 7, -1.0)]
    monkeypatch.setattr(vi, "EXACT_UP_TO", 500)
    without = [i for i, _ in index.nearest(target, 6, -1.0, exclude={"n11"})]
    assert without == [i for i in exact7 if i != "n11"][:6]
    floor = exact[2][1]
    assert [i for i, _ in index.nearest(target, 6, floor)] == [i for i, _ in exact[:3]]
