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


def _encode(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        value, rem = divmod(value, 32)
        chars.append(_ALPHABET[rem])
    return "".join(reversed(chars))


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
    return f"{prefix}_{_encode(now_ms, 10)}{_encode(rand, 16)}"


def is_valid_id(value: object, prefix: str | None = None) -> bool:
    """True when ``value`` is a well-formed id (optionally with the given prefix)."""
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        return False
    return prefix is None or value.startswith(prefix + "_")
