"""Semantic recall for one ``MemoryService``: the embedder, each store's vectors in memory,
and the background indexer that embeds what is written.

The reply's path only ever embeds the user's message (one short text; the local model
takes ~1.5 ms) and reads vectors held in memory. Memories are embedded off that path: a
write tells the indexer which nodes it wrote (``SqlStore.write_listeners``), and the
indexer's thread embeds them in batches and stores their vectors in its own
transactions. Until then those nodes are found by keyword, as before.

Anything that goes wrong here (no model, an endpoint down or slow, a wrong answer) turns
semantic recall off for the turn with a warning in the diagnostics; a turn never fails
or waits past the embedder's ``timeout_s`` for it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ekko_memory.models import ReindexReport
from ekko_memory.service.progress import CancelToken, ProgressCallback, Reporter
from ekko_memory.service.semantic.embedders import (
    Breaker,
    Embedder,
    EmbeddingFailed,
    HttpEmbedder,
    LocalEmbedder,
    local_model_loaded,
    warm_local_model,
)
from ekko_memory.service.semantic.vector_index import VectorIndex, int8_dots
from ekko_memory.store.vectors import encode_rows, node_text, text_hash

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService
    from ekko_memory.store.reader import StoreReader
    from ekko_memory.store.sql_store import SqlStore

StoreName = Literal["workspace", "user"]
# Texts embedded per batch by the indexer (and per transaction that stores them), in
# calls of EMBED_CHUNK texts (the model's fastest size here: 427 texts/s against 123 for
# 64 at once, on a busy machine).
EMBED_BATCH = 64
EMBED_CHUNK = 8
# Query vectors remembered (the same message asked again, a retry).
QUERY_CACHE = 256
# Passages embedded on the turn for candidates not indexed yet, remembered by text; at
# most PASSAGES_PER_TURN a turn (~1.5 ms each).
PASSAGE_CACHE = 4096
PASSAGES_PER_TURN = 8
# How often the indexer looks for nodes nobody told it about (written by another process).
SWEEP_EVERY_S = 300.0
# How long the indexer gathers what writes tell it before embedding.
GATHER_S = 0.5


class QueryVector:
    """A message's embedding, possibly still on its way (an endpoint's answer)."""

    def __init__(self, value: np.ndarray | None = None, future: Future[np.ndarray] | None = None):
        self._value = value
        self._future = future
        self.error: str | None = None

    def get(self, timeout_s: float) -> np.ndarray | None:
        """The vector, or None (with ``error`` set) if it failed or took too long."""
        if self._value is not None or self._future is None:
            return self._value
        try:
            self._value = self._future.result(timeout=timeout_s)
        except FutureTimeout:
            self.error = f"the embedder took longer than {timeout_s:g} s"
        except EmbeddingFailed as e:
            self.error = str(e)
        except Exception as e:  # an embedder's bug
            self.error = f"{type(e).__name__}: {e}"
        self._future = None
        return self._value


class SemanticRecall:
    """The embedder, the vectors of each store in memory, and the indexer thread."""

    def __init__(self, service: MemoryService, embedder: Embedder) -> None:
        self.service = service
        self.embedder = embedder
        self.breaker = Breaker()
        self._indexes: dict[StoreName, VectorIndex] = {}
        self._index_lock = threading.Lock()
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()
        self._passages: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        # An endpoint is asked on a thread, so a turn can stop waiting for it.
        self._pool = (
            ThreadPoolExecutor(max_workers=2, thread_name_prefix="ekko-embed")
            if isinstance(embedder, HttpEmbedder)
            else None
        )
        self.indexer = Indexer(self)
        self._listeners = [(store, self._listener(name)) for name, store in service.stores()]
        for store, listener in self._listeners:
            store.write_listeners.append(listener)

    @property
    def model(self) -> str:
        """The embedder's model id (vectors of other models are not used)."""
        return self.embedder.model_id

    @property
    def floor(self) -> float:
        """The relevance floor: less similar than this is unrelated."""
        return self.embedder.min_similarity

    @property
    def timeout_s(self) -> float:
        """The longest a turn waits for its message's embedding."""
        return self.service.config.embedder.timeout_s

    def _listener(self, name: StoreName) -> Callable[[list[str]], None]:
        def heard(node_ids: list[str]) -> None:
            self.indexer.tell(name, node_ids)

        return heard

    def close(self) -> None:
        """Stop the indexer and the endpoint's threads."""
        for store, listener in self._listeners:
            with contextlib.suppress(ValueError):
                store.write_listeners.remove(listener)
        self.indexer.stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # --- embedding ------------------------------------------------------------------

    def _embed(
        self, texts: Sequence[str], *, as_query: bool, timeout_s: float | None = None
    ) -> np.ndarray:
        if isinstance(self.embedder, HttpEmbedder):
            return self.embedder.embed(texts, as_query=as_query, timeout_s=timeout_s)
        return self.embedder.embed(texts, as_query=as_query)

    def query(self, text: str) -> QueryVector:
        """Start embedding a message (an endpoint's answer arrives while the turn reads
        the store); an empty vector holder with ``error`` when the embedder is paused."""
        self.indexer.start()  # the first turn or search starts it (once)
        with self._cache_lock:
            cached = self._queries.get(text)
            if cached is not None:
                self._queries.move_to_end(text)
                return QueryVector(cached)
        if self.breaker.open():
            holder = QueryVector()
            holder.error = f"paused after an error ({self.breaker.last_error})"
            return holder
        if self._pool is None and not local_model_loaded():
            # A turn does not wait the three seconds the model takes to load (once per
            # process, on the indexer's thread): until then it takes the keyword path,
            # quietly, as it does for memories not embedded yet.
            return QueryVector()

        def compute() -> np.ndarray:
            try:
                vec: np.ndarray = self._embed([text], as_query=True, timeout_s=self.timeout_s)[0]
            except EmbeddingFailed as e:
                self.breaker.failed(str(e))
                raise
            self.breaker.succeeded()
            with self._cache_lock:
                self._queries[text] = vec
                if len(self._queries) > QUERY_CACHE:
                    self._queries.popitem(last=False)
            return vec

        if self._pool is None:
            holder = QueryVector()
            try:
                holder._value = compute()
            except EmbeddingFailed as e:
                holder.error = str(e)
            except Exception as e:  # the model's bug
                holder.error = f"{type(e).__name__}: {e}"
            return holder
        return QueryVector(future=self._pool.submit(compute))

    def passages(self, texts: dict[str, str]) -> dict[str, np.ndarray]:
        """Vectors of node texts (by node id) not indexed yet, embedded now and remembered
        by text; only with the local model (an endpoint is not asked on a turn)."""
        if not texts or self._pool is not None:
            return {}
        out: dict[str, np.ndarray] = {}
        missing: list[tuple[str, str]] = []
        with self._cache_lock:
            for node_id, text in texts.items():
                got = self._passages.get((self.model, text))
                if got is None:
                    missing.append((node_id, text))
                else:
                    out[node_id] = got
        if missing:
            try:
                rows = self._embed([t for _, t in missing], as_query=False)
            except EmbeddingFailed:
                return out
            with self._cache_lock:
                for (node_id, text), row in zip(missing, rows, strict=True):
                    out[node_id] = row
                    self._passages[(self.model, text)] = row
                while len(self._passages) > PASSAGE_CACHE:
                    self._passages.popitem(last=False)
        return out

    # --- the vectors in memory ------------------------------------------------------

    def index(self, name: StoreName) -> VectorIndex:
        """The in-memory vectors of a store (empty until refreshed)."""
        with self._index_lock:
            found = self._indexes.get(name)
            if found is None or found.model != self.model:
                dim = self.embedder.dim or 0
                found = self._indexes[name] = VectorIndex(self.model, dim)
            return found

    def refreshed(
        self, name: StoreName, store: SqlStore, reader: StoreReader
    ) -> VectorIndex | None:
        """The store's vectors, brought up to date inside ``reader``'s transaction; None
        when the embedder's dimension is not known yet (an endpoint not asked yet)."""
        if not self.embedder.dim:
            return None
        index = self.index(name)
        if index.dim != self.embedder.dim:
            with self._index_lock:
                index = self._indexes[name] = VectorIndex(self.model, self.embedder.dim)
        if not index.refreshing.acquire(blocking=False):
            # Another thread is loading (the first load of 100k vectors takes a while):
            # a turn reads what is there, or goes by keyword until the first load is done.
            return index if index.loaded else None
        try:
            index.refresh(reader, store.change_count())
        finally:
            index.refreshing.release()
        return index

    def load_vectors(self) -> None:
        """Bring every store's vectors into memory (on the indexer's thread at start, so
        no turn pays for the first load)."""
        for name, store in self.service.stores():
            if store.health.readable:
                with store.read() as r:
                    self.refreshed(name, store, r)

    def drop(self, name: StoreName, node_ids: Sequence[str]) -> None:
        """Forget vectors of nodes deleted for good here."""
        with self._index_lock:
            index = self._indexes.get(name)
        if index is not None:
            index.drop(node_ids)

    def scored(
        self, name: StoreName, index: VectorIndex | None, query: np.ndarray, rows: Sequence[Any]
    ) -> dict[str, float]:
        """Similarity with ``query`` of candidate rows (anything with id, title, content):
        from their stored vectors, or embedded now when they have none yet."""
        ids = [r.id for r in rows]
        sims = index.similarity(query, ids) if index is not None else {}
        todo = {r.id: node_text(r.title, r.content) for r in rows if r.id not in sims}
        if len(todo) > PASSAGES_PER_TURN:
            # After a bulk import, before the indexer has caught up: a few now, the
            # rest keep their keyword rank.
            todo = dict(list(todo.items())[:PASSAGES_PER_TURN])
        for node_id, vec in self.passages(todo).items():
            sims[node_id] = float(np.dot(vec, query))
        return sims

    # --- near duplicates and reindexing ---------------------------------------------

    def reindex(
        self,
        *,
        force: bool = False,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> ReindexReport:
        """Embed every memory that has no vector of the current model (``force``: all of
        them again), on the calling thread, with progress; vectors of other models are
        removed once the current one covers the store."""
        report = ReindexReport(model=self.model)
        rep = Reporter(progress, cancel)
        if isinstance(self.embedder, LocalEmbedder):
            warm_local_model()
        with self.indexer.paused():
            for name, store in self.service.stores():
                if not store.health.writable:
                    report.warnings.append(f"{name} store {store.health.status}: not reindexed")
                    continue
                if force:
                    with store.write() as w:
                        report.removed[name] = w.delete_vectors(self.model)
                    self.index(name).clear()
                with store.read() as r:
                    total = r.count_missing_vectors(self.model)
                done = 0
                rep(f"{name} memories", 0, total)

                def batch(count: int, name: str = name, total: int = total) -> bool:
                    nonlocal done
                    done += count
                    rep(f"{name} memories", min(done, total), max(total, done))
                    return not rep.cancelled

                try:
                    self.indexer.sweep(name, store, batch)
                except EmbeddingFailed as e:
                    report.warnings.append(f"{name} store: {e}")
                report.cancelled = rep.cancelled
                report.embedded[name] = done
                with store.read() as r:
                    report.remaining[name] = r.count_missing_vectors(self.model)
                if not report.cancelled:
                    stale = self.indexer.drop_other_models(store)
                    report.removed[name] = report.removed.get(name, 0) + stale
                if report.cancelled:
                    break
        return report

    def status(self) -> dict[str, tuple[int, int]]:
        """Per store: (memories with a vector of the current model, memories without)."""
        out: dict[str, tuple[int, int]] = {}
        for name, store in self.service.stores():
            if not store.health.readable:
                continue
            with store.read() as r:
                have, _ = r.vector_stats(self.model)
                out[name] = (have, r.count_missing_vectors(self.model))
        return out

    def all_vectors(self) -> Iterator[tuple[StoreName, SqlStore, VectorIndex]]:
        """Each readable store with its vectors brought up to date."""
        for name, store in self.service.stores():
            if not store.health.readable:
                continue
            with store.read() as r:
                index = self.refreshed(name, store, r)
            if index is not None:
                yield name, store, index


def pair_scores(
    rows: np.ndarray, scales: np.ndarray, block: np.ndarray, block_scales: np.ndarray
) -> np.ndarray:
    """Similarities of every row of ``block`` with every row of ``rows`` (int8 + scales)."""
    out = np.empty((len(block), len(rows)))
    for i, q in enumerate(block):
        out[i] = int8_dots(rows, q) * scales * block_scales[i]
    return out


class Indexer:
    """Embeds written memories on a background thread, in batches."""

    def __init__(self, recall: SemanticRecall) -> None:
        self.recall = recall
        self._lock = threading.Lock()
        self._told: dict[StoreName, list[str]] = {}
        self._sweep: set[StoreName] = {"workspace", "user"}
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._stopping = threading.Event()
        self._pause = threading.Lock()
        self.errors: list[str] = []
        self._thread: threading.Thread | None = None
        self._loading = False

    def start(self) -> None:
        """Start the thread (once): it loads the model and the stores' vectors, then
        embeds whatever has no vector yet."""
        with self._lock:
            if self._thread is not None or self._stopping.is_set():
                return
            self._thread = threading.Thread(
                target=self._run, name="ekko-semantic-indexer", daemon=True
            )
            self._thread.start()
        self._wake.set()

    def tell(self, name: StoreName, node_ids: list[str]) -> None:
        """Nodes a commit wrote: embed them soon."""
        if self._stopping.is_set():
            return  # the next process to run an indexer finds them without a vector
        with self._lock:
            self._told.setdefault(name, []).extend(node_ids)
            self._idle.clear()
        if self._thread is None:
            self.start()
        self._wake.set()

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop the thread (after the batch in progress). A thread still loading the model
        is not waited for: it has nothing to finish, and a command closing its memory
        would wait seconds for it (the daemon thread ends with the process, or stops once
        loaded)."""
        self._stopping.set()
        self._wake.set()
        thread = self._thread
        if thread is not None and not self._loading:
            thread.join(timeout_s)

    def wait_idle(self, timeout_s: float = 30.0) -> bool:
        """Wait until everything told has been embedded (or ``timeout_s``); True if so."""
        if self._thread is None:
            return True
        return self._idle.wait(timeout_s)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """No background batch runs inside (``reindex`` embeds on its caller's thread)."""
        with self._pause:
            yield

    def _run(self) -> None:

        try:
            if isinstance(self.recall.embedder, LocalEmbedder):
                self._loading = True
                try:
                    warm_local_model()  # before the next turn needs it
                finally:
                    self._loading = False
            if self._stopping.is_set():
                return
            self.recall.load_vectors()
        except Exception as e:  # the first turn tries again
            self.errors.append(f"{type(e).__name__}: {e}")
        last_sweep = 0.0
        while not self._stopping.is_set():
            self._wake.wait(timeout=SWEEP_EVERY_S)
            # A burst of writes (an import, an extraction's several memories) is embedded
            # in batches, not one transaction per write beside the writer's own.
            self._stopping.wait(GATHER_S)
            self._wake.clear()
            if self._stopping.is_set():
                break
            if time.monotonic() - last_sweep > SWEEP_EVERY_S:
                self._sweep = {"workspace", "user"}
                last_sweep = time.monotonic()
            try:
                self._work()
            except Exception as e:  # a store that went away, a bug: try again later
                self.errors.append(f"{type(e).__name__}: {e}")
                del self.errors[:-20]
            with self._lock:
                if not self._told and not self._sweep:
                    self._idle.set()

    def _work(self) -> None:
        recall = self.recall
        while not self._stopping.is_set():
            with self._lock:
                told = self._told
                self._told = {}
                sweep, self._sweep = self._sweep, set()
            if not told and not sweep:
                return
            if recall.breaker.open():
                # The endpoint failed a moment ago: try these again after the pause.
                with self._lock:
                    for name, ids in told.items():
                        self._told.setdefault(name, []).extend(ids)
                    self._sweep |= sweep
                self._wake.wait(Breaker.PAUSE_S)
                continue
            for name, store in recall.service.stores():
                if not store.health.writable:
                    continue
                with self._pause:
                    try:
                        if name in sweep:
                            self.sweep(name, store, background=True)
                            if self._stopping.is_set():
                                return
                            self.drop_other_models(store)
                        ids = told.get(name) or []
                        for start in range(0, len(ids), EMBED_BATCH):
                            self.embed_batch(
                                name, store, ids[start : start + EMBED_BATCH], background=True
                            )
                    except EmbeddingFailed as e:
                        recall.breaker.failed(str(e))
                        with self._lock:
                            self._told.setdefault(name, []).extend(told.get(name, []))
                            if name in sweep:
                                self._sweep.add(name)

    def drop_other_models(self, store: SqlStore) -> int:
        """Once no memory lacks the current model's vector, remove other models' vectors
        (a model change is complete); how many went."""
        model = self.recall.model
        with store.read() as r:
            others = [m for m in r.vector_models() if m != model]
            if not others or r.count_missing_vectors(model):
                return 0
        with store.write() as w:
            return sum(w.delete_vectors(m) for m in others)

    def embed_batch(
        self,
        name: StoreName,
        store: SqlStore,
        ids: list[str] | None,
        after_seq: int = 0,
        *,
        background: bool = False,
    ) -> tuple[int, int | None]:
        """Embed up to a batch of ``store``'s nodes without a vector (of ``ids``, or any
        after ``after_seq``) and store their vectors: (how many were stored, the last seq
        looked at, None when there was nothing to embed)."""
        recall = self.recall
        model = recall.model
        with store.read() as r:
            todo = r.nodes_missing_vectors(model, EMBED_BATCH, ids, after_seq)
        if not todo:
            return 0, None
        texts = [node_text(title, content) for _, title, content, _ in todo]
        parts = []
        for start in range(0, len(texts), EMBED_CHUNK):
            parts.append(recall._embed(texts[start : start + EMBED_CHUNK], as_query=False))
            if background:
                # The model's Python parts hold the GIL: the app's event loop (or an async
                # agent's) gets its turn between chunks (a stall of 40 ms became ~10).
                time.sleep(0.001)
        rows = np.concatenate(parts)
        model = recall.model  # an endpoint names its dimension after its first answer
        vectors = encode_rows(
            [node_id for node_id, _, _, _ in todo], [text_hash(t) for t in texts], rows, model
        )
        with store.write() as w:
            stored = w.put_vectors(vectors)
        recall.index(name).look_again()
        return stored, todo[-1][3]

    def sweep(
        self,
        name: StoreName,
        store: SqlStore,
        on_batch: Callable[[int], bool] | None = None,
        *,
        background: bool = False,
    ) -> int:
        """Embed every node of ``store`` without a vector, batch by batch; ``on_batch``
        hears each batch's count and returns False to stop (``background``: so does
        ``stop()``). How many were stored."""
        done, seq = 0, 0
        while not (background and self._stopping.is_set()):
            stored, last = self.embed_batch(name, store, None, seq, background=background)
            if last is None:
                break
            done, seq = done + stored, last
            if on_batch is not None and not on_batch(stored):
                break
        return done
