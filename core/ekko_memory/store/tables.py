"""SQLAlchemy Core tables: the design doc's five plus pending approvals and usage records.

Portable column types only; anything SQLite-specific (FTS5, pragmas) lives in
``store/sqlite_dialect.py``.
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
)

metadata = MetaData()

memory_messages = Table(
    "memory_messages",
    metadata,
    Column("id", Text, primary_key=True),
    Column("session_id", Text, nullable=False),
    Column("parent_id", Text),
    Column("role", Text, nullable=False),
    Column("content", Text, nullable=False),
    Column("metadata_json", Text),
    Column("created_at", Text, nullable=False),
    Index("idx_memory_messages_session_created", "session_id", "created_at"),
)

memory_summaries = Table(
    "memory_summaries",
    metadata,
    Column("id", Text, primary_key=True),
    Column("session_id", Text, nullable=False),
    Column("parent_summary_id", Text),
    Column("from_message_id", Text, nullable=False),
    Column("to_message_id", Text, nullable=False),
    Column("summary", Text, nullable=False),
    Column("current_goal", Text),
    Column("constraints_json", Text, nullable=False, server_default="[]"),
    Column("preferences_json", Text, nullable=False, server_default="[]"),
    Column("decisions_json", Text, nullable=False, server_default="[]"),
    Column("completed_work_json", Text, nullable=False, server_default="[]"),
    Column("pending_work_json", Text, nullable=False, server_default="[]"),
    Column("known_issues_json", Text, nullable=False, server_default="[]"),
    Column("stale", Integer, nullable=False, server_default="0"),
    Column("created_at", Text, nullable=False),
    Index("idx_memory_summaries_session_created", "session_id", "created_at"),
)

memory_nodes = Table(
    "memory_nodes",
    metadata,
    Column("id", Text, primary_key=True),
    # A stable integer handle for the full-text index (rowids can change on VACUUM).
    Column("seq", Integer, nullable=False, unique=True),
    Column("parent_id", Text),
    Column("supersedes_id", Text),
    Column("session_id", Text),
    Column("workspace_id", Text),
    Column("user_id", Text),
    Column("scope", Text, nullable=False),
    Column("domain", Text, nullable=False),
    Column("category_path_json", Text, nullable=False),
    Column("category_path_text", Text, nullable=False),
    Column("type", Text, nullable=False),
    Column("key", Text),
    Column("value_json", Text),
    Column("title", Text, nullable=False),
    Column("content", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("confidence", Float, nullable=False),
    Column("importance", Float, nullable=False),
    Column("tags_json", Text, nullable=False, server_default="[]"),
    Column("entities_json", Text, nullable=False, server_default="[]"),
    Column("source_message_ids_json", Text, nullable=False, server_default="[]"),
    Column("origin", Text, nullable=False, server_default="inferred"),
    Column("created_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
    Column("expires_at", Text),
    # What the value is about (香菜 for "香菜" and {"ingredient": "香菜"}): duplicate and
    # conflict lookups by one index seek, however many values a key holds.
    Column("subject", Text),
    Index(
        "idx_memory_nodes_lookup", "scope", "status", "domain", "type", "importance", "updated_at"
    ),
    Index("idx_memory_nodes_key", "scope", "status", "domain", "type", "key", "updated_at"),
    Index("idx_memory_nodes_category", "category_path_text"),
    Index("idx_memory_nodes_session", "session_id", "status", "updated_at"),
    Index("idx_memory_nodes_workspace", "workspace_id", "status", "updated_at"),
    Index("idx_memory_nodes_user", "user_id", "status", "updated_at"),
    # Beyond the design doc: who supersedes a node (chain walk) and browsing by status.
    Index("idx_memory_nodes_supersedes", "supersedes_id"),
    Index("idx_memory_nodes_status_updated", "status", "updated_at"),
    # A scope's active tasks / constraints / decisions in priority order (every turn).
    Index("idx_memory_nodes_scope_type", "scope", "status", "type", "importance", "updated_at"),
    Index("idx_memory_nodes_subject", "domain", "subject", "status"),
    # A topic's active nodes of one scope and type (the context's hinted categories):
    # sized in the index alone, and read by category range when the topic is small.
    Index(
        "idx_memory_nodes_topic",
        "scope",
        "status",
        "domain",
        "type",
        "category_path_text",
        "importance",
        "updated_at",
    ),
    # A domain's memories in priority order whatever their scope, type or status (schema
    # 14): a search by domain alone walks its first rows and stops at the limit, where the
    # indexes above, with the status and type first, left the whole domain to sort.
    Index("idx_memory_nodes_domain_priority", "domain", "importance", "updated_at"),
    # Schema 16 dropped idx_memory_nodes_domain (status, domain, type, importance,
    # updated_at) and idx_memory_nodes_status_category (status, category_path_text,
    # updated_at): no plan of the service's statements used the first on an analyzed store,
    # and the one that used the second ran faster without it (bench/README.md, "Write
    # side"); every write paid for both.
    # A key's memories about one subject in priority order (schema 17): a retrieve by key
    # and value (avoid_ingredient = 香菜) walks the subject's first rows and stops at the
    # window, where (domain, subject, status) left every row of the subject to sort.
    Index(
        "idx_memory_nodes_subject_priority",
        "domain",
        "subject",
        "key",
        "importance",
        "updated_at",
    ),
)

memory_audit_events = Table(
    "memory_audit_events",
    metadata,
    Column("id", Text, primary_key=True),
    Column("event_type", Text, nullable=False),
    Column("node_id", Text),
    Column("session_id", Text),
    Column("workspace_id", Text),
    Column("user_id", Text),
    Column("actor", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("payload_json", Text),
    Column("created_at", Text, nullable=False),
    Index("idx_memory_audit_events_node", "node_id", "created_at"),
    Index("idx_memory_audit_events_created", "created_at"),
)

memory_schema_migrations = Table(
    "memory_schema_migrations",
    metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("applied_at", Text, nullable=False),
)

memory_pending = Table(
    "memory_pending",
    metadata,
    Column("id", Text, primary_key=True),
    # write | hard_delete | forget_many | scope_promotion
    Column("kind", Text, nullable=False),
    # pending | approved | rejected | expired
    Column("status", Text, nullable=False),
    # The governed operation it would run (create/update/supersede/expire/delete).
    Column("operation", Text, nullable=False),
    Column("node_json", Text),
    Column("target_ids_json", Text, nullable=False, server_default="[]"),
    Column("current_head_id", Text),
    Column("rule", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("requester", Text, nullable=False),
    Column("session_id", Text),
    Column("workspace_id", Text),
    Column("user_id", Text),
    Column("source_message_ids_json", Text, nullable=False, server_default="[]"),
    Column("created_at", Text, nullable=False),
    Column("decided_by", Text),
    Column("decided_at", Text),
    Column("decision_note", Text),
    Column("result_node_id", Text),
    Index("idx_memory_pending_status_created", "status", "created_at"),
)

memory_usage = Table(
    "memory_usage",
    metadata,
    Column("id", Text, primary_key=True),
    Column("node_id", Text, nullable=False),
    Column("message_id", Text, nullable=False),
    Column("session_id", Text),
    Column("workspace_id", Text),
    Column("used_at", Text, nullable=False),
    Index("idx_memory_usage_node", "node_id", "used_at"),
    Index("idx_memory_usage_message", "message_id"),
)

# How far each session's background work has read the log (extraction, summaries).
memory_session_cursors = Table(
    "memory_session_cursors",
    metadata,
    Column("session_id", Text, primary_key=True),
    Column("kind", Text, primary_key=True),
    Column("message_id", Text, nullable=False),
    Column("message_created_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
)

# Jobs that failed (an LLM extraction that timed out, say) and wait to be retried.
memory_retry_queue = Table(
    "memory_retry_queue",
    metadata,
    Column("id", Text, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("session_id", Text),
    Column("payload_json", Text, nullable=False),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("last_error", Text),
    Column("next_attempt_at", Text, nullable=False),
    Column("created_at", Text, nullable=False),
    Index("idx_memory_retry_queue_next", "next_attempt_at"),
)

# Semantic recall: one vector per memory, of the embedder that wrote it (``model``), as
# int8 components times ``scale`` (a quarter of float32's size). ``vid`` grows with every
# vector written, so a reader that holds them in memory loads only the new ones.
memory_node_vectors = Table(
    "memory_node_vectors",
    metadata,
    Column("node_id", Text, primary_key=True),
    Column("vid", Integer, nullable=False),
    Column("model", Text, nullable=False),
    Column("dim", Integer, nullable=False),
    # A digest of the embedded text: a memory rewritten in place is embedded again.
    Column("text_hash", Text, nullable=False),
    Column("scale", Float, nullable=False),
    Column("vector", LargeBinary, nullable=False),
    Column("created_at", Text, nullable=False),
    Index("idx_memory_node_vectors_model_vid", "model", "vid"),
)

# Settings every process reads from the store (schema 13): memory paused, by whom, when.
memory_settings = Table(
    "memory_settings",
    metadata,
    Column("name", Text, primary_key=True),
    Column("value_json", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
)

# Marks the user put on memories (schema 13): ``pin`` (node_id; other_id ""), a pinned
# memory no agent or extractor may change; ``not_duplicate`` (the pair, ids in order), a
# pair the duplicates report no longer shows. Both follow the memory to its new versions.
memory_marks = Table(
    "memory_marks",
    metadata,
    Column("kind", Text, primary_key=True),
    Column("node_id", Text, primary_key=True),
    Column("other_id", Text, primary_key=True, server_default=""),
    Column("actor", Text, nullable=False),
    Column("created_at", Text, nullable=False),
    Index("idx_memory_marks_node", "node_id"),
    Index("idx_memory_marks_other", "other_id"),
)
