"""Where an export may write, and the temporary files of exports under way.

An export never destroys: it refuses to write over a store's database (or its write-ahead
log, journal or backups), anything inside a ``.ekko`` folder or a store's own folder,
and any SQLite file that holds Ekko Memory tables — whatever ``force`` says. An existing
ordinary file is replaced only with ``force`` (``--force`` on the command line; the app
asks first). Every export writes a temporary ``.<name>.<pid>.part`` file beside its
target and renames it into place at the end.

A process killed mid-export cannot remove its part file, which holds exported memories.
So each export first records where its part file is, in ``<user home>/export-parts/``
(one small file per export under way), and removes the record when it is done. The next
export, and every purge, remove the part files of exports whose process is gone
(``sweep_stale_parts``); a purge also scans the part files of exports still running.
"""

from __future__ import annotations

import os
import re
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ekko_memory.errors import InvalidInput

PARTS_FOLDER = "export-parts"
_SQLITE_HEADER = b"SQLite format 3\x00"
# Tables only an Ekko Memory database has.
_OUR_TABLES = ("memory_nodes", "memory_schema_migrations")
# The files SQLite keeps beside a database.
_COMPANIONS = ("", "-wal", "-shm", "-journal")
_PART_NAME = re.compile(r"\..+\.(\d+)\.part")


def part_path(target: Path) -> Path:
    """The temporary file an export to ``target`` writes first (hidden, beside it)."""
    return target.with_name(f".{target.name}.{os.getpid()}.part")


def check_target(
    path: str | os.PathLike[str],
    *,
    databases: Sequence[Path],
    folders: Sequence[Path],
    force: bool,
) -> Path:
    """The absolute path an export may write, or InvalidInput saying why not.

    ``databases``: the stores' database files (their companions and backups are guarded
    too); ``folders``: folders no export writes into (the stores' own folders).
    """
    target = Path(path).expanduser().absolute()
    if target.is_dir():
        raise InvalidInput(f"{target} is a folder; give a file name to write")
    if not target.parent.is_dir():
        raise InvalidInput(f"folder {target.parent} does not exist").because(
            "export.folder_missing", path=target.parent
        )
    # Where the bytes would go: through a symbolic link, to the file it names.
    real = target.resolve()
    guarded = {_resolved(db.with_name(db.name + c)) for db in databases for c in _COMPANIONS}
    refuse = "; nothing was written (choose a file outside it)"
    if real in guarded:
        raise InvalidInput(f"{target} is a memory database: an export never replaces it{refuse}")
    if ".ekko" in real.parent.parts or any(
        real.parent == _resolved(f) or real.parent == _resolved(f / "backups") for f in folders
    ):
        raise InvalidInput(
            f"{target} is inside a memory store's folder ({real.parent}), "
            f"which an export never writes into{refuse}"
        )
    if not os.path.lexists(target):
        return target
    if real.exists() and not real.is_file():
        raise InvalidInput(f"{target} is not an ordinary file; an export does not replace it")
    if real.exists() and is_memory_database(real):
        raise InvalidInput(f"{target} is a memory database: an export never replaces it{refuse}")
    if not force:
        raise InvalidInput(
            f"{target} already exists; nothing was written "
            "(replace it with --force, or choose another file name)"
        )
    return target


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except OSError:
        return path.expanduser().absolute()


def is_memory_database(path: Path) -> bool:
    """An SQLite file holding Ekko Memory's tables (a store, a copy or a backup of one).

    An SQLite file whose schema cannot be read is taken as one: replacing an unreadable
    database with an export is never what was meant."""
    try:
        with path.open("rb") as fh:
            if fh.read(len(_SQLITE_HEADER)) != _SQLITE_HEADER:
                return False
    except OSError:
        return False
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
    except sqlite3.Error:
        return True
    return any(t in names for t in _OUR_TABLES)


def write_private(
    path: Path,
    fill: Callable[[IO[str]], Any],
    *,
    parts: Path | None,
    encoding: str = "utf-8",
) -> Any:
    """Write a text file readable by its owner only (0600), atomically; returns ``fill``'s result.

    ``fill`` writes to a temporary file beside ``path`` that replaces ``path`` only when
    it returns; on any exception (cancellation included) the temporary file is removed.
    ``parts``: the folder where the temporary file is recorded while it exists (None: not
    recorded).
    """
    tmp = part_path(path)
    with _recorded(tmp, parts):
        try:
            tmp.unlink(missing_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as e:
            # Named by the file asked for, not the temporary one beside it.
            raise InvalidInput(f"cannot write {path}: {e.strerror or e}") from e
        try:
            with os.fdopen(fd, "w", encoding=encoding, newline="") as fh:
                result = fill(fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    return result


@contextmanager
def _recorded(tmp: Path, parts: Path | None) -> Iterator[None]:
    """Record ``tmp`` in ``parts`` while the block runs (a record that cannot be written is
    no reason to refuse the export: its own folder is still swept)."""
    record = None
    if parts is not None:
        record = parts / f"{os.getpid()}-{uuid.uuid4().hex}.path"
        try:
            parts.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(record, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(os.fspath(tmp))
        except OSError:
            record = None
    try:
        yield
    finally:
        if record is not None and parts is not None:
            record.unlink(missing_ok=True)
            try:
                parts.rmdir()  # the last export under way: leave no empty folder behind
            except OSError:
                pass


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: alive
    return True


def _recorded_parts(parts: Path) -> Iterator[tuple[Path, Path, int]]:
    """(record, part file, pid) of every export recorded in ``parts``. A record names only
    a ``.<name>.<pid>.part`` file of its own process: no other file is ever removed."""
    try:
        records = sorted(parts.glob("*.path"))
    except OSError:
        return
    for record in records:
        try:
            pid = int(record.name.split("-", 1)[0])
            part = Path(record.read_text(encoding="utf-8", errors="surrogateescape"))
        except (OSError, ValueError):
            continue
        found = _PART_NAME.fullmatch(part.name)
        if not part.is_absolute() or found is None or int(found[1]) != pid:
            record.unlink(missing_ok=True)
            continue
        yield record, part, pid


def sweep_stale_parts(parts: Path, beside: Path | None = None) -> list[Path]:
    """Remove the part files of exports whose process is gone: those recorded in ``parts``
    and those beside ``beside`` (a target about to be written). Returns the files removed."""
    removed: list[Path] = []
    for record, part, pid in _recorded_parts(parts):
        if _alive(pid):
            continue
        if _unlink(part):
            removed.append(part)
        record.unlink(missing_ok=True)
    if beside is not None:
        try:
            siblings = sorted(beside.parent.glob(f".{_glob_escape(beside.name)}.*.part"))
        except OSError:
            siblings = []
        for part in siblings:
            found = _PART_NAME.fullmatch(part.name)
            if found is not None and not _alive(int(found[1])) and _unlink(part):
                removed.append(part)
    return removed


def live_parts(parts: Path) -> list[Path]:
    """The part files of exports still running (a purge scans them too)."""
    return [part for _, part, pid in _recorded_parts(parts) if _alive(pid) and part.is_file()]


def _unlink(path: Path) -> bool:
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError:
        return False
    return True


def _glob_escape(name: str) -> str:
    """``name`` with the characters glob reads as patterns escaped."""
    return re.sub(r"([*?\[])", r"[\1]", name)
