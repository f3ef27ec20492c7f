"""Sessions: the list of sessions, one session's message log, and its summary chain."""

from __future__ import annotations

import asyncio
import html

from ekko_memory import MemoryMessage, MemorySummary
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.labels import sentences
from ekko_memory_gui.models.roles import ID_ROLE, OBJECT_ROLE
from ekko_memory_gui.models.session_models import (
    MessageListModel,
    SessionListModel,
    SummaryListModel,
)
from ekko_memory_gui.operations import browse_ops
from ekko_memory_gui.operations.changes import ChangeSet
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import (
    QAbstractItemView,
    QColor,
    QFont,
    QFontMetrics,
    QHeaderView,
    QItemSelectionModel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QModelIndex,
    QPainter,
    QPalette,
    QPersistentModelIndex,
    QRect,
    QSize,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    Signal,
)
from ekko_memory_gui.services.theme import current_colors
from ekko_memory_gui.views.widgets import section_title, text_label


class MessageDelegate(QStyledItemDelegate):
    """A message: role and time on a muted line, the text wrapped below."""

    PAD = 8

    def _parts(self, index: QModelIndex | QPersistentModelIndex) -> tuple[str, str, str]:
        m: MemoryMessage | None = index.data(OBJECT_ROLE)
        if m is None:
            return "", "", ""
        head = f"{labels.author_label(m)} · {labels.full_time(m.created_at)}"
        return m.role, head, m.content

    # Around the bubble (4 px each side, 3 above and below), inside it the padding (PAD
    # left and right, PAD / 2 above and below), and 4 px between the head and the text.
    def _inner(self, rect: QRect) -> QRect:
        return rect.adjusted(4 + self.PAD, 3 + self.PAD // 2, -4 - self.PAD, -3 - self.PAD // 2)

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        _, _head, text = self._parts(index)
        # Wrap at the width the row is painted at: the view's, not the option's (which a
        # list view does not always fill in; a guess too wide cut the last line off).
        view = self.parent()
        if isinstance(view, QListView):
            width = view.viewport().width() - 2 * view.spacing()
        else:
            width = option.rect.width() or 480
        inner = self._inner(QRect(0, 0, max(width, 200), 100000))
        fm = QFontMetrics(option.font)
        body = fm.boundingRect(
            QRect(0, 0, inner.width(), 100000), int(Qt.TextFlag.TextWordWrap), text
        )
        extra = 100000 - inner.height()  # the margins above and below
        return QSize(width, extra + fm.height() + 4 + body.height())

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        role, head, text = self._parts(index)
        c = current_colors()
        painter.save()
        r = option.rect.adjusted(4, 3, -4, -3)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        bg = index.data(Qt.ItemDataRole.BackgroundRole)
        if selected:
            fill = option.palette.color(QPalette.ColorRole.Highlight)
        elif isinstance(bg, QColor):
            fill = bg
        else:
            fill = QColor(c.chip if role == "user" else c.alt_base)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        painter.drawRoundedRect(r, 8, 8)
        fm = QFontMetrics(option.font)
        inner = self._inner(option.rect)
        text_color = option.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        small = QFont(option.font)
        painter.setFont(small)
        painter.setPen(QColor(c.muted) if not selected else text_color)
        painter.drawText(inner.x(), inner.y(), inner.width(), fm.height(), 0, head)
        painter.setPen(text_color)
        body = QRect(
            inner.x(), inner.y() + fm.height() + 4, inner.width(), inner.height() - fm.height() - 4
        )
        painter.drawText(body, int(Qt.TextFlag.TextWordWrap), text)
        painter.restore()


class SessionsView(QWidget):
    """Three columns: sessions, the selected session's messages, and beside them the
    memories the selected reply used and the summary chain."""

    open_memory = Signal(str)  # a memory the selected reply used, to show

    def __init__(self, runner: OperationRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.sessions_model = SessionListModel(self)
        self.messages_model = MessageListModel(runner, self)
        self.summaries_model = SummaryListModel(self)

        self.sessions = QTableView()
        self.sessions.setObjectName("sessionsTable")
        self.sessions.setAccessibleName(self.tr("Sessions"))
        self.sessions.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        self.sessions.setModel(self.sessions_model)
        self.sessions.verticalHeader().setVisible(False)
        self.sessions.setShowGrid(False)
        self.sessions.setWordWrap(False)  # first words end in "…", one line each
        self.sessions.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.sessions.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.sessions.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.sessions.horizontalHeader().setSectionResizeMode(
            1, QHeaderView.ResizeMode.ResizeToContents
        )
        self.sessions.horizontalHeader().setSectionResizeMode(
            2, QHeaderView.ResizeMode.ResizeToContents
        )
        self.sessions.selectionModel().currentRowChanged.connect(self._session_changed)

        self.messages = QListView()
        self.messages.setObjectName("messageList")
        self.messages.setAccessibleName(self.tr("Messages"))
        self.messages.setModel(self.messages_model)
        self.messages.setItemDelegate(MessageDelegate(self.messages))
        self.messages.setWordWrap(True)
        self.messages.setUniformItemSizes(False)
        self.messages.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.messages.setResizeMode(QListView.ResizeMode.Adjust)
        self.messages.setSpacing(2)

        self.messages.selectionModel().currentChanged.connect(self._message_changed)

        # The memories the selected reply was written with (the context it was given).
        self.used = QListWidget()
        self.used.setObjectName("usedMemories")
        self.used.setAccessibleName(self.tr("Memories this reply used"))
        self.used.setAccessibleDescription(
            self.tr("Select one of the agent's replies; Enter opens a memory")
        )
        self.used.setWordWrap(True)
        self.used.setMaximumHeight(180)
        self.used.itemActivated.connect(self._used_activated)
        self.used_note = text_label(
            self.tr("Select one of the agent's replies to see the memories it used."),
            role="muted",
        )
        self.used_note.setObjectName("usedNote")
        self._used_task: asyncio.Task[None] | None = None
        self._used_generation = 0

        self.summaries = QTextBrowser()
        self.summaries.setObjectName("summaryChain")
        self.summaries.setAccessibleName(self.tr("Summary chain"))
        self.summaries.setOpenLinks(False)

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(8, 8, 0, 0)
        lv.addWidget(section_title(self.tr("Sessions")))
        lv.addWidget(self.sessions)
        middle = QWidget()
        mv = QVBoxLayout(middle)
        mv.setContentsMargins(8, 8, 8, 0)
        mv.addWidget(section_title(self.tr("Messages")))
        mv.addWidget(self.messages)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 8, 8, 0)
        rv.addWidget(section_title(self.tr("Memories this reply used")))
        rv.addWidget(self.used_note)
        rv.addWidget(self.used)
        rv.addWidget(section_title(self.tr("Summary chain")))
        rv.addWidget(self.summaries)

        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(left)
        splitter.addWidget(middle)
        splitter.addWidget(right)
        splitter.setSizes([260, 560, 380])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self._loading: asyncio.Task[None] | None = None
        self._summaries_task: asyncio.Task[None] | None = None

    # --- loading --------------------------------------------------------------------

    def reload(self) -> asyncio.Task[None] | None:
        """Load the session list (keeping the selected session)."""
        if not self.runner.attached:
            return None
        self._loading = self.runner.spawn(self._reload(), self.tr("Loading sessions"))
        return self._loading

    async def _reload(self) -> None:
        items = await browse_ops.sessions(self.runner)
        self.sessions_model.set_items(items)
        if not self.sessions.currentIndex().isValid() and items:
            self.select_session(items[0].session_id)

    def select_session(self, session_id: str) -> bool:
        row = self.sessions_model.row_of(session_id)
        if row < 0:
            return False
        self.sessions.selectionModel().setCurrentIndex(
            self.sessions_model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        return True

    @property
    def session_id(self) -> str | None:
        return self.messages_model.session_id

    def _session_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        item = self.sessions_model.item_at(current.row()) if current.isValid() else None
        sid = item.session_id if item is not None else None
        if sid == self.messages_model.session_id:
            return
        self.messages_model.set_session(sid)
        self._load_summaries(sid)

    def _load_summaries(self, session_id: str | None) -> None:
        if session_id is None:
            self.summaries_model.clear()
            self._render_summaries([])
            return

        async def load() -> None:
            items = await browse_ops.summaries(self.runner, session_id)
            if self.messages_model.session_id == session_id:
                self.summaries_model.set_items(items)
                self._render_summaries(items)

        self._summaries_task = self.runner.spawn(load(), self.tr("Loading summaries"))

    def _render_summaries(self, items: list[MemorySummary]) -> None:
        if not items:
            self.summaries.setHtml(
                f"<p style='color:gray'>{html.escape(self.tr('No summary yet. The agent writes one every few turns.'))}</p>"
            )
            return
        parts = []
        for i, s in enumerate(reversed(items)):
            n = len(items) - i
            stale = (
                f" <b style='color:#B7791F'>{html.escape(self.tr('stale'))}</b>" if s.stale else ""
            )
            lists = []
            for label, values in (
                (self.tr("Goal"), [s.current_goal] if s.current_goal else []),
                (self.tr("Constraints"), s.constraints),
                (self.tr("Preferences"), s.preferences),
                (self.tr("Decisions"), s.decisions),
                (self.tr("Done"), s.completed_work),
                (self.tr("Open"), s.pending_work),
                (self.tr("Known issues"), s.known_issues),
            ):
                if values:
                    lists.append(f"<b>{html.escape(label)}:</b> {html.escape('；'.join(values))}")
            parts.append(
                f"<p><span style='color:gray'>#{n} · {html.escape(labels.full_time(s.created_at))}</span>{stale}<br>"
                f"{html.escape(s.summary)}<br><small>{'<br>'.join(lists)}</small></p>"
            )
        self.summaries.setHtml("<hr>".join(parts))

    # --- the memories a reply used -------------------------------------------------

    def _message_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        m: MemoryMessage | None = current.data(OBJECT_ROLE) if current.isValid() else None
        self.show_used(m)

    def show_used(self, m: MemoryMessage | None) -> asyncio.Task[None] | None:
        """List the memories a reply used (nothing for the user's own messages)."""
        self._used_generation += 1
        self.used.clear()
        if m is None or m.role != "assistant" or not self.runner.attached:
            self.used_note.setText(
                self.tr("Select one of the agent's replies to see the memories it used.")
            )
            self.used.setVisible(False)
            return None
        self.used_note.setText(self.tr("Loading…"))
        generation = self._used_generation

        async def load() -> None:
            nodes = await browse_ops.used_in_reply(self.runner, m.id)
            if generation != self._used_generation:
                return
            self.used.clear()
            for node in nodes:
                item = QListWidgetItem(sentences.node_sentence(node))
                item.setData(ID_ROLE, node.id)
                item.setToolTip(sentences.category_text(node.category_path))
                self.used.addItem(item)
            self.used.setVisible(bool(nodes))
            self.used_note.setText(
                self.tr("This reply used {n} memories (Enter opens one):").format(n=len(nodes))
                if len(nodes) > 1
                else self.tr("This reply used 1 memory (Enter opens it):")
                if nodes
                else self.tr("This reply used no memory.")
            )

        self._used_task = self.runner.spawn(load(), self.tr("Loading the memories a reply used"))
        return self._used_task

    def used_sentences(self) -> list[str]:
        return [self.used.item(i).text() for i in range(self.used.count())]

    def _used_activated(self, item: QListWidgetItem) -> None:
        node_id = item.data(ID_ROLE)
        if node_id:
            self.open_memory.emit(str(node_id))

    # --- open a message -------------------------------------------------------------

    async def open_message(self, session_id: str, message_id: str) -> bool:
        """Show a session and scroll to one of its messages (loading pages until it appears)."""
        if self.sessions_model.row_of(session_id) < 0:
            await self._reload()
        if self.messages_model.session_id != session_id and not self.select_session(session_id):
            self.messages_model.set_session(session_id)
            self._load_summaries(session_id)
        while True:
            task = self.messages_model._loading
            if task is not None and not task.done():
                await asyncio.shield(task)
                continue
            row = self.messages_model.row_of(message_id)
            if row >= 0:
                break
            more = self.messages_model.load_more()
            if more is None:
                return False
            await asyncio.shield(more)
        self.messages_model.highlight_id = message_id
        index = self.messages_model.index(row, 0)
        self.messages.setCurrentIndex(index)
        self.messages.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    # --- live -----------------------------------------------------------------------

    def apply_changes(self, changes: ChangeSet) -> None:
        if not (changes.messages or changes.everything):
            return
        self.reload()
        self.messages_model.refresh_tail()
        if self.messages_model.session_id is not None:
            self._load_summaries(self.messages_model.session_id)
