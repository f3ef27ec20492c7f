"""File ▸ Semantic index: how many memories semantic recall can find by meaning, and
embedding the rest now (after a change of model, all of them) with progress and Cancel."""

from __future__ import annotations

import asyncio
from typing import Any

from ekko_memory import CancelToken, ReindexReport
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.operations import transfer_ops
from ekko_memory_gui.qt import QVBoxLayout, QWidget
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.dialogs.task_dialog import TaskDialog
from ekko_memory_gui.views.widgets import text_label


class ReindexDialog(TaskDialog):
    """Shows the semantic index's state; Embed runs ``mem.reindex`` on the memory worker."""

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.setObjectName("reindexDialog")
        self.setWindowTitle(self.tr("Semantic index"))
        self.setMinimumWidth(560)
        self.report: ReindexReport | None = None
        intro = text_label(
            self.tr(
                "Semantic recall finds memories by what they mean, in Chinese and English, "
                "even when a question shares no word with them. Each memory needs a vector "
                "from the embedding model first: new memories get one in the background; "
                "after a change of model every memory is embedded again. Until then a memory "
                "is found by its words."
            ),
            role="muted",
        )
        self.state = text_label("")
        self.state.setObjectName("reindexState")
        self.summary = text_label("")
        self.summary.setObjectName("reindexSummary")
        self.embed_button = self.add_action(
            self.tr("Embed now"), "reindexButton", self.start, role="primary"
        )
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.state)
        layout.addWidget(self.progress)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

    async def load_state(self) -> None:
        """Say which model embeds and how far each store is."""
        model, status = await transfer_ops.semantic_status(self.controller)
        if model is None:
            self.state.setText(
                self.tr(
                    "Semantic recall is off (EKKO_EMBEDDER=none, the configuration, or the "
                    "'semantic' extra is not installed): memories are found by their words."
                )
            )
            self.embed_button.setEnabled(False)
            return
        lines = [self.tr("Model: {model}").format(model=model)]
        for store, (have, missing) in status.items():
            lines.append(
                self.tr("{store} store: {have} embedded, {missing} waiting").format(
                    store=labels.store_label(store), have=have, missing=missing
                )
            )
        self.state.setText("\n".join(lines))

    def start(self) -> asyncio.Task[Any]:
        self.embed_button.setEnabled(False)
        return self.spawn(
            self.run_reindex,
            busy=self.tr("Embedding…"),
            label=self.tr("Embedding memories"),
            stopping=self.tr("Stopping after this batch…"),
        )

    async def run_reindex(self, token: CancelToken | None = None) -> ReindexReport:
        self.summary.setText("")
        if token is None:
            token = self.progress.start(self.tr("Embedding…"), cancellable=True)
        try:
            report = await transfer_ops.reindex(
                self.controller, on_progress=self.progress.update, cancel=token
            )
        except Exception as e:
            self.progress.setVisible(False)
            self.summary.setText(
                self.tr("Embedding failed: {error}").format(error=labels.error_text(e))
            )
            self.embed_button.setEnabled(True)
            raise
        self.progress.finish(cancelled=report.cancelled)
        self.report = report
        done = sum(report.embedded.values())
        left = sum(report.remaining.values())
        text = self.tr("{done} memories embedded; {left} without a vector.").format(
            done=done, left=left
        )
        if report.cancelled:
            text += " " + self.tr("Cancelled: embed again to finish.")
        for warning in report.warnings:
            text += "\n" + warning
        self.summary.setText(text)
        await self.load_state()
        self.embed_button.setEnabled(True)
        return report
