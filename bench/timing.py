"""Small timing helpers: percentiles in milliseconds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def measure(fn: Callable[[], Any], repeat: int = 200, warmup: int = 10) -> dict[str, float]:
    """p50/p95/mean of ``fn()`` in milliseconds."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return {
        "p50": round(statistics.median(samples), 3),
        "p95": round(samples[int(len(samples) * 0.95) - 1], 3),
        "mean": round(statistics.fmean(samples), 3),
    }


def measure_many(fns: list[Callable[[], Any]], rounds: int = 20) -> dict[str, float]:
    """Percentiles over every call of several functions (e.g. one per query)."""
    for fn in fns:
        fn()
    samples = []
    for _ in range(rounds):
        for fn in fns:
            t0 = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return {
        "p50": round(statistics.median(samples), 3),
        "p95": round(samples[int(len(samples) * 0.95) - 1], 3),
        "mean": round(statistics.fmean(samples), 3),
    }


def ratio(a: dict[str, float], b: dict[str, float]) -> float:
    """p50 ratio a/b."""
    return round(a["p50"] / b["p50"], 2) if b["p50"] else float("inf")
