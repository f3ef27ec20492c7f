"""build_context benchmark: p50/p95 at 1k, 10k and 100k nodes, beside the raw SQL it needs
(and, apart, ``MemoryContext.render`` of the contexts it built).

The raw baseline replays, with the sqlite3 module on the same files (and on the
in-memory seed store's own connection), exactly the statements build_context issued (captured from SQLAlchemy's cursor events), fetching
every row — the database work alone, without building Python objects.

Run: .venv/bin/python bench/bench_context.py [--sizes 1000 10000 100000]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from fill import filled_service
from sqlalchemy import event
from timing import measure_many, measure_side_by_side, ratio

from ekko_memory.store.sqlite_dialect import VOCAB_TABLE

MESSAGES = [
    "今晚吃什么？",
    "帮我看看数据库迁移的任务",
    "香菜",
    "What should I cook tonight?",
    "继续",
]


def capture(mem: Any, fn: Any) -> list[tuple[str, str, Any]]:
    """(store, sql, params) of every statement ``fn`` runs: through SQLAlchemy and straight
    through the driver (the store's hot reads use ``dialect.fetch``)."""
    seen: list[tuple[str, str, Any]] = []
    undo = []
    for name, store in (
        ("workspace", mem.workspace_store),
        ("user", mem.user_store),
        ("global", mem.global_store),
    ):

        def hook(
            conn: Any,
            cursor: Any,
            statement: str,
            params: Any,
            context: Any,
            many: bool,
            name: str = name,
        ) -> None:
            seen.append((name, statement, params))

        event.listen(store.engine, "before_cursor_execute", hook)
        original = store.dialect.fetch

        def fetch(
            conn: Any, sql: str, params: Any, name: str = name, original: Any = original, **kw: Any
        ) -> Any:
            seen.append((name, sql, dict(params)))
            return original(conn, sql, params, **kw)

        store.dialect.fetch = fetch
        undo.append((store, hook, original))
    fn()
    for store, hook, original in undo:
        event.remove(store.engine, "before_cursor_execute", hook)
        store.dialect.fetch = original
    return seen


def run(size: int, folder: Path, block: int = 20) -> dict[str, Any]:
    mem = filled_service(folder, size)
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    files = {
        "workspace": sqlite3.connect(mem.paths.workspace_db),
        "user": sqlite3.connect(mem.paths.user_db),
    }
    for conn in files.values():
        # As every store connection has it (keyword search reads term counts from it).
        conn.execute(VOCAB_TABLE)
    if mem.global_store is not None and mem.global_store.engine is not None:
        # The read-only seed store lives in memory: replay on its own (single) connection.
        files["global"] = mem.global_store.engine.raw_connection().driver_connection
    replays = []
    statements = 0
    for text in MESSAGES:
        # Capture what a turn issues in the steady state the API is measured in (the
        # store caches the counts of common words, which cost a statement only once).
        s.build_context(text)
    for text in MESSAGES:
        recorded = capture(mem, lambda text=text: s.build_context(text))
        statements = max(statements, len(recorded))

        def replay(recorded: list[tuple[str, str, Any]] = recorded) -> None:
            for name, sql, params in recorded:
                if sql.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
                    continue
                files[name].execute(sql, params).fetchall()

        replays.append(replay)
    # Blocks of the API and of the replay in turns: drift in the machine's speed during
    # the run (seen here: 15 % within minutes) shifts both sides alike.
    timed = measure_side_by_side(
        {"api": [lambda text=text: s.build_context(text) for text in MESSAGES], "raw": replays},
        rounds=120,
        block=block,
    )
    api, raw = timed["api"], timed["raw"]
    # The same ratio per message (each message's p50 against its own replay's): steadier
    # than the ratio of the pooled p50s, which fall in different messages' ranges.
    per_message = {
        text: {
            "build_context_p50_ms": a["p50"],
            "raw_sql_p50_ms": b["p50"],
            "ratio": ratio(a, b),
        }
        for text, a, b in zip(MESSAGES, api.pop("each"), raw.pop("each"), strict=True)
    }
    ctx = s.build_context("今晚吃什么？")
    # Rendering the context as prompt text (quoting every memory as data) is the agent's
    # next step after build_context: timed apart, on each message's context.
    contexts = [s.build_context(text) for text in MESSAGES]
    rendered = measure_many([c.render for c in contexts], rounds=200)
    mem.close()
    return {
        "nodes": size,
        "build_context_ms": api,
        "raw_sql_ms": raw,
        "ratio": ratio(api, raw),
        "rounds_per_block": block,
        "per_message": per_message,
        "max_message_ratio": max(m["ratio"] for m in per_message.values()),
        "statements_per_call": statements,
        "retrieved_for_dinner": ctx.diagnostics.retrieved_node_count,
        "render_ms": rendered,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "context.json")
    ap.add_argument(
        "--block",
        type=int,
        default=20,
        help="rounds of one side before the other's turn (120: all of one side, then the other)",
    )
    args = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            res = run(size, Path(tmp) / str(size), args.block)
            results.append(res)
            print(json.dumps(res, ensure_ascii=False))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
