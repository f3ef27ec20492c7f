"""Editing in the app: a new version that supersedes (never an overwrite), create by hand,
revert, soft delete and restore (trash), hard delete behind a typed confirmation, undo."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from ekko_memory import NODE_LIMITS
from ekko_memory.demo import DemoReport
from ekko_memory.models import MemoryNodeDraft
from ekko_memory.timeutil import storable
from ekko_memory_gui.qt import (
    QApplication,
    QDate,
    QDateTime,
    QDialog,
    QLabel,
    QPushButton,
    Qt,
    QTime,
)
from ekko_memory_gui.views.dialogs.hard_delete_dialog import HardDeleteDialog
from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import ScriptedDialogService, more_fields, titles, wait_task


def _select(qtbot: Any, window: MainWindow, node_id: str) -> None:
    window.list_pane.select_id(node_id)
    qtbot.waitUntil(
        lambda: window.detail_pane.node is not None and window.detail_pane.node.id == node_id
    )


def test_edit_creates_a_superseding_version_and_undo_brings_back_the_value(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    old_id = demo.node_ids["no_scallion"]
    _select(qtbot, window, old_id)

    def edit(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog) and dialog.mode == "edit"
        assert "new version" in dialog.note.text()
        assert dialog.key() == "avoid_ingredient"
        assert dialog.value_editor.shape == "string"
        dialog.value_editor.text.setText("大葱")
        dialog.title_edit.setText("用户不吃大葱")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    window.list_pane.table.setFocus()
    qtbot.keyClick(window.list_pane.table, Qt.Key.Key_Return)  # Enter edits
    mem = window.runner.memory
    qtbot.waitUntil(lambda: mem.head_of(old_id).id != old_id)
    head = mem.head_of(old_id)
    assert head.title == "用户不吃大葱" and head.value_json == "大葱"
    assert head.supersedes_id == old_id and head.origin == "user_edit"
    old = mem.get_node(old_id)
    assert (
        old is not None and old.status == "superseded" and old.value_json == "葱"
    )  # not overwritten
    assert any(e.event_type == "supersede" and e.actor == "user" for e in mem.history(old_id).audit)
    # The table shows the new version in place of the old one, and selects it.
    qtbot.waitUntil(lambda: head.id in window.list_pane.model.ids())
    assert old_id not in window.list_pane.model.ids()
    qtbot.waitUntil(
        lambda: window.detail_pane.node is not None and window.detail_pane.node.id == head.id
    )
    assert [e.node.id for e in window.detail_pane.chain.entries] == [head.id, old_id]

    # Ctrl+Z: a new head with the previous value (nothing rewritten).
    assert window.undo_action.isEnabled() and "用户不吃葱" in window.undo_action.text()
    wait_task(qtbot, window.undo())
    qtbot.waitUntil(lambda: mem.head_of(old_id).value_json == "葱")
    chain = mem.chain(old_id)
    assert [n.value_json for n in chain] == ["葱", "大葱", "葱"]
    assert chain[-1].id not in (old_id, head.id)
    assert not window.undo_action.isEnabled()


def test_the_form_follows_the_schema(qtbot: Any, window: MainWindow, demo: DemoReport) -> None:
    rules = window.runner.memory.registry.rules
    dialog = MemoryEditDialog(
        rules, mode="create", defaults={"domain": "生活技能", "categoryPath": ["生活技能", "做饭"]}
    )
    qtbot.addWidget(dialog)
    dialog.type_combo.setCurrentIndex(dialog.type_combo.findData("preference"))
    keys = [dialog.key_combo.itemData(i) for i in range(dialog.key_combo.count())]
    assert "avoid_ingredient" in keys and "flavor_profile" in keys and "database" not in keys
    dialog.key_combo.setCurrentIndex(dialog.key_combo.findData("flavor_profile"))
    assert dialog.value_editor.shape == "object"  # a small key–value table
    dialog.key_combo.setCurrentIndex(dialog.key_combo.findData("avoid_ingredient"))
    assert dialog.value_editor.shape == "string"
    dialog.domain_combo.setCurrentText("项目")
    dialog.path_edit.clear()
    dialog.type_combo.setCurrentIndex(dialog.type_combo.findData("decision"))
    keys = [dialog.key_combo.itemData(i) for i in range(dialog.key_combo.count())]
    assert "database" in keys and "avoid_ingredient" not in keys
    # A key is required where the schema has keys.
    dialog.title_edit.setText("x")
    dialog.key_combo.setCurrentIndex(0)
    assert dialog.problem() is not None and "key" in dialog.problem()  # type: ignore[operator]
    # A key needs its value (the core refuses a keyed memory without one).
    dialog.key_combo.setCurrentIndex(dialog.key_combo.findData("database"))
    assert dialog.problem() == "Enter a value: the key database needs one."
    dialog.value_editor.set_value("PostgreSQL")
    assert dialog.problem() is None
    # Expiry presets.
    dialog.expiry_combo.setCurrentIndex(dialog.expiry_combo.findData("today"))
    when = dialog.expires_at()
    assert (
        when is not None
        and when > datetime.now(UTC)
        and when - datetime.now(UTC) < timedelta(days=1)
    )
    dialog.expiry_combo.setCurrentIndex(dialog.expiry_combo.findData("never"))
    assert dialog.expires_at() is None


def test_the_latest_expiry_the_form_offers_is_one_the_store_holds(
    qtbot: Any, window: MainWindow
) -> None:
    """The date picker stops before the year 9999 (what the stores hold, in every time
    zone): a far date typed in is pulled back, and what the form sends is accepted."""
    rules = window.runner.memory.registry.rules
    dialog = MemoryEditDialog(rules, mode="create", defaults={"domain": "杂项"})
    qtbot.addWidget(dialog)
    dialog.title_edit.setText("很久以后")
    dialog.value_editor.set_value("x")
    dialog.expiry_combo.setCurrentIndex(dialog.expiry_combo.findData("custom"))
    dialog.expiry_edit.setDateTime(QDateTime(QDate(9999, 12, 31), QTime(23, 59)))
    when = dialog.expires_at()
    assert when is not None and when.year == 9998 and storable(when) == when
    assert dialog.problem() is None
    node = MemoryNodeDraft.model_validate({"expiresAt": dialog.values()["expiresAt"]})
    assert node.expires_at == when


def test_create_by_hand(qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService) -> None:
    def fill(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog) and dialog.mode == "create"
        dialog.domain_combo.setCurrentText("生活技能")
        dialog.type_combo.setCurrentIndex(dialog.type_combo.findData("preference"))
        dialog.key_combo.setCurrentIndex(dialog.key_combo.findData("flavor_profile"))
        dialog.value_editor.table.setRowCount(0)
        dialog.value_editor._add_row("spicy", "low")
        dialog.title_edit.setText("少辣")
        dialog.scope_combo.setCurrentIndex(dialog.scope_combo.findData("user"))
        # The category follows the key's place in the schema.
        assert dialog.values()["categoryPath"] == ["生活技能", "做饭", "饮食偏好"]
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.extend([more_fields, fill])
    window.new_action.trigger()  # Ctrl+N
    qtbot.waitUntil(lambda: "少辣" in titles(window), timeout=10000)
    mem = window.runner.memory
    model = window.list_pane.model
    node_id = next(i for i in model.ids() if model.row_at(model.row_of(i)).title == "少辣")  # type: ignore[union-attr]
    node = mem.get_node(node_id)
    assert node is not None and node.value_json["spicy"] == "low" and node.scope == "user"
    # flavor_profile holds one value: the user's new one superseded the earlier profile.
    assert node.supersedes_id is not None
    create = next(e for e in mem.history(node_id).audit if e.event_type in ("create", "supersede"))
    assert create.actor == "user"


def test_a_refusal_keeps_the_form_open_with_the_reason(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    node_id = demo.node_ids["light_taste"]
    _select(qtbot, window, node_id)
    seen: list[str] = []

    def past_expiry_then_fix(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.expiry_combo.setCurrentIndex(dialog.expiry_combo.findData("custom"))
        dialog.expiry_edit.setDateTime(QDateTime.currentDateTime().addDays(-2))
        dialog.save_button.click()
        assert dialog.result() != QDialog.DialogCode.Accepted  # the form stays open
        seen.append(dialog.error.text())
        dialog.expiry_combo.setCurrentIndex(dialog.expiry_combo.findData("never"))
        dialog.importance_spin.setValue(0.5)
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(past_expiry_then_fix)
    task = window.edit_memory(node_id)
    wait_task(qtbot, task)
    assert seen == ["The expiry is in the past: choose a later time, or Never."]
    mem = window.runner.memory
    assert mem.head_of(node_id).importance == 0.5


def test_an_expiry_in_the_past_is_explained_in_the_forms_words_in_chinese(
    qtbot: Any, qapp: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    """New, edit and edit-and-approve: the form said the core's "无效：expiresAt is in the
    past" (English, and a field name the form does not show)."""
    from ekko_memory_gui.models import labels
    from ekko_memory_gui.services.translation import install_translation, remove_translation

    loaded = install_translation(qapp, "zh_CN")
    labels.reset()
    try:
        seen: list[str] = []

        def past(dialog: QDialog) -> bool:
            assert isinstance(dialog, MemoryEditDialog)
            dialog.title_edit.setText("今晚不吃辣")
            if dialog.mode == "create":
                dialog.domain_combo.setCurrentText("测试")  # no schema: no key needed
            dialog.expiry_combo.setCurrentIndex(dialog.expiry_combo.findData("custom"))
            dialog.expiry_edit.setDateTime(QDateTime.currentDateTime().addSecs(-3600))
            dialog.save_button.click()
            seen.append(dialog.error.text())
            return False

        dialogs.handlers.extend([more_fields, past])
        wait_task(qtbot, window.new_memory())
        pid = window.runner.memory.pending()[0].id
        qtbot.waitUntil(lambda: window.inbox_view.entry(pid) is not None, timeout=10000)
        dialogs.handlers.append(past)
        wait_task(qtbot, asyncio.ensure_future(window.inbox_view.edit_and_approve(pid)))
        assert seen == ["过期时间已经过去：请选择一个更晚的时间，或选“永不”。"] * 2
        assert window.runner.memory.pending()[0].id == pid  # nothing was decided
    finally:
        remove_translation(qapp, loaded)
        labels.reset()


def test_revert_to_an_older_version(qtbot: Any, window: MainWindow, demo: DemoReport) -> None:
    head_id = demo.node_ids["some_coriander"]
    _select(qtbot, window, head_id)
    chain_view = window.detail_pane.chain
    old_entry = chain_view.entries[1]
    assert old_entry.node.value_json == "香菜"
    buttons = chain_view.findChildren(QPushButton, "revertButton")
    assert len(buttons) == 1
    buttons[0].click()
    mem = window.runner.memory
    qtbot.waitUntil(lambda: mem.head_of(head_id).id != head_id)
    chain = mem.chain(head_id)
    assert [n.key for n in chain] == ["avoid_ingredient", "limit_ingredient", "avoid_ingredient"]
    assert chain[-1].value_json == "香菜" and chain[-1].status == "active"
    assert mem.get_node(head_id).status == "superseded"  # type: ignore[union-attr]
    assert any(
        e.event_type in ("revert", "supersede") and e.actor == "user"
        for e in mem.history(chain[-1].id).audit
    )


def test_soft_delete_and_restore_through_the_trash(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    node_id = demo.node_ids["recipe_eggs"]
    _select(qtbot, window, node_id)
    window.list_pane.table.setFocus()
    qtbot.keyClick(window.list_pane.table, Qt.Key.Key_Delete)  # Del: to the trash
    mem = window.runner.memory
    qtbot.waitUntil(lambda: mem.get_node(node_id).status == "deleted")  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: node_id not in window.list_pane.model.ids())
    trash = window.category_pane.model.index_for_key("trash/")
    qtbot.waitUntil(lambda: trash.siblingAtColumn(1).data() == "2")
    window.category_pane.select_key("trash/")
    qtbot.waitUntil(lambda: node_id in window.list_pane.model.ids())
    _select(qtbot, window, node_id)
    assert window.detail_pane.restore_button.isVisibleTo(window.detail_pane)
    window.detail_pane.restore_button.click()
    qtbot.waitUntil(lambda: mem.get_node(node_id).status == "active")  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: node_id not in window.list_pane.model.ids())  # left the trash
    assert any(e.event_type == "restore" and e.actor == "user" for e in mem.history(node_id).audit)


def test_hard_delete_requires_the_typed_confirmation(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    node_id = demo.node_ids["some_coriander"]
    old_id = demo.node_ids["no_coriander"]
    _select(qtbot, window, node_id)

    def wrong(dialog: QDialog) -> bool:
        assert isinstance(dialog, HardDeleteDialog)
        assert not dialog.delete_button.isEnabled()
        dialog.confirmation.setText("用户可接受少量")  # not the title
        assert not dialog.delete_button.isEnabled()
        dialog.confirmation.setText("delete")  # not DELETE
        assert not dialog.delete_button.isEnabled()
        qtbot.keyClick(dialog.confirmation, Qt.Key.Key_Return)  # Enter does not bypass it
        assert dialog.result() != QDialog.DialogCode.Accepted
        return False

    dialogs.handlers.append(wrong)
    window.list_pane.table.setFocus()
    qtbot.keyClick(window.list_pane.table, Qt.Key.Key_Delete, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not dialogs.handlers)
    qtbot.waitUntil(lambda: window.runner.pending_tasks == 0)
    mem = window.runner.memory
    assert mem.get_node(node_id) is not None and mem.get_node(old_id) is not None

    def right(dialog: QDialog) -> bool:
        assert isinstance(dialog, HardDeleteDialog)
        what = dialog.findChild(QLabel, "hardDeleteWhat")
        assert (
            what is not None
            and "用户不吃香菜" in what.text()
            and "用户可接受少量香菜" in what.text()
        )
        dialog.confirmation.setText("用户可接受少量香菜")
        assert dialog.delete_button.isEnabled()
        dialog.delete_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(right)
    task = window.hard_delete_memory(node_id)
    wait_task(qtbot, task)
    assert mem.get_node(node_id) is None and mem.get_node(old_id) is None  # every version
    qtbot.waitUntil(lambda: node_id not in window.list_pane.model.ids())


def test_delete_word_also_confirms(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    node_id = demo.node_ids["framework"]

    def typed(dialog: QDialog) -> bool:
        assert isinstance(dialog, HardDeleteDialog)
        dialog.confirmation.setText("DELETE")
        dialog.delete_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(typed)
    wait_task(qtbot, window.hard_delete_memory(node_id))
    assert window.runner.memory.get_node(node_id) is None


def test_the_value_table_saves_untouched_fields_exactly(qtbot: Any) -> None:
    """Editing a title must not change a value: text that looks like a number stays text,
    numbers stay numbers ("1.10" kept its trailing zero only as text)."""
    from ekko_memory_gui.views.dialogs.value_editor import ValueEditor

    editor = ValueEditor()
    qtbot.addWidget(editor)
    value = {
        "zip": "100080",
        "version": "1.10",
        "phone": "13812345678",
        "flag": "true",
        "n": "1e3",
        "servings": 2,
        "ratio": 0.5,
        "ok": True,
        "none": None,
    }
    editor.set_shape("object", value)
    assert editor.value() == value
    # An edited text field stays text; an edited number field reads its JSON.
    cells = {editor.table.item(r, 0).text(): editor.table.item(r, 1) for r in range(9)}
    cells["zip"].setText("100081")
    cells["servings"].setText("3")
    cells["ratio"].setText("about half")
    got = editor.value()
    assert (got["zip"], got["servings"], got["ratio"]) == ("100081", 3, "about half")
    # A new field is a number, true/false or null only when it is exactly that JSON.
    for text, expected in [
        ("2", 2),
        ("-1.5", -1.5),
        ("false", False),
        ("1.10", "1.10"),
        ("1e3", "1e3"),
        ("007", "007"),
        ('"100080"', "100080"),
        ("少量", "少量"),
    ]:
        editor.set_shape("object", {})
        editor._add_row("field", text)
        assert editor.value() == {"field": expected}, text


def test_the_form_keeps_to_the_core_limits(qtbot: Any, window: MainWindow) -> None:
    """Over-long titles cannot be typed; too many tags are named before anything is sent."""
    rules = window.runner.memory.registry.rules
    dialog = MemoryEditDialog(rules, mode="create", defaults={"domain": "杂项"})
    qtbot.addWidget(dialog)
    dialog.value_editor.set_value("x")
    dialog.title_edit.setText("长" * (NODE_LIMITS.title_chars + 50))
    assert len(dialog.title_edit.text()) == NODE_LIMITS.title_chars
    dialog.tags_edit.setText(", ".join(f"t{i}" for i in range(NODE_LIMITS.list_items + 1)))
    dialog.save_button.click()
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert dialog.error.text() == (
        f"There are {NODE_LIMITS.list_items + 1} tags; a memory takes at most "
        f"{NODE_LIMITS.list_items}."
    )
    dialog.tags_edit.setText("a, " + "b" * (NODE_LIMITS.list_item_chars + 1))
    dialog.save_button.click()
    assert "One of the tags is longer than" in dialog.error.text()
    dialog.tags_edit.setText("a, b")
    dialog.save_button.click()
    assert dialog.result() == QDialog.DialogCode.Accepted


def test_fields_the_core_refuses_keep_the_form_open_with_one_line(
    qtbot: Any,
    window: MainWindow,
    dialogs: ScriptedDialogService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever the form lets through, a refusal of the core's models (here a title past
    its limit) re-shows the form with the reason in one line, not pydantic's report."""
    monkeypatch.setattr(MemoryEditDialog, "_limits_problem", lambda self: None)
    reported: list[str] = []
    window.runner.failed.connect(lambda what, text: reported.append(text))
    seen: list[str] = []
    too_long = "长" * (NODE_LIMITS.title_chars + 1)

    def fill(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.domain_combo.setCurrentText("杂项")
        dialog.title_edit.setMaxLength(32767)
        dialog.title_edit.setText(too_long)
        dialog.value_editor.set_value("x")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    def again(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        seen.append(dialog.error.text())
        assert dialog.title_edit.text() == too_long  # what the user typed is still there
        return False

    dialogs.handlers.extend([more_fields, fill, again])
    wait_task(qtbot, window.new_memory())
    assert not dialogs.handlers and not reported
    (reason,) = seen
    assert "\n" not in reason and "pydantic" not in reason
    assert f"title: is {NODE_LIMITS.title_chars + 1} characters long" in reason
    assert reason.endswith("nothing was written")
    assert window.width() == 1400


def test_undo_of_a_new_memory_after_its_edit_trashes_the_memory(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    """New, edit, undo, undo: the memory ends in the trash (no version of it active),
    not its first version marked deleted under a live head."""

    def fill(dialog: QDialog) -> bool:
        dialog.domain_combo.setCurrentText("项目")
        dialog.type_combo.setCurrentIndex(dialog.type_combo.findData("decision"))
        dialog.key_combo.setCurrentIndex(dialog.key_combo.findData("database"))
        dialog.value_editor.set_value("DuckDB")
        dialog.title_edit.setText("数据库用 DuckDB")
        dialog.scope_combo.setCurrentIndex(dialog.scope_combo.findData("workspace"))
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.extend([more_fields, fill])
    window.new_action.trigger()
    qtbot.waitUntil(lambda: "数据库用 DuckDB" in titles(window), timeout=10000)
    mem = window.runner.memory
    model = window.list_pane.model
    created = next(
        i for i in model.ids() if model.row_at(model.row_of(i)).title == "数据库用 DuckDB"
    )  # type: ignore[union-attr]
    _select(qtbot, window, created)

    def edit(dialog: QDialog) -> bool:
        dialog.title_edit.setText("数据库用 SQLite")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    wait_task(qtbot, asyncio.ensure_future(window.actions.edit(created)))
    assert mem.head_of(created).title == "数据库用 SQLite"
    wait_task(qtbot, window.undo())  # the edit: the first value is the head again
    assert mem.head_of(created).title == "数据库用 DuckDB"
    wait_task(qtbot, window.undo())  # the creation: the memory goes to the trash
    chain = mem.chain(created)
    assert [n.status for n in chain if n.status == "active"] == []
    assert chain[-1].status == "deleted"
    qtbot.waitUntil(lambda: "数据库用 DuckDB" not in titles(window), timeout=10000)


def test_undo_never_overwrites_a_change_made_elsewhere_since(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """Edit in the app, then the memory changes elsewhere (another program, the agent):
    Ctrl+Z refuses and says why, and the other change stays."""
    old_id = demo.node_ids["no_scallion"]
    _select(qtbot, window, old_id)

    def edit(dialog: QDialog) -> bool:
        dialog.title_edit.setText("用户不吃大葱")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    wait_task(qtbot, asyncio.ensure_future(window.actions.edit(old_id)))
    mem = window.runner.memory
    mine = mem.head_of(old_id)
    assert mine.title == "用户不吃大葱"
    notes: list[str] = []
    window.actions.message.connect(notes.append)
    mem.actions.edit(mine.id, {"title": "用户不吃葱和韭菜"})  # elsewhere
    theirs = mem.head_of(old_id)
    wait_task(qtbot, window.undo())
    assert mem.head_of(old_id).id == theirs.id and theirs.title == "用户不吃葱和韭菜"
    assert notes and notes[-1].startswith("Not undone:") and "changed again" in notes[-1]


def test_an_edit_whose_memory_changed_meanwhile_keeps_the_typing_and_applies_it_to_the_newest(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """The agent or the CLI writes a newer version while the form is open. Saving used to
    repeat "is an old version" for ever, so the only way out was Cancel, losing what the
    user typed. Now the form stays filled, says what happened, and the next Save applies
    the user's changes to the newest version (its other fields stay as they are there)."""
    old_id = demo.node_ids["no_scallion"]
    mem = window.runner.memory
    errors: list[str] = []

    def type_then_save(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        mem.actions.edit(old_id, {"title": "用户不吃葱和韭菜"})  # another program, meanwhile
        dialog.content_edit.setPlainText("包括葱花和葱油。")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    def save_again(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        errors.append(dialog.error.text())
        assert dialog.content_edit.toPlainText() == "包括葱花和葱油。"  # nothing lost
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.extend([type_then_save, save_again])
    wait_task(qtbot, window.edit_memory(old_id))
    assert errors and "changed meanwhile" in errors[0] and "用户不吃葱和韭菜" in errors[0]
    chain = mem.chain(old_id)
    assert len(chain) == 3
    head = chain[-1]
    assert head.content == "包括葱花和葱油。" and head.title == "用户不吃葱和韭菜"
    assert head.value_json == "葱"
    assert not dialogs.handlers


def test_after_an_edit_the_new_version_stays_selected(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """The edited row leaves the list and the new version arrives a moment later. The row
    taking the old one's place had become the selection (and the detail pane's memory), so
    Del or Enter then acted on a memory the user never picked."""
    old_id = demo.node_ids["no_scallion"]
    _select(qtbot, window, old_id)

    def edit(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.title_edit.setText("用户不吃大葱")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    wait_task(qtbot, window.edit_memory(old_id))
    head = window.runner.memory.head_of(old_id)
    qtbot.waitUntil(lambda: head.id in window.list_pane.model.ids(), timeout=10000)
    qtbot.waitUntil(lambda: old_id not in window.list_pane.model.ids(), timeout=10000)
    qtbot.wait(1200)  # the change watcher's looks and the list's refresh have all landed
    assert window.list_pane.selected_id() == head.id
    assert window.detail_pane.node_id == head.id
    qtbot.waitUntil(lambda: window.detail_pane.node is not None)
    assert window.detail_pane.node.id == head.id


def test_a_memory_deleted_elsewhere_while_shown_leaves_nothing_selected(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    """Another program deletes the memory the user is looking at: its row leaves the list
    and the pane empties. The row the cursor fell on was selected and shown instead, so
    Enter or Del then acted on a memory the user never picked."""
    shown = demo.node_ids["some_coriander"]
    _select(qtbot, window, shown)
    ids = window.list_pane.model.ids()
    assert ids.index(shown) < len(ids) - 1  # rows below it: one would take its place
    window.runner.memory.actions.delete(shown, "hard", reason="elsewhere")
    qtbot.waitUntil(lambda: shown not in window.list_pane.model.ids(), timeout=5000)
    qtbot.waitUntil(lambda: window.runner.pending_tasks == 0, timeout=5000)
    assert window.list_pane.selected_id() is None
    assert window.detail_pane.node_id is None


def test_undo_of_an_edit_whose_memory_was_then_deleted_permanently_says_why(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """Edit, then delete permanently (here or with the CLI), then Ctrl+Z: the undo said
    "Undoing: Not found: no memory mem_…" as an error; it is a plain note now."""
    old_id = demo.node_ids["no_scallion"]

    def edit(dialog: QDialog) -> bool:
        dialog.title_edit.setText("用户不吃大葱")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    wait_task(qtbot, window.edit_memory(old_id))
    mem = window.runner.memory
    head = mem.head_of(old_id)
    qtbot.waitUntil(lambda: window.list_pane.selected_id() == head.id, timeout=5000)
    qtbot.waitUntil(lambda: window.detail_pane.node is not None)
    qtbot.waitUntil(lambda: window.detail_pane.node.id == head.id)
    qtbot.waitUntil(lambda: window.runner.pending_tasks == 0, timeout=5000)
    mem.actions.delete(head.id, "hard", reason="test")  # elsewhere
    qtbot.waitUntil(lambda: window.detail_pane.node_id is None, timeout=5000)
    notes: list[str] = []
    window.actions.message.connect(notes.append)
    task = window.undo()
    wait_task(qtbot, task)
    assert task.result() is False
    assert notes == ["Not undone: the memory has been deleted permanently since."]
    assert window.status.error.text() == ""


def test_the_value_editor_is_as_tall_as_the_editor_it_shows(qtbot: Any) -> None:
    """A one-line text value stood alone in a box as tall as the field table (the stack
    took its tallest page's height); each shape now takes its own."""
    from ekko_memory_gui.views.dialogs.value_editor import ValueEditor

    editor = ValueEditor()
    qtbot.addWidget(editor)
    editor.set_shape("string", "葱")
    text_height = editor.stack.sizeHint().height()
    assert text_height <= editor.text.sizeHint().height() + 12
    editor.set_shape("object", {"ingredient": "香菜"})
    assert editor.stack.sizeHint().height() >= editor.table.minimumHeight()
    editor.set_shape("string", "葱")
    assert editor.stack.sizeHint().height() == text_height
    assert editor.value() == "葱"


def test_the_hard_delete_dialog_dates_each_version_when_it_was_written(qtbot: Any) -> None:
    """Superseding a version touches its updated_at: every version of a chain edited today
    read "today" in the list of what goes; the timeline (and now the dialog) date each
    version by when it was written."""
    from ekko_memory import MemoryNode

    written = datetime(2025, 3, 1, 8, 0, tzinfo=UTC)
    now = datetime.now(UTC)
    common = {
        "scope": "user",
        "domain": "生活技能",
        "type": "preference",
        "category_path": ["生活技能"],
        "confidence": 0.9,
        "importance": 0.5,
        "value_json": "香菜",
    }
    old = MemoryNode(
        id="mem_old",
        title="用户不吃香菜",
        status="superseded",
        created_at=written,
        updated_at=now,
        **common,
    )
    head = MemoryNode(
        id="mem_new",
        title="用户可接受少量香菜",
        supersedes_id="mem_old",
        created_at=now,
        updated_at=now,
        **common,
    )
    dialog = HardDeleteDialog([old, head])
    qtbot.addWidget(dialog)
    what = dialog.findChild(QLabel, "hardDeleteWhat")
    assert what is not None and "2025-03-01  用户不吃香菜" in what.text()


def test_del_on_an_earlier_version_leaves_it_in_the_history(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    """With Including history, Del (or the detail pane's Delete) on a superseded version
    turned it alone into a deleted one: "Ctrl+Z brings it back" was wrong (the undo failed
    with "a newer version exists"), and the trash could not restore it either."""
    old_id = demo.node_ids["no_coriander"]
    mem = window.runner.memory
    window.status_combo.setCurrentIndex(1)
    qtbot.waitUntil(lambda: old_id in window.list_pane.model.ids(), timeout=10000)
    _select(qtbot, window, old_id)
    assert not window.detail_pane.delete_button.isVisibleTo(window.detail_pane)
    notes: list[str] = []
    window.actions.message.connect(notes.append)
    window.list_pane.table.setFocus()
    qtbot.keyClick(window.list_pane.table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: bool(notes), timeout=5000)
    assert notes == [
        "This is an earlier version of “用户可接受少量香菜”: select its current version to "
        "move the memory to the trash."
    ]
    assert mem.get_node(old_id).status == "superseded"  # type: ignore[union-attr]
    assert not window.undo_action.isEnabled()


def test_tab_walks_through_the_form(qtbot: Any, window: MainWindow, demo: DemoReport) -> None:
    """Tab from the title goes field by field; in the content it typed tab characters into
    the memory and the keyboard never left."""
    from ekko_memory_gui.views.dialogs.value_editor import ValueEditor

    node = window.runner.memory.get_node(demo.node_ids["light_taste"])
    assert node is not None
    dialog = MemoryEditDialog(window.runner.memory.registry.rules, mode="edit", node=node.to_json())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    dialog.title_edit.setFocus()
    qtbot.waitUntil(lambda: dialog.title_edit.hasFocus())
    seen = []
    for _ in range(3):
        seen.append(QApplication.focusWidget().objectName())
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert seen == ["titleEdit", "contentEdit", "domainCombo"], seen
    assert "\t" not in dialog.content_edit.toPlainText()
    editor = ValueEditor()
    qtbot.addWidget(editor)
    assert editor.json.tabChangesFocus()


def test_enter_del_and_shift_del_on_a_global_memory_say_it_is_read_only(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    """Enter on a global row opened the edit form with its scope showing "session", and
    Save said "a session-scope memory needs a session"; Shift+Del did nothing at all."""
    model = window.list_pane.model
    window.builtin_action.trigger()  # View ▸ Show built-in memories
    qtbot.waitUntil(lambda: any(model.row_at(r).scope == "global" for r in range(model.rowCount())))  # type: ignore[union-attr]
    global_id = next(i for i in model.ids() if model.row_at(model.row_of(i)).scope == "global")
    _select(qtbot, window, global_id)
    table = window.list_pane.table
    table.setFocus()
    for key, modifier in (
        (Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Delete, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Delete, Qt.KeyboardModifier.ShiftModifier),
    ):
        before = len(dialogs.errors)
        qtbot.keyClick(table, key, modifier)
        qtbot.waitUntil(lambda before=before: len(dialogs.errors) == before + 1, timeout=5000)
    assert [text for _, text in dialogs.errors] == [
        "Global memories ship with the app and are read-only."
    ] * 3
    assert [title for title, _ in dialogs.errors] == [
        "Edit memory",
        "Delete",
        "Delete permanently",
    ]
    assert dialogs.dialogs == []  # no form, no delete dialog opened


def test_enter_on_an_earlier_or_deleted_version_says_what_to_do_instead(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """Enter opened the form on a superseded version (Including history) or a memory in the
    trash; Save was then refused — for an earlier version with "changed meanwhile", as if
    another program had written."""
    notes: list[str] = []
    window.actions.message.connect(notes.append)
    mem = window.runner.memory
    old_id = demo.node_ids["no_coriander"]
    wait_task(qtbot, window.edit_memory(old_id))
    trashed = demo.node_ids["recipe_eggs"]
    mem.actions.delete(trashed, "soft")
    wait_task(qtbot, window.edit_memory(trashed))
    assert notes == [
        "This is an earlier version of “用户可接受少量香菜”: edit its current version, or use "
        "Revert to this.",
        "“番茄炒蛋” is in the trash: restore it first.",
    ]
    assert dialogs.dialogs == []


def test_enter_or_del_on_a_memory_deleted_elsewhere_a_moment_ago_says_so(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    node_id = demo.node_ids["framework"]
    window.runner.memory.actions.delete(node_id, "hard", reason="by the CLI")
    notes: list[str] = []
    window.actions.message.connect(notes.append)
    wait_task(qtbot, window.edit_memory(node_id))
    wait_task(qtbot, window.delete_memory(node_id))
    assert notes == ["This memory no longer exists: it was deleted permanently."] * 2
    assert dialogs.dialogs == [] and window.status.error.text() == ""


def test_a_new_memory_starts_with_a_key_where_the_schema_requires_one(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    """The key defaulted to "(no key)" where the schema's rule has keys, and only Save said
    a key was needed. Now the rule's first key is chosen (the value editor and the category
    follow it), and the empty choice reads "(choose a key)"; a domain without a rule still
    starts without a key."""
    registry = window.runner.memory.registry
    seen: list[tuple[str | None, str, str | None]] = []

    def look(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.domain_combo.setCurrentText("生活技能")
        dialog.type_combo.setCurrentIndex(dialog.type_combo.findData("preference"))
        seen.append((dialog.key(), dialog.key_combo.itemText(0), dialog.problem()))
        dialog.domain_combo.setCurrentText("项目")
        dialog.path_edit.clear()
        dialog.type_combo.setCurrentIndex(dialog.type_combo.findData("decision"))
        seen.append((dialog.key(), dialog.key_combo.itemText(0), None))
        dialog.domain_combo.setCurrentText("测试")  # no rule: no key needed
        seen.append((dialog.key(), dialog.key_combo.itemText(0), None))
        return False

    dialogs.handlers.extend([more_fields, look])
    window.new_action.trigger()  # Ctrl+N
    qtbot.waitUntil(lambda: len(seen) == 3, timeout=10000)
    cooking = registry.rule_for("生活技能", "preference")
    project = registry.rule_for("项目", "decision")
    assert cooking is not None and project is not None
    first = cooking.allowed_keys[0]
    assert seen[0][:2] == (first, "(choose a key)")
    assert seen[0][2] is not None and "Choose a key" not in seen[0][2]
    assert seen[1][:2] == (project.allowed_keys[0], "(choose a key)")
    assert seen[2][:2] == (None, "(no key)")
