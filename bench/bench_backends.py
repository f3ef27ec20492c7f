"""SQLite and PostgreSQL side by side at the same size: ``build_context`` and CJK search
p50/p95 through the service, plus (PostgreSQL) the full-text design against pg_trgm.

The same synthetic nodes (bench/datagen.py) go into both backends' workspace and user
stores in bulk; then each backend answers the same turns and queries. PostgreSQL is a
throwaway local cluster (tests/pg_cluster.py, durability settings of a test cluster:
fsync off) unless ``--pg-url`` names a server.

Run: .venv/bin/python bench/bench_backends.py [--nodes 100000] [--pg-url URL]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.pg_cluster

from datagen import QUERIES, make_nodes
from fill import KEYWORD_ONLY
from timing import measure_many

from ekko_memory import MemoryService, open_memory
from ekko_memory.ids import new_id
from ekko_memory.models import MemoryMessage, MemoryNode
from ekko_memory.store.search_text import normalize
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.timeutil import utcnow

TURNS = [
    "今晚吃什么？",
    "帮我做一道红烧肉，不要香菜",
    "FastAPI服务怎么部署？",
    "少辣的菜有哪些",
    "what is the deploy budget",
    "番茄炒蛋怎么做",
]


def fill(mem: MemoryService, nodes: list[MemoryNode]) -> float:
    """Insert nodes in 1000-node transactions into the store of their scope; returns nodes/s."""
    by_store: dict[int, tuple[SqlStore, list[MemoryNode]]] = {}
    for node in nodes:
        store = mem.store_for_scope(node.scope)
        by_store.setdefault(id(store), (store, []))[1].append(node)
    t0 = time.perf_counter()
    for store, part in by_store.values():
        for i in range(0, len(part), 1000):
            with store.write() as w:
                w.insert_nodes(part[i : i + 1000])
    elapsed = time.perf_counter() - t0
    for store, _ in by_store.values():
        store.analyze()
    # A session log for the recent-messages part of build_context.
    now = utcnow()
    for i in range(40):
        mem.append_message(
            MemoryMessage(
                id=new_id("msg"),
                session_id="s1",
                role="user" if i % 2 == 0 else "assistant",
                content=f"第{i}轮：我们聊聊做饭和部署",
                created_at=now,
            )
        )
    return len(nodes) / elapsed


def bench_service(mem: MemoryService) -> dict[str, Any]:
    """build_context over several turns, CJK search through the service and one store."""
    build = [lambda t=t: mem.build_context("s1", t, user_id="u1", workspace_id="w1") for t in TURNS]
    search = [lambda q=q: mem.search_nodes(query=q, limit=20) for q in QUERIES]
    store_search = [lambda q=q: mem.user_store.search_nodes(query=q, limit=20) for q in QUERIES]
    return {
        "build_context_ms": measure_many(build, rounds=15),
        "cjk_search_service_ms": measure_many(search, rounds=15),
        "cjk_search_one_store_ms": measure_many(store_search, rounds=15),
    }


def scrub_cost(mem: MemoryService) -> float:
    """Seconds for one hard delete including the scrub (index cleanup) that follows."""
    node = mem.user_store.list_active_nodes(limit=1)[0]
    t0 = time.perf_counter()
    mem.user_store.delete_node(node_id=node.id, mode="hard", reason="bench")
    return round(time.perf_counter() - t0, 3)


def expected_hits(nodes: list[MemoryNode], query: str) -> set[str]:
    """Ground truth: live nodes whose title or content holds every word of the query."""
    from ekko_memory.store.search_text import query_terms

    now = utcnow()
    words = [
        "".join(t.tokens[:1]) + "".join(x[-1] for x in t.tokens[1:]) for t in query_terms(query)
    ]
    out = set()
    for n in nodes:
        if n.expires_at is not None and n.expires_at <= now:
            continue
        hay = normalize(n.title + " " + n.content + " " + " ".join(n.tags + n.entities))
        if all(w in hay for w in words):
            out.add(n.id)
    return out


def fts_vs_trgm(mem: MemoryService, nodes: list[MemoryNode]) -> dict[str, Any]:
    """PostgreSQL: the shipped tsvector design against pg_trgm on the same user store."""
    store = mem.user_store
    assert store.engine is not None
    user_nodes = [n for n in nodes if n.scope == "user"]
    t0 = time.perf_counter()
    with store.engine.connect() as conn:
        conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
        conn.exec_driver_sql(
            "CREATE INDEX IF NOT EXISTS bench_trgm ON memory_nodes USING gin "
            "((title || ' ' || content) public.gin_trgm_ops)"
        )
        conn.exec_driver_sql("ANALYZE memory_nodes")
        conn.commit()
    trgm_build_s = round(time.perf_counter() - t0, 1)

    def trgm(query: str) -> list[str]:
        words = [w for w in query.split() if w]
        clauses = " AND ".join(
            f"(title || ' ' || content) ILIKE %(w{i})s" for i in range(len(words))
        )
        params = {
            f"w{i}": "%" + w.replace("%", r"\%").replace("_", r"\_") + "%"
            for i, w in enumerate(words)
        }
        with store.engine.connect() as conn:  # type: ignore[union-attr]
            rows = conn.exec_driver_sql(
                f"SELECT id FROM memory_nodes WHERE status = 'active' AND {clauses} "
                "ORDER BY updated_at DESC LIMIT 20",
                params,
            ).scalars()
            return list(rows)

    def trgm_all(query: str) -> set[str]:
        words = [w for w in query.split() if w]
        clauses = " AND ".join(
            f"(title || ' ' || content) ILIKE %(w{i})s" for i in range(len(words))
        )
        params = {f"w{i}": "%" + w + "%" for i, w in enumerate(words)}
        with store.engine.connect() as conn:  # type: ignore[union-attr]
            return set(
                conn.exec_driver_sql(
                    f"SELECT id FROM memory_nodes WHERE {clauses}", params
                ).scalars()
            )

    def fts_all(query: str) -> set[str]:
        with store.read() as r:
            from ekko_memory.store.filters import NodeFilter

            return {
                h.node.id for h in r.search_nodes(query, NodeFilter(statuses=None), limit=200_000)
            }

    recall: dict[str, dict[str, float]] = {}
    for q in QUERIES:
        truth = expected_hits(user_nodes, q)
        if not truth:
            continue
        got_fts = fts_all(q)
        got_trgm = trgm_all(q)
        recall[q] = {
            "expected": len(truth),
            "tsvector_bigrams": round(len(truth & got_fts) / len(truth), 3),
            "pg_trgm": round(len(truth & got_trgm) / len(truth), 3),
        }
    timing_fts = measure_many(
        [lambda q=q: store.search_nodes(query=q, limit=20) for q in QUERIES], rounds=10
    )
    timing_trgm = measure_many([lambda q=q: trgm(q) for q in QUERIES], rounds=10)
    with store.engine.connect() as conn:
        sizes = {
            "tsvector_gin_mb": round(
                int(
                    conn.exec_driver_sql(
                        "SELECT pg_relation_size('idx_memory_nodes_fts_doc')"
                    ).scalar()
                    or 0
                )
                / 1e6,
                1,
            ),
            "tsvector_table_mb": round(
                int(
                    conn.exec_driver_sql(
                        "SELECT pg_total_relation_size('memory_nodes_fts')"
                    ).scalar()
                    or 0
                )
                / 1e6,
                1,
            ),
            "trgm_gin_mb": round(
                int(conn.exec_driver_sql("SELECT pg_relation_size('bench_trgm')").scalar() or 0)
                / 1e6,
                1,
            ),
        }
        conn.exec_driver_sql("DROP INDEX bench_trgm")
        conn.commit()
    return {
        "user_store_nodes": len(user_nodes),
        "recall_per_query": recall,
        "tsvector_bigrams_top20_ms": timing_fts,
        "pg_trgm_ilike_top20_ms": timing_trgm,
        "pg_trgm_index_build_s": trgm_build_s,
        **sizes,
    }


def run_backend(name: str, mem: MemoryService, nodes: list[MemoryNode]) -> dict[str, Any]:
    print(f"[{name}] filling {len(nodes)} nodes…", file=sys.stderr, flush=True)
    rate = fill(mem, nodes)
    print(f"[{name}] {rate:.0f} nodes/s; measuring…", file=sys.stderr, flush=True)
    out: dict[str, Any] = {"backend": name, "bulk_insert_nodes_per_s": round(rate)}
    out.update(bench_service(mem))
    out["hard_delete_with_scrub_s"] = scrub_cost(mem)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--pg-url", default=None)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "backends.json")
    args = ap.parse_args()
    nodes = make_nodes(args.nodes)
    results: dict[str, Any] = {
        "nodes": args.nodes,
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "queries": QUERIES,
        "turns": TURNS,
    }
    with tempfile.TemporaryDirectory() as tmp:
        mem = open_memory(Path(tmp) / "ws", user_home=Path(tmp) / "home", config=KEYWORD_ONLY)
        results["sqlite"] = run_backend("sqlite", mem, nodes)
        mem.close()

    cluster = None
    url = args.pg_url
    if url is None:
        from tests.pg_cluster import start_cluster

        cluster = start_cluster(autovacuum=True)
        url = cluster.url
    try:
        mem = open_memory(url=url, namespace="bench", config=KEYWORD_ONLY)
        assert all(h.status == "ok" for h in mem.health().values()), mem.health()
        results["postgres"] = run_backend("postgres", mem, nodes)
        print("[postgres] tsvector vs pg_trgm…", file=sys.stderr, flush=True)
        results["postgres_fts_vs_trgm"] = fts_vs_trgm(mem, nodes)
        with mem.user_store.engine.connect() as conn:  # type: ignore[union-attr]
            results["postgres"]["server"] = conn.exec_driver_sql("SHOW server_version").scalar()
        mem.close()
    finally:
        if cluster is not None:
            cluster.stop()
    print(json.dumps(results, ensure_ascii=False, indent=2))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
