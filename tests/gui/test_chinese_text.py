"""What the core says in English reaches the Chinese UI in Chinese where the core gives a
code: why an inbox item waits (``PendingItem.rule``, with the kinds of sensitive data),
errors (``EkkoMemoryError.code`` and the common messages), refused writes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import Conflict, ImportReport, InvalidInput, NotFound
from ekko_memory.demo import DemoReport
from ekko_memory.models.reasons import read_stored_reason
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import QApplication, QDialog, QLabel, QLocale, QTranslator
from ekko_memory_gui.services.translation import install_translation, remove_translation
from ekko_memory_gui.views.dialogs.compact_dialog import CompactDialog
from ekko_memory_gui.views.dialogs.export_dialog import ExportDialog
from ekko_memory_gui.views.dialogs.import_dialog import ImportDialog
from ekko_memory_gui.views.dialogs.purge_dialog import PurgeDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import (
    ScriptedDialogService,
    detail_at_1000_px,
    save_edit_and_read_error,
    wait_done,
    wait_task,
)

# English words of the core's reasons (permissions.RULE_TEXT) and sensitive kinds.
CORE_ENGLISH = re.compile(
    r"long-term|did not ask|sensitive|overwrite|high-confidence|hard delete|phone|health|"
    r"removes the memory|for good"
)


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    """The zh_CN catalog for one test (English again afterwards)."""
    loaded = install_translation(qapp, "zh_CN")
    labels.reset()
    yield
    remove_translation(qapp, loaded)
    for t in qapp.findChildren(QTranslator):
        qapp.removeTranslator(t)
    QLocale.setDefault(QLocale("en_US"))
    labels.reset()


def test_the_chinese_inbox_says_why_each_item_waits_in_chinese(
    qtbot: Any, chinese: None, window: MainWindow
) -> None:
    window.show_inbox()
    inbox = window.inbox_view
    qtbot.waitUntil(lambda: len(inbox.entries) == 4)
    why = {}
    for entry in inbox.entries:
        card = inbox.card(entry.item.id)
        assert card is not None
        label = card.findChild(QLabel, "cardWhy")
        assert label is not None
        why[entry.item.rule] = label.text()
    for rule, text in why.items():
        assert text.startswith("等待原因："), text
        assert not CORE_ENGLISH.search(text), (rule, text)
    assert "你没有要求记住" in why["user_scope_without_intent"]
    assert "高置信度" in why["overwrite_high_confidence"]
    assert "永久删除" in why["hard_delete"]
    # The kinds of sensitive data the core found, translated, after the sentence.
    assert "敏感个人信息（" in why["sensitive_data"]
    assert "手机号" in why["sensitive_data"] and "电话" in why["sensitive_data"]


def test_errors_and_refusals_in_chinese(qtbot: Any, chinese: None, window: MainWindow) -> None:
    assert (
        labels.error_text(
            Conflict("pending item pnd_1 is already approved").because(
                "pending.already_decided", id="pnd_1", status="approved"
            )
        )
        == "已被更改：待确认项 pnd_1 已是“已批准”状态"
    )
    current = InvalidInput("this is already the current version").because("node.already_current")
    assert labels.error_text(current) == ("无效：这已经是当前版本")
    # An uncommon message keeps the core's words after the translated kind.
    assert labels.error_text(NotFound("no memory 'mem_x'")) == "未找到：no memory 'mem_x'"
    assert (
        labels.outcome_text(
            "rejected", "global_scope", "global memories are read-only; nothing was written"
        )
        == "全局记忆随应用提供，只读；没有写入任何内容"
    )
    assert labels.outcome_text(
        "duplicate",
        None,
        "already remembered; nothing new was written",
        code="write.already_remembered",
    ) == ("已经记住了，没有写入新内容")
    # Errors reported through the runner reach the status line in Chinese.
    meanwhile = Conflict("pending item pnd_1 was decided meanwhile").because(
        "pending.decided_meanwhile", id="pnd_1"
    )
    window.runner.report("批准", meanwhile)
    assert window.status.error.text() == "批准: 已被更改：待确认项 pnd_1 已被（其他人）处理"


def test_a_form_refused_under_another_programs_lock_says_so_in_chinese_once(
    qtbot: Any,
    chinese: None,
    controller: Any,
    demo: Any,
    dialogs: ScriptedDialogService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Saving while another program holds the store's lock: the form said "存储不可用：memory
    store at … stayed locked by another process; nothing was written, try again；没有写入任何
    内容" — English in the middle, and "nothing was written" twice."""
    import sqlite3

    from ekko_memory.store import sqlite_dialect
    from tests.gui.conftest import open_window

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    shown = save_edit_and_read_error(dialogs, "用户口味偏清淡")
    holder = sqlite3.connect(demo.user_home / "memory.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        wait_task(qtbot, window.edit_memory(demo.node_ids["light_taste"]), timeout=20000)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        window.replace()
    path = str(demo.user_home / "memory.db")
    assert shown == [f"存储不可用：另一个程序一直锁着存储 {path}；没有写入任何内容，请重试"]
    # The status line words a failed action the same way.
    err = labels.error_text(
        _store_unavailable(
            path,
            "stayed locked by another process",
            "store.locked",
        )
    )
    assert err == shown[0]
    unreachable = labels.error_text(
        _store_unavailable(
            "db.example.org/ekko",
            "cannot be reached (timeout)",
            "store.unreachable",
            detail="timeout",
        )
    )
    assert unreachable == (
        "存储不可用：无法访问存储 db.example.org/ekko（timeout）；没有写入任何内容，请重试"
    )


def _store_unavailable(location: str, what: str, code: str, **params: str) -> Exception:
    """A StoreUnavailable as the store words it: a refusal that wrote nothing and may
    work when tried again, with its reason code."""
    from ekko_memory import StoreUnavailable

    return (
        StoreUnavailable(f"memory store at {location} {what}")
        .unwritten(retry=True)
        .because(code, path=location, **params)
    )


def test_the_reasons_of_the_users_own_changes_read_in_chinese(
    qtbot: Any, chinese: None, window: MainWindow, demo: Any
) -> None:
    """The timeline and the audit table of a memory the user edited and reverted showed
    the core's "edited by the user" and "reverted to the version of 2026-11-23 12:35 (…)" —
    English, and the time was when that version was superseded, not when it was written."""
    from datetime import timedelta

    from ekko_memory_gui.views.supersede_chain_view import version_entries

    mem = window.runner.memory
    first = demo.node_ids["no_scallion"]
    edited = mem.actions.edit(first, {"title": "用户不吃大葱"}).node_id
    assert edited is not None
    real_clock = mem.clock
    mem.clock = lambda: real_clock() + timedelta(days=3)  # superseded three days later
    try:
        mem.actions.edit(edited, {"title": "用户不吃小葱"})
        reverted = mem.actions.revert(edited).node_id
    finally:
        mem.clock = real_clock
    assert reverted is not None
    history = mem.history(reverted)
    entries = version_entries(history.chain, history.audit, reverted)
    written = labels.local(mem.get_node(edited).created_at).strftime("%Y-%m-%d %H:%M")
    assert entries[0].reason == f"回退到 {written} 的版本"  # a date, never an id
    assert entries[1].reason == entries[2].reason == "由你编辑"
    window.detail_pane.show_node(reverted)
    qtbot.waitUntil(lambda: window.detail_pane.node is not None)
    qtbot.waitUntil(lambda: window.detail_pane.node.id == reverted)
    model = window.detail_pane.audit_model
    reasons = {model.index(r, 3).data() for r in range(model.rowCount())}
    assert "由你编辑" in reasons and f"回退到 {written} 的版本" in reasons
    # A reason someone typed has no code: shown as written.
    assert read_stored_reason("用户更正：香菜可以接受少量") == (None, {})
    assert (
        labels.reason_label(None, {}, "用户更正：香菜可以接受少量") == "用户更正：香菜可以接受少量"
    )
    # The ids the memory is bound to are named in Chinese too (they read "user u-demo").
    assert window.detail_pane.ids.toPlainText().splitlines()[1:] == ["用户 u-demo"]


def test_an_unknown_rule_shows_the_core_text() -> None:
    assert labels.why_text("new_rule", "a reason the app does not know") == (
        "a reason the app does not know"
    )
    # The kinds come from the item's params (PendingItem.reason_params), not its English.
    assert labels.why_text(
        "sensitive_data",
        "sensitive personal data (phone number, iris scan)",
        {"kinds": "phone number, iris scan"},
    ) == ("it holds sensitive personal data (phone number, iris scan)")


def test_compacting_and_a_cancelled_import_speak_chinese(
    qtbot: Any, chinese: None, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    seen: list[str] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, CompactDialog)
        seen.append(dialog.windowTitle())
        seen.append(dialog.progress.stage_text("compact:user"))
        await dialog.start()
        seen.append(dialog.summary.text())
        seen.append(dialog.result_view.toPlainText())
        return True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.compact_stores(), timeout=60000)
    title, stage, summary, text = seen
    assert window.compact_action.text() == "压缩存储…"
    assert (title, stage) == ("压缩存储", "正在压缩用户存储")
    assert summary.startswith("已释放 ")
    assert text.startswith("工作区存储 — ") and "全部文件：" in text and "释放" in text

    dialog = ImportDialog(window.controller, parent=window)
    partly = ImportReport(
        path="b.json",
        bundle_version=1,
        cancelled=True,
        committed_stores=["workspace"],
        cancelled_stores=["user"],
    )
    assert dialog.cancel_text(partly).startswith("已取消：工作区存储已导入；用户存储没有导入")
    dialog.deleteLater()


def test_a_file_import_cannot_read_is_explained_in_chinese(
    qtbot: Any, chinese: None, window: MainWindow, dialogs: ScriptedDialogService, tmp_path: Path
) -> None:
    """Import of a file that is not a bundle said so in the core's English; a path with no
    file asked to "choose a bundle file first" as if none had been given."""
    (tmp_path / "garbage.json").write_text("garbage", encoding="utf-8")
    (tmp_path / "other.json").write_text('{"not": "a bundle"}', encoding="utf-8")
    seen: list[str] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ImportDialog)
        for name in ("garbage.json", "other.json", "missing.json"):
            dialog.path_edit.setText(str(tmp_path / name))
            try:
                await dialog.start()
            except InvalidInput:
                pass
            seen.append(dialog.summary.text())
        return False

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.import_bundle())
    garbage, other, missing = seen
    assert garbage == (
        f"没有导入任何内容：无效：{tmp_path / 'garbage.json'} 不是有效的 JSON"
        "（line 1, column 1: Expecting value）"
    )
    assert other == (
        f"没有导入任何内容：无效：{tmp_path / 'other.json'} 不是 Ekko Memory 数据包；"
        "只能导入“导出”写出的 JSON 数据包"
    )
    assert missing == f"{tmp_path / 'missing.json'} 处没有文件。"


def test_export_and_purge_results_speak_chinese(
    qtbot: Any,
    chinese: None,
    window: MainWindow,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    seen: dict[str, Any] = {}

    async def export(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.path_edit.setText(str(tmp_path / "b.json"))
        await dialog.start()
        seen["done"] = dialog.result_label.text()
        dialog.path_edit.setText(str(tmp_path / "no" / "such" / "b.json"))
        with pytest.raises(InvalidInput):
            await dialog.start()
        seen["failed"] = dialog.result_label.text()
        return True

    dialogs.handlers.append(export)
    wait_task(qtbot, window.export_memories())
    assert seen["done"].startswith("已导出 ") and "个记忆版本" in seen["done"]
    assert not re.search(r"\d+ (nodes|audit|messages|summaries|pending|usage)", seen["done"])
    assert seen["failed"].startswith("导出失败：") and "文件夹 " in seen["failed"]
    assert "does not exist" not in seen["failed"]

    async def purge(dialog: QDialog) -> bool:
        assert isinstance(dialog, PurgeDialog)
        dialog.query_edit.setText("香菜")
        await dialog.start_dry_run()
        table = dialog.targets
        seen["kinds"] = {table.item(r, 0).text() for r in range(table.rowCount())}
        seen["what"] = [table.item(r, 4).text() for r in range(table.rowCount())]
        seen["counts"] = dialog.counts_label.text()
        return False

    dialogs.handlers.append(purge)
    wait_task(qtbot, window.purge())
    assert "记忆版本" in seen["kinds"] and "审计记录" in seen["kinds"]
    assert not any(k.startswith(("个", "条", "份")) for k in seen["kinds"])  # names, not counts
    assert not any(re.search(r"\((active|superseded|expired|deleted)\)", w) for w in seen["what"])
    assert any(w.endswith("(已被取代)") or w.endswith("(有效)") for w in seen["what"]), seen
    assert re.search(r"\d+ 个记忆版本", seen["counts"])


def test_the_status_line_says_unavailable_once_during_an_outage_in_chinese(
    qtbot: Any, chinese: None, controller: Any, demo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program holds the user store's lock while the user deletes a memory: the
    status line read "存储无法访问：存储不可用：另一个程序一直锁着存储 …；没有写入任何内容，请重试。
    按 F5 重试。" — "unavailable" twice, and "try again" twice."""
    import sqlite3

    from ekko_memory.store import sqlite_dialect
    from tests.gui.conftest import open_window

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    # Read the line as the outage sets it (the watcher's next read clears it again).
    lines: list[str] = []
    window.runner.unavailable.connect(lambda _reason: lines.append(window.status.text.text()))
    holder = sqlite3.connect(demo.user_home / "memory.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the other program's write transaction
    try:
        task = window.delete_memory(demo.node_ids["some_coriander"])
        wait_done(qtbot, task, timeout=20000)  # the runner reports the outage then
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        window.replace()
    path = str(demo.user_home / "memory.db")
    assert lines, "the outage never reached the status line"
    line = lines[0]
    assert line.startswith(f"存储不可用：另一个程序一直锁着存储 {path}。按 F5 重试。"), line
    assert line.count("不可用") == 1 and line.count("重试") == 1
    assert "无法访问" not in line


def test_the_detail_pane_fits_a_1000_px_window_in_chinese(
    qtbot: Any, chinese: None, window: MainWindow, demo: Any, tmp_path: Path
) -> None:
    """At about 1000 px the detail pane scrolled sideways: the memory's id in monospace,
    a word-wrapped label, set its minimum width (and the versions' one-line heading next to
    the Revert button). The id now wraps, and stays whole for copying."""
    scroll = detail_at_1000_px(qtbot, window, demo)
    pane = window.detail_pane
    pane.details.set_open(True)  # the ids are under Details
    qtbot.waitUntil(lambda: scroll.widget().width() <= scroll.viewport().width(), timeout=2000)
    qtbot.waitUntil(lambda: pane.ids.width() <= scroll.viewport().width(), timeout=2000)
    assert scroll.horizontalScrollBar().maximum() == 0, "the pane scrolls sideways"
    assert pane.ids.toPlainText().splitlines()[0] == demo.node_ids["some_coriander"]
    assert pane.ids.width() <= scroll.viewport().width()
    window.grab().save(str(tmp_path / "detail-1000px.png"))  # to look at when it fails


def test_an_item_the_user_took_back_in_the_conversation_reads_as_their_withdrawal_in_chinese(
    qtbot: Any, chinese: None, window: MainWindow, demo: DemoReport
) -> None:
    """The audit of a pending change the user took back in the conversation: 已撤回, by 你,
    with the user's words, in Chinese (it said 已拒绝 · 提取器 and the core's English)."""
    from tests.gui.test_inbox import audit_rows, converse

    converse(demo, "数据库用 MySQL。", "算了，不用记了。")
    rows = audit_rows(qtbot, window, demo.node_ids["db_sqlite"])
    [withdrawn] = [row for row in rows if "算了" in row[3]]
    assert withdrawn[1:] == ["已撤回", "你", "你收回了刚才说的话（你说：“算了，不用记了。”）"]
    # The other readings of the words, in Chinese too (the core's English detail left out).
    took_back = (
        "the user took it back: the project no longer uses MySQL (said: “我们不用 MySQL 了。”)"
    )
    assert labels.reason_label(*read_stored_reason(took_back), took_back) == (
        "你在对话中收回了它（你说：“我们不用 MySQL 了。”）"
    )
    forget = "the user asked to forget it (said: “MySQL 的事忘掉吧。”)"
    assert labels.reason_label(*read_stored_reason(forget), forget) == (
        "你在对话中要求忘掉它（你说：“MySQL 的事忘掉吧。”）"
    )
    # The note when the edit form was open as it was withdrawn.
    [item] = [
        p for p in window.runner.memory.pending(status=None) if "算了" in (p.decision_note or "")
    ]
    title = (item.node or {})["title"]
    assert window.inbox_view._decided_text(item) == (
        f"你编辑“{title}”时，它已被撤回：你收回了刚才说的话（你说：“算了，不用记了。”）。"
    )
