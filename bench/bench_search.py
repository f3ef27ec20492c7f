"""The agent's search (issue 30): ``retrieve(MemoryQuery)`` and the ``memory_search`` tool
beside the raw SQLite floor in the same run, at 10k and 100k memories (1M with --sizes).

Three questions, top 20, as the agent asks them (user u1, workspace w1, session s1):
keyword + filter (香菜 in 生活技能), metadata only (the domain 生活技能, no words), a key
lookup (avoid_ingredient = 香菜). The raw floor is the plain statement each needs, run
with sqlite3 on both store files (active rows only, no ranking, no conflicts, no
omissions): an FTS5 join ordered by rank, the domain's active rows by importance, the
key's rows by subject. The plan before (``Retriever.bounded = False``) runs beside.
``retrieve`` and ``memory_search`` are measured cold (what each store keeps until it
changes dropped before every call: a question asked for the first time, or after a
write) and warm (the same question again, nothing written between).

A tenth of the memories are superseded and one in 31 expired (by status), so the history
the old plan read is there. Bulk insert rates come from filling the stores.

Run: .venv/bin/python bench/bench_search.py [--sizes 10000 100000]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from fill import filled_service
from timing import measure_side_by_side, ratio

from ekko_memory.models import MemoryQuery
from ekko_memory.store.sqlite_dialect import VOCAB_TABLE

IDS = {"user_id": "u1", "workspace_id": "w1", "session_id": "s1"}
QUESTIONS: dict[str, dict[str, Any]] = {
    "keyword_filter": {"query_text": "香菜", "domain": "生活技能"},
    "metadata_only": {"domain": "生活技能"},
    "key_lookup": {
        "domain": "生活技能",
        "types": ["preference"],
        "key": "avoid_ingredient",
        "value_json": "香菜",
    },
}
NODE = "n.*"
FLOOR: dict[str, tuple[str, dict[str, Any]]] = {
    "keyword_filter": (
        f"SELECT {NODE}, f.rank FROM memory_nodes_fts f JOIN memory_nodes n ON n.seq = f.rowid"
        " WHERE memory_nodes_fts MATCH :q AND n.domain = :d AND n.status = 'active'"
        " ORDER BY f.rank LIMIT 20",
        {"q": '"香菜"', "d": "生活技能"},
    ),
    "metadata_only": (
        "SELECT * FROM memory_nodes n WHERE domain = :d AND status = 'active'"
        " ORDER BY importance DESC, updated_at DESC LIMIT 20",
        {"d": "生活技能"},
    ),
    "key_lookup": (
        "SELECT * FROM memory_nodes n WHERE domain = :d AND subject = :s AND status = 'active'"
        " AND type = 'preference' AND key = 'avoid_ingredient' LIMIT 20",
        {"d": "生活技能", "s": "香菜"},
    ),
}


def age_history(mem: Any) -> None:
    """A tenth superseded and one in 31 expired, as a store that has lived a while."""
    for store in (mem.user_store, mem.workspace_store):
        with store.raw() as raw:
            raw.execute("UPDATE memory_nodes SET status = 'superseded' WHERE seq % 10 = 3")
            raw.execute("UPDATE memory_nodes SET status = 'expired' WHERE seq % 31 = 5")
            store.dialect.analyze(raw)


def run(size: int, folder: Path, rounds: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    mem = filled_service(folder, size)
    fill_s = time.perf_counter() - t0
    age_history(mem)
    session = mem.session("s1", user_id="u1", workspace_id="w1")
    files = [sqlite3.connect(mem.paths.workspace_db), sqlite3.connect(mem.paths.user_db)]
    for conn in files:
        conn.execute(VOCAB_TABLE)
    out: dict[str, Any] = {"nodes": size, "fill_nodes_per_s": round(size / fill_s)}
    for name, fields in QUESTIONS.items():
        q = MemoryQuery(**fields, **IDS)
        tool_args = {
            "queryText" if k == "query_text" else "valueJson" if k == "value_json" else k: v
            for k, v in fields.items()
        }
        sql, params = FLOOR[name]

        def floor(sql: str = sql, params: dict[str, Any] = params) -> None:
            for conn in files:
                conn.execute(sql, params).fetchall()

        def cold() -> None:
            # What a store keeps until it changes (``SqlStore.kept``) is dropped: the
            # question as first asked, or asked after a write.
            for store in (mem.user_store, mem.workspace_store):
                store.forget_kept()

        def new(q: MemoryQuery = q) -> None:
            mem.retriever.bounded = True
            cold()
            mem.retrieve(q)

        def new_warm(q: MemoryQuery = q) -> None:
            mem.retriever.bounded = True
            mem.retrieve(q)

        def old(q: MemoryQuery = q) -> None:
            mem.retriever.bounded = False
            mem.retrieve(q)

        def tool(args: dict[str, Any] = tool_args) -> None:
            mem.retriever.bounded = True
            cold()
            result = session.call_tool("memory_search", args)
            assert "error" not in result, result

        def tool_warm(args: dict[str, Any] = tool_args) -> None:
            mem.retriever.bounded = True
            result = session.call_tool("memory_search", args)
            assert "error" not in result, result

        timed = measure_side_by_side(
            {
                "retrieve": [new],
                "memory_search": [tool],
                "retrieve_warm": [new_warm],
                "memory_search_warm": [tool_warm],
                "raw_floor": [floor],
                "old_plan": [old],
            },
            rounds=rounds,
            block=max(1, rounds // 4),
        )
        mem.retriever.bounded = True
        found = mem.retrieve(q)
        row = {k: {p: v[p] for p in ("p50", "p95", "p99")} for k, v in timed.items()}
        # Cold: the first time a question is asked, or after any write to the store;
        # warm: asked again with no write between (the store's kept answer).
        for side in ("retrieve", "memory_search", "retrieve_warm", "memory_search_warm"):
            row[f"{side}_vs_floor"] = ratio(timed[side], timed["raw_floor"])
        row["old_vs_new"] = ratio(timed["old_plan"], timed["retrieve"])
        row["answer"] = {
            "exact": len(found.exact),
            "relevant": len(found.relevant),
            "omitted": len(found.omitted),
        }
        out[name] = row
        print(size, name, json.dumps(row, ensure_ascii=False), flush=True)
    mem.close()
    for conn in files:
        conn.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "search.json"))
    args = parser.parse_args()
    results = []
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            results.append(run(size, Path(tmp), args.rounds))
    Path(args.out).write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
