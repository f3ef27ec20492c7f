"""The status line: store health in words with a coloured dot, counts, a busy bar, errors.

A disabled, read-only or degraded store is explained here (never a crash), with a
button that opens the folder holding the file when that is the fix, and Retry for a
disabled store (another program held the file, the server was down, the password
wrong). On PostgreSQL the line shows the server and namespace instead of file paths.
Long explanations and errors end in "…" rather than widen the window; the tooltip holds
the whole text.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import (
    QDesktopServices,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QStatusBar,
    QTimer,
    QUrl,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.theme import current_colors
from ekko_memory_gui.views.widgets import ElidedLabel

BUSY_DELAY_MS = 200


def _short(path: str) -> str:
    home = str(Path.home())
    return "~" + path[len(home) :] if path.startswith(home) else path


class StoreStatusBar(QStatusBar):
    """Health, counts, busy indicator and the last error."""

    retry_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizeGripEnabled(False)
        box = QWidget()
        h = QHBoxLayout(box)
        h.setContentsMargins(8, 0, 8, 0)
        h.setSpacing(8)
        self.dot = QLabel("●")
        self.dot.setObjectName("statusDot")
        self.text = ElidedLabel()
        self.text.setObjectName("statusText")
        self.fix_button = QPushButton(self.tr("Open folder"))
        self.fix_button.setObjectName("statusFix")
        self.fix_button.setVisible(False)
        self.fix_button.clicked.connect(self._open_folder)
        self.retry_button = QPushButton(self.tr("Retry"))
        self.retry_button.setObjectName("statusRetry")
        self.retry_button.setToolTip(
            self.tr("Open the store again (after closing the program that held it)")
        )
        self.retry_button.setVisible(False)
        self.retry_button.clicked.connect(self.retry_requested)
        # What just happened and the last error leave the store's state most of the line.
        self.note = ElidedLabel(role="muted", widest=360)
        self.note.setObjectName("statusNote")
        self.error = ElidedLabel(role="danger", widest=420)
        self.error.setObjectName("statusError")
        self.busy = QProgressBar()
        self.busy.setObjectName("busyBar")
        self.busy.setRange(0, 0)
        self.busy.setFixedWidth(90)
        self.busy.setTextVisible(False)
        self.busy.setVisible(False)
        # "Memory paused" in words while agents may neither read nor write memory.
        self.paused_label = QLabel(self.tr("Memory paused"))
        self.paused_label.setObjectName("statusPaused")
        self.paused_label.setProperty("role", "amber")
        self.paused_label.setToolTip(
            self.tr("The agent neither reads nor writes memory until you resume it")
        )
        self.paused_label.setVisible(False)
        h.addWidget(self.dot)
        h.addWidget(self.paused_label)
        h.addWidget(self.text, 1)
        h.addWidget(self.fix_button)
        h.addWidget(self.retry_button)
        h.addWidget(self.note)
        h.addWidget(self.error)
        h.addWidget(self.busy)
        self.addWidget(box, 1)
        self._busy_timer = QTimer(self)
        self._busy_timer.setSingleShot(True)
        self._busy_timer.setInterval(BUSY_DELAY_MS)
        self._busy_timer.timeout.connect(lambda: self.busy.setVisible(True))
        self._error_timer = QTimer(self)
        self._error_timer.setSingleShot(True)
        self._error_timer.setInterval(12000)
        self._error_timer.timeout.connect(lambda: self.error.setText(""))
        self._note_timer = QTimer(self)
        self._note_timer.setSingleShot(True)
        self._note_timer.setInterval(6000)
        self._note_timer.timeout.connect(lambda: self.note.setText(""))
        self._folder: str | None = None
        self._server = False
        self.level = "ok"
        self._health: tuple[Any, ...] | None = None
        self.outage: str | None = None

    def set_opening(self, where: Path | str) -> None:
        """“Opening …” while a workspace folder or a database is being opened."""
        self.outage = None
        self._set_dot("muted")
        self.fix_button.setVisible(False)
        self.retry_button.setVisible(False)
        self.text.setText(self.tr("Opening {folder}…").format(folder=_short(str(where))))

    def set_health(
        self,
        health: dict[str, Any],
        active: int | None,
        config_warning: str | None = None,
        server: str | None = None,
    ) -> None:
        """Show each store's status in words; explain anything that is not ok.

        ``server`` (``user@host/db · namespace``) means a PostgreSQL store: the line names
        the server instead of file paths, and a disabled store offers Retry.
        """
        self._health = (health, active, config_warning, server)
        worst = "ok"
        parts: list[str] = []
        problems = []
        places = []
        said = []  # the core's own words, where the line says them in another language
        self._folder = None
        self._server = server is not None
        for name, h in health.items():
            label = self.tr("workspace") if name == "workspace" else self.tr("user")
            places.append(f"{label}: {h.location}")
            if h.status != "ok":
                worst = "disabled" if h.status == "disabled" or worst == "disabled" else "degraded"
                problems.append(self._explain(label, h))
                if h.reason and labels.health_text(h) != h.reason:
                    said.append(h.reason)
                if server is None:
                    self._folder = str(Path(h.location).parent)
        if self.outage is not None and worst == "ok":
            # The store opened fine but stopped answering: not "ok" until it answers again.
            worst = "degraded"
            problems.append(
                self.tr("store unavailable: {reason}. Press F5 to try again.").format(
                    reason=self.outage
                )
            )
        # How things are, in words; where (file paths, the server) is in the tooltip.
        if worst != "ok":
            head = " · ".join(problems)
        elif server is not None:
            head = self.tr("Saved in the PostgreSQL database {server}").format(server=server)
        else:
            head = self.tr("Saved on this computer")
        if active is not None:
            parts.append(
                self.tr("1 memory") if active == 1 else self.tr("{n} memories").format(n=active)
            )
        if config_warning:
            parts.append(config_warning)
        self.text.setText(" · ".join([head, *parts]))
        self.text.setToolTip("\n".join(problems + places + said))
        self.level = worst
        self._set_dot({"ok": "success", "degraded": "amber", "disabled": "danger"}[worst])
        self.fix_button.setVisible(worst != "ok" and self._folder is not None)
        self.retry_button.setVisible(worst == "disabled")

    def set_outage(self, reason: str | None) -> None:
        """A store stopped answering (``reason``), or answers again (None)."""
        if reason == self.outage:
            return
        self.outage = reason
        if self._health is not None:
            self.set_health(*self._health)

    def _explain(self, label: str, h: Any) -> str:
        reason = labels.health_text(h)
        if h.status == "disabled" and self._server:
            return self.tr(
                "{store} store disabled: {reason}. Check the server, the URL and the password, then Retry."
            ).format(store=label, reason=reason)
        if h.status == "disabled":
            return self.tr(
                "{store} store disabled: {reason}. Memories there cannot be read; check the file and reopen the workspace."
            ).format(store=label, reason=reason)
        if h.status == "readonly":
            return self.tr(
                "{store} store is read-only: {reason}. You can browse; changes are not possible."
            ).format(store=label, reason=reason)
        return self.tr("{store} store degraded: {reason}").format(store=label, reason=reason)

    def _set_dot(self, kind: str) -> None:
        c = current_colors()
        color = {"success": c.success, "amber": c.amber, "danger": c.danger, "muted": c.muted}[kind]
        self.dot.setStyleSheet(f"color: {color}; font-size: 14px;")

    def set_paused(self, paused: bool) -> None:
        """Say "Memory paused" (or nothing) beside the store's state."""
        self.paused_label.setVisible(paused)

    def set_busy(self, busy: bool) -> None:
        """Busy for over 200 ms shows a thin bar."""
        if busy:
            if not self.busy.isVisible() and not self._busy_timer.isActive():
                self._busy_timer.start()
        else:
            self._busy_timer.stop()
            self.busy.setVisible(False)

    def show_note(self, text: str) -> None:
        """A short message about what just happened (fades after a few seconds)."""
        self.note.setText(text)
        self.note.setToolTip(text)
        self._note_timer.start()

    def show_error(self, what: str, text: str) -> None:
        self.error.setText(f"{what}: {' '.join(text.split())}")
        self.error.setToolTip(text)
        self._error_timer.start()

    def _open_folder(self) -> None:
        if self._folder and os.path.isdir(self._folder):
            QDesktopServices.openUrl(QUrl.fromLocalFile(self._folder))
