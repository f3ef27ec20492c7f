"""What each kind of record of a bundle is called, in words (an import's report named the
tables, ``nodes`` and ``summaries``, under a header that read as a time in Chinese)."""

from __future__ import annotations

from ekko_memory_gui.qt import QCoreApplication as _Q


def record_kind_label(kind: str) -> str:
    """A kind of bundle record, in the UI's language (unknown kinds as they are)."""
    return {
        "nodes": _Q.translate("RecordKinds", "Memories (every version)"),
        "audit": _Q.translate("RecordKinds", "History entries"),
        "messages": _Q.translate("RecordKinds", "Conversation messages"),
        "summaries": _Q.translate("RecordKinds", "Conversation summaries"),
        "pending": _Q.translate("RecordKinds", "Inbox items"),
        "usage": _Q.translate("RecordKinds", "Uses in replies"),
        "cursors": _Q.translate("RecordKinds", "Reading positions"),
    }.get(kind, kind)


def kind_header() -> str:
    """The header of the column that names the kinds."""
    return _Q.translate("RecordKinds", "What")
