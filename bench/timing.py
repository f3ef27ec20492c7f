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
    return _summary(samples)


def _summary(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {
        "p50": round(statistics.median(samples), 3),
        "p95": round(samples[int(len(samples) * 0.95) - 1], 3),
        "p99": round(samples[max(0, int(len(samples) * 0.99) - 1)], 3),
        "mean": round(statistics.fmean(samples), 3),
    }


def _timed_round(fns: list[Callable[[], Any]], samples: list[float]) -> None:
    for fn in fns:
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)


def measure_many(fns: list[Callable[[], Any]], rounds: int = 20) -> dict[str, float]:
    """Percentiles over every call of several functions (e.g. one per query)."""
    for fn in fns:
        fn()
    samples: list[float] = []
    for _ in range(rounds):
        _timed_round(fns, samples)
    return _summary(samples)


def measure_side_by_side(
    sides: dict[str, list[Callable[[], Any]]], rounds: int = 80, block: int = 20
) -> dict[str, dict[str, Any]]:
    """As ``measure_many`` for each side, in blocks of ``block`` rounds taken in turns
    (the first side changing every turn). Within a block a side runs alone, as in
    ``measure_many`` (its caches warm); across blocks, a machine that speeds up or slows
    down during the run shifts every side alike, so their ratio holds.

    Each side's summary also lists, under ``each``, the summary of every function (the
    i-th of one side beside the i-th of the other: one user message each)."""
    for fns in sides.values():
        for fn in fns:
            fn()
    samples = {name: [[] for _ in fns] for name, fns in sides.items()}
    names = list(sides)
    for turn in range(max(1, rounds // block)):
        shift = turn % len(names)
        for name in names[shift:] + names[:shift]:
            fns = sides[name]
            for _ in range(block):
                for i, fn in enumerate(fns):
                    t0 = time.perf_counter()
                    fn()
                    samples[name][i].append((time.perf_counter() - t0) * 1000)
    out: dict[str, dict[str, Any]] = {}
    for name, per_fn in samples.items():
        summary: dict[str, Any] = _summary([t for found in per_fn for t in found])
        summary["each"] = [_summary(found) for found in per_fn]
        out[name] = summary
    return out


def ratio(a: dict[str, float], b: dict[str, float]) -> float:
    """p50 ratio a/b."""
    return round(a["p50"] / b["p50"], 2) if b["p50"] else float("inf")
