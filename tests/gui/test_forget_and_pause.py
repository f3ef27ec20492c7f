"""Forgetting made simple and pausing memory, from the app (issue 27), in both languages:
"Forget everything about…" a word or a selection, "Delete all my memories" (the core's
preview in words, a typed confirmation, then the store without the memories, messages and
summaries), and Pause / Resume (the status line says so; the agent gets nothing)."""

from __future__ import annotations

from typing import Any

from ekko_memory.demo import DemoReport
from ekko_memory_gui.qt import QApplication, QDialog, Qt
from ekko_memory_gui.views.dialogs.forget_dialog import ForgetDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import ScriptedDialogService, type_text, wait_task
from tests.gui.languages import language, pick

__all__ = ["language"]


def _log_text(mem: Any) -> tuple[list[str], list[str]]:
    """Every message's and every summary's text, read from the stores themselves."""
    from sqlalchemy import select

    from ekko_memory.store import tables as t

    messages: list[str] = []
    summaries: list[str] = []
    for _, store in mem.stores():
        with store.read() as r:
            messages += [row[0] for row in r.conn.execute(select(t.memory_messages.c.content))]
            summaries += [row[0] for row in r.conn.execute(select(t.memory_summaries.c.summary))]
    return messages, summaries


def _confirming(qtbot: Any, seen: list[dict[str, str]], word: str | None, confirm: str) -> Any:
    """A handler: type the word (word mode), wait for the preview, type the confirmation;
    notes what the dialog showed in ``seen``."""

    async def handle(dialog: QDialog) -> bool:
        assert isinstance(dialog, ForgetDialog)
        dialog.show()
        if word is not None:
            dialog.word_edit.clear()
            type_text(dialog.word_edit, word)
            qtbot.keyClick(dialog.word_edit, Qt.Key.Key_Return)  # Enter previews
        if dialog.preview_task is not None:
            await dialog.preview_task
        assert dialog.preview is not None
        seen.append(
            {"mode": dialog.mode, "title": dialog.windowTitle(), "counts": dialog.counts.text()}
        )
        assert not dialog.forget_button.isEnabled()  # nothing typed yet
        type_text(dialog.confirmation, confirm)
        assert dialog.forget_button.isEnabled()
        dialog.forget_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    return handle


def test_forget_everything_about_a_word_previews_in_words_and_removes_messages_and_summaries(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    mem = window.runner.memory
    before = mem.preview_forget_about("香菜")
    assert before.memories > 0 and before.messages > 0
    seen: list[dict[str, str]] = []
    dialogs.handlers.append(_confirming(qtbot, seen, "香菜", "香菜"))
    window.controls.forget_action.trigger()
    qtbot.waitUntil(lambda: window.controls.last_result is not None, timeout=30000)
    counts = seen[0]["counts"]
    # The demo: one memory with two versions, six messages, two summaries mention 香菜.
    assert (before.memories, before.versions, before.messages, before.summaries) == (1, 2, 6, 2)
    expected = pick(
        language,
        en="1 memory (2 versions), 6 messages, 2 summaries",
        zh="1 条记忆（2 个版本）、6 条消息、2 份摘要",
    )
    assert counts == expected
    result = window.controls.last_result
    assert result is not None and result.memories == before.memories
    assert result.messages == before.messages and result.summaries == before.summaries
    # The store: nothing left that mentions the word, in memories, messages or summaries.
    after = mem.preview_forget_about("香菜")
    assert (after.memories, after.messages, after.summaries) == (0, 0, 0)
    messages, summaries = _log_text(mem)
    assert messages and not any("香菜" in t for t in messages)
    assert not any("香菜" in t for t in summaries)
    assert pick(language, en="Forgotten", zh="已忘记") in window.status.note.text()


def test_a_wrong_confirmation_forgets_nothing_and_a_changed_word_needs_a_new_preview(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    mem = window.runner.memory

    async def previewer(word: str | None, with_messages: bool) -> Any:
        return mem.preview_forget_about(word, include_messages=with_messages)

    dialog = ForgetDialog("word", previewer, window, word="香菜")
    qtbot.addWidget(dialog)
    assert dialog.preview_task is not None
    qtbot.waitUntil(lambda: dialog.preview is not None)
    type_text(dialog.confirmation, "香")
    assert not dialog.forget_button.isEnabled()
    qtbot.keyClick(dialog.confirmation, Qt.Key.Key_Return)  # Enter does not bypass it
    assert dialog.result() != QDialog.DialogCode.Accepted
    dialog.confirmation.clear()
    type_text(dialog.confirmation, "香菜")
    assert dialog.forget_button.isEnabled()
    type_text(dialog.word_edit, "x")  # another word: the old preview is gone
    assert dialog.preview is None and not dialog.forget_button.isEnabled()
    assert mem.preview_forget_about("香菜").memories > 0


def test_forget_the_selected_memories_from_the_list(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService, demo: DemoReport
) -> None:
    mem = window.runner.memory
    ids = [demo.node_ids["no_scallion"], demo.node_ids["some_coriander"]]
    seen: list[dict[str, str]] = []
    dialogs.handlers.append(_confirming(qtbot, seen, None, "DELETE"))
    wait_task(qtbot, window.controls.forget_selection(ids))
    assert seen[0]["mode"] == "selection"
    for i in ids:
        assert mem.get_node(i) is None


def test_delete_all_my_memories_is_one_command_with_the_same_preview(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    mem = window.runner.memory
    before = mem.preview_delete_all()
    assert before.memories > 5
    seen: list[dict[str, str]] = []
    dialogs.handlers.append(_confirming(qtbot, seen, None, "DELETE"))
    window.controls.delete_all_action.trigger()
    qtbot.waitUntil(lambda: window.controls.last_result is not None, timeout=60000)
    assert seen[0]["title"] == pick(language, en="Delete all my memories", zh="删除我的全部记忆")
    assert seen[0]["counts"].startswith(str(before.memories))
    after = mem.preview_delete_all()
    assert (after.memories, after.messages, after.summaries) == (0, 0, 0)
    qtbot.waitUntil(lambda: window.list_pane.model.rowCount() == 0, timeout=10000)


def test_pause_from_the_app_empties_the_context_and_refuses_the_agent(
    qtbot: Any, language: str, window: MainWindow, demo: DemoReport
) -> None:
    mem = window.runner.memory
    status = window.status
    assert not status.paused_label.isVisibleTo(window)
    wait_task(qtbot, window.controls.set_paused(True))
    assert mem.pause_state().paused
    assert status.paused_label.isVisibleTo(window)
    assert status.paused_label.text() == pick(language, en="Memory paused", zh="记忆已暂停")
    assert window.controls.pause_action.isChecked()
    assert window.controls.pause_action.text() == pick(language, en="Resume memory", zh="恢复记忆")
    ctx = mem.build_context("s-gui", "今晚吃什么？", user_id="u1", workspace_id="w1")
    assert ctx.diagnostics.reason_code == "memory.paused" and ctx.render() == ""
    session = mem.session("s-gui", user_id="u1", workspace_id="w1")
    refused = session.call_tool("memory_get", {"id": demo.node_ids["some_coriander"]})
    assert refused["error"]["reasonCode"] == "memory.paused"
    # Resume: the agent reads again, the status line no longer says paused.
    window.controls.pause_action.trigger()
    qtbot.waitUntil(lambda: not mem.pause_state().paused)
    qtbot.waitUntil(lambda: not status.paused_label.isVisibleTo(window))
    got = session.call_tool("memory_get", {"id": demo.node_ids["some_coriander"]})
    assert "error" not in got


def test_pause_is_read_when_the_workspace_opens(
    qtbot: Any, window: MainWindow, controller: Any, demo: DemoReport
) -> None:
    """Paused by another process (the CLI): the app says so once it opens the workspace."""
    from tests.gui.conftest import open_window

    window.runner.memory.pause()
    window.replace()
    again = open_window(qtbot, controller, demo.workspace, demo.user_home)
    qtbot.waitUntil(lambda: again.status.paused_label.isVisibleTo(again), timeout=10000)
    assert again.controls.pause_action.isChecked()
    again.replace()


def test_forget_and_pause_work_from_the_keyboard(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    """Ctrl+Shift+F opens "Forget everything about…" in its word field; Enter previews;
    Escape cancels; Ctrl+Shift+P pauses and resumes."""
    mem = window.runner.memory
    window.activateWindow()
    opened: list[str] = []

    async def keys(dialog: QDialog) -> bool:
        assert isinstance(dialog, ForgetDialog)
        dialog.show()
        # It opens in its word field (no event loop spun here: this runs in a task).
        assert dialog.focusWidget() is dialog.word_edit
        type_text(dialog.word_edit, "香菜")
        qtbot.keyClick(dialog.word_edit, Qt.Key.Key_Return)
        assert dialog.preview_task is not None
        await dialog.preview_task
        opened.append(dialog.counts.text())
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(keys)
    qtbot.keyClick(
        window,
        Qt.Key.Key_F,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(lambda: bool(opened), timeout=10000)
    assert opened[0].startswith(str(mem.preview_forget_about("香菜").memories))
    assert mem.preview_forget_about("香菜").memories > 0  # Escape forgot nothing
    window.activateWindow()  # back from the dialog
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(
        window,
        Qt.Key.Key_P,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(lambda: mem.pause_state().paused)
    qtbot.waitUntil(lambda: window.controls.pause_action.isChecked())
    qtbot.keyClick(
        window,
        Qt.Key.Key_P,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(lambda: not mem.pause_state().paused)


def test_a_pause_from_elsewhere_shows_in_the_status_line(
    qtbot: Any, language: str, window: MainWindow, demo: DemoReport
) -> None:
    """``ekko-memory pause`` in a terminal: the app's change watcher sees it, the status
    line says so; ``resume`` takes it away."""
    from ekko_memory import open_memory

    other = open_memory(demo.workspace, user_home=demo.user_home)
    try:
        other.pause()
        window.controller.watcher.check_now()
        qtbot.waitUntil(lambda: window.status.paused_label.isVisibleTo(window), timeout=10000)
        other.resume()
        window.controller.watcher.check_now()
        qtbot.waitUntil(lambda: not window.status.paused_label.isVisibleTo(window), timeout=10000)
    finally:
        other.close()
