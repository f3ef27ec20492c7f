"""A turn's reads of one PostgreSQL store in one round trip.

``build_context`` asks each store the same dozen questions every turn: the session's
recent messages and summary, its nodes, the workspace's sections, the hinted topics, the
profile rules, the keyword search (term counts, the ranked search, the count of matches
when the filter leaves too few hits, the uncapped search then) and the waiting
proposals. Asked one by one, on PostgreSQL each was a round trip, with a pool ping,
BEGIN and COMMIT around them: 24–31 a turn at 100k memories (``bench_pg_context.py``).

Here they go in one pipeline (``pg_pipeline``: every statement queued in libpq and sent
with one flush and one ``Sync``, the answers read together), between a ``BEGIN
ISOLATION LEVEL REPEATABLE READ READ ONLY`` and a ``COMMIT`` sent in the same pipeline
(one snapshot, as before), on the connection the reading thread keeps (``thread_pins``:
no pool ping); a turn sends both stores' pipelines before it awaits either answer
(``read_turns``). Each statement is the one the reads one by one sent, prepared as they
were (their generic plans spare the planning: one statement holding them all was
planned afresh each turn, 3–17 ms). The
steps that depended on an answer are decided by the server inside the statements:

- the count of all matches when the filter left fewer hits than asked, and the uncapped
  search after it (``SearchReads._ranked``): one statement, each part run only when
  needed (a CASE branch only when taken, a one-time filter before a subquery);
- a hinted topic's choice of statement (``NodeReads._small_topic``) when it is not
  cached: computed from the same capped counts, both statements present behind it, only
  the chosen one run, the choice returned (and cached a minute).

The keyword choice (``search_text.choose_keywords``) is made before the pipeline, from
the words' counts: the tsquery must be a value the planner sees (a tsquery computed inside
the statement was estimated at 200 matches, and a frequent word's 7 000 were all ranked:
29 ms, against 3.5 for a backward scan of the newest rows, measured at 100k). Large counts
are cached; the others were counted in one more round trip before the pipeline. Now the
words counted at an earlier turn are counted again inside the pipeline, the choice made
from their last counts and checked against the fresh ones (same snapshot): when those
choose another search, the store is read again (``_keyword_statements``). Only a word
never counted costs the round trip before. The answers are the rows the reads one by one
returned (``tests/core/test_context_answers.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ekko_memory.models import MemoryMessage, MemorySummary, PendingItem
from ekko_memory.store import marks, pg_pipeline
from ekko_memory.store.filters import NodeFilter, NodeOrder, live_condition, where_sql
from ekko_memory.store.ledger_reads import row_to_pending
from ekko_memory.store.node_reads import TOPIC_CAP, _cached_node_query, _node_query, _topic_key
from ekko_memory.store.postgres_dialect import PostgresDialect, term_count_array_sql
from ekko_memory.store.reader import StoreReader
from ekko_memory.store.reader_base import (
    MESSAGE_SELECT,
    NODE_COLUMNS_N,
    NODE_SELECT,
    PENDING_COLUMNS,
    PENDING_SELECT,
    SUMMARY_SELECT,
)
from ekko_memory.store.rows import NodeRow, message_from_tuple, summary_from_tuple
from ekko_memory.store.search_reads import RowHit, _instant_text, _joined_where
from ekko_memory.store.search_text import (
    QueryTerm,
    choose_keywords,
    count_cap,
    message_terms,
    supports,
)

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ekko_memory.store.sql_store import SqlStore

# ``:name`` outside quotes, not a ``::type`` cast (as postgres_dialect._NAMED).
_NAMED = re.compile(r"('(?:[^']|'')*')|(?<![:\w]):([A-Za-z_]\w*)")
BEGIN = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
# How a statement is planned (``_Statement.plan``), set for the statements after it in
# the snapshot's transaction (``set_config(…, true)``: no round trip of its own).
#
# "generic": the reads whose plan does not depend on their values (a session's messages,
# a scope's sections, a topic's nodes: equalities and ranges on indexed columns, a LIMIT)
# run on their generic plan from the first time. Left to choose (``auto``), the server
# planned them afresh at each bind (0.27 ms each, 13 a turn at 100k memories: 3.5 ms a
# turn, four times their execution), its custom plans never looking enough cheaper.
# The keyword search too, whose planning took 1.1–1.6 ms a turn at 100k for its three
# branches: for rare words (at most ``RANKED_MATCHES`` matches, counted) the generic
# plan's guess of a tsquery's matches (0.5 % of the rows) leads to the GIN index, as a
# custom plan does. "window": a frequent word's newest matches, which must be read
# backwards along ``seq`` and stop at the window, never all gathered through the GIN
# index (7 000 matches ranked: 29 ms) — the only paths the planner is left.
# "auto": planned for its values (the term counts).
_PLANS: dict[str, tuple[str, str]] = {
    "auto": ("auto", "on"),
    "generic": ("force_generic_plan", "on"),
    "window": ("force_generic_plan", "off"),
}
_SET_PLAN = (
    "SELECT set_config('plan_cache_mode', :mode, true),"
    " set_config('enable_bitmapscan', :scans, true), set_config('enable_seqscan', :scans, true)"
)


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
    # Asked first, with a reader on the same connection (the semantic stage's vectors
    # brought up to date): ids whose rows ``f`` lets through are read (``TurnRows.near``).
    near: Callable[[StoreReader], tuple[list[str], NodeFilter]] | None = None
    # A setting's name (``marks``): the pause switch, read in the same snapshot.
    setting: str | None = None


@dataclass
class TurnRows:
    """The answers, as the separate reads give them."""

    recent: list[MemoryMessage] = field(default_factory=list)
    summary: MemorySummary | None = None
    nodes: list[list[NodeRow]] = field(default_factory=list)
    hits: list[RowHit] = field(default_factory=list)
    waiting: list[PendingItem] = field(default_factory=list)
    near: list[NodeRow] = field(default_factory=list)
    setting: Any = None


def _renamed(sql: str, prefix: str) -> str:
    """``sql`` with every ``:name`` parameter as ``:<prefix>name``."""

    def swap(m: re.Match[str]) -> str:
        return m.group(1) if m.group(1) is not None else f":{prefix}{m.group(2)}"

    return _NAMED.sub(swap, sql)


@dataclass
class _Statement:
    sql: str
    params: dict[str, Any]
    reuse_plan: bool
    read: Callable[[list[tuple[Any, ...]]], None]
    # How the server plans it (``_PLANS``).
    plan: str = "auto"


def _node_statement(store: SqlStore, ask: NodeAsk, into: list[NodeRow]) -> _Statement:
    """``find_node_rows``'s statement (the topic's choice made by the server when it is
    not cached)."""
    f, limit, order = ask.f, ask.limit, ask.order

    def read(rows: list[tuple[Any, ...]]) -> None:
        into.extend(NodeRow(r) for r in rows)

    key = _topic_key(f) if order == "priority" else None
    known = store.dialect.topic_sizes.cached((key, limit)) if key is not None else None
    if key is None or known is not None:
        ranged = bool(known)
        try:
            sql, params = _cached_node_query(f, limit, 0, order, ranged)
        except TypeError:  # a filter holding lists cannot be a cache key
            sql, params = _node_query(f, limit, 0, order, ranged)
        return _Statement(sql, dict(params), True, read, plan="generic")
    # NodeReads._small_topic's choice, made by the server from the same capped counts.
    scope, domain, node_type, statuses, prefix = key
    group = NodeFilter(scopes=(scope,), domain=domain, types=(node_type,), statuses=statuses)
    topic_cond, topic_params = where_sql(
        replace(group, category_prefix=prefix), category_range=True
    )
    group_cond, group_params = where_sql(group)
    by_range, range_params = _node_query(f, limit, 0, order, True)
    by_priority, priority_params = _node_query(f, limit, 0, order, False)
    params = {
        **{"t_" + k: v for k, v in topic_params.items()},
        **{"g_" + k: v for k, v in group_params.items()},
        **{"r_" + k: v for k, v in range_params.items()},
        **{"p_" + k: v for k, v in priority_params.items()},
        "cap": TOPIC_CAP + 1,
        "lim": limit,
    }
    need = "c * c / :lim + 1"
    sql = (
        "WITH topic AS (SELECT count(*) AS c FROM (SELECT 1 FROM memory_nodes WHERE"
        f" {_renamed(topic_cond, 't_')} LIMIT :cap) AS t),"
        f" pick AS MATERIALIZED (SELECT CASE WHEN c > {TOPIC_CAP} THEN false"
        " WHEN c < :lim THEN true ELSE (SELECT count(*) FROM (SELECT 1 FROM memory_nodes"
        f" WHERE {_renamed(group_cond, 'g_')} LIMIT (SELECT {need} FROM topic)) AS g)"
        f" >= {need} END AS ranged FROM topic)"
        " SELECT q.*, pick.ranged FROM pick LEFT JOIN LATERAL ("
        f"SELECT * FROM ({_renamed(by_range, 'r_')}) AS r WHERE pick.ranged"
        f" UNION ALL SELECT * FROM ({_renamed(by_priority, 'p_')}) AS p"
        " WHERE NOT pick.ranged) AS q ON true"
    )

    def read_choice(rows: list[tuple[Any, ...]]) -> None:
        # One row at least (the choice's, with no node when the topic is empty).
        store.dialect.topic_sizes.put({(key, limit): int(bool(rows[0][-1]))})
        read([r for r in rows if r[0] is not None])

    return _Statement(sql, params, False, read_choice)


@dataclass(frozen=True)
class _Choice:
    """What the keyword search looks for, from the term counts (``choose_keywords``)."""

    terms: tuple[QueryTerm, ...]
    window: int | None
    # A chosen word is in ``cap`` nodes or more: all matches need no count.
    common: bool

    @staticmethod
    def of(terms: Sequence[str], counts: dict[str, int], cap: int) -> _Choice:
        chosen, window = choose_keywords(terms, counts)
        common = any(counts.get(t.tokens[0], 0) >= cap for t in chosen)
        return _Choice(chosen, window, common)


def _keyword_statements(
    store: SqlStore, conn: Connection, ask: KeywordAsk, into: list[RowHit], *, guess: bool
) -> tuple[list[_Statement], Callable[[], bool]]:
    """``search_rows(…, any_term=True)``'s statements in one (none: nothing to search):
    the hits among the index's best ``cap``, or, when those were too few and the index
    held ``cap`` matches or more, among all of them; and a check, after they ran, that
    the search was the right one.

    The words to search for depend on how many nodes hold each. The counts not cached
    (rare words: never cached) were a round trip before the pipeline; with ``guess``,
    when every such word was counted before (``term_guesses``), the search is chosen from
    those counts and the words are counted again in the pipeline, in the same snapshot
    as the search: the check says whether the fresh counts choose the same search (if not,
    the turn is read again). A word never counted is counted first, as before."""
    words = message_terms(ask.message)
    if not words.terms:
        return [], lambda: True
    dialect = store.dialect
    assert isinstance(dialect, PostgresDialect)
    limit = ask.limit
    cap = max(limit * 5, 100)
    statements: list[_Statement] = []
    check: Callable[[], bool] = lambda: True  # noqa: E731
    known, unknown = dialect.term_cache.get(words.terms)
    guessed: dict[str, int] = {}
    if guess and unknown:
        guessed, never = dialect.term_guesses.get(unknown)
        counting = term_count_array_sql(unknown, count_cap()) if not never else None
        if counting is None:
            guessed = {}
    if guessed:
        counts = {**known, **guessed}
        fresh: dict[str, int] = {}

        def read_counts(rows: list[tuple[Any, ...]]) -> None:
            fresh.update((str(t), int(c)) for t, c in rows)
            dialect.term_cache.put(fresh)
            dialect.term_guesses.put(fresh)

        assert counting is not None
        statements.append(_Statement(counting[0], counting[1], True, read_counts, plan="generic"))
        choice = _Choice.of(words.terms, counts, cap)

        def check() -> bool:
            return _Choice.of(words.terms, {**known, **fresh}, cap) == choice

    else:
        counts = dialect.term_counts(conn, words.terms, count_cap())
        choice = _Choice.of(words.terms, counts, cap)
    if not choice.terms:
        return statements, check
    terms, window = choice.terms, choice.window
    found = dialect.search_sql(terms, any_term=True, window=window, cap=cap)
    counting_all = dialect.search_sql(terms, any_term=True, window=window, cap=cap, ranked=False)
    uncapped = dialect.search_sql(terms, any_term=True, window=window, cap=None)
    assert found is not None and counting_all is not None and uncapped is not None
    try:
        cond, filter_params = _joined_where(ask.f)
    except TypeError:  # a filter holding lists cannot be a cache key
        cond, filter_params = where_sql(ask.f, alias="n")
    cond += f" AND {live_condition('n.')}"
    params: dict[str, Any] = {
        **filter_params,
        **found[1],
        "f_live": _instant_text(ask.live_at),
        "lim": limit,
        "cap": cap,
    }

    def joined(fts_sql: str) -> str:
        return (
            f"SELECT {NODE_COLUMNS_N}, fts.rank FROM ({fts_sql}) AS fts"
            f" JOIN memory_nodes n ON n.seq = fts.seq WHERE {cond}"
            " ORDER BY fts.rank, n.updated_at DESC LIMIT :lim"
        )

    # A word in ``cap`` nodes or more (its count is capped above that) makes as many
    # matches: all of them are counted only when every word is rarer.
    enough = (
        "true" if choice.common else f"(SELECT count(*) FROM ({counting_all[0]}) AS capped) >= :cap"
    )
    # The same tsquery in all three (``:fts_query``); the window, if any, too.
    sql = (
        f"WITH hits AS MATERIALIZED ({joined(found[0])}),"
        " again AS MATERIALIZED (SELECT CASE WHEN (SELECT count(*) FROM hits) >= :lim"
        f" THEN false ELSE {enough} END AS more)"
        " SELECT * FROM hits WHERE NOT (SELECT more FROM again)"
        f" UNION ALL SELECT * FROM ({joined(uncapped[0])}) AS u"
        " WHERE (SELECT more FROM again)"
    )

    def read(rows: list[tuple[Any, ...]]) -> None:
        hits = [RowHit(NodeRow(r), float(r[-1])) for r in rows]
        into.extend(h for h in hits if supports(words, h.row.labels(), h.row.content))

    plan = "window" if window is not None else "generic"
    statements.append(_Statement(sql, params, True, read, plan=plan))
    return statements, check


def read_turn(store: SqlStore, ask: TurnAsk) -> TurnRows:
    """Everything ``ask`` asks of ``store`` (a PostgreSQL store): one pipeline, after the
    count of the message's words not cached (one more round trip, when there are any)."""
    got = read_turns([(store, ask)])[0]
    if isinstance(got, BaseException):
        raise got
    return got


def read_turns(reads: Sequence[tuple[SqlStore, TurnAsk]]) -> list[TurnRows | Exception]:
    """Each store's ``read_turn`` (or what it raised), read at once from this thread:
    every store's pipeline is sent before any answer is awaited, so the servers (or one
    server's two backends) work on them together while this thread sends the next one and
    decodes the first answers. (A helper thread per store did the same with two Python
    threads contending for the interpreter: 3.3 against 2.7 ms p50 for a turn's two
    pipelines at 100k memories on 2 busy cores.)

    A kept connection is not pinged before use (the pool pings those it hands out): one
    the server closed meanwhile (a restart, a terminated backend) fails its first
    statement, and that store's turn is read again on a new one, as the pool would have."""
    out: list[TurnRows | Exception | None] = [None] * len(reads)
    started: list[tuple[int, Generator[None, None, TurnRows | None]]] = []
    try:
        for i, (store, ask) in enumerate(reads):
            steps = _read_turn(store, ask, guess=True)
            try:
                next(steps)  # runs until its pipeline is sent
                started.append((i, steps))
            except StopIteration as done:  # read in a transaction of its own already
                out[i] = done.value
            except _LostConnection:
                out[i] = _LOST
            except Exception as e:
                out[i] = e
        for i, steps in started:
            try:
                next(steps)
                raise RuntimeError("a turn's read went on after its answers")
            except StopIteration as done:
                out[i] = done.value
            except _LostConnection:
                out[i] = _LOST
            except Exception as e:
                out[i] = e
    finally:
        for _, steps in started:  # left mid-way (an interrupt): their connections go
            steps.close()
    results: list[TurnRows | Exception] = []
    for (store, ask), got in zip(reads, out, strict=True):
        try:
            if got is _LOST:
                got = _read_alone(store, ask, guess=True)
            if got is None:  # the words' fresh counts chose another search than their guesses
                # Again with those counts as guesses; counted first if they moved once more.
                got = _read_alone(store, ask, guess=True) or _read_alone(store, ask, guess=False)
                assert got is not None
        except Exception as e:
            got = e
        results.append(got)
    return results


def _read_alone(store: SqlStore, ask: TurnAsk, *, guess: bool) -> TurnRows | None:
    """``_read_turn`` run to its end."""
    steps = _read_turn(store, ask, guess=guess)
    try:
        while True:
            next(steps)
    except StopIteration as done:
        value: TurnRows | None = done.value
        return value
    finally:
        steps.close()


class _LostConnection(Exception):
    """A kept connection that had served before turned out closed by the server."""


# ``read_turns``'s mark for a store to read again on a new connection.
_LOST = _LostConnection()


def _read_turn(
    store: SqlStore, ask: TurnAsk, *, guess: bool
) -> Generator[None, None, TurnRows | None]:
    """A store's reads for a turn, in two steps: up to its pipeline sent (it yields
    then), and from its answers to the rows (it returns them; None: the words' fresh
    counts chose another search, read again). A nested read, in a transaction already,
    returns without yielding."""
    with _kept(store) as (conn, in_transaction):
        out = TurnRows()
        statements: list[_Statement] = []
        if ask.recent is not None:
            session_id, count = ask.recent

            def read_recent(rows: list[tuple[Any, ...]]) -> None:
                out.recent = [message_from_tuple(r) for r in reversed(rows)]

            statements.append(
                _Statement(
                    f"{MESSAGE_SELECT} WHERE session_id = :sid"
                    " ORDER BY created_at DESC, id DESC LIMIT :lim",
                    {"sid": session_id, "lim": count},
                    True,
                    read_recent,
                    plan="generic",
                )
            )
        if ask.summary_of is not None:

            def read_summary(rows: list[tuple[Any, ...]]) -> None:
                out.summary = summary_from_tuple(rows[0]) if rows else None

            statements.append(
                _Statement(
                    f"{SUMMARY_SELECT} WHERE session_id = :sid AND stale = 0"
                    " ORDER BY created_at DESC, id DESC LIMIT 1",
                    {"sid": ask.summary_of},
                    True,
                    read_summary,
                    plan="generic",
                )
            )
        for node_ask in ask.nodes:
            part: list[NodeRow] = []
            out.nodes.append(part)
            statements.append(_node_statement(store, node_ask, part))
        checks: list[Callable[[], bool]] = []
        if ask.keywords is not None:
            searches, check = _keyword_statements(
                store, conn, ask.keywords, out.hits, guess=guess and not in_transaction
            )
            statements += searches
            checks.append(check)
        if ask.near is not None:
            ids, f = ask.near(StoreReader(conn, store.dialect))
            if ids:
                cond, params = where_sql(replace(f, ids=ids))
                statements.append(
                    _Statement(
                        f"{NODE_SELECT} WHERE {cond}",
                        params,
                        True,
                        lambda rows: out.near.extend(NodeRow(r) for r in rows),
                    )
                )
        if ask.waiting is not None:
            w = ask.waiting

            def read_waiting(rows: list[tuple[Any, ...]]) -> None:
                out.waiting = [
                    row_to_pending(dict(zip(PENDING_COLUMNS, r, strict=True))) for r in rows
                ]

            statements.append(
                _Statement(
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
                    True,
                    read_waiting,
                    plan="generic",
                )
            )
        if ask.setting is not None:

            def read_setting(rows: list[tuple[Any, ...]]) -> None:
                out.setting = marks.setting_value(rows[0] if rows else None)

            statements.append(
                _Statement(
                    marks.SETTING_SELECT, {"name": ask.setting}, True, read_setting, plan="generic"
                )
            )
        if in_transaction:  # a nested read: in a transaction of its own already
            for st in statements:
                st.read(store.dialect.fetch(conn, st.sql, st.params, reuse_plan=st.reuse_plan))
        else:
            pending = _send(conn, statements)
            yield
            for st, rows in zip(statements, _answers(pending, statements), strict=True):
                st.read(rows)
        if not all(check() for check in checks):
            return None
        return out


def _send(conn: Connection, statements: list[_Statement]) -> pg_pipeline.Pending:
    """Send every statement in one pipeline inside one read-only snapshot
    (``pg_pipeline``: queued and flushed once), with the plan switches they need."""
    sent: list[pg_pipeline.Sent] = []
    plan = "auto"
    for st in statements:
        if st.plan != plan:
            # Local to the snapshot's transaction; no round trip of its own.
            plan = st.plan
            mode, scans = _PLANS[plan]
            sent.append(pg_pipeline.Sent(_SET_PLAN, {"mode": mode, "scans": scans}, True))
        # Prepared (a plan reused) unless it must be planned for its values
        # (PostgresDialect.fetch).
        sent.append(pg_pipeline.Sent(st.sql, st.params, st.reuse_plan))
    return pg_pipeline.send(conn.connection.dbapi_connection, BEGIN, sent, "COMMIT")


def _answers(
    pending: pg_pipeline.Pending, statements: list[_Statement]
) -> list[list[tuple[Any, ...]]]:
    """Each statement's rows (the plan switches' answers left out)."""
    rows = pending.receive()
    out = []
    i = 0
    plan = "auto"
    for st in statements:
        if st.plan != plan:
            plan = st.plan
            i += 1
        out.append(rows[i])
        i += 1
    return out


@contextmanager
def _kept(store: SqlStore) -> Iterator[tuple[Connection, bool]]:
    """This thread's kept connection to ``store``, in autocommit (the pipeline begins and
    commits its own snapshot), and False; when that is busy (a nested read), a pooled
    connection in a read transaction, and True."""
    engine = store._require(write=False)
    try:
        pin = store._pins.take(engine)
    except Exception as e:
        if _driver_error(e):
            raise store._translated(e) from e
        raise
    if pin is None:
        with store.read() as r:
            yield r.conn, True
        return
    driver = pin.driver
    served = pin.conn.info.get(_SERVED, False)
    try:
        driver.autocommit = True
        try:
            yield pin.conn, False
        finally:
            driver.autocommit = False
    except BaseException as e:
        # A failed pipeline leaves its transaction aborted: the connection goes.
        store._pins.give_back(pin, broken=True)
        if _driver_error(e):
            if served and getattr(driver, "broken", False):
                raise _LostConnection() from e
            raise store._translated(e) from e
        raise
    pin.conn.info[_SERVED] = True
    store._pins.give_back(pin)


# A kept connection's ``info`` key: it has served a turn (it was checked when taken).
_SERVED = "ekko_turn_served"


def _driver_error(e: BaseException) -> bool:
    return type(e).__module__.startswith(("psycopg", "sqlalchemy"))
