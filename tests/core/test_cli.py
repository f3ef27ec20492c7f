"""The ``ekko-memory`` command line on real SQLite files, and on PostgreSQL.

Every command runs at least once as a real subprocess (``python -m ekko_memory``) with
its ``--json`` output parsed; the core commands (search, show, history, pending, approve,
reject, export, import, stats) run on both backends (``--database-url`` on PostgreSQL).
The many error and formatting variants run ``main()`` in-process, which is the same code
without the interpreter start-up.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ekko_memory import StoreUnavailable, open_memory
from ekko_memory.interfaces.cli import main
from ekko_memory.interfaces.cli_table import display_width
from ekko_memory.interfaces.cli_transfer import human_bytes
from ekko_memory.store.sql_store import SqlStore
from tests.backends import Backend
from tests.core.helpers import propose
from tests.core.sample_data import Sample, seed


class Cli:
    """Runs ``python -m ekko_memory`` against one workspace and user home (or the stores
    that ``location`` options name, e.g. ``--database-url``)."""

    def __init__(
        self,
        workspace: Path,
        home: Path,
        *,
        location: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.workspace = workspace
        self.home = home
        self.location = (
            location
            if location is not None
            else ["--workspace", str(workspace), "--user-home", str(home)]
        )
        self.env = env or {}

    def argv(self, *args: str) -> list[str]:
        return [*self.location, *args]

    def __call__(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "ekko_memory", *self.argv(*args)],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "EKKO_HOME": str(self.home), **self.env},
            check=False,
        )

    def json(self, *args: str, code: int = 0, stdin: str = "") -> Any:
        proc = self(*args, "--json", stdin=stdin)
        assert proc.returncode == code, (proc.returncode, proc.stderr)
        return json.loads(proc.stdout)


class InProcess:
    """``main(argv)`` in this process, with stdout/stderr captured."""

    def __init__(
        self, cli: Cli, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self.cli = cli
        self.capsys = capsys
        self.monkeypatch = monkeypatch

    def __call__(self, *args: str, stdin: str = "") -> tuple[int, str, str]:
        import io

        self.monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        self.capsys.readouterr()
        code = main(self.cli.argv(*args))
        out, err = self.capsys.readouterr()
        return code, out, err

    def json(self, *args: str, code: int = 0) -> Any:
        got, out, err = self(*args, "--json")
        assert got == code, (got, err)
        return json.loads(out)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def seeded(workspace: Path, home: Path) -> tuple[Cli, Sample]:
    mem = open_memory(workspace, user_home=home)
    try:
        sample = seed(mem)
    finally:
        mem.close()
    return Cli(workspace, home), sample


@pytest.fixture
def on_backend(backend: Backend, tmp_path: Path) -> tuple[Cli, Sample]:
    """The sample seeded on the backend under test, and a CLI that opens those stores."""
    mem = backend.open_memory(tmp_path)
    try:
        sample = seed(mem)
    finally:
        mem.close()
    return Cli(tmp_path / "ws", tmp_path / "home", location=backend.location_args(tmp_path)), sample


@pytest.fixture
def run(
    seeded: tuple[Cli, Sample], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> InProcess:
    return InProcess(seeded[0], capsys, monkeypatch)


def one_line(code: int, err: str, expected: int, *words: str) -> None:
    assert code == expected, (code, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], lines[0]


# --- subprocess: every command, --json parsed ---------------------------------------------


def test_a_workspace_without_a_database_is_refused_not_created(
    workspace: Path, home: Path, tmp_path: Path
) -> None:
    cli = Cli(workspace, home)
    proc = cli("stats")
    one_line(proc.returncode, proc.stderr, 3, "no memory database", "memory.db")
    error = cli.json("search", "香菜", code=3)["error"]
    assert error["message"].startswith("no memory database")
    proc = cli("compact")
    one_line(proc.returncode, proc.stderr, 3, "no memory database")
    assert not (workspace / ".ekko").exists()
    proc = cli("purge")  # a bad argument is reported before anything is opened
    one_line(proc.returncode, proc.stderr, 2, "name what to purge")


def test_reading_commands(on_backend: tuple[Cli, Sample]) -> None:
    cli, sample = on_backend
    found = cli.json("search", "香菜")
    assert sample.cilantro in [n["id"] for n in found["nodes"]]
    table = cli("search", "香菜", "--scope", "user")
    assert table.returncode == 0 and "用户不吃香菜" in table.stdout
    shown = cli.json("show", sample.cilantro)
    assert (shown["title"], shown["valueJson"], shown["store"]) == ("用户不吃香菜", "香菜", "user")
    hist = cli.json("history", sample.spicy_old)
    assert [v["id"] for v in hist["chain"]] == [sample.spicy_old, sample.spicy_new]
    assert {e["eventType"] for e in hist["audit"]} >= {"create", "supersede"}
    assert [i["id"] for i in cli.json("pending")["items"]] == [sample.pending]
    stats = cli.json("stats")
    assert stats["stores"]["user"]["nodes"]["active"] == 2 and stats["pending"] == 1
    text = cli("stats").stdout
    assert "workspace store" in text and "1 item waits for your decision" in text


def test_decisions(on_backend: tuple[Cli, Sample], backend: Backend, tmp_path: Path) -> None:
    cli, sample = on_backend
    [waiting] = cli.json("pending")["items"]
    shown = waiting["node"]["id"]
    approved = cli.json("approve", sample.pending, "--note", "对，我喜欢")
    # The memory keeps the id the inbox showed while it waited.
    assert approved["status"] == "approved" and approved["nodeId"] == shown
    assert cli.json("show", shown)["status"] == "active"
    again = cli("approve", sample.pending)
    one_line(again.returncode, again.stderr, 1, "already approved")
    # A script reads why as a code with its specifics, as the agent tools say it.
    error = cli.json("approve", sample.pending, code=1)["error"]
    assert error["code"] == "conflict" and error["reasonCode"] == "pending.already_decided"
    assert error["reasonParams"] == {"id": sample.pending, "status": "approved"}
    mem = backend.open_memory(tmp_path)
    try:
        node = mem.get_node(approved["nodeId"])
        assert node is not None and node.status == "active"
        assert mem.history(node.id).audit[0].actor == "user"
        s = mem.session("s1", user_id="u1")
        held = propose(
            s,
            "我最近好像挺喜欢吃鱼",
            scope="user",
            domain="生活技能",
            type="preference",
            key="preferred_ingredient",
            valueJson="鱼",
            title="喜欢吃鱼",
            confidence=0.6,
        )
    finally:
        mem.close()
    assert cli.json("reject", held["pendingId"]) == {
        "pendingId": held["pendingId"],
        "status": "rejected",
    }
    [rejected] = cli.json("pending", "--all")["items"][-1:]
    gone = cli("show", rejected["node"]["id"])
    one_line(gone.returncode, gone.stderr, 3, "the user rejected it")
    assert cli.json("pending")["items"] == []


def test_forget(seeded: tuple[Cli, Sample]) -> None:
    cli, sample = seeded
    assert cli.json("forget", sample.database)["deletedIds"] == [sample.database]
    declined = cli("forget", "--scope", "user", "--domain", "生活技能", stdin="n\n")
    assert declined.returncode == 4 and "用户不吃香菜" in declined.stderr
    assert "not confirmed" in declined.stderr.splitlines()[-1]
    hard = cli.json("forget", sample.spicy_new, "--hard", stdin="yes\n")
    assert set(hard["deletedIds"]) == {sample.spicy_old, sample.spicy_new}
    assert cli.json("show", sample.spicy_new, code=3)["error"]["code"] == "not_found"


def test_a_hard_delete_settles_the_overwrite_waiting_for_it(
    workspace: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = open_memory(workspace, user_home=home)
    try:
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        fact = propose(
            s,
            "记住，我住在杭州。",
            scope="user",
            domain="个人",
            type="fact",
            key="city",
            valueJson="杭州",
            title="用户住在杭州",
            confidence=0.99,
        )
        assert fact["status"] == "created", fact
        s.append_message("user", "上海也挺好的")
        held = s.call_tool(
            "memory_propose_update",
            {
                "operation": "update",
                "targetId": fact["nodeId"],
                "node": {"valueJson": "上海", "title": "用户住在上海"},
                "reason": "推测",
            },
        )
        assert held.get("rule") == "overwrite_high_confidence", held
    finally:
        mem.close()
    run = InProcess(Cli(workspace, home), capsys, monkeypatch)
    code, _, _ = run("forget", fact["nodeId"], "--hard", stdin="y\n")
    assert code == 0
    assert run.json("pending")["items"] == []
    code, _, err = run("approve", held["pendingId"])
    one_line(code, err, 1, "already expired", "deleted for good")


def test_export_and_import(
    on_backend: tuple[Cli, Sample], backend: Backend, tmp_path: Path
) -> None:
    cli, sample = on_backend
    bundle = tmp_path / "bundle.json"
    report = cli.json("export", "--format", "json", "--output", str(bundle))
    assert report["path"] == str(bundle) and report["counts"]["nodes"] == 5
    assert stat.S_IMODE(bundle.stat().st_mode) == 0o600
    md = tmp_path / "memories.md"
    assert cli("export", "--format", "md", "--output", str(md)).returncode == 0
    assert "## 生活技能 / 做饭 / 饮食偏好" in md.read_text(encoding="utf-8")

    target = tmp_path / "other"
    target.mkdir()
    location = backend.location_args(target, key="other") if backend.is_postgres else None
    other = Cli(target / "ws", target / "home", location=location)
    if not backend.is_postgres:
        (target / "ws").mkdir()
    first = other.json("import", str(bundle))
    assert first["counts"]["added"]["nodes"] == 5
    if not backend.is_postgres:
        assert (target / "ws" / ".ekko" / "memory.db").is_file()
    again = other.json("import", str(bundle))
    assert again["counts"]["added"] == {} and again["counts"]["skipped"]["nodes"] == 5
    assert other.json("show", sample.cilantro)["title"] == "用户不吃香菜"


def test_an_import_that_supersedes_many_lists_the_first_few(tmp_path: Path) -> None:
    """Every superseded id went on one line (600 KB for a 20k-node bundle): the terminal
    gets the first ten and how many more; --json lists them all."""
    from ekko_memory import MemoryNodeDraft

    source = open_memory(tmp_path / "a" / "ws", user_home=tmp_path / "a" / "home")
    here = Cli(tmp_path / "b" / "ws", tmp_path / "b" / "home")
    target = open_memory(here.workspace, user_home=here.home)
    for i in range(12):  # the same notes on both sides, worded apart: rivals
        for mem, side in ((source, "甲"), (target, "乙")):
            draft = {"type": "fact", "scope": "workspace", "domain": "项目"}
            text = {"title": f"部署说明 {i}", "content": f"{side}版本 {i}"}
            mem.actions.create(MemoryNodeDraft.model_validate({**draft, **text}))
    bundle = tmp_path / "bundle.json"
    source.exporter.export(bundle)
    source.close()
    target.close()
    shown = here("import", str(bundle))
    assert shown.returncode == 0, shown.stderr
    (line,) = [x for x in shown.stdout.splitlines() if x.startswith("Superseded")]
    assert line.startswith("Superseded by a newer version (12): mem_")
    assert line.count("mem_") == 10 and line.endswith("… and 2 more (--json lists them all)")


def test_purge(seeded: tuple[Cli, Sample], workspace: Path, home: Path) -> None:
    cli, sample = seeded
    args = ("purge", "--query", "香菜", "--messages")
    dry = cli.json(*args, "--dry-run")
    assert dry["dryRun"] is True and dry["counts"]["node"] == 1 and dry["counts"]["message"] == 2
    declined = cli(*args, stdin="no\n")
    assert declined.returncode == 4 and "not confirmed" in declined.stderr
    assert cli.json("show", sample.cilantro)["status"] == "active"
    done = cli.json(*args, stdin="yes\n")
    assert done["counts"]["node"] == 1 and done["verification"]["clean"] is True
    assert {t["id"] for t in done["purged"]} == {t["id"] for t in dry["targets"]}
    for path in (workspace / ".ekko" / "memory.db", home / "memory.db"):
        for f in (path, path.with_name(path.name + "-wal")):
            if f.exists():
                assert "香菜".encode() not in f.read_bytes()


def test_purge_says_where_it_looked(on_backend: tuple[Cli, Sample], backend: Backend) -> None:
    """Only a store made of files has files to scan: a server's purge does not claim it."""
    cli, _ = on_backend
    done = cli("purge", "--query", "香菜", "--messages", "--yes")
    assert done.returncode == 0 and "Verified" in done.stdout, done.stderr
    assert ("and the files." in done.stdout) is (not backend.is_postgres), done.stdout
    if backend.is_postgres:
        assert "a database server's files are not scanned" in done.stdout


def test_compact(on_backend: tuple[Cli, Sample], backend: Backend) -> None:
    cli, sample = on_backend
    report = cli.json("compact")
    stores = report["stores"]
    assert [s["store"] for s in stores] == ["workspace", "user"] and not report["cancelled"]
    assert all(s["status"] == "compacted" for s in stores)
    assert report["freedBytes"] == sum(s["freedBytes"] for s in stores)
    for s in stores:
        assert s["bytesBefore"] > 0 and s["bytesAfter"] > 0
        if backend.is_postgres:
            assert s["files"] == [] and s["ran"][0].startswith("VACUUM (FULL, ANALYZE)")
        else:
            assert s["ran"][1:] == ["VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)"]
            assert [Path(f["path"]).name for f in s["files"]] == ["memory.db", "memory.db-wal"]
    assert cli.json("show", sample.cilantro)["title"] == "用户不吃香菜"  # the data is intact
    text = cli("compact")
    assert text.returncode == 0 and "user store" in text.stdout and "Freed " in text.stdout
    if backend.is_postgres:
        assert "ran: VACUUM (FULL, ANALYZE)" in text.stdout


def test_workspace_and_database_url_exclude_each_other(tmp_path: Path, home: Path) -> None:
    url = "postgresql+psycopg://ekko@127.0.0.1:1/ekko"
    cli = Cli(tmp_path, home, location=["--workspace", str(tmp_path), "--database-url", url])
    proc = cli("stats")
    one_line(proc.returncode, proc.stderr, 2, "either --workspace or --database-url")
    proc = Cli(tmp_path, home, location=["--workspace", str(tmp_path), "--namespace", "x"])("stats")
    one_line(proc.returncode, proc.stderr, 2, "--namespace needs --database-url")
    bad = Cli(tmp_path, home, location=["--database-url", "mysql://u@h/db"])("stats")
    one_line(bad.returncode, bad.stderr, 2, "unsupported database URL")


@pytest.mark.postgres
def test_database_url_from_the_environment_and_a_wrong_password(
    pg_server: Any, tmp_path: Path, home: Path
) -> None:
    ns = pg_server.new_namespace()
    pg_server.schemas += [f"{ns}_workspace", f"{ns}_user"]
    mem = open_memory(url=pg_server.url, namespace=ns)
    try:
        sample = seed(mem)
    finally:
        mem.close()
    # Neither --workspace nor --database-url: $EKKO_DATABASE_URL (as open_memory does).
    env = {"EKKO_DATABASE_URL": pg_server.url, "EKKO_DATABASE_NAMESPACE": ns}
    from_env = Cli(tmp_path, home, location=[], env=env)
    assert from_env.json("show", sample.cilantro)["title"] == "用户不吃香菜"
    # --workspace wins over the environment: a folder means SQLite files.
    folder = Cli(tmp_path, home, env=env)
    one_line(*_code_err(folder("stats")), 3, "no memory database")
    # A wrong password: exit 1, one line, the reason, and never the password.
    password = pg_server.url.split(":")[2].split("@")[0]
    wrong = pg_server.url.replace(password, "not-the-password")
    proc = Cli(tmp_path, home, location=["--database-url", wrong, "--namespace", ns])("stats")
    one_line(proc.returncode, proc.stderr, 1, "cannot be opened", "password")
    assert "not-the-password" not in proc.stderr and password not in proc.stderr


def _code_err(proc: subprocess.CompletedProcess[str]) -> tuple[int, str]:
    return proc.returncode, proc.stderr


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("ekko-memory")
    proc = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0 and "purge" in proc.stdout and "Exit codes" in proc.stdout


# --- in-process: variants -----------------------------------------------------------------


def test_bad_arguments_exit_2_with_one_line(run: InProcess) -> None:
    for args, word in (
        (["frobnicate"], "invalid choice"),
        (["search", "--limit", "many"], "--limit"),
        (["search", "--limit", "0"], "--limit"),
        (["show"], "id"),
        (["purge", "--before", "yesterday"], "not a date"),
        (["purge", "--after", "2026-02-01", "--before", "2026-01-01"], "earlier"),
        (["export", "--format", "pdf", "--output", "x"], "pdf"),
        (["forget"], "name what to forget"),
    ):
        code, _, err = run(*args)
        assert code == 2, args
        one_line(code, err, 2, word)


def test_missing_ids_and_files_exit_3(run: InProcess, tmp_path: Path) -> None:
    for args, word in (
        (["show", "mem_01M8VWABJ5EZ4MAC14NPMPNC0X"], "no memory"),
        (["history", "nonsense"], "no memory"),
        (["approve", "pnd_01M8VWABJ5EZ4MAC14NPMPNC0X"], "no pending item"),
        (["reject", "mem_nope"], "no pending item"),
        (["forget", "mem_01M8VWABJ5EZ4MAC14NPMPNC0X"], "no memory"),
        (["forget", "--key", "avoid_ingredient", "--value", "榴莲"], "no matching memory"),
        (["import", str(tmp_path / "missing.json")], "no bundle file"),
    ):
        code, _, err = run(*args)
        one_line(code, err, 3, word)
    assert run.json("show", "mem_nope", code=3)["error"]["code"] == "not_found"
    gone = Cli(tmp_path / "missing", tmp_path / "home")
    code, _, err = InProcess(gone, run.capsys, run.monkeypatch)("stats")
    one_line(code, err, 3, "does not exist")


def test_json_errors_are_one_document_named_by_the_exit_code(
    run: InProcess, tmp_path: Path
) -> None:
    """With --json every failure is an ``{"error": {code, message}}`` document on stdout —
    arguments argparse refuses included — and its code says what the exit code says, in
    the core's words (a script reads one vocabulary whichever layer refused)."""
    for args, exit_code, code in (
        (["search", "--limit", "many"], 2, "invalid_input"),  # argparse
        (["approve"], 2, "invalid_input"),  # argparse: a missing id
        (["frobnicate"], 2, "invalid_input"),  # argparse: no such command
        (["search", "--limit", "0"], 2, "invalid_input"),  # the CLI's own check
        (["forget"], 2, "invalid_input"),
        (["show", "mem_nope"], 3, "not_found"),  # the core's error
    ):
        error = run.json(*args, code=exit_code)["error"]
        assert error["code"] == code, (args, error)
        assert error["message"]
    code, out, err = run("purge", "--query", "香菜", "--json", stdin="n\n")
    assert code == 4 and json.loads(out)["error"]["code"] == "declined", err
    empty = InProcess(Cli(tmp_path, tmp_path / "home"), run.capsys, run.monkeypatch)
    assert empty.json("stats", code=3)["error"]["code"] == "not_found"
    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x", encoding="utf-8")
    code, _, err = InProcess(Cli(not_a_folder, tmp_path / "home"), run.capsys, run.monkeypatch)(
        "stats"
    )
    one_line(code, err, 3, "is not a folder")


def test_a_memory_past_its_expiry_is_listed_as_expired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``search`` lists active memories by default: one whose expiresAt has passed is no
    longer active (the context leaves it out, the app shows it expired), so it is left out
    here too, found by ``--status expired`` and shown as expired."""
    from ekko_memory.timeutil import utcnow
    from tests.core.factories import hours, make_node

    ws, home = tmp_path / "ws", tmp_path / "home"
    mem = open_memory(ws, user_home=home)
    try:
        lapsed = make_node(
            scope="workspace",
            domain="项目",
            category_path=["项目", "任务"],
            type="task",
            key=None,
            value_json=None,
            title="昨天的任务",
            expires_at=utcnow() - hours(1),
        )
        live = make_node(scope="workspace", title="用户不吃香菜")
        for node in (lapsed, live):
            mem.upsert_node(node)
    finally:
        mem.close()
    run = InProcess(Cli(ws, home), capsys, monkeypatch)

    def ids(*args: str) -> list[str]:
        return [n["id"] for n in run.json("search", *args)["nodes"]]

    assert lapsed.id not in ids() and live.id in ids()
    assert ids("--status", "expired") == [lapsed.id]
    assert lapsed.id in ids("昨天", "--status", "expired") and ids("昨天") == []
    assert set(ids("--all")) >= {lapsed.id, live.id}
    assert set(ids("--status", "active", "--status", "expired")) >= {lapsed.id, live.id}
    code, out, _ = run("show", lapsed.id)
    assert code == 0 and "status      expired" in out
    code, out, _ = run("search", "--status", "expired")
    assert code == 0 and "expired" in out and "active" not in out
    # The JSON of search and show, history, and the counts of stats say it too.
    assert [n["status"] for n in run.json("search", "--status", "expired")["nodes"]] == ["expired"]
    assert run.json("show", lapsed.id)["status"] == "expired"
    assert [v["status"] for v in run.json("history", lapsed.id)["chain"]] == ["expired"]
    code, out, _ = run("history", lapsed.id)
    version = next(line for line in out.splitlines() if line.startswith("1  "))
    assert code == 0 and "expired" in version and "active" not in version, out
    counts = run.json("stats")["stores"]["workspace"]["nodes"]
    assert (counts.get("active"), counts.get("expired")) == (1, 1), counts
    code, out, _ = run("stats")
    assert "memories active      1" in out and "memories expired     1" in out, out


def test_human_output(run: InProcess, seeded: tuple[Cli, Sample]) -> None:
    _, sample = seeded
    assert "No memories found." in run("search", "不存在的东西")[1]
    everything = run.json("search", "--all", "--scope", "user", "--category", "生活技能/做饭")
    assert sample.spicy_old in {n["id"] for n in everything["nodes"]}
    assert "avoid_ingredient" in run("show", sample.cilantro)[1]
    text = run("history", sample.spicy_new)[1]
    assert "Versions, oldest first (2)" in text and "Audit trail" in text and "喜欢吃辣" in text
    assert "用户喜欢红烧肉" in run("pending")[1]
    assert "workspace store" in run("stats")[1]
    code, out, _ = run("purge", "--query", "香菜", "--messages", "--dry-run")
    assert code == 0 and "Dry run: nothing was changed." in out and "用户不吃香菜" in out


def test_terminal_control_characters_in_memories_never_reach_the_terminal(
    run: InProcess, workspace: Path, home: Path
) -> None:
    """An agent writes whatever text the model produced: an escape sequence in a title
    (colors, a window title, a cleared screen) is shown inert, in every command."""
    mem = open_memory(workspace, user_home=home)
    try:
        node_id = mem.actions.create(
            {
                "scope": "workspace",
                "domain": "项目",
                "type": "fact",
                "title": "终端\x1b]0;pwned\x07标题\x1b[2J\r覆盖",
                "content": "内容\x1b[31m红\x1b[0m",
            }
        ).node_id
    finally:
        mem.close()
    assert node_id is not None
    for args in (("search", "终端"), ("show", node_id), ("history", node_id), ("search", "--all")):
        code, out, err = run(*args)
        assert code == 0, err
        assert not any(c in out + err for c in "\x1b\x07\r"), (args, out)


def test_tables_align_chinese_by_display_width(run: InProcess) -> None:
    lines = run("search", "--all")[1].splitlines()
    header, _rule, *rows = lines[: lines.index("")]
    start = display_width(header[: header.index("STATUS")])
    for row in rows:
        # The STATUS column starts at the same display column on every row.
        cols = [display_width(row[:i]) for i in range(len(row) + 1)]
        assert start in cols, row
        assert row[cols.index(start) :].split()[0] in ("active", "superseded", "deleted"), row


def test_forget_variants(run: InProcess, seeded: tuple[Cli, Sample]) -> None:
    _, sample = seeded
    code, _, err = run("forget", sample.spicy_old)
    one_line(code, err, 1, "old version")
    done = run.json("forget", "--scope", "user", "--domain", "生活技能", "--yes")
    assert set(done["deletedIds"]) == {sample.cilantro, sample.spicy_new}
    assert "Nothing was deleted" in run("forget", sample.cilantro)[1]
    # A hard delete by description reaches what was soft-deleted (it is still in the file).
    hard = run.json("forget", "--key", "avoid_ingredient", "--value", "香菜", "--hard", "--yes")
    assert sample.cilantro in hard["deletedIds"] and hard["mode"] == "hard"


def test_export_variants_and_bad_bundles(run: InProcess, tmp_path: Path) -> None:
    part = run.json("export", "--output", str(tmp_path / "u.json"), "--scope", "user")
    assert part["counts"]["nodes"] == 4
    csv_path = tmp_path / "nodes.csv"
    assert run("export", "--format", "csv", "--output", str(csv_path))[0] == 0
    assert "用户不吃香菜" in csv_path.read_text(encoding="utf-8-sig")
    code, _, err = run("export", "--output", str(tmp_path / "no" / "x.json"))
    one_line(code, err, 2, "does not exist")
    bad = tmp_path / "bad.json"
    bad.write_text("{oops", encoding="utf-8")
    code, _, err = run("import", str(bad))
    one_line(code, err, 2, "not valid JSON")
    assert "Nothing new" in run("import", str(tmp_path / "u.json"))[1]


def test_files_the_system_refuses_are_one_line_errors(
    run: InProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the system will not write or read (permissions, a special filesystem): one
    line naming the file asked for, never a traceback (root included)."""
    if sys.platform.startswith("linux"):
        code, _, err = run("export", "--output", "/proc/ekko-export.json")
        one_line(code, err, 2, "cannot write /proc/ekko-export.json")
        assert ".part" not in err
        code, _, err = run("import", "/proc/self/mem")
        one_line(code, err, 2, "cannot read /proc/self/mem")
    from ekko_memory.service.export import Exporter

    def refused(*_: Any, **__: Any) -> None:
        raise PermissionError(13, "Permission denied", str(tmp_path / "out.json"))

    monkeypatch.setattr(Exporter, "export", refused)
    code, _, err = run("export", "--output", str(tmp_path / "out.json"))
    one_line(code, err, 1, "Permission denied:", "out.json")


def test_purge_variants(run: InProcess) -> None:
    code, out, _ = run("purge", "--query", "不存在的东西", "--yes")
    assert code == 0 and "Nothing matches" in out
    code, out, _ = run("purge", "--scope", "workspace", "--yes")
    assert code == 0 and "Purged 1 memory:" in out and "Verified" in out
    code, out, _ = run("purge", "--query", "香菜", "--yes")  # messages not included
    assert code == 0 and "kept:" in out and "add --messages" in out


def test_undecodable_bytes_in_arguments(run: InProcess, tmp_path: Path) -> None:
    """A shell passes bytes that are not UTF-8 as surrogate escapes ('\udcff'): text
    arguments are cleaned as the models clean text (no traceback, no store error), while
    paths keep the bytes, so they still name the file the user meant."""
    code, _, err = run(
        "forget", "--domain", "生活技能", "--key", "avoid_ingredient", "--value", "\udcff"
    )
    one_line(code, err, 3, "no matching memory")
    assert run.json("search", "--category", "\udcff")["nodes"] == []
    assert run.json("search", "--key", "\udcff", "香菜")["nodes"] == []
    code, out, err = run("purge", "--dry-run", "--session", "\udcff")
    assert code == 0 and "Dry run" in out and "Traceback" not in err, err
    odd = tmp_path / "memories-\udcff.json"
    assert run("export", "--output", str(odd))[0] == 0
    assert os.fsencode(odd) in [os.fsencode(tmp_path / p) for p in os.listdir(tmp_path)]


def test_compact_variants(run: InProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    assert (human_bytes(0), human_bytes(512), human_bytes(1536)) == ("0 B", "512 B", "1.5 KB")
    assert human_bytes(5 * 1024**3) == "5.0 GB" and human_bytes(3 * 1024**4) == "3072.0 GB"
    code, out, _ = run("compact")
    assert code == 0 and "workspace store" in out and "memory.db-wal" in out and "freed" in out

    def locked(self: SqlStore) -> None:
        raise StoreUnavailable("memory store stayed locked by another process; try again")

    monkeypatch.setattr(SqlStore, "compact", locked)
    code, out, _ = run("compact")
    assert code == 1 and "workspace store" in out and "failed (memory store stayed locked" in out
    failed = run.json("compact", code=1)
    assert [s["status"] for s in failed["stores"]] == ["failed", "failed"]


def test_history_names_an_agents_report_of_the_users_words(
    workspace: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A memory resting on words an agent passed as the user's (userMessage) lists that
    source as the agent's report, not as a message of the user's."""
    mem = open_memory(workspace, user_home=home)
    try:
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        s.append_message("user", "这个项目的数据库用 PostgreSQL。")
        made = s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "r",
                "userMessage": "用户说：项目数据库定为 PostgreSQL",
                "node": {
                    "scope": "workspace",
                    "domain": "项目",
                    "type": "decision",
                    "key": "database",
                    "valueJson": "PostgreSQL",
                    "title": "数据库用 PostgreSQL",
                },
            },
        )
        assert made["accepted"], made
    finally:
        mem.close()
    run = InProcess(Cli(workspace, home), capsys, monkeypatch)
    code, text, _ = run("history", made["nodeId"])
    assert code == 0
    rows = text.split("Source messages", 1)[1].splitlines()
    assert any("user" in r and "这个项目的数据库用 PostgreSQL。" in r for r in rows), text
    assert any("agent's report" in r and "用户说：项目数据库定为" in r for r in rows), text
