"""Prefetch latency of Hermes Agent's memory provider ``ekko`` at 100k memories.

Hermes calls ``prefetch`` once per user turn, on a thread of its own with an 8 s timeout,
and appends the text to the user's message. Measured three ways, five user messages:

- ``first_turn``: the provider's ``prefetch`` for the first turn of a session (nothing
  shown yet in it; the session changes before each call, outside the timing);
- ``later_turn``: the same session again and again (what earlier turns showed is left
  out: the steady state of a conversation);
- ``through_hermes``: Hermes's own ``MemoryManager.prefetch_all`` around it (a thread
  started and joined per call, the context sanitized), first turns.

Also the provider's ``initialize`` (opening the 100k-memory stores) and a turn's
``sync_turn`` (logging both messages, queueing extraction; on Hermes's background
worker). Run in hermes-agent's environment (``make hermes-venv``):

    build/hermes-venv/bin/python bench/bench_hermes.py [--nodes 100000] [--rounds 60]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from fill import filled_service

MESSAGES = [
    "今晚吃什么？",
    "我想做红烧肉，有什么要注意的？",
    "帮我看看数据库迁移的任务",
    "What should I cook tonight?",
    "继续",
]


def summary(samples: list[float]) -> dict[str, float]:
    """p50 / p95 / p99 / mean / max in milliseconds."""
    ordered = sorted(samples)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * p))], 3)

    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered), 3),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "mean": round(statistics.fmean(ordered), 3),
        "max": round(ordered[-1], 3),
    }


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def run(nodes: int, rounds: int, folder: Path) -> dict[str, Any]:
    from agent.memory_manager import MemoryManager

    from ekko_memory.integrations.hermes.provider import EkkoMemoryProvider

    started = time.perf_counter()
    filled_service(folder, nodes).close()
    fill_s = time.perf_counter() - started
    os.environ["EKKO_WORKSPACE"] = str(folder / "ws")
    os.environ["EKKO_HOME"] = str(folder / "home")
    hermes_home = folder / "hermes"
    hermes_home.mkdir()

    provider = EkkoMemoryProvider(config={"extraction": "rules"})
    init_ms = timed(
        lambda: provider.initialize(
            "bench-0", hermes_home=str(hermes_home), platform="cli", agent_context="primary"
        )
    )
    sessions = iter(range(1, 10**9))
    sizes: list[int] = []

    def first_turn(message: str) -> float:
        provider.on_session_switch(f"bench-{next(sessions)}")
        t0 = time.perf_counter()
        text = provider.prefetch(message)
        ms = (time.perf_counter() - t0) * 1000
        sizes.append(len(text))
        return ms

    for message in MESSAGES:  # warm-up
        first_turn(message)
    first = [first_turn(m) for _ in range(rounds) for m in MESSAGES]

    provider.on_session_switch("bench-later")
    later = [timed(lambda m=m: provider.prefetch(m)) for _ in range(rounds) for m in MESSAGES]

    manager = MemoryManager()
    manager.add_provider(provider)

    def through_hermes(message: str) -> float:
        manager.on_session_switch(f"bench-{next(sessions)}")
        return timed(lambda: manager.prefetch_all(message))

    hermes = [through_hermes(m) for _ in range(rounds) for m in MESSAGES]

    provider.on_session_switch("bench-sync")
    sync = []
    for i in range(rounds):
        provider.on_turn_start(i, MESSAGES[i % len(MESSAGES)])
        provider.prefetch(MESSAGES[i % len(MESSAGES)])
        sync.append(timed(lambda i=i: provider.sync_turn(MESSAGES[i % len(MESSAGES)], "好的。")))
    provider.shutdown()
    return {
        "nodes": nodes,
        "fill_s": round(fill_s, 1),
        "initialize_ms": round(init_ms, 1),
        "first_turn": summary(first),
        "later_turn": summary(later),
        "through_hermes": summary(hermes),
        "sync_turn": summary(sync),
        "injected_chars_mean": round(statistics.fmean(sizes), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=60, help="rounds of the five messages")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "hermes.json"))
    args = parser.parse_args()
    import hermes_constants  # noqa: F401  (fails early outside hermes-agent's environment)

    with tempfile.TemporaryDirectory() as tmp:
        result = run(args.nodes, args.rounds, Path(tmp))
    import agent

    result["hermes_agent"] = getattr(agent, "__version__", None) or _version("hermes-agent")
    print(json.dumps(result, indent=2, ensure_ascii=False))
    Path(args.out).write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


if __name__ == "__main__":
    main()
