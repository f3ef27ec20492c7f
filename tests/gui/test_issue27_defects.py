"""The defects issue 27 lists, each reproduced on the demo workspace in a real window
(offscreen), in English and in Chinese where text is involved."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QStyleOptionButton

from ekko_memory.demo import DemoReport
from ekko_memory_gui.models.category_tree_model import KIND_ALL, KIND_DOMAIN
from ekko_memory_gui.models.roles import KIND_ROLE
from ekko_memory_gui.qt import (
    QApplication,
    QCheckBox,
    QColor,
    QDialog,
    QLabel,
    QPalette,
    QStyle,
    Qt,
    QWidget,
)
from ekko_memory_gui.services.theme import apply_theme
from ekko_memory_gui.views.dialogs.export_dialog import ExportDialog
from ekko_memory_gui.views.dialogs.hard_delete_dialog import HardDeleteDialog
from ekko_memory_gui.views.dialogs.import_dialog import ImportDialog
from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog
from ekko_memory_gui.views.main_window import MainWindow
from ekko_memory_gui.views.search_hint import room
from tests.gui.conftest import ScriptedDialogService, titles, type_text, wait_task
from tests.gui.languages import language, pick

__all__ = ["language"]  # the fixture, used by name

ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


def _show(qtbot: Any, window: MainWindow, node_id: str) -> None:
    window.list_pane.select_id(node_id)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == node_id)
    qtbot.waitUntil(lambda: detail.history is not None and detail.history.node_id == node_id)


def test_editing_a_memory_keeps_its_used_in(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """The new version of an edit had no uses of its own: "Used in" said "Not used in a
    reply yet" and lost its reply links, though the memory fed those replies."""
    old_id = demo.node_ids["some_coriander"]
    _show(qtbot, window, old_id)
    detail = window.detail_pane
    before = detail.usage.text()
    replies = [m.id for m in detail.replies]
    assert before.startswith("Used in ") and replies

    def edit(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.title_edit.setText("用户可以吃一点香菜")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    wait_task(qtbot, window.edit_memory(old_id))
    mem = window.runner.memory
    head = mem.head_of(old_id)
    assert head.id != old_id
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == head.id)
    qtbot.waitUntil(lambda: detail.history is not None and detail.history.node_id == head.id)
    assert detail.usage.text() == before
    assert [m.id for m in detail.replies] == replies
    assert detail.findChildren(QWidget, "replyLink")


def test_approve_all_shown_says_what_each_item_does(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    """Of the demo's four waiting items one deletes: the confirmation said "Approving these
    4 items deletes for good", and nothing of the phone number it would save."""
    window.show_inbox()
    inbox = window.inbox_view
    qtbot.waitUntil(lambda: len(inbox.cards) == 4)
    seen: list[str] = []

    def look(dialog: QDialog) -> bool:
        assert isinstance(dialog, HardDeleteDialog)
        seen.append(dialog.findChild(QLabel, "hardDeleteWhat").text())
        return False

    dialogs.handlers.append(look)
    inbox.approve_shown.click()
    qtbot.waitUntil(lambda: bool(seen))
    text = seen[0]
    if language == "en":
        assert "Approving these 4 items deletes for good" not in text
        assert "You approve 4 items; 1 of them delete for good" in text
        assert "3 of them save or change a memory." in text
        assert "1 of them holds sensitive personal data (phone number" in text
        assert "approving saves it in your memory" in text
    else:
        assert "你要批准 4 项；其中 1 项会永久删除" in text
        assert "其中 3 项会保存或修改记忆。" in text
        assert "其中 1 项含有敏感个人信息（" in text and "批准后会保存到你的记忆里" in text
    # Nothing was decided: the dialog was cancelled.
    assert len(window.runner.memory.pending()) == 4


def test_a_batch_without_a_deletion_names_the_sensitive_data(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    window.show_inbox()
    inbox = window.inbox_view
    qtbot.waitUntil(lambda: len(inbox.cards) == 4)
    writes = [e.item.id for e in inbox.entries if e.item.kind == "write"]
    wait_task(qtbot, inbox._batch(writes, True))
    _title, text = dialogs.asked[-1]
    assert "Approve 3 items?" in text
    assert "3 of them save or change a memory." in text
    assert "sensitive personal data (phone number" in text
    assert len(window.runner.memory.pending()) == 4  # the scripted answer was no


def _search(qtbot: Any, window: MainWindow, text: str) -> None:
    type_text(window.search_field, text)
    wait_task(qtbot, window.apply_filter())
    qtbot.waitUntil(lambda: not window.list_pane.model.loading)


def test_search_finds_what_the_list_shows_and_says_why(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    """The list shows 用户口味偏清淡's value as "oil: low · salt: low"; searching "salt"
    found nothing (values are not in the core's index), and no row said why it matched."""
    _search(qtbot, window, "salt")
    shown = titles(window)
    assert "用户口味偏清淡（少油少盐）" in shown
    model = window.list_pane.table.model()
    row = shown.index("用户口味偏清淡（少油少盐）")
    tip = model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.endswith(pick(language, en="Found in: value", zh="匹配位置：值")), tip
    # The list says that value as a sentence: its words find the memory too.
    said = pick(language, en="Less oil, less salt", zh="少油少盐")
    assert model.index(row, 0).data() == said
    window.search_field.clear()
    _search(qtbot, window, pick(language, en="less salt", zh="少盐"))
    shown = titles(window)
    assert "用户口味偏清淡（少油少盐）" in shown
    row = shown.index("用户口味偏清淡（少油少盐）")
    why = model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole).splitlines()[-1]
    # (In Chinese the title and the content hold "少盐" as well.)
    assert why == pick(language, en="Found in: value", zh="匹配位置：标题、内容、值"), why
    # A title match says so too.
    window.search_field.clear()
    _search(qtbot, window, "香菜")
    shown = titles(window)
    row = shown.index("用户可接受少量香菜")
    tip = model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert pick(language, en="Found in: title", zh="匹配位置：标题") in tip


def test_a_value_written_meanwhile_is_found(qtbot: Any, window: MainWindow) -> None:
    """What the search read of the values is read again once the stores change."""
    _search(qtbot, window, "pepper")
    assert titles(window) == []
    mem = window.runner.memory
    out = mem.actions.create(
        {
            "title": "少放胡椒",
            "content": "做菜少放胡椒。",
            "domain": "生活技能",
            "type": "preference",
            "categoryPath": ["生活技能", "做饭", "饮食偏好"],
            "valueJson": {"pepper": "low"},
        }
    )
    assert out.accepted
    window.search_field.clear()
    wait_task(qtbot, window.apply_filter())
    _search(qtbot, window, "pepper")
    assert titles(window) == ["少放胡椒"]
    model = window.list_pane.table.model()
    why = model.index(0, 0).data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert why == "Found in: value"


def _bundle(qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, path: Path) -> None:
    async def export(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.set_format("json")
        dialog.path_edit.setText(str(path))
        await dialog.start()
        return True

    dialogs.handlers.append(export)
    wait_task(qtbot, window.export_memories())


def test_the_import_report_and_its_progress_read_as_words(
    qtbot: Any,
    language: str,
    window: MainWindow,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    """After an import the bar stood at 100% beside "Importing"; the table named tables
    (`nodes`, `summaries`) under "记录" (read as "record (a time)") and showed one row; a
    file that is no bundle was reported again in the status line, cut to "Importing:
    invalid…"."""
    bundle = tmp_path / "all.json"
    _bundle(qtbot, window, dialogs, bundle)
    (tmp_path / "garbage.json").write_text("garbage", encoding="utf-8")
    seen: dict[str, Any] = {}

    async def run(dialog: QDialog) -> bool:
        assert isinstance(dialog, ImportDialog)
        dialog.show()
        dialog.path_edit.setText(str(tmp_path / "garbage.json"))
        await dialog.start()
        seen["bad"] = dialog.summary.text()
        dialog.path_edit.setText(str(bundle))
        await dialog.start()
        table = dialog.table
        seen["label"] = dialog.progress.label.text()
        seen["bar"] = dialog.progress.bar.isVisible()
        seen["rows"] = [table.item(r, 0).text() for r in range(table.rowCount())]
        seen["header"] = table.horizontalHeaderItem(0).text()
        header = table.horizontalHeader().height()
        seen["room"] = table.minimumHeight() - header
        seen["needed"] = sum(table.rowHeight(r) for r in range(table.rowCount()))
        return True

    dialogs.handlers.append(run)
    wait_task(qtbot, window.import_bundle(), timeout=60000)
    assert seen["bad"].startswith(pick(language, en="Nothing was imported", zh="没有导入任何内容"))
    assert window.status.error.text() == ""  # said once, in the dialog
    assert seen["label"] == pick(language, en="Done", zh="已完成") and not seen["bar"]
    rows = seen["rows"]
    assert len(rows) >= 3
    assert not {"nodes", "audit", "messages", "summaries", "usage"} & set(rows)
    assert pick(language, en="Memories (every version)", zh="记忆（含所有版本）") in rows
    assert seen["header"] == pick(language, en="What", zh="内容")
    assert seen["room"] >= seen["needed"]  # every row shows


def test_the_markdown_export_speaks_the_ui_language(
    qtbot: Any,
    language: str,
    window: MainWindow,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    path = tmp_path / "memories.md"

    async def export(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.set_format("md")
        dialog.path_edit.setText(str(path))
        await dialog.start()
        return True

    dialogs.handlers.append(export)
    wait_task(qtbot, window.export_memories())
    text = path.read_text(encoding="utf-8")
    assert "用户可接受少量香菜" in text and "用户不吃香菜" in text  # every version
    assert path.stat().st_mode & 0o077 == 0  # readable only by its owner
    if language == "en":
        assert text.startswith("# Ekko Memory export")
        assert "preference · user · confidence 0.95" in text
    else:
        assert text.startswith("# Ekko Memory 导出")
        assert "偏好 · 用户 · 置信度 0.95" in text
        # No English word of the file's own: what is left is the memories' own text
        # (English titles of the demo's project memories, keys, ids).
        own = "\n".join(
            line
            for line in text.splitlines()
            if not line.startswith(("### ", "> ", "- **", "- id ", "## "))
        )
        for word in ("confidence", "importance", "updated", "expires", "scope", "Exported"):
            assert word not in own, word


def test_the_edit_form_fits_the_screen_without_overlapping_fields(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """The form was taller than a 700-pixel screen; squeezed to it, the value box lay over
    the content line."""
    seen: dict[str, Any] = {}

    def look(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.show()
        dialog.layout().activate()
        free = dialog.screen().availableGeometry()
        seen["fits"] = dialog.height() <= free.height() and dialog.width() <= free.width()
        box = dialog.form_scroll.widget()
        tops = []
        for w in (dialog.title_edit, dialog.content_edit, dialog.key_combo, dialog.value_editor):
            top = w.mapTo(box, w.rect().topLeft()).y()
            tops.append((top, top + w.height()))
        seen["tops"] = tops
        return False

    dialogs.handlers.append(look)
    wait_task(qtbot, window.edit_memory(demo.node_ids["some_coriander"]))
    assert seen["fits"]
    spans = seen["tops"]
    for (_, bottom), (top, _) in itertools.pairwise(spans):
        assert bottom <= top, spans


def test_the_audit_columns_show_their_words_whole(
    qtbot: Any, language: str, window: MainWindow, demo: DemoReport
) -> None:
    """The event column read "已…" for 已被取代 (superseded)."""
    window.resize(1024, 700)
    _show(qtbot, window, demo.node_ids["some_coriander"])
    audit = window.detail_pane.audit
    model = audit.model()
    assert model.rowCount() >= 2
    metrics = audit.fontMetrics()
    for col in (0, 1, 2):
        for row in range(model.rowCount()):
            text = str(model.index(row, col).data())
            assert metrics.horizontalAdvance(text) + 6 <= audit.columnWidth(col), (col, text)


def test_the_purge_dialog_opens_within_the_screen(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    """It opened 1140 pixels wide: past the edge of a 1024-pixel screen."""
    seen: list[tuple[int, int]] = []

    def look(dialog: QDialog) -> bool:
        dialog.show()
        free = dialog.screen().availableGeometry()
        seen.append((dialog.width(), free.width()))
        return False

    dialogs.handlers.append(look)
    wait_task(qtbot, window.purge())
    width, free = seen[0]
    assert width <= min(free, 1024)


def _indicator_contrast(box: QCheckBox) -> int:
    """How far the unticked box's drawn outline stands from the window behind it (the
    largest lightness difference of a pixel of the indicator from the window's colour)."""
    box.ensurePolished()
    image = box.grab().toImage()
    option = QStyleOptionButton()
    option.initFrom(box)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    window = QApplication.palette().color(QPalette.ColorRole.Window).lightness()
    ratio = image.width() / max(1, box.width())
    best = 0
    for x in range(int(rect.left() * ratio), int(rect.right() * ratio) + 1):
        for y in range(int(rect.top() * ratio), int(rect.bottom() * ratio) + 1):
            best = max(best, abs(QColor(image.pixel(x, y)).lightness() - window))
    return best


def test_unticked_checkboxes_are_visible_in_dark_mode(qtbot: Any, qapp: QApplication) -> None:
    try:
        apply_theme(qapp, "dark")
        box = QCheckBox("Also the messages")
        qtbot.addWidget(box)
        box.show()
        qtbot.waitExposed(box)
        assert not box.isChecked()
        assert _indicator_contrast(box) >= 60
        box.setChecked(True)  # ticked: a filled box with its mark, as visible
        assert _indicator_contrast(box) >= 60
    finally:
        apply_theme(qapp, "light")


def test_the_search_hint_is_whole_at_1024_by_700(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    window.resize(1024, 700)
    field = window.search_field
    qtbot.waitUntil(lambda: field.width() < 400)
    hint = field.placeholderText()
    assert hint and field.fontMetrics().horizontalAdvance(hint) <= room(field)
    assert hint.startswith(pick(language, en="Search memories", zh="搜索记忆"))
    # A wide window shows the whole hint again.
    window.resize(1600, 900)
    qtbot.waitUntil(lambda: "Ctrl+F" in field.placeholderText())


def test_including_history_counts_agree_with_the_list(qtbot: Any, window: MainWindow) -> None:
    """With "Including history" the tree showed the active count (15) beside a list of
    every version ("20 memories")."""
    window.status_combo.setCurrentIndex(1)
    pane = window.category_pane
    qtbot.waitUntil(lambda: not pane.loading)
    model = pane.model
    top = [model.index(r, 0) for r in range(model.rowCount())]
    every = next(i for i in top if i.data(KIND_ROLE) == KIND_ALL)
    # By its key: the tree shows a built-in domain's name in the UI's language ("Project").
    domain = model.index_for_key("domain/项目")
    assert domain.isValid() and domain.data(KIND_ROLE) == KIND_DOMAIN
    for branch in (every, domain):
        pane.tree.setCurrentIndex(branch)
        count = branch.siblingAtColumn(1)
        qtbot.waitUntil(lambda: not window.list_pane.model.loading)
        qtbot.waitUntil(
            lambda c=count: window.list_pane.count_label.text() == f"{c.data()} memories"
        )
        assert window.list_pane.model.rowCount() == int(count.data())


def test_a_cancelled_markdown_export_leaves_no_file(
    qtbot: Any, window: MainWindow, tmp_path: Path
) -> None:
    from ekko_memory import CancelToken
    from ekko_memory_gui.operations.markdown_export import export_markdown
    from ekko_memory_gui.views.markdown_words import markdown_words
    from tests.gui.conftest import run

    token = CancelToken()
    token.cancel()
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "never.md"
    report = run(qtbot, export_markdown(window.controller, target, markdown_words(), cancel=token))
    assert report.cancelled and report.path is None and not target.exists()
    assert not list(folder.iterdir())  # no part file either
