"""A store that is disabled, read-only or gone reads entirely in the user's language on the
status line: the core gives each problem a code with its specifics (``StoreHealth.
reason_code``, ``reason_args``) and the app words it; in English the line shows the core's
own sentence, as before. Each problem is made for real: another process holding the file's
lock, random bytes, a newer schema, a file made read-only, a file replaced while open, a
server port nobody listens on."""

from __future__ import annotations

import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, get_args

import pytest

from ekko_memory.store import migrations, sql_store, sqlite_dialect
from ekko_memory.store.problem import ReasonCode
from ekko_memory_gui.controller import AppController, DatabaseTarget
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import QApplication, QLocale, QTranslator
from ekko_memory_gui.services.translation import install_translation, remove_translation
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import (
    ScriptedDialogService,
    open_window,
    replace_under_open_store,
    run,
    save_edit_and_read_error,
    wait_task,
)
from tests.requirements import missing

# Names the Chinese catalog keeps as they are (the server's product name, "URL").
PROPER_NAMES = ("PostgreSQL", "URL")
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture(params=["en", "zh_CN"])
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The UI language of one test (English again afterwards)."""
    loaded = install_translation(qapp, request.param) if request.param != "en" else None
    labels.reset()
    yield request.param
    if loaded is not None:
        remove_translation(qapp, loaded)
    for t in qapp.findChildren(QTranslator):
        qapp.removeTranslator(t)
    QLocale.setDefault(QLocale("en_US"))
    labels.reset()


def english_left(text: str, *specifics: str) -> list[str]:
    """The English words of ``text`` once the paths and addresses it names are taken out."""
    for s in sorted(specifics, key=len, reverse=True):
        text = text.replace(s, " ")
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    return ENGLISH_WORD.findall(text)


def says(text: str, language: str, *, en: str, zh: str, names: tuple[str, ...] = ()) -> None:
    """``text`` holds the sentence of ``language``: in Chinese, with no English left once
    the paths ``names`` are taken out."""
    if language == "en":
        assert en in text, text
    else:
        assert zh in text, text
        assert not english_left(text, *names), text


def check_status_line(window: MainWindow, language: str, *names: str) -> None:
    """Every store that is not ok is explained in ``language`` (English: the core's words);
    ``names``: what else the line names as it is (a server)."""
    health = window.runner.memory.health()
    troubled = [h for h in health.values() if h.status != "ok"]
    assert troubled, health
    line = window.status.text.text()
    if language == "en":
        for h in troubled:
            assert h.reason and h.reason in line, (h.reason, line)
        return
    places = [str(Path(h.location).parent) for h in health.values()]
    places += [h.location for h in health.values()]
    places += [str(Path(h.location).parent).replace(str(Path.home()), "~") for h in health.values()]
    places += [v for h in troubled for v in h.reason_args.values() if "/" in v]
    places += names
    assert not english_left(line, *places), (english_left(line, *places), line)
    # The core's own words stay in the tooltip (for a bug report).
    for h in troubled:
        assert h.reason and h.reason in window.status.text.toolTip()


@contextmanager
def held_by_another_process(db: Path, *, readers_too: bool = True) -> Iterator[None]:
    """Another process holds ``db``'s write lock until the block ends; ``readers_too``: in
    an exclusive transaction that keeps readers out as well (WAL lets them in otherwise)."""
    lock = (
        "c.execute('PRAGMA locking_mode = EXCLUSIVE')\nc.execute('BEGIN EXCLUSIVE')\n"
        if readers_too
        else "c.execute('BEGIN IMMEDIATE')\n"
    )
    code = (
        "import sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        f"{lock}"
        "print('held', flush=True)\n"
        "sys.stdin.readline()\n"
        "c.execute('ROLLBACK')\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield
    finally:
        assert proc.stdin is not None
        proc.stdin.write("\n")
        proc.stdin.close()
        proc.wait(timeout=10)


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` not writable for this process (root writes through permissions: an
    immutable file, then)."""
    path.chmod(0o444)
    immutable = False
    if os.access(path, os.W_OK) and shutil.which("chattr"):
        immutable = subprocess.run(["chattr", "+i", str(path)], check=False).returncode == 0
    try:
        if os.access(path, os.W_OK):
            # Root writes through permissions: only an immutable file is read-only to it.
            missing(
                "a file this process cannot write",
                "run as a non-root user, or install e2fsprogs for chattr",
            )
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=False)
        path.chmod(0o600)


def set_schema_version(db: Path, version: int) -> None:
    """Make the file's recorded schema version ``version`` (higher or lower than now)."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DELETE FROM memory_schema_migrations WHERE version > ?", (version,))
    conn.execute(
        "INSERT OR IGNORE INTO memory_schema_migrations (version, applied_at) VALUES (?, ?)",
        (version, "2030-01-01T00:00:00.000000Z"),
    )
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def opened(qtbot: Any, controller: AppController, demo: Any) -> MainWindow:
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    qtbot.waitUntil(lambda: window.status.level != "ok", timeout=10000)
    return window


def test_random_bytes_read_in_the_ui_language(
    qtbot: Any, language: str, controller: AppController, demo: Any
) -> None:
    (demo.workspace / ".ekko" / "memory.db").write_bytes(os.urandom(64 * 1024))
    window = opened(qtbot, controller, demo)
    try:
        assert window.runner.memory.health()["workspace"].reason_code == "not_a_database"
        check_status_line(window, language)
    finally:
        window.replace()


def test_a_newer_schema_reads_in_the_ui_language(
    qtbot: Any, language: str, controller: AppController, demo: Any
) -> None:
    set_schema_version(demo.user_home / "memory.db", migrations.latest_version() + 1)
    window = opened(qtbot, controller, demo)
    try:
        user = window.runner.memory.health()["user"]
        assert user.reason_code == "newer_schema"
        check_status_line(window, language)
        if language == "zh_CN":
            version = str(migrations.latest_version() + 1)
            assert f"结构版本为 {version}" in window.status.text.text()
    finally:
        window.replace()


def test_a_file_locked_by_another_process_reads_in_the_ui_language(
    qtbot: Any,
    language: str,
    controller: AppController,
    demo: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(sql_store, "REOPEN_EVERY_S", 3600.0)  # still locked while we look
    with held_by_another_process(demo.user_home / "memory.db"):
        window = opened(qtbot, controller, demo)
        try:
            assert window.runner.memory.health()["user"].reason_code == "locked"
            check_status_line(window, language)
            if language == "zh_CN":
                assert "0.2 秒" in window.status.text.text()
        finally:
            window.replace()


@pytest.mark.parametrize("upgrade", [False, True], ids=["current", "needs-upgrade"])
def test_a_read_only_file_reads_in_the_ui_language(
    qtbot: Any, language: str, controller: AppController, demo: Any, upgrade: bool
) -> None:
    """Read-only and current: browsable (read-only); read-only and older: disabled, as it
    cannot be upgraded."""
    db = demo.user_home / "memory.db"
    if upgrade:
        set_schema_version(db, migrations.latest_version() - 1)
    else:
        set_schema_version(db, migrations.latest_version())
    with read_only(db):
        window = opened(qtbot, controller, demo)
        try:
            user = window.runner.memory.health()["user"]
            assert user.reason_code == ("readonly_needs_upgrade" if upgrade else "read_only_file")
            check_status_line(window, language)
        finally:
            window.replace()


def test_a_file_replaced_while_open_reads_in_the_ui_language(
    qtbot: Any, language: str, controller: AppController, demo: Any
) -> None:
    """The store's refusal reaches the error line too (a StoreUnavailable with the code)."""
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    try:
        db = demo.user_home / "memory.db"
        replace_under_open_store(db)
        window.refresh_action.trigger()
        qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
        assert window.runner.memory.health()["user"].reason_code == "file_replaced"
        check_status_line(window, language)
        qtbot.waitUntil(lambda: window.status.error.text() != "", timeout=10000)
        error = window.status.error.toolTip()
        if language == "zh_CN":
            assert not english_left(error, str(db)), error
            assert "存储已停用" in error
        else:
            assert "memory store disabled: " in error
    finally:
        window.replace()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_server_nobody_answers_reads_in_the_ui_language(
    qtbot: Any, language: str, controller: AppController, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("psycopg")
    monkeypatch.setattr(sql_store, "REOPEN_EVERY_S", 3600.0)
    url = f"postgresql://me@127.0.0.1:{_closed_port()}/ekko"
    window = MainWindow(controller)
    window.finish_menus()
    qtbot.addWidget(window)
    window.show()
    try:
        run(qtbot, controller.open_database(DatabaseTarget(url, "team1")), timeout=30000)
        qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
        health = window.runner.memory.health()
        assert {h.reason_code for h in health.values()} == {"unreachable"}
        check_status_line(window, language, DatabaseTarget(url, "team1").display)
    finally:
        window.replace()


def test_the_app_has_words_for_every_problem_the_core_names(language: str) -> None:
    """Every code of ``store.problem`` has a sentence (a bad URL, the dialog's own refusal,
    keeps the core's words); in Chinese no sentence has English left but the commands and
    SQL it quotes."""
    codes = get_args(ReasonCode)
    table = labels.problem_table()
    assert sorted(c for c in codes if c not in table) == ["bad_url"]
    if language == "en":
        return
    quoted = ("psycopg", "pip", "install", "ekko", "memory", "postgres", "CREATE", "DATABASE")
    quoted += ("ENCODING", "UTF")
    args = {"path": "/p", "location": "/p", "detail": "", "seconds": "1", "encoding": "LATIN1"}
    for code, sentence in table.items():
        said = sentence.format(**args, version="1", latest="2")
        left = [w for w in english_left(said, "/p", "LATIN1") if w not in quoted]
        assert not left, (code, said)


def test_a_login_the_server_refuses_reads_in_the_ui_language(
    qtbot: Any,
    language: str,
    controller: AppController,
    pg_server: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wrong password: the server answered, so the Chinese line says the login was
    refused (not "is the server running?")."""
    from ekko_memory_gui.services.database_url import DatabaseFields, build_url, parse_url

    monkeypatch.setattr(sql_store, "REOPEN_EVERY_S", 3600.0)
    fields = parse_url(pg_server.url)
    assert fields is not None
    wrong = build_url(
        DatabaseFields(fields.host, fields.port, fields.database, fields.user, "wrong")
    )
    target = DatabaseTarget(wrong, "team1")
    window = MainWindow(controller)
    window.finish_menus()
    qtbot.addWidget(window)
    window.show()
    try:
        run(qtbot, controller.open_database(target), timeout=30000)
        qtbot.waitUntil(lambda: window.status.level == "disabled", timeout=10000)
        health = window.runner.memory.health()
        assert {h.reason_code for h in health.values()} == {"auth"}
        check_status_line(window, language, target.display)
        if language == "zh_CN":
            assert "拒绝了登录" in window.status.text.text()
    finally:
        window.replace()


def test_a_form_refused_by_a_read_only_store_says_why_in_the_ui_language(
    qtbot: Any,
    language: str,
    controller: AppController,
    demo: Any,
    dialogs: ScriptedDialogService,
) -> None:
    """Saving an edit into a store opened read-only: the form's refusal named the problem in
    the core's English ("memory store at … is readonly: … is read-only: memories can be
    read but not changed …") inside a Chinese frame."""
    db = demo.user_home / "memory.db"
    set_schema_version(db, migrations.latest_version())
    with read_only(db):
        window = opened(qtbot, controller, demo)
        try:
            assert window.runner.memory.health()["user"].status == "readonly"
            shown = save_edit_and_read_error(dialogs, "用户口味偏清淡")
            wait_task(qtbot, window.edit_memory(demo.node_ids["light_taste"]), timeout=20000)
        finally:
            window.replace()
    assert len(shown) == 1, shown
    reason = window.runner.memory.health()["user"].reason or ""
    if language == "en":
        assert f"memory store at {db} is readonly: {reason}" in shown[0], shown[0]
    else:
        assert not english_left(shown[0], str(db)), shown[0]
        assert shown[0].startswith(f"存储不可用：存储 {db} 是只读的：{db} 是只读的"), shown[0]


def test_the_connect_dialog_says_why_a_server_cannot_be_used_in_the_ui_language(
    qtbot: Any, language: str, qasync_loop: Any
) -> None:
    """Connect to a port nobody listens on: the dialog's reason is the status line's."""
    pytest.importorskip("psycopg")
    from ekko_memory_gui.views.dialogs.connect_dialog import ConnectDialog

    url = f"postgresql://me@127.0.0.1:{_closed_port()}/ekko"
    dialog = ConnectDialog(initial=DatabaseTarget(url, "team1"))
    qtbot.addWidget(dialog)
    dialog.tabs.setCurrentIndex(1)
    dialog.url_edit.setText(url)
    assert run(qtbot, dialog.connect_now(), timeout=30000) is False
    said = dialog.error_label.text()
    if language == "en":
        assert said.startswith("Could not open the store: cannot connect to PostgreSQL at ")
    else:
        where = DatabaseTarget(url, "team1").display.split(" · ")[0]
        assert said.startswith("无法打开存储：无法连接数据库服务器 "), said
        assert not english_left(said, "postgresql+psycopg://" + where), said


# --- results that quote a store's problem: compaction, export, import, purge ----------


def _compacted_user_store(qtbot: Any, controller: AppController) -> tuple[Any, str]:
    """Run File ▸ Compact stores: the report's entry for the user store, and its lines as
    the dialog shows them."""
    from ekko_memory_gui.views.dialogs.compact_dialog import CompactDialog

    dialog = CompactDialog(controller)
    qtbot.addWidget(dialog)
    run(qtbot, dialog.run_compact(), timeout=60000)
    assert dialog.report is not None
    entry = next(s for s in dialog.report.stores if s.store == "user")
    lines = dialog.store_lines(entry)
    shown = dialog.result_view.toPlainText()
    assert all(line in shown for line in lines), (lines, shown)
    return entry, "\n".join(lines)


def test_a_compaction_that_skips_a_read_only_store_says_why_in_the_ui_language(
    qtbot: Any, language: str, controller: AppController, demo: Any
) -> None:
    """The report's line for a read-only store quoted the core's English reason ("the store
    is readonly: … is read-only: memories can be read but not changed …")."""
    db = demo.user_home / "memory.db"
    set_schema_version(db, migrations.latest_version())
    with read_only(db):
        window = opened(qtbot, controller, demo)
        try:
            entry, shown = _compacted_user_store(qtbot, controller)
            assert entry.status == "skipped"
            reason = window.runner.memory.health()["user"].reason
        finally:
            window.replace()
    assert entry.reason == f"the store is readonly: {reason}"  # the core's, as before
    says(
        shown,
        language,
        en=f"skipped: {reason}",
        zh=f"已跳过：{db} 是只读的：可以读取记忆，但不能修改",
        names=(str(db), str(demo.user_home)),
    )


def test_a_compaction_of_a_file_replaced_while_open_says_why_in_the_ui_language(
    qtbot: Any, language: str, controller: AppController, demo: Any
) -> None:
    """A restore or a sync tool swapped the file: the store refuses to compact it, and the
    report said so in the core's English ("memory store disabled: … was deleted, moved or
    replaced …; the store is as it was")."""
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    db = demo.user_home / "memory.db"
    try:
        replace_under_open_store(db)
        entry, shown = _compacted_user_store(qtbot, controller)
        # Found by the compaction itself (failed), or by a read of the app's just before.
        assert entry.status in ("failed", "skipped"), entry
        assert window.runner.memory.health()["user"].reason_code == "file_replaced"
    finally:
        window.replace()
    says(
        shown,
        language,
        en="was deleted, moved or replaced by another program",
        zh=f"{db} 在打开期间被其他程序删除、移动或替换",
        names=(str(db), str(demo.user_home)),
    )


def test_a_compaction_another_program_keeps_waiting_says_why_in_the_ui_language(
    qtbot: Any,
    language: str,
    controller: AppController,
    demo: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another program holds the user file's lock for the whole compaction: the store is
    left as it was, and the report said so in the core's English ("memory store at … stayed
    locked by another process; nothing was written, try again; the store is as it was")."""
    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    window = open_window(qtbot, controller, demo.workspace, demo.user_home)
    db = demo.user_home / "memory.db"
    try:
        with held_by_another_process(db, readers_too=False):
            entry, shown = _compacted_user_store(qtbot, controller)
        assert entry.status == "failed", entry
        assert entry.reason and "stayed locked by another process" in entry.reason
    finally:
        window.replace()
    says(
        shown,
        language,
        en=f"not compacted, nothing changed: another program kept the store {db} locked",
        zh=f"未压缩，没有任何改变：另一个程序一直锁着存储 {db}",
        names=(str(db), str(demo.user_home)),
    )


def test_an_export_that_skips_a_store_says_why_in_the_ui_language(
    qtbot: Any,
    language: str,
    controller: AppController,
    demo: Any,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    """A store that cannot be read is left out of the export: the dialog said nothing of it
    (the core's warning, in English, went nowhere)."""
    from ekko_memory_gui.qt import QDialog
    from ekko_memory_gui.views.dialogs.export_dialog import ExportDialog

    set_schema_version(demo.user_home / "memory.db", migrations.latest_version() + 1)
    window = opened(qtbot, controller, demo)
    target = tmp_path / "out.json"
    shown: list[str] = []
    reports: list[Any] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ExportDialog)
        dialog.path_edit.setText(str(target))
        reports.append(await dialog.start())
        shown.append(dialog.result_label.text())
        return True

    try:
        assert window.runner.memory.health()["user"].reason_code == "newer_schema"
        dialogs.handlers.append(handler)
        wait_task(qtbot, window.export_memories())
    finally:
        window.replace()
    (report,) = reports
    assert report.path == str(target)
    (warning,) = report.warnings
    text = shown[0]
    version = str(migrations.latest_version() + 1)
    says(
        text,
        language,
        en=f"! {warning}",
        zh=f"! 已跳过用户存储：数据库的结构版本为 {version}",
        names=(str(target),),
    )


def test_an_import_into_a_read_only_store_says_why_in_the_ui_language(
    qtbot: Any,
    language: str,
    controller: AppController,
    demo: Any,
    dialogs: ScriptedDialogService,
    tmp_path: Path,
) -> None:
    """A bundle with user memories, the user file read-only: nothing is imported, and the
    dialog said why in the core's English ("the user store cannot be written (… is
    read-only: memories can be read but not changed …); nothing was imported")."""
    from ekko_memory import open_memory
    from ekko_memory_gui.qt import QDialog
    from ekko_memory_gui.views.dialogs.import_dialog import ImportDialog

    bundle = tmp_path / "bundle.json"
    mem = open_memory(demo.workspace, user_home=demo.user_home)
    try:
        mem.exporter.export(bundle)
    finally:
        mem.close()
    db = demo.user_home / "memory.db"
    set_schema_version(db, migrations.latest_version())
    shown: list[str] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ImportDialog)
        dialog.path_edit.setText(str(bundle))
        # Said in the dialog, and only there (not again in the status line).
        assert await dialog.run_import() is None
        shown.append(dialog.summary.text())
        return False

    with read_only(db):
        window = opened(qtbot, controller, demo)
        try:
            assert window.runner.memory.health()["user"].reason_code == "read_only_file"
            dialogs.handlers.append(handler)
            wait_task(qtbot, window.import_bundle())
        finally:
            window.replace()
    (text,) = shown
    assert window.status.error.text() == ""
    if language == "en":
        assert text.startswith("Nothing was imported: "), text
        assert "the user store cannot be written (" in text, text
    else:
        assert text.startswith("没有导入任何内容："), text
        assert f"用户存储无法写入（{db} 是只读的：" in text, text
        assert not english_left(text, str(db)), text


def test_a_purge_refused_by_a_read_only_store_says_why_in_the_ui_language(
    qtbot: Any,
    language: str,
    controller: AppController,
    demo: Any,
    dialogs: ScriptedDialogService,
) -> None:
    """The dry run lists a user memory, the user file is read-only: the purge is refused,
    and the error line said why in the core's English ("the user store cannot be written
    (…); nothing was purged")."""
    from ekko_memory_gui.qt import QDialog
    from ekko_memory_gui.views.dialogs.purge_dialog import PurgeDialog

    db = demo.user_home / "memory.db"
    set_schema_version(db, migrations.latest_version())

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, PurgeDialog)
        dialog.query_edit.setText("少油少盐")
        plan = await dialog.start_dry_run()
        assert any(t.store == "user" for t in plan.targets), plan.targets
        dialogs.confirm_answers.append(True)
        with pytest.raises(Exception, match="cannot be written"):
            await dialog.start_purge()
        return False

    with read_only(db):
        window = opened(qtbot, controller, demo)
        try:
            dialogs.handlers.append(handler)
            wait_task(qtbot, window.purge(), timeout=60000)
            qtbot.waitUntil(lambda: window.status.error.text() != "", timeout=10000)
            error = window.status.error.toolTip()
        finally:
            window.replace()
    says(
        error,
        language,
        en="the user store cannot be written (",
        zh=f"用户存储无法写入（{db} 是只读的：",
        names=(str(db),),
    )
