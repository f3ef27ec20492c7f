"""Connection details without a server: URLs assembled with a quoted password, read back,
stripped of the password for the recent list; the command line's database options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from ekko_memory_gui.app import database_target, parse_args
from ekko_memory_gui.controller import DatabaseTarget, OpenWorkspace
from ekko_memory_gui.services.database_url import (
    DatabaseFields,
    build_url,
    display_name,
    has_password,
    parse_url,
    without_password,
)
from ekko_memory_gui.services.settings import AppSettings, RecentDatabase
from ekko_memory_gui.views.dialogs.connect_dialog import ConnectDialog

AWKWARD = "p@ss:/w rd%#?"


def test_fields_become_a_url_with_the_password_quoted() -> None:
    fields = DatabaseFields("db.example.org", 5433, "ekko team", "me@corp", AWKWARD)
    url = build_url(fields)
    assert url.startswith("postgresql+psycopg://") and AWKWARD not in url
    parsed = make_url(url)  # what the core (SQLAlchemy + psycopg) will read
    assert (parsed.username, parsed.password, parsed.host, parsed.port, parsed.database) == (
        "me@corp",
        AWKWARD,
        "db.example.org",
        5433,
        "ekko team",
    )
    assert parse_url(url) == fields
    assert build_url(DatabaseFields("localhost", 5432, "ekko", "me", "")).endswith(
        "://me@localhost/ekko"
    )
    socket = build_url(DatabaseFields("/var/run/postgresql", 5432, "ekko", "me", ""))
    assert make_url(socket).query["host"] == "/var/run/postgresql"


def test_the_password_never_reaches_the_recent_list(tmp_path: Path) -> None:
    url = build_url(DatabaseFields("127.0.0.1", 5432, "ekko", "me", AWKWARD))
    assert has_password(url) and not has_password(without_password(url))
    assert make_url(without_password(url)).username == "me"
    assert display_name(url) == "me@127.0.0.1/ekko"
    settings = AppSettings(tmp_path / "gui.ini")
    settings.remember_database(url, "team1")
    settings.remember_database(url, "team1")
    assert settings.recent_databases() == [RecentDatabase(without_password(url), "team1")]
    text = (tmp_path / "gui.ini").read_text(encoding="utf-8")
    assert "p%40ss" not in text and "p@ss" not in text
    ws = OpenWorkspace(None, None, DatabaseTarget(url, "team1"))
    assert "p%40ss" not in ws.location + ws.name + repr(ws)


def test_database_options_of_the_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    url = "postgresql+psycopg://me@db/ekko"
    target = database_target(parse_args(["--database-url", url, "--namespace", "team1"]))
    assert target == DatabaseTarget(url, "team1")
    assert database_target(parse_args([])) is None
    with pytest.raises(SystemExit):
        parse_args(["--database-url", url, "--workspace", str(tmp_path)])
    # $EKKO_DATABASE_URL when neither a workspace nor the demo is asked for (as open_memory).
    monkeypatch.setenv("EKKO_DATABASE_URL", url)
    monkeypatch.setenv("EKKO_DATABASE_NAMESPACE", "team2")
    assert database_target(parse_args([])) == DatabaseTarget(url, "team2")
    assert database_target(parse_args(["--workspace", str(tmp_path)])) is None
    assert database_target(parse_args(["--demo"])) is None


def test_the_dialog_checks_its_fields_and_shows_a_refused_url_inline(
    qtbot: Any, qasync_loop: Any
) -> None:
    dialog = ConnectDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.connect_button.click()  # no database named yet: said inline, nothing started
    assert dialog.task is None and dialog.error_label.text() == "Enter the name of the database."
    dialog.tabs.setCurrentIndex(1)
    dialog.url_edit.setText("sqlite:///somewhere.db")
    dialog.connect_button.click()
    task = dialog.task
    assert task is not None
    qtbot.waitUntil(task.done, timeout=10000)
    assert task.result() is False and dialog.isVisible() and dialog.memory is None
    assert "unsupported database URL" in dialog.error_label.text()
    assert dialog.connect_button.isEnabled() and not dialog.busy.isVisible()
    dialog.reject()
