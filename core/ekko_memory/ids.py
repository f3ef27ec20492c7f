"""Sortable, prefixed identifiers (ULID-style) for every stored record."""

from __future__ import annotations

import os
import re
import threading
import time

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32
_lock = threading.Lock()
_last_ms = 0
_last_rand = 0

PREFIXES = ("msg", "sum", "mem", "aud", "pnd", "use", "job")
ID_PATTERN = re.compile(r"^(msg|sum|mem|aud|pnd|use|job)_[0-9A-HJKMNP-TV-Z]{26}$")


# Two characters (ten bits) at a time, read off the integer from the most significant end
# of the 130-bit number (2 leading zeros + 48 + 80): 13 lookups (base64's b32encode ran a
# Python loop over the bytes and cost ~3× more).
_PAIRS = tuple(a + b for a in _ALPHABET for b in _ALPHABET)
_SHIFTS = tuple(range(120, -1, -10))


def _encode(ms: int, rand: int) -> str:
    """26 Crockford base32 characters: 10 for the 48-bit time, 16 for the 80-bit random."""
    value = ms << 80 | rand
    pairs = _PAIRS
    return "".join([pairs[value >> shift & 1023] for shift in _SHIFTS])


def new_id(prefix: str) -> str:
    """Return a new id like ``mem_01JD...``: time-ordered within a process, unique across processes."""
    global _last_ms, _last_rand
    if prefix not in PREFIXES:
        raise ValueError(f"unknown id prefix {prefix!r}")
    with _lock:
        now_ms = time.time_ns() // 1_000_000
        if now_ms <= _last_ms:
            # Same millisecond (or a clock step back): keep ids increasing.
            now_ms = _last_ms
            _last_rand += 1
        else:
            _last_rand = int.from_bytes(os.urandom(10), "big") >> 1
        _last_ms = now_ms
        rand = _last_rand & ((1 << 80) - 1)
    return f"{prefix}_{_encode(now_ms, rand)}"


def is_valid_id(value: object, prefix: str | None = None) -> bool:
    """True when ``value`` is a well-formed id (optionally with the given prefix)."""
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        return False
    return prefix is None or value.startswith(prefix + "_")
