"""The app's words for the core's reason codes (``ekko_memory.models.reasons``): why an
error was raised, why a write did nothing, why a record was written. Each is a translated
template over the code's params; a code the app has no words for shows a generic label."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from ekko_memory_gui.models.labels.values import local
from ekko_memory_gui.models.labels.vocabulary import cached, status_label
from ekko_memory_gui.qt import QCoreApplication as _Q


def reason_table() -> dict[str, str]:
    """Translated templates by reason code ({name} stands for a param)."""
    return cached("reason_code", _build)


def _build() -> dict[str, str]:
    return {
        # errors
        "pending.already_decided": _Q.translate(
            "MemoryLabels", "pending item {id} is already {status}"
        ),
        "pending.decided_meanwhile": _Q.translate(
            "MemoryLabels", "pending item {id} was decided meanwhile (by someone else)"
        ),
        "node.old_version": _Q.translate(
            "MemoryLabels", "memory {id} is an old version; change its current version {head}"
        ),
        "node.deleted": _Q.translate("MemoryLabels", "memory {id} is deleted"),
        "node.already_current": _Q.translate("MemoryLabels", "this is already the current version"),
        "node.restore_first": _Q.translate(
            "MemoryLabels", "the memory is deleted; restore it first"
        ),
        "node.newer_version_exists": _Q.translate(
            "MemoryLabels", "a newer version exists; restore that one instead"
        ),
        "node.global_read_only": _Q.translate(
            "MemoryLabels", "global memories ship with the app and are read-only"
        ),
        "node.pinned": _Q.translate(
            "MemoryLabels",
            "you pinned memory {id}: the agent may read it but not change or delete it",
        ),
        "memory.paused": _Q.translate(
            "MemoryLabels",
            "memory is paused: the agent neither reads nor writes it until you resume it",
        ),
        "forget.preview_outdated": _Q.translate(
            "MemoryLabels", "what would be forgotten changed since the preview; preview again"
        ),
        "export.folder_missing": _Q.translate("MemoryLabels", "the folder {path} does not exist"),
        "import.not_json": _Q.translate("MemoryLabels", "{path} is not valid JSON ({detail})"),
        "import.not_a_bundle": _Q.translate(
            "MemoryLabels",
            "{path} is not an Ekko Memory bundle; only the JSON bundles Export writes can "
            "be imported",
        ),
        "store.locked": _Q.translate(
            "MemoryLabels", "another program kept the store {path} locked"
        ),
        "store.unreachable": _Q.translate(
            "MemoryLabels", "the store {path} cannot be reached ({detail})"
        ),
        "store.io": _Q.translate(
            "MemoryLabels", "the store {path} could not read or write its file ({detail})"
        ),
        # writes that did nothing
        "write.already_remembered": _Q.translate(
            "MemoryLabels", "already remembered; nothing new was written"
        ),
        "write.already_expired": _Q.translate("MemoryLabels", "already expired"),
        # stored reasons: the user's own actions
        "user.created": _Q.translate("MemoryLabels", "written by you"),
        "user.edited": _Q.translate("MemoryLabels", "edited by you"),
        "user.expired": _Q.translate("MemoryLabels", "expired by you"),
        "user.deleted": _Q.translate("MemoryLabels", "deleted by you"),
        "user.restored": _Q.translate("MemoryLabels", "restored by you"),
        "user.approved": _Q.translate("MemoryLabels", "approved by you"),
        "user.rejected": _Q.translate("MemoryLabels", "rejected by you"),
        "user.decided_in_batch": _Q.translate("MemoryLabels", "decided by you in a batch"),
        "user.deleted_permanently": _Q.translate("MemoryLabels", "deleted permanently by you"),
        "user.purged": _Q.translate("MemoryLabels", "purged by you"),
        "user.forgot_from_cli": _Q.translate(
            "MemoryLabels", "forgotten by you from the command line"
        ),
        # A date, not the version's id: history speaks in dates and titles.
        "user.reverted": _Q.translate("MemoryLabels", "reverted to the version of {when}"),
        "user.pinned": _Q.translate("MemoryLabels", "pinned by you"),
        "user.unpinned": _Q.translate("MemoryLabels", "unpinned by you"),
        "user.paused": _Q.translate("MemoryLabels", "memory paused by you"),
        "user.resumed": _Q.translate("MemoryLabels", "memory resumed by you"),
        "user.merged": _Q.translate("MemoryLabels", "merged by you into {id}"),
        "user.unmerged": _Q.translate("MemoryLabels", "you undid the merge into {id}"),
        "user.not_duplicates": _Q.translate(
            "MemoryLabels", "you marked it as no duplicate of {id}"
        ),
        "user.duplicates_again": _Q.translate(
            "MemoryLabels", "you marked it as a possible duplicate of {id} again"
        ),
        # withdrawals: the user took back, in the conversation, what still waited. The
        # detail is the core's English reading of the words; the user's own words say it.
        "withdrawn.took_back": _Q.translate(
            "MemoryLabels", "you took it back in the conversation: {detail} (you said: “{said}”)"
        ),
        "withdrawn.asked_to_forget": _Q.translate(
            "MemoryLabels", "you asked to forget it in the conversation (you said: “{said}”)"
        ),
        "withdrawn.just_said": _Q.translate(
            "MemoryLabels", "you took back what you had just said (you said: “{said}”)"
        ),
        "withdrawn.said_anew": _Q.translate(
            "MemoryLabels", "you said it anew in the conversation (you said: “{said}”)"
        ),
    }


def _shown(code: str, params: Mapping[str, str]) -> dict[str, str]:
    """The params as the UI shows them: a status in its words, a UTC time in local time."""
    out = dict(params)
    if code == "pending.already_decided" and "status" in out:
        out["status"] = status_label(out["status"])
    if code == "user.reverted" and "when" in out:
        try:
            when = datetime.strptime(out["when"], "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
        except ValueError:
            pass
        else:
            out["when"] = local(when).strftime("%Y-%m-%d %H:%M")
    return out


class _Blank(dict[str, str]):
    """A param the template names and the core did not give reads as empty."""

    def __missing__(self, key: str) -> str:
        return ""


def reason_words(code: str | None, params: Mapping[str, str] | None) -> str | None:
    """The reason ``code`` in the UI's language with its params; None for no code or a
    code this app has no words for."""
    if code is None:
        return None
    template = reason_table().get(code)
    if template is None:
        return None
    return template.format_map(_Blank(_shown(code, params or {})))


def reason_label(code: str | None, params: Mapping[str, str] | None, text: str) -> str:
    """A reason for people: the code's words; for a code the app has no words for, a
    generic label with the core's own text (never nothing); the text itself when the core
    gave no code (a note someone typed)."""
    said = reason_words(code, params)
    if said is not None:
        return said
    if code is None:
        return text
    return _Q.translate("MemoryLabels", "{text} (reason {code})").format(text=text, code=code)
