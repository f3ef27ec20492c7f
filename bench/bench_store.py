"""Store benchmark: insert rate, filtered active-node query and CJK search at 10k and 100k nodes,
each beside the same query in raw sqlite3 on the same file (ratios from one run).

Run: .venv/bin/python bench/bench_store.py [--sizes 10000 100000]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from datagen import QUERIES, make_nodes
from timing import measure, measure_many, ratio

from ekko_memory.store.filters import NodeFilter
from ekko_memory.store.search_text import fts5_match_expression, query_terms
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.timeutil import to_db, utcnow

RAW_ACTIVE = """
SELECT * FROM memory_nodes
WHERE status = 'active' AND domain = ? AND type = ?
  AND (category_path_text = ? OR (category_path_text >= ? AND category_path_text < ?))
  AND (expires_at IS NULL OR expires_at > ?)
ORDER BY importance DESC, updated_at DESC LIMIT 20
"""

RAW_SEARCH = """
SELECT n.*, f.rank FROM memory_nodes n
JOIN (SELECT rowid AS seq, bm25(memory_nodes_fts, 6.0, 1.0, 3.0, 3.0) AS rank
      FROM memory_nodes_fts WHERE memory_nodes_fts MATCH ?) f ON f.seq = n.seq
WHERE n.status = 'active' AND (n.expires_at IS NULL OR n.expires_at > ?)
ORDER BY f.rank, n.updated_at DESC LIMIT 20
"""


def fill(store: SqlStore, count: int) -> float:
    nodes = make_nodes(count)
    t0 = time.perf_counter()
    for i in range(0, count, 1000):
        with store.write() as w:
            w.insert_nodes(nodes[i : i + 1000])
    elapsed = time.perf_counter() - t0
    store.analyze()
    return count / elapsed


def single_upserts(store: SqlStore, count: int = 500) -> float:
    nodes = make_nodes(count, seed=99)
    t0 = time.perf_counter()
    for node in nodes:
        store.upsert_node(node, actor="bench")
    return count / (time.perf_counter() - t0)


def run(size: int, folder: Path) -> dict[str, object]:
    path = folder / f"bench-{size}.db"
    store = SqlStore.open_sqlite(path)
    bulk_rate = fill(store, size)
    single_rate = single_upserts(store)
    raw = sqlite3.connect(path)
    now = to_db(utcnow())
    prefix = "生活技能/做饭"

    def api_active() -> object:
        return store.list_active_nodes(
            domain="生活技能", category_path=["生活技能", "做饭"], types=["preference"], limit=20
        )

    def raw_active() -> object:
        return raw.execute(
            RAW_ACTIVE, ("生活技能", "preference", prefix, prefix + "/", prefix + "0", now)
        ).fetchall()

    api_search = [lambda q=q: store.search_nodes(query=q, limit=20) for q in QUERIES]
    raw_search = [
        lambda q=q: raw.execute(RAW_SEARCH, (fts5_match_expression(query_terms(q)), now)).fetchall()
        for q in QUERIES
    ]

    def narrow(q: str) -> object:
        # A filter that leaves fewer hits than asked for (one session's project notes):
        # the reader then counts the capped matches to decide on an uncapped rerun.
        with store.read() as r:
            return r.search_nodes(q, NodeFilter(session_id="s7"), limit=20)

    a_active, r_active = measure(api_active), measure(raw_active)
    a_search, r_search = measure_many(api_search), measure_many(raw_search)
    a_narrow = measure_many([lambda q=q: narrow(q) for q in QUERIES])
    raw.close()
    store.close()
    return {
        "nodes": size,
        "bulk_insert_nodes_per_s": round(bulk_rate),
        "single_audited_upserts_per_s": round(single_rate),
        "active_query_ms": a_active,
        "active_query_raw_ms": r_active,
        "active_query_ratio": ratio(a_active, r_active),
        "cjk_search_ms": a_search,
        "cjk_search_raw_ms": r_search,
        "cjk_search_ratio": ratio(a_search, r_search),
        "cjk_search_narrow_filter_ms": a_narrow,
        "file_mb": round(path.stat().st_size / 1e6, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "store.json")
    args = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            res = run(size, Path(tmp))
            results.append(res)
            print(json.dumps(res, ensure_ascii=False))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
