"""A turn's reads of one PostgreSQL store in one round trip.

``build_context`` asks each store the same dozen questions every turn: the session's
recent messages and summary, its nodes, the workspace's sections, the hinted topics, the
profile rules, the keyword search (term counts, the ranked search, the count of matches
when the filter leaves too few hits, the uncapped search then) and the waiting
proposals. Asked one by one, on PostgreSQL each was a round trip, with a pool ping,
BEGIN and COMMIT around them: 24–31 a turn at 100k memories (``bench_pg_context.py``).

Here they go as one statement: every answer a JSON column of one row (rows as arrays in
their usual column order), the data-dependent steps decided by the server —

- the keyword choice (``search_text.choose_keywords``): the message's terms are counted
  in the statement (counts cached by ``term_cache`` are passed in), ordered by count, and
  the tsquery built from those that fit the ranking budget (or all of them, ranking only
  the newest matches);
- the count of matches when the filter leaves fewer hits than asked, and the uncapped
  search after it (``SearchReads._ranked``), each run only when needed (an InitPlan is
  evaluated when first used, and a CASE branch only when taken);
- a hinted topic's choice of statement (``NodeReads._small_topic``), when not cached:
  computed from the same capped counts, both statements present, only the chosen one run.

One statement sees one snapshot, so it runs outside any transaction (autocommit): no
BEGIN and COMMIT. It runs on the connection the reading thread keeps (``thread_pins``):
no pool ping. It is planned for its values each time (never prepared): a generic plan of
a capped count is a sequential scan (see ``PostgresDialect.fetch``). The answers are the
same rows the separate statements returned (``tests/core/test_context_answers.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ekko_memory.models import MemoryMessage, MemorySummary, PendingItem
from ekko_memory.store.filters import NodeFilter, NodeOrder, live_condition, where_sql
from ekko_memory.store.ledger_reads import row_to_pending
from ekko_memory.store.node_reads import TOPIC_CAP, _cached_node_query, _node_query, _topic_key
from ekko_memory.store.reader_base import (
    MESSAGE_SELECT,
    NODE_COLUMNS_N,
    PENDING_COLUMNS,
    PENDING_SELECT,
    SUMMARY_SELECT,
)
from ekko_memory.store.rows import (
    MESSAGE_COLUMNS,
    NODE_COLUMNS,
    SUMMARY_COLUMNS,
    NodeRow,
    message_from_tuple,
    summary_from_tuple,
)
from ekko_memory.store.search_reads import RowHit
from ekko_memory.store.search_text import (
    MessageTerms,
    choose_keywords,
    count_cap,
    message_terms,
    supports,
)
from ekko_memory.timeutil import to_db

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ekko_memory.store.sql_store import SqlStore

# Columns read back as floats (JSON writes 1.0 as 1).
_FLOAT_AT = tuple(NODE_COLUMNS.index(c) for c in ("confidence", "importance"))
# ``:name`` outside quotes, not a ``::type`` cast (as postgres_dialect._NAMED).
_NAMED = re.compile(r"('(?:[^']|'')*')|(?<![:\w]):([A-Za-z_]\w*)")


@dataclass(frozen=True)
class NodeAsk:
    """``find_node_rows(f, limit=limit, order=order)``."""

    f: NodeFilter
    limit: int
    order: NodeOrder = "priority"


@dataclass(frozen=True)
class KeywordAsk:
    """``search_rows(message, f, limit=limit, any_term=True, live_at=live_at)``."""

    message: str
    f: NodeFilter
    limit: int
    live_at: datetime


@dataclass(frozen=True)
class WaitingAsk:
    """``waiting_proposals(requester=…, user_id=…, workspace_id=…, limit=…)``."""

    requester: str
    user_id: str | None
    workspace_id: str | None
    limit: int


@dataclass
class TurnAsk:
    """What a turn asks one store."""

    recent: tuple[str, int] | None = None  # (session id, how many messages)
    summary_of: str | None = None  # session id
    nodes: list[NodeAsk] = field(default_factory=list)
    keywords: KeywordAsk | None = None
    waiting: WaitingAsk | None = None


@dataclass
class TurnRows:
    """The answers, as the separate reads give them."""

    recent: list[MemoryMessage] = field(default_factory=list)
    summary: MemorySummary | None = None
    nodes: list[list[NodeRow]] = field(default_factory=list)
    hits: list[RowHit] = field(default_factory=list)
    waiting: list[PendingItem] = field(default_factory=list)


def _json_rows(columns: list[str] | tuple[str, ...], sql: str, alias: str = "q") -> str:
    """A scalar subquery: the rows of ``sql`` as a JSON array of arrays, in its order."""
    cols = ", ".join(f"{alias}.{c}" for c in columns)
    return (
        f"(SELECT coalesce(json_agg(json_build_array({cols})), '[]'::json) FROM ({sql}) AS {alias})"
    )


class _Statement:
    """Parts of one statement, each with its own parameter names."""

    def __init__(self) -> None:
        self.columns: list[str] = []
        self.params: dict[str, Any] = {}
        self._n = 0

    def bind(self, sql: str, params: dict[str, Any]) -> str:
        """``sql`` with its parameters renamed apart from every other part's."""
        self._n += 1
        prefix = f"b{self._n}_"

        def swap(m: re.Match[str]) -> str:
            return m.group(1) if m.group(1) is not None else f":{prefix}{m.group(2)}"

        self.params.update({prefix + k: v for k, v in params.items()})
        return _NAMED.sub(swap, sql)

    def add(self, sql: str) -> int:
        self.columns.append(sql)
        return len(self.columns) - 1

    def sql(self) -> str:
        return "SELECT " + ", ".join(self.columns)


def _node_part(st: _Statement, store: SqlStore, ask: NodeAsk) -> tuple[int, Any]:
    """A node query's column; with the topic key to cache when its choice is made here."""
    f, limit, order = ask.f, ask.limit, ask.order
    key = _topic_key(f) if order == "priority" else None
    known = store.dialect.topic_sizes.cached((key, limit)) if key is not None else None
    if key is None or known is not None:
        ranged = bool(known)
        try:
            sql, params = _cached_node_query(f, limit, 0, order, ranged)
        except TypeError:  # a filter holding lists cannot be a cache key
            sql, params = _node_query(f, limit, 0, order, ranged)
        return st.add(_json_rows(NODE_COLUMNS, st.bind(sql, dict(params)))), None
    # The choice of NodeReads._small_topic, made by the server from the same counts.
    scope, domain, node_type, statuses, prefix = key
    group = NodeFilter(scopes=(scope,), domain=domain, types=(node_type,), statuses=statuses)
    topic_cond, topic_params = where_sql(
        replace(group, category_prefix=prefix), category_range=True
    )
    group_cond, group_params = where_sql(group)
    topic = st.bind(
        f"SELECT count(*) AS c FROM (SELECT 1 FROM memory_nodes WHERE {topic_cond}"
        " LIMIT :cap) AS t",
        {**topic_params, "cap": TOPIC_CAP + 1},
    )
    need = st.bind("c * c / :lim + 1", {"lim": limit})
    lim = st.bind(":lim", {"lim": limit})
    grouped = st.bind(
        f"SELECT count(*) FROM (SELECT 1 FROM memory_nodes WHERE {group_cond}"
        " LIMIT (SELECT NEED FROM topic)) AS g",
        group_params,
    ).replace("NEED", need)
    choice = (
        f"WITH topic AS ({topic}) SELECT CASE WHEN c > {TOPIC_CAP} THEN false"
        f" WHEN c < {lim} THEN true ELSE ({grouped}) >= {need} END AS ranged FROM topic"
    )
    by_range = _json_rows(NODE_COLUMNS, st.bind(*_node_query(f, limit, 0, order, True)))
    by_priority = _json_rows(NODE_COLUMNS, st.bind(*_node_query(f, limit, 0, order, False)))
    return (
        st.add(
            f"(WITH pick AS ({choice}) SELECT json_build_array((SELECT ranged FROM pick),"
            f" CASE WHEN (SELECT ranged FROM pick) THEN {by_range} ELSE {by_priority} END))"
        ),
        (key, limit),
    )


def _keyword_part(
    st: _Statement, store: SqlStore, conn: Connection, ask: KeywordAsk
) -> tuple[int, MessageTerms] | None:
    """The keyword search's column (None: nothing to search for): the hits among the
    index's best ``cap``, and all of them when those were too few but the index held more.

    The terms are chosen here, from their counts (``PostgresDialect.term_counts``: one
    more round trip when some are not cached), not by the server: a tsquery the planner
    sees (a bound value of a statement planned for its values) is estimated from the
    column's statistics, and a frequent word's newest matches are then read by a backward
    scan of the newest rows (3.5 ms), where a tsquery computed in the statement was
    estimated at 200 matches and all 7 000 were ranked (29 ms; measured at 100k)."""
    words = message_terms(ask.message)
    if not words.terms:
        return None
    counts = store.dialect.term_counts(conn, words.terms, count_cap())
    terms, window = choose_keywords(words.terms, counts)
    if not terms:
        return None
    limit = ask.limit
    cap = max(limit * 5, 100)
    dialect = store.dialect
    found = dialect.search_sql(terms, any_term=True, window=window, cap=cap)
    counting = dialect.search_sql(terms, any_term=True, window=window, cap=cap, ranked=False)
    uncapped = dialect.search_sql(terms, any_term=True, window=window, cap=None)
    assert found is not None and counting is not None and uncapped is not None
    cond, filter_params = where_sql(ask.f, alias="n")
    cond += f" AND {live_condition('n.')}"
    filter_params = {**filter_params, "f_live": to_db(ask.live_at), "lim": limit}

    def joined(search: tuple[str, dict[str, Any]]) -> str:
        fts_sql, params = search
        return st.bind(
            f"SELECT {NODE_COLUMNS_N}, CAST(fts.rank AS float8) AS rank FROM ({fts_sql}) AS fts"
            f" JOIN memory_nodes n ON n.seq = fts.seq WHERE {cond}"
            " ORDER BY fts.rank, n.updated_at DESC LIMIT :lim",
            {**params, **filter_params},
        )

    # A word in at least ``cap`` nodes (its count is capped above that) makes at least as
    # many matches: the count of them all is needed only when every word is rarer.
    common = any(counts.get(t.tokens[0], 0) >= cap for t in terms)
    count_sql, count_params = counting
    enough = (
        "true"
        if common
        else st.bind(
            f"((SELECT count(*) FROM ({count_sql}) AS capped) >= :cap)",
            {**count_params, "cap": cap},
        )
    )
    lim = st.bind(":lim", {"lim": limit})
    hit_columns = [*NODE_COLUMNS, "rank"]
    # CASE decides in order: the count runs only when the hits were too few, the
    # uncapped search only when the index held more.
    sql = (
        f"(WITH hits AS MATERIALIZED ({joined(found)}) SELECT json_build_array("
        f"{_json_rows(hit_columns, 'SELECT * FROM hits', 'h')},"
        f" CASE WHEN (SELECT count(*) FROM hits) >= {lim} THEN NULL WHEN NOT {enough}"
        f" THEN NULL ELSE {_json_rows(hit_columns, joined(uncapped), 'u')} END))"
    )
    return st.add(sql), words


def _node_row(values: list[Any]) -> NodeRow:
    for i in _FLOAT_AT:
        values[i] = float(values[i])
    return NodeRow(values)


def _hit(values: list[Any]) -> RowHit:
    return RowHit(_node_row(values), float(values[-1]))


def read_turn(store: SqlStore, ask: TurnAsk) -> TurnRows:
    """Everything ``ask`` asks of ``store`` (a PostgreSQL store): one statement, after the
    count of the message's words not cached (one more round trip, when there are any)."""
    with _kept(store) as conn:
        return _read(store, conn, ask)


def _read(store: SqlStore, conn: Connection, ask: TurnAsk) -> TurnRows:
    st = _Statement()
    recent_at = summary_at = waiting_at = None
    if ask.recent is not None:
        session_id, count = ask.recent
        recent_at = st.add(
            _json_rows(
                MESSAGE_COLUMNS,
                st.bind(
                    f"{MESSAGE_SELECT} WHERE session_id = :sid"
                    " ORDER BY created_at DESC, id DESC LIMIT :lim",
                    {"sid": session_id, "lim": count},
                ),
            )
        )
    if ask.summary_of is not None:
        summary_at = st.add(
            _json_rows(
                SUMMARY_COLUMNS,
                st.bind(
                    f"{SUMMARY_SELECT} WHERE session_id = :sid AND stale = 0"
                    " ORDER BY created_at DESC, id DESC LIMIT 1",
                    {"sid": ask.summary_of},
                ),
            )
        )
    node_parts = [_node_part(st, store, node_ask) for node_ask in ask.nodes]
    keyword = _keyword_part(st, store, conn, ask.keywords) if ask.keywords is not None else None
    if ask.waiting is not None:
        w = ask.waiting
        waiting_at = st.add(
            _json_rows(
                PENDING_COLUMNS,
                st.bind(
                    f"{PENDING_SELECT} WHERE status = 'pending' AND kind = 'write'"
                    " AND requester = :requester"
                    " AND (CAST(:user_id AS TEXT) IS NULL OR user_id IS NULL OR user_id = :user_id)"
                    " AND (CAST(:workspace_id AS TEXT) IS NULL OR workspace_id IS NULL"
                    " OR workspace_id = :workspace_id)"
                    " ORDER BY created_at DESC, id DESC LIMIT :limit",
                    {
                        "requester": w.requester,
                        "user_id": w.user_id,
                        "workspace_id": w.workspace_id,
                        "limit": w.limit,
                    },
                ),
            )
        )
    out = TurnRows()
    if not st.columns:
        return out
    # Planned for its values: psycopg would prepare a statement it sees repeatedly, and
    # a generic plan of a capped count is a sequential scan (PostgresDialect.fetch).
    row = store.dialect.fetch(conn, st.sql(), st.params, reuse_plan=False)[0]
    if recent_at is not None:
        out.recent = [message_from_tuple(tuple(r)) for r in reversed(row[recent_at])]
    if summary_at is not None and row[summary_at]:
        out.summary = summary_from_tuple(tuple(row[summary_at][0]))
    for at, topic in node_parts:
        value = row[at]
        if topic is not None:
            ranged, value = value
            store.dialect.topic_sizes.put({topic: int(bool(ranged))})
        out.nodes.append([_node_row(r) for r in value])
    if keyword is not None:
        at, words = keyword
        capped, uncapped = row[at]
        hits = [_hit(r) for r in (uncapped if uncapped is not None else capped)]
        out.hits = [h for h in hits if supports(words, h.row.labels(), h.row.content)]
    if waiting_at is not None:
        out.waiting = [
            row_to_pending(dict(zip(PENDING_COLUMNS, r, strict=True))) for r in row[waiting_at]
        ]
    return out


@contextmanager
def _kept(store: SqlStore) -> Iterator[Connection]:
    """This thread's kept connection to ``store`` in autocommit: each statement its own
    snapshot, no BEGIN or COMMIT, no pool ping (a pooled connection in a read transaction
    when it is busy: a nested read)."""
    engine = store._require(write=False)
    try:
        pin = store._pins.take(engine)
    except Exception as e:
        raise _translated(store, e) from e
    if pin is None:
        with store.read() as r:
            yield r.conn
        return
    driver = pin.driver
    try:
        driver.autocommit = True
        try:
            yield pin.conn
        finally:
            driver.autocommit = False
    except BaseException as e:
        store._pins.give_back(pin, broken=_driver_error(e))
        if _driver_error(e):
            raise _translated(store, e) from e
        raise
    store._pins.give_back(pin)


def _driver_error(e: BaseException) -> bool:
    return type(e).__module__.startswith(("psycopg", "sqlalchemy"))


def _translated(store: SqlStore, e: BaseException) -> BaseException:
    """The store's own error for a driver's (others as they are)."""
    return store._translated(e) if _driver_error(e) else e
