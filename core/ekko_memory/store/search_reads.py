"""Full-text search of memory nodes: the index ranks, the filter joins, a
substring scan when no word is searchable."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any

from ekko_memory.models import MemoryNode
from ekko_memory.store.filters import NodeFilter, like_escape, live_condition, where_sql
from ekko_memory.store.reader_base import NODE_COLUMNS_N, NODE_SELECT, ReaderBase
from ekko_memory.store.rows import NODE_COLUMNS, NodeRow, node_from_tuple
from ekko_memory.store.search_text import (
    QueryTerm,
    choose_keywords,
    count_cap,
    fts5_match_expression,
    message_terms,
    query_terms,
    supports,
)
from ekko_memory.store.sqlite_dialect import BM25, BM25_RANK
from ekko_memory.timeutil import to_db


@dataclass(frozen=True)
class SearchHit:
    """A node found by full-text search and its rank (lower is better)."""

    node: MemoryNode
    rank: float


# ``_framed_pass`` ranks the index's best matches first, this many times the window it
# fills (at 100k memories half a store's matches of a common word pass the viewer), when
# a store holds at least ``MANY_MATCHES`` of the query: with fewer, FTS5's own rank order
# read until the window is full costs less than ranking them and reading the rows kept
# (at 10k memories, ~300 matches a store: 1.3-1.6 ms a store against 1.6-2.1).
RANKED_FIRST = 4.0
MANY_MATCHES = 1000

# A search statement and its parameters (None: nothing to search for).
SearchSql = tuple[str, dict[str, Any]] | None


@dataclass(frozen=True)
class RowHit:
    """A search match as an untyped row (``NodeRow.node()`` types it) and its rank."""

    row: NodeRow
    rank: float


# A search's filter joined to the index, for the filters callers keep from turn to turn.
_joined_where = lru_cache(maxsize=256)(partial(where_sql, alias="n"))

# A turn searches each store as of one instant: its text is formatted once.
_instant_text = lru_cache(maxsize=8)(to_db)


class SearchReads(ReaderBase):
    """Full-text and keyword search within a filter."""

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
            f"SELECT {NODE_COLUMNS_N}, fts.rank FROM ({fts_sql}) AS fts "
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
            f"{NODE_SELECT} WHERE {cond} AND (title LIKE :needle ESCAPE '\\' OR content LIKE :needle ESCAPE '\\')"
            " ORDER BY updated_at DESC LIMIT :lim",
            params,
        )
        return [RowHit(r, 0.0) for r in rows]

    def framed_search_rows(
        self, query: str, common: NodeFilter, frame: NodeFilter | None, fetch: int
    ) -> tuple[list[NodeRow], list[NodeRow]] | None:
        """A query's structured and relevant matches (``retrieve``): ``(framed, best)``,
        the best ``fetch`` matches within ``common`` that ``frame`` also admits, and the
        best ``fetch`` within ``common`` alone, each best first.

        On SQLite with a frame, both come from one pass of the index in rank order
        (``_framed_pass``); otherwise one ranked statement each. The plan before
        ranked the capped matches twice per list, and again uncapped when the frame left
        too few (10 statements for a keyword and a domain over two stores). Ties in rank
        keep the order of the plan before (newest first). None when no word is searchable
        (the caller searches by substring).
        """
        terms = query_terms(query)
        if self.dialect.name == "sqlite" and frame is not None:
            return self._framed_pass(terms, common, frame, fetch)
        best = self._rank_rows(terms, common, fetch)
        if best is None:
            return None
        if frame is None:
            return [], best
        framed = self._rank_rows(terms, common, fetch, frame)
        assert framed is not None
        return framed, best

    def _framed_pass(
        self, terms: tuple[QueryTerm, ...], common: NodeFilter, frame: NodeFilter, fetch: int
    ) -> tuple[list[NodeRow], list[NodeRow]] | None:
        """SQLite: both lists of ``framed_search_rows``. A store holding many matches
        ranks the best of them first in a bounded sort (``_best_ranked_first``); one with
        few, or whose best ranked leave a list unsettled, reads one pass of the index in
        rank order (every match is ranked once), row by row until both are full (and
        past the ties of their last row). At most three statements a store."""
        if not terms:
            return None
        cond, params = where_sql(common, alias="n")
        frame_cond, frame_params = where_sql(frame, alias="n")
        params.update(frame_params)
        params["fts_query"] = fts5_match_expression(terms)
        # Whether the store holds anything in the frame, and whether it holds many
        # matches (counted up to ``MANY_MATCHES``: listing matches costs little).
        held, matches = self._rows(
            f"SELECT EXISTS (SELECT 1 FROM memory_nodes n WHERE {cond} AND {frame_cond}),"
            " (SELECT count(*) FROM (SELECT 1 FROM memory_nodes_fts"
            " WHERE memory_nodes_fts MATCH :fts_query LIMIT :many))",
            {**params, "many": MANY_MATCHES},
        )[0]
        in_frame = bool(held)
        if matches >= MANY_MATCHES:
            settled = self._best_ranked_first(cond, frame_cond if in_frame else None, params, fetch)
            if settled is not None:
                return settled
        if not in_frame:
            # Nothing here in the frame (a domain kept in the other store): the pass would
            # read every match looking for one.
            return [], _in_order(self._rows(*self._ranked_sql(terms, common, fetch)))
        sql = (
            f"SELECT {NODE_COLUMNS_N}, fts.rank, CASE WHEN {frame_cond} THEN 1 ELSE 0 END"
            " FROM memory_nodes_fts fts JOIN memory_nodes n ON n.seq = fts.rowid"
            f" WHERE memory_nodes_fts MATCH :fts_query AND fts.rank MATCH '{BM25_RANK}'"
            f" AND {cond} ORDER BY fts.rank"
        )
        dbapi = self.conn.connection.dbapi_connection
        assert dbapi is not None
        framed: list[tuple[Any, ...]] = []
        best: list[tuple[Any, ...]] = []
        rank = len(NODE_COLUMNS)
        for row in dbapi.execute(sql, params):
            # A list takes rows up to ``fetch`` and then those tying with its last: which
            # of equal ranks it keeps is decided by time (``_in_order``), as the plan
            # before did, not by the order the index hands them out.
            if len(best) < fetch or row[rank] == best[-1][rank]:
                best.append(row)
            elif len(framed) >= fetch and row[rank] != framed[-1][rank]:
                break  # both lists are full and past their last tie
            if row[-1] and (len(framed) < fetch or row[rank] == framed[-1][rank]):
                framed.append(row)
        return _in_order(framed)[:fetch], _in_order(best)[:fetch]

    def _best_ranked_first(
        self, cond: str, frame_cond: str | None, params: dict[str, Any], fetch: int
    ) -> tuple[list[NodeRow], list[NodeRow]] | None:
        """SQLite: both lists of ``_framed_pass`` (only the best, without ``frame_cond``)
        from the index's best ``RANKED_FIRST * fetch`` matches, or None when those do not
        settle them (a list left short, or its last row tying with the last match ranked:
        then the full pass decides).

        ``bm25()`` in a bounded sort ranks every match once, as FTS5's own rank order does,
        at about half its cost (FTS5 sorts its matches in a statement of its own and then
        reads each one's positions again). The ranked matches are joined with their rows
        in rank order, row by row until both lists are full (and past the ties of their
        last row), as the full pass reads them. Exact: a match outside the bound ranks at
        or below its last, and a list is taken only when its last row ranks above that."""
        bound = max(1, int(RANKED_FIRST * fetch))
        flag = f"CASE WHEN {frame_cond} THEN 1 ELSE 0 END" if frame_cond else "0"
        sql = (
            "WITH best AS MATERIALIZED (SELECT rowid AS seq, "
            f"{BM25} AS rank FROM memory_nodes_fts WHERE memory_nodes_fts MATCH :fts_query"
            " ORDER BY rank LIMIT :ranked_first)"
            f" SELECT {NODE_COLUMNS_N}, best.rank, {flag},"
            " (SELECT count(*) FROM best), (SELECT max(rank) FROM best)"
            f" FROM best LEFT JOIN memory_nodes n ON n.seq = best.seq AND {cond}"
        )
        dbapi = self.conn.connection.dbapi_connection
        assert dbapi is not None
        framed: list[tuple[Any, ...]] = []
        best: list[tuple[Any, ...]] = []
        rank, in_frame = len(NODE_COLUMNS), len(NODE_COLUMNS) + 1
        ranked, floor, last = 0, 0.0, None
        cursor = dbapi.execute(sql, {**params, "ranked_first": bound})
        try:
            for row in cursor:
                ranked, floor = row[-2], row[-1]
                if last is not None and row[rank] < last:
                    return None  # not handed out in rank order: the full pass decides
                last = row[rank]
                if row[0] is None:
                    continue  # outside the filter
                if len(best) < fetch or row[rank] == best[-1][rank]:
                    best.append(row)
                elif frame_cond is None or (len(framed) >= fetch and row[rank] != framed[-1][rank]):
                    break  # the lists are full and past their last tie
                if row[in_frame] and (len(framed) < fetch or row[rank] == framed[-1][rank]):
                    framed.append(row)
        finally:
            cursor.close()
        if ranked >= bound:  # some matches were left unranked
            for chosen in (best, framed) if frame_cond else (best,):
                if len(chosen) < fetch or chosen[-1][rank] >= floor:
                    return None
        return _by_seq_in_order(framed)[:fetch], _by_seq_in_order(best)[:fetch]

    def _rank_rows(
        self,
        terms: tuple[QueryTerm, ...],
        f: NodeFilter,
        limit: int,
        frame: NodeFilter | None = None,
    ) -> list[NodeRow] | None:
        if self.dialect.search_sql(terms, cap=None) is None:
            return None  # no searchable word
        return _in_order(self._rows(*self._ranked_sql(terms, f, limit, frame)))

    def _ranked_sql(
        self,
        terms: tuple[QueryTerm, ...],
        f: NodeFilter,
        limit: int,
        frame: NodeFilter | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """The best ``limit`` matches within ``f`` (and ``frame``) as one statement."""
        cond, params = where_sql(f, alias="n")
        if frame is not None:
            frame_cond, frame_params = where_sql(frame, alias="n")
            cond += f" AND {frame_cond}"
            params.update(frame_params)
        params["lim"] = limit
        if self.dialect.name == "sqlite":
            params["fts_query"] = fts5_match_expression(terms)
            sql = (
                f"SELECT {NODE_COLUMNS_N}, fts.rank FROM memory_nodes_fts fts"
                " JOIN memory_nodes n ON n.seq = fts.rowid"
                f" WHERE memory_nodes_fts MATCH :fts_query AND fts.rank MATCH '{BM25_RANK}'"
                f" AND {cond} ORDER BY fts.rank, n.updated_at DESC LIMIT :lim"
            )
        else:
            found = self.dialect.search_sql(terms, cap=None)
            assert found is not None
            fts_sql, fts_params = found
            params.update(fts_params)
            sql = (
                f"SELECT {NODE_COLUMNS_N}, fts.rank FROM ({fts_sql}) AS fts"
                f" JOIN memory_nodes n ON n.seq = fts.seq WHERE {cond}"
                " ORDER BY fts.rank, n.updated_at DESC LIMIT :lim"
            )
        return sql, params


def _in_order(rows: list[tuple[Any, ...]]) -> list[NodeRow]:
    """Search rows best first, newest first among equal ranks (the plan before's order)."""
    rows.sort(key=_UPDATED_DESC, reverse=True)
    rows.sort(key=_RANK)  # stable: rank decides, then the order above
    return [NodeRow(r) for r in rows]


def _by_seq_in_order(rows: list[tuple[Any, ...]]) -> list[NodeRow]:
    """``_in_order``, rows of equal rank and time by seq (the bounded sort hands out equal
    ranks in no set order)."""
    rows.sort(key=_SEQ)
    return _in_order(rows)


_RANK = itemgetter(len(NODE_COLUMNS))
_SEQ = itemgetter(NODE_COLUMNS.index("seq"))
_UPDATED_DESC = itemgetter(NODE_COLUMNS.index("updated_at"))
