"""Short-lived caches of counts that steer query plans (how many nodes hold a word, how
large a topic is), never what a query returns.

Counting a search term walks its postings: free for a rare word, ~0.3 ms for one in 14k
nodes. Only large term counts are cached: they decide no more than whether a word is too
common to rank, and a word in thousands of nodes stays common for minutes. Small counts,
zero included, are counted afresh each time, so a word written a moment ago is found at
once, by this process or any other. Topic sizes pick one of two equivalent statements,
so a stale one costs time, never a result.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

TTL_SECONDS = 300.0
MAX_ENTRIES = 4096
# Term counts from here up are cached (below, counting costs less than a second look).
TERM_COUNTS_FROM = 500
# Topics grow and empty faster than words turn common.
TOPIC_TTL_SECONDS = 60.0
# Guesses checked before use (``PostgresDialect.term_guesses``) may be old.
GUESS_TTL_SECONDS = 3600.0


class CountCache(Generic[K]):
    """Counts from ``cache_from`` up, each kept ``ttl`` seconds; thread-safe."""

    def __init__(
        self,
        *,
        cache_from: int = 0,
        ttl: float = TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._cache_from = cache_from
        self._ttl = ttl
        self._clock = clock
        self._lock = threading.Lock()
        self._counts: dict[K, tuple[int, float]] = {}

    def counts(self, keys: Sequence[K], count: Callable[[list[K]], dict[K, int]]) -> dict[K, int]:
        """The counts of ``keys``: cached ones, and ``count``'s for the rest (remembered)."""
        known, unknown = self.get(keys)
        if unknown:
            fresh = count(unknown)
            self.put(fresh)
            known.update(fresh)
        return known

    def one(self, key: K, count: Callable[[list[K]], dict[K, int]]) -> int:
        """As ``counts``, for one key."""
        known = self.cached(key)
        return known if known is not None else self.counts([key], count)[key]

    def cached(self, key: K) -> int | None:
        """The cached count of ``key``, if any: read without the lock (a dict read is
        atomic; an entry is replaced, never changed), for callers that ask a few every
        turn and build their counting function only when it is missing."""
        entry = self._counts.get(key)
        if entry is not None and entry[1] > self._clock():
            return entry[0]
        return None

    def get(self, keys: Sequence[K]) -> tuple[dict[K, int], list[K]]:
        """The cached counts among ``keys``, and the keys to count."""
        now = self._clock()
        known: dict[K, int] = {}
        unknown: list[K] = []
        with self._lock:
            for key in keys:
                entry = self._counts.get(key)
                if entry is not None and entry[1] > now:
                    known[key] = entry[0]
                else:
                    unknown.append(key)
        return known, unknown

    def put(self, counts: dict[K, int]) -> None:
        """Remember fresh counts (those worth caching)."""
        until = self._clock() + self._ttl
        with self._lock:
            if len(self._counts) > MAX_ENTRIES:
                self._counts.clear()
            for key, count in counts.items():
                if count >= self._cache_from:
                    self._counts[key] = (count, until)
