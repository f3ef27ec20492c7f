"""The user's marks on memories and the store's settings (schema 13): reads and writes
inside the caller's transaction.

A mark is ``(kind, node_id, other_id)``: ``pin`` marks one memory (``other_id`` empty),
``not_duplicate`` a pair the user said is no duplicate (ids in sorted order). Marks follow
a memory to its new versions (``carry_marks``) and go with it when it is deleted for good.
A setting is a name and a JSON value (``paused``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from ekko_memory.store import tables as t
from ekko_memory.store.reader_base import chunks
from ekko_memory.timeutil import from_db_required, to_db

PIN = "pin"
NOT_DUPLICATE = "not_duplicate"
m = t.memory_marks
s = t.memory_settings


def pair(a: str, b: str) -> tuple[str, str]:
    """A pair of ids in the order marks keep it."""
    return (a, b) if a <= b else (b, a)


def marked(conn: Connection, kind: str, node_ids: Sequence[str]) -> dict[str, datetime]:
    """Which of ``node_ids`` carry a one-node mark of ``kind``, with when it was put."""
    out: dict[str, datetime] = {}
    for batch in chunks(node_ids):
        rows = conn.execute(
            select(m.c.node_id, m.c.created_at).where(m.c.kind == kind, m.c.node_id.in_(batch))
        ).all()
        out.update((r[0], from_db_required(r[1])) for r in rows)
    return out


def all_marked(conn: Connection, kind: str) -> dict[str, datetime]:
    """Every node carrying a one-node mark of ``kind``."""
    rows = conn.execute(select(m.c.node_id, m.c.created_at).where(m.c.kind == kind)).all()
    return {r[0]: from_db_required(r[1]) for r in rows}


def pairs(conn: Connection, kind: str) -> set[tuple[str, str]]:
    """Every pair marked ``kind``."""
    rows = conn.execute(select(m.c.node_id, m.c.other_id).where(m.c.kind == kind)).all()
    return {(r[0], r[1]) for r in rows}


def put_mark(
    conn: Connection, kind: str, node_id: str, other_id: str, *, actor: str, at: datetime
) -> bool:
    """Add a mark; False when it was there already."""
    exists = conn.execute(
        select(m.c.node_id).where(
            m.c.kind == kind, m.c.node_id == node_id, m.c.other_id == other_id
        )
    ).first()
    if exists is not None:
        return False
    conn.execute(
        insert(m).values(
            kind=kind, node_id=node_id, other_id=other_id, actor=actor, created_at=to_db(at)
        )
    )
    return True


def remove_mark(conn: Connection, kind: str, node_id: str, other_id: str = "") -> bool:
    """Remove a mark; False when there was none."""
    res = conn.execute(
        delete(m).where(m.c.kind == kind, m.c.node_id == node_id, m.c.other_id == other_id)
    )
    return bool(res.rowcount)


def carry_marks(conn: Connection, old_id: str, new_id: str) -> None:
    """The marks of ``old_id`` now mark ``new_id`` (a new version of the memory)."""
    conn.execute(update(m).where(m.c.node_id == old_id).values(node_id=new_id))
    conn.execute(update(m).where(m.c.other_id == old_id).values(other_id=new_id))
    # A pair keeps its ids in order.
    rows = conn.execute(
        select(m.c.kind, m.c.node_id, m.c.other_id, m.c.actor, m.c.created_at).where(
            m.c.other_id != "", m.c.node_id > m.c.other_id
        )
    ).all()
    for kind, a, b, actor, created_at in rows:
        conn.execute(delete(m).where(m.c.kind == kind, m.c.node_id == a, m.c.other_id == b))
        first, second = pair(a, b)
        clash = conn.execute(
            select(m.c.node_id).where(
                m.c.kind == kind, m.c.node_id == first, m.c.other_id == second
            )
        ).first()
        if clash is None and first != second:
            conn.execute(
                insert(m).values(
                    kind=kind, node_id=first, other_id=second, actor=actor, created_at=created_at
                )
            )


def marks_of(conn: Connection, node_ids: Iterable[str]) -> list[tuple[str, str, str]]:
    """Every mark naming one of ``node_ids``: (kind, node_id, other_id)."""
    out: list[tuple[str, str, str]] = []
    for batch in chunks(node_ids):
        rows = conn.execute(
            select(m.c.kind, m.c.node_id, m.c.other_id).where(
                or_(m.c.node_id.in_(batch), m.c.other_id.in_(batch))
            )
        ).all()
        out += [(r[0], r[1], r[2]) for r in rows]
    return out


def drop_marks(conn: Connection, node_ids: Iterable[str]) -> int:
    """Remove every mark naming one of ``node_ids`` (memories deleted for good)."""
    gone = 0
    for batch in chunks(node_ids):
        res = conn.execute(delete(m).where(or_(m.c.node_id.in_(batch), m.c.other_id.in_(batch))))
        gone += res.rowcount or 0
    return gone


def clear_kind(conn: Connection, kind: str, node_ids: Iterable[str] | None = None) -> int:
    """Remove the marks of ``kind`` (on ``node_ids`` only, when given)."""
    if node_ids is None:
        return conn.execute(delete(m).where(m.c.kind == kind)).rowcount or 0
    gone = 0
    for batch in chunks(node_ids):
        res = conn.execute(delete(m).where(and_(m.c.kind == kind, m.c.node_id.in_(batch))))
        gone += res.rowcount or 0
    return gone


# ``get_setting`` as text, for a statement in a turn's pipeline (``store.turn_reads``).
SETTING_SELECT = "SELECT value_json FROM memory_settings WHERE name = :name"


def get_setting(conn: Connection, name: str) -> Any:
    """A setting's value (None when never set)."""
    row = conn.execute(select(s.c.value_json).where(s.c.name == name)).first()
    return setting_value(row)


def setting_value(row: Sequence[Any] | None) -> Any:
    """The value of a setting's row (``SETTING_SELECT``'s; None: never set)."""
    return None if row is None else json.loads(row[0])


# How many times this process wrote a setting (``put_setting``): a reader that keeps a
# setting's value while no other connection commits (``SqlStore.others_version``) must
# also see its own process's writes, which SQLite's change number leaves out.
_settings_written = 0
_settings_lock = threading.Lock()


def settings_written() -> int:
    """A number that grows whenever this process writes a setting (before it commits)."""
    return _settings_written


def put_setting(conn: Connection, name: str, value: Any, at: datetime) -> None:
    """Set a setting's value."""
    global _settings_written
    with _settings_lock:
        _settings_written += 1
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    res = conn.execute(
        update(s).where(s.c.name == name).values(value_json=text, updated_at=to_db(at))
    )
    if not res.rowcount:
        conn.execute(insert(s).values(name=name, value_json=text, updated_at=to_db(at)))
