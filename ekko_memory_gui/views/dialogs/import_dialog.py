"""Import a JSON bundle, then report what was added, skipped, updated and superseded.

Cancel stops the import at the next batch: the store being imported is rolled back; when
the workspace store had already been committed, the report says so (import again to
finish: what is already there is skipped)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ekko_memory import CancelToken, EkkoMemoryError, ImportReport
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.operations import transfer_ops
from ekko_memory_gui.qt import (
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.dialogs.record_kinds import kind_header, record_kind_label
from ekko_memory_gui.views.dialogs.task_dialog import TaskDialog
from ekko_memory_gui.views.widgets import text_label

KINDS = ("nodes", "audit", "messages", "summaries", "pending", "usage", "cursors")


class ImportDialog(TaskDialog):
    """Runs the import itself; ``report`` holds the result."""

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.setObjectName("importDialog")
        self.setWindowTitle(self.tr("Import a bundle"))
        self.setMinimumWidth(560)
        self.report: ImportReport | None = None

        intro = text_label(
            self.tr(
                "Reads a JSON bundle made by Export. Memories keep their ids: what is already "
                "here is skipped, a newer version of the same memory supersedes the older one, "
                "and importing the same bundle twice changes nothing."
            ),
            role="muted",
        )
        self.path_edit = QLineEdit()
        self.path_edit.setObjectName("importPath")
        self.path_edit.setAccessibleName(self.tr("Bundle to import"))
        self.path_edit.setPlaceholderText(self.tr("a .json bundle"))
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(lambda: asyncio.ensure_future(self._browse()))
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("importReport")
        self.table.setHorizontalHeaderLabels(
            [kind_header(), self.tr("Added"), self.tr("Skipped"), self.tr("Updated")]
        )
        self.table.setAccessibleName(self.tr("What the import did"))
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setVisible(False)
        self.summary = text_label("")
        self.summary.setObjectName("importSummary")
        self.import_button = self.add_action(
            self.tr("Import"), "importButton", self.start, role="primary"
        )
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.progress)
        layout.addWidget(self.table)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

    async def _browse(self) -> None:
        start = self.controller.workspace.start_folder if self.controller.workspace else None
        chosen = await self.controller.dialogs.choose_open_file(
            self, self.tr("Import a bundle"), start, self.tr("Ekko Memory bundle (*.json)")
        )
        if chosen is not None:
            self.path_edit.setText(str(chosen))

    def start(self) -> asyncio.Task[Any]:
        # Cancel stops at the next batch; the store being imported is rolled back.
        return self.spawn(self.run_import, busy=self.tr("Importing…"), label=self.tr("Importing"))

    async def run_import(self, token: CancelToken | None = None) -> ImportReport | None:
        text = self.path_edit.text().strip()
        path = Path(text).expanduser()
        if not path.is_file():
            self.progress.setVisible(False)
            self.summary.setText(
                self.tr("There is no file at {path}.").format(path=path)
                if text
                else self.tr("Choose a bundle file first.")
            )
            return None
        self.import_button.setEnabled(False)
        if token is None:
            token = self.progress.start(self.tr("Importing…"), cancellable=True)
        try:
            report = await transfer_ops.import_bundle(
                self.controller, path, on_progress=self.progress.update, cancel=token
            )
        except Exception as e:
            self.progress.setVisible(False)
            self.summary.setText(
                self.tr("Nothing was imported: {error}").format(error=labels.error_text(e))
            )
            self.import_button.setEnabled(True)
            if isinstance(e, EkkoMemoryError):
                # Said here, in the dialog: the status line said it again, cut to
                # "Importing: invalid…" under the dialog.
                return None
            raise
        self.progress.finish(cancelled=report.cancelled)
        self.report = report
        self._show(report)
        self.import_button.setEnabled(True)
        return report

    def _fit_rows(self, n: int) -> None:
        """Tall enough for every row (it showed one row and a scroll bar)."""
        self.table.resizeRowsToContents()
        rows = sum(self.table.rowHeight(i) for i in range(n))
        frame = 2 * self.table.frameWidth()
        self.table.setMinimumHeight(self.table.horizontalHeader().height() + rows + frame + 2)

    def cancel_text(self, r: ImportReport) -> str:
        """What a cancel left: nothing imported, or which store was and which was not."""
        if not r.committed_stores:
            return self.tr("Cancelled: nothing was imported; your stores are as they were.")
        return self.tr(
            "Cancelled: the {done} store was imported; the {left} store was not and is as it "
            "was. Import the bundle again to finish: what is already here is skipped."
        ).format(
            done=", ".join(labels.store_label(s) for s in r.committed_stores),
            left=", ".join(labels.store_label(s) for s in r.cancelled_stores),
        )

    def _show(self, r: ImportReport) -> None:
        rows = [
            (k, len(r.added.get(k, [])), len(r.skipped.get(k, [])), len(r.updated.get(k, [])))
            for k in KINDS
        ]
        rows = [row for row in rows if any(row[1:])]
        self.table.setRowCount(len(rows))
        for i, (kind, *numbers) in enumerate(rows):
            self.table.setItem(i, 0, QTableWidgetItem(record_kind_label(kind)))
            for j, value in enumerate(numbers, start=1):
                self.table.setItem(i, j, QTableWidgetItem(str(value)))
        self._fit_rows(len(rows))
        self.table.setVisible(bool(rows))
        if r.cancelled and not r.committed_stores:
            self.summary.setText(self.cancel_text(r))
            return
        lines = [
            self.tr("Added {n} memories, skipped {s} already here.").format(
                n=len(r.added.get("nodes", [])), s=len(r.skipped.get("nodes", []))
            )
        ]
        if r.superseded:
            lines.append(
                self.tr("{n} memories were superseded by a newer version of the same key.").format(
                    n=len(r.superseded)
                )
            )
        duplicates = sum(len(ids) for ids in r.duplicates.values())
        if duplicates:
            lines.append(
                self.tr(
                    "{n} records were in the bundle more than once; each was read once."
                ).format(n=duplicates)
            )
        lines += r.notes
        if r.cancelled:
            lines.insert(0, self.cancel_text(r))
        self.summary.setText("\n".join(lines))
