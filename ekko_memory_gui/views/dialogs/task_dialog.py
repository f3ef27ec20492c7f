"""The frame of the dialogs that run one long operation (export, import, purge, compact):
the task on the memory worker, its progress with Cancel, and closing while it runs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from ekko_memory import CancelToken
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.qt import QDialog, QDialogButtonBox, QPushButton, QWidget
from ekko_memory_gui.views.task_progress import TaskProgress


class TaskDialog(QDialog):
    """A dialog whose operation runs off the GUI thread; ``report`` holds its result.

    Closing it while the operation runs (Close, Esc or the window's close box) cancels the
    operation at its next safe point, as the operation's Cancel does. The dialog is
    accepted once an operation has produced a report, rejected otherwise.
    """

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.report: Any = None
        self.task: asyncio.Task[Any] | None = None
        self.progress = TaskProgress()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self._close)

    def add_action(
        self, text: str, name: str, run: Callable[[], Any], role: str = ""
    ) -> QPushButton:
        """A button beside Close that starts ``run``; ``role`` styles it (primary, danger)."""
        button = self.buttons.addButton(text, QDialogButtonBox.ButtonRole.ActionRole)
        button.setObjectName(name)
        if role:
            button.setProperty("role", role)
        button.clicked.connect(run)
        return button

    def spawn(
        self,
        run: Callable[[CancelToken], Coroutine[Any, Any, Any]],
        *,
        busy: str,
        label: str,
        stopping: str | None = None,
    ) -> asyncio.Task[Any]:
        """Start the operation, unless one is already running (then return that one).

        The cancel token exists before the work starts, so Cancel works from the first
        moment.
        """
        if self.task is not None and not self.task.done():
            return self.task
        token = self.progress.start(busy, cancellable=True, stopping=stopping)
        self.task = self.controller.runner.spawn(run(token), label)
        return self.task

    def cancel_running(self) -> None:
        """Ask the running operation, if any, to stop at its next safe point."""
        if self.task is not None and not self.task.done() and self.progress.token is not None:
            self.progress.token.cancel()

    def reject(self) -> None:
        self.cancel_running()
        super().reject()

    def _close(self) -> None:
        self.cancel_running()
        if self.report is not None:
            self.accept()
        else:
            self.reject()
