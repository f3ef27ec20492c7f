"""The core's free text in the UI's language: errors, refusals, outcomes, the reasons of
the user's own actions, why a pending item waits, a purge's record labels."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from ekko_memory import validation_text
from ekko_memory_gui.models.labels.store_problems import store_problem
from ekko_memory_gui.models.labels.values import local
from ekko_memory_gui.models.labels.vocabulary import (
    reason_sentence,
    role_label,
    sensitive_label,
    status_label,
    store_label,
    table,
)
from ekko_memory_gui.qt import QCoreApplication as _Q


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
    known = table("message").get(text)
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
    head = table("error").get(code) if isinstance(code, str) else None
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
        head = table("error").get(rule or "")
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
    known = table("why").get(reason.strip())
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


_NODE_LABEL = re.compile(r"^(.*) \((active|superseded|expired|deleted)\)$", re.DOTALL)
_MESSAGE_LABEL = re.compile(r"^(system|user|assistant|tool): (.*)$", re.DOTALL)


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
