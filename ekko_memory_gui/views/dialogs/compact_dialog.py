"""File ▸ Compact stores: give the space of deleted records back, with progress and Cancel,
then what each store measured before and after."""

from __future__ import annotations

import asyncio
from typing import Any

from ekko_memory import CancelToken, CompactedStore, CompactReport
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.operations import transfer_ops
from ekko_memory_gui.qt import QLocale, QPlainTextEdit, QVBoxLayout, QWidget
from ekko_memory_gui.services.fonts import mono_font
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.dialogs.task_dialog import TaskDialog
from ekko_memory_gui.views.widgets import text_label


def size_text(n: int) -> str:
    """``11.4 MB`` in the UI's locale."""
    return QLocale().formattedDataSize(n, 1, QLocale.DataSizeFormat.DataSizeTraditionalFormat)


class CompactDialog(TaskDialog):
    """Runs the compaction itself (on the memory worker); ``report`` holds the result."""

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.setObjectName("compactDialog")
        self.setWindowTitle(self.tr("Compact stores"))
        self.setMinimumWidth(620)
        self.report: CompactReport | None = None
        ws = controller.workspace
        self.on_server = ws is not None and ws.database is not None

        intro = text_label(
            self.tr(
                "Deleted memories, old versions and purged messages leave free space behind in "
                "the stores: it is reused for new memories but never given back. Compacting "
                "rebuilds each store without it. Your memories do not change. An agent can keep "
                "running; its writes wait while a store is being rebuilt."
            ),
            role="muted",
        )
        self.how = text_label(
            self.tr(
                "On the PostgreSQL server this runs VACUUM FULL on the store's tables: each "
                "table is rewritten into new files, and programs using a table wait until it "
                "is done."
            )
            if self.on_server
            else self.tr(
                "Each database file is rebuilt with SQLite's VACUUM (it completes or leaves "
                "the file as it was) and its write-ahead log is emptied."
            ),
            role="muted",
        )
        self.result_view = QPlainTextEdit()
        self.result_view.setObjectName("compactReport")
        self.result_view.setReadOnly(True)
        self.result_view.setFont(mono_font())
        self.result_view.setVisible(False)
        self.summary = text_label("")
        self.summary.setObjectName("compactSummary")
        self.compact_button = self.add_action(
            self.tr("Compact"), "compactButton", self.start, role="primary"
        )

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.how)
        layout.addWidget(self.progress)
        layout.addWidget(self.summary)
        layout.addWidget(self.result_view, 1)
        layout.addWidget(self.buttons)
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

        # --- running --------------------------------------------------------------------

    def start(self) -> asyncio.Task[Any]:
        self.compact_button.setEnabled(False)
        return self.spawn(
            self.run_compact,
            busy=self.tr("Compacting…"),
            label=self.tr("Compacting"),
            stopping=self.tr("Stopping after this store…"),
        )

    async def run_compact(self, token: CancelToken | None = None) -> CompactReport:
        self.compact_button.setEnabled(False)
        self.summary.setText("")
        if token is None:
            token = self.progress.start(self.tr("Compacting…"), cancellable=True)
        try:
            report = await transfer_ops.compact(
                self.controller, on_progress=self.progress.update, cancel=token
            )
        except Exception as e:
            self.progress.setVisible(False)
            self.summary.setText(
                self.tr("Compacting failed: {error}").format(error=labels.error_text(e))
            )
            self.compact_button.setEnabled(True)
            raise
        self.progress.finish(cancelled=report.cancelled)
        self.report = report
        self._show(report)
        self.compact_button.setEnabled(True)
        return report

    # --- the report -----------------------------------------------------------------

    def _show(self, r: CompactReport) -> None:
        done = [s for s in r.stores if s.status == "compacted"]
        if done:
            text = self.tr("Freed {size}.").format(size=size_text(r.freed_bytes))
        else:
            text = self.tr("Nothing was compacted.")
        if r.cancelled:
            text += " " + self.tr(
                "Cancelled: the stores not yet started were left as they were; compact again "
                "to finish."
            )
        self.summary.setText(text)
        lines: list[str] = []
        for entry in r.stores:
            lines += self.store_lines(entry)
            lines.append("")
        self.result_view.setPlainText("\n".join(lines).rstrip())
        self.result_view.setVisible(True)

    @staticmethod
    def failure_text(s: CompactedStore) -> str:
        """Why a store could not be compacted, in the UI's language: the store problem its
        entry carries (a file replaced…), else the error that stopped it as the app words
        errors (a lock another program held…); the core's reason for anything else."""
        said = labels.note_problem(s.problem)
        if said is not None:
            return said
        if s.cause is not None:
            return labels.outage_text(s.cause)
        return s.reason or ""

    def store_lines(self, s: CompactedStore) -> list[str]:
        """What happened to one store, in words."""
        name = labels.store_label(s.store)
        head = self.tr("{store} store — {location}").format(store=name, location=s.location)
        if s.status == "cancelled":
            return [head, "  " + self.tr("not compacted: cancelled before its turn")]
        if s.status == "skipped":
            reason = labels.note_problem(s.problem) or s.reason or ""
            return [head, "  " + self.tr("skipped: {reason}").format(reason=reason)]
        if s.status == "failed":
            return [
                head,
                "  "
                + self.tr("not compacted, nothing changed: {reason}").format(
                    reason=self.failure_text(s)
                ),
            ]
        lines = [head]
        if s.bytes_before is not None and s.bytes_after is not None:
            what = (
                self.tr("tables and indexes on the server") if not s.files else self.tr("all files")
            )
            lines.append(
                "  "
                + self.tr("{what}: {before} → {after}, {freed} freed").format(
                    what=what,
                    before=size_text(s.bytes_before),
                    after=size_text(s.bytes_after),
                    freed=size_text(s.freed_bytes),
                )
            )
        for f in s.files:
            lines.append(f"    {f.path}: {size_text(f.bytes_before)} → {size_text(f.bytes_after)}")
        if not s.files:
            lines += ["  " + self.tr("ran: {sql}").format(sql=sql) for sql in s.ran]
        lines += [f"  ! {w}" for w in s.warnings]
        return lines
