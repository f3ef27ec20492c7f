"""What the CLI prints and how it fails: the output sink, exit codes, one-line errors."""

from __future__ import annotations

import json
import shutil
import sys
from typing import Any, TextIO

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NOT_FOUND = 3
EXIT_DECLINED = 4
EXIT_INTERRUPTED = 130


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 memory``, ``2 memories``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


# The ``error.code`` of ``--json`` output for each exit code: the names the core's
# errors use (``EkkoMemoryError.code``), so a script reads one vocabulary whichever layer
# refused.
ERROR_CODES = {
    EXIT_FAILED: "failed",
    EXIT_USAGE: "invalid_input",
    EXIT_NOT_FOUND: "not_found",
    EXIT_DECLINED: "declined",
    EXIT_INTERRUPTED: "interrupted",
}


class CliError(Exception):
    """A failure with its exit code and a one-line message (``error_code``: the
    ``--json`` name, by default the one of the exit code)."""

    def __init__(self, code: int, message: str, *, error_code: str | None = None) -> None:
        super().__init__(message)
        self.exit_code = code
        self.error_code = error_code or ERROR_CODES.get(code, "failed")


class Output:
    """Where results go: tables or JSON on stdout, notes and progress on stderr."""

    def __init__(self, as_json: bool, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.as_json = as_json
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self._progress_shown = False

    @property
    def width(self) -> int:
        """Terminal width for tables (120 when not a terminal)."""
        if self.out.isatty():
            return max(60, shutil.get_terminal_size((120, 24)).columns)
        return 120

    def json(self, data: Any) -> None:
        """One JSON document (Chinese kept readable)."""
        self.out.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")

    def text(self, text: str = "") -> None:
        """Text for people (ignored in JSON mode)."""
        if not self.as_json:
            self.out.write(text + "\n")

    def note(self, text: str) -> None:
        """A message on stderr (warnings, hints)."""
        self.end_progress()
        self.err.write(text + "\n")

    def progress(self, stage: str, done: int, total: int) -> None:
        """A progress line on stderr, only when stderr is a terminal."""
        if not self.err.isatty():
            return
        self.err.write(f"\r{stage} {done}/{total}" + " " * 10)
        self.err.flush()
        self._progress_shown = True

    def end_progress(self) -> None:
        if self._progress_shown:
            self.err.write("\n")
            self._progress_shown = False

    def ask(self, question: str) -> bool:
        """Ask on stderr, read one line from stdin; no answer (EOF) means no."""
        self.end_progress()
        self.err.write(question + " ")
        self.err.flush()
        answer = sys.stdin.readline()
        return answer.strip().lower() in ("y", "yes")
