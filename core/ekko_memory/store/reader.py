"""Read operations over one connection (one consistent snapshot per transaction).

``StoreReader`` is assembled from one part per kind of data, each in its own module:
``node_reads`` (nodes by id, filter and page), ``search_reads`` (full-text search),
``log_reads`` (messages, summaries, cursors, retry jobs), ``ledger_reads`` (audit,
pending, usage), ``vector_reads`` (semantic recall), ``bulk_reads`` (export, import and
purge streams) and ``text_reads`` (where a text is stored, for purges); ``reader_base``
holds what they share.
"""

from __future__ import annotations

from ekko_memory.store.bulk_reads import BulkReads
from ekko_memory.store.text_reads import TextReads
from ekko_memory.store.vector_reads import VectorReads


class StoreReader(BulkReads, TextReads, VectorReads):
    """Queries bound to one connection; create through ``SqlStore.read()``."""
