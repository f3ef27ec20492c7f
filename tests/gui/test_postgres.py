"""The app on a PostgreSQL store: opened by URL through the connection dialog (a wrong
password and a bad URL are explained inline), then browse, search 香菜, approve, edit,
export, import, purge and the live refresh from another process, all unchanged.

The server is the session's throwaway cluster (``pg_server`` in ``tests/conftest.py``);
without PostgreSQL server binaries these tests skip with the reason (in CI,
``EKKO_TEST_REQUIRE_ALL=1`` makes that a failure). Each test gets the demo workspace
imported into a namespace of its own.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import open_memory
from ekko_memory.demo import DemoReport
from ekko_memory_gui.controller import AppController, DatabaseTarget
from ekko_memory_gui.qt import QDialog, QLabel
from ekko_memory_gui.services.database_url import DatabaseFields, build_url, parse_url
from ekko_memory_gui.views.dialogs.compact_dialog import CompactDialog
from ekko_memory_gui.views.dialogs.connect_dialog import ConnectDialog
from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog
from ekko_memory_gui.views.dialogs.purge_dialog import PurgeDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.backends import PgServer
from tests.gui.conftest import ScriptedDialogService, run, titles, type_text, wait_task

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class PgDemo:
    """The demo's memories in one namespace of the test server."""

    url: str
    namespace: str
    ids: dict[str, str]

    @property
    def target(self) -> DatabaseTarget:
        return DatabaseTarget(self.url, self.namespace)


@pytest.fixture(scope="session")
def demo_bundle(demo_template: DemoReport, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo workspace as a JSON bundle (exported once from a copy of the template)."""
    root = tmp_path_factory.mktemp("pg-demo-bundle")
    shutil.copytree(demo_template.workspace.parent, root / "demo")
    mem = open_memory(root / "demo" / "workspace", user_home=root / "demo" / "user-home")
    try:
        path = root / "demo.json"
        mem.exporter.export(path)
    finally:
        mem.close()
    return path


@pytest.fixture
def pg_demo(pg_server: PgServer, demo_bundle: Path, demo_template: DemoReport) -> PgDemo:
    """The demo imported into a fresh namespace (ids kept, so the demo's ids work)."""
    ns = pg_server.new_namespace()
    pg_server.schemas += [f"{ns}_workspace", f"{ns}_user"]
    mem = open_memory(url=pg_server.url, namespace=ns)
    try:
        assert all(h.status == "ok" for h in mem.health().values()), mem.health()
        mem.importer.import_bundle(demo_bundle)
    finally:
        mem.close()
    return PgDemo(pg_server.url, ns, dict(demo_template.node_ids))


def _wait_loaded(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.list_pane.filter is not None, timeout=15000)
    qtbot.waitUntil(lambda: not window.list_pane.model.loading, timeout=15000)
    qtbot.waitUntil(lambda: window.category_pane.model.rowCount() > 3, timeout=15000)
    qtbot.waitUntil(lambda: not window.category_pane.loading, timeout=15000)


def _new_window(qtbot: Any, controller: AppController) -> MainWindow:
    window = MainWindow(controller)
    window.finish_menus()
    qtbot.addWidget(window)
    window.resize(1400, 860)
    window.show()
    return window


@pytest.fixture
def pg_window(qtbot: Any, controller: AppController, pg_demo: PgDemo) -> Iterator[MainWindow]:
    """The main window over the demo on PostgreSQL (opened as --database-url does)."""
    window = _new_window(qtbot, controller)
    run(qtbot, controller.open_database(pg_demo.target), timeout=30000)
    _wait_loaded(qtbot, window)
    yield window
    window.replace()


def _password(url: str) -> str:
    fields = parse_url(url)
    assert fields is not None and fields.password
    return fields.password


def test_connect_dialog_explains_a_bad_url_and_a_wrong_password_then_opens_the_store(
    qtbot: Any, controller: AppController, dialogs: ScriptedDialogService, pg_demo: PgDemo
) -> None:
    window = _new_window(qtbot, controller)
    good = parse_url(pg_demo.url)
    assert good is not None
    seen: dict[str, str] = {}

    async def handler(dialog: QDialog) -> None:
        assert isinstance(dialog, ConnectDialog)
        assert dialog.namespace_edit.text() == "ekko"
        dialog.namespace_edit.setText(pg_demo.namespace)
        # A URL the core cannot use: said inline, the dialog stays open.
        dialog.tabs.setCurrentIndex(1)
        dialog.url_edit.setText("mysql://someone@db-host/ekko")
        assert await dialog.start() is False
        seen["bad_url"] = dialog.error_label.text()
        # Host / port / database / user / a wrong password: the server's reason, and Retry.
        dialog.tabs.setCurrentIndex(0)
        dialog.host_edit.setText(good.host)
        dialog.port_spin.setValue(good.port)
        dialog.database_edit.setText(good.database)
        dialog.user_edit.setText(good.user)
        dialog.password_edit.setText("not-the-password")
        assert await dialog.start() is False
        seen["wrong_password"] = dialog.error_label.text()
        seen["retry"] = dialog.connect_button.text()
        assert dialog.result() != QDialog.DialogCode.Accepted and dialog.memory is None
        # The right URL opens the store and closes the dialog.
        dialog.tabs.setCurrentIndex(1)
        dialog.url_edit.setText(pg_demo.url)
        assert await dialog.start() is True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.connect_database(), timeout=30000)
    assert "unsupported database URL" in seen["bad_url"]
    assert "password authentication failed" in seen["wrong_password"]
    assert "not-the-password" not in seen["wrong_password"]
    assert seen["retry"] == "Retry"

    _wait_loaded(qtbot, window)
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)
    ws = controller.workspace
    assert ws is not None and ws.database is not None and ws.folder is None
    assert pg_demo.namespace in window.windowTitle()
    # The status line names the server, never the password, and no file paths.
    qtbot.waitUntil(lambda: "memories" in window.status.text.text(), timeout=10000)
    status = window.status.text.text()
    assert status.startswith("Saved in the PostgreSQL database") and pg_demo.namespace in status
    password = _password(pg_demo.url)
    for text in (status, window.status.text.toolTip(), window.workspace_button.toolTip()):
        assert password not in text and "memory.db" not in text
    # The recent list remembers the database without its password.
    recent = controller.settings.recent_databases()
    assert [r.namespace for r in recent] == [pg_demo.namespace]
    assert password not in recent[0].url and parse_url(recent[0].url) == DatabaseFields(
        good.host, good.port, good.database, good.user, ""
    )
    assert password not in controller.settings.path.read_text(encoding="utf-8")
    window.replace()


def test_a_refused_store_says_why_in_the_status_line_with_retry(
    qtbot: Any, controller: AppController, pg_demo: PgDemo
) -> None:
    fields = parse_url(pg_demo.url)
    assert fields is not None
    wrong = build_url(
        DatabaseFields(fields.host, fields.port, fields.database, fields.user, "wrong")
    )
    window = _new_window(qtbot, controller)
    run(qtbot, controller.open_database(DatabaseTarget(wrong, pg_demo.namespace)), timeout=30000)
    qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
    assert "password authentication failed" in window.status.text.text()
    assert window.status.retry_button.isVisibleTo(window.status)
    assert not window.status.fix_button.isVisibleTo(window.status)  # no folder on a server
    assert controller.settings.recent_databases() == []  # nothing that never opened
    window.replace()


def test_browse_search_approve_and_edit_on_postgres(
    qtbot: Any, pg_window: MainWindow, pg_demo: PgDemo, dialogs: ScriptedDialogService
) -> None:
    window = pg_window
    # Browse: a branch of the tree filters the table.
    window.category_pane.select_key("domain/项目")
    qtbot.waitUntil(lambda: "Web framework: FastAPI" in titles(window), timeout=10000)
    assert "用户可接受少量香菜" not in titles(window)
    window.category_pane.select_key("all/")
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)
    # Search as you type: 香菜 finds the memory that holds it.
    type_text(window.search_field, "香菜")
    qtbot.waitUntil(
        lambda: window.list_pane.filter is not None and window.list_pane.filter.text == "香菜",
        timeout=10000,
    )
    qtbot.waitUntil(lambda: not window.list_pane.model.loading, timeout=10000)
    shown = titles(window)
    # The same memories as on SQLite: the cilantro preference (the built-in recipe that
    # mentions it is not one of "my memories").
    assert shown == ["用户可接受少量香菜"], shown
    window.search_field.clear()
    window.apply_filter()

    # Approve an inbox item: the memory is written by the user's decision.
    window.show_inbox()
    inbox = window.inbox_view
    qtbot.waitUntil(lambda: len(inbox.entries) == 4, timeout=10000)
    pid = next(e.item.id for e in inbox.entries if e.item.rule == "user_scope_without_intent")
    inbox.card(pid).approve_button.click()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: len(inbox.entries) == 3, timeout=10000)
    mem = window.runner.memory
    item = next(p for p in mem.pending(status=None) if p.id == pid)
    assert item.status == "approved" and item.decided_by == "user"
    qtbot.waitUntil(lambda: item.result_node_id in window.list_pane.model.ids(), timeout=10000)

    # Edit: a new version supersedes the old one (never an overwrite).
    old_id = pg_demo.ids["no_scallion"]
    window.pages.setCurrentWidget(window.memory_split)
    window.list_pane.select_id(old_id)
    qtbot.waitUntil(
        lambda: window.detail_pane.node is not None and window.detail_pane.node.id == old_id
    )

    def edit(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.value_editor.text.setText("大葱")
        dialog.title_edit.setText("用户不吃大葱")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    wait_task(qtbot, window.edit_memory(old_id), timeout=15000)
    head = mem.head_of(old_id)
    assert head.id != old_id and head.value_json == "大葱" and head.supersedes_id == old_id
    old = mem.get_node(old_id)
    assert old is not None and old.status == "superseded" and old.value_json == "葱"
    qtbot.waitUntil(lambda: head.id in window.list_pane.model.ids(), timeout=10000)
    assert old_id not in window.list_pane.model.ids()


AGENT = textwrap.dedent(
    """
    import sys
    from ekko_memory import open_memory

    url, namespace = sys.argv[1], sys.argv[2]
    mem = open_memory(url=url, namespace=namespace)
    s = mem.session("s-agent", user_id="u-demo", workspace_id="w-demo")
    s.append_message("user", "记住，我不吃芹菜。")
    result = s.call_tool("memory_propose_update", {
        "operation": "create",
        "node": {
            "scope": "user", "domain": "生活技能", "categoryPath": ["生活技能", "做饭", "饮食偏好"],
            "type": "preference", "key": "avoid_ingredient", "valueJson": "芹菜",
            "title": "用户不吃芹菜", "content": "做饭不要放芹菜。", "confidence": 0.9, "importance": 0.8,
        },
        "reason": "the user asked to remember",
    })
    assert result["accepted"], result
    print(result["nodeId"])
    mem.close()
    """
)


def test_a_write_from_another_process_appears_on_postgres(
    qtbot: Any, pg_window: MainWindow, pg_demo: PgDemo
) -> None:
    model = pg_window.list_pane.model
    before = set(model.ids())
    out = subprocess.run(
        [sys.executable, "-c", AGENT, pg_demo.url, pg_demo.namespace],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    node_id = out.stdout.strip().splitlines()[-1]
    qtbot.waitUntil(lambda: node_id in model.ids(), timeout=10000)
    assert "用户不吃芹菜" in titles(pg_window) and before <= set(model.ids())
    assert model.row_of(node_id) == 0
    qtbot.waitUntil(
        lambda: pg_window.sessions_view.sessions_model.row_of("s-agent") >= 0, timeout=10000
    )


def test_purge_on_postgres_reports_the_tables_and_index_not_files(
    qtbot: Any, pg_window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    texts: list[str] = []

    async def handler(dialog: QDialog) -> None:
        assert isinstance(dialog, PurgeDialog)
        assert dialog.on_server and not dialog.backups_check.isVisibleTo(dialog)
        dialog.query_edit.setText("香菜")
        dialog.messages_check.setChecked(True)
        await dialog.start_dry_run()
        dialogs.confirm_answers.append(True)
        report = await dialog.start_purge()
        assert report is not None and report.verification is not None
        assert report.verification.clean and report.verification.files_scanned == []
        texts.append(dialog.verification.toPlainText())
        dialog.accept()

    dialogs.handlers.append(handler)
    wait_task(qtbot, pg_window.purge(), timeout=60000)
    assert "PostgreSQL server" in texts[0] and "Nothing left" in texts[0]
    assert "files' bytes" not in texts[0]
    qtbot.waitUntil(lambda: "用户可接受少量香菜" not in titles(pg_window), timeout=10000)
    assert not any(
        "香菜" in w.text() for w in pg_window.detail_pane.findChildren(QLabel) if w.isVisible()
    )


def test_the_app_opens_the_database_url_of_the_command_line(
    qtbot: Any, qapp: Any, qasync_loop: Any, tmp_path: Path, pg_demo: PgDemo
) -> None:
    from ekko_memory_gui.app import AppRun, parse_args
    from ekko_memory_gui.services.settings import AppSettings

    args = parse_args(
        ["--database-url", pg_demo.url, "--namespace", pg_demo.namespace, "--language", "en"]
    )
    app_run = AppRun(
        qapp, args, dialogs=ScriptedDialogService(), settings=AppSettings(tmp_path / "gui.ini")
    )
    task = asyncio.ensure_future(app_run.run())
    qtbot.waitUntil(
        lambda: app_run.controller is not None and app_run.controller.workspace is not None,
        timeout=30000,
    )
    window = app_run.shell.window  # type: ignore[union-attr]
    assert window is not None
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=15000)
    ws = app_run.controller.workspace  # type: ignore[union-attr]
    assert ws is not None and ws.database is not None and ws.database.namespace == pg_demo.namespace
    window.close()
    qtbot.waitUntil(task.done, timeout=20000)
    assert task.result() == 0


def test_a_recent_database_uses_pgpassword_or_asks_for_the_password(
    qtbot: Any,
    controller: AppController,
    dialogs: ScriptedDialogService,
    pg_demo: PgDemo,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ekko_memory_gui.services.database_url import without_password
    from ekko_memory_gui.services.settings import RecentDatabase

    window = _new_window(qtbot, controller)
    recent = RecentDatabase(without_password(pg_demo.url), pg_demo.namespace)
    password = _password(pg_demo.url)
    # libpq reads $PGPASSWORD when the URL has no password.
    monkeypatch.setenv("PGPASSWORD", password)
    monkeypatch.setenv("PGPASSFILE", "/nonexistent/pgpass")  # not this machine's ~/.pgpass
    wait_task(qtbot, window.open_recent_database(recent), timeout=30000)
    _wait_loaded(qtbot, window)
    assert controller.workspace is not None and controller.workspace.database is not None
    # Without it the server refuses, and the dialog asks (filled in, the reason shown).
    monkeypatch.delenv("PGPASSWORD")
    asked: dict[str, str] = {}

    async def handler(dialog: QDialog) -> None:
        assert isinstance(dialog, ConnectDialog)
        asked["error"] = dialog.error_label.text()
        asked["host"] = dialog.host_edit.text()
        assert dialog.namespace_edit.text() == pg_demo.namespace
        assert dialog.password_edit.text() == ""
        dialog.password_edit.setText(password)
        assert await dialog.start() is True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.open_recent_database(recent), timeout=30000)
    assert "password" in asked["error"] and asked["host"] == "127.0.0.1"
    _wait_loaded(qtbot, window)
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window), timeout=10000)
    window.replace()


def test_export_and_import_on_postgres(
    qtbot: Any,
    pg_window: MainWindow,
    controller: AppController,
    dialogs: ScriptedDialogService,
    pg_server: PgServer,
    tmp_path: Path,
) -> None:
    from ekko_memory_gui.views.dialogs.export_dialog import ExportDialog
    from ekko_memory_gui.views.dialogs.import_dialog import ImportDialog

    bundle = tmp_path / "bundle.json"
    reports: list[Any] = []

    async def export(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.path_edit.setText(str(bundle))
        reports.append(await dialog.start())
        return True

    dialogs.handlers.append(export)
    wait_task(qtbot, pg_window.export_memories(), timeout=30000)
    assert bundle.is_file() and reports[0].counts["nodes"] > 15
    # Into an empty namespace on the same server: the same memories show.
    ns = pg_server.new_namespace()
    pg_server.schemas += [f"{ns}_workspace", f"{ns}_user"]
    empty = DatabaseTarget(pg_server.url, ns)
    run(qtbot, controller.open_database(empty), timeout=30000)
    qtbot.waitUntil(lambda: "用户可接受少量香菜" not in titles(pg_window), timeout=10000)

    async def import_(dialog: QDialog) -> bool:
        assert isinstance(dialog, ImportDialog)
        dialog.path_edit.setText(str(bundle))
        reports.append(await dialog.start())
        return True

    dialogs.handlers.append(import_)
    wait_task(qtbot, pg_window.import_bundle(), timeout=30000)
    assert len(reports[1].added["nodes"]) == reports[0].counts["nodes"]
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(pg_window), timeout=10000)


def test_compact_on_postgres_reports_what_ran_on_the_server(
    qtbot: Any, pg_window: MainWindow, pg_demo: PgDemo, dialogs: ScriptedDialogService
) -> None:
    seen: list[Any] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, CompactDialog)
        assert dialog.on_server and "VACUUM FULL" in dialog.how.text()
        report = await dialog.start()
        seen.extend([report, dialog.result_view.toPlainText()])
        return True

    dialogs.handlers.append(handler)
    wait_task(qtbot, pg_window.compact_stores(), timeout=60000)
    report, text = seen
    assert [s.status for s in report.stores] == ["compacted", "compacted"]
    assert all(s.backend == "postgresql" and s.files == [] for s in report.stores)
    assert "tables and indexes on the server: " in text
    assert text.count("ran: VACUUM (FULL, ANALYZE) ") == 2
    assert f"(schema {pg_demo.namespace}_user)" in text and _password(pg_demo.url) not in text
    assert "用户可接受少量香菜" in titles(pg_window)  # nothing changed but the layout
