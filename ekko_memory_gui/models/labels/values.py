"""Values and times on one line: a memory's value, pretty JSON, local, short, full and
relative times."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ekko_memory_gui.qt import QCoreApplication as _Q


def value_text(value: Any) -> str:
    """A value on one line: strings as they are, lists joined, objects as key: value."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return "、".join(value_text(v) for v in value)
    if isinstance(value, dict):
        return " · ".join(f"{k}: {value_text(v)}" for k, v in value.items())
    return json.dumps(value, ensure_ascii=False)


def pretty_json(value: Any) -> str:
    """Pretty-printed JSON (Chinese kept readable)."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False)


def local(dt: datetime) -> datetime:
    """A UTC time in the machine's time zone."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    try:
        return dt.astimezone()
    except (OverflowError, ValueError):
        # An older release stored a date at the edge of what Python holds (9999-12-31):
        # shown in UTC rather than not at all.
        return dt


def short_time(dt: datetime | None, now: datetime | None = None) -> str:
    """Compact: the time today, month-day this year, else the date."""
    if dt is None:
        return "—"
    dt = local(dt)
    now = local(now or datetime.now(UTC))
    if dt.date() == now.date():
        return dt.strftime("%H:%M")
    if dt.year == now.year:
        return dt.strftime("%m-%d %H:%M")
    return dt.strftime("%Y-%m-%d")


def full_time(dt: datetime | None) -> str:
    """Date and time to the second, local."""
    return "—" if dt is None else local(dt).strftime("%Y-%m-%d %H:%M:%S")


def relative_time(dt: datetime, now: datetime | None = None) -> str:
    """“in 3 h”, “2 d ago”…, translated."""
    now = now or datetime.now(UTC)
    seconds = (dt - now).total_seconds()
    future = seconds > 0
    s = abs(seconds)
    if s < 60:
        amount = _Q.translate("MemoryLabels", "{n} s").format(n=int(s))
    elif s < 3600:
        amount = _Q.translate("MemoryLabels", "{n} min").format(n=int(s // 60))
    elif s < 86400:
        amount = _Q.translate("MemoryLabels", "{n} h").format(n=int(s // 3600))
    else:
        amount = _Q.translate("MemoryLabels", "{n} d").format(n=int(s // 86400))
    return (
        _Q.translate("MemoryLabels", "in {amount}").format(amount=amount)
        if future
        else _Q.translate("MemoryLabels", "{amount} ago").format(amount=amount)
    )
