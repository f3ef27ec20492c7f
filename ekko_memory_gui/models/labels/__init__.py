"""Words for the core's codes (types, scopes, statuses, rules, audit events, error codes)
and short renderings of values and times, translated.

The core speaks English in its free-text fields (a pending item's ``reason``, an error's
message) and gives a code beside each with its specifics as params (``PendingItem.rule``
and ``reason_params``, an error's ``code`` and ``reason_code``/``reason_args``, an audit
event's ``reason_code``, an outcome's ``status`` and ``reason_code``): the app shows its
own translated words for the code and never reads meaning out of the English.

``vocabulary`` holds the words for codes (built once per language: ``reset()`` after a
language switch, because the memory table asks for them for every row),
``reasons`` the core's reason codes, ``store_problems`` why a store is not ok,
``core_text`` errors, outcomes and records worded from their codes, and ``values``
values and times.
"""

from __future__ import annotations

from ekko_memory_gui.models.labels.core_text import (
    decision_text,
    error_text,
    event_reason,
    health_text,
    is_withdrawal,
    note_problem,
    outage_text,
    outcome_text,
    purge_target_text,
    why_text,
)
from ekko_memory_gui.models.labels.reasons import reason_label, reason_table, reason_words
from ekko_memory_gui.models.labels.store_problems import problem_table, store_problem
from ekko_memory_gui.models.labels.values import (
    full_time,
    local,
    pretty_json,
    relative_time,
    short_time,
    value_text,
)
from ekko_memory_gui.models.labels.vocabulary import (
    BUNDLE_KINDS,
    actor_label,
    author_label,
    cached,
    event_label,
    kind_label,
    origin_label,
    reason_sentence,
    record_count,
    record_label,
    reset,
    role_label,
    rule_label,
    scope_label,
    sensitive_label,
    status_label,
    store_label,
    table,
    type_label,
)

__all__ = [
    "BUNDLE_KINDS",
    "actor_label",
    "author_label",
    "cached",
    "decision_text",
    "error_text",
    "event_label",
    "event_reason",
    "full_time",
    "health_text",
    "is_withdrawal",
    "kind_label",
    "local",
    "note_problem",
    "origin_label",
    "outage_text",
    "outcome_text",
    "pretty_json",
    "problem_table",
    "purge_target_text",
    "reason_label",
    "reason_sentence",
    "reason_table",
    "reason_words",
    "record_count",
    "record_label",
    "relative_time",
    "reset",
    "role_label",
    "rule_label",
    "scope_label",
    "sensitive_label",
    "short_time",
    "status_label",
    "store_label",
    "store_problem",
    "table",
    "type_label",
    "value_text",
    "why_text",
]
