"""Semantic recall benchmark (SQLite): build_context with the semantic stage on and off
beside the raw SQL of the keyword path, the stage alone, the query embedding apart, the
embedding ingest rate and the store's growth, and governed writes with the indexer on.

At each size, one store pair filled by ``fill.py`` (the synthetic corpus of
bench_context.py) gets its vectors from the local model (``mem.reindex()``: the ingest
rate). At 1M, embedding every synthetic text would take a quarter of an hour and measure
nothing new: the first 100k nodes are embedded for real (the ingest rate) and the rest
reuse those vectors in turn (``--real-vectors``), which times the search as well.

Run: .venv/bin/python bench/bench_semantic.py [--sizes 100000 1000000] [--writes 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.pg_cluster

from bench_context import MESSAGES, capture
from fill import filled_service
from timing import measure_side_by_side, ratio

from ekko_memory import MemoryService
from ekko_memory.service.semantic.embedders import LocalEmbedder
from ekko_memory.service.semantic.recall import SemanticRecall
from ekko_memory.store.sqlite_dialect import VOCAB_TABLE
from ekko_memory.store.vectors import VectorRow

# Questions that share no word with the synthetic memories, beside bench_context's.
SEMANTIC_MESSAGES = [*MESSAGES, "晚饭有什么清淡的菜推荐？", "Which database does the backend use?"]


def file_bytes(mem: MemoryService) -> int:
    if not hasattr(mem.paths, "user_db"):
        return 0  # a server's stores
    return sum(
        p.stat().st_size
        for db in (mem.paths.workspace_db, mem.paths.user_db)
        for p in Path(db).parent.glob(Path(db).name + "*")
    )


def embed_all(mem: MemoryService, real: int) -> dict[str, Any]:
    """Vectors for every node: the first ``real`` embedded by the model (timed), the rest
    copies of those in turn. Returns the ingest figures."""
    recall = SemanticRecall(mem, LocalEmbedder())
    recall.indexer.stop()
    mem.semantic = recall
    before = file_bytes(mem)
    t0 = time.perf_counter()
    totals = {}
    for name, store in mem.stores():
        with store.read() as r:
            totals[name] = r.count_missing_vectors(recall.model)
    embedded = 0
    for name, store in mem.stores():
        # Each store's share of the real vectors, as its share of the nodes.
        share = min(totals[name], round(real * totals[name] / max(1, sum(totals.values()))))
        done = 0

        def batch(count: int, share: int = share) -> bool:
            nonlocal done
            done += count
            return done < share

        if share:
            recall.indexer.sweep(name, store, batch)
        embedded += done
    seconds = time.perf_counter() - t0
    copied = 0
    for _name, store in mem.stores():
        with store.read() as r:
            source = r.vectors_since(recall.model, 0, limit=real)
        while source:
            with store.read() as r:
                todo = r.nodes_missing_vectors(recall.model, 20_000)
                hashes = r.vector_texts([t[0] for t in todo])
            if not todo:
                break
            rows = [
                VectorRow(
                    node_id,
                    recall.model,
                    source[i % len(source)].dim,
                    hashes[node_id],
                    source[i % len(source)].scale,
                    source[i % len(source)].vector,
                )
                for i, (node_id, _, _, _) in enumerate(todo)
            ]
            with store.write() as w:
                copied += w.put_vectors(rows)
    for _, store in mem.stores():
        with store.raw() as raw:
            store.dialect.checkpoint(raw)
    after = file_bytes(mem)
    return {
        "embedded": embedded,
        "embed_seconds": round(seconds, 1),
        "ingest_per_s": round(embedded / seconds, 1) if seconds else None,
        "copied_vectors": copied,
        "file_mb_before": round(before / 1e6, 1),
        "file_mb_after": round(after / 1e6, 1),
        "growth_bytes_per_node": round((after - before) / max(1, embedded + copied), 1),
    }


def run(size: int, folder: Path, real: int, block: int) -> dict[str, Any]:
    mem = filled_service(folder, size)
    ingest = embed_all(mem, real)
    recall = mem.semantic
    assert recall is not None
    s = mem.session("s1", user_id="u1", workspace_id="w1")

    def off(text: str) -> Any:
        mem.semantic = None
        try:
            return s.build_context(text)
        finally:
            mem.semantic = recall

    def on(text: str) -> Any:
        return s.build_context(text)  # the message's vector is cached after its first turn

    def on_cold(text: str) -> Any:
        recall._queries.clear()  # the message embedded again, as a new message is
        return s.build_context(text)

    def embed_only(text: str) -> Any:
        recall._queries.clear()
        return recall.query(text).get(5.0)

    # The keyword path's statements, replayed with sqlite3 (as bench_context.py).
    files = {
        "workspace": sqlite3.connect(mem.paths.workspace_db),
        "user": sqlite3.connect(mem.paths.user_db),
    }
    for conn in files.values():
        conn.execute(VOCAB_TABLE)
    if mem.global_store is not None and mem.global_store.engine is not None:
        files["global"] = mem.global_store.engine.raw_connection().driver_connection
    replays = []
    for text in SEMANTIC_MESSAGES:
        off(text)
        recorded = capture(mem, lambda text=text: off(text))

        def replay(recorded: list[tuple[str, str, Any]] = recorded) -> None:
            for name, sql, params in recorded:
                if not sql.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
                    files[name].execute(sql, params).fetchall()

        replays.append(replay)
    for text in SEMANTIC_MESSAGES:
        on(text)  # loads the vectors into memory, caches the message's vector
    for _, _, index in recall.all_vectors():
        index.wait_for_lists()  # made on a thread after the load (a second or two a store)
    timed = measure_side_by_side(
        {
            "keyword_path": [lambda t=t: off(t) for t in SEMANTIC_MESSAGES],
            "semantic_on": [lambda t=t: on(t) for t in SEMANTIC_MESSAGES],
            "semantic_on_with_embedding": [lambda t=t: on_cold(t) for t in SEMANTIC_MESSAGES],
            "query_embedding": [lambda t=t: embed_only(t) for t in SEMANTIC_MESSAGES],
            "raw_sql": replays,
        },
        rounds=60,
        block=block,
    )
    for side in timed.values():
        side.pop("each")
    stage = {
        "p50": round(timed["semantic_on"]["p50"] - timed["keyword_path"]["p50"], 3),
        "mean": round(timed["semantic_on"]["mean"] - timed["keyword_path"]["mean"], 3),
    }
    dinner = s.build_context("晚饭有什么清淡的菜推荐？")
    writes = governed_writes(mem, args_writes) if args_writes else None
    mem.close()
    return {
        "nodes": size,
        "ingest": ingest,
        "ms": timed,
        "semantic_stage_without_embedding_ms": stage,
        "keyword_path_vs_raw_sql": ratio(timed["keyword_path"], timed["raw_sql"]),
        "relevant_for_a_light_dinner": [n.title for n in dinner.relevant_nodes],
        "governed_writes": writes,
    }


def governed_writes(mem: MemoryService, count: int) -> dict[str, Any]:
    """Governed proposals per second with the indexer embedding them in the background,
    and without semantic recall (the same store, alternating halves)."""
    recall = mem.semantic
    out: dict[str, Any] = {}
    s = mem.session("bench", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，以后做饭这些食材都别给我放。")
    for label, semantic in (("off", None), ("on", recall), ("off_again", None)):
        mem.semantic = semantic
        if semantic is not None:
            semantic.indexer._thread = None
            semantic.indexer._stopping.clear()
        t0 = time.perf_counter()
        for i in range(count):
            res = s.call_tool(
                "memory_propose_update",
                {
                    "operation": "create",
                    "reason": "bench",
                    "node": {
                        "domain": "生活技能",
                        "type": "preference",
                        "key": "avoid_ingredient",
                        "valueJson": f"{label}食材{i}",
                        "title": f"用户不吃{label}食材{i}",
                        "entities": [f"{label}食材{i}"],
                    },
                },
            )
            assert res["accepted"], res
        out[f"per_s_{label}"] = round(count / (time.perf_counter() - t0), 1)
        if semantic is not None:
            t0 = time.perf_counter()
            semantic.indexer.wait_idle(600)
            out["indexer_caught_up_after_s"] = round(time.perf_counter() - t0, 2)
            semantic.indexer.stop()
    mem.semantic = recall
    return out


def postgres_round_trips(nodes: int) -> dict[str, Any]:
    """On a throwaway PostgreSQL cluster with ``nodes`` memories, embedded: round trips
    per build_context counted on the wire (``tests/pg_wire.py``: libpq's protocol trace)
    and p50/p99, with the semantic stage off and on."""
    from datagen import make_nodes
    from fill import KEYWORD_ONLY
    from timing import measure_many

    from ekko_memory import open_memory
    from tests.pg_cluster import start_cluster
    from tests.pg_wire import WireCounter

    cluster = start_cluster(autovacuum=True)
    wire = WireCounter()
    try:
        with wire:
            mem = open_memory(url=cluster.url, namespace="semantic", config=KEYWORD_ONLY)
        batch = make_nodes(nodes)
        user = [n for n in batch if n.scope == "user"]
        other = [n for n in batch if n.scope != "user"]
        for store, part in ((mem.user_store, user), (mem.workspace_store, other)):
            for i in range(0, len(part), 2000):
                with store.write() as w:
                    w.insert_nodes(part[i : i + 2000])
            store.analyze()
        embed_all(mem, min(nodes, 20_000))
        recall = mem.semantic
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        out: dict[str, Any] = {"nodes": nodes}
        for label, semantic in (("keyword_path", None), ("semantic_on", recall)):
            mem.semantic = semantic
            for text in SEMANTIC_MESSAGES:
                s.build_context(text)
            trips = []
            for text in SEMANTIC_MESSAGES:
                mark = wire.mark()
                s.build_context(text)
                trips.append(wire.since(mark))
            out[label] = {
                "round_trips_per_turn": trips,
                "ms": measure_many([lambda t=t: s.build_context(t) for t in SEMANTIC_MESSAGES]),
            }
        mem.semantic = recall
        mem.close()
        return out
    finally:
        wire.close()
        cluster.stop()


args_writes = 0


def main() -> None:
    global args_writes
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="*", default=[100_000, 1_000_000])
    ap.add_argument("--real-vectors", type=int, default=100_000)
    ap.add_argument("--writes", type=int, default=2000, help="governed writes per side (0: none)")
    ap.add_argument("--block", type=int, default=10)
    ap.add_argument(
        "--postgres", type=int, default=0, help="also count PostgreSQL round trips at N nodes"
    )
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "semantic.json")
    args = ap.parse_args()
    args_writes = args.writes
    results = []
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        for size in args.sizes:
            res = run(size, Path(tmp) / str(size), args.real_vectors, args.block)
            results.append(res)
            print(json.dumps(res, ensure_ascii=False), flush=True)
    if args.postgres:
        pg = postgres_round_trips(args.postgres)
        results.append({"postgres": pg})
        print(json.dumps(pg, ensure_ascii=False), flush=True)
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
