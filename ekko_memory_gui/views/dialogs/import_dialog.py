"""Import a JSON bundle, then report what was added, skipped, updated and superseded."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ekko_memory import ImportReport
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.operations import transfer_ops
from ekko_memory_gui.qt import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.task_progress import TaskProgress
from ekko_memory_gui.views.widgets import text_label

KINDS = ("nodes", "audit", "messages", "summaries", "pending", "usage", "cursors")


class ImportDialog(QDialog):
    """Runs the import itself; ``report`` holds the result."""

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importDialog")
        self.setWindowTitle(self.tr("Import a bundle"))
        self.setMinimumWidth(560)
        self.controller = controller
        self.report: ImportReport | None = None
        self.task: asyncio.Task[Any] | None = None

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
        self.path_edit.setPlaceholderText(self.tr("a .json bundle"))
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(lambda: asyncio.ensure_future(self._browse()))
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.progress = TaskProgress()
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("importReport")
        self.table.setHorizontalHeaderLabels(
            [self.tr("Records"), self.tr("Added"), self.tr("Skipped"), self.tr("Updated")]
        )
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setVisible(False)
        self.summary = text_label("")
        self.summary.setObjectName("importSummary")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.import_button = self.buttons.addButton(
            self.tr("Import"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.import_button.setObjectName("importButton")
        self.import_button.setProperty("role", "primary")
        self.import_button.clicked.connect(self.start)
        self.buttons.rejected.connect(lambda: self.accept() if self.report else self.reject())
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.progress)
        layout.addWidget(self.table)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)

    async def _browse(self) -> None:
        start = self.controller.workspace.start_folder if self.controller.workspace else None
        chosen = await self.controller.dialogs.choose_open_file(
            self, self.tr("Import a bundle"), start, self.tr("Ekko Memory bundle (*.json)")
        )
        if chosen is not None:
            self.path_edit.setText(str(chosen))

    def start(self) -> asyncio.Task[Any] | None:
        if self.task is not None and not self.task.done():
            return self.task
        self.task = self.controller.runner.spawn(self.run_import(), self.tr("Importing"))
        return self.task

    async def run_import(self) -> ImportReport | None:
        path = Path(self.path_edit.text().strip()).expanduser()
        if not path.is_file():
            self.summary.setText(self.tr("Choose a bundle file first."))
            return None
        self.import_button.setEnabled(False)
        self.progress.start(self.tr("Importing…"), cancellable=False)
        try:
            report = await transfer_ops.import_bundle(
                self.controller, path, on_progress=self.progress.update
            )
        except Exception as e:
            self.progress.setVisible(False)
            self.summary.setText(self.tr("Nothing was imported: {error}").format(error=e))
            self.import_button.setEnabled(True)
            raise
        self.progress.finish()
        self.report = report
        self._show(report)
        self.import_button.setEnabled(True)
        return report

    def _show(self, r: ImportReport) -> None:
        rows = [
            (k, len(r.added.get(k, [])), len(r.skipped.get(k, [])), len(r.updated.get(k, [])))
            for k in KINDS
        ]
        rows = [row for row in rows if any(row[1:])]
        self.table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, value in enumerate(row):
                self.table.setItem(i, j, QTableWidgetItem(str(value)))
        self.table.setVisible(bool(rows))
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
        lines += r.notes
        self.summary.setText("\n".join(lines))
