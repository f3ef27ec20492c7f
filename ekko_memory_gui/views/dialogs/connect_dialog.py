"""File ▸ Connect to PostgreSQL…: a URL, or host / port / database / user / password, and
the namespace of the store's schemas. The dialog connects itself (off the GUI thread) and
closes only on success; a URL the core refuses, a server that cannot be reached or a
wrong password is explained inline, with Retry.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ekko_memory import AsyncMemory, InvalidInput
from ekko_memory_gui.controller import DatabaseTarget, connect
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QProgressBar,
    QSpinBox,
    Qt,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.services.database_url import (
    DEFAULT_PORT,
    DatabaseFields,
    build_url,
    parse_url,
)
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.widgets import text_label

DEFAULT_NAMESPACE = "ekko"


class ConnectDialog(QDialog):
    """Connects on Connect; ``memory`` and ``target`` hold the opened store once accepted."""

    def __init__(
        self,
        *,
        initial: DatabaseTarget | None = None,
        error: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("connectDialog")
        self.setWindowTitle(self.tr("Connect to PostgreSQL"))
        self.setMinimumWidth(540)
        self.memory: AsyncMemory | None = None
        self.target: DatabaseTarget | None = None
        self.task: asyncio.Task[bool] | None = None
        self._abandoned = False

        intro = text_label(
            self.tr(
                "Open a memory store kept in a PostgreSQL database (a team's, or a server "
                "agent's). The workspace store is the schema <namespace>_workspace, your "
                "long-term store <namespace>_user. The password is never saved: leave it "
                "empty to use ~/.pgpass or PGPASSWORD."
            ),
            role="muted",
        )
        self.host_edit = QLineEdit("localhost")
        self.host_edit.setObjectName("connectHost")
        self.port_spin = QSpinBox()
        self.port_spin.setObjectName("connectPort")
        self.port_spin.setRange(1, 65535)
        self.port_spin.setValue(DEFAULT_PORT)
        self.database_edit = QLineEdit()
        self.database_edit.setObjectName("connectDatabase")
        self.database_edit.setPlaceholderText("ekko")
        self.user_edit = QLineEdit()
        self.user_edit.setObjectName("connectUser")
        self.password_edit = QLineEdit()
        self.password_edit.setObjectName("connectPassword")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_edit.setPlaceholderText(self.tr("empty: ~/.pgpass or PGPASSWORD"))
        details = QWidget()
        form = QFormLayout(details)
        form.addRow(self.tr("Host"), self.host_edit)
        form.addRow(self.tr("Port"), self.port_spin)
        form.addRow(self.tr("Database"), self.database_edit)
        form.addRow(self.tr("User"), self.user_edit)
        form.addRow(self.tr("Password"), self.password_edit)

        self.url_edit = QLineEdit()
        self.url_edit.setObjectName("connectUrl")
        self.url_edit.setPlaceholderText("postgresql+psycopg://user@host:5432/database")
        url_page = QWidget()
        url_form = QVBoxLayout(url_page)
        url_form.addWidget(self.url_edit)
        url_form.addWidget(
            text_label(
                self.tr("postgresql://, postgres:// and postgresql+psycopg:// URLs work."),
                role="muted",
            )
        )
        url_form.addStretch(1)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("connectTabs")
        self.tabs.addTab(details, self.tr("Connection details"))
        self.tabs.addTab(url_page, self.tr("URL"))

        self.namespace_edit = QLineEdit(DEFAULT_NAMESPACE)
        self.namespace_edit.setObjectName("connectNamespace")
        self.namespace_edit.setToolTip(
            self.tr("Lower-case letters, digits and _; a team or a test can have its own.")
        )
        ns_form = QFormLayout()
        ns_form.addRow(self.tr("Namespace"), self.namespace_edit)

        self.error_label = text_label("", role="danger")
        self.error_label.setObjectName("connectError")
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setVisible(False)
        self.busy_label = text_label("", role="muted")
        self.busy_label.setObjectName("connectBusy")
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.setMaximumHeight(6)
        for w in (self.busy_label, self.busy):
            w.setVisible(False)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.connect_button = self.buttons.addButton(
            self.tr("Connect"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.connect_button.setObjectName("connectButton")
        self.connect_button.setProperty("role", "primary")
        self.connect_button.setDefault(True)
        self.connect_button.clicked.connect(self.start)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.tabs)
        layout.addLayout(ns_form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.busy_label)
        layout.addWidget(self.busy)
        layout.addWidget(self.buttons)

        if initial is not None:
            self.fill(initial)
        if error:
            self.show_error(error)
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

        # --- fields ---------------------------------------------------------------------

    def fill(self, target: DatabaseTarget) -> None:
        """Show a known store (from the recent list: its URL has no password)."""
        self.namespace_edit.setText(target.namespace)
        fields = parse_url(target.url)
        if fields is None:
            self.url_edit.setText(target.url)
            self.tabs.setCurrentIndex(1)
            return
        self.host_edit.setText(fields.host)
        self.port_spin.setValue(fields.port)
        self.database_edit.setText(fields.database)
        self.user_edit.setText(fields.user)
        self.password_edit.setText(fields.password)
        self.tabs.setCurrentIndex(0)
        self.password_edit.setFocus()

    def using_url(self) -> bool:
        """The URL tab is the one shown."""
        return self.tabs.currentIndex() == 1

    def url(self) -> str:
        """The URL to open: the one typed, or one assembled from the fields."""
        if self.using_url():
            return self.url_edit.text().strip()
        return build_url(
            DatabaseFields(
                host=self.host_edit.text().strip() or "localhost",
                port=self.port_spin.value(),
                database=self.database_edit.text().strip(),
                user=self.user_edit.text().strip(),
                password=self.password_edit.text(),
            )
        )

    def namespace(self) -> str:
        return self.namespace_edit.text().strip() or DEFAULT_NAMESPACE

    def problem(self) -> str | None:
        """What must be filled in before connecting (None when nothing)."""
        if self.using_url():
            return None if self.url_edit.text().strip() else self.tr("Enter a database URL.")
        if not self.database_edit.text().strip():
            return self.tr("Enter the name of the database.")
        return None

    # --- connecting -----------------------------------------------------------------

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    def _set_busy(self, busy: bool, where: str = "") -> None:
        self.busy_label.setText(
            self.tr("Connecting to {server}… (this can take a few seconds)").format(server=where)
        )
        for w in (self.busy_label, self.busy):
            w.setVisible(busy)
        for field in (self.tabs, self.namespace_edit, self.connect_button):
            field.setEnabled(not busy)

    def start(self) -> asyncio.Task[bool] | None:
        """Connect (Connect or Retry); the dialog accepts itself once the store is open."""
        if self.task is not None and not self.task.done():
            return self.task
        problem = self.problem()
        if problem is not None:
            self.show_error(problem)
            return None
        self.task = asyncio.ensure_future(self.connect_now())
        return self.task

    async def connect_now(self) -> bool:
        """Open the store off the GUI thread; True (and accepted) when it can be used."""
        target = DatabaseTarget(self.url(), self.namespace())
        self.show_error("")
        self._set_busy(True, target.display)
        try:
            amem = await connect(target)
        except InvalidInput as e:
            if not self._abandoned:
                self._set_busy(False)
                self.show_error(labels.error_text(e))
            return False
        except BaseException:
            if not self._abandoned:
                self._set_busy(False)
            raise
        if self._abandoned:  # cancelled while connecting: nobody will use it
            await amem.aclose()
            return False
        self._set_busy(False)
        reasons = _disabled_reasons(amem.service.health())
        if reasons:
            await amem.aclose()
            self.show_error(
                self.tr("Could not open the store: {reason}").format(reason="\n".join(reasons))
            )
            self.connect_button.setText(self.tr("Retry"))
            return False
        self.memory, self.target = amem, target
        self.accept()
        return True

    def reject(self) -> None:
        """Cancel; a connection still being made is closed when it arrives."""
        self._abandoned = True
        super().reject()


def _disabled_reasons(health: dict[str, Any]) -> list[str]:
    """The distinct reasons of the disabled stores (both usually say the same), in the UI's
    language."""
    out: list[str] = []
    for h in health.values():
        reason = labels.health_text(h)  # in the UI's language
        if h.status == "disabled" and reason not in out:
            out.append(reason)
    return out
