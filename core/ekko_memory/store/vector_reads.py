"""Reads of the semantic-recall vectors and of the nodes still missing one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ekko_memory.store.filters import NodeFilter, where_sql
from ekko_memory.store.reader_base import ReaderBase, chunks
from ekko_memory.store.vectors import VectorRow, node_text, text_hash


class VectorReads(ReaderBase):
    """Vectors by model, and the nodes that have none yet."""

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
