"""Finding a text wherever it is stored, for a purge's plan and its verification."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Text, case, false, func, literal_column, or_, select, text

from ekko_memory.store import tables as t
from ekko_memory.store.driver_errors import db_errors
from ekko_memory.store.filters import NodeFilter, where_clause
from ekko_memory.store.reader_base import n
from ekko_memory.store.search_reads import SearchReads
from ekko_memory.store.search_text import query_terms
from ekko_memory.store.sqlite_dialect import SqliteDialect, make_engine
from ekko_memory.store.user_text import (
    NODE_TEXT,
    SUMMARY_TEXT,
    USER_TEXT,
    reason_user_text,
    user_strings,
)
from ekko_memory.timeutil import to_db

# What JSON spells around values: a text of nothing else is in every list and object.
_JSON_SYNTAX = frozenset('[]{}:,"\\ \t\r\n')


# The columns that name a record's session and owners (ids people and hosts choose).
IDENTITY_COLUMNS = ("session_id", "workspace_id", "user_id")


def holding(
    cols: Iterable[ColumnElement[Any]], text_: str, *, fold: bool = False
) -> ColumnElement[bool]:
    """Any of ``cols`` holds ``text_`` as a substring. A ``*_json`` column is searched for
    the text as JSON spells it inside a string (quotes and backslashes escaped), and not
    for JSON punctuation alone: a purge of "[" planned every memory (each has a tag list).
    ``fold``: ignoring case, on every backend (SQLite's LIKE does, PostgreSQL's does not)."""
    if fold:
        text_ = text_.lower()
    spelled = json.dumps(text_, ensure_ascii=False)[1:-1]
    plain = not _JSON_SYNTAX.issuperset(text_)
    clauses = [
        (func.lower(c) if fold else c).contains(
            spelled if c.name.endswith("_json") else text_, autoescape=True
        )
        for c in cols
        if plain or not c.name.endswith("_json")
    ]
    return or_(false(), *clauses)


class TextReads(SearchReads):
    """Which rows hold a text: nodes, messages, summaries, any table, the index."""

    def node_ids_with_text(self, text_: str, f: NodeFilter, *, fold: bool = False) -> list[str]:
        """Nodes within ``f`` that hold ``text_``: full-text matches plus substrings of title,
        content, value, tags and entities (so a word only in the value is found too);
        ``fold``: substrings in any case."""
        found = [h.node.id for h in self.search_nodes(text_, f, limit=10**6)]
        cols = [n.c[name] for name in NODE_TEXT]
        q = select(n.c.id).where(where_clause(f), holding(cols, text_, fold=fold))
        found += self.conn.execute(q).scalars()
        return list(dict.fromkeys(found))

    def find_messages(
        self,
        *,
        session_id: str | None = None,
        after: datetime | None = None,
        before: datetime | None = None,
        text_: str | None = None,
        fold: bool = False,
    ) -> list[tuple[str, str, str]]:
        """(id, session id, first words) of messages matching every given criterion
        (``fold``: the text in any case)."""
        m = t.memory_messages
        q = select(m.c.id, m.c.session_id, func.substr(m.c.content, 1, 60))
        if session_id is not None:
            q = q.where(m.c.session_id == session_id)
        if after is not None:
            q = q.where(m.c.created_at >= to_db(after))
        if before is not None:
            q = q.where(m.c.created_at < to_db(before))
        if text_ is not None:
            q = q.where(holding([m.c.content], text_, fold=fold))
        rows = self.conn.execute(q.order_by(m.c.created_at, m.c.id)).all()
        return [(r[0], r[1], r[2] or "") for r in rows]

    def summary_ids_with_text(
        self, text_: str, session_id: str | None = None, *, fold: bool = False
    ) -> list[str]:
        """Summaries whose text (summary, goal or any list) holds ``text_`` (``fold``: in
        any case)."""
        s = t.memory_summaries
        q = select(s.c.id).where(holding([s.c[name] for name in SUMMARY_TEXT], text_, fold=fold))
        if session_id is not None:
            q = q.where(s.c.session_id == session_id)
        return list(self.conn.execute(q).scalars())

    def text_occurrences(self, text_: str) -> dict[str, int]:
        """Rows per table holding ``text_`` in any text column (verification after a purge)."""
        out: dict[str, int] = {}
        for table in t.metadata.sorted_tables:
            cols = [c for c in table.c if isinstance(c.type, Text)]
            if not cols:
                continue
            q = select(func.count()).select_from(table).where(holding(cols, text_))
            count = int(self.conn.execute(q).scalar() or 0)
            if count:
                out[table.name] = count
        return out

    def user_text_occurrences(self, text_: str) -> dict[str, int]:
        """Rows per table holding ``text_`` where user text can live (``store/user_text.py``):
        what a purge must have removed, unlike an actor or a scope that spells the same word.

        SQL finds the rows whose columns hold the text; of those, a mixed JSON column counts
        only when the text is in one of its user-text strings (not a machine field)."""
        out: dict[str, int] = {}
        for name, where in USER_TEXT.items():
            table = t.metadata.tables[name]
            plain = holding([table.c[c] for c in where.plain], text_)
            reasons = [table.c[c] for c in where.reasons]
            mixed = [table.c[c] for c in where.mixed]
            # An audit reason is read with its event's type (``reason_user_text``).
            kind = table.c.event_type if "event_type" in table.c else literal_column("NULL")
            q = select(case((plain, 1), else_=0), kind, *reasons, *mixed).where(
                plain | holding(reasons, text_) | holding(mixed, text_)
            )
            split = 2 + len(reasons)
            count = sum(
                1
                for row in self.conn.execute(q)
                if row[0]
                or any(self._in_reason(value, row[1], text_) for value in row[2:split])
                or any(self._in_json(value, text_) for value in row[split:])
            )
            if count:
                out[name] = count
        return out

    def odd_dates(self) -> dict[str, int]:
        """Rows per ``table.column`` whose stored date is not one this release writes: a
        year before 1000 or in 9999 (older releases stored them), or no date at all (a
        file edited by hand; it reads as the year 1000). A scan of every date column."""
        out: dict[str, int] = {}
        for table in t.metadata.sorted_tables:
            for col in table.c:
                if not col.name.endswith("_at") or not isinstance(col.type, Text):
                    continue
                odd = or_(
                    func.length(col) != len("2026-01-31T00:00:00.000000Z"),
                    col < "1000-01-01",
                    col >= "9999-01-01",
                )
                q = select(func.count()).select_from(table).where(col.is_not(None), odd)
                count = int(self.conn.execute(q).scalar() or 0)
                if count:
                    out[f"{table.name}.{col.name}"] = count
        return out

    def identity_occurrences(self, text_: str) -> dict[str, int]:
        """Rows per ``table.column`` whose session, workspace or user id holds ``text_``:
        names of sessions and owners, which a purge of text does not rename."""
        out: dict[str, int] = {}
        for table in t.metadata.sorted_tables:
            for name in IDENTITY_COLUMNS:
                if name not in table.c:
                    continue
                q = select(func.count()).select_from(table).where(holding([table.c[name]], text_))
                count = int(self.conn.execute(q).scalar() or 0)
                if count:
                    out[f"{table.name}.{name}"] = count
        return out

    def _in_json(self, raw: str | None, text_: str) -> bool:
        """``text_`` in a user-text string of a JSON column, matched as the SQL above matches
        it (SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's does not)."""
        if raw is None:
            return False
        try:
            strings = user_strings(json.loads(raw))
        except ValueError:
            return True  # not JSON after all: every byte of it could be the user's
        return self._in_any(strings, text_)

    def _in_reason(self, reason: str | None, event_type: str | None, text_: str) -> bool:
        """``text_`` in the parts of a reason someone chose, not the product's own wording
        around them (``reason_user_text``)."""
        return reason is not None and self._in_any(reason_user_text(reason, event_type), text_)

    def _in_any(self, strings: Iterable[str], text_: str) -> bool:
        """``text_`` in one of ``strings``, matched as SQL matches it (SQLite's LIKE ignores
        the case of ASCII letters; PostgreSQL's does not)."""
        if self.dialect.name != "sqlite":
            return any(text_ in s for s in strings)
        needle = text_.encode("utf-8").lower()  # bytes: lower() folds ASCII letters only
        return any(needle in s.encode("utf-8").lower() for s in strings)

    def schema_spells(self, text_: str) -> bool:
        """The file's own schema spells ``text_`` (SQLite keeps it in the file: "index" and
        "text" are in every file's bytes); a server's schema is not in files we scan."""
        if self.dialect.name != "sqlite":
            return False
        q = text(
            "SELECT count(*) FROM sqlite_master WHERE instr(type, :t) OR instr(name, :t)"
            " OR instr(tbl_name, :t) OR instr(coalesce(sql, ''), :t)"
        )
        return bool(self.conn.execute(q, {"t": text_}).scalar())

    def orphan_index_hits(self, text_: str) -> int:
        """Full-text matches of ``text_`` whose node no longer exists (a leak in the index)."""
        found = self.dialect.search_sql(query_terms(text_))
        if found is None:
            return 0
        sql, params = found
        fts = text(sql).columns(literal_column("seq"), literal_column("rank")).subquery("fts")
        q = (
            select(func.count())
            .select_from(fts)
            .where(fts.c.seq.not_in(select(n.c.seq).scalar_subquery()))
        )
        return int(self.conn.execute(q, params).scalar() or 0)


def user_text_in_file(path: Path, texts: Sequence[str]) -> list[int] | None:
    """Rows holding each text where user text lives (``StoreReader.user_text_occurrences``)
    in a SQLite file opened as it is (a migration backup: never migrated, never written);
    None when it cannot be read as a database of ours (a copy cut short, say)."""
    engine = make_engine(path, mode="immutable")
    dialect = SqliteDialect(None)
    try:
        with engine.connect() as conn:
            reader = TextReads(conn, dialect)
            return [sum(reader.user_text_occurrences(t).values()) for t in texts]
    except db_errors(dialect):
        return None
    finally:
        engine.dispose()
