"""``ekko-memory``: manage an agent's memory from a terminal (argparse, standard library only).

    ekko-memory --workspace DIR [--user-home DIR] COMMAND [--json] ...
    ekko-memory --database-url URL [--namespace NAME] COMMAND [--json] ...

Commands: search, show, history, pending, approve, reject, pin, unpin, pause, resume,
forget-about, delete-all, forget, export, import,
purge, stats, compact, reindex, duplicates, similar, mcp, hermes (install | uninstall:
Hermes Agent's memory provider, no memory opened). Tables for people by default; ``--json``
prints one JSON document on
stdout for scripts. Every error is one line on stderr (and ``{"error": {code, message,
reasonCode?, reasonParams?}}`` on stdout with ``--json``: the reason code the agent
tools give, for a script to word or branch on).

Exit codes: 0 done; 1 failed (store unavailable or damaged, a conflict, purged text
still found in the files, a store that could not be compacted); 2 bad arguments or invalid input; 3 not found (no such id,
no database in the workspace, no such file); 4 declined (a confirmation answered no,
or an agent-only / user-only rule refused); 130 interrupted.

Read commands never create a database: a workspace without ``.ekko/memory.db`` is an
error (exit 3). ``import`` and ``mcp`` create it, as an agent would. The user store
(``$EKKO_HOME`` or ``~/.ekko``) is created on first use by any command. A workspace
store that cannot be opened is an error (exit 1), except for ``mcp``: the server starts
and says so on stderr and in the result of every call that needs the store.

``--database-url`` opens both stores in a PostgreSQL database instead (schemas
``<namespace>_workspace`` and ``<namespace>_user``, as ``open_memory(url=...)``); with
neither ``--workspace`` nor ``--database-url``, ``$EKKO_DATABASE_URL`` is used when set,
else the current folder. On a server every command may create the two schemas (an
unreachable server or a wrong password is an error, exit 1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from ekko_memory.errors import EkkoMemoryError
from ekko_memory.interfaces import cli_commands as c
from ekko_memory.interfaces import cli_controls as ctl
from ekko_memory.interfaces import cli_hermes
from ekko_memory.interfaces import cli_semantic as sem
from ekko_memory.interfaces import cli_transfer as t
from ekko_memory.interfaces.cli_output import (
    ERROR_CODES,
    EXIT_DECLINED,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_NOT_FOUND,
    EXIT_USAGE,
    CliError,
    Output,
)
from ekko_memory.models import NODE_STATUSES, NODE_TYPES, SCOPES, clean_text
from ekko_memory.service.memory_service import MemoryService, open_memory
from ekko_memory.service.paths import URL_ENV, StorePaths

_EXIT_FOR_CODE = {
    "invalid_input": EXIT_USAGE,
    "not_found": EXIT_NOT_FOUND,
    "permission_denied": EXIT_DECLINED,
    "store_unavailable": EXIT_FAILED,
    "conflict": EXIT_FAILED,
}

# Commands that may create the workspace database.
CREATING_COMMANDS = frozenset({"import", "mcp"})
# Commands that serve an agent: a store that cannot open is a warning on stderr and an
# error result of each call that needs it (it may open later: see SqlStore.health),
# never a server that exits — its client only saw "connection closed".
SERVING_COMMANDS = frozenset({"mcp"})


def split_category(value: str) -> list[str]:
    """``生活技能/做饭`` → ``["生活技能", "做饭"]``."""
    parts = [p.strip() for p in value.split("/") if p.strip()]
    if not parts:
        raise argparse.ArgumentTypeError("a category path looks like 生活技能/做饭")
    return parts


def json_or_text(value: str) -> Any:
    """A value given on the command line: JSON when it parses, else the text itself."""
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        return value


class UsageError(Exception):
    """A command line argparse refused (``prog``: the command it was parsing)."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class _Parser(argparse.ArgumentParser):
    """argparse whose errors reach ``main`` (one line, exit 2, and the ``--json`` error
    document when asked for) instead of exiting on the spot."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(self.prog, message)


def _common(defaults: bool) -> _Parser:
    """Options accepted before and after the command (``--json`` usually comes last)."""
    p = _Parser(add_help=False)
    d: Callable[[Any], Any] = (lambda v: v) if defaults else (lambda v: argparse.SUPPRESS)
    p.add_argument(
        "--workspace",
        metavar="DIR",
        default=d(None),
        help="workspace folder holding .ekko/memory.db (default: the current folder)",
    )
    p.add_argument(
        "--user-home",
        metavar="DIR",
        default=d(None),
        help="folder of the user store (default: $EKKO_HOME or ~/.ekko)",
    )
    p.add_argument(
        "--database-url",
        metavar="URL",
        default=d(None),
        help="open a PostgreSQL store instead of a workspace folder "
        f"(postgresql+psycopg://user:password@host/db; default: ${URL_ENV} when no --workspace)",
    )
    p.add_argument(
        "--namespace",
        metavar="NAME",
        default=d(None),
        help="with a database URL: schemas NAME_workspace and NAME_user "
        "(default: $EKKO_DATABASE_NAMESPACE or ekko)",
    )
    p.add_argument("--json", action="store_true", default=d(False), help="print JSON for scripts")
    return p


def build_parser() -> argparse.ArgumentParser:
    """The whole command line."""
    common = _common(defaults=False)
    parser = _Parser(
        prog="ekko-memory",
        description="Local, auditable long-term memory for AI agents: inspect and manage it.",
        parents=[_common(defaults=True)],
        epilog="Exit codes: 0 ok, 1 failed, 2 bad arguments, 3 not found, 4 declined.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def command(
        name: str,
        fn: Callable[..., int],
        help_text: str,
        check: Callable[[argparse.Namespace], None] | None = None,
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help_text, description=help_text)
        # ``check`` raises usage errors before the memory is opened.
        p.set_defaults(run=fn, check=check)
        return p

    def scope_options(p: argparse.ArgumentParser, *, live_only: bool = False) -> None:
        choices = [s for s in SCOPES if s != "global"] if live_only else list(SCOPES)
        p.add_argument(
            "--scope", action="append", choices=choices, help="only this scope (repeatable)"
        )
        p.add_argument(
            "--category",
            type=split_category,
            metavar="PATH",
            help="a category branch, e.g. 生活技能/做饭",
        )

    p = command(
        "search",
        c.search,
        "find memories (Chinese words too); without text, list the newest",
        check=c.check_search,
    )
    p.add_argument("text", nargs="?", help="words to search for")
    scope_options(p)
    p.add_argument(
        "--type", action="append", choices=NODE_TYPES, help="only this type (repeatable)"
    )
    p.add_argument("--key", help="only this controlled key, e.g. avoid_ingredient")
    p.add_argument(
        "--status",
        action="append",
        choices=NODE_STATUSES,
        help="statuses to include (default: active); a memory past its expiry is expired",
    )
    p.add_argument(
        "--all", action="store_true", help="every status: old versions, expired and deleted too"
    )
    p.add_argument("--session", help="only memories of this session")
    p.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")

    p = command("show", c.show, "every field of one memory")
    p.add_argument("id", help="memory id (mem_…)")

    p = command("history", c.history, "a memory's supersede chain, audit trail, sources and usage")
    p.add_argument("id", help="memory id (mem_…), any version")

    p = command("pending", c.pending, "writes and deletes waiting for your decision")
    p.add_argument("--all", action="store_true", help="decided items too")

    for name, fn, verb in (("approve", c.approve, "approve"), ("reject", c.reject, "reject")):
        p = command(name, fn, f"{verb} a pending item (your decision, as the user)")
        p.add_argument("id", help="pending id (pnd_…)")
        p.add_argument("--note", help="why (kept in the audit trail)")

    p = command("pin", ctl.pin, "pin a memory: agents may read it but never change or delete it")
    p.add_argument("id", help="memory id (mem_…)")
    p = command("unpin", ctl.unpin, "unpin a memory: agents may change it again")
    p.add_argument("id", help="memory id (mem_…)")
    command("pause", ctl.pause, "pause memory: agents neither read nor write it until resume")
    command("resume", ctl.resume, "resume memory: agents read and write it again")
    p = command(
        "forget-about",
        ctl.forget_about,
        "forget everything about a word (or memories by --id): memories, versions, messages, "
        "summaries, after a preview",
        check=ctl.check_forget_about,
    )
    p.add_argument("word", nargs="?", help="a word: Chinese anywhere, a Latin word whole")
    p.add_argument("--id", action="append", help="a memory to forget (repeatable)")
    about = p
    p = command(
        "delete-all",
        ctl.delete_all,
        "delete all memories (and the conversation log and summaries), after a preview",
    )
    for forgetting in (about, p):
        forgetting.add_argument(
            "--keep-messages",
            action="store_true",
            help="keep the conversation log and summaries (memories only)",
        )
        forgetting.add_argument(
            "--dry-run", action="store_true", help="show the counts; change nothing"
        )
        forgetting.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    p = command(
        "forget",
        c.forget,
        "delete memories by id or by description (soft by default)",
        check=c.check_forget,
    )
    p.add_argument("id", nargs="?", help="memory id (mem_…)")
    scope_options(p, live_only=True)
    p.add_argument("--domain", help="e.g. 生活技能")
    p.add_argument("--type", choices=NODE_TYPES)
    p.add_argument("--key", help="e.g. avoid_ingredient")
    p.add_argument("--value", type=json_or_text, help='e.g. 香菜 or \'{"spicy": "low"}\'')
    p.add_argument(
        "--hard", action="store_true", help="remove every version for good (not undoable)"
    )
    p.add_argument(
        "--messages", action="store_true", help="with --hard: delete the source messages too"
    )
    p.add_argument("--reason", default="forgotten by the user from the command line")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    p = command("export", t.export, "write a JSON bundle (for import), Markdown or CSV")
    p.add_argument("--format", choices=("json", "md", "csv"), default="json")
    p.add_argument("--output", required=True, metavar="PATH", help="file to write (mode 0600)")
    p.add_argument(
        "--force",
        action="store_true",
        help="replace the output file if it exists (never a memory database or a store's folder)",
    )
    scope_options(p, live_only=True)
    p.add_argument("--no-messages", action="store_true", help="leave the message log out")

    p = command("import", t.import_bundle, "read a JSON bundle back (idempotent, ids kept)")
    p.add_argument("path", help="a bundle written by 'export --format json'")

    p = command(
        "purge",
        t.purge,
        "remove data for good after a dry run (memories, audit text, messages…)",
        check=t.check_purge,
    )
    scope_options(p, live_only=True)
    p.add_argument("--session", help="this session's memories (and log, with --messages)")
    p.add_argument(
        "--before",
        type=t.parse_date,
        metavar="DATE",
        help="created before (YYYY-MM-DD or ISO 8601)",
    )
    p.add_argument("--after", type=t.parse_date, metavar="DATE", help="created at or after")
    p.add_argument("--query", metavar="TEXT", help="memories (and messages) holding this text")
    p.add_argument("--user-id", help="memories of this user id")
    p.add_argument("--workspace-id", help="memories of this workspace id")
    p.add_argument(
        "--messages", action="store_true", help="also source messages, matching messages, summaries"
    )
    p.add_argument("--keep-backups", action="store_true", help="keep migration backups (reported)")
    p.add_argument(
        "--dry-run", action="store_true", help="list everything that would go; change nothing"
    )
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    command("stats", c.stats, "counts per store, pending items, file locations and health")

    command(
        "compact",
        t.compact,
        "give the space of deleted records back (SQLite VACUUM, PostgreSQL VACUUM FULL)",
    )

    p = command(
        "reindex",
        sem.reindex,
        "semantic recall: embed every memory without a vector of the current model",
    )
    p.add_argument("--force", action="store_true", help="embed every memory again")

    p = command("duplicates", sem.duplicates, "pairs of active memories that say nearly the same")
    p.add_argument("--threshold", type=float, default=None, help="similarity 0–1 (default 0.8)")
    p.add_argument("--limit", type=int, default=100, help="at most this many pairs (default 100)")

    p = command("similar", sem.similar, "the memories nearest one in meaning")
    p.add_argument("id", help="memory id (mem_…)")
    p.add_argument("--limit", type=int, default=10, help="at most this many (default 10)")

    p = command("mcp", t.mcp, "serve the four memory tools over MCP (stdio)")
    p.add_argument("--session", default="mcp", help="session id of the calls (default: mcp)")
    p.add_argument("--user-id", help="user id the memories belong to (calls may not name another)")
    p.add_argument(
        "--workspace-id",
        help="workspace id the memories belong to (calls may not name another)",
    )
    p.add_argument(
        "--trust-user-message",
        action="store_true",
        help="take a call's userMessage as the user's own words, which may ask to remember "
        "(default: the agent's report, kept as the source but never the user's request); "
        "only for a client that passes exactly what the user typed",
    )
    p.add_argument(
        "--allow-identity-override",
        action="store_true",
        help="let a call name another userId / workspaceId than --user-id / --workspace-id "
        "(default: refused)",
    )

    cli_hermes.add_parser(sub)
    return parser


def database_url(args: argparse.Namespace) -> str | None:
    """The PostgreSQL URL to open: ``--database-url``, else ``$EKKO_DATABASE_URL`` when no
    ``--workspace`` was given (as ``open_memory`` does); None means a workspace folder."""
    if args.workspace and args.database_url:
        raise CliError(EXIT_USAGE, "give either --workspace or --database-url, not both")
    if args.database_url:
        return str(args.database_url)
    if args.workspace is None:
        return os.environ.get(URL_ENV) or None
    return None


def open_for(args: argparse.Namespace) -> MemoryService:
    """Open the memory for a command; read commands refuse a missing database file."""
    url = database_url(args)
    if url is None and args.namespace:
        raise CliError(EXIT_USAGE, "--namespace needs --database-url (or $EKKO_DATABASE_URL)")
    if url is not None:
        mem = open_memory(url=url, namespace=args.namespace, user_home=args.user_home)
        return _readable(mem, args.command)
    ws = Path(args.workspace or os.getcwd()).expanduser()
    if not ws.is_dir():
        what = "is not a folder" if ws.exists() else "does not exist"
        raise CliError(EXIT_NOT_FOUND, f"workspace folder {ws} {what}")
    db = StorePaths.resolve(ws, args.user_home).workspace_db
    for path, should in ((db, "memory database"), (db.parent, "folder .ekko")):
        if path.exists() and path.is_dir() != (path == db.parent):
            what = "a folder" if path.is_dir() else "a file"
            raise CliError(
                EXIT_FAILED,
                f"{path} is {what} where the workspace's {should} should be; move it away",
                error_code="store_unavailable",
            )
    if args.command not in CREATING_COMMANDS and not db.is_file():
        raise CliError(
            EXIT_NOT_FOUND,
            f"no memory database in {ws} (expected {db}); run an agent there "
            "or 'ekko-memory import' a bundle first",
        )
    return _readable(open_memory(ws, user_home=args.user_home), args.command)


def _readable(mem: MemoryService, command: str) -> MemoryService:
    health = mem.workspace_store.health
    if not health.readable and command not in SERVING_COMMANDS:
        mem.close()
        raise CliError(
            EXIT_FAILED,
            f"the workspace store cannot be opened: {health.reason}",
            error_code="store_unavailable",
        )
    return mem


# Paths keep what the shell passed (undecodable bytes arrive as surrogate escapes and
# still name the right file); every other text argument is cleaned as the models clean
# text, so no store ever meets a lone surrogate.
_PATH_ARGS = frozenset({"workspace", "user_home", "output", "path", "database_url"})


def _clean_args(args: argparse.Namespace) -> None:
    for name, value in list(vars(args).items()):
        if name in _PATH_ARGS:
            continue
        if isinstance(value, str):
            setattr(args, name, clean_text(value))
        elif isinstance(value, list):
            setattr(args, name, [clean_text(v) if isinstance(v, str) else v for v in value])


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ekko-memory`` console script; returns the exit code."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:  # --help or --version: argparse printed them
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    except UsageError as e:
        # The command line could not be read, so neither could --json: look for it, as
        # scripts that pass it parse stdout even when their arguments were wrong.
        out = Output("--json" in argv)
        if out.as_json:
            out.json({"error": {"code": ERROR_CODES[EXIT_USAGE], "message": str(e)}})
        out.note(f"{e.prog}: error: {' '.join(str(e).split())}")
        return EXIT_USAGE
    _clean_args(args)
    out = Output(bool(args.json))
    try:
        # Arguments are checked before anything is opened: a usage error wins.
        if getattr(args, "check", None) is not None:
            args.check(args)
        if not getattr(args, "opens_memory", True):
            return int(args.run(args, out))
        mem = open_for(args)
        try:
            for name, health in mem.health().items():
                said = name == "workspace" and args.command not in SERVING_COMMANDS
                if not said and health.status != "ok":
                    out.note(f"warning: the {name} store is {health.status}: {health.reason}")
            if mem.config_warning:
                out.note(f"warning: {mem.config_warning}")
            return int(args.run(mem, args, out))
        finally:
            mem.close()
    except CliError as e:
        return _fail(out, e.exit_code, e.error_code, str(e))
    except EkkoMemoryError as e:
        return _fail(out, _EXIT_FOR_CODE.get(e.code, EXIT_FAILED), e.code, str(e), e)
    except KeyboardInterrupt:
        return _fail(out, EXIT_INTERRUPTED, "interrupted", "interrupted")
    except OSError as e:  # a file the command reads or writes: one line, no traceback
        where = f": {e.filename}" if e.filename else ""
        return _fail(out, EXIT_FAILED, "os_error", f"{e.strerror or e}{where}")


def _fail(
    out: Output, exit_code: int, code: str, message: str, error: EkkoMemoryError | None = None
) -> int:
    message = " ".join(message.split())
    if out.as_json:
        body: dict[str, Any] = {"code": code, "message": message}
        if error is not None and error.reason_code is not None:
            # Why, as a code with its specifics, as the agent tools say it (models/reasons.py).
            body["reasonCode"] = error.reason_code
            body["reasonParams"] = dict(error.reason_args or {})
        out.json({"error": body})
    out.note(f"ekko-memory: error: {message}")
    return exit_code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
