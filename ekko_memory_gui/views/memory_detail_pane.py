"""Right pane: the story of one memory — every field, its versions, sources, audit, usage."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from ekko_memory import MemoryMessage, MemoryNode, NodeHistory, NotFound
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.audit_model import AuditTableModel
from ekko_memory_gui.models.labels import sentences
from ekko_memory_gui.models.memory_table_model import EXPIRES_SOON
from ekko_memory_gui.operations import browse_ops
from ekko_memory_gui.operations.changes import ChangeSet
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import (
    QAbstractItemView,
    QFormLayout,
    QFrame,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.fonts import mono_font
from ekko_memory_gui.services.icons import icon
from ekko_memory_gui.views.column_fit import fit_columns
from ekko_memory_gui.views.disclosure import Disclosure
from ekko_memory_gui.views.supersede_chain_view import SupersedeChainView
from ekko_memory_gui.views.widgets import (
    FlowLayout,
    ScoreBar,
    WrappedText,
    chain_tabs,
    chip,
    section_title,
    text_label,
)


class MemoryDetailPane(QWidget):
    """Shows ``NodeHistory`` of the selected memory; emits what the user asks to do."""

    version_clicked = Signal(str)
    open_message = Signal(str, str)  # session id, message id
    edit_requested = Signal(str)
    delete_requested = Signal(str, bool)  # id, hard
    restore_requested = Signal(str)
    revert_requested = Signal(str)
    loaded = Signal(str)

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.history: NodeHistory | None = None
        self.replies: list[MemoryMessage] = []
        self.node: MemoryNode | None = None
        self._node_id: str | None = None
        self._generation = 0
        self._loading: asyncio.Task[None] | None = None

        self.empty = text_label(
            self.tr(
                "Select a memory to see its story: every field, its versions, where it came from and where it was used."
            ),
            role="empty",
        )
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        body = QWidget()
        body.setObjectName("detailBody")
        v = QVBoxLayout(body)
        v.setContentsMargins(16, 14, 16, 16)
        v.setSpacing(6)

        self.title = text_label("", role="title")
        self.title.setObjectName("detailTitle")
        self.chips = FlowLayout()
        chips_box = QWidget()
        chips_box.setLayout(self.chips)
        self.expiry = text_label("", role="amber")
        self.expiry.setObjectName("detailExpiry")

        # The buttons wrap: on one row ("Delete permanently…" in English) they were wider
        # than the pane at 1000 px and made it scroll sideways.
        actions = FlowLayout()
        actions_box = QWidget()
        actions_box.setLayout(actions)
        self.edit_button = QPushButton(icon("edit"), self.tr("Edit"))
        self.edit_button.setObjectName("editButton")
        self.delete_button = QPushButton(icon("trash"), self.tr("Delete"))
        self.delete_button.setObjectName("deleteButton")
        self.restore_button = QPushButton(icon("restore"), self.tr("Restore"))
        self.restore_button.setObjectName("restoreButton")
        self.hard_delete_button = QPushButton(icon("delete"), self.tr("Delete permanently…"))
        self.hard_delete_button.setObjectName("hardDeleteButton")
        self.hard_delete_button.setProperty("role", "danger")
        for b in (
            self.edit_button,
            self.delete_button,
            self.restore_button,
            self.hard_delete_button,
        ):
            actions.addWidget(b)
        self.edit_button.clicked.connect(lambda: self._emit_for_node(self.edit_requested))
        self.delete_button.clicked.connect(
            lambda: self.node and self.delete_requested.emit(self.node.id, False)
        )
        self.hard_delete_button.clicked.connect(
            lambda: self.node and self.delete_requested.emit(self.node.id, True)
        )
        self.restore_button.clicked.connect(lambda: self._emit_for_node(self.restore_requested))

        fields = QFormLayout()
        fields.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        fields.setHorizontalSpacing(12)
        fields.setVerticalSpacing(4)
        self.category = text_label()
        self.key = text_label()
        self.key.setObjectName("detailKey")
        self.value = QPlainTextEdit()
        self.value.setObjectName("valueView")
        self.value.setReadOnly(True)
        self.value.setFont(mono_font())
        self.value.setMaximumHeight(120)
        self.content = text_label()
        self.content.setObjectName("detailContent")
        self.confidence = ScoreBar("")
        self.importance = ScoreBar("")
        self.origin = text_label()
        self.dates = text_label()
        # Ids in monospace are long single words: wrapped anywhere, they never set the
        # pane's width (a label made the pane scroll sideways at 1000 px).
        self.ids = WrappedText()
        self.ids.setObjectName("detailIds")
        self.ids.setFont(mono_font())
        # Under the sentence: the memory's own words (when the sentence is not them).
        self.content.setProperty("role", "muted")
        self.title_field = text_label()
        self.title_field.setObjectName("detailTitleField")
        self.scope = text_label()
        self.scope.setObjectName("detailScope")
        fields.addRow(self._field_label(self.tr("Title")), self.title_field)
        fields.addRow(self._field_label(self.tr("Category")), self.category)
        fields.addRow(self._field_label(self.tr("Key")), self.key)
        fields.addRow(self._field_label(self.tr("Value")), self.value)
        fields.addRow(self._field_label(self.tr("Scope")), self.scope)
        fields.addRow(self._field_label(self.tr("Confidence")), self.confidence)
        fields.addRow(self._field_label(self.tr("Importance")), self.importance)
        fields.addRow(self._field_label(self.tr("Origin")), self.origin)
        fields.addRow(self._field_label(self.tr("Dates")), self.dates)
        fields.addRow(self._field_label(self.tr("Ids")), self.ids)

        self.tags = FlowLayout()
        tags_box = QWidget()
        tags_box.setLayout(self.tags)
        self.tags_title = section_title(self.tr("Tags and entities"))

        self.chain = SupersedeChainView()
        self.chain.setObjectName("supersedeChain")
        self.chain.version_clicked.connect(self.version_clicked)
        self.chain.revert_requested.connect(self.revert_requested)

        self.sources = QVBoxLayout()
        self.sources.setSpacing(4)
        sources_box = QWidget()
        sources_box.setLayout(self.sources)

        self.audit_model = AuditTableModel(self)
        self.audit = QTableView()
        self.audit.setObjectName("auditTable")
        self.audit.setModel(self.audit_model)
        self.audit.verticalHeader().setVisible(False)
        self.audit.setShowGrid(False)
        self.audit.setWordWrap(False)
        self.audit.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.audit.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.audit.horizontalHeader().setStretchLastSection(True)
        self.audit.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents
        )
        self.audit.horizontalHeader().setSectionResizeMode(
            1, QHeaderView.ResizeMode.ResizeToContents
        )
        self.audit.horizontalHeader().setSectionResizeMode(
            2, QHeaderView.ResizeMode.ResizeToContents
        )
        self.audit.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.audit.setFrameShape(QFrame.Shape.NoFrame)
        # Tab leaves the table (arrows move in it), as in the memory table.
        self.audit.setTabKeyNavigation(False)
        # Names a screen reader says (the field labels beside them are not their buddies).
        self.value.setAccessibleName(self.tr("Value"))
        self.ids.setAccessibleName(self.tr("Ids"))
        self.audit.setAccessibleName(self.tr("Audit"))

        self.usage = text_label()
        self.usage.setObjectName("detailUsage")
        self.used_in = QVBoxLayout()
        self.used_in.setSpacing(4)
        used_in_box = QWidget()
        used_in_box.setLayout(self.used_in)

        v.addWidget(self.title)
        v.addWidget(chips_box)
        v.addWidget(self.expiry)
        v.addWidget(actions_box)
        v.addWidget(self.content)
        v.addSpacing(4)
        # Key, value, confidence, importance, scope, ids and tags: one click away.
        details_box = QWidget()
        details_box.setObjectName("detailFields")
        details = QVBoxLayout(details_box)
        details.setContentsMargins(0, 0, 0, 0)
        details.addLayout(fields)
        details.addWidget(self.tags_title)
        details.addWidget(tags_box)
        self.details = Disclosure(self.tr("Details"), details_box)
        self.details.setObjectName("detailDisclosure")
        self.details.button.setAccessibleDescription(
            self.tr("Key, value, confidence, importance, scope, tags and ids of this memory")
        )
        v.addWidget(self.details)
        v.addWidget(section_title(self.tr("Versions")))
        v.addWidget(self.chain)
        v.addWidget(section_title(self.tr("Sources")))
        v.addWidget(sources_box)
        v.addWidget(section_title(self.tr("Audit")))
        v.addWidget(self.audit)
        v.addWidget(section_title(self.tr("Used in")))
        v.addWidget(self.usage)
        v.addWidget(used_in_box)
        v.addStretch(1)

        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        scroll.setAccessibleName(self.tr("Memory details"))
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(scroll)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)

    @staticmethod
    def _field_label(text: str) -> QLabel:
        return text_label(text, role="muted", wrap=False, selectable=False)

    def _emit_for_node(self, signal) -> None:  # type: ignore[no-untyped-def]
        if self.node is not None:
            signal.emit(self.node.id)

    # --- loading --------------------------------------------------------------------

    @property
    def node_id(self) -> str | None:
        return self._node_id

    def show_node(self, node_id: str | None, *, refresh: bool = False) -> asyncio.Task[None] | None:
        """Load and show a memory's story (None clears the pane). ``refresh``: the shown
        memory changed; if it is gone for good (another program deleted it), the pane
        empties instead of reporting an error."""
        self._generation += 1
        self._node_id = node_id
        if node_id is None:
            self.history = None
            self.node = None
            self.stack.setCurrentWidget(self.empty)
            return None
        self._loading = self.runner.spawn(
            self._load(self._generation, node_id, refresh), self.tr("Loading a memory")
        )
        return self._loading

    async def _load(self, generation: int, node_id: str, refresh: bool = False) -> None:
        try:
            history, replies = await browse_ops.load_history_with_replies(self.runner, node_id)
        except NotFound:
            if not refresh:
                raise
            if generation == self._generation:
                self.show_node(None)
            return
        if generation != self._generation:
            return
        self.replies = replies
        self._render(history)
        self.loaded.emit(node_id)

    def apply_changes(self, changes: ChangeSet) -> asyncio.Task[None] | None:
        """Reload when the shown memory (or any of its versions) changed, or its usage may have."""
        if self._node_id is None or self.history is None:
            return None
        chain_ids = {n.id for n in self.history.chain}
        if changes.everything or changes.messages or chain_ids & changes.node_ids:
            return self.show_node(self._node_id, refresh=True)
        return None

    # --- rendering ------------------------------------------------------------------

    def _render(self, h: NodeHistory) -> None:
        self.history = h
        node = next((n for n in h.chain if n.id == h.node_id), None)
        if node is None:
            self.stack.setCurrentWidget(self.empty)
            return
        self.node = node
        now = datetime.now(UTC)
        sentence = sentences.node_sentence(node)
        self.title.setText(sentence)
        self.chips.clear()
        status = node.status_at(now)  # the core's rule: an active memory past its expiry is expired
        for text in (
            sentences.category_text(node.category_path),
            labels.type_label(node.type),
            sentences.author_text(node.origin),
            labels.relative_time(node.updated_at, now),
            labels.status_label(status),
        ):
            self.chips.addWidget(chip(text))
        if node.expires_at is None:
            self.expiry.setVisible(False)
        else:
            self.expiry.setVisible(True)
            when = labels.relative_time(node.expires_at, now)
            self.expiry.setProperty(
                "role", "amber" if _expiry_matters(status, node, now) else "muted"
            )
            self.expiry.style().unpolish(self.expiry)
            self.expiry.style().polish(self.expiry)
            if status not in ("active", "expired"):
                # A deleted or replaced memory does not expire: its date is only what it
                # was set to (and what a restore brings back).
                self.expiry.setText(
                    self.tr("Expiry set: {when} ({at})").format(
                        when=when, at=labels.full_time(node.expires_at)
                    )
                )
            elif node.expires_at > now:
                self.expiry.setText(
                    self.tr("Expires {when} ({at})").format(
                        when=when, at=labels.full_time(node.expires_at)
                    )
                )
            else:
                self.expiry.setText(
                    self.tr("Expired {when} ({at})").format(
                        when=when, at=labels.full_time(node.expires_at)
                    )
                )

        editable = node.scope != "global"
        head = h.chain[-1].id == node.id if h.chain else True
        self.edit_button.setVisible(editable and head and node.status in ("active", "expired"))
        self.delete_button.setVisible(editable and head and node.status != "deleted")
        self.restore_button.setVisible(editable and node.status == "deleted" and head)
        self.hard_delete_button.setVisible(editable)

        # Built-in category names in the UI's language (the user's own as they are).
        self.category.setText(
            " / ".join(sentences.category_label(p) for p in node.category_path)
            + f"   ({sentences.category_label(node.domain)})"
        )
        self.title_field.setText(node.title)
        store = labels.store_label(h.store) if h.store else "—"
        self.scope.setText(
            self.tr("{scope} · store: {store}").format(
                scope=labels.scope_label(node.scope), store=store
            )
        )
        self.key.setText(node.key or "—")
        self.value.setPlainText(labels.pretty_json(node.value_json))
        lines = max(1, min(8, self.value.toPlainText().count("\n") + 1))
        self.value.setFixedHeight(22 + lines * self.value.fontMetrics().lineSpacing())
        content = sentences.node_content(node)
        self.content.setText(content)
        self.content.setVisible(bool(content) and content.strip() != sentence)
        self.confidence.set_value(node.confidence)
        self.importance.set_value(node.importance)
        self.origin.setText(labels.origin_label(node.origin))
        self.dates.setText(
            self.tr("created {created} · updated {updated}").format(
                created=labels.full_time(node.created_at), updated=labels.full_time(node.updated_at)
            )
        )
        bound = [node.id] + [
            f"{labels.scope_label(scope)} {value}"
            for scope, value in (
                ("session", node.session_id),
                ("workspace", node.workspace_id),
                ("user", node.user_id),
            )
            if value
        ]
        self.ids.setPlainText("\n".join(bound))

        self.tags.clear()
        for t in node.tags:
            self.tags.addWidget(chip(f"#{t}"))
        for ent in node.entities:
            self.tags.addWidget(chip(ent))
        self.tags_title.setVisible(bool(node.tags or node.entities))

        self.chain.can_revert = editable and node.status != "deleted"
        self.chain.set_chain(h.chain, h.audit, node.id)

        while self.sources.count():
            item = self.sources.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self._source_sessions: dict[str, str] = {}
        if not h.sources:
            self.sources.addWidget(
                text_label(
                    self.tr("No source message (written by hand or imported)."), role="muted"
                )
            )
        for m in h.sources:
            self.sources.addWidget(self._message_link(m))

        usage = h.usage
        if usage is None or usage.count == 0:
            self.usage.setText(self.tr("Not used in a reply yet."))
        else:
            self.usage.setText(
                self.tr("Used in {n} replies, last on {when}.").format(
                    n=usage.count, when=labels.full_time(usage.last_used_at)
                )
            )
        while self.used_in.count():
            item = self.used_in.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        for m in reversed(self.replies[-3:]):
            self.used_in.addWidget(self._message_link(m))

        self.audit_model.set_items(h.audit)
        fit_columns(self.audit, [0, 1, 2])
        rows = self.audit_model.rowCount()
        self.audit.setFixedHeight(
            self.audit.horizontalHeader().height()
            + rows * self.audit.verticalHeader().defaultSectionSize()
            + 4
        )
        self._order_tabs()
        self.stack.setCurrentIndex(1)

    def _order_tabs(self) -> None:
        """Tab in reading order: the Revert buttons and message links, made anew for each
        memory, go after the value and before the audit, in the order they show."""
        made = [
            *self.chain.tab_stops,
            *self._links(self.sources),
            *self._links(self.used_in),
        ]
        chain_tabs(self.details.button, [self.value, self.ids, *made, self.audit])

    @staticmethod
    def _links(layout: QVBoxLayout) -> list[QWidget]:
        items = (layout.itemAt(i) for i in range(layout.count()))
        return [w for w in (item.widget() for item in items if item is not None) if w is not None]

    def _message_link(self, m: MemoryMessage) -> QLabel:
        """A quoted message that opens its session when clicked."""
        link = QLabel()
        link.setObjectName("sourceLink" if m.role == "user" else "replyLink")
        link.setWordWrap(True)
        link.setTextFormat(Qt.TextFormat.RichText)
        # Tab reaches the link and Enter opens it, as a click does.
        link.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
            | Qt.TextInteractionFlag.TextSelectableByMouse
        )
        quoted = _escape(m.content if len(m.content) < 400 else m.content[:400] + "…")
        meta = _escape(f"{labels.author_label(m)} · {labels.full_time(m.created_at)}")
        self._source_sessions[m.id] = m.session_id
        link.setText(
            f'<a href="msg:{m.id}">“{quoted}”</a><br><span style="color:gray">{meta}</span>'
        )
        link.setToolTip(self.tr("Open in the session"))
        link.linkActivated.connect(self._link)
        return link

    def _link(self, href: str) -> None:
        message_id = href.removeprefix("msg:")
        session_id = self._source_sessions.get(message_id)
        if session_id is not None:
            self.open_message.emit(session_id, message_id)


def _expiry_matters(status: str, node: MemoryNode, now: datetime) -> bool:
    """Whether the expiry line is a warning: the memory is expired, or active and expires
    within a day. A superseded or deleted memory does not expire (it is not in use): its
    expiry date is plain information."""
    if status == "expired":
        return True
    return (
        status == "active" and node.expires_at is not None and node.expires_at - now < EXPIRES_SOON
    )


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")
    )
