"""Sessions, a session's message log (paged lazily), and its summary chain."""

from __future__ import annotations

import asyncio
from typing import Any

from ekko_memory import MemoryMessage, MemorySummary, SessionSummaryInfo
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.object_table_model import Column, ObjectTableModel
from ekko_memory_gui.models.roles import ID_ROLE, OBJECT_ROLE
from ekko_memory_gui.operations import browse_ops
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import (
    QAbstractListModel,
    QColor,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from ekko_memory_gui.services.theme import current_colors

Index = QModelIndex | QPersistentModelIndex
MESSAGE_PAGE = 200


class SessionListModel(ObjectTableModel[SessionSummaryInfo]):
    """Sessions, most recently active first: each by its first words and its dates."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column(
                    self.tr("Conversation"),
                    session_title,
                    tooltip=lambda s: self.tr("{n} messages").format(n=s.message_count),
                ),
                Column(
                    self.tr("Started"),
                    lambda s: labels.short_time(s.first_at),
                    sort=lambda s: s.first_at.timestamp() if s.first_at else 0.0,
                    tooltip=lambda s: labels.full_time(s.first_at),
                ),
                Column(
                    self.tr("Last active"),
                    lambda s: labels.short_time(s.last_at),
                    sort=lambda s: s.last_at.timestamp() if s.last_at else 0.0,
                    tooltip=lambda s: labels.full_time(s.last_at),
                ),
            ],
            parent,
        )


def session_title(s: SessionSummaryInfo) -> str:
    """A session as a person recognizes it: its first words (its id only when it has none)."""
    return s.first_words or s.session_id


class SummaryListModel(ObjectTableModel[MemorySummary]):
    """A session's summaries, oldest first (each links to the one before)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column(self.tr("Created"), lambda s: labels.full_time(s.created_at)),
                Column(
                    self.tr("Summary"),
                    lambda s: ("⚠ " if s.stale else "") + s.summary,
                    tooltip=lambda s: s.current_goal,
                ),
            ],
            parent,
        )


class MessageListModel(QAbstractListModel):
    """A session's messages in order, fetched a page at a time as the view scrolls."""

    loaded = Signal()

    def __init__(self, runner: OperationRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self._session: str | None = None
        self._messages: list[MemoryMessage] = []
        self._complete = True
        self._loading: asyncio.Task[None] | None = None
        self._generation = 0
        self.highlight_id: str | None = None

    @property
    def session_id(self) -> str | None:
        return self._session

    @property
    def complete(self) -> bool:
        return self._complete

    def message_at(self, row: int) -> MemoryMessage | None:
        return self._messages[row] if 0 <= row < len(self._messages) else None

    def row_of(self, message_id: str) -> int:
        for i, m in enumerate(self._messages):
            if m.id == message_id:
                return i
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._messages)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._messages):
            return None
        m = self._messages[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{labels.author_label(m)} · {labels.full_time(m.created_at)}\n{m.content}"
        if role == ID_ROLE:
            return m.id
        if role == OBJECT_ROLE:
            return m
        if role == Qt.ItemDataRole.BackgroundRole and m.id == self.highlight_id:
            return QColor(current_colors().highlight_match)
        if role == Qt.ItemDataRole.ForegroundRole and m.role != "user":
            return None
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:
        loading = self._loading is not None and not self._loading.done()
        return (
            not parent.isValid()
            and self._session is not None
            and not self._complete
            and not loading
        )

    def fetchMore(self, parent: Index = QModelIndex()) -> None:
        if self.canFetchMore(parent):
            self._start(self._generation)

    def set_session(self, session_id: str | None) -> asyncio.Task[None] | None:
        """Show a session's log from its first message."""
        self._generation += 1
        self.beginResetModel()
        self._session = session_id
        self._messages = []
        self._complete = session_id is None
        self.endResetModel()
        if self._loading is not None and not self._loading.done():
            self._loading.cancel()
        self._loading = None
        return self._start(self._generation) if session_id is not None else None

    def load_more(self) -> asyncio.Task[None] | None:
        """The next page (also used to reach a message far down the log)."""
        if self._loading is not None and not self._loading.done():
            return self._loading
        if self._complete or self._session is None:
            return None
        return self._start(self._generation)

    def _start(self, generation: int) -> asyncio.Task[None] | None:
        if not self.runner.attached or self._session is None:
            return None
        self._loading = self.runner.spawn(
            self._load(generation, self._session, len(self._messages)),
            self.tr("Loading messages"),
        )
        return self._loading

    async def _load(self, generation: int, session_id: str, offset: int) -> None:
        page = await browse_ops.messages(self.runner, session_id, offset, MESSAGE_PAGE)
        if generation != self._generation:
            return
        known = {m.id for m in self._messages}
        fresh = [m for m in page if m.id not in known]
        if fresh:
            first = len(self._messages)
            self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
            self._messages.extend(fresh)
            self.endInsertRows()
        self._complete = len(page) < MESSAGE_PAGE
        self.loaded.emit()

    def refresh_tail(self) -> asyncio.Task[None] | None:
        """New messages may have arrived: read on from the end (when the log is complete)."""
        if self._session is None or not self._complete:
            return None
        self._complete = False
        return self.load_more()
