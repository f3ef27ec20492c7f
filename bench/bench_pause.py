"""What the pause switch costs an agent: the check every turn, every tool call and every
after-reply run makes (``mem.pause_state()``), and a turn's ``build_context`` with memory
on and paused, on a SQLite workspace of a few hundred memories.

The check is read from the stores when anything committed since it was last read (the
stores' change counters say so in ~1 µs) and kept otherwise.

Run: .venv/bin/python bench/bench_pause.py [--nodes 500]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from datagen import make_nodes
from timing import measure

from ekko_memory import open_memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=500)
    args = parser.parse_args()
    # Keyword recall only: the figures are the switch's, not the embedder's.
    os.environ.setdefault("EKKO_EMBEDDER", "none")
    with tempfile.TemporaryDirectory() as tmp:
        mem = open_memory(Path(tmp) / "ws", user_home=Path(tmp) / "home")
        for node in make_nodes(args.nodes):
            mem.upsert_node(node)
        s = mem.session("bench", user_id="u1", workspace_id="w1")
        s.append_message("user", "今晚吃什么？")
        out: dict[str, object] = {"nodes": args.nodes}
        out["pause_state_unchanged_ms"] = measure(mem.pause_state, repeat=2000)
        out["build_context_on_ms"] = measure(lambda: s.build_context("今晚吃什么？"))
        mem.pause()
        out["build_context_paused_ms"] = measure(lambda: s.build_context("今晚吃什么？"))
        out["tool_call_paused_ms"] = measure(
            lambda: s.call_tool("memory_search", {"queryText": "香菜"})
        )
        mem.resume()
        mem.close()
    print(json.dumps(out, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
