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
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ekko_memory.models import MemoryMessage, MemorySummary, PendingItem
from ekko_memory.store.filters import NodeFilter, NodeOrder, live_condition, where_sql
from ekko_memory.store.ledger_reads import row_to_pending
from ekko_memory.store.node_reads import TOPIC_CAP, _cached_node_query, _node_query, _topic_key
from ekko_memory.store.postgres_dialect import (
    MAX_LEXEME_BYTES,
    RANK_WEIGHTS,
    _lexeme,
    _pyformat,
)
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
    RANKED_MATCHES,
    MessageTerms,
    count_cap,
    message_terms,
    supports,
)
from ekko_memory.timeutil import to_db

if TYPE_CHECKING:
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
    st: _Statement, store: SqlStore, ask: KeywordAsk
) -> tuple[int, MessageTerms, list[str]] | None:
    """The keyword search's column (None: the message has no keyword): the counts made
    here, the hits, and the uncapped hits when the capped ones were too few."""
    words = message_terms(ask.message)
    if not words.terms:
        return None
    searchable = [t for t in words.terms if len(t.encode()) <= MAX_LEXEME_BYTES]
    known, unknown = store.dialect.term_cache.get(list(dict.fromkeys(searchable)))
    values = []
    params: dict[str, Any] = {"cap": count_cap(), "budget": RANKED_MATCHES}
    for i, term in enumerate(searchable):
        params |= {f"t{i}": term, f"q{i}": _lexeme(term), f"k{i}": known.get(term)}
        values.append(f"({i}, CAST(:t{i} AS text), CAST(:q{i} AS text), CAST(:k{i} AS bigint))")
    if not values:
        values.append("(0, NULL::text, NULL::text, 0::bigint)")
    cond, filter_params = where_sql(ask.f, alias="n")
    cond += f" AND {live_condition('n.')}"
    params |= filter_params
    params |= {"f_live": to_db(ask.live_at), "lim": ask.limit, "fcap": max(ask.limit * 5, 100)}
    params["window"] = RANKED_MATCHES
    query = "(SELECT CAST(query AS tsquery) FROM pick)"
    windowed = "(SELECT windowed FROM pick)"
    rank = f"-ts_rank('{RANK_WEIGHTS}', doc, {query}, 1) AS rank"
    match = f"FROM memory_nodes_fts WHERE doc @@ {query}"
    newest = f"SELECT seq, {rank} {match} ORDER BY seq DESC LIMIT :window"

    def joined(fts: str) -> str:
        return (
            f"SELECT {NODE_COLUMNS_N}, CAST(fts.rank AS float8) AS rank FROM ({fts}) AS fts"
            f" JOIN memory_nodes n ON n.seq = fts.seq WHERE {cond}"
            " ORDER BY fts.rank, n.updated_at DESC LIMIT :lim"
        )

    capped = (
        f"SELECT * FROM (SELECT seq, {rank} {match} ORDER BY rank LIMIT :fcap) AS a"
        f" WHERE NOT {windowed} UNION ALL SELECT * FROM (SELECT seq, rank FROM ({newest})"
        f" AS newest ORDER BY rank LIMIT :fcap) AS b WHERE {windowed}"
    )
    uncapped = (
        f"SELECT * FROM (SELECT seq, {rank} {match}) AS a WHERE NOT {windowed}"
        f" UNION ALL SELECT * FROM ({newest}) AS b WHERE {windowed}"
    )
    hit_columns = [*NODE_COLUMNS, "rank"]
    sql = (
        f"(WITH terms(pos, term, q, known) AS (VALUES {', '.join(values)}),"
        " counted AS MATERIALIZED (SELECT pos, term, q, known, coalesce(known, (SELECT count(*)"
        " FROM (SELECT 1 FROM memory_nodes_fts WHERE doc @@ CAST(terms.q AS tsquery)"
        " LIMIT :cap) AS m)) AS n FROM terms WHERE term IS NOT NULL),"
        " ranked AS MATERIALIZED (SELECT pos, term, q, n, sum(n) OVER (ORDER BY n, pos"
        " ROWS UNBOUNDED PRECEDING) AS total FROM counted WHERE n > 0),"
        " chosen AS MATERIALIZED (SELECT pos, q FROM ranked WHERE term IN"
        " (SELECT term FROM ranked WHERE total <= :budget)),"
        " pick AS MATERIALIZED (SELECT CASE WHEN EXISTS (SELECT 1 FROM chosen)"
        " THEN (SELECT string_agg(q, ' | ' ORDER BY pos) FROM chosen)"
        " ELSE (SELECT string_agg(q, ' | ' ORDER BY pos) FROM ranked) END AS query,"
        " NOT EXISTS (SELECT 1 FROM chosen) AS windowed),"
        f" hits AS MATERIALIZED ({joined(capped)}),"
        " again AS MATERIALIZED (SELECT CASE WHEN (SELECT count(*) FROM hits) >= :lim"
        f" THEN false ELSE (SELECT count(*) {match}) >= :fcap END AS more)"
        " SELECT json_build_array("
        "(SELECT coalesce(json_agg(json_build_array(term, n)), '[]'::json) FROM counted"
        " WHERE known IS NULL),"
        f" {_json_rows(hit_columns, 'SELECT * FROM hits', 'h')},"
        " CASE WHEN (SELECT more FROM again) THEN"
        f" {_json_rows(hit_columns, joined(uncapped), 'u')} END))"
    )
    return st.add(st.bind(sql, params)), words, searchable


def _node_row(values: list[Any]) -> NodeRow:
    for i in _FLOAT_AT:
        values[i] = float(values[i])
    return NodeRow(values)


def _hit(values: list[Any]) -> RowHit:
    return RowHit(_node_row(values), float(values[-1]))


def read_turn(store: SqlStore, ask: TurnAsk) -> TurnRows:
    """Everything ``ask`` asks of ``store`` (a PostgreSQL store), in one round trip."""
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
    keyword = _keyword_part(st, store, ask.keywords) if ask.keywords is not None else None
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
    row = _run(store, st.sql(), st.params)
    if recent_at is not None:
        out.recent = [message_from_tuple(tuple(r)) for r in reversed(row[recent_at])]
    if summary_at is not None and row[summary_at]:
        out.summary = summary_from_tuple(tuple(row[summary_at][0]))
    for (at, topic), _ask in zip(node_parts, ask.nodes, strict=True):
        value = row[at]
        if topic is not None:
            ranged, value = value
            store.dialect.topic_sizes.put({topic: int(bool(ranged))})
        out.nodes.append([_node_row(r) for r in value])
    if keyword is not None:
        at, words, _ = keyword
        counted, capped, uncapped = row[at]
        store.dialect.term_cache.put({term: int(n) for term, n in counted})
        found = uncapped if uncapped is not None else capped
        hits = [_hit(r) for r in found]
        out.hits = [h for h in hits if supports(words, h.row.labels(), h.row.content)]
    if waiting_at is not None:
        out.waiting = [
            row_to_pending(dict(zip(PENDING_COLUMNS, r, strict=True))) for r in row[waiting_at]
        ]
    return out


def _run(store: SqlStore, sql: str, params: dict[str, Any]) -> tuple[Any, ...]:
    """The statement's one row, on this thread's kept connection in autocommit (through
    a pooled one in a transaction when that is busy: a nested read)."""
    engine = store._require(write=False)
    try:
        pin = store._pins.take(engine)
    except Exception as e:
        raise _translated(store, e) from e
    if pin is None:
        with store.read() as r:
            return tuple(r._rows(sql, params, reuse_plan=False)[0])
    driver = pin.driver
    try:
        driver.autocommit = True
        try:
            cur = driver.cursor()
            try:
                cur.execute(_pyformat(sql), params, prepare=False)
                found = cur.fetchone()
            finally:
                cur.close()
        finally:
            driver.autocommit = False
    except BaseException as e:
        store._pins.give_back(pin, broken=True)
        raise _translated(store, e) from e
    store._pins.give_back(pin)
    assert found is not None
    return tuple(found)


def _translated(store: SqlStore, e: BaseException) -> BaseException:
    """The store's own error for a driver's (others as they are)."""
    if type(e).__module__.startswith(("psycopg", "sqlalchemy")):
        return store._translated(e)
    return e
