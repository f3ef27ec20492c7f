"""One store's vectors of one model, held in memory and searched in-process.

The store's table is the truth (``memory_node_vectors``); this is its copy in the
process, refreshed inside a read transaction from the vectors written since (``vid``).
A vector whose node was deleted for good meanwhile may linger until the next full
reload, but it can only name an id: every hit is read back from the store through the
caller's filter, so a gone node is never found.

Similarity is the int8 dot product times both scales: SIMD through ``simsimd`` (1.6 MB,
in the ``semantic`` extra; ~2 ms for 100k vectors of 512 on one quiet core), numpy
otherwise. Above ``EXACT_UP_TO`` vectors a search first ranks the vectors' sign bits by
Hamming distance (64 bytes a vector: 0.45 ms for 100k where the int8 products took 10 ms
on the same busy core) and computes the exact similarity of the best ``PREFILTER`` only,
until lists of similar vectors (``vector_lists``) are made on a thread after a load: a
search then scores the vectors of the lists nearest the query and those added since.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ekko_memory.service.semantic.vector_lists import Lists, make_lists
from ekko_memory.store.vectors import VectorRow, quantize

if TYPE_CHECKING:
    from ekko_memory.store.reader import StoreReader

_simd: Any
try:  # SIMD int8 dot products; the numpy path below gives the same numbers, slower
    import simsimd as _simd
except ImportError:  # pragma: no cover - the semantic extra installs it
    _simd = None

# Vectors read per refresh query.
LOAD_BATCH = 20_000
# How often a refresh also counts the store's vectors, to notice deletes by other
# processes (which leave no new vid to see).
RECOUNT_EVERY_S = 30.0
# Without a commit counter (PostgreSQL), new vectors are looked for at most this often.
CHECK_EVERY_S = 1.0
# Up to this many vectors a search scores every one exactly; beyond, those of the nearest
# lists (``vector_lists``), or until the lists are made the PREFILTER (at least) nearest
# by sign bits.
EXACT_UP_TO = 20_000
PREFILTER = 2_000
# Lists (``vector_lists``) are made again when the vectors added since outnumber this
# share of those in lists; until then the tail is scored exactly.
TAIL_SHARE = 4


def int8_dots(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Dot products of int8 rows with one int8 vector, as float64."""
    if len(matrix) == 0:
        return np.zeros(0)
    if _simd is not None:
        found: np.ndarray = np.asarray(_simd.cdist(query[None, :], matrix, metric="dot"))[0]
        return found
    out = np.empty(len(matrix))
    q = query.astype(np.float32)
    for start in range(0, len(matrix), 65_536):  # bounded float32 copies
        out[start : start + 65_536] = matrix[start : start + 65_536].astype(np.float32) @ q
    return out


class VectorIndex:
    """The vectors of one model in one store, in memory (thread-safe)."""

    def __init__(self, model: str, dim: int) -> None:
        self.model = model
        self.dim = dim
        self.lock = threading.Lock()
        self.last_vid = 0
        self._ids: list[str | None] = []
        self._pos: dict[str, int] = {}
        self._q = np.zeros((0, dim), dtype=np.int8)
        self._bits = np.zeros((0, (dim + 7) // 8), dtype=np.uint8)
        self._scales = np.zeros(0, dtype=np.float32)
        self._n = 0
        self._mark: int | None = None
        self._recounted = 0.0
        self._checked = 0.0
        # One refresh at a time; ``loaded`` once a refresh has completed.
        self.refreshing = threading.Lock()
        self.loaded = False
        # Above EXACT_UP_TO vectors: their lists, made on ``_maker``'s thread; ``_era``
        # changes on clear(), so lists of vectors since forgotten are not installed.
        self._lists: Lists | None = None
        self._maker: threading.Thread | None = None
        self._era = 0

    def __len__(self) -> int:
        return len(self._pos)

    # --- keeping up with the store --------------------------------------------------

    def refresh(self, reader: StoreReader, change_mark: int | None) -> None:
        """Load the vectors written since the last refresh (nothing when ``change_mark``,
        the store's commit counter, has not moved; without one, at most once a second);
        reload all when the store holds fewer than this copy (deletes by another process)."""
        now = time.monotonic()
        if change_mark is not None and change_mark == self._mark:
            return
        if change_mark is None and self.loaded and now - self._checked < CHECK_EVERY_S:
            # A server has no cheap commit counter: look for new vectors at most once a
            # second (they come half a second after their memory anyway), not on every
            # turn (a round trip each).
            return
        self._checked = now
        if now - self._recounted > RECOUNT_EVERY_S:
            self._recounted = now
            count, newest = reader.vector_stats(self.model)
            if count < len(self._pos) or newest < self.last_vid:
                self.clear()
        while True:
            rows = reader.vectors_since(self.model, self.last_vid, LOAD_BATCH)
            if rows:
                self.add(rows)
            if len(rows) < LOAD_BATCH:
                break
        self._mark = change_mark
        self.loaded = True
        self._keep_lists()

    def look_again(self) -> None:
        """The next refresh reads the table (this process wrote vectors to it)."""
        self._checked = 0.0

    def clear(self) -> None:
        """Forget every vector (the next refresh loads them all)."""
        with self.lock:
            self._ids, self._pos, self._n, self.last_vid, self._mark = [], {}, 0, 0, None
            self.loaded = False
            self._lists, self._era = None, self._era + 1
            self._q = np.zeros((0, self.dim), dtype=np.int8)
            self._scales = np.zeros(0, dtype=np.float32)

    def add(self, rows: Sequence[VectorRow]) -> None:
        """Hold ``rows`` (a node's newer vector replaces its older one)."""
        rows = [r for r in rows if r.dim == self.dim]
        if not rows:
            return
        with self.lock:
            need = self._n + len(rows)
            if need > len(self._q):
                size = max(need, 2 * len(self._q), 1024)
                grown = np.zeros((size, self.dim), dtype=np.int8)
                grown[: self._n] = self._q[: self._n]
                bits = np.zeros((size, self._bits.shape[1]), dtype=np.uint8)
                bits[: self._n] = self._bits[: self._n]
                scales = np.zeros(size, dtype=np.float32)
                scales[: self._n] = self._scales[: self._n]
                self._q, self._bits, self._scales = grown, bits, scales
            block = np.frombuffer(b"".join(r.vector for r in rows), dtype=np.int8)
            block = block.reshape(len(rows), self.dim)
            for i, r in enumerate(rows):
                old = self._pos.get(r.node_id)
                if old is not None:
                    self._scales[old] = 0.0
                    self._ids[old] = None
                at = self._n + i
                self._pos[r.node_id] = at
                self._ids.append(r.node_id)
                self._scales[at] = r.scale
            self._q[self._n : need] = block
            self._bits[self._n : need] = np.packbits(block > 0, axis=1)
            self._n = need
            self.last_vid = max(self.last_vid, max(r.vid for r in rows))

    def drop(self, node_ids: Sequence[str]) -> None:
        """Forget these nodes' vectors (deleted for good by this process)."""
        with self.lock:
            for node_id in node_ids:
                at = self._pos.pop(node_id, None)
                if at is not None:
                    self._scales[at] = 0.0
                    self._q[at] = 0
                    self._ids[at] = None

    # --- similarity -----------------------------------------------------------------

    def query_parts(self, query: np.ndarray) -> tuple[np.ndarray, float]:
        """A unit query as int8 components and its scale."""
        q, scales = quantize(query.reshape(1, -1).astype(np.float32))
        return q[0], float(scales[0])

    def nearest(
        self, query: np.ndarray, k: int, floor: float, exclude: set[str] | None = None
    ) -> list[tuple[str, float]]:
        """Up to ``k`` (node id, similarity) at or above ``floor``, most similar first."""
        want = k + len(exclude or ())
        with self.lock:
            n, ids, lists = self._n, self._ids, self._lists
            matrix, bits, scales = self._q[:n], self._bits[:n], self._scales[:n]
        if n == 0:
            return []
        q, qscale = self.query_parts(query)
        rows = None
        if n > EXACT_UP_TO and lists is not None and n - lists.covered <= self._tail_cap(lists):
            spans = lists.spans(unit(query), n)
            # Contiguous rows, scored where they lie; the live scales (a dropped vector's
            # is 0).
            rows = np.concatenate([np.arange(a, b) for a, b in spans])
            sims = np.concatenate([int8_dots(matrix[a:b], q) for a, b in spans])
            sims *= scales.take(rows)
            sims *= qscale
            return self._best(sims, rows, ids, want, k, floor, exclude)
        if n > EXACT_UP_TO and _simd is not None:
            rows = self._by_bits(bits, q, max(PREFILTER, 40 * want))
            # Rows in increasing order: the gather reads the matrix forwards.
            matrix, scales = matrix.take(rows, axis=0), scales.take(rows)
        sims = int8_dots(matrix, q)
        sims *= scales
        sims *= qscale
        return self._best(sims, rows, ids, want, k, floor, exclude)

    @staticmethod
    def _best(
        sims: np.ndarray,
        rows: np.ndarray | None,
        ids: list[str | None],
        want: int,
        k: int,
        floor: float,
        exclude: set[str] | None,
    ) -> list[tuple[str, float]]:
        """The ``k`` best of ``sims`` (of ``rows``, or of every row) at or above ``floor``."""
        if want < len(sims):
            top = np.argpartition(sims, len(sims) - want)[len(sims) - want :]
        else:
            top = np.arange(len(sims))
        order = top[np.argsort(-sims[top])]
        order = order[sims[order] >= floor]
        slots = (rows[order] if rows is not None else order).tolist()
        out = []
        for slot, sim in zip(slots, sims[order].tolist(), strict=True):
            node_id = ids[slot]
            if node_id is not None and not (exclude and node_id in exclude):
                out.append((node_id, sim))
        return out[:k]

    @staticmethod
    def _by_bits(bits: np.ndarray, q: np.ndarray, count: int) -> np.ndarray:
        """Rows (increasing) of at least the ``count`` vectors whose sign bits are nearest
        ``q``'s: every row within the radius that holds ``count``, ties at the radius
        included unless they would make it more than half as many again."""
        if count >= len(bits):
            return np.arange(len(bits))
        qbits = np.packbits(q > 0)
        found = _simd.cdist(qbits[None, :], bits, metric="hamming", dtype="bin8")
        # Distances are whole numbers of bits (at most 512): as uint16, one histogram
        # gives the radius (an argpartition of 57k distances took 1 ms, this ~0.1).
        d = np.asarray(found)[0].astype(np.uint16)
        within = np.cumsum(np.bincount(d))
        radius = int(np.searchsorted(within, count))
        if within[radius] <= count + count // 2:
            return np.flatnonzero(d <= radius)
        inside = np.flatnonzero(d < radius)
        edge = np.flatnonzero(d == radius)[: count - len(inside)]
        return np.sort(np.concatenate([inside, edge]))

    # --- lists ----------------------------------------------------------------------

    @staticmethod
    def _tail_cap(lists: Lists) -> int:
        """The most vectors added since ``lists`` that a search scores exactly."""
        return max(EXACT_UP_TO, lists.covered // TAIL_SHARE)

    def _keep_lists(self) -> None:
        """Make the lists on a thread when there are none yet above EXACT_UP_TO vectors,
        or when the tail has outgrown them (searches go by sign bits meanwhile)."""
        with self.lock:
            lists, n = self._lists, self._n
            if n <= EXACT_UP_TO or (
                lists is not None and n - lists.covered <= self._tail_cap(lists)
            ):
                return
            if self._maker is not None and self._maker.is_alive():
                return
            self._maker = threading.Thread(
                target=self._make_lists_quietly, name="ekko-vector-lists", daemon=True
            )
            self._maker.start()

    def _make_lists_quietly(self) -> None:
        try:
            self.make_lists()
        except Exception:  # pragma: no cover - numpy out of memory: sign bits go on
            pass

    def make_lists(self) -> None:
        """Group the vectors held now into lists and store them list by list (the rows
        reordered into new arrays: a search under way keeps the old ones)."""
        with self.lock:
            # Views, not copies: rows below ``n`` change only to zeros (a drop), which
            # does not matter to where the others go.
            n, era = self._n, self._era
            rows, scales = self._q[:n], self._scales[:n]
        if n == 0:
            return
        lists, order = make_lists(rows, scales)
        del rows, scales
        with self.lock:
            if era != self._era or self._n < n:
                return  # cleared meanwhile
            # What was added meanwhile follows, as the tail; a vector dropped meanwhile
            # moves with its zeros.
            perm = np.concatenate([order, np.arange(n, self._n)])
            now = self._n
            q = np.zeros_like(self._q)
            q[:now] = self._q[perm]
            bits = np.zeros_like(self._bits)
            bits[:now] = self._bits[perm]
            scales_new = np.zeros_like(self._scales)
            scales_new[:now] = self._scales[perm]
            ids = [self._ids[i] for i in perm.tolist()]
            self._q, self._bits, self._scales, self._ids = q, bits, scales_new, ids
            self._pos = {node_id: at for at, node_id in enumerate(ids) if node_id is not None}
            self._lists = lists

    def wait_for_lists(self, timeout_s: float = 60.0) -> None:
        """Wait until lists being made are in place (benchmarks, tests)."""
        maker = self._maker
        if maker is not None:
            maker.join(timeout_s)

    def similarity(self, query: np.ndarray, node_ids: Sequence[str]) -> dict[str, float]:
        """Similarity with ``query`` of those of ``node_ids`` that have a vector here."""
        with self.lock:
            at = [(i, self._pos[i]) for i in node_ids if i in self._pos]
            if not at:
                return {}
            rows = self._q[[p for _, p in at]]
            scales = self._scales[[p for _, p in at]]
        q, qscale = self.query_parts(query)
        sims = int8_dots(rows, q) * scales * qscale
        return {node_id: float(s) for (node_id, _), s in zip(at, sims, strict=True)}

    def vector_of(self, node_id: str) -> np.ndarray | None:
        """A node's vector (float32, unit length up to rounding), if held."""
        with self.lock:
            at = self._pos.get(node_id)
            if at is None:
                return None
            return self._q[at].astype(np.float32) * self._scales[at]  # type: ignore[no-any-return]

    def snapshot(self) -> tuple[np.ndarray, np.ndarray, list[str]]:
        """(int8 rows, scales, ids) of every live vector: a copy, for batch work."""
        with self.lock:
            live = [(node_id, at) for node_id, at in self._pos.items()]
            picks = [at for _, at in live]
            return self._q[picks].copy(), self._scales[picks].copy(), [i for i, _ in live]


def unit(vector: Any) -> np.ndarray:
    """``vector`` as float32 of unit length."""
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    return v / max(float(np.linalg.norm(v)), 1e-12)  # type: ignore[no-any-return]
