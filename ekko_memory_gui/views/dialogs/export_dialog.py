"""Export: the format, what (all, this branch, a scope), where; progress; then the result
with "Open folder"."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from typing import Any

from ekko_memory import STORED_SCOPES, CancelToken, ExportReport, ExportSelection
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.operations import markdown_export, transfer_ops
from ekko_memory_gui.qt import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDesktopServices,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QUrl,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.dialogs.task_dialog import TaskDialog
from ekko_memory_gui.views.markdown_words import markdown_words
from ekko_memory_gui.views.widgets import text_label

FORMATS = (("json", ".json"), ("md", ".md"), ("csv", ".csv"))


class ExportDialog(TaskDialog):
    """Runs the export itself (progress inside); ``report`` holds the result."""

    def __init__(
        self,
        controller: AppController,
        *,
        branch: list[str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(controller, parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle(self.tr("Export memories"))
        self.setMinimumWidth(560)
        self.branch = branch
        self.report: ExportReport | None = None
        # The file the save dialog chose: it already asked whether to replace it.
        self._chosen: Path | None = None

        self.format_buttons = QButtonGroup(self)
        fmt_box = QVBoxLayout()
        for i, (code, text) in enumerate(
            (
                (
                    "json",
                    self.tr(
                        "JSON bundle — everything, for a backup or another machine (import reads it back)"
                    ),
                ),
                ("md", self.tr("Markdown — to read")),
                ("csv", self.tr("CSV — memories as a table for a spreadsheet")),
            )
        ):
            b = QRadioButton(text)
            b.setObjectName(f"format_{code}")
            b.setProperty("format", code)
            self.format_buttons.addButton(b, i)
            fmt_box.addWidget(b)
        self.format_buttons.button(0).setChecked(True)
        self.format_buttons.idToggled.connect(lambda _i, _on: self._format_changed())

        self.what = QComboBox()
        self.what.setObjectName("exportWhat")
        self.what.addItem(self.tr("All memories"), ("all", None))
        if branch:
            self.what.addItem(
                self.tr("This branch: {path}").format(path=" / ".join(branch)), ("branch", None)
            )
        for s in STORED_SCOPES:
            self.what.addItem(
                self.tr("Only {scope} scope").format(scope=labels.scope_label(s)), ("scope", s)
            )
        self.messages = QCheckBox(self.tr("Include the source messages"))
        self.messages.setObjectName("includeMessages")
        self.messages.setChecked(True)

        self.path_edit = QLineEdit()
        self.path_edit.setObjectName("exportPath")
        # Named for a screen reader: its form label sits beside a row, not the field.
        self.path_edit.setAccessibleName(self.tr("Where"))
        folder = controller.workspace.start_folder if controller.workspace else Path.home()
        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        self.path_edit.setText(str(folder / f"ekko-memory-{stamp}.json"))
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(lambda: asyncio.ensure_future(self._browse()))
        where = QHBoxLayout()
        where.addWidget(self.path_edit, 1)
        where.addWidget(browse)

        form = QFormLayout()
        form.addRow(self.tr("Format"), fmt_box)
        form.addRow(self.tr("What"), self.what)
        form.addRow("", self.messages)
        form.addRow(self.tr("Where"), where)

        self.result_label = text_label("")
        self.result_label.setObjectName("exportResult")
        self.open_folder = QPushButton(self.tr("Open folder"))
        self.open_folder.setObjectName("openFolder")
        self.open_folder.setVisible(False)
        self.open_folder.clicked.connect(self._open_folder)

        self.export_button = self.add_action(
            self.tr("Export"), "exportButton", self.start, role="primary"
        )

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.result_label)
        layout.addWidget(self.open_folder)
        layout.addWidget(self.buttons)
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

        # --- choices --------------------------------------------------------------------

    def format(self) -> str:
        return str(self.format_buttons.checkedButton().property("format"))

    def set_format(self, code: str) -> None:
        for b in self.format_buttons.buttons():
            if b.property("format") == code:
                b.setChecked(True)

    def selection(self) -> ExportSelection:
        kind, scope = self.what.currentData()
        return ExportSelection(
            scopes=[scope] if kind == "scope" else None,
            category_path_prefix=self.branch if kind == "branch" else None,
            include_messages=self.messages.isChecked(),
        )

    def _format_changed(self) -> None:
        ext = dict(FORMATS)[self.format()]
        path = Path(self.path_edit.text())
        if path.name:  # an empty field stays empty (Path("") has no name to give a suffix)
            self.path_edit.setText(str(path.with_suffix(ext)))
        self.messages.setEnabled(self.format() == "json")

    async def _browse(self) -> None:
        chosen = await self.controller.dialogs.choose_save_file(
            self,
            self.tr("Export to"),
            Path(self.path_edit.text()),
            "*" + dict(FORMATS)[self.format()],
        )
        if chosen is not None:
            self.path_edit.setText(str(chosen))
            self._chosen = chosen.expanduser()

    # --- running --------------------------------------------------------------------

    def start(self) -> asyncio.Task[Any]:
        # Cancel stops at the next batch; the file is not left behind.
        return self.spawn(self.run_export, busy=self.tr("Exporting…"), label=self.tr("Exporting"))

    async def _may_write(self, path: Path) -> bool:
        """Whether to write ``path``: a typed or default path that names an existing file
        is replaced only when the user says so (the save dialog asked already)."""
        if not path.is_file() or path == self._chosen:
            return True
        return await self.controller.dialogs.confirm(
            self,
            self.tr("Replace the file?"),
            self.tr("{path} already exists. Replace it with this export?").format(path=path),
            ok_label=self.tr("Replace"),
        )

    async def run_export(self, token: CancelToken | None = None) -> ExportReport | None:
        self.export_button.setEnabled(False)
        self.result_label.setText("")
        self.open_folder.setVisible(False)
        text = self.path_edit.text().strip()
        path = Path(text).expanduser()
        if text:
            try:
                # Never a memory database or a store's folder: said before any question.
                await transfer_ops.check_export_target(self.controller, path)
            except Exception as e:
                self._failed(e)
                raise
        if not text or not await self._may_write(path):
            self.progress.setVisible(False)
            self.result_label.setText(
                self.tr("Nothing was exported: choose a file to export to.")
                if not text
                else self.tr("Nothing was exported: {path} was kept as it is.").format(path=path)
            )
            self.export_button.setEnabled(True)
            return None
        if token is None:
            token = self.progress.start(self.tr("Exporting…"), cancellable=True)
        try:
            if self.format() == "md":
                # In the UI's language (the core writes its Markdown in English).
                report = await markdown_export.export_markdown(
                    self.controller,
                    path,
                    markdown_words(),
                    selection=self.selection(),
                    on_progress=self.progress.update,
                    cancel=token,
                    force=True,
                )
            else:
                report = await transfer_ops.export(
                    self.controller,
                    path,
                    format=self.format(),
                    selection=self.selection(),
                    on_progress=self.progress.update,
                    cancel=token,
                    # The user chose to replace an existing file (``_may_write`` asked).
                    force=True,
                )
        except Exception as e:
            self._failed(e)
            raise
        self.report = report
        self.progress.finish(cancelled=report.cancelled)
        if report.cancelled:
            self.result_label.setText(self.tr("Cancelled; no file was written."))
        else:
            counts = ", ".join(labels.record_count(k, n) for k, n in report.counts.items() if n)
            done = self.tr("Exported {counts} to {path} ({size} KB, readable only by you).").format(
                counts=counts or "0", path=report.path, size=max(1, report.bytes // 1024)
            )
            self.result_label.setText("\n".join([done, *self.warning_lines(report)]))
            self.open_folder.setVisible(True)
        self.export_button.setEnabled(True)
        return report

    def _failed(self, error: Exception) -> None:
        """Say why nothing was written (the core's refusal, in the UI's language)."""
        self.progress.setVisible(False)
        self.result_label.setText(
            self.tr("The export failed: {error}").format(error=labels.error_text(error))
        )
        self.export_button.setEnabled(True)

    def warning_lines(self, report: ExportReport) -> list[str]:
        """What the export left out and why (a store that cannot be read), in the UI's
        language: the store problem each warning quotes, else the core's warning."""
        lines = []
        for i, warning in enumerate(report.warnings):
            note = report.warning_problems[i] if i < len(report.warning_problems) else None
            said = labels.note_problem(note)
            if note is not None and said is not None:
                warning = self.tr("the {store} store was skipped: {reason}").format(
                    store=labels.store_label(note.store), reason=said
                )
            lines.append(f"! {warning}")
        return lines

    def _open_folder(self) -> None:
        if self.report is not None and self.report.path:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(self.report.path).parent)))
