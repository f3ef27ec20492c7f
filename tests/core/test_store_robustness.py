"""Bad input and hostile files: a clear error or a diagnostic, never a partial row."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from sqlalchemy import text

from ekko_memory import open_memory
from ekko_memory.errors import StoreUnavailable
from ekko_memory.models import MemoryNode
from ekko_memory.store import migrations
from ekko_memory.store.search_text import index_tokens
from ekko_memory.store.sql_store import SqlStore
from tests.backends import Backend
from tests.core.factories import make_message, make_node
from tests.requirements import missing
from tests.unprivileged import run_unprivileged


def node_count(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM memory_nodes").fetchone()[0])


def open_while_locked(path: Path) -> SqlStore:
    """The store at ``path`` opened while another connection keeps it locked (in WAL mode
    only an exclusive locking mode keeps readers out)."""
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("PRAGMA locking_mode = EXCLUSIVE")
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        return SqlStore.open_sqlite(path)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("scope", "galaxy", "scope"),
        ("type", "opinion", "type"),
        ("status", "alive", "status"),
        ("confidence", 1.5, "confidence"),
        ("importance", -0.1, "importance"),
        ("confidence", float("nan"), "confidence"),
        ("key", "Avoid Food!", "snake_case"),
        ("category_path", [], "at least one segment"),
        ("category_path", ["a/b"], "contains '/'"),
        ("title", "   ", "must not be empty"),
        ("value_json", {"x": float("inf")}, "NaN or infinity"),
        ("content", "长" * (3 * 1024 * 1024), "the limit is"),
    ],
)
def test_invalid_node_fields_are_refused_clearly(field: str, value: object, message: str) -> None:
    with pytest.raises(ValidationError) as info:
        make_node(**{field: value})
    assert message in str(info.value)


def test_malformed_json_is_a_validation_error() -> None:
    with pytest.raises(ValidationError):
        MemoryNode.model_validate_json('{"id": "mem_x", "scope": "user", ')


# JSON that parses in no Python: arrays nested past the interpreter's recursion limit, and
# an integer longer than int() converts.
DEEP_JSON = "[" * 100_000 + "]" * 100_000
LONG_NUMBER_JSON = '{"queryText": "香菜", "limit": 1' + "0" * 5000 + "}"


@pytest.mark.parametrize("args", [DEEP_JSON, '{"queryText": ' + DEEP_JSON + "}", LONG_NUMBER_JSON])
def test_tool_arguments_no_parser_can_read_are_an_error_result(tmp_path: Path, args: str) -> None:
    """Function-calling agents hand over the model's arguments as a JSON string: arguments
    nested too deeply for the parser come back as an error result, never raised."""
    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    try:
        s = mem.session("s1", user_id="u1")
        for tool in ("memory_search", "memory_propose_update", "memory_forget", "memory_get"):
            res = s.call_tool(tool, args)
            assert res["error"]["code"] == "invalid_arguments", res
    finally:
        mem.close()


def test_a_config_file_no_parser_can_read_gives_defaults_and_a_warning(tmp_path: Path) -> None:
    config = tmp_path / "ws" / ".ekko" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(DEEP_JSON, encoding="utf-8")
    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    try:
        assert mem.config_warning is not None and "config.json" in mem.config_warning
        assert mem.health()["workspace"].status == "ok"
    finally:
        mem.close()


def test_a_bad_message_is_invalid_input_and_logs_nothing(tmp_path: Path) -> None:
    """The agent-facing API raises the core's own error (with each field's complaint),
    never pydantic's, and the log stays as it was."""
    from ekko_memory import InvalidInput, open_memory

    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    try:
        s = mem.session("s1", user_id="u1")
        for role, content, complaint in (
            ("robot", "x", "role: Input should be 'system', 'user', 'assistant' or 'tool'"),
            ("user", None, "content: Input should be a valid string"),
            ("user", "长" * (9 * 1024 * 1024), "the limit is"),
        ):
            with pytest.raises(InvalidInput, match="invalid message") as info:
                s.append_message(role, content)  # type: ignore[arg-type]
            assert complaint in str(info.value)
        assert mem.list_recent_messages(session_id="s1", limit=5) == []
    finally:
        mem.close()


def test_lone_surrogates_and_emoji_round_trip(backend: Backend, tmp_path: Path) -> None:
    store = backend.open_store(tmp_path)
    node = make_node(title="喜欢🌶️辣\ud800", content="emoji 🍜 and a lone \udfff surrogate")
    assert node.title == "喜欢🌶️辣\ufffd"
    store.upsert_node(node)
    msg = make_message(content="坏字符\ud83d 结尾 😀")
    store.append_message(msg)
    got = store.list_active_nodes(limit=1)[0]
    assert got.title == "喜欢🌶️辣\ufffd" and "🍜" in got.content
    assert store.list_recent_messages(session_id="s1", limit=1)[0].content == "坏字符\ufffd 结尾 😀"
    store.close()


def test_nul_characters_become_replacement_characters(backend: Backend, tmp_path: Path) -> None:
    # PostgreSQL's text cannot hold NUL; both backends store U+FFFD in its place.
    store = backend.open_store(tmp_path)
    store.upsert_node(make_node(title="空\x00字符", content="a\x00b"))
    store.append_message(make_message(content="x\x00y"))
    got = store.list_active_nodes(limit=1)[0]
    assert (got.title, got.content) == ("空\ufffd字符", "a\ufffdb")
    assert store.list_recent_messages(session_id="s1", limit=1)[0].content == "x\ufffdy"
    store.close()


def test_three_megabyte_message_is_kept_whole(backend: Backend, tmp_path: Path) -> None:
    store = backend.open_store(tmp_path)
    big = "日志行 log line\n" * 200_000  # ~3.2 MB of UTF-8
    store.append_message(make_message(content=big))
    assert store.list_recent_messages(session_id="s1", limit=1)[0].content == big
    store.close()


@pytest.mark.sqlite_only(reason="a workspace folder's name on disk")
def test_a_workspace_folder_whose_name_is_not_utf8_opens(tmp_path: Path) -> None:
    """A folder named in GBK (中文 from an old archive): Python hands the name over with
    surrogate escapes, and opening it raised UnicodeEncodeError (opening never raises)."""
    ws = tmp_path / os.fsdecode(b"\xd6\xd0\xce\xc4")
    try:
        ws.mkdir()
    except OSError:
        missing("a file system that takes non-UTF-8 names", "run the tests on ext4 or tmpfs")
    mem = open_memory(ws, user_home=tmp_path / "home")
    assert mem.health()["workspace"].status == "ok", mem.health()
    mem.session("s1", user_id="u1").append_message("user", "记住这个文件夹")
    mem.close()
    reopened = open_memory(ws, user_home=tmp_path / "home")
    assert [m.content for m in reopened.list_recent_messages("s1", limit=5)] == ["记住这个文件夹"]
    reopened.close()
    # In that folder, byte for byte (not in one named after its escapes).
    assert (ws / ".ekko" / "memory.db").is_file()
    assert sorted(os.listdir(tmp_path)) == sorted([ws.name, "home"])


@pytest.mark.sqlite_only(reason="a corrupt file")
def test_corrupt_file_opens_disabled_and_agent_goes_on(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / ".ekko").mkdir(parents=True)
    (ws / ".ekko" / "memory.db").write_bytes(os.urandom(64 * 1024))
    mem = open_memory(ws, user_home=tmp_path / "home")
    health = mem.health()
    assert health["workspace"].status == "disabled"
    assert "not a readable Ekko Memory database" in (health["workspace"].reason or "")
    assert health["user"].status == "ok"
    with pytest.raises(StoreUnavailable):
        mem.workspace_store.append_message(make_message())
    mem.close()


@pytest.mark.sqlite_only(reason="a truncated file")
def test_truncated_file_opens_disabled(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    for i in range(300):
        store.upsert_node(make_node(title=f"记忆 {i}", content="内容" * 200))
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    reopened = SqlStore.open_sqlite(path)
    assert reopened.health.status == "disabled", reopened.health


@pytest.mark.sqlite_only(reason="a directory where the file should be")
def test_directory_in_place_of_file(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    path.mkdir()
    store = SqlStore.open_sqlite(path)
    assert store.health.status == "disabled"
    assert "is a directory" in (store.health.reason or "")


READ_ONLY_CHECK = """
from pathlib import Path
from typing import Any
from ekko_memory.errors import StoreUnavailable
from ekko_memory.store.sql_store import SqlStore
from tests.core.factories import make_node

def check(path):
    store = SqlStore.open_sqlite(Path(path))
    out = {"status": store.health.status, "nodes": len(store.list_active_nodes(limit=5))}
    try:
        store.upsert_node(make_node(title="不该写入"))
        out["write"] = "written"
    except StoreUnavailable as e:
        out["write"] = str(e)
    store.close()
    return out
"""


def _read_only_store(folder: Path) -> Path:
    path = folder / "m.db"
    store = SqlStore.open_sqlite(path)
    store.upsert_node(make_node())
    store.close()
    path.chmod(0o444)
    folder.chmod(0o555)
    return path


@pytest.mark.sqlite_only(reason="file permissions")
def test_read_only_file_reads_but_refuses_writes() -> None:
    # As a user without privileges, also when the suite runs as root (tests/unprivileged.py).
    out = run_unprivileged(READ_ONLY_CHECK, _read_only_store)
    assert out["status"] == "readonly"
    assert out["nodes"] == 1
    assert "read-only" in out["write"] or "readonly" in out["write"]


@pytest.mark.sqlite_only(reason="file permissions")
def test_read_only_file_as_root_via_immutable_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Root ignores permission bits, so simulate what os.access reports for a read-only file.
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    store.upsert_node(make_node())
    store.close()
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if mode == os.W_OK else real_access(p, mode)
    )
    ro = SqlStore.open_sqlite(path)
    assert ro.health.status == "readonly"
    assert not ro.health.writable
    assert len(ro.list_active_nodes(limit=5)) == 1
    with pytest.raises(StoreUnavailable):
        ro.upsert_node(make_node())


@pytest.mark.sqlite_only(reason="the file and its backup (PostgreSQL: test_postgres.py)")
def test_failed_migration_disables_and_leaves_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    store.upsert_node(make_node())
    store.close()

    def broken_step(conn, dialect) -> None:  # type: ignore[no-untyped-def]
        conn.execute(text("CREATE TABLE half_done (x INTEGER)"))
        raise RuntimeError("step exploded")

    shipped = migrations.latest_version()
    monkeypatch.setattr(
        migrations, "MIGRATIONS", [*migrations.MIGRATIONS, (shipped + 1, "broken", broken_step)]
    )
    failed = SqlStore.open_sqlite(path)
    assert failed.health.status == "disabled"
    assert "step exploded" in (failed.health.reason or "")
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        version = conn.execute("SELECT max(version) FROM memory_schema_migrations").fetchone()[0]
    assert "half_done" not in tables and version == shipped
    assert node_count(path) == 1
    # The backup was taken before the attempt and holds the data.
    backups = list((tmp_path / "backups").glob(f"m-v{shipped}-*.db"))
    assert len(backups) == 1 and node_count(backups[0]) == 1
    assert backups[0].stat().st_mode & 0o077 == 0


@pytest.mark.sqlite_only(reason="the SQLite file's migration backups")
def test_backups_rotate_by_when_they_were_taken_not_by_name(tmp_path: Path) -> None:
    """By name, m-v10 sorts before m-v2: with backups of schema 2, 9, 10 and 11 the
    rotation removed the two newest. The oldest go, whatever their version's digits."""
    store = SqlStore.open_sqlite(tmp_path / "m.db")
    folder = tmp_path / "backups"
    folder.mkdir(exist_ok=True)
    for day, version in enumerate([2, 9, 10, 11], start=1):
        (folder / f"m-v{version}-2020-01-0{day}T000000000000Z.db").write_bytes(b"")
    newest = store.dialect.backup(12)
    assert newest is not None
    assert [p.name.split("-")[1] for p in store.backups()] == ["v10", "v11", "v12"]
    # A file restored from an old copy and upgraded again: its fresh backup is the newest.
    restored = store.dialect.backup(3)
    assert restored is not None and restored.exists()
    assert [p.name.split("-")[1] for p in store.backups()] == ["v11", "v12", "v3"]
    store.close()


def _child_json(code: str, *args: object) -> Any:
    """What a child Python process running ``code`` with ``args`` printed, as JSON."""
    proc = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


_OPEN_WITH_SMALL_FILES = """
import json, resource, sys
from ekko_memory.store.sql_store import SqlStore
# Files may grow to 64 KiB here, as if the disk were full: the upgrade's backup copy hits it.
resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
store = SqlStore.open_sqlite(sys.argv[1])
print(json.dumps({"status": store.health.status, "reason": store.health.reason}))
store.close()
"""


@pytest.mark.sqlite_only(reason="the SQLite file's backup before an upgrade")
def test_a_backup_that_does_not_fit_leaves_the_file_and_says_why(tmp_path: Path) -> None:
    """No room for the copy taken before an upgrade: the store says that, not that the
    file is unreadable, and leaves no half copy (which would hold private data)."""
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    for i in range(200):
        store.upsert_node(make_node(title=f"记忆{i}", content="内容" * 200))
    store.close()
    with sqlite3.connect(path) as conn:  # the file as schema version 6 left it
        conn.execute("DROP INDEX idx_memory_nodes_topic")
        conn.execute("DELETE FROM memory_schema_migrations WHERE version >= 7")
    assert path.stat().st_size > 64 * 1024
    seen = _child_json(_OPEN_WITH_SMALL_FILES, path)
    assert seen["status"] == "disabled"
    assert "could not back the file up" in seen["reason"], seen
    assert "not a readable" not in seen["reason"]
    assert list((tmp_path / "backups").iterdir()) == []
    assert stat.S_IMODE((tmp_path / "backups").stat().st_mode) == 0o700
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT max(version) FROM memory_schema_migrations").fetchone()[0] == 6
    reopened = SqlStore.open_sqlite(path)  # room again: the upgrade goes through
    assert reopened.health.status == "ok" and reopened.health.backup is not None
    assert stat.S_IMODE(reopened.health.backup.stat().st_mode) == 0o600
    reopened.close()
    assert node_count(path) == 200


_WRITE_PAST_A_SIZE_LIMIT = """
import json, resource, sys
from ekko_memory import open_memory
from ekko_memory.errors import StoreUnavailable
ws, home, room = sys.argv[1], sys.argv[2], int(sys.argv[3])
mem = open_memory(ws, user_home=home)
s = mem.session("s1", user_id="u1")
# The files may grow by ``room`` bytes (a disk quota, a file size limit).
resource.setrlimit(resource.RLIMIT_FSIZE, (room, resource.RLIM_INFINITY))
refused = []
for i in range(300):
    try:
        s.append_message("user", f"消息{i} " + "长" * 500)
    except StoreUnavailable as e:
        refused.append(str(e))
out = {"refused": refused[:1], "count": len(refused), "status": mem.health()["workspace"].status}
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
s.append_message("user", "又有空间了")  # writes go on once there is room again
out["last"] = mem.list_recent_messages(session_id="s1", limit=1)[0].content
mem.close()
print(json.dumps(out, ensure_ascii=False))
"""


@pytest.mark.sqlite_only(reason="SQLite's error for a write past a file size limit")
def test_a_write_past_a_size_limit_is_refused_without_calling_the_file_damaged(
    tmp_path: Path,
) -> None:
    """SQLite reports a write the system refused with EFBIG or EDQUOT as a 'disk I/O error':
    the file is whole, so the store stays usable once there is room again."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    open_memory(ws, user_home=home).close()
    room = (ws / ".ekko" / "memory.db").stat().st_size + 128 * 1024
    seen = _child_json(_WRITE_PAST_A_SIZE_LIMIT, ws, home, room)
    assert seen["count"] > 0 and seen["status"] == "ok", seen
    assert "damaged" not in seen["refused"][0] and "nothing was written" in seen["refused"][0]
    assert seen["last"] == "又有空间了"
    with sqlite3.connect(ws / ".ekko" / "memory.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.sqlite_only(reason="SQLite's statistics table")
def test_an_upgrade_refreshes_planner_statistics(tmp_path: Path) -> None:
    """An index a migration adds has no statistics until analyzed, and SQLite's planner
    then chooses badly (a turn went from 1 to 30 ms at 100k nodes after version 7)."""
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    for i in range(20):
        store.upsert_node(make_node(title=f"记忆{i}", value_json=f"食材{i}"))
    store.close()
    # The file as schema version 6 left it, analyzed then.
    with sqlite3.connect(path) as conn:
        conn.execute("DROP INDEX idx_memory_nodes_topic")
        conn.execute("DELETE FROM memory_schema_migrations WHERE version >= 7")
        conn.execute("ANALYZE")
    upgraded = SqlStore.open_sqlite(path)
    assert upgraded.health.status == "ok"
    assert upgraded.health.schema_version == migrations.latest_version()
    upgraded.close()
    with sqlite3.connect(path) as conn:
        stats = conn.execute(
            "SELECT count(*) FROM sqlite_stat1 WHERE idx = 'idx_memory_nodes_topic'"
        ).fetchone()[0]
    assert stats == 1


@pytest.mark.sqlite_only(reason="the file rewound with sqlite3")
def test_an_upgrade_gives_older_nodes_canonical_subjects(tmp_path: Path) -> None:
    """Version 8: a subject is the canonical name (cilantro → 香菜), older rows included,
    so an older "cilantro" memory is found, deduplicated and corrected as 香菜."""
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    said = make_node(key="avoid_ingredient", value_json="cilantro", title="Avoids cilantro")
    other = make_node(key="avoid_ingredient", value_json="葱", title="不吃葱")
    store.upsert_node(said)
    store.upsert_node(other)
    store.close()
    # The file as version 7 wrote it: the subject as said.
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE memory_nodes SET subject = 'cilantro' WHERE id = ?", (said.id,))
        conn.execute("DELETE FROM memory_schema_migrations WHERE version >= 8")
    upgraded = SqlStore.open_sqlite(path)
    assert upgraded.health.status == "ok"
    upgraded.close()
    with sqlite3.connect(path) as conn:
        subjects = dict(conn.execute("SELECT id, subject FROM memory_nodes"))
        value = conn.execute("SELECT value_json FROM memory_nodes WHERE id = ?", (said.id,))
        assert value.fetchone()[0] == '"cilantro"'  # the value stays as said
    assert subjects == {said.id: "香菜", other.id: "葱"}


@pytest.mark.sqlite_only(reason="the file rewound with sqlite3")
def test_an_upgrade_reindexes_words_with_invisible_characters(tmp_path: Path) -> None:
    """Version 9: a memory indexed while invisible characters still split words (香<ZWSP>菜
    as 香 and 菜) is found by the word typed plainly once the file is upgraded."""
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    pasted = make_node(title="用户不吃香\u200b菜", content="cilan\u00adtro", tags=[], entities=[])
    plain = make_node(title="用户不吃葱", content="scallion", tags=[], entities=[])
    store.upsert_node(pasted)
    store.upsert_node(plain)
    store.close()
    with sqlite3.connect(path) as conn:  # the index as version 8 wrote it
        seq = conn.execute("SELECT seq FROM memory_nodes WHERE id = ?", (pasted.id,)).fetchone()[0]
        conn.execute("DELETE FROM memory_nodes_fts WHERE rowid = ?", (seq,))
        conn.execute(
            "INSERT INTO memory_nodes_fts (rowid, title, content, tags, entities)"
            " VALUES (?, ?, ?, '', '')",
            (seq, index_tokens("用户不吃香 菜"), index_tokens("cilan tro")),
        )
        conn.execute("DELETE FROM memory_schema_migrations WHERE version >= 9")
    upgraded = SqlStore.open_sqlite(path)
    assert upgraded.health.status == "ok"
    for query in ("香菜", "cilantro"):
        assert [n.id for n in upgraded.search_nodes(query=query, limit=5)] == [pasted.id], query
    assert [n.id for n in upgraded.search_nodes(query="葱", limit=5)] == [plain.id]
    upgraded.close()


@pytest.mark.sqlite_only(reason="written with sqlite3 (PostgreSQL: test_postgres.py)")
def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    SqlStore.open_sqlite(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO memory_schema_migrations VALUES (99, '2030-01-01T00:00:00.000000Z')"
        )
    store = SqlStore.open_sqlite(path)
    assert store.health.status == "disabled"
    assert "newer" in (store.health.reason or "")


@pytest.mark.sqlite_only(
    reason="SQLite's busy timeout (PostgreSQL's lock timeout: test_postgres.py)"
)
def test_busy_database_gives_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ekko_memory.store import sqlite_dialect

    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    quick = SqlStore.open_sqlite(path)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable, match="locked"):
            quick.upsert_node(make_node())
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert quick.health.status == "ok"
    store.close()
    quick.close()

    # Opening a store another program keeps locked says so (not "not a database").
    locked = open_while_locked(path)
    assert locked.health.status == "disabled"
    assert "locked by another program, which kept it for 0.2 s" in (locked.health.reason or "")
    assert "not a readable" not in (locked.health.reason or "")
    reopened = SqlStore.open_sqlite(path)
    assert reopened.health.status == "ok"
    reopened.close()


@pytest.mark.sqlite_only(reason="SQLite's busy timeout")
def test_a_file_locked_when_the_store_opened_is_used_once_the_lock_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program kept the file locked while an agent started: the store opens
    disabled, and opens by itself once the lock is gone (it stayed disabled for the life
    of the process: an MCP server had to be restarted)."""
    from ekko_memory.store import sql_store, sqlite_dialect

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    monkeypatch.setattr(sql_store, "REOPEN_EVERY_S", 0.05)
    ws = tmp_path / "ws"
    open_memory(ws, user_home=tmp_path / "home").close()
    blocker = sqlite3.connect(ws / ".ekko" / "memory.db", isolation_level=None)
    blocker.execute("PRAGMA locking_mode = EXCLUSIVE")  # keeps readers out too
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        mem = open_memory(ws, user_home=tmp_path / "home")
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        assert mem.health()["workspace"].status == "disabled"
        assert s.build_context("今晚吃什么？").diagnostics.store_status == "degraded"
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    try:
        deadline = time.monotonic() + 30
        while mem.health()["workspace"].status != "ok":
            assert time.monotonic() < deadline, mem.health()
            time.sleep(0.05)
        s.append_message("user", "锁放开了")
        assert [m.content for m in mem.list_recent_messages("s1", limit=1)] == ["锁放开了"]
    finally:
        mem.close()


@pytest.mark.sqlite_only(reason="SQLite's busy timeout")
def test_a_proposal_refused_under_a_lock_says_nothing_was_written_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent read "…stayed locked by another process; nothing was written, try again;
    nothing was written": the refusal added the words the store's error already said."""
    from ekko_memory.store import sqlite_dialect

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    ws = tmp_path / "ws"
    mem = open_memory(ws, user_home=tmp_path / "home")
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    blocker = sqlite3.connect(ws / ".ekko" / "memory.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program's write transaction
    try:
        res = s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "项目约定",
                "node": {
                    "scope": "workspace",
                    "domain": "项目",
                    "type": "constraint",
                    "title": "提交前跑测试",
                    "content": "每次提交前都要跑完整测试。",
                },
            },
        )
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        mem.close()
    assert res["status"] == "rejected" and "locked by another process" in res["reason"], res
    assert res["reason"].count("nothing was written") == 1, res["reason"]
    assert res["error"]["message"].count("nothing was written") == 1, res["error"]


_MANY_THREADS = r"""
import sys, threading
from pathlib import Path
from typing import Any
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.store.filters import NodeFilter
from tests.core.factories import make_node

def hammer(store, errors, rounds=40):
    try:
        for i in range(rounds):
            with store.write() as w:
                w.insert_nodes([make_node(title=f"线程写入{i}")])
            with store.read() as r:
                r.find_node_rows(NodeFilter(), limit=20)
                r.search_rows("线程", NodeFilter(), limit=5, any_term=True)
    except Exception as e:  # reported, not raised: the main thread counts them
        errors.append(repr(e))

for store in (SqlStore.open_sqlite(Path(sys.argv[1])), SqlStore.open_in_memory()):
    errors = []
    threads = [threading.Thread(target=hammer, args=(store, errors)) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with store.read() as r:
        count = r.count_nodes(NodeFilter())
    store.close()
    assert not errors and count == 16 * 40, (errors[:3], count)
print("ok")
"""


@pytest.mark.sqlite_only(reason="the pools of SQLite engines (a file, and in memory)")
def test_many_threads_share_a_store_safely(tmp_path: Path) -> None:
    """More threads than the pool keeps, on a file store and on an in-memory one: every
    write lands and nothing crashes (SQLAlchemy's default pool for a URL without a file
    had closed connections other threads were using: a segfault). In a child process, so
    a crash fails this test instead of the run."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _MANY_THREADS, str(tmp_path / "m.db")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", (
        done.returncode,
        done.stderr[-2000:],
    )


@pytest.mark.parametrize("session_id", ["a\x00b", "会话\ud800"])
def test_a_session_with_an_unstorable_character_finds_its_own_messages(
    tmp_path: Path, session_id: str
) -> None:
    """Its messages store NUL and lone surrogates as U+FFFD, as all text: the handle's id
    is spelled the same way, or it never saw its own conversation again."""
    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    try:
        s = mem.session(session_id, user_id="u\x00", workspace_id="w1")
        s.append_message("user", "记住，我以后做饭不要香菜。")
        assert [m.content for m in s.build_context("今晚吃什么？").recent_messages] == [
            "记住，我以后做饭不要香菜。"
        ]
    finally:
        mem.close()


def test_ids_and_filters_no_store_can_encode_are_invalid_input(tmp_path: Path) -> None:
    """A lone surrogate in an id or a filter given to the Python API is the core's own
    error, not the driver's UnicodeEncodeError."""
    from ekko_memory import BrowseFilter, InvalidInput, PurgeFilter

    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    lone = "\ud800"
    try:
        for call in (
            lambda: mem.history(f"mem_{lone}"),
            lambda: mem.decide(f"pnd_{lone}", approve=True, actor="user"),
            lambda: mem.list_recent_messages(session_id=lone, limit=3),
            lambda: mem.browse.search(BrowseFilter(session_id=lone, text="香菜")),
            lambda: mem.purger.plan(PurgeFilter(user_id=lone)),
        ):
            with pytest.raises(InvalidInput, match="lone surrogate"):
                call()
    finally:
        mem.close()


def _remove_workspace(ws: Path, db: Path) -> None:
    shutil.rmtree(ws)  # a `git clean -fdx`, a folder thrown away


def _restore_a_copy_over(ws: Path, db: Path) -> None:
    # Another copy of the file put in its place (a restore, a sync tool): a new file there.
    copy = db.with_name("copy.db")
    shutil.copy(db, copy)
    for part in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        part.unlink(missing_ok=True)
    copy.rename(db)


@pytest.mark.sqlite_only(reason="the workspace file deleted or replaced under an open store")
@pytest.mark.parametrize("swap", [_remove_workspace, _restore_a_copy_over])
def test_a_file_deleted_or_replaced_while_open_refuses_writes_instead_of_losing_them(
    tmp_path: Path, swap: Any
) -> None:
    """SQLite writes on through the descriptors of the file it opened: once that file is
    deleted or replaced, every write 'succeeded' into a file nobody could open again, and
    was gone at close. Now the store says what happened and refuses them."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    db = ws / ".ekko" / "memory.db"
    mem = open_memory(ws, user_home=home)
    mem.workspace_store.append_message(make_message(content="之前"))
    swap(ws, db)
    with pytest.raises(StoreUnavailable) as info:
        mem.workspace_store.append_message(make_message(content="之后"))
    assert "deleted, moved or replaced" in str(info.value)
    health = mem.health()
    assert health["workspace"].status == "disabled" and health["user"].status == "ok"
    ctx = mem.session("s1", user_id="u1").build_context("香菜")  # the agent goes on
    assert any("deleted, moved or replaced" in w for w in ctx.diagnostics.warnings), ctx
    mem.close()
    reopened = open_memory(ws, user_home=home)  # what is at the path now opens as usual
    assert reopened.health()["workspace"].status == "ok"
    messages = [m.content for m in reopened.list_recent_messages("s1", limit=10)]
    assert "之后" not in messages
    reopened.close()


_KILLED_WHILE_BACKING_UP = """
import os, signal, sys
from ekko_memory.store.sql_store import SqlStore

def kill_at_the_copy(frame, event, arg):
    # SIGKILL the moment SQLite starts copying the file into the backup.
    if event == "c_call" and getattr(arg, "__name__", "") == "backup":
        os.kill(os.getpid(), signal.SIGKILL)

sys.setprofile(kill_at_the_copy)
SqlStore.open_sqlite(sys.argv[1])
"""


@pytest.mark.sqlite_only(reason="the SQLite file's backup before an upgrade")
def test_a_backup_cut_short_by_a_kill_is_not_left_looking_like_a_backup(tmp_path: Path) -> None:
    """A process killed while it copied the file before an upgrade left the copy under a
    backup's name: one that restores nothing, kept among the backups. Now the copy gets
    its name when whole, and the next open clears what the killed one left."""
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    for i in range(50):
        store.upsert_node(make_node(title=f"记忆{i}"))
    store.close()
    with sqlite3.connect(path) as conn:  # the file as schema version 6 left it
        conn.execute("DROP INDEX idx_memory_nodes_topic")
        conn.execute("DELETE FROM memory_schema_migrations WHERE version >= 7")
    conn.close()
    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_WHILE_BACKING_UP, str(path)], timeout=60, check=False
    )
    assert killed.returncode == -9
    backups = tmp_path / "backups"
    assert [p for p in backups.iterdir() if p.name.endswith(".db")] == []
    assert [p for p in backups.iterdir() if p.name.endswith(".part")] != []  # cut short
    reopened = SqlStore.open_sqlite(path)
    assert reopened.health.status == "ok" and reopened.health.backup is not None
    assert reopened.backups() == [reopened.health.backup]
    assert list(backups.iterdir()) == [reopened.health.backup]
    reopened.close()
    assert node_count(reopened.health.backup) == 50


def test_each_store_problem_has_a_code_with_its_specifics_and_the_same_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interface in another language words a problem from ``reason_code`` and
    ``reason_args`` (it had only the English sentence to show or parse); ``reason`` stays
    the sentence agents and the CLI read."""
    from ekko_memory.store import sqlite_dialect

    folder = tmp_path / "dir.db"
    folder.mkdir()
    h = SqlStore.open_sqlite(folder).health
    assert (h.reason_code, h.reason_args) == ("directory", {"path": str(folder)})
    assert h.reason == f"{folder} is a directory, not a database file; move it away"

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 500)
    h = SqlStore.open_sqlite(junk).health
    assert h.reason_code == "not_a_database" and h.reason_args["path"] == str(junk)
    assert h.reason == f"{junk} is not a readable Ekko Memory database ({h.reason_args['detail']})"

    newer = tmp_path / "newer.db"
    SqlStore.open_sqlite(newer).close()
    latest = migrations.latest_version()
    conn = sqlite3.connect(newer, isolation_level=None)
    conn.execute(
        "INSERT INTO memory_schema_migrations (version, applied_at) VALUES (?, 'x')", (latest + 1,)
    )
    conn.close()
    h = SqlStore.open_sqlite(newer).health
    assert h.reason_code == "newer_schema"
    assert h.reason_args == {"version": str(latest + 1), "latest": str(latest)}
    assert h.reason == (
        f"the database uses schema version {latest + 1}, newer than this release's {latest}; "
        "upgrade Ekko Memory to open it"
    )

    monkeypatch.setattr(sqlite_dialect, "BUSY_TIMEOUT_MS", 200)
    locked_path = tmp_path / "locked.db"
    SqlStore.open_sqlite(locked_path).close()
    locked = open_while_locked(locked_path)
    assert locked.health.reason_code == "locked"
    assert locked.health.reason_args == {"path": str(locked_path), "seconds": "0.2"}
    locked.close()

    # Found while in use: the file replaced; the refusal carries the code too.
    path = tmp_path / "m.db"
    store = SqlStore.open_sqlite(path)
    copy = tmp_path / "copy.db"
    shutil.copy(path, copy)
    path.unlink()
    copy.rename(path)
    with pytest.raises(StoreUnavailable) as refused:
        store.upsert_node(make_node())
    assert store.health.reason_code == "file_replaced"
    assert store.health.reason_args == {"path": str(path)}
    assert str(refused.value) == f"memory store disabled: {store.health.reason}"
    assert refused.value.status == "disabled"
    assert refused.value.reason_code == "file_replaced"
    assert refused.value.reason_args == {"path": str(path)}
    store.close()
