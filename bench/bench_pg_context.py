"""build_context on PostgreSQL beside SQLite at the same size: p50/p95/p99 and, on
PostgreSQL, the round trips of each turn counted on the wire (libpq's protocol trace,
``tests/pg_wire.py``), keyword path (semantic recall off).

The same synthetic nodes (``datagen.py``) and 40-message session as ``bench_backends.py``
go into both backends; six sentence turns (``bench_backends.TURNS``). Round trips are
counted in the steady state (after a warm-up turn per message) and on a cold turn (the
store's term and topic-size caches emptied first: the most a turn makes).

PostgreSQL is a throwaway loopback cluster (``tests/pg_cluster.py``) unless ``--pg-url``
names a server; ``--keep`` reuses a namespace already filled by an earlier run there.

Run: .venv/bin/python bench/bench_pg_context.py [--nodes 100000] [--pg-url URL] [--no-sqlite]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.pg_cluster

from bench_backends import TURNS, fill
from datagen import make_nodes
from fill import KEYWORD_ONLY
from timing import measure_many, measure_side_by_side

from ekko_memory import MemoryService, open_memory
from ekko_memory.service.context_builder import ContextBuilder
from tests.pg_wire import WireCounter


def turn(mem: MemoryService, text: str) -> Any:
    return mem.build_context("s1", text, user_id="u1", workspace_id="w1")


def forget_counts(mem: MemoryService) -> None:
    """Empty the caches of plan-steering counts (term counts, topic sizes)."""
    for _, store in mem.stores():
        for cache_name in ("term_cache", "topic_sizes"):
            cache = getattr(store.dialect, cache_name, None)
            if cache is not None:
                cache._counts.clear()


def round_trips(mem: MemoryService, wire: WireCounter) -> dict[str, Any]:
    steady, cold = [], []
    for text in TURNS:
        turn(mem, text)
        mark = wire.mark()
        turn(mem, text)
        steady.append(wire.since(mark))
    for text in TURNS:
        forget_counts(mem)
        mark = wire.mark()
        turn(mem, text)
        cold.append(wire.since(mark))
    return {
        "steady_per_turn": steady,
        "steady_max": max(steady),
        "cold_per_turn": cold,
        "cold_max": max(cold),
    }


def timed(mem: MemoryService, rounds: int) -> dict[str, float]:
    return measure_many([lambda t=t: turn(mem, t) for t in TURNS], rounds=rounds)


def batched(on: bool) -> None:
    ContextBuilder.batch_postgres = on


def postgres_sides(
    mem: MemoryService, wire: WireCounter, rounds: int, block: int
) -> dict[str, Any]:
    """The batched read and the reads one by one (the code before it), round trips and
    timings in alternating blocks (``timing.measure_side_by_side``: a machine that speeds
    up or slows down during the run shifts both alike)."""
    out: dict[str, Any] = {}
    for label, on in (("one_by_one", False), ("batched", True)):
        batched(on)
        out[label] = {"round_trips": round_trips(mem, wire)}

    def side(on: bool) -> list[Any]:
        def run(text: str) -> Any:
            batched(on)
            return turn(mem, text)

        return [lambda t=t: run(t) for t in TURNS]

    timings = measure_side_by_side(
        {"one_by_one": side(False), "batched": side(True)}, rounds=rounds, block=block
    )
    batched(True)
    for label, summary in timings.items():
        out[label]["build_context_ms"] = {k: v for k, v in summary.items() if k != "each"}
        out[label]["per_turn_p50_ms"] = [each["p50"] for each in summary["each"]]
    return out


def run_postgres(args: argparse.Namespace) -> dict[str, Any]:
    cluster = None
    url = args.pg_url
    if url is None:
        from tests.pg_cluster import start_cluster

        cluster = start_cluster(autovacuum=True)
        url = cluster.url
    wire = WireCounter()
    try:
        with wire:
            mem = open_memory(url=url, namespace=args.namespace, config=KEYWORD_ONLY)
        assert all(h.status == "ok" for h in mem.health().values()), mem.health()
        if not args.keep:
            print(f"[postgres] filling {args.nodes} nodes…", file=sys.stderr, flush=True)
            fill(mem, make_nodes(args.nodes))
        out = postgres_sides(mem, wire, args.rounds, args.block)
        print(json.dumps(out), file=sys.stderr, flush=True)
        mem.close()
        return out
    finally:
        wire.close()
        if cluster is not None:
            cluster.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--pg-url", default=None)
    ap.add_argument("--namespace", default="ctxbench")
    ap.add_argument("--keep", action="store_true", help="reuse a filled namespace")
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--block", type=int, default=10)
    ap.add_argument("--no-sqlite", action="store_true")
    ap.add_argument("--no-postgres", action="store_true")
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "pg_context.json"
    )
    args = ap.parse_args()
    results: dict[str, Any] = {"nodes": args.nodes, "turns": TURNS, "rounds": args.rounds}

    if not args.no_postgres:
        results["postgres"] = run_postgres(args)
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            mem = open_memory(Path(tmp) / "ws", user_home=Path(tmp) / "home", config=KEYWORD_ONLY)
            print(f"[sqlite] filling {args.nodes} nodes…", file=sys.stderr, flush=True)
            fill(mem, make_nodes(args.nodes))
            results["sqlite"] = {"build_context_ms": timed(mem, args.rounds)}
            mem.close()
    print(json.dumps(results, ensure_ascii=False, indent=2))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
