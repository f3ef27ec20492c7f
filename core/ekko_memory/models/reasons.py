"""Why something happened, for an interface that words it in the user's language."""

from __future__ import annotations

import functools
import re
from typing import Any

from pydantic import Field

from ekko_memory.models.base import CamelModel, StoreName


class StoreProblemNote(CamelModel):
    """The store problem behind a result's English text (a warning, a reason): the store,
    its status and its health's code and specifics (``StoreHealth.reason_code`` /
    ``reason_args``), for an interface that words it in the user's language. Results carry
    it beside their text and leave it out of their JSON: agents and scripts read the text."""

    store: StoreName
    status: str
    code: str | None = None
    args: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def of(cls, store: StoreName, health: Any) -> StoreProblemNote:
        """The problem of ``store`` as its ``StoreHealth`` gives it."""
        return cls(
            store=store,
            status=health.status,
            code=health.reason_code,
            args=dict(health.reason_args),
        )


# --- reason codes ---------------------------------------------------------------------
#
# Beside the English an agent reads, the core names each reason by a stable code with its
# specifics as params (``{"code": "pending.already_decided", "params": {"id": …}}``); an
# interface words the code in its own language. Codes are never renamed: add a new one.
# Store problems have their own codes (``store/problem.py``: ``ReasonCode``) and pending
# items theirs (``PendingItem.rule``).

# Why an error was raised (``EkkoMemoryError.reason_code`` / ``reason_args``).
ERROR_REASONS: dict[str, str] = {
    "pending.already_decided": "pending item {id} is already {status}",
    "pending.decided_meanwhile": "pending item {id} was decided meanwhile",
    "node.old_version": "memory {id} is an old version; change its current version {head}",
    "node.deleted": "memory {id} is deleted",
    "node.already_current": "this is already the current version",
    "node.restore_first": "the memory is deleted; restore it first",
    "node.newer_version_exists": "a newer version exists; restore that one instead",
    "node.global_read_only": "global memories are read-only",
    "node.pinned": "memory {id} is pinned by the user: agents may read it but not change or delete it",
    "forget.preview_outdated": "what it would forget changed since the preview; preview again",
    "memory.paused": "memory is paused by the user: agents neither read nor write it until it is resumed",
    "export.folder_missing": "folder {path} does not exist",
    "import.not_json": "{path} is not valid JSON ({detail})",
    "import.not_a_bundle": "{path} is not an Ekko Memory bundle",
    "store.locked": "memory store at {path} stayed locked by another process",
    "store.unreachable": "memory store at {path} cannot be reached ({detail})",
    "store.io": "memory store at {path} could not read or write its file ({detail})",
}

# Why a write did nothing (``WriteOutcome.reason_code`` of status ``duplicate``).
OUTCOME_REASONS: dict[str, str] = {
    "write.already_remembered": "already remembered; nothing new was written",
    "write.already_expired": "already expired",
}

# Why a record was written, as the core words it in stored records (an audit event's
# reason, a pending item's decision note): the wording is the template, so a record an
# older release wrote is read back to the same code (``read_stored_reason``).
STORED_REASONS: dict[str, str] = {
    "user.created": "created by the user",
    "user.edited": "edited by the user",
    "user.expired": "expired by the user",
    "user.deleted": "deleted by the user",
    "user.restored": "restored by the user",
    "user.approved": "approved by the user",
    "user.rejected": "rejected by the user",
    "user.decided_in_batch": "decided in a batch by the user",
    "user.deleted_permanently": "deleted permanently by the user",
    "user.purged": "purged by the user",
    "user.forgot_from_cli": "forgotten by the user from the command line",
    "user.reverted": "reverted to the version of {when} UTC ({id})",
    "user.pinned": "pinned by the user",
    "user.unpinned": "unpinned by the user",
    "user.paused": "memory paused by the user",
    "user.resumed": "memory resumed by the user",
    "user.merged": "merged into {id} by the user",
    "user.unmerged": "merge into {id} undone by the user",
    "user.not_duplicates": "marked by the user as no duplicate of {id}",
    "user.duplicates_again": "marked by the user as a possible duplicate of {id} again",
    "withdrawn.took_back": "the user took it back: {detail} (said: “{said}”)",
    "withdrawn.asked_to_forget": "the user asked to forget it (said: “{said}”)",
    "withdrawn.just_said": "the user took back what they had just said (said: “{said}”)",
    "withdrawn.said_anew": "the user said it anew (said: “{said}”)",
}

# Other wordings of a stored code, read back to it: what the extraction pipeline writes
# for a withdrawal ("withdrawn by the user's words: …", the specific ones before the
# general one), and a revert's time before it said UTC.
_OTHER_WORDINGS: tuple[tuple[str, str], ...] = (
    ("user.reverted", "reverted to the version of {when} ({id})"),
    (
        "withdrawn.asked_to_forget",
        "withdrawn by the user's words: asked to forget it (said: “{said}”)",
    ),
    (
        "withdrawn.just_said",
        "withdrawn by the user's words: took back what they had just said (said: “{said}”)",
    ),
    ("withdrawn.took_back", "withdrawn by the user's words: {detail} (said: “{said}”)"),
)

# Codes of withdrawals: the user took back, in the conversation, what still waited.
WITHDRAWALS = frozenset(c for c in STORED_REASONS if c.startswith("withdrawn."))


def stored_reason(code: str, **params: object) -> str:
    """The English of a stored reason, from its template."""
    return STORED_REASONS[code].format(**params)


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    # Even parts are literal text, odd ones the names of params.
    body = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile(body, re.DOTALL)


@functools.cache
def _stored_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    wordings = [*STORED_REASONS.items(), *_OTHER_WORDINGS]
    return tuple((code, _pattern(t)) for code, t in wordings)


def read_stored_reason(text: str | None) -> tuple[str | None, dict[str, str]]:
    """The code and params of a stored reason the core wrote (``STORED_REASONS``),
    ``(None, {})`` for any other text (a note someone typed, an agent's reason)."""
    if not text:
        return None, {}
    code, params = _read_stored_reason(text.strip())
    return code, dict(params)


# Every audit event reads its reason against each stored wording; an agent's reasons
# repeat ("remember the user's words"): read once each.
@functools.lru_cache(maxsize=1024)
def _read_stored_reason(text: str) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    for code, pattern in _stored_patterns():
        found = pattern.fullmatch(text)
        if found is not None:
            return code, tuple(found.groupdict().items())
    return None, ()


def reason_codes() -> frozenset[str]:
    """Every reason code the core can give: errors', outcomes' and stored records'."""
    return frozenset(ERROR_REASONS) | frozenset(OUTCOME_REASONS) | frozenset(STORED_REASONS)
