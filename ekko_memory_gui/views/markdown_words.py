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

    def t(text: str) -> str:
        return _Q.translate("MarkdownExport", text)

    return MarkdownWords(
        heading=t("Ekko Memory export"),
        exported=t("Exported {when}."),
        selected=t("{n} selected memories."),
        no_memories=t("No memories."),
        updated=t("updated {when}"),
        expires=t("expires {when}"),
        confidence=t("confidence {n}"),
        importance=t("importance {n}"),
        tags=t("tags: {list}"),
        entities=t("entities: {list}"),
        uncategorized=t("Uncategorized"),
        separator=_Q.translate("MemoryLabels", ", "),
        types=dict(table("type")),
        scopes=dict(table("scope")),
        statuses=dict(table("status")),
        origins=dict(table("origin")),
        value_text=labels.value_text,
        when=_when,
    )
