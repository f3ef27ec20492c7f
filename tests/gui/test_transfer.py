"""Export, import and purge from the app: a round trip into an empty workspace keeps nodes,
chains and audit; a purge does exactly what its dry run listed and leaves the text
nowhere, not even in the database files' bytes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import AuditEvent, BrowseFilter, InvalidInput, MemoryService, open_memory
from ekko_memory.demo import DEMO_USER, DEMO_WORKSPACE, DemoReport
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.qt import QDialog, QPushButton
from ekko_memory_gui.views.dialogs.export_dialog import ExportDialog
from ekko_memory_gui.views.dialogs.import_dialog import ImportDialog
from ekko_memory_gui.views.dialogs.purge_dialog import PurgeDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.core.helpers import propose
from tests.gui.conftest import ScriptedDialogService, run, titles, wait_task


def _snapshot(mem: MemoryService) -> dict[str, Any]:
    nodes = mem.browse.list_nodes(
        BrowseFilter(statuses=None, scopes=["session", "workspace", "user"]), limit=5000
    ).nodes
    audit = [e for e in mem.browse.audit_since(None, limit=100000) if e.event_type != "import"]
    return {
        "nodes": {(n.id, n.status, n.supersedes_id, n.title, str(n.value_json)) for n in nodes},
        "chains": {n.id: [v.id for v in mem.chain(n.id)] for n in nodes},
        # An imported event is by the import; the actor it named there travels with it.
        "audit": {(e.id, e.event_type, e.node_id, _named_actor(e)) for e in audit},
        "pending": {(p.id, p.status) for p in mem.pending(status=None)},
        "sessions": {(s.session_id, s.message_count) for s in mem.browse.sessions()},
    }


def _named_actor(e: AuditEvent) -> str:
    imported = (e.payload or {}).get("imported") if e.actor == "import" else None
    return str(imported["actor"]) if isinstance(imported, dict) else e.actor


def _export(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, path: Path, fmt: str = "json"
) -> Any:
    reports: list[Any] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.set_format(fmt)
        dialog.path_edit.setText(str(path))
        reports.append(await dialog.start())
        assert "Exported" in dialog.result_label.text()
        return True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.export_memories())
    return reports[0]


def _import(qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, path: Path) -> Any:
    reports: list[Any] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ImportDialog)
        dialog.path_edit.setText(str(path))
        reports.append(await dialog.start())
        assert dialog.summary.text().startswith("Added")
        return True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.import_bundle())
    return reports[0]


def test_export_then_import_into_an_empty_workspace_gives_the_same_memories(
    qtbot: Any,
    window: MainWindow,
    controller: AppController,
    demo: DemoReport,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    bundle = tmp_path / "out" / "bundle.json"
    bundle.parent.mkdir()
    report = _export(qtbot, window, dialogs, bundle)
    assert report.path == str(bundle) and not report.cancelled and bundle.is_file()
    assert report.counts["nodes"] > 15
    expected = _snapshot(window.runner.memory)

    _open_empty_workspace(qtbot, controller, tmp_path)
    qtbot.waitUntil(lambda: window.list_pane.model.rowCount() <= 2)  # only the global seeds
    imported = _import(qtbot, window, dialogs, bundle)
    assert len(imported.added["nodes"]) == report.counts["nodes"]
    got = _snapshot(window.runner.memory)
    assert got == expected
    # The table shows the imported memories without a restart.
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)

    # Importing again changes nothing (idempotent).
    again = _import(qtbot, window, dialogs, bundle)
    assert not again.changed and len(again.skipped["nodes"]) == report.counts["nodes"]
    assert _snapshot(window.runner.memory) == expected


def test_the_timeline_shows_an_imported_memory_after_the_one_it_replaced(
    qtbot: Any,
    window: MainWindow,
    demo: DemoReport,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    """A bundle's newer answer to a one-value key (the reply language) replaces the local
    memory: the replaced version's timeline goes on to the imported one, which is on top,
    and reverting to the replaced version is offered and works."""
    local = demo.node_ids["reply_zh"]
    source = open_memory(tmp_path / "src" / "ws", user_home=tmp_path / "src" / "home")
    try:
        s = source.session("s-src", user_id=DEMO_USER, workspace_id=DEMO_WORKSPACE)
        said = propose(
            s,
            "记住，以后用英文回答",
            scope="user",
            domain="个人",
            categoryPath=["个人", "沟通"],
            type="preference",
            key="reply_language",
            valueJson="English",
            title="Reply in English",
        )
        bundle = tmp_path / "reply.json"
        source.exporter.export(bundle)
    finally:
        source.close()
    assert said["accepted"], said
    report = _import(qtbot, window, dialogs, bundle)
    assert report.superseded == [local]

    winner = said["nodeId"]
    qtbot.waitUntil(lambda: winner in window.list_pane.model.ids(), timeout=10000)
    window.list_pane.select_id(winner)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == winner)
    entries = detail.chain.entries
    assert [e.node.id for e in entries] == [winner, local]
    # The replaced version, opened from the timeline: the imported one is still on top.
    detail.chain.version_clicked.emit(local)
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == local)
    entries = detail.chain.entries
    assert [e.node.title for e in entries] == ["Reply in English", "用中文回答"]
    assert entries[0].is_head and entries[1].is_shown
    assert entries[1].node.status == "superseded"
    buttons = detail.chain.findChildren(QPushButton, "revertButton")
    assert len(buttons) == 1
    buttons[0].click()
    mem = window.runner.memory
    qtbot.waitUntil(lambda: mem.head_of(local).title == "用中文回答")
    assert mem.head_of(local).status == "active"
    assert mem.get_node(said["nodeId"]).status == "superseded"  # type: ignore[union-attr]


def test_markdown_and_csv_exports(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, tmp_path: Path
) -> None:
    md = _export(qtbot, window, dialogs, tmp_path / "memories.md", "md")
    text = Path(md.path).read_text(encoding="utf-8")
    assert "用户可接受少量香菜" in text
    csv = _export(qtbot, window, dialogs, tmp_path / "memories.csv", "csv")
    assert "limit_ingredient" in Path(csv.path).read_text(encoding="utf-8-sig")


def _export_over(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, target: Path | str
) -> tuple[Any, str]:
    """Export (Markdown) to a typed path; returns the report and the dialog's result line."""
    out: list[Any] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.set_format("md")
        dialog.path_edit.setText(str(target))
        out.append(await dialog.start())
        out.append(dialog.result_label.text())
        return False

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.export_memories())
    return out[0], out[1]


def test_an_export_asks_before_it_replaces_a_file_that_exists(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, tmp_path: Path
) -> None:
    """The path field takes any file: one that exists (notes of the user's, an earlier
    export) is replaced only after the user says so; declining keeps it untouched."""
    notes = tmp_path / "notes.md"
    notes.write_text("my own notes", encoding="utf-8")
    dialogs.confirm_answers.append(False)
    report, line = _export_over(qtbot, window, dialogs, notes)
    assert report is None
    assert notes.read_text(encoding="utf-8") == "my own notes"
    assert dialogs.asked and str(notes) in dialogs.asked[-1][1]
    assert "Nothing was exported" in line

    dialogs.confirm_answers.append(True)
    report, line = _export_over(qtbot, window, dialogs, notes)
    assert report.path == str(notes)
    assert "用户可接受少量香菜" in notes.read_text(encoding="utf-8")

    # A new file is written without a question; an empty path says what is missing.
    asked = len(dialogs.asked)
    report, _ = _export_over(qtbot, window, dialogs, tmp_path / "new.md")
    assert report.path == str(tmp_path / "new.md") and len(dialogs.asked) == asked
    report, line = _export_over(qtbot, window, dialogs, "")
    assert report is None and "choose a file" in line


def test_an_export_onto_a_store_is_refused_without_a_question(
    qtbot: Any,
    window: MainWindow,
    dialogs: ScriptedDialogService,
    demo: DemoReport,
    tmp_path: Path,
) -> None:
    """The workspace's own database (or anything in a store's folder) is never offered to
    be replaced: the dialog says why, asks nothing, and the store stays as it was."""
    db = demo.workspace / ".ekko" / "memory.db"
    size = db.stat().st_size
    before = _snapshot(window.runner.memory)
    lines: list[str] = []
    for target in (db, demo.user_home / "notes.md"):
        asked = len(dialogs.asked)

        async def handler(dialog: QDialog, target: Path = target) -> bool:
            assert isinstance(dialog, ExportDialog)
            dialog.path_edit.setText(str(target))
            with pytest.raises(InvalidInput, match="nothing was written"):
                await dialog.start()
            lines.append(dialog.result_label.text())
            return False

        dialogs.handlers.append(handler)
        wait_task(qtbot, window.export_memories())
        assert len(dialogs.asked) == asked
        assert lines[-1].startswith("The export failed:") and str(target) in lines[-1], lines
    assert db.stat().st_size >= size and _snapshot(window.runner.memory) == before
    assert not (demo.user_home / "notes.md").exists()


def test_switching_the_format_of_an_emptied_path_keeps_it_empty(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    seen: list[str] = []

    def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.path_edit.clear()
        dialog.set_format("csv")  # raised ValueError (an empty name) inside the slot
        seen.append(dialog.path_edit.text())
        return False

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.export_memories())
    assert seen == [""]


def _open_empty_workspace(qtbot: Any, controller: AppController, tmp_path: Path) -> None:
    """Switch the app to a new, empty workspace and user home (an import's destination)."""
    empty_ws, empty_home = tmp_path / "empty-ws", tmp_path / "empty-home"
    empty_ws.mkdir()
    empty_home.mkdir()
    run(qtbot, controller.open_workspace(empty_ws, empty_home))


def _long_log(qtbot: Any, window: MainWindow) -> None:
    """1200 more messages: the core checks for a cancel between batches of 500 records."""
    mem = window.runner.memory

    def fill() -> None:
        s = mem.session("s-long", user_id="u-demo", workspace_id="w-demo")
        for i in range(1200):
            s.append_message("user" if i % 2 == 0 else "assistant", f"第 {i} 条消息")

    run(qtbot, window.runner.call(fill), timeout=60000)


def _interrupted_export(
    qtbot: Any,
    window: MainWindow,
    dialogs: ScriptedDialogService,
    target: Path,
    interrupt: Callable[[ExportDialog], None],
) -> Any:
    """Starts an export of a long log into ``target``, interrupts it, and returns its report."""
    reports: list[Any] = []
    _long_log(qtbot, window)

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.path_edit.setText(str(target))
        task = dialog.start()
        interrupt(dialog)  # before the worker's first batch
        reports.append(await task)
        return False

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.export_memories())
    return reports[0]


def test_a_cancelled_export_leaves_no_file(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, tmp_path: Path
) -> None:
    target = tmp_path / "cancelled.json"
    report = _interrupted_export(
        qtbot, window, dialogs, target, lambda d: d.progress.cancel_button.click()
    )
    assert report.cancelled and report.path is None
    assert not target.exists()
    assert not list(tmp_path.glob("*cancelled*"))


def test_closing_the_dialog_while_it_exports_cancels_the_export(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, tmp_path: Path
) -> None:
    """Esc or the window's close box stops the work, as Cancel does: nothing runs on unseen."""
    target = tmp_path / "closed.json"
    # reject() is what Esc and the close box do.
    report = _interrupted_export(qtbot, window, dialogs, target, lambda d: d.reject())
    assert report.cancelled and report.path is None
    assert not target.exists()


def test_a_cancelled_import_changes_nothing_and_importing_again_completes_it(
    qtbot: Any,
    window: MainWindow,
    controller: AppController,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    _long_log(qtbot, window)
    bundle = tmp_path / "bundle.json"
    exported = _export(qtbot, window, dialogs, bundle)
    assert exported.counts["messages"] > 1200
    expected = _snapshot(window.runner.memory)
    _open_empty_workspace(qtbot, controller, tmp_path)
    empty = _snapshot(window.runner.memory)
    seen: list[Any] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ImportDialog)
        dialog.path_edit.setText(str(bundle))
        task = dialog.start()
        assert dialog.progress.cancel_button.isEnabled()
        dialog.progress.cancel_button.click()  # before the worker's first batch
        seen.append(await task)
        seen.append(dialog.progress.last)
        assert dialog.summary.text().startswith("Cancelled: nothing was imported")
        assert dialog.progress.label.text() == "Cancelled"
        assert dialog.import_button.isEnabled()  # it can be started again
        return False

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.import_bundle(), timeout=60000)
    report, last = seen
    assert report.cancelled and not report.changed
    assert report.committed_stores == [] and report.cancelled_stores == ["workspace", "user"]
    # The worker wrote a batch inside the workspace store's transaction, saw the cancel and
    # rolled it back: the stores hold exactly what they held before.
    assert last.stage == "import" and 0 < last.done < last.total
    assert _snapshot(window.runner.memory) == empty

    imported = _import(qtbot, window, dialogs, bundle)
    assert not imported.cancelled and imported.committed_stores == ["workspace", "user"]
    assert _snapshot(window.runner.memory) == expected


def _purge(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, fill: Any
) -> PurgeDialog:
    seen: list[PurgeDialog] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, PurgeDialog)
        seen.append(dialog)
        await fill(dialog)
        return True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.purge(), timeout=60000)
    return seen[0]


def test_purge_does_what_the_dry_run_listed_and_leaves_no_trace(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    needle = "香菜"
    mem = window.runner.memory
    mine = BrowseFilter(text=needle, statuses=None, scopes=["session", "workspace", "user"])
    assert mem.browse.count(mine) > 0
    plans: list[Any] = []

    async def fill(dialog: PurgeDialog) -> None:
        dialog.query_edit.setText(needle)
        dialog.messages_check.setChecked(True)
        assert not dialog.purge_button.isEnabled()
        plan = await dialog.start_dry_run()
        plans.append(plan)
        assert dialog.purge_button.isEnabled()
        assert dialog.targets.rowCount() == len(plan.targets)
        assert "1 memory ·" in dialog.counts_label.text()
        dialogs.confirm_answers.append(True)
        report = await dialog.start_purge()
        assert report is not None and not report.cancelled
        assert "Nothing left" in dialog.verification.toPlainText()

    dialog = _purge(qtbot, window, dialogs, fill)
    plan, report = plans[0], dialog.report
    assert report is not None
    key = lambda t: (t.store, t.kind, t.id, t.action)  # noqa: E731
    assert sorted(map(key, report.purged)) == sorted(
        map(key, plan.targets)
    )  # the dry run was exact
    counts = plan.counts()
    assert counts["node"] >= 2 and counts["message"] >= 1 and counts["audit"] >= 1
    assert report.verification is not None and report.verification.clean
    assert dialog.search_after == 0
    # The text is nowhere in the tables…
    assert mem.browse.count(mine) == 0
    assert not any(
        needle in m.content
        for s in mem.browse.sessions()
        for m in mem.browse.messages(s.session_id)
    )
    # …and nowhere in the bytes of the database files (main file, WAL, anything beside it).
    files = [
        p
        for folder in (demo.workspace / ".ekko", demo.user_home)
        for p in folder.rglob("*")
        if p.is_file()
    ]
    assert any(p.name == "memory.db" for p in files)
    for path in files:
        assert needle.encode("utf-8") not in path.read_bytes(), path
    # The app shows the result without a restart.
    qtbot.waitUntil(lambda: "用户可接受少量香菜" not in titles(window), timeout=10000)


def test_changing_the_filter_after_a_dry_run_asks_for_a_new_one(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    async def fill(dialog: PurgeDialog) -> None:
        dialog.category_edit.setText("项目 / 架构")
        plan = await dialog.start_dry_run()
        assert plan is not None and plan.memories == 2
        assert dialog.purge_button.isEnabled()
        dialog.scope_checks["user"].setChecked(True)
        assert not dialog.purge_button.isEnabled()
        # Nothing named: the dry run explains instead of purging everything.
        dialog.category_edit.clear()
        dialog.scope_checks["user"].setChecked(False)
        assert await dialog.start_dry_run() is None
        # pydantic's complaint, readable: no link, no input echoed.
        assert dialog.error.text() == (
            "Not valid: name what to purge: scopes, workspace, user, category, session, "
            "dates or a query"
        )

    _purge(qtbot, window, dialogs, fill)
    assert (
        len(
            window.runner.memory.browse.list_nodes(
                BrowseFilter(category_path_prefix=["项目", "架构"])
            ).nodes
        )
        == 2
    )


def test_declining_the_purge_confirmation_purges_nothing(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    async def fill(dialog: PurgeDialog) -> None:
        dialog.scope_checks["workspace"].setChecked(True)
        await dialog.start_dry_run()
        dialogs.confirm_answers.append(False)
        assert await dialog.start_purge() is None

    _purge(qtbot, window, dialogs, fill)
    assert window.runner.memory.get_node(demo.node_ids["db_sqlite"]) is not None


def test_a_validation_error_anywhere_reads_as_its_messages(qtbot: Any, window: MainWindow) -> None:
    """The runner reports a pydantic ValidationError as one readable line."""
    try:
        BrowseFilter(text="x" * 3000)
    except ValueError as e:
        window.runner.report("Searching", e)
    text = window.status.error.text()
    assert text.startswith("Searching: Not valid: text: is 3000 characters long")
    assert "pydantic" not in text and "\n" not in text and "input_value" not in text
