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


def clustered(rng: np.random.Generator, count: int, groups: int = 40) -> np.ndarray:
    """``count`` unit vectors around ``groups`` directions (as embeddings of many topics)."""
    centres = rng.standard_normal((groups, DIM))
    v = centres[rng.integers(0, groups, count)] + 0.6 * rng.standard_normal((count, DIM))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_lists_find_what_exact_scoring_finds_and_keep_up_with_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(9)
    vectors = clustered(rng, 4000)
    index = filled(vectors)
    monkeypatch.setattr(vi, "EXACT_UP_TO", 10**9)
    queries = [unit(vectors[i] + 0.2 * rng.standard_normal(DIM)) for i in range(0, 4000, 400)]
    exact = [index.nearest(q, 10, -1.0) for q in queries]
    before = {node_id: index.vector_of(node_id) for node_id in ("n0", "n1", "n3999")}

    monkeypatch.setattr(vi, "EXACT_UP_TO", 500)
    index.make_lists()
    lists = index._lists
    assert lists is not None and lists.covered == 4000
    # Stored list by list; every vector kept under its id.
    assert len(index) == 4000 and sorted(index._pos.values()) == list(range(4000))
    for node_id, vec in before.items():
        assert np.array_equal(index.vector_of(node_id), vec)
    found = [index.nearest(q, 10, -1.0) for q in queries]
    # Each query's own vector is found, and most of the exact ten.
    for e, f in zip(exact, found, strict=True):
        assert f[0] == e[0]
        assert len({i for i, _ in f} & {i for i, _ in e}) >= 8
        assert [s for _, s in f] == sorted((s for _, s in f), reverse=True)

    # A vector added after the lists (the tail) is found; a dropped one is not; a node's
    # new vector replaces its old one.
    new = unit(rng.standard_normal(DIM))
    q8, scales = quantize(np.array([new], dtype=np.float32))
    index.add([VectorRow("fresh", "test-model", DIM, "h", float(scales[0]), q8[0].tobytes(), 9999)])
    assert index.nearest(new, 1, -1.0)[0][0] == "fresh"
    top = found[0][0][0]
    index.drop([top])
    assert top not in {i for i, _ in index.nearest(queries[0], 10, -1.0)}
    index.add([VectorRow("n5", "test-model", DIM, "h", float(scales[0]), q8[0].tobytes(), 10000)])
    assert [i for i, _ in index.nearest(new, 2, -1.0)] in (["fresh", "n5"], ["n5", "fresh"])


def test_lists_are_made_on_refresh_and_dropped_when_the_tail_outgrows_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(4)
    vectors = clustered(rng, 3000)
    q8, scales = quantize(vectors.astype(np.float32))
    rows = [
        VectorRow(f"n{i}", "test-model", DIM, "h", float(scales[i]), q8[i].tobytes(), i + 1)
        for i in range(len(vectors))
    ]

    class Reader:
        """The store's vectors table, as ``refresh`` reads it."""

        def __init__(self) -> None:
            self.held = rows[:2000]

        def vector_stats(self, model: str) -> tuple[int, int]:
            return len(self.held), self.held[-1].vid

        def vectors_since(self, model: str, vid: int, limit: int) -> list[VectorRow]:
            return [r for r in self.held if r.vid > vid][:limit]

    monkeypatch.setattr(vi, "EXACT_UP_TO", 500)
    index = VectorIndex("test-model", DIM)
    reader = Reader()
    index.refresh(reader, 1)  # type: ignore[arg-type]
    index.wait_for_lists()
    assert index._lists is not None and index._lists.covered == 2000
    # 1000 more: past a quarter of those in lists (and EXACT_UP_TO), the lists are made again.
    reader.held = rows
    index.refresh(reader, 2)  # type: ignore[arg-type]
    index.wait_for_lists()
    assert index._lists is not None and index._lists.covered == 3000
    query = unit(vectors[2500])
    assert index.nearest(query, 1, -1.0)[0][0] == "n2500"
    index.clear()
    assert index._lists is None and index.nearest(query, 1, -1.0) == []
