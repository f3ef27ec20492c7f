"""What the store keeps of a memory's vector (``memory_node_vectors``), and in what form.

A vector is stored as int8 components and one float scale (the component of largest
magnitude over 127): 512 bytes for a 512-dimensional vector, a quarter of float32, with
cosine similarities off by about 0.002. numpy is needed only to encode and decode.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# The longest text embedded for a memory (its title and the start of its content).
MAX_EMBED_CHARS = 1000


def node_text(title: str, content: str) -> str:
    """What a memory's vector says: its title and the start of its content."""
    text = title if not content else f"{title}\n{content}"
    return text[:MAX_EMBED_CHARS]


def text_hash(text: str) -> str:
    """A short digest of an embedded text: a vector whose text changed is embedded again."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


@dataclass(frozen=True)
class VectorRow:
    """A memory's stored vector: int8 components (``vector``) times ``scale``."""

    node_id: str
    model: str
    dim: int
    text_hash: str
    scale: float
    vector: bytes
    vid: int = 0


def quantize(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 components, float32 scales) of float rows: row ≈ components * scale."""
    import numpy as np

    peak = np.abs(rows).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    q = np.rint(rows / scales[:, None]).clip(-127, 127).astype(np.int8)
    return q, scales


def encode_rows(ids: list[str], hashes: list[str], rows: np.ndarray, model: str) -> list[VectorRow]:
    """Stored vectors of unit ``rows`` embedded by ``model`` for the nodes ``ids``."""
    q, scales = quantize(rows)
    dim = int(rows.shape[1])
    return [
        VectorRow(node_id, model, dim, h, float(scales[i]), q[i].tobytes())
        for i, (node_id, h) in enumerate(zip(ids, hashes, strict=True))
    ]
