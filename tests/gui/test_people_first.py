"""The app for people (issue 27), in English and in Chinese: memories as sentences, a new
memory by typing a sentence, a first run that explains, the status line and Help in
words, and the memories each reply used."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QAccessible

from ekko_memory import BrowseFilter
from ekko_memory.demo import DemoReport
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.labels.sentences import keyed_sentence
from ekko_memory_gui.models.roles import OBJECT_ROLE
from ekko_memory_gui.qt import (
    QApplication,
    QDialog,
    QGuiApplication,
    QLocale,
    Qt,
    QTranslator,
    QWidget,
)
from ekko_memory_gui.services.translation import install_translation, remove_translation
from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog
from ekko_memory_gui.views.dialogs.sentence_dialog import SentenceDialog, UnderstoodMemory
from ekko_memory_gui.views.help_menus import GuideDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import ScriptedDialogService, run, sentences, type_text, wait_task

EN, ZH = "en", "zh_CN"


@pytest.fixture(params=[EN, ZH])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The UI language of one run of the test (English again afterwards)."""
    loaded = install_translation(qapp, request.param) if request.param == ZH else None
    labels.reset()
    yield request.param
    if loaded is not None:
        remove_translation(qapp, loaded)
    for t in qapp.findChildren(QTranslator):
        qapp.removeTranslator(t)
    QLocale.setDefault(QLocale("en_US"))
    labels.reset()


def _say(language: str, en: str, zh: str) -> str:
    return zh if language == ZH else en


def _row(window: MainWindow, node_id: str) -> int:
    row = window.list_pane.model.row_of(node_id)
    assert row >= 0, node_id
    return row


def _cell(window: MainWindow, node_id: str, column: int) -> str:
    model = window.list_pane.model
    return str(model.index(_row(window, node_id), column).data())


# --- sentences first ------------------------------------------------------------------


def test_the_list_shows_each_memory_as_a_sentence(
    qtbot: Any, language: str, window: MainWindow, demo: DemoReport
) -> None:
    ids = demo.node_ids
    model = window.list_pane.model
    headers = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]
    assert headers == _say(
        language,
        ["Memory", "Category", "From", "Changed", "Status"],
        ["记忆", "分类", "来自", "更改", "状态"],
    )
    assert _cell(window, ids["light_taste"], 0) == _say(language, "Less oil, less salt", "少油少盐")
    assert _cell(window, ids["reply_zh"], 0) == _say(language, "Replies in Chinese", "用中文回复")
    assert _cell(window, ids["some_coriander"], 0) == _say(
        language, "A little cilantro (香菜) is fine", "可以接受少量香菜"
    )
    assert _cell(window, ids["no_scallion"], 0) == _say(
        language, "Doesn't eat scallion (葱)", "不吃葱"
    )
    # Built-in category names in the UI's language; who wrote it; badges.
    assert _cell(window, ids["light_taste"], 1) == _say(language, "Food preferences", "饮食偏好")
    tip = window.list_pane.model.index(_row(window, ids["light_taste"]), 1).data(
        Qt.ItemDataRole.ToolTipRole
    )
    assert tip == _say(
        language, "Life skills / Cooking / Food preferences", "生活技能 / 做饭 / 饮食偏好"
    )
    assert _cell(window, ids["cantonese"], 2) == _say(language, "You", "你")
    assert _cell(window, ids["framework"], 2) == _say(language, "The agent", "助手")
    assert _say(language, "used recently", "最近用过") in _cell(window, ids["light_taste"], 4)
    assert _say(language, "waiting for you", "等你确认") in _cell(window, ids["db_sqlite"], 4)
    # No key, value, confidence or id in any default column.
    every = [
        str(model.index(r, c).data())
        for r in range(model.rowCount())
        for c in range(model.columnCount())
    ]
    for hidden in ("limit_ingredient", "flavor_profile", "0.95", "mem_", "{"):
        assert not any(hidden in text for text in every), hidden


def test_a_food_reads_in_the_ui_language_beside_the_users_word(language: str) -> None:
    """A known food in the other language reads in the UI's words, the user's word beside it;
    one the lists do not know stays as said."""
    sentence = keyed_sentence
    assert sentence("avoid_ingredient", "香菜") == _say(
        language, "Doesn't eat cilantro (香菜)", "不吃香菜"
    )
    assert sentence("allergy", "peanuts") == _say(
        language, "Allergic to peanuts", "对花生（peanuts）过敏"
    )
    assert sentence("avoid_ingredient", "鸭血") == _say(language, "Doesn't eat 鸭血", "不吃鸭血")


def test_a_temporary_memory_says_until_when(qtbot: Any, language: str, window: MainWindow) -> None:
    mem = window.runner.memory
    until = mem.now() + timedelta(days=2)
    out = mem.actions.create(
        {
            "domain": "测试",
            "type": "fact",
            "title": "出差中",
            "content": "这周出差",
            "scope": "user",
            "expiresAt": until.isoformat(),
        }
    )
    window.refresh()
    qtbot.waitUntil(lambda: window.list_pane.model.row_of(out.node_id) >= 0, timeout=10000)
    badge = _cell(window, out.node_id, 4)
    assert badge.startswith(_say(language, "until ", "到")), badge
    assert _cell(window, out.node_id, 0) == "这周出差"


def test_the_detail_pane_leads_with_the_sentence_and_hides_the_fields(
    qtbot: Any, language: str, window: MainWindow, demo: DemoReport
) -> None:
    node_id = demo.node_ids["some_coriander"]
    window.list_pane.select_id(node_id)
    pane = window.detail_pane
    qtbot.waitUntil(lambda: pane.node is not None and pane.node.id == node_id)
    assert pane.title.text() == _say(
        language, "A little cilantro (香菜) is fine", "可以接受少量香菜"
    )
    assert pane.details.button.text() == _say(language, "Details", "详细信息")
    assert not pane.key.isVisibleTo(pane) and not pane.ids.isVisibleTo(pane)
    pane.details.button.click()
    assert pane.key.isVisibleTo(pane) and pane.key.text() == "limit_ingredient"
    assert node_id in pane.ids.toPlainText()
    # Sources speak in who and when, not the session's id.
    links = [w.text() for w in pane.findChildren(type(pane.title), "sourceLink")]
    assert links and not any("s-cooking" in t for t in links)


# --- add by typing a sentence ---------------------------------------------------------


def _type_and_read(qtbot: Any, dialog: SentenceDialog, text: str) -> list[UnderstoodMemory]:
    dialog.text_edit.setText(text)
    wait_task(qtbot, dialog.read_sentence())
    return dialog.items()


def test_a_new_memory_is_one_sentence_confirmed(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    seen: dict[str, Any] = {}

    async def fill(dialog: QDialog) -> bool:
        assert isinstance(dialog, SentenceDialog)
        dialog.text_edit.setText(_say(language, "I don't eat celery", "我不吃芹菜"))
        task = dialog.read_sentence()
        assert task is not None
        await task
        (item,) = dialog.items()
        seen["sentence"] = item.sentence.text()
        seen["category"] = item.category_combo.currentText()
        seen["kind"] = item.kind_combo.currentText()
        seen["status"] = dialog.status.text()
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(fill)
    window.new_action.trigger()  # Ctrl+N
    qtbot.waitUntil(lambda: "芹菜" in " ".join(sentences(window)), timeout=10000)
    assert seen == {
        "sentence": _say(language, "Doesn't eat celery (芹菜)", "不吃芹菜"),
        "category": _say(
            language, "Life skills › Cooking › Food preferences", "生活技能 › 做饭 › 饮食偏好"
        ),
        "kind": _say(language, "preference", "偏好"),
        "status": _say(language, "Ekko understood:", "Ekko 理解为："),
    }
    mem = window.runner.memory
    (node,) = [
        n
        for n in mem.browse.list_nodes(BrowseFilter(text="芹菜"), limit=10).nodes
        if n.key == "avoid_ingredient"
    ]
    assert node.value_json == "芹菜" and node.origin == "user_edit" and node.scope == "user"
    # Undo takes it back.
    wait_task(qtbot, window.undo())
    assert mem.get_node(node.id).status == "deleted"  # type: ignore[union-attr]


def test_a_sentence_nothing_understands_is_kept_as_a_note(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    def fill(dialog: QDialog) -> Any:
        async def go() -> bool:
            assert isinstance(dialog, SentenceDialog)
            dialog.text_edit.setText("今天天气不错，适合散步")
            task = dialog.read_sentence()
            assert task is not None
            await task
            assert dialog.understanding is not None and not dialog.understanding.understood
            assert dialog.status.text().startswith(
                _say(language, "Ekko found no preference", "Ekko 没有在这句话里")
            )
            (item,) = dialog.items()
            assert item.category_combo.currentText() == _say(
                language, "Personal › Notes", "个人 › 笔记"
            )
            assert dialog.save_button.isEnabled()  # never refused
            dialog.save_button.click()
            return True

        return go()

    dialogs.handlers.append(fill)
    wait_task(qtbot, window.new_memory())
    qtbot.waitUntil(lambda: "今天天气不错，适合散步" in sentences(window), timeout=10000)


def test_what_was_understood_can_be_changed_before_saving(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    dialog = SentenceDialog(window.runner, window.runner.memory.registry.rules, window)
    qtbot.addWidget(dialog)
    (item,) = _type_and_read(qtbot, dialog, "今天胃不舒服，别放辣")
    assert item.until_combo.currentData() == "keep"
    assert item.until_combo.currentText() not in ("", item.until_combo.itemText(1))
    draft = dialog.drafts()[0]
    assert draft["type"] == "constraint" and "expiresAt" in draft
    item.until_combo.setCurrentIndex(item.until_combo.findData("never"))
    item.kind_combo.setCurrentIndex(item.kind_combo.findData("fact"))
    changed = dialog.drafts()[0]
    assert "expiresAt" not in changed and changed["type"] == "fact"
    assert "key" not in changed  # another kind: the schema's key stays behind
    assert changed["scope"] == "user"  # no longer temporary


def test_more_fields_opens_the_full_form_filled_in(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    form: list[dict[str, Any]] = []

    async def more(dialog: QDialog) -> None:
        assert isinstance(dialog, SentenceDialog)
        dialog.text_edit.setText("以后回答用中文")
        task = dialog.read_sentence()
        assert task is not None
        await task
        dialog.more_button.click()

    def look(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog) and dialog.mode == "create"
        form.append(dialog.values())
        return False

    dialogs.handlers.extend([more, look])
    wait_task(qtbot, window.new_memory())
    (values,) = form
    assert values["key"] == "reply_language" and values["domain"] == "个人"
    assert values["categoryPath"] == ["个人", "沟通"]


# --- a first run that explains --------------------------------------------------------


@pytest.fixture
def empty_window(
    qtbot: Any, language: str, controller: AppController, tmp_path: Path
) -> Iterator[MainWindow]:
    ws, home = tmp_path / "empty", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    window = MainWindow(controller)
    window.finish_menus()
    qtbot.addWidget(window)
    window.resize(1400, 860)
    window.show()
    run(qtbot, controller.open_workspace(ws, home))
    qtbot.waitUntil(lambda: window.list_pane.filter is not None, timeout=10000)
    qtbot.waitUntil(lambda: not window.list_pane.model.loading, timeout=10000)
    yield window
    window.replace()


def test_an_empty_workspace_shows_the_first_run(
    qtbot: Any, language: str, empty_window: MainWindow
) -> None:
    window = empty_window
    pane = window.list_pane
    qtbot.waitUntil(lambda: pane.stack.currentWidget() is pane.first_run, timeout=10000)
    first = pane.first_run
    assert first.heading.text() == _say(language, "Welcome to Ekko Memory", "欢迎使用 Ekko Memory")
    assert first.hermes.text.toPlainText() == "ekko-memory hermes install --activate"
    snippet = first.mcp.text.toPlainText()
    assert '"mcp"' in snippet and str(window.controller.workspace.folder) in snippet  # type: ignore[union-attr]
    assert first.mcp.copy() == snippet
    assert QGuiApplication.clipboard().text() == snippet
    assert first.mcp.copy_button.text() == _say(language, "Copied", "已复制")
    # The built-in recipes are not "my memories": they do not hide the first run...
    assert pane.model.rowCount() == 0
    # ...and show when asked for.
    window.builtin_action.trigger()
    qtbot.waitUntil(lambda: pane.model.rowCount() > 0, timeout=10000)
    assert {
        pane.model.index(r, 0).data(OBJECT_ROLE).scope for r in range(pane.model.rowCount())
    } == {"global"}
    # Built-in content follows the UI's language.
    shown = {pane.model.index(r, 0).data() for r in range(pane.model.rowCount())}
    assert _say(language, "Tomato and egg stir-fry", "番茄炒蛋") in shown
    assert _say(language, "Recipes", "菜谱") in {
        pane.model.index(r, 1).data() for r in range(pane.model.rowCount())
    }
    window.builtin_action.trigger()
    qtbot.waitUntil(lambda: pane.stack.currentWidget() is pane.first_run, timeout=10000)


def test_open_the_demo_from_the_first_run(
    qtbot: Any, language: str, empty_window: MainWindow
) -> None:
    window = empty_window
    pane = window.list_pane
    qtbot.waitUntil(lambda: pane.stack.currentWidget() is pane.first_run, timeout=10000)
    pane.first_run.demo_button.click()
    qtbot.waitUntil(lambda: pane.model.rowCount() > 5, timeout=20000)
    assert "ekko-demo-" in str(window.controller.workspace.folder)  # type: ignore[union-attr]
    assert pane.stack.currentWidget() is pane.table


# --- status and help ------------------------------------------------------------------


def test_the_status_line_says_how_things_are_in_words(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    mine = window.runner.memory.browse.count(
        BrowseFilter(hide_expired=True, scopes=["session", "workspace", "user"])
    )
    expected = _say(
        language, f"Saved on this computer · {mine} memories", f"已保存在本机 · {mine} 条记忆"
    )
    qtbot.waitUntil(lambda: window.status.text.text() == expected, timeout=10000)
    tip = window.status.text.toolTip()
    assert "memory.db" in tip and "memory.db" not in window.status.text.text()


def test_help_opens_the_user_guide_and_lists_the_shortcuts(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    shown: list[str] = []

    def read(dialog: QDialog) -> bool:
        assert isinstance(dialog, GuideDialog)
        shown.append(dialog.browser.toPlainText())
        return False

    dialogs.handlers.append(read)
    assert window.guide_action.shortcut().toString() == "F1"
    wait_task(qtbot, window.open_user_guide())
    (text,) = shown
    assert "Ekko" in text and "ekko-memory hermes install --activate" in text
    assert "screenshots/first-run" not in text  # the pictures are for the web page
    wait_task(qtbot, window.show_shortcuts())
    title, lines = dialogs.informed[-1]
    assert title == _say(language, "Keyboard shortcuts", "键盘快捷键")
    assert "Ctrl+N — " + _say(language, "New memory", "新建记忆") in lines
    assert "F5 — " in lines and "F1 — " in lines and "Del — " in lines
    help_texts = [a.text() for a in window.help_menu.actions()]
    assert _say(language, "User guide", "用户指南") in help_texts


# --- sessions: the memories each reply used -------------------------------------------


def test_a_reply_lists_the_memories_it_used(
    qtbot: Any, language: str, window: MainWindow, demo: DemoReport
) -> None:
    window.category_pane.select_key("sessions/")
    view = window.sessions_view
    qtbot.waitUntil(lambda: view.sessions_model.rowCount() == 2, timeout=10000)
    names = [view.sessions_model.index(r, 0).data() for r in range(2)]
    assert "记住，我以后做饭不要香菜。" in names and "s-cooking" not in names
    assert view.select_session("s-cooking") or view.session_id == "s-cooking"
    qtbot.waitUntil(lambda: view.messages_model.rowCount() > 5, timeout=10000)
    model = view.messages_model
    replies = [
        r
        for r in range(model.rowCount())
        if model.message_at(r).role == "assistant"  # type: ignore[union-attr]
    ]
    last = replies[-1]
    head = model.index(last, 0).data().split("\n")[0]
    assert head.startswith(_say(language, "Agent · ", "助手 · "))
    assert model.index(0, 0).data().startswith(_say(language, "You · ", "你 · "))
    view.messages.setCurrentIndex(model.index(last, 0))
    wait_task(qtbot, view._used_task)
    used = view.used_sentences()
    assert _say(language, "A little cilantro (香菜) is fine", "可以接受少量香菜") in used
    assert _say(language, "Less oil, less salt", "少油少盐") in used
    assert view.used_note.text().startswith(_say(language, "This reply used", "这条回复用到了"))
    # Enter on one opens the memory in the list.
    opened: list[str] = []
    view.open_memory.connect(opened.append)
    view.used.itemActivated.emit(view.used.item(0))
    assert opened and window.pages.currentWidget() is window.memory_split
    # The user's own message used nothing: the list says to pick a reply.
    view.messages.setCurrentIndex(model.index(0, 0))
    assert view.used.count() == 0
    assert view.used_note.text().startswith(_say(language, "Select one", "选择助手"))


def test_the_badges_have_words_for_pinned_and_until(language: str) -> None:
    from datetime import UTC, datetime

    from ekko_memory_gui.models.labels import sentences as words

    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    said = words.badges(
        expires_at=now + timedelta(days=30),
        pinned=True,
        waiting=True,
        last_used=now - timedelta(days=1),
        now=now,
    )
    assert said[:2] == _say(language, ["waiting for you", "pinned"], ["等你确认", "已固定"])
    assert said[2].startswith(_say(language, "until ", "到 ")) and "12-31" in said[2]
    assert said[3] == _say(language, "used recently", "最近用过")
    assert words.badges(expires_at=None, pinned=False, waiting=False, last_used=None, now=now) == []


def test_the_tree_names_built_in_categories_in_the_ui_language(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    model = window.category_pane.model
    top = [model.index(r, 0).data() for r in range(model.rowCount())]
    assert _say(language, "Life skills", "生活技能") in top
    assert _say(language, "Project", "项目") in top


# --- keyboard and screen readers ------------------------------------------------------


def _spoken(widget: QWidget) -> str:
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None
    return iface.text(QAccessible.Text.Name)


def _unnamed(root: QWidget) -> list[str]:
    """Controls Tab reaches under ``root`` that a screen reader would not name."""
    return [
        f"{type(w).__name__}:{w.objectName()}"
        for w in root.findChildren(QWidget)
        if w.isVisibleTo(root)
        and w.focusPolicy() & Qt.FocusPolicy.TabFocus
        and not _spoken(w).strip()
    ]


def test_the_new_controls_have_spoken_names(
    qtbot: Any, language: str, empty_window: MainWindow
) -> None:
    window = empty_window
    first = window.list_pane.first_run
    qtbot.waitUntil(lambda: window.list_pane.stack.currentWidget() is first, timeout=10000)
    assert _unnamed(first) == []
    dialog = SentenceDialog(window.runner, window.runner.memory.registry.rules, window)
    qtbot.addWidget(dialog)
    dialog.show()
    _type_and_read(qtbot, dialog, "我不吃芹菜")
    assert _unnamed(dialog) == []
    assert _spoken(dialog.text_edit) == _say(language, "What to remember", "要记住的内容")
    assert _spoken(window.detail_pane.details.button) == _say(language, "Details", "详细信息")
    assert _spoken(window.sessions_view.used) == _say(
        language, "Memories this reply used", "这条回复用到的记忆"
    )


def test_a_new_memory_from_the_keyboard_alone(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    """Type, Enter reads the sentence, Enter saves it."""
    dialog = SentenceDialog(window.runner, window.runner.memory.registry.rules, window)
    qtbot.addWidget(dialog)
    dialog.show()
    type_text(dialog.text_edit, "我不吃芹菜")
    qtbot.keyClick(dialog.text_edit, Qt.Key.Key_Return)
    assert dialog._reading is not None
    wait_task(qtbot, dialog._reading)
    assert dialog.save_button.isEnabled() and len(dialog.items()) == 1
    qtbot.keyClick(dialog.text_edit, Qt.Key.Key_Return)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.drafts()[0]["valueJson"] == "芹菜"


def test_a_built_in_recipe_reads_in_the_ui_language_in_the_detail_pane(
    qtbot: Any, language: str, empty_window: MainWindow
) -> None:
    """The shipped recipe's text and its category path follow the UI's language (the
    recipe's steps were still Chinese in an English UI)."""
    window = empty_window
    pane = window.list_pane
    window.builtin_action.trigger()
    qtbot.waitUntil(lambda: pane.model.rowCount() > 0, timeout=10000)
    recipe = "mem_00000000000000000000000001"
    pane.select_id(recipe)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == recipe)
    content = detail.content.text()
    category = detail.category.text()
    if language == "en":
        assert content.startswith("A quick home-style dish") and "番" not in content
        assert category == "Life skills / Cooking / Recipes   (Life skills)"
    else:
        assert content.startswith("家常快手菜")
        assert category == "生活技能 / 做饭 / 菜谱   (生活技能)"
    window.builtin_action.trigger()
