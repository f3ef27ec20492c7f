"""One inbox item as a card: what is proposed beside what it would replace (changed fields
highlighted), why it waits, the user's words behind it, and the decisions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ekko_memory import MemoryNode
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.pending_model import category_shown
from ekko_memory_gui.operations.pending_ops import InboxEntry
from ekko_memory_gui.qt import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.icons import icon
from ekko_memory_gui.views.widgets import SELECTABLE, text_label

# Fields of the diff: (label, camelCase name of the proposal). How sure the agent is and
# where the proposal came from are what the user weighs before approving (UI.md's card:
# "(confidence 0.6, inferred)").
DIFF_FIELDS = (
    ("key", "key"),
    ("value", "valueJson"),
    ("scope", "scope"),
    ("status", "status"),
    ("confidence", "confidence"),
    ("origin", "origin"),
)


def _current_value(node: MemoryNode | None, field: str) -> Any:
    if node is None:
        return None
    return {
        "key": node.key,
        "valueJson": node.value_json,
        "scope": node.scope,
        "status": node.status,
        "title": node.title,
        "confidence": node.confidence,
        "origin": node.origin,
    }[field]


def _show(field: str, value: Any) -> str:
    if value is None:
        return "—"
    if field == "scope":
        return labels.scope_label(value)
    if field == "status":
        return labels.status_label(value)
    if field == "valueJson":
        return labels.value_text(value)
    if field == "confidence":
        return f"{float(value):.2f}"
    if field == "origin":
        return labels.origin_label(value)
    return str(value)


def diff_rows(entry: InboxEntry) -> list[tuple[str, str, str, bool]]:
    """(field, current, proposed, changed) for the card's diff table."""
    proposed = entry.item.node or {}
    rows = []
    for name, field in (("title", "title"), *DIFF_FIELDS):
        before = _current_value(entry.current, field)
        after = proposed.get(field)
        rows.append((name, _show(field, before), _show(field, after), before != after))
    return rows


class PendingCard(QFrame):
    """Emits the user's decision with the pending id."""

    approve = Signal(str)
    reject = Signal(str)
    edit_and_approve = Signal(str)
    selection_changed = Signal()

    def __init__(self, entry: InboxEntry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entry = entry
        item = entry.item
        self.pending_id = item.id
        self.setObjectName("card")
        self.setProperty("pendingId", item.id)
        v = QVBoxLayout(self)
        v.setContentsMargins(14, 10, 14, 10)
        v.setSpacing(6)

        top = QHBoxLayout()
        self.check = QCheckBox()
        self.check.setObjectName("cardCheck")
        # A box without text: its name says which item it selects.
        name = (item.node or {}).get("title") or "、".join(t.title for t in entry.targets)
        self.check.setAccessibleName(self.tr("Select “{title}”").format(title=name))
        self.check.toggled.connect(self._toggled)
        head = QLabel(
            f"<b>{_esc(labels.kind_label(item.kind))}</b> · {_esc(labels.rule_label(item.rule))}"
        )
        head.setObjectName("cardHead")
        head.setTextFormat(Qt.TextFormat.RichText)
        head.setTextInteractionFlags(SELECTABLE)
        when = text_label(
            labels.relative_time(item.created_at, datetime.now(UTC)), role="muted", wrap=False
        )
        top.addWidget(self.check)
        top.addWidget(head, 1)
        top.addWidget(when)
        v.addLayout(top)

        node = item.node or {}
        where = " · ".join(
            x
            for x in (
                category_shown(item),
                labels.type_label(node["type"]) if node.get("type") else "",
                node.get("key") or "",
            )
            if x
        )
        if where:
            where_label = text_label(where, role="muted")
            where_label.setObjectName("cardWhere")
            v.addWidget(where_label)

        if item.node:
            v.addWidget(self._diff(entry))
        if item.kind in ("hard_delete", "forget_many") or item.operation in ("delete", "expire"):
            verb = (
                self.tr("Would delete permanently:")
                if item.kind == "hard_delete"
                else (
                    self.tr("Would expire:")
                    if item.operation == "expire"
                    else self.tr("Would delete:")
                )
            )
            v.addWidget(text_label(verb))
            for t in entry.targets:
                v.addWidget(
                    text_label(
                        f"  • {t.title} — {labels.value_text(t.value_json)} ({labels.scope_label(t.scope)}, {labels.status_label(t.status)})"
                    )
                )
            if not entry.targets:
                v.addWidget(text_label(self.tr("  (the memories are already gone)"), role="muted"))

        why = text_label(
            self.tr("Why it waits: {reason}. Requested by {who}.").format(
                reason=labels.why_text(item.rule, item.reason, item.reason_params),
                who=labels.actor_label(item.requester),
            ),
            role="muted",
        )
        why.setToolTip(item.reason)  # the core's own words, as recorded
        why.setObjectName("cardWhy")
        v.addWidget(why)
        for m in entry.sources[:2]:
            quote = m.content if len(m.content) < 240 else m.content[:240] + "…"
            # Words the agent passed as the user's are its report, not the user's own
            # logged message: the card says so (they never count as the user's request).
            said = (
                self.tr("The agent reports the user said: “{text}”")
                if m.reported_by_agent
                else self.tr("Source: “{text}”")
            )
            src = text_label(said.format(text=quote))
            src.setObjectName("cardSource")
            src.setProperty("reported", m.reported_by_agent)
            v.addWidget(src)

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.reject_button = QPushButton(icon("reject"), self.tr("Reject"))
        self.reject_button.setObjectName("rejectButton")
        self.edit_button = QPushButton(icon("edit"), self.tr("Edit and approve"))
        self.edit_button.setObjectName("editApproveButton")
        self.approve_button = QPushButton(icon("approve", "#FFFFFF"), self.tr("Approve"))
        self.approve_button.setObjectName("approveButton")
        self.approve_button.setProperty("role", "primary")
        buttons.addWidget(self.reject_button)
        if item.node:
            buttons.addWidget(self.edit_button)
        else:
            self.edit_button.setVisible(False)
        buttons.addWidget(self.approve_button)
        v.addLayout(buttons)
        self.reject_button.clicked.connect(lambda: self.reject.emit(self.pending_id))
        self.edit_button.clicked.connect(lambda: self.edit_and_approve.emit(self.pending_id))
        self.approve_button.clicked.connect(lambda: self.approve.emit(self.pending_id))

    def _diff(self, entry: InboxEntry) -> QWidget:
        box = QWidget()
        grid = QGridLayout(box)
        grid.setContentsMargins(0, 2, 0, 2)
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(2)
        new = entry.current is None
        grid.addWidget(text_label("", wrap=False), 0, 0)
        if new:
            # Nothing to compare with: one column, and say so.
            grid.addWidget(
                text_label(
                    self.tr("proposed (a new memory; nothing is replaced)"),
                    role="muted",
                    wrap=False,
                ),
                0,
                1,
            )
        else:
            grid.addWidget(text_label(self.tr("current"), role="muted", wrap=False), 0, 1)
            grid.addWidget(text_label(self.tr("proposed"), role="muted", wrap=False), 0, 2)
        for row, (name, before, after, changed) in enumerate(diff_rows(entry), start=1):
            label = {
                "title": self.tr("title"),
                "key": self.tr("key"),
                "value": self.tr("value"),
                "scope": self.tr("scope"),
                "status": self.tr("status"),
                "confidence": self.tr("confidence"),
                "origin": self.tr("origin"),
            }[name]
            grid.addWidget(text_label(label, role="muted", wrap=False), row, 0)
            proposed = text_label(after)
            proposed.setObjectName(f"proposed_{name}")
            if new:
                grid.addWidget(proposed, row, 1)
                continue
            current = text_label(before)
            current.setObjectName(f"current_{name}")
            grid.addWidget(current, row, 1)
            if changed:
                proposed.setProperty("role", "chip")
                proposed.setProperty("changed", True)
            grid.addWidget(proposed, row, 2)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(2, 1)
        return box

    def tab_widgets(self) -> list[QWidget]:
        """The card's controls in reading order (its box, then its decisions)."""
        buttons = [self.reject_button, self.edit_button, self.approve_button]
        return [self.check, *(b for b in buttons if not b.isHidden())]

    @property
    def selected(self) -> bool:
        return self.check.isChecked()

    def _toggled(self, on: bool) -> None:
        self.setProperty("selected", "true" if on else "false")
        self.style().unpolish(self)
        self.style().polish(self)
        self.selection_changed.emit()


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
