"""Words for the core's codes (types, scopes, statuses, rules, audit events) and short
renderings of values and times, translated.

The label tables are built once per language (``reset()`` after a language switch),
because the memory table asks for them for every row.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ekko_memory_gui.qt import QCoreApplication as _Q

_cache: dict[str, dict[str, str]] = {}


def reset() -> None:
    """Forget the built tables (after the UI language changed)."""
    _cache.clear()


def _table(name: str) -> dict[str, str]:
    table = _cache.get(name)
    if table is not None:
        return table
    if name == "type":
        table = {
            "preference": _Q.translate("MemoryLabels", "preference"),
            "fact": _Q.translate("MemoryLabels", "fact"),
            "decision": _Q.translate("MemoryLabels", "decision"),
            "task": _Q.translate("MemoryLabels", "task"),
            "recipe": _Q.translate("MemoryLabels", "recipe"),
            "skill": _Q.translate("MemoryLabels", "skill"),
            "constraint": _Q.translate("MemoryLabels", "constraint"),
            "correction": _Q.translate("MemoryLabels", "correction"),
        }
    elif name == "scope":
        table = {
            "session": _Q.translate("MemoryLabels", "session"),
            "workspace": _Q.translate("MemoryLabels", "workspace"),
            "user": _Q.translate("MemoryLabels", "user"),
            "global": _Q.translate("MemoryLabels", "global"),
        }
    elif name == "status":
        table = {
            "active": _Q.translate("MemoryLabels", "active"),
            "superseded": _Q.translate("MemoryLabels", "superseded"),
            "expired": _Q.translate("MemoryLabels", "expired"),
            "deleted": _Q.translate("MemoryLabels", "deleted"),
            "pending": _Q.translate("MemoryLabels", "pending"),
            "approved": _Q.translate("MemoryLabels", "approved"),
            "rejected": _Q.translate("MemoryLabels", "rejected"),
        }
    elif name == "rule":
        table = {
            "user_scope_without_intent": _Q.translate(
                "MemoryLabels", "long-term (user scope) without “remember”"
            ),
            "sensitive_data": _Q.translate("MemoryLabels", "sensitive personal data"),
            "overwrite_high_confidence": _Q.translate(
                "MemoryLabels", "would overwrite a high-confidence memory"
            ),
            "hard_delete": _Q.translate("MemoryLabels", "hard delete"),
            "forget_many": _Q.translate("MemoryLabels", "forget request matched several memories"),
            "scope_promotion": _Q.translate(
                "MemoryLabels", "moves a memory into your long-term scope"
            ),
            "sensitive_delete": _Q.translate("MemoryLabels", "deletes sensitive personal data"),
        }
    elif name == "event":
        table = {
            "create": _Q.translate("MemoryLabels", "created"),
            "update": _Q.translate("MemoryLabels", "updated"),
            "supersede": _Q.translate("MemoryLabels", "superseded"),
            "expire": _Q.translate("MemoryLabels", "expired"),
            "delete": _Q.translate("MemoryLabels", "deleted"),
            "hard_delete": _Q.translate("MemoryLabels", "deleted permanently"),
            "restore": _Q.translate("MemoryLabels", "restored"),
            "pending": _Q.translate("MemoryLabels", "sent to the inbox"),
            "approve": _Q.translate("MemoryLabels", "approved"),
            "reject": _Q.translate("MemoryLabels", "rejected"),
            "import": _Q.translate("MemoryLabels", "imported"),
            "purge": _Q.translate("MemoryLabels", "purged"),
            "revert": _Q.translate("MemoryLabels", "reverted"),
        }
    elif name == "kind":
        table = {
            "write": _Q.translate("MemoryLabels", "Write waiting"),
            "hard_delete": _Q.translate("MemoryLabels", "Hard delete waiting"),
            "forget_many": _Q.translate("MemoryLabels", "Forget waiting"),
            "scope_promotion": _Q.translate("MemoryLabels", "Scope change waiting"),
        }
    elif name == "role":
        table = {
            "user": _Q.translate("MemoryLabels", "user"),
            "assistant": _Q.translate("MemoryLabels", "assistant"),
            "system": _Q.translate("MemoryLabels", "system"),
            "tool": _Q.translate("MemoryLabels", "tool"),
        }
    elif name == "actor":
        table = {
            "user": _Q.translate("MemoryLabels", "you"),
            "agent": _Q.translate("MemoryLabels", "agent"),
            "extractor": _Q.translate("MemoryLabels", "extractor"),
            "system": _Q.translate("MemoryLabels", "system"),
            "import": _Q.translate("MemoryLabels", "import"),
        }
    elif name == "origin":
        table = {
            "user_explicit": _Q.translate("MemoryLabels", "the user asked to remember"),
            "user_edit": _Q.translate("MemoryLabels", "written or edited by you"),
            "inferred": _Q.translate("MemoryLabels", "inferred by the agent"),
            "imported": _Q.translate("MemoryLabels", "imported"),
            "seed": _Q.translate("MemoryLabels", "shipped with the app"),
        }
    elif name == "store":
        table = {
            "workspace": _Q.translate("MemoryLabels", "workspace"),
            "user": _Q.translate("MemoryLabels", "user"),
            "global": _Q.translate("MemoryLabels", "global"),
        }
    else:
        table = {}
    _cache[name] = table
    return table


def type_label(value: str) -> str:
    return _table("type").get(value, value)


def scope_label(value: str) -> str:
    return _table("scope").get(value, value)


def status_label(value: str) -> str:
    return _table("status").get(value, value)


def rule_label(value: str) -> str:
    return _table("rule").get(value, value.replace("_", " "))


def event_label(value: str) -> str:
    return _table("event").get(value, value)


def origin_label(value: str) -> str:
    return _table("origin").get(value, value)


def store_label(value: str) -> str:
    return _table("store").get(value, value)


def kind_label(value: str) -> str:
    return _table("kind").get(value, value)


def role_label(value: str) -> str:
    return _table("role").get(value, value)


def actor_label(value: str) -> str:
    return _table("actor").get(value, value)


SCOPE_ORDER = {"session": 0, "workspace": 1, "user": 2, "global": 3}
STATUS_ORDER = {"active": 0, "expired": 1, "superseded": 2, "deleted": 3}


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
    return dt.astimezone()


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
