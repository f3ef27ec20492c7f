"""Forgetting made simple and what the agent may do (issue 27), in the main window:
"Forget everything about…" (a word, or the selected memories), "Delete all my memories",
Pause / Resume memory (the status line says "Memory paused") and the duplicates view.

Each runs the core's own call off the GUI thread (``runner.call``): ``preview_forget_about``
/ ``preview_delete_all`` then ``forget_previewed``; ``pause`` / ``resume`` /
``pause_state``; ``duplicates`` with ``actions.merge_duplicates`` / ``unmerge`` /
``dismiss_duplicates``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ekko_memory import EkkoMemoryError, ForgetPreview, ForgetResult, PauseState
from ekko_memory_gui.qt import QAction, QKeySequence, QObject
from ekko_memory_gui.services.icons import icon
from ekko_memory_gui.views.dialogs.forget_dialog import ForgetDialog, counts_text

if TYPE_CHECKING:
    from ekko_memory_gui.views.main_window import MainWindow


class MemoryControls(QObject):
    """The menu entries and flows above, for ``window``."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.runner = window.runner
        self.paused = False
        self.last_result: ForgetResult | None = None

        self.forget_action = QAction(icon("delete"), self.tr("Forget everything about…"), window)
        self.forget_action.setObjectName("forgetAboutAction")
        self.forget_action.setShortcut(QKeySequence("Ctrl+Shift+F"))
        self.forget_action.setToolTip(
            self.tr(
                "Forgets a word or the selected memories everywhere: memories, their "
                "versions, and the conversation text and summaries that mention it"
            )
        )
        self.forget_action.triggered.connect(lambda: self.forget_about())
        self.delete_all_action = QAction(icon("purge"), self.tr("Delete all my memories…"), window)
        self.delete_all_action.setObjectName("deleteAllAction")
        self.delete_all_action.triggered.connect(lambda: self.delete_all())
        self.pause_action = QAction(icon("pause"), self.tr("Pause memory"), window)
        self.pause_action.setObjectName("pauseAction")
        self.pause_action.setCheckable(True)
        self.pause_action.setShortcut(QKeySequence("Ctrl+Shift+P"))
        self.pause_action.setToolTip(
            self.tr("While paused, the agent neither reads nor writes memory")
        )
        self.pause_action.triggered.connect(lambda on: self.set_paused(bool(on)))
        self.duplicates_action = QAction(self.tr("Duplicates…"), window)
        self.duplicates_action.setObjectName("duplicatesAction")
        self.duplicates_action.triggered.connect(lambda: self.show_duplicates())

        menu = window.edit_menu
        menu.addSeparator()
        menu.addAction(self.forget_action)
        menu.addAction(self.delete_all_action)
        menu.addSeparator()
        menu.addAction(self.duplicates_action)
        menu.addAction(self.pause_action)
        window.toolbar.addAction(self.pause_action)
        self.controller.workspace_opened.connect(lambda _ws: self.read_pause_state())
        # Paused or resumed elsewhere (the command line, another app): the change watcher
        # sees the stores change, and the status line follows.
        self.controller.changed.connect(lambda _changes: self.read_pause_state())

    def _spawn(self, coro: Any, what: str) -> asyncio.Task[Any]:
        return self.window._spawn(coro, what)

    # --- pause ----------------------------------------------------------------------

    def read_pause_state(self) -> asyncio.Task[Any] | None:
        """Show whether memory is paused (another process may have paused it)."""
        if not self.runner.attached:
            return None
        return self._spawn(self._read_pause(), self.tr("Reading whether memory is paused"))

    async def _read_pause(self) -> PauseState:
        state: PauseState = await self.runner.call(self.runner.memory.pause_state)
        self._show_pause(state)
        return state

    def set_paused(self, paused: bool) -> asyncio.Task[Any] | None:
        """Pause (or resume) memory for every agent."""
        if not self.runner.attached:
            self.pause_action.setChecked(False)
            return None
        return self._spawn(self.set_paused_now(paused), self.tr("Pausing memory"))

    async def set_paused_now(self, paused: bool) -> PauseState:
        mem = self.runner.memory
        state: PauseState = await self.runner.call(mem.pause if paused else mem.resume)
        self._show_pause(state)
        self.window.status.show_note(
            self.tr("Memory paused: the agent neither reads nor writes it.")
            if state.paused
            else self.tr("Memory resumed: the agent reads and writes it again.")
        )
        return state

    def _show_pause(self, state: PauseState) -> None:
        self.paused = state.paused
        self.pause_action.setChecked(state.paused)
        self.pause_action.setText(
            self.tr("Resume memory") if state.paused else self.tr("Pause memory")
        )
        self.pause_action.setIcon(icon("resume" if state.paused else "pause"))
        self.window.status.set_paused(state.paused)

    # --- forgetting -----------------------------------------------------------------

    def forget_about(self, word: str | None = None) -> asyncio.Task[Any] | None:
        """Ctrl+Shift+F: forget the memories selected in the list (two or more), else a
        word (the search text to start with)."""
        if not self.runner.attached:
            return None
        ids = self.window.selection.selected_ids() if word is None else []
        if len(ids) > 1:
            return self.forget_selection(ids)
        start = word if word is not None else self.window.search_field.text().strip()
        return self._spawn(self.forget_flow("word", word=start), self.tr("Forgetting"))

    def forget_selection(self, ids: list[str]) -> asyncio.Task[Any] | None:
        """Forget these memories (with their versions and source messages)."""
        if not self.runner.attached or not ids:
            return None
        return self._spawn(self.forget_flow("selection", ids=ids), self.tr("Forgetting"))

    def delete_all(self) -> asyncio.Task[Any] | None:
        """Delete all my memories: the same preview and typed confirmation."""
        if not self.runner.attached:
            return None
        return self._spawn(self.forget_flow("all"), self.tr("Deleting all memories"))

    async def forget_flow(
        self, mode: str, *, word: str = "", ids: list[str] | None = None
    ) -> ForgetResult | None:
        """The dialog until the core forgets what it previewed (or the user cancels)."""
        mem = self.runner.memory

        async def previewer(w: str | None, with_messages: bool) -> ForgetPreview:
            if mode == "all":
                return await self.runner.call(
                    mem.preview_delete_all, include_messages=with_messages
                )
            if mode == "selection":
                return await self.runner.call(
                    mem.preview_forget_about, node_ids=ids, include_messages=with_messages
                )
            return await self.runner.call(
                mem.preview_forget_about, w, include_messages=with_messages
            )

        dialog = ForgetDialog(mode, previewer, self.window, word=word)
        try:
            while await self.controller.dialogs.run(dialog):
                preview = dialog.preview
                if preview is None:
                    return None
                try:
                    result: ForgetResult = await self.runner.call(mem.forget_previewed, preview)
                except EkkoMemoryError as e:
                    if e.code == "forget.preview_outdated":
                        dialog.show_error(
                            self.tr(
                                "What it would forget changed since the preview; here are "
                                "the new counts. Confirm again."
                            )
                        )
                        dialog.confirmation.clear()
                        task = dialog.request_preview()
                        if task is not None:
                            await task
                        continue
                    raise
                await self.controller.refresh_after_write()
                self.window.status.show_note(
                    self.tr("Forgotten: {counts}.").format(
                        counts=counts_text(
                            ForgetPreview(
                                kind=preview.kind,
                                memories=result.memories,
                                messages=result.messages,
                                summaries=result.summaries,
                            )
                        )
                    )
                )
                self.last_result = result
                return result
            return None
        finally:
            if dialog.preview_task is not None and not dialog.preview_task.done():
                dialog.preview_task.cancel()
            dialog.deleteLater()

    # --- duplicates -----------------------------------------------------------------

    def show_duplicates(self) -> asyncio.Task[Any] | None:
        """The duplicates view (pairs from the core's report)."""
        if not self.runner.attached:
            return None
        from ekko_memory_gui.views.dialogs.duplicates_dialog import run_duplicates

        return self._spawn(run_duplicates(self), self.tr("Finding duplicates"))
