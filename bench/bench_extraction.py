"""Extraction time per user message: the rule extractor alone (no store), then the whole
after-reply run (extraction through the governed writes, and the summary chain), on the
user messages of the evaluation set (bench/eval/cases).

Run: .venv/bin/python bench/bench_extraction.py [--rounds 3]
Writes bench/results/extraction.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from eval_quality import CASES, load_cases, run_case

from ekko_memory.models import MemoryMessage
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.service.extraction.protocol import ExtractionInput
from ekko_memory.service.extraction.rule_extractor import RuleBasedExtractor

RESULTS = Path(__file__).parent / "results" / "extraction.json"


def percentiles(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    return {
        "p50": round(statistics.median(s), 3),
        "p99": round(s[min(len(s) - 1, int(0.99 * len(s)))], 3),
        "n": len(s),
    }


def extractor_alone(rounds: int) -> dict[str, float]:
    """Per message, the rule extractor reading it (warm: its word lists loaded once)."""
    extractor = RuleBasedExtractor(SchemaRegistry.load())
    texts = [
        m["content"]
        for c in load_cases(CASES)
        for s in c.sessions
        for m in s["messages"]
        if m["role"] == "user"
    ]
    now = datetime(2026, 3, 2, 2, tzinfo=UTC)
    samples: list[float] = []
    for r in range(rounds + 1):
        for i, text in enumerate(texts):
            msg = MemoryMessage(
                id=f"msg_{i}", session_id="s", role="user", content=text, created_at=now
            )
            data = ExtractionInput(
                session_id="s", messages=[msg], previous_summary=None, known_nodes=[], now=now
            )
            t0 = time.perf_counter()
            extractor.extract(data)
            if r:  # the first round warms the caches
                samples.append((time.perf_counter() - t0) * 1000)
    return percentiles(samples)


def after_reply() -> dict[str, float]:
    """Per turn, the whole after-reply run on a fresh workspace per conversation."""
    turns: list[float] = []
    for case in load_cases(CASES):
        turns += run_case(case, None).turn_ms
    return percentiles(turns)


def main() -> int:
    """Measure and write bench/results/extraction.json."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    report: dict[str, Any] = {
        "extractor_ms_per_message": extractor_alone(args.rounds),
        "after_reply_ms_per_turn": after_reply(),
    }
    print(json.dumps(report, indent=2))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
