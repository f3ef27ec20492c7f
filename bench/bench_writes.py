"""Write benchmark: governed proposals per second (validation, normalization, duplicate
check, permission, node + FTS + audit in one transaction) through ``call_tool``, and forget
latency, on a store already holding N nodes.

Run: .venv/bin/python bench/bench_writes.py [--nodes 100000] [--proposals 10000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from fill import filled_service


def percentiles(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {
        "p50": round(statistics.median(samples), 3),
        "p95": round(samples[int(len(samples) * 0.95) - 1], 3),
        "max": round(samples[-1], 3),
    }


def run(nodes: int, proposals: int, folder: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    mem = filled_service(folder, nodes)
    # The bulk load's rate (synthetic rows made, inserted with FTS, optimize, analyze).
    fill_rate = nodes / (time.perf_counter() - t0)
    s = mem.session("bench", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，以后做饭这些食材都别给我放。")
    created: list[str] = []
    lat = []
    t0 = time.perf_counter()
    for i in range(proposals):
        a = time.perf_counter()
        res = s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "bench",
                "node": {
                    "domain": "生活技能",
                    "type": "preference",
                    "key": "avoid_ingredient",
                    "valueJson": f"食材{i}",
                    "title": f"用户不吃食材{i}",
                    "content": f"推荐菜谱时避免食材{i}。",
                    "entities": [f"食材{i}"],
                },
            },
        )
        lat.append((time.perf_counter() - a) * 1000)
        assert res["accepted"], res
        created.append(res["nodeId"])
    rate = proposals / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for i in range(proposals // 2):
        res = s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "bench",
                "node": {
                    "scope": "workspace",
                    "domain": "项目",
                    "type": "constraint",
                    "key": "coding_rule",
                    "valueJson": f"规则{i}",
                    "title": f"提交前必须通过检查{i}",
                },
            },
        )
        assert res["accepted"], res
    ws_rate = (proposals // 2) / (time.perf_counter() - t0)
    dup = []
    for i in range(200):
        a = time.perf_counter()
        res = s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "bench",
                "node": {
                    "domain": "生活技能",
                    "type": "preference",
                    "key": "avoid_food",
                    "valueJson": f"食材{i}",
                    "title": f"用户不吃食材{i}",
                },
            },
        )
        dup.append((time.perf_counter() - a) * 1000)
        assert res["status"] == "duplicate", res
    s.append_message("user", "忘掉这些食材。")
    by_id, by_description = [], []
    for i in range(200):
        a = time.perf_counter()
        res = s.call_tool("memory_forget", {"id": created[i], "reason": "bench"})
        by_id.append((time.perf_counter() - a) * 1000)
        assert res["deletedIds"] == [created[i]], res
    for i in range(200, 400):
        a = time.perf_counter()
        res = s.call_tool(
            "memory_forget",
            {
                "domain": "生活技能",
                "type": "preference",
                "key": "avoid_ingredient",
                "valueJson": f"食材{i}",
                "reason": "bench",
            },
        )
        by_description.append((time.perf_counter() - a) * 1000)
        assert res["deletedIds"] == [created[i]], res
    hard = []
    for i in range(400, 410):
        a = time.perf_counter()
        mem.actions.delete(created[i], "hard")
        hard.append((time.perf_counter() - a) * 1000)
    mem.close()
    return {
        "nodes": nodes,
        "fill_nodes_per_s": round(fill_rate),
        "governed_user_proposals_per_s": round(rate),
        "governed_workspace_proposals_per_s": round(ws_rate),
        "proposal_ms": percentiles(lat),
        "duplicate_proposal_ms": percentiles(dup),
        "forget_by_id_ms": percentiles(by_id),
        "forget_by_description_ms": percentiles(by_description),
        "hard_delete_with_scrub_ms": percentiles(hard),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, nargs="*", default=[100_000])
    ap.add_argument("--proposals", type=int, default=10_000)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "writes.json")
    args = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.nodes:
            res = run(n, args.proposals, Path(tmp) / str(n))
            results.append(res)
            print(json.dumps(res, ensure_ascii=False))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
