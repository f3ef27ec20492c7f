"""After a purge: look for the purged text everywhere it could hide, and clear backups.

Three places are searched for each text: the tables (every column where user text can
live, ``store/user_text.py``: not the ids, scopes or actors that can spell the same word;
for the purge's query also the session, workspace and user ids, which can be named
after it and which a purge does not rename),
the full-text index (matches whose node is gone), and the raw bytes of the database file
and its write-ahead log (and the temporary files of exports still running). User text
still held by a live row is reported as ``kept``;
bytes in the file that no live row explains (in any column), and index matches, leak.
Migration backups that still hold purged text (read as databases, like the tables) or
ids are deleted (or reported), and
the error texts of failed jobs, which can quote the purged text, are dropped.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterable, Sequence
from pathlib import Path

from ekko_memory.models import PurgeFinding, PurgeVerification
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.store.text_reads import user_text_in_file

# Shown in reports: enough to recognise the text, not a copy of a long message.
_SHOWN = 40


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def count_in_file(path: Path, needles: Sequence[bytes]) -> list[int]:
    """How often each needle occurs in the file's raw bytes (0 for a missing or empty file)."""
    try:
        with path.open("rb") as fh:
            if path.stat().st_size == 0:
                return [0] * len(needles)
            with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return [_count(data, n) for n in needles]
    except FileNotFoundError:
        return [0] * len(needles)


def _count(data: mmap.mmap, needle: bytes) -> int:
    count, start = 0, 0
    while needle and (start := data.find(needle, start)) != -1:
        count += 1
        start += len(needle)
    return count


def backup_hits(path: Path, texts: Sequence[str]) -> list[int]:
    """How much of each text a migration backup holds. The backup is read as the database
    it is, where user text lives: its bytes also spell the machine words ("user" in every
    scope and actor column) that a purge of such a word leaves, as in the live file. A
    backup that cannot be read so is judged by its bytes."""
    found = user_text_in_file(path, texts)
    if found is None:
        found = count_in_file(path, [t.encode("utf-8") for t in texts])
    return found


def clear_backups(
    stores: Iterable[SqlStore],
    *,
    texts: Sequence[str] = (),
    ids: Sequence[str] = (),
    remove: bool,
) -> tuple[list[str], list[str]]:
    """Backups holding purged data — any of ``texts`` as user text, or any of the purged
    records' ``ids`` (unique, so their bytes tell) — as (removed, kept) paths."""
    wanted = [t for t in texts if t]
    encoded = [i.encode("utf-8") for i in ids if i]
    removed: list[str] = []
    kept: list[str] = []
    for store in stores:
        for path in store.backups():
            if not any(count_in_file(path, encoded)) and not any(backup_hits(path, wanted)):
                continue
            if remove:
                path.unlink(missing_ok=True)
                removed.append(str(path))
            else:
                kept.append(str(path))
    return removed, kept


def clear_job_errors(store: SqlStore) -> bool:
    """After a hard delete: drop the error texts of the store's failed jobs, which can
    quote a model's reply about the deleted memory (see ``redact_job_errors``). True when
    something was dropped (the store then needs its scrub)."""
    if not store.health.writable:
        return False
    with store.write() as w:
        return w.redact_job_errors() > 0


def verify_purge(
    stores: Sequence[SqlStore],
    texts: Sequence[str],
    *,
    query: str | None,
    kept_backups: Sequence[str] = (),
    exports: Sequence[Path] = (),
) -> PurgeVerification:
    """Search the stores for ``texts`` after a purge (see the module docstring);
    ``exports``: the temporary files of exports still running, searched as raw bytes."""
    files = [f for s in stores for f in s.files()] + list(exports)
    needles = [t.encode("utf-8") for t in texts]
    in_files = {f: count_in_file(f, needles) for f in files}
    in_files.update((Path(p), backup_hits(Path(p), texts)) for p in kept_backups)
    files += [Path(p) for p in kept_backups]
    leaks: list[PurgeFinding] = []
    kept: list[PurgeFinding] = []
    query_kept = False
    for i, text in enumerate(texts):
        rows: dict[str, int] = {}
        live = False
        orphans = 0
        for store in stores:
            with store.read() as r:
                for table, n in r.user_text_occurrences(text).items():
                    rows[table] = rows.get(table, 0) + n
                # A word such as "user" is also spelled by scopes, actors, roles (and "index"
                # by the schema): they explain its bytes in the file, but are not the
                # user's text kept.
                live = live or bool(r.text_occurrences(text)) or r.schema_spells(text)
                orphans += r.orphan_index_hits(text)
        if text == query:
            # The query also names sessions and owners (a session called after it): ids a
            # purge of text does not rename, which the report must not call gone.
            for store in stores:
                with store.read() as r:
                    for column, n in r.identity_occurrences(text).items():
                        rows[column] = rows.get(column, 0) + n
        for table, n in sorted(rows.items()):
            kept.append(PurgeFinding(text=_shown(text), location=f"table:{table}", count=n))
        if rows and text == query:
            query_kept = True
        if orphans:
            leaks.append(PurgeFinding(text=_shown(text), location="search-index", count=orphans))
        for f, counts in in_files.items():
            backup = str(f) in kept_backups
            # Bytes of a live row are expected in the database file (and in an export
            # running now); anywhere else they leak.
            if counts[i] and (backup or not live):
                where = f"backup:{f}" if backup else f"file:{f}"
                leaks.append(PurgeFinding(text=_shown(text), location=where, count=counts[i]))
    return PurgeVerification(
        clean=not leaks and not query_kept,
        texts_checked=len(texts),
        files_scanned=[str(f) for f in files],
        leaks=leaks,
        kept=kept,
    )
