"""Child process for the killed-export tests: starts an export and stops at its first
progress report (a batch of records already written to its temporary file), says so,
and waits there until it is killed.

Usage: python -m tests.reliability.export_child WORKSPACE HOME OUTPUT
Prints "writing" once the export reported progress.
"""

from __future__ import annotations

import sys
import time

from ekko_memory import Progress, open_memory


def main() -> None:
    workspace, home, output = sys.argv[1], sys.argv[2], sys.argv[3]
    mem = open_memory(workspace, user_home=home)

    def stall(p: Progress) -> None:
        if p.stage == "export":
            print("writing", flush=True)
            time.sleep(600)

    mem.exporter.export(output, progress=stall)


if __name__ == "__main__":
    main()
