"""A progress line for long work: what is happening, a bar, and Cancel."""

from __future__ import annotations

from ekko_memory import CancelToken, Progress
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import QHBoxLayout, QProgressBar, QPushButton, QWidget, Signal
from ekko_memory_gui.views.widgets import text_label


class TaskProgress(QWidget):
    """``start()`` → ``update(progress)``… → ``finish()``; Cancel sets the token."""

    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = text_label("", role="muted", wrap=False)
        self.label.setObjectName("progressStage")
        self.bar = QProgressBar()
        self.bar.setObjectName("progressBar")
        self.bar.setTextVisible(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("cancelTask")
        self.cancel_button.clicked.connect(self._cancel)
        h = QHBoxLayout(self)
        h.setContentsMargins(0, 0, 0, 0)
        h.addWidget(self.label)
        h.addWidget(self.bar, 1)
        h.addWidget(self.cancel_button)
        self.token: CancelToken | None = None
        self.last: Progress | None = None
        self._stopping: str | None = None
        self.setVisible(False)

    def stage_text(self, stage: str) -> str:
        if stage.startswith("compact:"):
            store = labels.store_label(stage.removeprefix("compact:"))
            return self.tr("Compacting the {store} store").format(store=store)
        return {
            "export": self.tr("Writing"),
            "import": self.tr("Importing"),
            "memories": self.tr("Deleting memories"),
            "messages": self.tr("Deleting messages"),
            "compacting": self.tr("Compacting the files"),
            "backups": self.tr("Checking backups"),
            "verifying": self.tr("Searching for what was purged"),
            "done": self.tr("Done"),
            "workspace memories": self.tr("Embedding the workspace store's memories"),
            "user memories": self.tr("Embedding the user store's memories"),
        }.get(stage, stage)

    def start(self, text: str, *, cancellable: bool, stopping: str | None = None) -> CancelToken:
        """Show the line; returns the token Cancel will set (``stopping``: what the line says
        after Cancel, by default that the work stops after the current batch)."""
        self.token = CancelToken()
        self.last = None
        self._stopping = stopping
        self.label.setText(text)
        self.bar.setRange(0, 0)  # busy until the first report says how much there is
        self.bar.setVisible(True)
        self.cancel_button.setEnabled(cancellable)
        self.cancel_button.setVisible(True)
        self.cancel_button.setToolTip(
            ""
            if cancellable
            else self.tr("This step runs in one transaction per store; it cannot stop halfway.")
        )
        self.setVisible(True)
        return self.token

    def update(self, p: Progress) -> None:
        self.last = p
        self.label.setText(self.stage_text(p.stage))
        if p.total:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(p.fraction * 1000))
        else:
            self.bar.setRange(0, 0)

    def finish(self, *, cancelled: bool = False) -> None:
        """The work ended: a full bar, or (``cancelled``) the bar where it stopped."""
        self.bar.setRange(0, 1000)
        if cancelled:
            self.bar.setValue(int(self.last.fraction * 1000) if self.last else 0)
            self.label.setText(self.tr("Cancelled"))
        else:
            # Over: the line says so, and no bar stands at 100% as if still at work.
            self.bar.setValue(1000)
            self.bar.setVisible(False)
            self.label.setText(self.tr("Done"))
        self.cancel_button.setVisible(False)

    def _cancel(self) -> None:
        if self.token is not None:
            self.token.cancel()
            self.cancel_button.setEnabled(False)
            self.label.setText(self._stopping or self.tr("Stopping after this batch…"))
            self.cancelled.emit()
