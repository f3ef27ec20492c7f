"""Where the user's words can live in a store, and where they cannot.

A purge searches for the user's text and then checks that none of it is left. Both must
look at the same places: the columns that hold what people wrote or what was written
about them (titles, contents, values, tags, entities, messages, summaries, reasons,
notes, error texts) — not the columns that name or classify a record (ids, scopes,
actors, statuses, roles, timestamps, the category a memory is filed under). Otherwise a
purge of a word such as "user", which every row's scope or actor column spells, could
never be verified clean.

Some JSON columns mix both (an audit payload holds a node's title next to its scope):
their string values count, except those of the machine fields below.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# The node columns a purge searches (the full-text index covers title, content, tags and
# entities; the value is matched as a substring).
NODE_TEXT = ("title", "content", "value_json", "tags_json", "entities_json")
SUMMARY_TEXT = (
    "summary",
    "current_goal",
    "constraints_json",
    "preferences_json",
    "decisions_json",
    "completed_work_json",
    "pending_work_json",
    "known_issues_json",
)


@dataclass(frozen=True)
class TableText:
    """A table's user-text columns: ``plain`` ones hold only such text, ``mixed`` JSON ones
    hold it next to machine fields."""

    plain: tuple[str, ...]
    mixed: tuple[str, ...] = ()
    # Reasons: the user's or an agent's words, or the product's own wording
    # (``reason_user_text``).
    reasons: tuple[str, ...] = ()


USER_TEXT: dict[str, TableText] = {
    "memory_messages": TableText(("content",), ("metadata_json",)),
    "memory_summaries": TableText(SUMMARY_TEXT),
    "memory_nodes": TableText(NODE_TEXT),
    "memory_audit_events": TableText((), ("payload_json",), ("reason",)),
    # A pending item's reason is its rule's wording (RULE_TEXT); the proposal is the node.
    # Its decision note is the user's note, or the approval's or settlement's reason.
    "memory_pending": TableText((), ("node_json",), ("decision_note",)),
    # A failed job's error can quote what the model answered about the user's memories.
    "memory_retry_queue": TableText(("last_error",), ("payload_json",)),
}

# Reasons the product writes itself when nobody gave one (the app's own wording, like a
# status): an audit reason that is exactly one of these is not the user's text. Any other
# reason counts, since agents and people quote what the user said in theirs.
PRODUCT_REASONS = (
    "created by the user",
    "edited by the user",
    "expired by the user",
    "deleted by the user",
    "restored by the user",
    "purged by the user",
    "[redacted]",
    "approved by the user",
    "rejected by the user",
    "upsert",
    "supersede",
    "repair: finish an interrupted supersede",
    "import: a newer version of this memory was imported",
    "no longer applies: the memory it would change was deleted for good",
)

# Reasons the product builds from a template around ids, times and states. A template's
# ``user`` group is text someone chose, which still counts: the file name of an import (the
# user named it, and a name can spell a person or a secret), the note the user gave an
# approval, the error a refused change quotes. Such a part is read again (it may be a
# product reason itself: "approved by the user; replaces …").
_ID = r"[a-z]+_[0-9A-Za-z]+"
_GONE = (
    rf"the memory it would change \({_ID}\) (?:was deleted(?: for good)?|is [a-z]+)"
    rf"|the memory {_ID} was deleted for good"
    r"|the memories it would change are gone"
    r"|the memory it would change was deleted for good"
)
_LATER = rf"{_ID} \(which replaced {_ID} after this was proposed\)"
# The import's own reason is told by its event type: a note that starts with "imported"
# is the user's words.
_IMPORT_REASON = re.compile(r"imported (?P<user>.+)", re.DOTALL)
_REASON_TEMPLATES = tuple(
    re.compile(p, re.DOTALL)
    for p in (
        rf"(?:pending item {_ID} )?no longer applies: (?:{_GONE})",
        rf"reverted to the version of \d{{4}}-\d{{2}}-\d{{2}} \d{{2}}:\d{{2}} UTC \({_ID}\)",
        rf"(?P<user>.+); replaces {_ID}, "
        rf"(?:which replaced {_ID} after this was proposed|written after this was proposed)",
        rf"(?P<user>.+); applies to the current version {_LATER}(?:, {_LATER})*",
        rf"replaced by {_ID}, moved into [a-z]+ scope",
        r"withdrawn: the change it belonged to was refused \((?P<user>.+)\)",
        r"the move that replaced it was refused \((?P<user>.+)\)",
        rf"memory {_ID} changed meanwhile \(now [a-z]+\)",
        r"(?:agent|extractor|user|import) (?:create|update|supersede|expire|delete)",
    )
)


def reason_user_text(reason: str, event_type: str | None = None) -> list[str]:
    """The parts of an audit reason (of an event of ``event_type``; None: a decision note)
    that are someone's words: none of a reason the product wrote (``PRODUCT_REASONS``,
    ``_REASON_TEMPLATES``), the chosen parts of a templated one, all of any other."""
    if reason in PRODUCT_REASONS:
        return []
    templates = _REASON_TEMPLATES
    if event_type == "import":
        templates = (_IMPORT_REASON, *templates)
    for template in templates:
        found = template.fullmatch(reason)
        if found is not None:
            chosen = found.groupdict().get("user")
            return [] if chosen is None else reason_user_text(chosen)
    return [reason]


# JSON fields that name or classify something (ids, enums, who, the taxonomy), never the
# user's words; any field not listed here (or ending in Id/Ids/At) is taken as user text.
_MACHINE_FIELDS = frozenset(
    {
        "id",
        "scope",
        "status",
        "type",
        "origin",
        "mode",
        "from",
        "to",
        "kind",
        "rule",
        "operation",
        "key",
        "domain",
        "categoryPath",
        "supersedes",
        "supersededBy",
        "staleSummaries",
        "actor",
        "requester",
        "decidedBy",
        "role",
    }
)
# A node's value is the user's in full, keys included (a purge matches it as a substring).
_WHOLE_FIELDS = frozenset({"valueJson"})


def machine_field(name: str) -> bool:
    """A JSON field whose strings are ids, enum values, names of actors or timestamps."""
    return name in _MACHINE_FIELDS or name.endswith(("Id", "Ids", "At"))


def user_strings(value: Any, field: str | None = None) -> Iterator[str]:
    """The strings of a decoded JSON value that can hold user text (see the module doc)."""
    if isinstance(value, str):
        if field is None or not machine_field(field):
            yield value
    elif isinstance(value, dict):
        for name, item in value.items():
            if name in _WHOLE_FIELDS:
                yield from _all_strings(item)
            else:
                yield from user_strings(item, str(name))
    elif isinstance(value, list):
        for item in value:
            yield from user_strings(item, field)


def _all_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for name, item in value.items():
            yield str(name)
            yield from _all_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _all_strings(item)
