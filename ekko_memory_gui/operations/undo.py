"""Undo for the edits made in the app during this session.

Nothing is rewritten: undoing an edit or a revert makes the previous value the new head
(a revert), undoing a create or a restore moves the memory to the trash, undoing a soft
delete restores it. Hard deletes and inbox decisions cannot be undone (the dialogs say
so).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ekko_memory_gui.qt import QObject, Signal

MAX_UNDO = 50


@dataclass(frozen=True)
class UndoEntry:
    """One undoable step: what it was, and how to take it back."""

    label: str
    undo: Callable[[], Awaitable[object]]
    # The memory to show after undoing (None keeps the selection).
    select_after: str | None = None


class UndoStack(QObject):
    """Last in, first out; ``changed`` carries the label of the next undo (or "")."""

    changed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries: list[UndoEntry] = []

    def push(self, entry: UndoEntry) -> None:
        self._entries.append(entry)
        del self._entries[:-MAX_UNDO]
        self.changed.emit(entry.label)

    def peek(self) -> UndoEntry | None:
        return self._entries[-1] if self._entries else None

    def pop(self) -> UndoEntry | None:
        entry = self._entries.pop() if self._entries else None
        nxt = self.peek()
        self.changed.emit(nxt.label if nxt else "")
        return entry

    def clear(self) -> None:
        self._entries.clear()
        self.changed.emit("")

    def __len__(self) -> int:
        return len(self._entries)
