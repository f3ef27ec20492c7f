"""Reads of memory nodes: by id, by filter (with the topic-size choice), in keyset
pages, counts, and the links between versions."""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import func, select

from ekko_memory.models import BrowseSort, MemoryNode
from ekko_memory.store import tables as t
from ekko_memory.store.filters import NodeFilter, NodeOrder, keyset_sql, order_sql, where_sql
from ekko_memory.store.reader_base import NODE_SELECT, ReaderBase, n
from ekko_memory.store.rows import NodeRow
from ekko_memory.timeutil import from_db_required

# Up to this many candidates a subject lookup filters by id; beyond, by the full filter.
SUBJECT_CANDIDATES = 500


@dataclass(frozen=True)
class CategoryCount:
    """How many nodes are filed exactly at one category path."""

    domain: str
    category_path: tuple[str, ...]
    count: int


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
        return f"{NODE_SELECT} WHERE seq IN ({inner}) ORDER BY {order_sql(order)}", params
    return f"{NODE_SELECT} WHERE {cond} ORDER BY {order_sql(order)}{page}", params


_UNINDEXED_PRIORITY = "importance + 0 DESC, updated_at DESC"


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


class NodeReads(ReaderBase):
    """Nodes by id, by filter and page; counts; supersede links."""

    def get_node(self, node_id: str) -> MemoryNode | None:
        """One node by id, whatever its status."""
        found = self._nodes(f"{NODE_SELECT} WHERE id = :id", {"id": node_id})
        return found[0] if found else None

    def get_nodes(self, ids: Sequence[str]) -> list[MemoryNode]:
        """Nodes by id (unknown ids skipped), in the order asked."""
        if not ids:
            return []
        cond, params = where_sql(NodeFilter(ids=list(dict.fromkeys(ids)), statuses=None))
        found = {n.id: n for n in self._nodes(f"{NODE_SELECT} WHERE {cond}", params)}
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
        if f.subject is not None and f.ids is None and not (f.domain and f.key):
            # Subject first: SQLite keeps no per-value statistics, so it cannot tell that a
            # subject is rare and would scan a whole key or status instead. The subject index
            # narrows to a few ids; the full filter then runs on those. With a domain and a
            # key, the filter is one range of (domain, subject, key, importance, updated_at)
            # (schema 17), read in priority order up to the limit: no narrowing.
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
        return self._nodes(f"{NODE_SELECT} WHERE {cond} ORDER BY {order} LIMIT :lim", params)

    def count_nodes(self, f: NodeFilter) -> int:
        """How many nodes match a filter."""
        cond, params = where_sql(f)
        return int(self._rows(f"SELECT count(*) FROM memory_nodes WHERE {cond}", params)[0][0])

    def successor_of(self, node_id: str) -> MemoryNode | None:
        """The node that supersedes ``node_id``, if any.

        A memory edited on two machines had two (an import kept one current and marked
        the other superseded, with no successor of its own); an import now joins them in
        one line (``rival_links.link_rivals``), but where that could not be done the chain
        goes on through the one still in use, not the dead end.
        """
        found = self._nodes(
            f"{NODE_SELECT} WHERE supersedes_id = :id ORDER BY CASE WHEN status <> 'superseded'"
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

    def node_rows_by_id(self, ids: Sequence[str], f: NodeFilter) -> list[NodeRow]:
        """The rows of ``ids`` that ``f`` lets through (any order)."""
        if not ids:
            return []
        cond, params = where_sql(replace(f, ids=list(ids)))
        return self._node_rows(f"{NODE_SELECT} WHERE {cond}", params)
