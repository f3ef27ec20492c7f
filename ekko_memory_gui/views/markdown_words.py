"""The words of a Markdown export in the UI's language (made on the GUI thread, where
the translators are read; the export itself runs on the memory worker)."""

from __future__ import annotations

from datetime import datetime

from ekko_memory_gui.models import labels
from ekko_memory_gui.models.labels.vocabulary import table
from ekko_memory_gui.operations.markdown_export import MarkdownWords
from ekko_memory_gui.qt import QCoreApplication as _Q


def _when(dt: datetime | None) -> str:
    return labels.full_time(dt)


def markdown_words() -> MarkdownWords:
    """Every word of the file, translated now."""

    return MarkdownWords(
        heading=_Q.translate("MarkdownExport", "Ekko Memory export"),
        exported=_Q.translate("MarkdownExport", "Exported {when}."),
        selected=_Q.translate("MarkdownExport", "{n} selected memories."),
        no_memories=_Q.translate("MarkdownExport", "No memories."),
        updated=_Q.translate("MarkdownExport", "updated {when}"),
        expires=_Q.translate("MarkdownExport", "expires {when}"),
        confidence=_Q.translate("MarkdownExport", "confidence {n}"),
        importance=_Q.translate("MarkdownExport", "importance {n}"),
        tags=_Q.translate("MarkdownExport", "tags: {list}"),
        entities=_Q.translate("MarkdownExport", "entities: {list}"),
        uncategorized=_Q.translate("MarkdownExport", "Uncategorized"),
        separator=_Q.translate("MemoryLabels", ", "),
        types=dict(table("type")),
        scopes=dict(table("scope")),
        statuses=dict(table("status")),
        origins=dict(table("origin")),
        value_text=labels.value_text,
        when=_when,
    )
