"""Recall through the service: the labelled set of embedder_choice.py (data/recall_set.json)
stored as memories, each query asked as a turn's message (``build_context``) and as a
``memory_search`` (``retrieve``), with semantic recall on and off.

Per kind: how often the memory the query is about reaches the context / the relevant list,
and for the queries nothing answers, how many memories the context let in anyway (the
relevance floor's work). Memories alternate between the user store (preferences, facts)
and the workspace store (decisions), as a real store holds them.

Run: .venv/bin/python bench/semantic_recall.py [--out bench/results/semantic_recall.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.core.factories

from ekko_memory import MemoryService, open_memory
from ekko_memory.models import MemoryQuery
from ekko_memory.service.config import EmbedderConfig, MemoryConfig
from tests.core.factories import make_node

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "recall_set.json"
# Memories of the project (decisions) go to the workspace store, the rest to the user's.
PROJECT = {
    "m01",
    "m04",
    "m05",
    "m06",
    "m07",
    "m11",
    "m19",
    "m20",
    "m24",
    "m27",
    "m32",
    "m34",
    "m37",
}


def seeded(folder: Path, data: dict[str, Any], semantic: bool) -> tuple[MemoryService, dict]:
    config = MemoryConfig(embedder=EmbedderConfig(provider="local" if semantic else "none"))
    mem = open_memory(folder / "ws", user_home=folder / "home", config=config)
    ids = {}
    for key, text in data["memories"].items():
        title, _, content = text.partition("\n")
        if key in PROJECT:
            node = make_node(
                scope="workspace",
                type="decision",
                domain="项目",
                category_path=["项目", "约定"],
                workspace_id="w1",
                user_id=None,
                key=None,
                value_json=None,
                title=title,
                content=content,
                tags=[],
                entities=[],
            )
        else:
            node = make_node(
                scope="user",
                type="fact",
                domain="生活",
                category_path=["生活", "事实"],
                key=None,
                value_json=None,
                title=title,
                content=content,
                tags=[],
                entities=[],
            )
        mem.upsert_node(node)
        ids[key] = node.id
    if mem.semantic is not None:
        mem.reindex()
    return mem, ids


def run(semantic: bool, data: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        mem, ids = seeded(Path(tmp), data, semantic)
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        hits: dict[str, list[int]] = defaultdict(list)
        searched: dict[str, list[int]] = defaultdict(list)
        leaked: list[int] = []
        leaked_titles: list[str] = []
        for item in data["queries"]:
            ctx = s.build_context(item["q"])
            found = mem.retrieve(
                MemoryQuery(query_text=item["q"], user_id="u1", workspace_id="w1", limit=5)
            )
            if item["kind"] == "none":
                # The profile-like sections (preferences, tasks) have their own rules;
                # what the floor governs: facts, decisions and the relevant memories.
                extra = [*ctx.facts, *ctx.relevant_nodes]
                leaked.append(len(extra))
                leaked_titles += [f"{item['q']} → {n.title}" for n in extra]
                continue
            target = ids[item["target"]]
            hits[item["kind"]].append(int(target in ctx.used_memory_ids))
            searched[item["kind"]].append(int(target in [n.id for n in found.relevant]))
        mem.close()
    return {
        "context_recall": {k: round(sum(v) / len(v), 3) for k, v in sorted(hits.items())},
        "search_recall@5": {k: round(sum(v) / len(v), 3) for k, v in sorted(searched.items())},
        "unanswerable_queries_with_memories_in_context": sum(1 for n in leaked if n),
        "memories_let_in_for_unanswerable_queries": sum(leaked),
        "let_in": leaked_titles,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=HERE / "results" / "semantic_recall.json")
    args = ap.parse_args()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    report = {"semantic_off": run(False, data), "semantic_on": run(True, data)}
    print(json.dumps(report, ensure_ascii=False, indent=2))
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
