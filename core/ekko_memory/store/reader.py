"""Read operations over one connection (one consistent snapshot per transaction)."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import ColumnElement, Text, case, false, func, literal_column, or_, select, text
from sqlalchemy.engine import Connection

from ekko_memory.models import (
    AuditEvent,
    BrowseSort,
    MemoryMessage,
    MemoryNode,
    MemorySummary,
    NodeUsage,
    PendingItem,
    SessionCursor,
    UsageRecord,
)
from ekko_memory.store import tables as t
from ekko_memory.store.dialect import Dialect
from ekko_memory.store.filters import (
    NodeFilter,
    NodeOrder,
    keyset_sql,
    like_escape,
    live_condition,
    order_clause,
    order_sql,
    where_clause,
    where_sql,
)
from ekko_memory.store.rows import (
    MESSAGE_COLUMNS,
    NODE_COLUMNS,
    SUMMARY_COLUMNS,
    NodeRow,
    message_from_tuple,
    node_from_tuple,
    row_to_message,
    row_to_node,
    row_to_summary,
    summary_from_tuple,
)
from ekko_memory.store.search_text import (
    choose_keywords,
    count_cap,
    message_terms,
    query_terms,
    supports,
)
from ekko_memory.store.user_text import (
    NODE_TEXT,
    SUMMARY_TEXT,
    USER_TEXT,
    reason_user_text,
    user_strings,
)
from ekko_memory.store.vectors import VectorRow, node_text, text_hash
from ekko_memory.timeutil import from_db, from_db_required, to_db

n = t.memory_nodes
_NODE_SELECT = "SELECT " + ", ".join(NODE_COLUMNS) + " FROM memory_nodes"
_NODE_COLUMNS_N = ", ".join("n." + c for c in NODE_COLUMNS)
_MESSAGE_SELECT = "SELECT " + ", ".join(MESSAGE_COLUMNS) + " FROM memory_messages"
_PENDING_COLUMNS = tuple(c.name for c in t.memory_pending.columns)
_PENDING_SELECT = "SELECT " + ", ".join(_PENDING_COLUMNS) + " FROM memory_pending"
_SUMMARY_SELECT = "SELECT " + ", ".join(SUMMARY_COLUMNS) + " FROM memory_summaries"

# Ids per IN (...) list: far below every backend's parameter limit.
CHUNK = 500
# Up to this many candidates a subject lookup filters by id; beyond, by the full filter.
SUBJECT_CANDIDATES = 500
# Rows fetched per round trip when streaming a table.
STREAM_BATCH = 500


# What JSON spells around values: a text of nothing else is in every list and object.
_JSON_SYNTAX = frozenset('[]{}:,"\\ \t\r\n')


# The columns that name a record's session and owners (ids people and hosts choose).
IDENTITY_COLUMNS = ("session_id", "workspace_id", "user_id")


def holding(cols: Iterable[ColumnElement[Any]], text_: str) -> ColumnElement[bool]:
    """Any of ``cols`` holds ``text_`` as a substring. A ``*_json`` column is searched for
    the text as JSON spells it inside a string (quotes and backslashes escaped), and not
    for JSON punctuation alone: a purge of "[" planned every memory (each has a tag list)."""
    spelled = json.dumps(text_, ensure_ascii=False)[1:-1]
    plain = not _JSON_SYNTAX.issuperset(text_)
    clauses = [
        c.contains(spelled if c.name.endswith("_json") else text_, autoescape=True)
        for c in cols
        if plain or not c.name.endswith("_json")
    ]
    return or_(false(), *clauses)


def chunks(ids: Iterable[str], size: int = CHUNK) -> Iterator[list[str]]:
    """``ids`` in lists of at most ``size``."""
    batch: list[str] = []
    for i in ids:
        batch.append(i)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


@dataclass(frozen=True)
class SearchHit:
    """A node found by full-text search and its rank (lower is better)."""

    node: MemoryNode
    rank: float


# A search statement and its parameters (None: nothing to search for).
SearchSql = tuple[str, dict[str, Any]] | None


@dataclass(frozen=True)
class RowHit:
    """A search match as an untyped row (``NodeRow.node()`` types it) and its rank."""

    row: NodeRow
    rank: float


@dataclass(frozen=True)
class CategoryCount:
    """How many nodes are filed exactly at one category path."""

    domain: str
    category_path: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class SessionInfo:
    """One session's log at a glance."""

    session_id: str
    message_count: int
    first_at: datetime | None
    last_at: datetime | None


def row_to_audit(row: Any) -> AuditEvent:
    """An audit event from its row."""
    return AuditEvent.model_construct(
        id=row["id"],
        event_type=row["event_type"],
        node_id=row["node_id"],
        session_id=row["session_id"],
        workspace_id=row["workspace_id"],
        user_id=row["user_id"],
        actor=row["actor"],
        reason=row["reason"],
        payload=None if row["payload_json"] is None else json.loads(row["payload_json"]),
        created_at=from_db_required(row["created_at"]),
    )


def row_to_usage(row: Any) -> UsageRecord:
    """A usage record from its row."""
    return UsageRecord.model_construct(
        id=row["id"],
        node_id=row["node_id"],
        message_id=row["message_id"],
        session_id=row["session_id"],
        workspace_id=row["workspace_id"],
        used_at=from_db_required(row["used_at"]),
    )


def row_to_pending(row: Any) -> PendingItem:
    """A pending item from its row."""
    return PendingItem.model_construct(
        id=row["id"],
        kind=row["kind"],
        status=row["status"],
        operation=row["operation"],
        node=None if row["node_json"] is None else json.loads(row["node_json"]),
        target_ids=json.loads(row["target_ids_json"]),
        current_head_id=row["current_head_id"],
        rule=row["rule"],
        reason=row["reason"],
        requester=row["requester"],
        session_id=row["session_id"],
        workspace_id=row["workspace_id"],
        user_id=row["user_id"],
        source_message_ids=json.loads(row["source_message_ids_json"]),
        created_at=from_db_required(row["created_at"]),
        decided_by=row["decided_by"],
        decided_at=from_db(row["decided_at"]),
        decision_note=row["decision_note"],
        result_node_id=row["result_node_id"],
        store=None,
    )


def _node_query(
    f: NodeFilter, limit: int | None, offset: int, order: NodeOrder, category_range: bool = False
) -> tuple[str, dict[str, Any]]:
    cond, params = where_sql(f, category_range=category_range)
    if limit is not None:
        params.update(lim=limit, off=offset)
    page = " LIMIT :lim OFFSET :off" if limit is not None else ""
    if category_range and limit is not None and order == "priority":
        # Sort the topic's sequence numbers, not its whole rows, then read the few kept.
        # ``importance + 0`` matches no index, so no planner walks a whole type in
        # priority order instead of the topic's range (PostgreSQL did, misjudging an
        # empty topic as 1 353 rows: 9 ms, against 0.1).
        inner = f"SELECT seq FROM memory_nodes WHERE {cond} ORDER BY {_UNINDEXED_PRIORITY}{page}"
        return f"{_NODE_SELECT} WHERE seq IN ({inner}) ORDER BY {order_sql(order)}", params
    return f"{_NODE_SELECT} WHERE {cond} ORDER BY {order_sql(order)}{page}", params


_UNINDEXED_PRIORITY = "importance + 0 DESC, updated_at DESC"


# A search's filter joined to the index, for the filters callers keep from turn to turn.
_joined_where = lru_cache(maxsize=256)(partial(where_sql, alias="n"))

# A turn searches each store as of one instant: its text is formatted once.
_instant_text = lru_cache(maxsize=8)(to_db)

# The context asks the same node queries every turn (frozen filters of tuples): building
# one cost ~5 µs, a third of what SQLite takes to answer it. Callers get a copy of the
# parameters.
_cached_node_query = lru_cache(maxsize=512)(_node_query)

# A topic query (one scope, domain and type, a category subtree) is stated by category
# range when the topic is small against its scope's nodes of that type (reading the topic
# costs less than scanning the type in priority order until the limit is met), and in
# priority order otherwise. Sizes are counted in the indexes, only as far as the choice
# needs: a full count of a large type cost PostgreSQL a 15 ms sequential scan.
TOPIC_CAP = 1_000
TopicKey = tuple[str, str, str, tuple[str, ...], tuple[str, ...]]


def _topic_key(f: NodeFilter) -> TopicKey | None:
    """What sizes a topic query, when ``f`` is one."""
    if not (f.category_prefix and f.domain and f.scopes and f.types and f.statuses):
        return None
    if len(f.scopes) != 1 or len(f.types) != 1:
        return None
    return (f.scopes[0], f.domain, f.types[0], tuple(f.statuses), tuple(f.category_prefix))


@lru_cache(maxsize=256)
def _topic_counts(key: TopicKey) -> tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]:
    """Statements counting a topic's nodes, and its scope's nodes of the type, up to ``:cap``."""
    scope, domain, node_type, statuses, prefix = key
    group = NodeFilter(scopes=(scope,), domain=domain, types=(node_type,), statuses=statuses)
    capped = "SELECT count(*) FROM (SELECT 1 FROM memory_nodes WHERE {} LIMIT :cap) AS t"
    topic_cond, topic_params = where_sql(
        replace(group, category_prefix=prefix), category_range=True
    )
    group_cond, group_params = where_sql(group)
    return (capped.format(topic_cond), topic_params), (capped.format(group_cond), group_params)


class StoreReader:
    """Queries bound to one connection; create through ``SqlStore.read()``."""

    def __init__(self, conn: Connection, dialect: Dialect) -> None:
        self.conn = conn
        self.dialect = dialect

    # --- raw-driver reads (the hot path) -------------------------------------------

    def _rows(
        self, sql: str, params: dict[str, Any], *, reuse_plan: bool = True
    ) -> list[tuple[Any, ...]]:
        return self.dialect.fetch(self.conn, sql, params, reuse_plan=reuse_plan)

    def _nodes(self, sql: str, params: dict[str, Any]) -> list[MemoryNode]:
        return [node_from_tuple(r) for r in self._rows(sql, params)]

    def _node_rows(self, sql: str, params: dict[str, Any]) -> list[NodeRow]:
        return [NodeRow(r) for r in self._rows(sql, params)]

    def _messages(self, sql: str, params: dict[str, Any]) -> list[MemoryMessage]:
        return [message_from_tuple(r) for r in self._rows(sql, params)]

    def _summaries(self, sql: str, params: dict[str, Any]) -> list[MemorySummary]:
        return [summary_from_tuple(r) for r in self._rows(sql, params)]

    # --- messages -------------------------------------------------------------------

    def list_recent_messages(self, session_id: str, limit: int) -> list[MemoryMessage]:
        """The session's last ``limit`` messages, oldest first."""
        rows = self._messages(
            f"{_MESSAGE_SELECT} WHERE session_id = :sid ORDER BY created_at DESC, id DESC LIMIT :lim",
            {"sid": session_id, "lim": limit},
        )
        return list(reversed(rows))

    def latest_message_id(self, session_id: str) -> str | None:
        """The id of the session's newest message, if any."""
        rows = self._rows(
            "SELECT id FROM memory_messages WHERE session_id = :sid"
            " ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id},
        )
        return str(rows[0][0]) if rows else None

    def latest_user_message(self, session_id: str) -> MemoryMessage | None:
        """The session's newest user message (however far back), if any."""
        rows = self._messages(
            f"{_MESSAGE_SELECT} WHERE session_id = :sid AND role = 'user'"
            " ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id},
        )
        return rows[0] if rows else None

    def list_messages(
        self,
        session_id: str,
        *,
        after: datetime | None = None,
        limit: int = 1000,
        offset: int = 0,
    ) -> list[MemoryMessage]:
        """The session's messages in order, optionally only those after a moment."""
        cond = "session_id = :sid" + (" AND created_at > :after" if after is not None else "")
        return self._messages(
            f"{_MESSAGE_SELECT} WHERE {cond} ORDER BY created_at, id LIMIT :lim OFFSET :off",
            {"sid": session_id, "after": to_db(after), "lim": limit, "off": offset},
        )

    def last_user_message_before(self, session_id: str, at: datetime) -> MemoryMessage | None:
        """The session's newest message from the user written before ``at``, if any."""
        found = self._messages(
            f"{_MESSAGE_SELECT} WHERE session_id = :sid AND role = 'user' AND created_at < :at"
            " ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id, "at": to_db(at)},
        )
        return found[0] if found else None

    def get_messages(self, ids: Sequence[str]) -> list[MemoryMessage]:
        """Messages by id, in creation order; unknown ids are skipped."""
        if not ids:
            return []
        names = {f"m{i}": v for i, v in enumerate(dict.fromkeys(ids))}
        return self._messages(
            f"{_MESSAGE_SELECT} WHERE id IN ({', '.join(':' + k for k in names)}) ORDER BY created_at, id",
            names,
        )

    def count_messages_after(self, session_id: str, after: datetime | None) -> int:
        """How many messages the session has after a moment (all when ``after`` is None)."""
        m = t.memory_messages
        q = select(func.count()).select_from(m).where(m.c.session_id == session_id)
        if after is not None:
            q = q.where(m.c.created_at > to_db(after))
        return int(self.conn.execute(q).scalar() or 0)

    def list_sessions(self, limit: int = 500) -> list[SessionInfo]:
        """Sessions with their message counts, most recently active first."""
        m = t.memory_messages
        rows = self.conn.execute(
            select(
                m.c.session_id,
                func.count().label("n"),
                func.min(m.c.created_at).label("first"),
                func.max(m.c.created_at).label("last"),
            )
            .group_by(m.c.session_id)
            .order_by(literal_column("last").desc())
            .limit(limit)
        ).all()
        return [SessionInfo(r[0], int(r[1]), from_db(r[2]), from_db(r[3])) for r in rows]

    # --- summaries ------------------------------------------------------------------

    def get_latest_summary(
        self, session_id: str, *, include_stale: bool = False
    ) -> MemorySummary | None:
        """The newest summary of the session's chain (skipping stale ones unless asked)."""
        stale = "" if include_stale else " AND stale = 0"
        found = self._summaries(
            f"{_SUMMARY_SELECT} WHERE session_id = :sid{stale} ORDER BY created_at DESC, id DESC LIMIT 1",
            {"sid": session_id},
        )
        return found[0] if found else None

    def summary_session(self, summary_id: str) -> str | None:
        """The session a summary belongs to; None when there is no such summary."""
        found = self._rows(
            "SELECT session_id FROM memory_summaries WHERE id = :id", {"id": summary_id}
        )
        return found[0][0] if found else None

    def list_summaries(self, session_id: str) -> list[MemorySummary]:
        """The session's summary chain, oldest first."""
        return self._summaries(
            f"{_SUMMARY_SELECT} WHERE session_id = :sid ORDER BY created_at, id",
            {"sid": session_id},
        )

    # --- nodes ----------------------------------------------------------------------

    def get_node(self, node_id: str) -> MemoryNode | None:
        """One node by id, whatever its status."""
        found = self._nodes(f"{_NODE_SELECT} WHERE id = :id", {"id": node_id})
        return found[0] if found else None

    def get_nodes(self, ids: Sequence[str]) -> list[MemoryNode]:
        """Nodes by id (unknown ids skipped), in the order asked."""
        if not ids:
            return []
        cond, params = where_sql(NodeFilter(ids=list(dict.fromkeys(ids)), statuses=None))
        found = {n.id: n for n in self._nodes(f"{_NODE_SELECT} WHERE {cond}", params)}
        return [found[i] for i in ids if i in found]

    def find_nodes(
        self,
        f: NodeFilter,
        *,
        limit: int | None = 100,
        offset: int = 0,
        order: NodeOrder = "priority",
    ) -> list[MemoryNode]:
        """Nodes matching a filter, in the given order."""
        found = self._find_sql(f, limit, offset, order)
        return [] if found is None else self._nodes(*found)

    def find_node_rows(
        self, f: NodeFilter, *, limit: int | None = 100, order: NodeOrder = "priority"
    ) -> list[NodeRow]:
        """As ``find_nodes``, as untyped rows (for callers that keep only a few)."""
        found = self._find_sql(f, limit, 0, order)
        return [] if found is None else self._node_rows(*found)

    def _find_sql(
        self, f: NodeFilter, limit: int | None, offset: int, order: NodeOrder
    ) -> tuple[str, dict[str, Any]] | None:
        """The node query for a filter; None when nothing can match."""
        if f.subject is not None and f.ids is None:
            # Subject first: SQLite keeps no per-value statistics, so it cannot tell that a
            # subject is rare and would scan a whole key or status instead. The subject index
            # narrows to a few ids; the full filter then runs on those.
            narrow, narrow_params = where_sql(
                NodeFilter(statuses=f.statuses, domain=f.domain, subject=f.subject)
            )
            ids = [
                r[0]
                for r in self._rows(f"SELECT id FROM memory_nodes WHERE {narrow}", narrow_params)
            ]
            if not ids:
                return None
            if len(ids) <= SUBJECT_CANDIDATES:
                f = replace(f, ids=ids)
        # Two statements for the same rows, for SQLite's planner, which cannot tell a
        # topic's size: in priority order it stops at the limit, fast in a large topic
        # but a scan of the scope's whole type when the topic is empty (17 ms at 100k);
        # by category range it sorts the topic, fast only when the topic is small.
        ranged = order == "priority" and limit is not None and self._small_topic(f, limit)
        try:
            sql, params = _cached_node_query(f, limit, offset, order, ranged)
        except TypeError:  # a filter holding lists cannot be a cache key
            return _node_query(f, limit, offset, order, ranged)
        return sql, dict(params)

    def _small_topic(self, f: NodeFilter, limit: int) -> bool:
        """Whether ``f`` is a topic query best read by its category range (the choice is
        cached a minute: it picks between equivalent statements, never what is found)."""
        key = _topic_key(f)
        if key is None:
            return False
        known = self.dialect.topic_sizes.cached((key, limit))
        if known is not None:
            return bool(known)

        def count(sql: str, params: dict[str, Any], cap: int) -> int:
            # Planned for its values: a generic plan of a capped count scans the table.
            return int(self._rows(sql, {**params, "cap": cap}, reuse_plan=False)[0][0])

        def choose(_: list[Hashable]) -> dict[Hashable, int]:
            # In priority order SQLite reads ~group * limit / topic rows; by range, ~topic.
            (topic_sql, topic_params), (group_sql, group_params) = _topic_counts(key)
            topic = count(topic_sql, topic_params, TOPIC_CAP + 1)
            if topic > TOPIC_CAP:
                ranged = False
            elif topic < limit:
                ranged = True  # the type holds the topic: topic² < topic * limit <= group * limit
            else:
                need = topic * topic // limit + 1
                ranged = count(group_sql, group_params, need) >= need
            return {(key, limit): int(ranged)}

        return bool(self.dialect.topic_sizes.one((key, limit), choose))

    def page_nodes(
        self,
        f: NodeFilter,
        *,
        after: tuple[Any, str] | None,
        limit: int,
        sort: BrowseSort = "updated",
        descending: bool = True,
    ) -> list[MemoryNode]:
        """Up to ``limit + 1`` nodes after a (sort value, id) cursor in the order ``sort``
        (keyset paging; ``filters.sort_value`` gives a node's cursor). The default, newest
        first, follows the (…, updated_at) indexes; other orders sort the matching rows."""
        cond, params = where_sql(f)
        after_cond, order, after_params = keyset_sql(sort, descending, after)
        if after_cond:
            cond += f" AND {after_cond}"
        params.update(after_params, lim=limit + 1)
        return self._nodes(f"{_NODE_SELECT} WHERE {cond} ORDER BY {order} LIMIT :lim", params)

    def change_marks(self) -> tuple[int, ...]:
        """Numbers that move whenever anything is written (see Dialect.change_marks)."""
        return self.dialect.change_marks(self.conn)

    def count_nodes(self, f: NodeFilter) -> int:
        """How many nodes match a filter."""
        cond, params = where_sql(f)
        return int(self._rows(f"SELECT count(*) FROM memory_nodes WHERE {cond}", params)[0][0])

    def search_nodes(
        self,
        query: str,
        f: NodeFilter,
        *,
        limit: int = 20,
        prefix_last: bool = False,
        any_term: bool = False,
    ) -> list[SearchHit]:
        """Full-text search (Chinese included) within a filter, best first.

        The index ranks first and only its best ``cap`` matches are joined with the node
        table; if the filter leaves too few, the search runs again uncapped. A query with
        no searchable word (only punctuation or emoji) falls back to a substring scan.
        """
        return [
            SearchHit(node_from_tuple(h.row), h.rank)
            for h in self.search_rows(
                query, f, limit=limit, prefix_last=prefix_last, any_term=any_term
            )
        ]

    def search_rows(
        self,
        query: str,
        f: NodeFilter,
        *,
        limit: int = 20,
        prefix_last: bool = False,
        any_term: bool = False,
        live_at: datetime | None = None,
    ) -> list[RowHit]:
        """As ``search_nodes``, as untyped rows (for callers that keep only a few).

        ``any_term`` searches for any keyword of a chat message (``message_terms``),
        leaving out words too common to rank (``choose_keywords``), and keeps the hits
        with enough evidence (``supports``); a message without keywords finds nothing.
        ``live_at`` is ``f.live_at`` for a filter the caller keeps from turn to turn (its
        statement is then built once).
        """
        if any_term:
            return self._keyword_search(query, f, limit, live_at)
        search = partial(self.dialect.search_sql, query_terms(query, prefix_last=prefix_last))
        hits = self._ranked(search, f, limit, live_at)
        if hits is None:
            live = f if live_at is None else replace(f, live_at=live_at)
            return self._substring_search(query, live, limit)
        return hits

    def _keyword_search(
        self, message: str, f: NodeFilter, limit: int, live_at: datetime | None
    ) -> list[RowHit]:
        words = message_terms(message)
        if not words.terms:
            return []
        counts = self.dialect.term_counts(self.conn, words.terms, count_cap())
        terms, window = choose_keywords(words.terms, counts)
        if not terms:
            return []  # no node holds any of the words: nothing to search
        search = partial(self.dialect.search_sql, terms, any_term=True, window=window)
        hits = self._ranked(search, f, limit, live_at) or []
        return [h for h in hits if supports(words, h.row.labels(), h.row.content)]

    def _ranked(
        self,
        search: Callable[..., SearchSql],
        f: NodeFilter,
        limit: int,
        live_at: datetime | None,
    ) -> list[RowHit] | None:
        """The best ``limit`` matches within the filter: first among the index's best
        ``cap``; when the filter leaves too few and the index held more, among all. None
        when no term is searchable (a PostgreSQL lexeme has a size limit)."""
        cap = max(limit * 5, 100)
        found = search(cap=cap)
        if found is None:
            return None
        hits = self._fts_join(found, f, limit, live_at)
        if len(hits) < limit:
            # Were there more matches than the cap let through? Counting needs no ranking.
            counting = search(cap=cap, ranked=False)
            assert counting is not None
            count_sql, count_params = counting
            matched = self._rows(f"SELECT count(*) FROM ({count_sql}) AS capped", count_params)
            if matched[0][0] >= cap:
                uncapped = search(cap=None)
                assert uncapped is not None
                hits = self._fts_join(uncapped, f, limit, live_at)
        return hits

    def _fts_join(
        self,
        found: tuple[str, dict[str, Any]],
        f: NodeFilter,
        limit: int,
        live_at: datetime | None,
    ) -> list[RowHit]:
        fts_sql, params = found
        try:
            cond, filter_params = _joined_where(f)
        except TypeError:  # a filter holding lists cannot be a cache key
            cond, filter_params = where_sql(f, alias="n")
        params = {**params, **filter_params, "lim": limit}
        if live_at is not None:
            cond += f" AND {live_condition('n.')}"
            params["f_live"] = _instant_text(live_at)
        sql = (
            f"SELECT {_NODE_COLUMNS_N}, fts.rank FROM ({fts_sql}) AS fts "
            f"JOIN memory_nodes n ON n.seq = fts.seq WHERE {cond} "
            "ORDER BY fts.rank, n.updated_at DESC LIMIT :lim"
        )
        # The trailing rank column rides along: NodeRow reads columns by position.
        return [RowHit(NodeRow(r), float(r[-1])) for r in self._rows(sql, params)]

    def _substring_search(self, query: str, f: NodeFilter, limit: int) -> list[RowHit]:
        needle = query.strip()
        if not needle:
            return []
        cond, params = where_sql(f)
        params.update(needle=f"%{like_escape(needle)}%", lim=limit)
        rows = self._node_rows(
            f"{_NODE_SELECT} WHERE {cond} AND (title LIKE :needle ESCAPE '\\' OR content LIKE :needle ESCAPE '\\')"
            " ORDER BY updated_at DESC LIMIT :lim",
            params,
        )
        return [RowHit(r, 0.0) for r in rows]

    def successor_of(self, node_id: str) -> MemoryNode | None:
        """The node that supersedes ``node_id``, if any.

        A memory edited on two machines had two (an import kept one current and marked
        the other superseded, with no successor of its own); an import now joins them in
        one line (``rival_links.link_rivals``), but where that could not be done the chain
        goes on through the one still in use, not the dead end.
        """
        found = self._nodes(
            f"{_NODE_SELECT} WHERE supersedes_id = :id ORDER BY CASE WHEN status <> 'superseded'"
            " OR EXISTS (SELECT 1 FROM memory_nodes later"
            " WHERE later.supersedes_id = memory_nodes.id) THEN 0 ELSE 1 END, created_at LIMIT 1",
            {"id": node_id},
        )
        return found[0] if found else None

    def rivals_left_behind(self, actor: str) -> list[tuple[str, str]]:
        """(loser, winner) of each rivalry ``actor`` settled whose loser is still superseded
        with no later version in this store, oldest first.

        An import that kept one of two rival memories recorded the winner only in the
        loser's audit (``supersededBy``, ``conflict``) before it linked the two chains.
        """
        a = t.memory_audit_events
        later = n.alias("later")
        rows = self.conn.execute(
            select(a.c.node_id, a.c.payload_json)
            .join(n, n.c.id == a.c.node_id)
            .where(
                a.c.event_type == "supersede",
                a.c.actor == actor,
                n.c.status == "superseded",
                ~select(later.c.id).where(later.c.supersedes_id == n.c.id).exists(),
            )
            .order_by(a.c.created_at, a.c.id)
        ).all()
        out: list[tuple[str, str]] = []
        for loser, payload_json in rows:
            payload = json.loads(payload_json) if payload_json else None
            if not isinstance(payload, dict) or payload.get("conflict") is not True:
                continue
            winner = payload.get("supersededBy")
            if isinstance(winner, str):
                out.append((loser, winner))
        return out

    def cross_links(self) -> list[tuple[str, str, datetime]]:
        """(node, the node it supersedes, when) where the superseded one is not in this store."""
        inner = select(n.c.id).scalar_subquery()
        rows = self.conn.execute(
            select(n.c.id, n.c.supersedes_id, n.c.created_at).where(
                n.c.supersedes_id.is_not(None), n.c.supersedes_id.not_in(inner)
            )
        ).all()
        return [(r[0], r[1], from_db_required(r[2])) for r in rows]

    def node_seqs(self, ids: Sequence[str]) -> dict[str, int]:
        """The full-text handles of nodes."""
        if not ids:
            return {}
        rows = self.conn.execute(select(n.c.id, n.c.seq).where(n.c.id.in_(list(ids)))).all()
        return {r[0]: int(r[1]) for r in rows}

    def category_counts(self, f: NodeFilter) -> list[CategoryCount]:
        """Node counts per exact category path (the tree sums them up)."""
        cond, params = where_sql(f)
        rows = self._rows(
            f"SELECT domain, category_path_text, count(*) FROM memory_nodes WHERE {cond} "
            "GROUP BY domain, category_path_text",
            params,
        )
        return [CategoryCount(r[0], tuple(r[1].split("/")), int(r[2])) for r in rows]

    def node_status_counts(self, now: datetime | None = None) -> dict[str, int]:
        """How many nodes have each status; with ``now``, as people see it then
        (``MemoryNode.status_at``: an active memory past its expiry counts as expired)."""
        rows = self.conn.execute(select(n.c.status, func.count()).group_by(n.c.status)).all()
        counts = {r[0]: int(r[1]) for r in rows}
        if now is not None and counts.get("active"):
            lapsed = self.count_nodes(NodeFilter(statuses=["active"], expired_at=now))
            if lapsed:
                counts["active"] -= lapsed
                counts["expired"] = counts.get("expired", 0) + lapsed
        return counts

    # --- audit ----------------------------------------------------------------------

    def audit_for_node(self, node_id: str, limit: int = 500) -> list[AuditEvent]:
        """A node's audit events, newest first."""
        a = t.memory_audit_events
        rows = self.conn.execute(
            select(a)
            .where(a.c.node_id == node_id)
            .order_by(a.c.created_at.desc(), a.c.id.desc())
            .limit(limit)
        ).mappings()
        return [row_to_audit(r) for r in rows]

    def audit_since(
        self, since: datetime | None, limit: int = 1000, after_id: str | None = None
    ) -> list[AuditEvent]:
        """Audit events at or after a moment, oldest first (all when ``since`` is None).

        ``after_id``: the next page after the event (``since``, ``after_id``), the last of
        the previous page; events are ordered by (time, id), and many share one time (a
        bulk write stamps all its events with one moment)."""
        a = t.memory_audit_events
        q = select(a)
        if since is not None and after_id is not None:
            at = to_db(since)
            q = q.where((a.c.created_at > at) | ((a.c.created_at == at) & (a.c.id > after_id)))
        elif since is not None:
            q = q.where(a.c.created_at >= to_db(since))
        rows = self.conn.execute(q.order_by(a.c.created_at, a.c.id).limit(limit)).mappings()
        return [row_to_audit(r) for r in rows]

    def count_audit(self) -> int:
        """How many audit events the store holds."""
        return int(
            self.conn.execute(select(func.count()).select_from(t.memory_audit_events)).scalar() or 0
        )

    # --- pending --------------------------------------------------------------------

    def list_pending(self, statuses: Sequence[str] | None = ("pending",)) -> list[PendingItem]:
        """Pending items, oldest first."""
        p = t.memory_pending
        q = select(p)
        if statuses is not None:
            q = q.where(p.c.status.in_(list(statuses)))
        rows = self.conn.execute(q.order_by(p.c.created_at, p.c.id)).mappings()
        return [row_to_pending(r) for r in rows]

    def waiting_proposals(
        self, *, requester: str, user_id: str | None, workspace_id: str | None, limit: int
    ) -> list[PendingItem]:
        """The newest ``limit`` writes still waiting that ``requester`` proposed in this
        user's (and workspace's) conversations, newest first (the status index serves it)."""
        rows = self._rows(
            f"{_PENDING_SELECT} WHERE status = 'pending' AND kind = 'write'"
            " AND requester = :requester"
            " AND (CAST(:user_id AS TEXT) IS NULL OR user_id IS NULL OR user_id = :user_id)"
            " AND (CAST(:workspace_id AS TEXT) IS NULL OR workspace_id IS NULL"
            " OR workspace_id = :workspace_id)"
            " ORDER BY created_at DESC, id DESC LIMIT :limit",
            {
                "requester": requester,
                "user_id": user_id,
                "workspace_id": workspace_id,
                "limit": limit,
            },
        )
        return [row_to_pending(dict(zip(_PENDING_COLUMNS, r, strict=True))) for r in rows]

    def pending_about(self, node_ids: Sequence[str]) -> list[PendingItem]:
        """Items still waiting that were filed against one of ``node_ids`` or name one as a
        target."""
        if not node_ids:
            return []
        # On every delete, so straight on the driver: the expression layer cost ~0.3 ms,
        # more than the delete itself.
        params: dict[str, Any] = {}
        about = []
        for i, node_id in enumerate(node_ids):
            params[f"n{i}"] = node_id
            params[f"l{i}"] = "%" + like_escape(json.dumps(node_id)) + "%"
            about.append(f"current_head_id = :n{i} OR target_ids_json LIKE :l{i} ESCAPE '\\'")
        rows = self._rows(
            f"{_PENDING_SELECT} WHERE status = 'pending' AND ({' OR '.join(about)})"
            " ORDER BY created_at, id",
            params,
        )
        return [row_to_pending(dict(zip(_PENDING_COLUMNS, r, strict=True))) for r in rows]

    def pending_proposing(self, node_id: str) -> PendingItem | None:
        """The newest item (of any status) whose proposed node carries ``node_id``: the id
        a proposal showed while it waited, looked up when no memory holds it."""
        p = t.memory_pending
        rows = self.conn.execute(
            select(p)
            .where(p.c.node_json.contains(json.dumps(node_id), autoescape=True))
            .order_by(p.c.created_at.desc(), p.c.id.desc())
        ).mappings()
        items = (row_to_pending(r) for r in rows)
        return next((i for i in items if i.node is not None and i.node.get("id") == node_id), None)

    def get_pending(self, pending_id: str) -> PendingItem | None:
        """One pending item by id."""
        p = t.memory_pending
        row = self.conn.execute(select(p).where(p.c.id == pending_id)).mappings().first()
        return None if row is None else row_to_pending(row)

    # --- usage ----------------------------------------------------------------------

    def usage_for_node(self, node_id: str, recent: int = 10) -> NodeUsage:
        """How often and when a node fed a reply."""
        u = t.memory_usage
        count, last = self.conn.execute(
            select(func.count(), func.max(u.c.used_at)).where(u.c.node_id == node_id)
        ).one()
        ids = (
            self.conn.execute(
                select(u.c.message_id)
                .where(u.c.node_id == node_id)
                .order_by(u.c.used_at.desc())
                .limit(recent)
            )
            .scalars()
            .all()
        )
        return NodeUsage(
            node_id=node_id,
            count=int(count or 0),
            last_used_at=from_db(last),
            recent_message_ids=list(ids),
        )

    def usage_for_message(self, message_id: str) -> list[str]:
        """Node ids that fed one reply."""
        u = t.memory_usage
        return list(
            self.conn.execute(select(u.c.node_id).where(u.c.message_id == message_id)).scalars()
        )

    # --- background cursors ---------------------------------------------------------

    def get_cursor(self, session_id: str, kind: str) -> tuple[str, datetime] | None:
        """(message id, its time) up to which ``kind`` work has read the session's log."""
        c = t.memory_session_cursors
        row = self.conn.execute(
            select(c.c.message_id, c.c.message_created_at).where(
                c.c.session_id == session_id, c.c.kind == kind
            )
        ).first()
        return None if row is None else (row[0], from_db_required(row[1]))

    # --- retry queue ----------------------------------------------------------------

    def due_jobs(self, now: datetime, limit: int = 20) -> list[dict[str, Any]]:
        """Retry-queue jobs whose time has come."""
        r = t.memory_retry_queue
        rows = self.conn.execute(
            select(r)
            .where(r.c.next_attempt_at <= to_db(now))
            .order_by(r.c.next_attempt_at)
            .limit(limit)
        ).mappings()
        return [dict(row) for row in rows]

    def count_jobs(self) -> int:
        """How many jobs wait in the retry queue."""
        return int(
            self.conn.execute(select(func.count()).select_from(t.memory_retry_queue)).scalar() or 0
        )

    def data_version(self) -> int:
        """Changes when another connection commits; cheap to poll."""
        return self.dialect.data_version(self.conn)

    def table_counts(self) -> dict[str, int]:
        """Row counts of every table (for stats and purge reports)."""
        out = {}
        for table in (
            t.memory_messages,
            t.memory_summaries,
            t.memory_nodes,
            t.memory_audit_events,
            t.memory_pending,
            t.memory_usage,
            t.memory_retry_queue,
            t.memory_node_vectors,
        ):
            out[table.name] = int(
                self.conn.execute(select(func.count()).select_from(table)).scalar() or 0
            )
        return out

    # --- vectors (semantic recall) ---------------------------------------------------

    def vectors_since(self, model: str, after_vid: int, limit: int = 50_000) -> list[VectorRow]:
        """Vectors of ``model`` written after ``after_vid``, oldest first."""
        rows = self._rows(
            "SELECT node_id, model, dim, text_hash, scale, vector, vid FROM memory_node_vectors "
            "WHERE model = :model AND vid > :after ORDER BY vid LIMIT :lim",
            {"model": model, "after": after_vid, "lim": limit},
        )
        return [VectorRow(r[0], r[1], r[2], r[3], r[4], bytes(r[5]), r[6]) for r in rows]

    def vector_stats(self, model: str) -> tuple[int, int]:
        """(how many vectors of ``model``, the newest one's vid)."""
        row = self._rows(
            "SELECT count(*), coalesce(max(vid), 0) FROM memory_node_vectors WHERE model = :model",
            {"model": model},
        )[0]
        return int(row[0]), int(row[1])

    def vector_models(self) -> dict[str, int]:
        """How many vectors each model wrote."""
        rows = self._rows("SELECT model, count(*) FROM memory_node_vectors GROUP BY model", {})
        return {str(r[0]): int(r[1]) for r in rows}

    def vector_texts(self, ids: Sequence[str]) -> dict[str, str]:
        """The digest of each node's current text (``embedders.text_hash``), by id."""
        out: dict[str, str] = {}
        for chunk in chunks(ids):
            cond, params = where_sql(NodeFilter(ids=chunk, statuses=None))
            for r in self._rows(
                f"SELECT id, title, content FROM memory_nodes WHERE {cond}", params
            ):
                out[r[0]] = text_hash(node_text(r[1], r[2]))
        return out

    def nodes_missing_vectors(
        self, model: str, limit: int, ids: Sequence[str] | None = None, after_seq: int = 0
    ) -> list[tuple[str, str, str, int]]:
        """(id, title, content, seq) of nodes not deleted that have no vector of ``model``
        (of ``ids`` only, if given), by seq, after ``after_seq`` (a sweep's cursor: each
        batch starts where the last one ended, not at the first node again)."""
        params: dict[str, Any] = {"model": model, "lim": limit, "after": after_seq}
        among = ""
        if ids is not None:
            if not ids:
                return []
            cond, id_params = where_sql(NodeFilter(ids=list(ids), statuses=None), alias="n")
            among = f" AND {cond}"
            params.update(id_params)
        rows = self._rows(
            "SELECT n.id, n.title, n.content, n.seq FROM memory_nodes n "
            "LEFT JOIN memory_node_vectors v ON v.node_id = n.id AND v.model = :model "
            f"WHERE n.seq > :after AND v.node_id IS NULL AND n.status <> 'deleted'{among} "
            "ORDER BY n.seq LIMIT :lim",
            params,
        )
        return [(r[0], r[1], r[2], int(r[3])) for r in rows]

    def count_missing_vectors(self, model: str) -> int:
        """How many nodes not deleted have no vector of ``model``."""
        return int(
            self._rows(
                "SELECT count(*) FROM memory_nodes n "
                "LEFT JOIN memory_node_vectors v ON v.node_id = n.id AND v.model = :model "
                "WHERE v.node_id IS NULL AND n.status <> 'deleted'",
                {"model": model},
            )[0][0]
        )

    def node_rows_by_id(self, ids: Sequence[str], f: NodeFilter) -> list[NodeRow]:
        """The rows of ``ids`` that ``f`` lets through (any order)."""
        if not ids:
            return []
        cond, params = where_sql(replace(f, ids=list(ids)))
        return self._node_rows(f"{_NODE_SELECT} WHERE {cond}", params)

    # --- bulk reads (export, import, purge) -----------------------------------------

    def _stream(self, q: Any) -> Iterator[Any]:
        # Rows arrive in batches as the caller iterates: a 100k-row table never sits in memory.
        yield from self.conn.execute(q.execution_options(yield_per=STREAM_BATCH)).mappings()

    def iter_nodes(
        self, f: NodeFilter, *, order: NodeOrder = "created_asc"
    ) -> Iterator[MemoryNode]:
        """Every node matching ``f``, streamed in ``order`` (oldest first by default)."""
        for row in self._stream(select(n).where(where_clause(f)).order_by(order_clause(order))):
            yield row_to_node(row)

    def node_ids(self, f: NodeFilter) -> list[str]:
        """Ids of every node matching ``f``."""
        return list(self.conn.execute(select(n.c.id).where(where_clause(f))).scalars())

    def iter_nodes_by_id(self, ids: Iterable[str]) -> Iterator[MemoryNode]:
        """Nodes by id (any status), chunk by chunk, each chunk oldest first."""
        for chunk in chunks(ids):
            yield from self.find_nodes(
                NodeFilter(ids=chunk, statuses=None), limit=None, order="created_asc"
            )

    def chain_neighbours(self, ids: Iterable[str]) -> set[str]:
        """Ids one supersede link away from ``ids`` (older and newer versions), as this store knows them.

        An older version may live in the other store (a session memory promoted to the user).
        """
        out: set[str] = set()
        for chunk in chunks(ids):
            rows = self.conn.execute(
                select(n.c.id, n.c.supersedes_id).where(
                    or_(n.c.id.in_(chunk), n.c.supersedes_id.in_(chunk))
                )
            ).all()
            for node_id, older in rows:
                out.add(node_id)
                if older:
                    out.add(older)
        return out

    def existing_ids(self, table: str, ids: Iterable[str]) -> set[str]:
        """Which of ``ids`` are present in ``table`` (any table with an ``id`` key)."""
        tbl = t.metadata.tables[table]
        found: set[str] = set()
        for chunk in chunks(ids):
            found.update(self.conn.execute(select(tbl.c.id).where(tbl.c.id.in_(chunk))).scalars())
        return found

    def iter_audit(self, node_ids: Iterable[str] | None = None) -> Iterator[AuditEvent]:
        """Every audit event oldest first, or those of some nodes (chunk by chunk)."""
        a = t.memory_audit_events
        if node_ids is None:
            for row in self._stream(select(a).order_by(a.c.created_at, a.c.id)):
                yield row_to_audit(row)
            return
        for chunk in chunks(node_ids):
            q = select(a).where(a.c.node_id.in_(chunk)).order_by(a.c.created_at, a.c.id)
            for row in self.conn.execute(q).mappings():
                yield row_to_audit(row)

    def audit_ids_for_nodes(self, node_ids: Iterable[str]) -> list[str]:
        """Ids of the audit events about some nodes."""
        return [e.id for e in self.iter_audit(node_ids)]

    def iter_messages(self, ids: Iterable[str] | None = None) -> Iterator[MemoryMessage]:
        """Every message oldest first, or some by id."""
        m = t.memory_messages
        if ids is None:
            for row in self._stream(select(m).order_by(m.c.created_at, m.c.id)):
                yield row_to_message(row)
            return
        for chunk in chunks(ids):
            yield from self.get_messages(chunk)

    def iter_summaries(self) -> Iterator[MemorySummary]:
        """Every summary, oldest first."""
        s = t.memory_summaries
        for row in self._stream(select(s).order_by(s.c.created_at, s.c.id)):
            yield row_to_summary(row)

    def iter_usage(self, node_ids: Iterable[str] | None = None) -> Iterator[UsageRecord]:
        """Every usage record, or those of some nodes."""
        u = t.memory_usage
        if node_ids is None:
            for row in self._stream(select(u).order_by(u.c.used_at, u.c.id)):
                yield row_to_usage(row)
            return
        for chunk in chunks(node_ids):
            q = select(u).where(u.c.node_id.in_(chunk)).order_by(u.c.used_at, u.c.id)
            for row in self.conn.execute(q).mappings():
                yield row_to_usage(row)

    def usage_ids(
        self, *, node_ids: Iterable[str] = (), message_ids: Iterable[str] = ()
    ) -> set[str]:
        """Ids of usage records of some nodes or some replies."""
        u = t.memory_usage
        found: set[str] = set()
        for col, ids in ((u.c.node_id, node_ids), (u.c.message_id, message_ids)):
            for chunk in chunks(ids):
                found.update(self.conn.execute(select(u.c.id).where(col.in_(chunk))).scalars())
        return found

    def list_cursors(self) -> list[SessionCursor]:
        """Every session's background cursors."""
        c = t.memory_session_cursors
        rows = self.conn.execute(select(c).order_by(c.c.session_id, c.c.kind)).mappings()
        return [
            SessionCursor.model_construct(
                session_id=r["session_id"],
                kind=r["kind"],
                message_id=r["message_id"],
                message_created_at=from_db_required(r["message_created_at"]),
                updated_at=from_db_required(r["updated_at"]),
            )
            for r in rows
        ]

    def job_ids_for_sessions(self, session_ids: Iterable[str]) -> list[str]:
        """Retry-queue jobs of some sessions (their payloads can quote the messages)."""
        r = t.memory_retry_queue
        out: list[str] = []
        for chunk in chunks(session_ids):
            out += self.conn.execute(select(r.c.id).where(r.c.session_id.in_(chunk))).scalars()
        return out

    def summaries_covering(self, msgs: Sequence[MemoryMessage]) -> set[str]:
        """Summaries built on any of ``msgs``: those whose range includes one of them, and
        every later link of their chains — a summary is built from the one before it, so
        its words (a rule summary carries the text forward) live on in the links after."""
        ids = {m.id for m in msgs}
        out: set[str] = set()
        for session_id in {m.session_id for m in msgs}:
            times = [m.created_at for m in msgs if m.session_id == session_id]
            for summary in self.list_summaries(session_id):  # oldest first: parents first
                if summary.parent_summary_id in out:
                    out.add(summary.id)
                    continue
                bounds = {
                    x.id: x.created_at
                    for x in self.get_messages([summary.from_message_id, summary.to_message_id])
                }
                lo = bounds.get(summary.from_message_id)
                hi = bounds.get(summary.to_message_id)
                if (
                    any((lo is None or lo <= at) and (hi is None or at <= hi) for at in times)
                    or summary.from_message_id in ids
                    or summary.to_message_id in ids
                ):
                    out.add(summary.id)
        return out

    # --- finding text (purge) ---------------------------------------------------------

    def node_ids_with_text(self, text_: str, f: NodeFilter) -> list[str]:
        """Nodes within ``f`` that hold ``text_``: full-text matches plus substrings of title,
        content, value, tags and entities (so a word only in the value is found too)."""
        found = [h.node.id for h in self.search_nodes(text_, f, limit=10**6)]
        cols = [n.c[name] for name in NODE_TEXT]
        q = select(n.c.id).where(where_clause(f), holding(cols, text_))
        found += self.conn.execute(q).scalars()
        return list(dict.fromkeys(found))

    def find_messages(
        self,
        *,
        session_id: str | None = None,
        after: datetime | None = None,
        before: datetime | None = None,
        text_: str | None = None,
    ) -> list[tuple[str, str, str]]:
        """(id, session id, first words) of messages matching every given criterion."""
        m = t.memory_messages
        q = select(m.c.id, m.c.session_id, func.substr(m.c.content, 1, 60))
        if session_id is not None:
            q = q.where(m.c.session_id == session_id)
        if after is not None:
            q = q.where(m.c.created_at >= to_db(after))
        if before is not None:
            q = q.where(m.c.created_at < to_db(before))
        if text_ is not None:
            q = q.where(m.c.content.contains(text_, autoescape=True))
        rows = self.conn.execute(q.order_by(m.c.created_at, m.c.id)).all()
        return [(r[0], r[1], r[2] or "") for r in rows]

    def summary_ids_with_text(self, text_: str, session_id: str | None = None) -> list[str]:
        """Summaries whose text (summary, goal or any list) holds ``text_``."""
        s = t.memory_summaries
        q = select(s.c.id).where(holding([s.c[name] for name in SUMMARY_TEXT], text_))
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
