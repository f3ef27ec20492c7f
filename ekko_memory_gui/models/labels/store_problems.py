"""Why a store is disabled, read-only or degraded, in the UI's language, from the core's
reason codes (``StoreHealth.reason_code``) and their specifics."""

from __future__ import annotations

from ekko_memory_gui.models.labels.vocabulary import cached
from ekko_memory_gui.qt import QCoreApplication as _Q


def problem_table() -> dict[str, str]:
    """Why a store is disabled, read-only or degraded (``StoreHealth.reason_code``), as
    sentences with the specifics the core gives (``reason_args``) as placeholders. The
    English is the core's own sentence; a translation may leave out the driver's English
    words (``{detail}``), which the status line's tooltip keeps."""

    return {
        "directory": _Q.translate(
            "StoreProblem", "{path} is a directory, not a database file; move it away"
        ),
        "folder_uncreatable": _Q.translate("StoreProblem", "cannot create {path}: {detail}"),
        "folder_not_writable": _Q.translate(
            "StoreProblem", "{path} is not writable and holds no database yet"
        ),
        "folder_on_read_only_mount": _Q.translate(
            "StoreProblem",
            "{path} is on a file system mounted read-only and holds no database yet",
        ),
        "locked": _Q.translate(
            "StoreProblem",
            "{path} is locked by another program, which kept it for {seconds} s; close that"
            " program (or wait) and open it again",
        ),
        "io": _Q.translate(
            "StoreProblem",
            "{path} could not be read or written ({detail}: a full disk or quota, a file size"
            " limit or a failing drive); free some space and open it again",
        ),
        "not_a_database": _Q.translate(
            "StoreProblem", "{path} is not a readable Ekko Memory database ({detail})"
        ),
        "newer_schema": _Q.translate(
            "StoreProblem",
            "the database uses schema version {version}, newer than this release's {latest};"
            " upgrade Ekko Memory to open it",
        ),
        "backup_failed": _Q.translate(
            "StoreProblem",
            "could not back the file up before upgrading it from schema version {version}"
            " ({detail}); the file was left as it was: free some disk space and open it again",
        ),
        "migration_failed": _Q.translate(
            "StoreProblem", "migration from schema version {version} failed: {detail}"
        ),
        "readonly_needs_upgrade": _Q.translate(
            "StoreProblem",
            "{path} is read-only and has schema version {version}, but this release needs"
            " {latest}; make it writable to upgrade it",
        ),
        "read_only_file": _Q.translate(
            "StoreProblem",
            "{path} is read-only: memories can be read but not changed (fix the file's"
            " permissions to write)",
        ),
        "read_only_mount": _Q.translate(
            "StoreProblem",
            "{path} is on a file system mounted read-only: memories can be read but not"
            " changed (mount it read-write to write)",
        ),
        "read_only_unreadable": _Q.translate(
            "StoreProblem", "{path} is read-only and cannot be opened ({detail})"
        ),
        "file_replaced": _Q.translate(
            "StoreProblem",
            "{path} was deleted, moved or replaced by another program while it was open;"
            " nothing more is read from or written to the file that was there: open the store"
            " again",
        ),
        "became_read_only": _Q.translate("StoreProblem", "{location} became read-only ({detail})"),
        "damaged": _Q.translate("StoreProblem", "{location} is damaged ({detail})"),
        "no_driver": _Q.translate(
            "StoreProblem", "PostgreSQL support needs psycopg: pip install 'ekko-memory[postgres]'"
        ),
        "encoding": _Q.translate(
            "StoreProblem",
            "the database's encoding is {encoding}, but Ekko Memory stores Chinese text and"
            " needs UTF8 (CREATE DATABASE … ENCODING 'UTF8')",
        ),
        "server_read_only": _Q.translate(
            "StoreProblem",
            "the server is read-only (a standby?): memories can be read but not changed",
        ),
        "server_readonly_needs_upgrade": _Q.translate(
            "StoreProblem",
            "the server is read-only (a standby?) and the store has schema version {version},"
            " but this release needs {latest}",
        ),
        "unreachable": _Q.translate(
            "StoreProblem",
            "cannot connect to PostgreSQL at {location}: {detail} (is the server running and"
            " the URL, user and password right?)",
        ),
        # The server answered but refused the login: the core words it as it words a
        # server that does not answer; a translation can say which it is.
        "auth": _Q.translate(
            "StoreProblem",
            "cannot connect to PostgreSQL at {location}: {detail} (is the server running and"
            " the URL, user and password right?)",
            "the server refused the login",
        ),
        "refused": _Q.translate(
            "StoreProblem", "PostgreSQL at {location} refused the store: {detail}"
        ),
        "global_read_only": _Q.translate(
            "StoreProblem", "global memories ship with the app and are read-only"
        ),
    }


def store_problem(code: str | None, args: dict[str, str] | None) -> str | None:
    """Why a store is not ok, in the UI's language: the sentence for the core's
    ``reason_code`` with its specifics (path, seconds, versions…) filled in; None when the
    code is unknown or its placeholders do not fit. (The English sentences are the
    core's own, so English reads exactly as the core says.)"""
    template = cached("problem", problem_table).get(code or "")
    if template is None:
        return None
    try:
        return template.format(**(args or {}))
    except (KeyError, IndexError, ValueError):
        return None
