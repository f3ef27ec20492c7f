"""UTC timestamps stored as fixed-width ISO-8601 text, so text order is time order.

Every date that comes in from outside (a bundle, an agent's ``expiresAt``, the command
line, the app) passes ``storable``: it names its time zone and lies between the years
1000 and 9998. Before 1000 the text is no longer four digits of year (older releases
wrote ``999-01-01…``, which no reader parsed); in 9999 a time zone or a day added runs
past the last date Python can hold. Readers still parse what older releases wrote.
"""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta

_lock = threading.Lock()
_last: datetime | None = None

# The dates the stores hold: from the first instant of year 1000 (UTC) up to, not
# including, the first of year 9999 — a year's room for every time zone and every
# expiry a memory adds to a date.
EARLIEST = datetime(1000, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 1, 1, tzinfo=UTC)
RANGE_TEXT = "from the year 1000 to the year 9998"


def utcnow() -> datetime:
    """Now, in UTC, strictly increasing within this process (ties broken by 1 µs)."""
    global _last
    with _lock:
        now = datetime.now(UTC)
        if _last is not None and now <= _last:
            now = _last + timedelta(microseconds=1)
        _last = now
        return now


def to_utc(value: datetime) -> datetime:
    """Return ``value`` as an aware UTC datetime (naive values are taken as UTC)."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def storable(value: datetime) -> datetime:
    """``value`` in UTC when the stores can hold it; ValueError saying why not otherwise
    (a date without a time zone, or one outside ``EARLIEST``…``LATEST``)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(
            f"{value.isoformat()} has no time zone: add Z (UTC) or an offset such as +08:00"
        )
    try:
        utc = value.astimezone(UTC)
    except OverflowError:
        utc = None
    if utc is None or not EARLIEST <= utc < LATEST:
        raise ValueError(
            f"{value.isoformat()} is outside the dates Ekko Memory stores ({RANGE_TEXT})"
        )
    return utc


# The last UTC time formatted and its text: a write stores one instant several times (the
# node's creation and update, its audit event), ~2.5 µs each. Only times in UTC: two equal
# ones are the same instant (in a zone with summer time, equal local times may not be).
_last_db: tuple[datetime, str] | None = None


def to_db(value: datetime | None) -> str | None:
    """Format a datetime for storage (``2026-12-02T16:24:00.123456Z``; always four digits
    of year, so text order stays time order)."""
    global _last_db
    if value is None:
        return None
    if value.tzinfo is not UTC:
        return to_utc(value).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"
    last = _last_db
    if last is not None and last[0] == value:
        return last[1]
    text = value.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"
    _last_db = (value, text)
    return text


def from_db(value: str | None) -> datetime | None:
    """Parse a stored timestamp back into an aware UTC datetime."""
    if value is None:
        return None
    return from_db_required(value)


def from_db_required(value: str) -> datetime:
    """Parse a stored timestamp from a NOT NULL column.

    Never raises: a reader must survive any row. Text that is no timestamp at all (a file
    edited by hand) reads as ``EARLIEST``; ``odd_dates`` in the store reader counts such
    rows, which ``ekko-memory stats`` reports."""
    try:
        # fromisoformat is C code (~30x faster than strptime) and reads the trailing Z.
        return datetime.fromisoformat(value)
    except (ValueError, TypeError):
        return _lenient(value)


# What older releases wrote for a year before 1000: strftime's %Y without its zeros.
_SHORT_YEAR = re.compile(r"(\d{1,3})(-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d)?)")


def _lenient(value: object) -> datetime:
    found = _SHORT_YEAR.fullmatch(value) if isinstance(value, str) else None
    if found is not None and int(found[1]) > 0:
        try:
            parsed = datetime.fromisoformat(f"{int(found[1]):04d}{found[2]}")
        except ValueError:
            return EARLIEST
        return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)
    return EARLIEST


def local_time(value: datetime) -> datetime:
    """``value`` in the computer's time zone, or in UTC when that zone would take it past
    the last (or first) date Python holds (a date stored by an older release)."""
    try:
        return value.astimezone()
    except (OverflowError, ValueError):
        return value


def parse_iso(value: str) -> datetime:
    """Parse user-supplied ISO-8601 text: a timestamp with ``Z`` or an offset, or a date
    alone (midnight UTC). ValueError for anything else, a timestamp without a time zone,
    or a date outside what the stores hold (``storable``)."""
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"{value!r} is not a date (use YYYY-MM-DD, or ISO 8601 with Z or an offset)"
        ) from None
    if parsed.tzinfo is None and len(text) <= len("2026-01-31"):
        parsed = parsed.replace(tzinfo=UTC)  # a date alone: midnight UTC
    return storable(parsed)
