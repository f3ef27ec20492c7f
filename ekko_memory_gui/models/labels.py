"""Words for the core's codes (types, scopes, statuses, rules, audit events, error codes)
and short renderings of values and times, translated.

The core speaks English in its free-text fields (a pending item's ``reason``, an error's
message); where it also gives a machine-readable code (``PendingItem.rule``, the error's
``code``, an outcome's ``status``) the app shows its own translated words for the code
and keeps only the specifics (ids, the kinds of sensitive data) from the core's text.

The label tables are built once per language (``reset()`` after a language switch),
because the memory table asks for them for every row.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from ekko_memory import MemoryMessage, validation_text
from ekko_memory_gui.qt import QCoreApplication as _Q

_cache: dict[str, dict[str, str]] = {}


def reset() -> None:
    """Forget the built tables (after the UI language changed)."""
    _cache.clear()


def _table(name: str) -> dict[str, str]:
    table = _cache.get(name)
    if table is not None:
        return table
    if name == "type":
        table = {
            "preference": _Q.translate("MemoryLabels", "preference"),
            "fact": _Q.translate("MemoryLabels", "fact"),
            "decision": _Q.translate("MemoryLabels", "decision"),
            "task": _Q.translate("MemoryLabels", "task"),
            "recipe": _Q.translate("MemoryLabels", "recipe"),
            "skill": _Q.translate("MemoryLabels", "skill"),
            "constraint": _Q.translate("MemoryLabels", "constraint"),
            "correction": _Q.translate("MemoryLabels", "correction"),
        }
    elif name == "scope":
        table = {
            "session": _Q.translate("MemoryLabels", "session"),
            "workspace": _Q.translate("MemoryLabels", "workspace"),
            "user": _Q.translate("MemoryLabels", "user"),
            "global": _Q.translate("MemoryLabels", "global"),
        }
    elif name == "status":
        table = {
            "active": _Q.translate("MemoryLabels", "active"),
            "superseded": _Q.translate("MemoryLabels", "superseded"),
            "expired": _Q.translate("MemoryLabels", "expired"),
            "deleted": _Q.translate("MemoryLabels", "deleted"),
            "pending": _Q.translate("MemoryLabels", "pending"),
            "approved": _Q.translate("MemoryLabels", "approved"),
            "rejected": _Q.translate("MemoryLabels", "rejected"),
        }
    elif name == "rule":
        table = {
            "user_scope_without_intent": _Q.translate(
                "MemoryLabels", "long-term (user scope) without “remember”"
            ),
            "sensitive_data": _Q.translate("MemoryLabels", "sensitive personal data"),
            "overwrite_high_confidence": _Q.translate(
                "MemoryLabels", "would overwrite a high-confidence memory"
            ),
            "hard_delete": _Q.translate("MemoryLabels", "hard delete"),
            "forget_many": _Q.translate("MemoryLabels", "forget request matched several memories"),
            "scope_promotion": _Q.translate(
                "MemoryLabels", "moves a memory into your long-term scope"
            ),
            "sensitive_delete": _Q.translate("MemoryLabels", "deletes sensitive personal data"),
            "unverified_value": _Q.translate("MemoryLabels", "not in your own words"),
        }
    elif name == "reason":
        # Why an item waits, as a sentence (the core's RULE_TEXT, translated).
        table = {
            "user_scope_without_intent": _Q.translate(
                "MemoryLabels", "a long-term (user scope) memory you did not ask to remember"
            ),
            "sensitive_data": _Q.translate("MemoryLabels", "it holds sensitive personal data"),
            "overwrite_high_confidence": _Q.translate(
                "MemoryLabels",
                "it would overwrite a high-confidence memory without a clear request",
            ),
            "hard_delete": _Q.translate(
                "MemoryLabels", "a hard delete removes the memory for good"
            ),
            "forget_many": _Q.translate(
                "MemoryLabels", "the forget request matched several memories"
            ),
            "scope_promotion": _Q.translate(
                "MemoryLabels", "it would move a memory into your long-term (user) scope"
            ),
            "sensitive_delete": _Q.translate("MemoryLabels", "it deletes sensitive personal data"),
            "unverified_value": _Q.translate(
                "MemoryLabels", "the value is not in your own words; the model may have guessed it"
            ),
            "global_scope": _Q.translate(
                "MemoryLabels", "global memories ship with the app and are read-only"
            ),
        }
    elif name == "sensitive":
        # Kinds of sensitive data the core names (identifiers found in the text, sensitive
        # keys of the schema with "_" as spaces, health).
        table = {
            "phone number": _Q.translate("MemoryLabels", "phone number"),
            "ID number": _Q.translate("MemoryLabels", "ID number"),
            "bank card number": _Q.translate("MemoryLabels", "bank card number"),
            "email address": _Q.translate("MemoryLabels", "email address"),
            "street address": _Q.translate("MemoryLabels", "street address"),
            "health": _Q.translate("MemoryLabels", "health"),
            "phone": _Q.translate("MemoryLabels", "phone"),
            "address": _Q.translate("MemoryLabels", "address"),
            "id number": _Q.translate("MemoryLabels", "ID number"),
            "email": _Q.translate("MemoryLabels", "email"),
            "birthday": _Q.translate("MemoryLabels", "birthday"),
            "health condition": _Q.translate("MemoryLabels", "health condition"),
        }
    elif name == "error":
        # What kind of refusal an error is (EkkoMemoryError.code).
        table = {
            "invalid_input": _Q.translate("MemoryLabels", "Not valid"),
            "not_found": _Q.translate("MemoryLabels", "Not found"),
            "permission_denied": _Q.translate("MemoryLabels", "Not allowed"),
            "store_unavailable": _Q.translate("MemoryLabels", "The store is unavailable"),
            "conflict": _Q.translate("MemoryLabels", "Changed meanwhile"),
        }
    elif name == "message":
        # Whole messages of the core that the app's own actions commonly meet.
        table = {
            "this is already the current version": _Q.translate(
                "MemoryLabels", "this is already the current version"
            ),
            "the memory is deleted; restore it first": _Q.translate(
                "MemoryLabels", "the memory is deleted; restore it first"
            ),
            "a newer version exists; restore that one instead": _Q.translate(
                "MemoryLabels", "a newer version exists; restore that one instead"
            ),
            "global memories are read-only": _Q.translate(
                "MemoryLabels", "global memories ship with the app and are read-only"
            ),
            "already remembered; nothing new was written": _Q.translate(
                "MemoryLabels", "already remembered; nothing new was written"
            ),
        }
    elif name == "why":
        # The reasons the core and the app write for the user's own actions.
        table = {
            "created by the user": _Q.translate("MemoryLabels", "written by you"),
            "edited by the user": _Q.translate("MemoryLabels", "edited by you"),
            "expired by the user": _Q.translate("MemoryLabels", "expired by you"),
            "deleted by the user": _Q.translate("MemoryLabels", "deleted by you"),
            "restored by the user": _Q.translate("MemoryLabels", "restored by you"),
            "approved by the user": _Q.translate("MemoryLabels", "approved by you"),
            "rejected by the user": _Q.translate("MemoryLabels", "rejected by you"),
            "decided in a batch by the user": _Q.translate(
                "MemoryLabels", "decided by you in a batch"
            ),
            "deleted permanently by the user": _Q.translate(
                "MemoryLabels", "deleted permanently by you"
            ),
            "purged by the user": _Q.translate("MemoryLabels", "purged by you"),
            "forgotten by the user from the command line": _Q.translate(
                "MemoryLabels", "forgotten by you from the command line"
            ),
        }
    elif name == "event":
        table = {
            "create": _Q.translate("MemoryLabels", "created"),
            "update": _Q.translate("MemoryLabels", "updated"),
            "supersede": _Q.translate("MemoryLabels", "superseded"),
            "expire": _Q.translate("MemoryLabels", "expired"),
            "delete": _Q.translate("MemoryLabels", "deleted"),
            "hard_delete": _Q.translate("MemoryLabels", "deleted permanently"),
            "restore": _Q.translate("MemoryLabels", "restored"),
            "pending": _Q.translate("MemoryLabels", "sent to the inbox"),
            "approve": _Q.translate("MemoryLabels", "approved"),
            "reject": _Q.translate("MemoryLabels", "rejected"),
            "import": _Q.translate("MemoryLabels", "imported"),
            "purge": _Q.translate("MemoryLabels", "purged"),
            "revert": _Q.translate("MemoryLabels", "reverted"),
            # A reject the user made by taking the item back in the conversation.
            "withdraw": _Q.translate("MemoryLabels", "withdrawn"),
        }
    elif name == "kind":
        table = {
            "write": _Q.translate("MemoryLabels", "Write waiting"),
            "hard_delete": _Q.translate("MemoryLabels", "Hard delete waiting"),
            "forget_many": _Q.translate("MemoryLabels", "Forget waiting"),
            "scope_promotion": _Q.translate("MemoryLabels", "Scope change waiting"),
        }
    elif name == "role":
        table = {
            "user": _Q.translate("MemoryLabels", "user"),
            "assistant": _Q.translate("MemoryLabels", "assistant"),
            "system": _Q.translate("MemoryLabels", "system"),
            "tool": _Q.translate("MemoryLabels", "tool"),
            # A tool call's userMessage nobody vouched for: the agent's words, not the user's.
            "reported": _Q.translate("MemoryLabels", "the agent, reporting the user's words"),
        }
    elif name == "actor":
        table = {
            "user": _Q.translate("MemoryLabels", "you"),
            "agent": _Q.translate("MemoryLabels", "agent"),
            "extractor": _Q.translate("MemoryLabels", "extractor"),
            "system": _Q.translate("MemoryLabels", "system"),
            "import": _Q.translate("MemoryLabels", "import"),
        }
    elif name == "origin":
        table = {
            "user_explicit": _Q.translate("MemoryLabels", "the user asked to remember"),
            "user_edit": _Q.translate("MemoryLabels", "written or edited by you"),
            "inferred": _Q.translate("MemoryLabels", "inferred by the agent"),
            "imported": _Q.translate("MemoryLabels", "imported"),
            "seed": _Q.translate("MemoryLabels", "shipped with the app"),
        }
    elif name == "record":  # one record of a kind a purge or an export counts
        table = {
            "node": _Q.translate("MemoryLabels", "memory version"),
            "audit": _Q.translate("MemoryLabels", "audit entry"),
            "pending": _Q.translate("MemoryLabels", "inbox item"),
            "usage": _Q.translate("MemoryLabels", "usage record"),
            "message": _Q.translate("MemoryLabels", "message"),
            "summary": _Q.translate("MemoryLabels", "summary"),
            "job": _Q.translate("MemoryLabels", "background job"),
            "cursor": _Q.translate("MemoryLabels", "session cursor"),
        }
    elif name == "records":  # how many records of a kind ({n} stays for the number)
        table = {
            "node": _Q.translate("MemoryLabels", "{n} memory versions"),
            "audit": _Q.translate("MemoryLabels", "{n} audit entries"),
            "pending": _Q.translate("MemoryLabels", "{n} inbox items"),
            "usage": _Q.translate("MemoryLabels", "{n} usage records"),
            "message": _Q.translate("MemoryLabels", "{n} messages"),
            "summary": _Q.translate("MemoryLabels", "{n} summaries"),
            "job": _Q.translate("MemoryLabels", "{n} background jobs"),
            "cursor": _Q.translate("MemoryLabels", "{n} session cursors"),
        }
    elif name == "store":
        table = {
            "workspace": _Q.translate("MemoryLabels", "workspace"),
            "user": _Q.translate("MemoryLabels", "user"),
            "global": _Q.translate("MemoryLabels", "global"),
        }
    elif name == "problem":
        table = _problem_table()
    else:
        table = {}
    _cache[name] = table
    return table


def _problem_table() -> dict[str, str]:
    """Why a store is disabled, read-only or degraded (``StoreHealth.reason_code``), as
    sentences with the specifics the core gives (``reason_args``) as placeholders. The
    English is the core's own sentence; a translation may leave out the driver's English
    words (``{detail}``), which the status line's tooltip keeps."""

    return {
        "directory": _Q.translate(
            "StoreProblem", "{path} is a directory, not a database file; move it away"
        ),
        "folder_uncreatable": _Q.translate("StoreProblem", "cannot create {path}: {detail}"),
        "folder_not_writable": _Q.translate(
            "StoreProblem", "{path} is not writable and holds no database yet"
        ),
        "folder_on_read_only_mount": _Q.translate(
            "StoreProblem",
            "{path} is on a file system mounted read-only and holds no database yet",
        ),
        "locked": _Q.translate(
            "StoreProblem",
            "{path} is locked by another program, which kept it for {seconds} s; close that"
            " program (or wait) and open it again",
        ),
        "io": _Q.translate(
            "StoreProblem",
            "{path} could not be read or written ({detail}: a full disk or quota, a file size"
            " limit or a failing drive); free some space and open it again",
        ),
        "not_a_database": _Q.translate(
            "StoreProblem", "{path} is not a readable Ekko Memory database ({detail})"
        ),
        "newer_schema": _Q.translate(
            "StoreProblem",
            "the database uses schema version {version}, newer than this release's {latest};"
            " upgrade Ekko Memory to open it",
        ),
        "backup_failed": _Q.translate(
            "StoreProblem",
            "could not back the file up before upgrading it from schema version {version}"
            " ({detail}); the file was left as it was: free some disk space and open it again",
        ),
        "migration_failed": _Q.translate(
            "StoreProblem", "migration from schema version {version} failed: {detail}"
        ),
        "readonly_needs_upgrade": _Q.translate(
            "StoreProblem",
            "{path} is read-only and has schema version {version}, but this release needs"
            " {latest}; make it writable to upgrade it",
        ),
        "read_only_file": _Q.translate(
            "StoreProblem",
            "{path} is read-only: memories can be read but not changed (fix the file's"
            " permissions to write)",
        ),
        "read_only_mount": _Q.translate(
            "StoreProblem",
            "{path} is on a file system mounted read-only: memories can be read but not"
            " changed (mount it read-write to write)",
        ),
        "read_only_unreadable": _Q.translate(
            "StoreProblem", "{path} is read-only and cannot be opened ({detail})"
        ),
        "file_replaced": _Q.translate(
            "StoreProblem",
            "{path} was deleted, moved or replaced by another program while it was open;"
            " nothing more is read from or written to the file that was there: open the store"
            " again",
        ),
        "became_read_only": _Q.translate("StoreProblem", "{location} became read-only ({detail})"),
        "damaged": _Q.translate("StoreProblem", "{location} is damaged ({detail})"),
        "no_driver": _Q.translate(
            "StoreProblem", "PostgreSQL support needs psycopg: pip install 'ekko-memory[postgres]'"
        ),
        "encoding": _Q.translate(
            "StoreProblem",
            "the database's encoding is {encoding}, but Ekko Memory stores Chinese text and"
            " needs UTF8 (CREATE DATABASE … ENCODING 'UTF8')",
        ),
        "server_read_only": _Q.translate(
            "StoreProblem",
            "the server is read-only (a standby?): memories can be read but not changed",
        ),
        "server_readonly_needs_upgrade": _Q.translate(
            "StoreProblem",
            "the server is read-only (a standby?) and the store has schema version {version},"
            " but this release needs {latest}",
        ),
        "unreachable": _Q.translate(
            "StoreProblem",
            "cannot connect to PostgreSQL at {location}: {detail} (is the server running and"
            " the URL, user and password right?)",
        ),
        # The server answered but refused the login: the core words it as it words a
        # server that does not answer; a translation can say which it is.
        "auth": _Q.translate(
            "StoreProblem",
            "cannot connect to PostgreSQL at {location}: {detail} (is the server running and"
            " the URL, user and password right?)",
            "the server refused the login",
        ),
        "refused": _Q.translate(
            "StoreProblem", "PostgreSQL at {location} refused the store: {detail}"
        ),
        "global_read_only": _Q.translate(
            "StoreProblem", "global memories ship with the app and are read-only"
        ),
    }


def store_problem(code: str | None, args: dict[str, str] | None) -> str | None:
    """Why a store is not ok, in the UI's language: the sentence for the core's
    ``reason_code`` with its specifics (path, seconds, versions…) filled in; None when the
    code is unknown or its placeholders do not fit. (The English sentences are the
    core's own, so English reads exactly as the core says.)"""
    template = _table("problem").get(code or "")
    if template is None:
        return None
    try:
        return template.format(**(args or {}))
    except (KeyError, IndexError, ValueError):
        return None


def health_text(health: Any) -> str:
    """Why a store (its ``StoreHealth``) is not ok, in the UI's language (the core's
    ``reason`` for a problem the app does not know)."""
    said = store_problem(getattr(health, "reason_code", None), getattr(health, "reason_args", None))
    return said if said is not None else core_message(health.reason or "")


def note_problem(note: Any) -> str | None:
    """The store problem a result carries beside its English text (a ``StoreProblemNote``:
    a compaction's reason, an export's warning) in the UI's language; None when there is
    none or the app does not know it (then the result's own text)."""
    if note is None:
        return None
    return store_problem(getattr(note, "code", None), getattr(note, "args", None))


def _store_refusal(error: BaseException) -> str | None:
    """A store's refusal for the reason its health gives (a ``StoreUnavailable`` with a
    ``reason_code``), in the UI's language, without a write's "nothing was written"; None
    for any other error."""
    said = store_problem(getattr(error, "reason_code", None), getattr(error, "reason_args", None))
    if said is None:
        return None
    store = getattr(error, "store", None)
    if store:
        # A whole operation (an import, a purge) refused as this store cannot be written.
        return _Q.translate(
            "MemoryLabels", "the {store} store cannot be written ({reason})"
        ).format(store=store_label(store), reason=said)
    status = getattr(error, "status", None)
    args = getattr(error, "reason_args", None) or {}
    location = args.get("path") or args.get("location") or ""
    if status == "disabled":
        return _Q.translate("MemoryLabels", "memory store disabled: {reason}").format(reason=said)
    if not str(error).startswith("memory store at "):
        return said  # the reason is the whole message (the file became read-only, damaged)
    if status == "readonly":
        return _Q.translate(
            "MemoryLabels", "memory store at {location} is readonly: {reason}"
        ).format(location=location, reason=said)
    return _Q.translate("MemoryLabels", "memory store at {location} is degraded: {reason}").format(
        location=location, reason=said
    )


def type_label(value: str) -> str:
    return _table("type").get(value, value)


def scope_label(value: str) -> str:
    return _table("scope").get(value, value)


def status_label(value: str) -> str:
    return _table("status").get(value, value)


def rule_label(value: str) -> str:
    return _table("rule").get(value, value.replace("_", " "))


def reason_sentence(rule: str) -> str | None:
    """Why a pending item waits, as a translated sentence; None for a rule the app does not know."""
    return _table("reason").get(rule)


def sensitive_label(kind: str) -> str:
    """A kind of sensitive data (phone number, health…), translated when known."""
    return _table("sensitive").get(kind.strip(), kind.strip())


def why_text(rule: str, reason: str) -> str:
    """Why an item waits, in the UI's language, keeping the specifics the core named.

    The core's reason is ``RULE_TEXT[rule]`` plus, for sensitive data, the kinds in
    brackets: ``sensitive personal data (phone number, phone)``. A known rule becomes the
    translated sentence with the kinds translated; an unknown rule shows the core's text.
    """
    sentence = reason_sentence(rule)
    if sentence is None:
        return reason or rule.replace("_", " ")
    if reason.endswith(")") and "(" in reason:
        kinds = reason[reason.rindex("(") + 1 : -1].split(",")
        sep = _Q.translate("MemoryLabels", ", ")
        named = sep.join(sensitive_label(k) for k in kinds if k.strip())
        sentence = _Q.translate("MemoryLabels", "{sentence} ({kinds})").format(
            sentence=sentence, kinds=named
        )
    return sentence


# "pending item pnd_… is already approved" and friends: the specifics are ids and statuses.
_MESSAGE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^pending item (\S+) is already (\w+)$"), "already"),
    (re.compile(r"^pending item (\S+) was decided meanwhile$"), "meanwhile"),
    (
        re.compile(
            r"^memory (\S+) is an old version; (?:edit|change) its current version (\S+)(?: instead)?$"
        ),
        "old",
    ),
    (re.compile(r"^memory (\S+) is deleted$"), "deleted"),
    (re.compile(r"^folder (.+) does not exist$"), "folder"),
    # A file given to Import that is not a bundle.
    (re.compile(r"^(.+) is not valid JSON \((.*)\)$", re.DOTALL), "not_json"),
    (
        re.compile(r"^(.+) is not an Ekko Memory bundle \(expected .*\); .*$", re.DOTALL),
        "not_bundle",
    ),
    # A store that did not answer (the core says so with its location and the driver's words).
    (re.compile(r"^memory store at (.+) stayed locked by another process$"), "locked"),
    (re.compile(r"^memory store at (.+) cannot be reached \((.*)\)$", re.DOTALL), "unreachable"),
    (
        re.compile(r"^memory store at (.+) could not read or write its file \((.*)\)$", re.DOTALL),
        "io",
    ),
)
# How the core ends a refusal that wrote nothing ("try again": the cause may pass).
_NOTHING_WRITTEN = "; nothing was written"
_TRY_AGAIN = "; nothing was written, try again"


def core_message(text: str) -> str:
    """A message of the core in the UI's language when it is one the app knows, else as is."""
    text = text.strip()
    for suffix in (_TRY_AGAIN, _NOTHING_WRITTEN):
        if text.endswith(suffix):
            inner = text.removesuffix(suffix)
            said = core_message(inner)
            if said == inner:
                return text  # not one the app knows: the core's words, whole
            template = (
                _Q.translate("MemoryLabels", "{reason}; nothing was written, try again")
                if suffix == _TRY_AGAIN
                else _Q.translate("MemoryLabels", "{reason}; nothing was written")
            )
            return template.format(reason=said)
    known = _table("message").get(text)
    if known is not None:
        return known
    for pattern, kind in _MESSAGE_PATTERNS:
        m = pattern.match(text)
        if m is None:
            continue
        if kind == "already":
            return _Q.translate("MemoryLabels", "pending item {id} is already {status}").format(
                id=m.group(1), status=status_label(m.group(2))
            )
        if kind == "meanwhile":
            return _Q.translate(
                "MemoryLabels", "pending item {id} was decided meanwhile (by someone else)"
            ).format(id=m.group(1))
        if kind == "old":
            return _Q.translate(
                "MemoryLabels", "memory {id} is an old version; change its current version {head}"
            ).format(id=m.group(1), head=m.group(2))
        if kind == "folder":
            return _Q.translate("MemoryLabels", "the folder {path} does not exist").format(
                path=m.group(1)
            )
        if kind == "not_json":
            return _Q.translate("MemoryLabels", "{path} is not valid JSON ({detail})").format(
                path=m.group(1), detail=m.group(2)
            )
        if kind == "not_bundle":
            return _Q.translate(
                "MemoryLabels",
                "{path} is not an Ekko Memory bundle; only the JSON bundles Export writes can "
                "be imported",
            ).format(path=m.group(1))
        if kind == "locked":
            return _Q.translate(
                "MemoryLabels", "another program kept the store {path} locked"
            ).format(path=m.group(1))
        if kind == "unreachable":
            return _Q.translate(
                "MemoryLabels", "the store {path} cannot be reached ({reason})"
            ).format(path=m.group(1), reason=m.group(2))
        if kind == "io":
            return _Q.translate(
                "MemoryLabels",
                "the store {path} could not read or write its file ({reason})",
            ).format(path=m.group(1), reason=m.group(2))
        return _Q.translate("MemoryLabels", "memory {id} is deleted").format(id=m.group(1))
    return text


def error_text(error: BaseException) -> str:
    """An error of the core for people: its kind translated (by ``code``), then its message
    (translated when it is a common one, else the core's words). Data the core's models
    refused (a pydantic ValidationError) reads as invalid input: its complaints in one
    line, without the input echoed or pydantic's links."""
    if isinstance(error, ValidationError):
        code: Any = "invalid_input"
        message = core_message(validation_text(error))
    else:
        code = getattr(error, "code", None)
        message = core_message(str(error))
        refusal = _store_refusal(error)
        if refusal is not None:
            message = refusal
            if str(error).endswith(_NOTHING_WRITTEN):
                message = _Q.translate("MemoryLabels", "{reason}; nothing was written").format(
                    reason=refusal
                )
    head = _table("error").get(code) if isinstance(code, str) else None
    if head is None:
        return message
    return _Q.translate("MemoryLabels", "{kind}: {message}").format(kind=head, message=message)


def outage_text(error: BaseException) -> str:
    """Why a store does not answer, for the status line, which names the kind itself
    ("store unavailable: …") and says how to try again: the core's message without its
    kind (it said "unavailable" twice) and without a write's "nothing was written, try
    again" (the line is about the store, not one write)."""
    refusal = _store_refusal(error)
    if refusal is not None:
        return refusal
    detail = str(error).strip()
    while detail.endswith((_TRY_AGAIN, _NOTHING_WRITTEN)):
        detail = detail.removesuffix(_TRY_AGAIN).removesuffix(_NOTHING_WRITTEN)
    return core_message(detail)


def outcome_text(
    status: str, rule: str | None, reason: str, cause: BaseException | None = None
) -> str:
    """Why a write of the user's was not done (or did nothing), in the UI's language.

    ``rule`` is the refusal's code: a permission rule (``global_scope``…) or an error code
    (``invalid_input``, ``conflict``…); the core's reason ends in "; nothing was written".
    ``cause``: the error that refused it (a store's names its problem by code).
    """
    detail, again = reason.strip(), False
    # A store's refusal reaches a write's outcome with the outcome's ending added to its own.
    while detail.endswith((_TRY_AGAIN, _NOTHING_WRITTEN)):
        again = again or detail.endswith(_TRY_AGAIN)
        detail = detail.removesuffix(_TRY_AGAIN).removesuffix(_NOTHING_WRITTEN)
    if rule is not None and reason_sentence(rule) is not None:
        text = reason_sentence(rule) or ""
    else:
        refusal = _store_refusal(cause) if cause is not None else None
        text = refusal if refusal is not None else core_message(detail)
        head = _table("error").get(rule or "")
        if head is not None:
            text = _Q.translate("MemoryLabels", "{kind}: {message}").format(kind=head, message=text)
    if status == "rejected" and again:
        return _Q.translate("MemoryLabels", "{reason}; nothing was written, try again").format(
            reason=text
        )
    if status == "rejected":
        return _Q.translate("MemoryLabels", "{reason}; nothing was written").format(reason=text)
    return text


# The core's reason for a revert: the version's time in UTC (" UTC" since it says so) and id.
_REVERTED = re.compile(
    r"^reverted to the version of (\d{4}-\d\d-\d\d \d\d:\d\d)(?: UTC)? \((\S+)\)$"
)


# The core's reasons when the user takes back, in the conversation, what still waited for
# their approval (service/extraction/retraction.py): the item is rejected as the user's
# decision, with the user's words quoted.
_WITHDRAWN = re.compile(
    r"^the user (?:took it back: (?P<detail>.+?)|(?P<forget>asked to forget it)"
    r"|(?P<just>took back what they had just said)) \(said: “(?P<said>.*)”\)$",
    re.DOTALL,
)


def is_withdrawal(reason: str | None) -> bool:
    """The reason (a decision note or an audit reason) is the user's withdrawal of a
    pending item by their own words in the conversation."""
    return reason is not None and _WITHDRAWN.match(reason.strip()) is not None


def _withdrawal_text(m: re.Match[str]) -> str:
    said = m.group("said")
    if m.group("forget"):
        return _Q.translate(
            "MemoryLabels", "you asked to forget it in the conversation (you said: “{said}”)"
        ).format(said=said)
    if m.group("just"):
        return _Q.translate(
            "MemoryLabels", "you took back what you had just said (you said: “{said}”)"
        ).format(said=said)
    # The detail is the core's English reading of the words (the project no longer uses
    # MySQL); a translation may leave it out, the user's own words say it.
    return _Q.translate(
        "MemoryLabels", "you took it back in the conversation: {detail} (you said: “{said}”)"
    ).format(detail=m.group("detail"), said=said)


def reason_text(reason: str) -> str:
    """Why a version or an audit event was written: the reasons of the user's own actions
    in the UI's language (a revert's time in local time, a withdrawal by the user's words
    with the words), anything else as written."""
    known = _table("why").get(reason.strip())
    if known is not None:
        return known
    withdrawn = _WITHDRAWN.match(reason.strip())
    if withdrawn is not None:
        return _withdrawal_text(withdrawn)
    m = _REVERTED.match(reason.strip())
    if m is None:
        return reason
    when = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    return _Q.translate("MemoryLabels", "reverted to the version of {when} ({id})").format(
        when=local(when).strftime("%Y-%m-%d %H:%M"), id=m.group(2)
    )


def event_label(value: str) -> str:
    return _table("event").get(value, value)


def origin_label(value: str) -> str:
    return _table("origin").get(value, value)


# The kinds of records in an export bundle, as the purge names them.
BUNDLE_KINDS = {
    "nodes": "node",
    "audit": "audit",
    "messages": "message",
    "summaries": "summary",
    "pending": "pending",
    "usage": "usage",
    "cursors": "cursor",
}
_NODE_LABEL = re.compile(r"^(.*) \((active|superseded|expired|deleted)\)$", re.DOTALL)
_MESSAGE_LABEL = re.compile(r"^(system|user|assistant|tool): (.*)$", re.DOTALL)


def record_label(kind: str) -> str:
    """What one record of a kind is called (a purge's list)."""
    return _table("record").get(kind, kind)


def record_count(kind: str, n: int) -> str:
    """``n`` records of a kind (``12 memory versions``); bundle kinds (``nodes``) too."""
    kind = BUNDLE_KINDS.get(kind, kind)
    template = _table("records").get(kind)
    return template.format(n=n) if template else f"{n} {kind}"


def purge_target_text(kind: str, label: str) -> str:
    """A purge target's description with the core's words for status and role translated
    (``title (superseded)``, ``user: text``)."""
    node = _NODE_LABEL.match(label) if kind == "node" else None
    if node is not None:
        return f"{node.group(1)} ({status_label(node.group(2))})"
    message = _MESSAGE_LABEL.match(label) if kind == "message" else None
    if message is not None:
        return f"{role_label(message.group(1))}: {message.group(2)}"
    return label


def store_label(value: str) -> str:
    return _table("store").get(value, value)


def kind_label(value: str) -> str:
    return _table("kind").get(value, value)


def role_label(value: str) -> str:
    return _table("role").get(value, value)


def author_label(m: MemoryMessage) -> str:
    """Who wrote a message: its role, or the agent when it reports the user's words."""
    return role_label("reported" if m.reported_by_agent else m.role)


def actor_label(value: str) -> str:
    return _table("actor").get(value, value)


def value_text(value: Any) -> str:
    """A value on one line: strings as they are, lists joined, objects as key: value."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return "、".join(value_text(v) for v in value)
    if isinstance(value, dict):
        return " · ".join(f"{k}: {value_text(v)}" for k, v in value.items())
    return json.dumps(value, ensure_ascii=False)


def pretty_json(value: Any) -> str:
    """Pretty-printed JSON (Chinese kept readable)."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False)


def local(dt: datetime) -> datetime:
    """A UTC time in the machine's time zone."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    try:
        return dt.astimezone()
    except (OverflowError, ValueError):
        # An older release stored a date at the edge of what Python holds (9999-12-31):
        # shown in UTC rather than not at all.
        return dt


def short_time(dt: datetime | None, now: datetime | None = None) -> str:
    """Compact: the time today, month-day this year, else the date."""
    if dt is None:
        return "—"
    dt = local(dt)
    now = local(now or datetime.now(UTC))
    if dt.date() == now.date():
        return dt.strftime("%H:%M")
    if dt.year == now.year:
        return dt.strftime("%m-%d %H:%M")
    return dt.strftime("%Y-%m-%d")


def full_time(dt: datetime | None) -> str:
    """Date and time to the second, local."""
    return "—" if dt is None else local(dt).strftime("%Y-%m-%d %H:%M:%S")


def relative_time(dt: datetime, now: datetime | None = None) -> str:
    """“in 3 h”, “2 d ago”…, translated."""
    now = now or datetime.now(UTC)
    seconds = (dt - now).total_seconds()
    future = seconds > 0
    s = abs(seconds)
    if s < 60:
        amount = _Q.translate("MemoryLabels", "{n} s").format(n=int(s))
    elif s < 3600:
        amount = _Q.translate("MemoryLabels", "{n} min").format(n=int(s // 60))
    elif s < 86400:
        amount = _Q.translate("MemoryLabels", "{n} h").format(n=int(s // 3600))
    else:
        amount = _Q.translate("MemoryLabels", "{n} d").format(n=int(s // 86400))
    return (
        _Q.translate("MemoryLabels", "in {amount}").format(amount=amount)
        if future
        else _Q.translate("MemoryLabels", "{amount} ago").format(amount=amount)
    )
