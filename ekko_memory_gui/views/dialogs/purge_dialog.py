"""Purge: filters on the left; the dry run on the right (counts per kind and every record
that would go); then the purge with progress, and the verification report."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from ekko_memory import (
    STORED_SCOPES,
    BrowseFilter,
    CancelToken,
    PurgeFilter,
    PurgePlan,
    PurgeReport,
)
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.operations import browse_ops, transfer_ops
from ekko_memory_gui.qt import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateTime,
    QDateTimeEdit,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QSize,
    QSplitter,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.services.fonts import mono_font
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.dialogs.screen_fit import fit_to_screen
from ekko_memory_gui.views.dialogs.task_dialog import TaskDialog
from ekko_memory_gui.views.widgets import section_title, text_label

KIND_ORDER = ("node", "audit", "pending", "usage", "message", "summary", "job", "cursor")


def _path(text: str) -> list[str]:
    return [p.strip() for p in text.replace("／", "/").split("/") if p.strip()]


class PurgeDialog(TaskDialog):
    """``plan`` after a dry run, ``report`` after the purge."""

    def __init__(
        self,
        controller: AppController,
        *,
        branch: list[str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(controller, parent)
        self.setObjectName("purgeDialog")
        self.setWindowTitle(self.tr("Purge for good"))
        self.plan: PurgePlan | None = None
        self.report: PurgeReport | None = None
        self.search_after: int | None = None

        # --- filters ---
        self.scope_checks = {}
        scopes = QHBoxLayout()
        for s in STORED_SCOPES:
            cb = QCheckBox(labels.scope_label(s))
            cb.setObjectName(f"scope_{s}")
            self.scope_checks[s] = cb
            scopes.addWidget(cb)
        self.workspace_edit = QLineEdit()
        self.workspace_edit.setObjectName("workspaceId")
        self.user_edit = QLineEdit()
        self.user_edit.setObjectName("userId")
        self.category_edit = QLineEdit(" / ".join(branch or []))
        self.category_edit.setObjectName("purgeCategory")
        self.category_edit.setPlaceholderText("生活技能 / 做饭")
        self.session_combo = QComboBox()
        self.session_combo.setObjectName("purgeSession")
        self.session_combo.addItem(self.tr("(any)"), None)
        self.after_check = QCheckBox(self.tr("from"))
        self.after_edit = QDateTimeEdit(QDateTime.currentDateTime().addDays(-30))
        self.before_check = QCheckBox(self.tr("until"))
        self.before_edit = QDateTimeEdit(QDateTime.currentDateTime())
        # Named for a screen reader: the checkbox beside each says what the date is.
        self.after_edit.setAccessibleName(self.tr("Created from"))
        self.before_edit.setAccessibleName(self.tr("Created until"))
        for e in (self.after_edit, self.before_edit):
            e.setCalendarPopup(True)
            e.setDisplayFormat("yyyy-MM-dd HH:mm")
        dates = QVBoxLayout()
        for check, edit in (
            (self.after_check, self.after_edit),
            (self.before_check, self.before_edit),
        ):
            row = QHBoxLayout()
            row.addWidget(check)
            row.addWidget(edit, 1)
            dates.addLayout(row)
        self.query_edit = QLineEdit()
        self.query_edit.setObjectName("purgeQuery")
        self.query_edit.setPlaceholderText(self.tr("words anywhere in a memory, e.g. 手机号"))
        self.messages_check = QCheckBox(self.tr("Also the messages and their summaries"))
        self.messages_check.setObjectName("purgeMessages")
        # The long explanation wraps below the box (as the box's text it set the dialog's
        # narrowest width past a 1024-pixel screen).
        messages_note = self.tr(
            "Also the messages (sources, and those matching session, dates or words) and the summaries built on them"
        )
        self.messages_check.setAccessibleDescription(messages_note)
        self.messages_note = text_label(messages_note, role="muted")
        self.messages_note.setMinimumWidth(1)
        self.backups_check = QCheckBox(
            self.tr("Delete migration backups that still hold purged text")
        )
        self.backups_check.setObjectName("purgeBackups")
        self.backups_check.setChecked(True)
        # A PostgreSQL store has no files or migration backups here (the server's data
        # files and pg_dump backups are its operator's): the report searches the tables
        # and the search index, and VACUUM FULL rewrites the tables.
        ws = controller.workspace
        self.on_server = ws is not None and ws.database is not None
        self.backups_check.setVisible(not self.on_server)

        form = QFormLayout()
        form.addRow(self.tr("Scopes"), scopes)
        form.addRow(self.tr("Workspace id"), self.workspace_edit)
        form.addRow(self.tr("User id"), self.user_edit)
        form.addRow(self.tr("Category"), self.category_edit)
        form.addRow(self.tr("Session"), self.session_combo)
        form.addRow(self.tr("Created"), dates)
        form.addRow(self.tr("Words"), self.query_edit)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addWidget(section_title(self.tr("What to purge")))
        lv.addWidget(
            text_label(
                self.tr(
                    "Every condition you fill must hold. Every version of a matching memory goes, with its audit text, usage and pending items."
                ),
                role="muted",
            )
        )
        lv.addLayout(form)
        lv.addWidget(self.messages_check)
        lv.addWidget(self.messages_note)
        lv.addWidget(self.backups_check)
        lv.addStretch(1)

        # --- the dry run ---
        self.counts_label = text_label(
            self.tr("Run a dry run to see everything that would go."), role="muted"
        )
        self.counts_label.setObjectName("purgeCounts")
        self.targets = QTableWidget(0, 5)
        self.targets.setObjectName("purgeTargets")
        self.targets.setAccessibleName(self.tr("Dry run"))
        self.targets.setTabKeyNavigation(False)  # a list to read: Tab moves on to the buttons
        self.targets.setHorizontalHeaderLabels(
            [self.tr("Kind"), self.tr("Store"), self.tr("Action"), self.tr("Id"), self.tr("What")]
        )
        self.targets.verticalHeader().setVisible(False)
        self.targets.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.targets.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.targets.horizontalHeader()
        for i in range(4):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.verification = QPlainTextEdit()
        self.verification.setObjectName("purgeVerification")
        self.verification.setReadOnly(True)
        self.verification.setFont(mono_font())
        self.verification.setVisible(False)
        self.results = QSplitter(Qt.Orientation.Vertical)
        self.results.addWidget(self.targets)
        self.results.addWidget(self.verification)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.addWidget(section_title(self.tr("Dry run")))
        rv.addWidget(self.counts_label)
        rv.addWidget(self.results, 1)
        rv.addWidget(self.progress)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([420, 700])

        self.error = text_label("", role="danger")
        self.error.setObjectName("purgeError")
        self.dry_run_button = self.add_action(
            self.tr("Dry run"), "dryRunButton", self.start_dry_run
        )
        self.purge_button = self.add_action(
            self.tr("Purge…"), "purgeButton", self.start_purge, role="danger"
        )
        self.purge_button.setEnabled(False)

        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        fit_to_screen(self, QSize(1140, 700))

        for w in (self.workspace_edit, self.user_edit, self.category_edit, self.query_edit):
            w.textChanged.connect(self._filter_changed)
        for cb in (
            *self.scope_checks.values(),
            self.after_check,
            self.before_check,
            self.messages_check,
            self.backups_check,
        ):
            cb.toggled.connect(self._filter_changed)
        self.session_combo.currentIndexChanged.connect(self._filter_changed)
        self.after_edit.dateTimeChanged.connect(self._filter_changed)
        self.before_edit.dateTimeChanged.connect(self._filter_changed)
        self._sessions_task = controller.runner.spawn(
            self._load_sessions(), self.tr("Loading sessions")
        )
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

    async def _load_sessions(self) -> None:
        for s in await browse_ops.sessions(self.controller.runner):
            self.session_combo.addItem(f"{s.session_id} ({s.message_count})", s.session_id)

        # --- the filter -----------------------------------------------------------------

    def filter(self) -> PurgeFilter:
        """The form as a PurgeFilter (raises ValueError when nothing is named)."""

        def when(check: QCheckBox, edit: QDateTimeEdit) -> datetime | None:
            if not check.isChecked():
                return None
            return datetime.fromtimestamp(edit.dateTime().toSecsSinceEpoch(), UTC)

        scopes = [s for s, cb in self.scope_checks.items() if cb.isChecked()]
        return PurgeFilter(
            scopes=scopes or None,
            workspace_id=self.workspace_edit.text().strip() or None,
            user_id=self.user_edit.text().strip() or None,
            category_path_prefix=_path(self.category_edit.text()) or None,
            session_id=self.session_combo.currentData(),
            after=when(self.after_check, self.after_edit),
            before=when(self.before_check, self.before_edit),
            query=self.query_edit.text().strip() or None,
            include_messages=self.messages_check.isChecked(),
            remove_backups=self.backups_check.isChecked(),
        )

    def _filter_changed(self) -> None:
        # A purge runs exactly the plan the user saw: any change asks for a new dry run.
        self.purge_button.setEnabled(False)
        if self.plan is not None:
            self.counts_label.setText(self.tr("The filter changed: run the dry run again."))

    # --- dry run --------------------------------------------------------------------

    def start_dry_run(self) -> asyncio.Task[Any]:
        self.task = self.controller.runner.spawn(self.dry_run(), self.tr("Dry run"))
        return self.task

    async def dry_run(self) -> PurgePlan | None:
        self.error.setText("")
        try:
            f = self.filter()
        except ValueError as e:  # pydantic's ValidationError: what the filter lacks
            self.error.setText(labels.error_text(e) or self.tr("Name what to purge."))
            return None
        self.dry_run_button.setEnabled(False)
        try:
            plan = await transfer_ops.plan_purge(self.controller, f)
        finally:
            self.dry_run_button.setEnabled(True)
        self.plan = plan
        self._show_plan(plan)
        self.purge_button.setEnabled(bool(plan.targets))
        return plan

    def _show_plan(self, plan: PurgePlan) -> None:
        counts = plan.counts()
        if not plan.targets:
            self.counts_label.setText(self.tr("Nothing matches: nothing would be purged."))
        else:
            memories = (
                self.tr("1 memory")
                if plan.memories == 1
                else self.tr("{n} memories").format(n=plan.memories)
            )
            parts = [memories] + [
                labels.record_count(k, counts[k]) for k in KIND_ORDER if counts.get(k)
            ]
            self.counts_label.setText(" · ".join(parts))
        targets = sorted(plan.targets, key=lambda t: (KIND_ORDER.index(t.kind), t.store, t.id))
        self.targets.setRowCount(len(targets))
        for i, t in enumerate(targets):
            action = self.tr("delete") if t.action == "delete" else self.tr("remove its text")
            for j, value in enumerate(
                (
                    labels.record_label(t.kind),
                    labels.store_label(t.store),
                    action,
                    t.id,
                    labels.purge_target_text(t),
                )
            ):
                self.targets.setItem(i, j, QTableWidgetItem(value))

    # --- purge ----------------------------------------------------------------------

    def start_purge(self) -> asyncio.Task[Any]:
        self.task = self.controller.runner.spawn(self.run_purge(), self.tr("Purging"))
        return self.task

    async def run_purge(self, token: CancelToken | None = None) -> PurgeReport | None:
        plan = self.plan
        if plan is None or not plan.targets:
            return None
        ok = await self.controller.dialogs.confirm(
            self,
            self.tr("Purge for good"),
            self.tr("{summary}\n\nThis deletes them for good and cannot be undone.").format(
                summary=self.counts_label.text()
            ),
            ok_label=self.tr("Purge"),
        )
        if not ok:
            return None
        self.purge_button.setEnabled(False)
        self.dry_run_button.setEnabled(False)
        if token is None or token.cancelled:
            token = self.progress.start(self.tr("Purging…"), cancellable=True)
        try:
            report = await transfer_ops.purge(
                self.controller, plan, on_progress=self.progress.update, cancel=token
            )
            query = plan.filter.query
            if query and not report.cancelled:
                # Global memories ship read-only with the app and are not purged.
                self.search_after = await browse_ops.count(
                    self.controller.runner,
                    BrowseFilter(text=query, statuses=None, scopes=list(STORED_SCOPES)),
                )
        finally:
            self.dry_run_button.setEnabled(True)
        self.progress.finish(cancelled=report.cancelled)
        self.report = report
        self._show_report(report, plan)
        self.plan = None
        return report

    def _show_report(self, r: PurgeReport, plan: PurgePlan) -> None:
        counts = r.counts()
        lines = [
            (
                self.tr("Purged: 1 memory")
                if r.memories == 1
                else self.tr("Purged: {n} memories").format(n=r.memories)
            )
            + "".join(f", {labels.record_count(k, counts[k])}" for k in KIND_ORDER if counts.get(k))
        ]
        if r.cancelled:
            lines.append(
                self.tr(
                    "Cancelled: what was purged is gone for good; run the purge again to finish."
                )
            )
        v = r.verification
        if v is not None:
            lines.append("")
            if self.on_server:
                lines.append(
                    self.tr(
                        "Searched the tables and the search index on the PostgreSQL server for {texts} purged texts (the server's data files are not read from here; the tables were rewritten with VACUUM FULL)."
                    ).format(texts=v.texts_checked)
                )
            else:
                lines.append(
                    self.tr(
                        "Searched the tables, the search index and the bytes of {files} files for {texts} purged texts."
                    ).format(files=len(v.files_scanned), texts=v.texts_checked)
                )
            if plan.filter.query and self.search_after is not None:
                lines.append(
                    self.tr("A search for “{query}” in your stores now finds {n} memories.").format(
                        query=plan.filter.query, n=self.search_after
                    )
                )
            if v.clean and self.on_server:
                lines.append(self.tr("✓ Nothing left: not in the tables, not in the search index."))
            elif v.clean:
                lines.append(
                    self.tr(
                        "✓ Nothing left: not in the tables, not in the search index, not in the files' bytes."
                    )
                )
            else:
                lines.append(self.tr("✗ Purged text is still somewhere:"))
            for f in v.leaks:
                lines.append(f"  ✗ “{f.text}” — {f.location} ×{f.count}")
            if v.kept:
                lines.append(
                    self.tr(
                        "Still held by records the purge did not cover (widen the filter to remove them):"
                    )
                )
                for f in v.kept:
                    lines.append(f"  • “{f.text}” — {f.location} ×{f.count}")
            for path in v.files_scanned:
                lines.append(f"  {path}")
        if r.backups_removed:
            lines.append(self.tr("Backups removed: {n}").format(n=len(r.backups_removed)))
        lines += [f"! {w}" for w in r.warnings]
        self.verification.setPlainText("\n".join(lines))
        self.verification.setVisible(True)
        self.results.setSizes([1, 2])
