"""The core's free text in the UI's language: errors, refusals, outcomes, the reasons of
the user's own actions, why a pending item waits, a purge's record labels."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from ekko_memory import validation_text
from ekko_memory_gui.models.labels.reasons import reason_label, reason_words
from ekko_memory_gui.models.labels.store_problems import store_problem
from ekko_memory_gui.models.labels.vocabulary import (
    reason_sentence,
    role_label,
    sensitive_label,
    status_label,
    store_label,
    table,
)
from ekko_memory_gui.qt import QCoreApplication as _Q


def why_text(rule: str, reason: str, params: Mapping[str, str] | None = None) -> str:
    """Why an item waits, in the UI's language, keeping the specifics the core named.

    ``rule`` is the code (``PendingItem.rule``), ``params`` its specifics
    (``PendingItem.reason_params``: the kinds of sensitive data, the values not in the
    user's words). A known rule becomes the translated sentence with the kinds translated;
    an unknown rule shows the core's text.
    """
    sentence = reason_sentence(rule)
    if sentence is None:
        return reason or rule.replace("_", " ")
    params = params or {}
    if "kinds" in params:
        sep = _Q.translate("MemoryLabels", ", ")
        listed = sep.join(sensitive_label(k) for k in params["kinds"].split(",") if k.strip())
    else:
        listed = params.get("values", "")
    if listed:
        sentence = _Q.translate("MemoryLabels", "{sentence} ({kinds})").format(
            sentence=sentence, kinds=listed
        )
    return sentence


def health_text(health: Any) -> str:
    """Why a store (its ``StoreHealth``) is not ok, in the UI's language (the core's
    ``reason`` for a problem the app does not know)."""
    said = store_problem(getattr(health, "reason_code", None), getattr(health, "reason_args", None))
    return said if said is not None else (health.reason or "")


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
    if not getattr(error, "located", False):
        return said  # the reason is the whole message (the file became read-only, damaged)
    if status == "readonly":
        return _Q.translate(
            "MemoryLabels", "memory store at {location} is readonly: {reason}"
        ).format(location=location, reason=said)
    return _Q.translate("MemoryLabels", "memory store at {location} is degraded: {reason}").format(
        location=location, reason=said
    )


def _error_words(error: BaseException) -> str | None:
    """An error's reason code (``EkkoMemoryError.because``) in the UI's language, with the
    core's "nothing was written" when it wrote nothing; None when it has none the app words."""
    said = reason_words(getattr(error, "reason_code", None), getattr(error, "reason_args", None))
    if said is None:
        return None
    return _ending(said, getattr(error, "nothing_written", False), getattr(error, "retry", False))


def _ending(said: str, unwritten: bool, retry: bool) -> str:
    """``said`` with the words for a refusal that wrote nothing (``retry``: try again)."""
    if unwritten and retry:
        return _Q.translate("MemoryLabels", "{reason}; nothing was written, try again").format(
            reason=said
        )
    if unwritten:
        return _Q.translate("MemoryLabels", "{reason}; nothing was written").format(reason=said)
    return said


def error_text(error: BaseException) -> str:
    """An error of the core for people: its kind translated (by ``code``), then its message
    (its reason code in the UI's words when it has one the app knows, else the core's). Data the core's models
    refused (a pydantic ValidationError) reads as invalid input: its complaints in one
    line, without the input echoed or pydantic's links."""
    if isinstance(error, ValidationError):
        code: Any = "invalid_input"
        message = validation_text(error)
    else:
        code = getattr(error, "code", None)
        message = _error_words(error) or str(error)
        refusal = _store_refusal(error)
        if refusal is not None:
            # A store that refused for a lasting reason: trying again does not help.
            message = _ending(refusal, getattr(error, "nothing_written", False), False)
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
    said = reason_words(getattr(error, "reason_code", None), getattr(error, "reason_args", None))
    if said is not None:
        return said
    return str(getattr(error, "detail", error)).strip()


def outcome_text(
    status: str,
    rule: str | None,
    detail: str,
    cause: BaseException | None = None,
    code: str | None = None,
    params: Mapping[str, str] | None = None,
    retry: bool = False,
) -> str:
    """Why a write of the user's was not done (or did nothing), in the UI's language.

    ``rule`` is the refusal's code: a permission rule (``global_scope``…) or an error code
    (``invalid_input``, ``conflict``…); ``detail`` the core's reason without its "nothing
    was written" (``WriteOutcome.detail``), ``retry`` whether trying again may work.
    ``cause``: the error that refused it (a store's names its problem by code).
    ``code``/``params``: the outcome's reason code (``WriteOutcome.reason_code``).
    """
    detail = detail.strip()
    if code is None and cause is not None:
        code = getattr(cause, "reason_code", None)
        params = getattr(cause, "reason_args", None)
    if rule is not None and reason_sentence(rule) is not None:
        text = reason_sentence(rule) or ""
    else:
        refusal = _store_refusal(cause) if cause is not None else None
        if refusal is None:
            refusal = reason_words(code, params)
        text = refusal if refusal is not None else detail
        head = table("error").get(rule or "")
        if head is not None:
            text = _Q.translate("MemoryLabels", "{kind}: {message}").format(kind=head, message=text)
    return _ending(text, status == "rejected", retry)


def is_withdrawal(code: str | None) -> bool:
    """The reason code (of a decision note or an audit reason) is the user's withdrawal of
    a pending item by their own words in the conversation."""
    return code is not None and code.startswith("withdrawn.")


def event_reason(event: Any) -> str:
    """Why an audit event was written (an ``AuditEvent``): its reason code in the UI's
    words (a revert's time in local time, a withdrawal with the user's words), a reason
    someone typed as written."""
    return reason_label(event.reason_code, event.reason_params, event.reason)


def decision_text(item: Any) -> str:
    """Why a pending item was decided (a ``PendingItem``'s decision note), as
    ``event_reason`` words it."""
    return reason_label(item.decision_code, item.decision_params, item.decision_note or "")


def purge_target_text(target: Any) -> str:
    """A purge target's description (a ``PurgeTarget``) with the status of a memory and
    the role of a message in the UI's words (``title (superseded)``, ``user: text``)."""
    if target.status is not None:
        return f"{target.text} ({status_label(target.status)})"
    if target.role is not None:
        return f"{role_label(target.role)}: {target.text}"
    return str(target.label)
