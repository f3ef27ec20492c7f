"""Words for the core's codes (types, scopes, statuses, rules, audit events) and short
renderings of values and times, translated.

The label tables are built once per language (``reset()`` after a language switch),
because the memory table asks for them for every row.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ekko_memory_gui.qt import QCoreApplication

_cache: dict[str, dict[str, str]] = {}


def _t(text: str) -> str:
    return QCoreApplication.translate("MemoryLabels", text)


def reset() -> None:
    """Forget the built tables (after the UI language changed)."""
    _cache.clear()


def _table(name: str) -> dict[str, str]:
    table = _cache.get(name)
    if table is not None:
        return table
    if name == "type":
        table = {
            "preference": _t("preference"),
            "fact": _t("fact"),
            "decision": _t("decision"),
            "task": _t("task"),
            "recipe": _t("recipe"),
            "skill": _t("skill"),
            "constraint": _t("constraint"),
            "correction": _t("correction"),
        }
    elif name == "scope":
        table = {
            "session": _t("session"),
            "workspace": _t("workspace"),
            "user": _t("user"),
            "global": _t("global"),
        }
    elif name == "status":
        table = {
            "active": _t("active"),
            "superseded": _t("superseded"),
            "expired": _t("expired"),
            "deleted": _t("deleted"),
            "pending": _t("pending"),
            "approved": _t("approved"),
            "rejected": _t("rejected"),
        }
    elif name == "rule":
        table = {
            "user_scope_without_intent": _t("long-term (user scope) without “remember”"),
            "sensitive_data": _t("sensitive personal data"),
            "overwrite_high_confidence": _t("would overwrite a high-confidence memory"),
            "hard_delete": _t("hard delete"),
            "forget_many": _t("forget request matched several memories"),
            "scope_promotion": _t("moves a memory into your long-term scope"),
            "sensitive_delete": _t("deletes sensitive personal data"),
        }
    elif name == "event":
        table = {
            "create": _t("created"),
            "update": _t("updated"),
            "supersede": _t("superseded"),
            "expire": _t("expired"),
            "delete": _t("deleted"),
            "hard_delete": _t("deleted permanently"),
            "restore": _t("restored"),
            "pending": _t("sent to the inbox"),
            "approve": _t("approved"),
            "reject": _t("rejected"),
            "import": _t("imported"),
            "purge": _t("purged"),
            "revert": _t("reverted"),
        }
    elif name == "kind":
        table = {
            "write": _t("Write waiting"),
            "hard_delete": _t("Hard delete waiting"),
            "forget_many": _t("Forget waiting"),
            "scope_promotion": _t("Scope change waiting"),
        }
    elif name == "role":
        table = {
            "user": _t("user"),
            "assistant": _t("assistant"),
            "system": _t("system"),
            "tool": _t("tool"),
        }
    elif name == "actor":
        table = {
            "user": _t("you"),
            "agent": _t("agent"),
            "extractor": _t("extractor"),
            "system": _t("system"),
            "import": _t("import"),
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
        amount = _t("{n} s").format(n=int(s))
    elif s < 3600:
        amount = _t("{n} min").format(n=int(s // 60))
    elif s < 86400:
        amount = _t("{n} h").format(n=int(s // 3600))
    else:
        amount = _t("{n} d").format(n=int(s // 86400))
    return (
        _t("in {amount}").format(amount=amount)
        if future
        else _t("{amount} ago").format(amount=amount)
    )
