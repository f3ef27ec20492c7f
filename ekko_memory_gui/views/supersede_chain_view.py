"""A memory's versions as a vertical timeline, newest on top: date, actor, reason, value.

Each entry opens that version (a click, or Enter once Tab reached it); older versions
offer "Revert to this".
"""

from __future__ import annotations

from dataclasses import dataclass

from ekko_memory import AuditEvent, MemoryNode
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.labels import sentences
from ekko_memory_gui.qt import (
    QColor,
    QHBoxLayout,
    QPainter,
    QPen,
    QPushButton,
    QSizePolicy,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.theme import current_colors
from ekko_memory_gui.views.widgets import text_label

# Audit events that bring a version into being, in the order we trust them.
_BIRTH_EVENTS = ("create", "revert", "import", "update", "supersede")


@dataclass(frozen=True)
class VersionEntry:
    """One version with who made it and why."""

    node: MemoryNode
    actor: str
    reason: str
    approved_by_user: bool
    is_head: bool
    is_shown: bool


def version_entries(
    chain: list[MemoryNode], audit: list[AuditEvent], shown_id: str
) -> list[VersionEntry]:
    """The chain newest first, each version with the actor and reason of its creation."""
    by_node: dict[str, list[AuditEvent]] = {}
    for e in audit:
        if e.node_id:
            by_node.setdefault(e.node_id, []).append(e)
    out = []
    for i, node in enumerate(chain):
        events = sorted(by_node.get(node.id, []), key=lambda e: (e.created_at, e.id))
        birth = next((e for e in events if e.event_type in _BIRTH_EVENTS), None)
        approved = any(e.event_type == "approve" for e in events)
        out.append(
            VersionEntry(
                node=node,
                actor=birth.actor if birth else ("user" if approved else "—"),
                reason=labels.event_reason(birth) if birth else "",
                approved_by_user=approved,
                is_head=i == len(chain) - 1,
                is_shown=node.id == shown_id,
            )
        )
    out.reverse()
    return out


class _Rail(QWidget):
    """The dot and line left of an entry."""

    def __init__(self, head: bool, first: bool, last: bool, parent: QWidget | None = None):
        super().__init__(parent)
        self.head, self.first, self.last = head, first, last
        self.setFixedWidth(18)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)

    def paintEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        c = current_colors()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        x = self.width() // 2
        p.setPen(QPen(QColor(c.border), 2))
        top = 14 if self.first else 0
        bottom = 14 if self.last else self.height()
        if bottom > top:
            p.drawLine(x, top, x, bottom)
        p.setPen(QPen(QColor(c.accent), 2))
        p.setBrush(QColor(c.accent) if self.head else QColor(c.base))
        p.drawEllipse(x - 5, 9, 10, 10)
        p.end()


class _Entry(QWidget):
    """One version: opens with a click, or with Enter or Space once Tab reached it."""

    clicked = Signal(str)

    def __init__(self, node_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.node_id = node_id
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def mouseReleaseEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.node_id)
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.clicked.emit(self.node_id)
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().focusOutEvent(event)
        self.update()

    def paintEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().paintEvent(event)
        if self.hasFocus():
            # Where the keyboard is: the row has no frame of its own to light up.
            p = QPainter(self)
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            p.setPen(QPen(QColor(current_colors().accent), 1.5))
            p.drawRoundedRect(self.rect().adjusted(1, 1, -2, -2), 4, 4)
            p.end()


class SupersedeChainView(QWidget):
    """Emits ``version_clicked(id)`` and ``revert_requested(id)``."""

    version_clicked = Signal(str)
    revert_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(0)
        self.entries: list[VersionEntry] = []
        # The Revert buttons of the versions shown, newest first.
        self.revert_buttons: list[QPushButton] = []
        # Each version and its Revert button, newest first (the pane orders Tab by them).
        self.tab_stops: list[QWidget] = []
        self.can_revert = True

    def set_chain(self, chain: list[MemoryNode], audit: list[AuditEvent], shown_id: str) -> None:
        while self._layout.count():
            item = self._layout.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self.entries = version_entries(chain, audit, shown_id)
        self.revert_buttons = []
        self.tab_stops = []
        for i, entry in enumerate(self.entries):
            self._layout.addWidget(self._entry_widget(entry, i == 0, i == len(self.entries) - 1))

    def _entry_widget(self, e: VersionEntry, first: bool, last: bool) -> QWidget:
        row = _Entry(e.node.id, self)
        row.setObjectName("versionEntry")
        row.clicked.connect(self.version_clicked)
        self.tab_stops.append(row)
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        h.setSpacing(8)
        h.addWidget(_Rail(e.is_head, first, last, row))
        body = QVBoxLayout()
        body.setContentsMargins(0, 4, 0, 10)
        body.setSpacing(2)
        when = (
            self.tr("now")
            if e.is_head and e.node.status == "active"
            else labels.short_time(e.node.created_at)
        )
        actor = labels.actor_label(e.actor)
        if e.approved_by_user and e.actor != "user":
            actor = self.tr("{actor}, approved by you").format(actor=actor)
        # Wrapped: on one line it set the pane's minimum width next to the Revert button.
        head_line = text_label(
            f"{when} · {actor} · {labels.status_label(e.node.status)}", role="muted"
        )
        # What the version said, as a sentence (its title and value in the tooltip).
        title = text_label(sentences.node_sentence(e.node))
        title.setToolTip(f"{e.node.title}  —  {labels.value_text(e.node.value_json)}")
        if e.is_shown:
            font = title.font()
            font.setWeight(font.Weight.DemiBold)
            title.setFont(font)
        body.addWidget(head_line)
        body.addWidget(title)
        if e.reason:
            body.addWidget(text_label(f"“{e.reason}”", role="muted"))
        row.setAccessibleName(
            self.tr("Version {when}: {title}, press Enter to view it").format(
                when=when, title=e.node.title
            )
        )
        h.addLayout(body, 1)
        if not e.is_head and self.can_revert:
            revert = QPushButton(self.tr("Revert to this"), row)
            revert.setObjectName("revertButton")
            revert.setToolTip(
                self.tr(
                    "Make this version the current one again (a new version; nothing is rewritten)"
                )
            )
            revert.clicked.connect(lambda _=False, i=e.node.id: self.revert_requested.emit(i))
            h.addWidget(revert, 0, Qt.AlignmentFlag.AlignTop)
            self.revert_buttons.append(revert)
            self.tab_stops.append(revert)
        return row
