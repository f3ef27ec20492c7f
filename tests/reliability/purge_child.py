"""Child process for the purge crash test: purges a category with its messages and stalls
(until killed) after the first batch of memories is gone.

Usage: python -m tests.reliability.purge_child WORKSPACE HOME CATEGORY
Prints "stalled" when the first batch of memories has been purged.
"""

from __future__ import annotations

import sys
import time

from ekko_memory import Progress, PurgeFilter, open_memory


def main() -> None:
    workspace, home, category = sys.argv[1], sys.argv[2], sys.argv[3]
    mem = open_memory(workspace, user_home=home)

    def stall(p: Progress) -> None:
        if p.stage == "memories" and p.done > 0:
            print("stalled", flush=True)
            time.sleep(60)  # the parent kills the process here

    mem.purger.purge(
        PurgeFilter(category_path_prefix=category.split("/"), include_messages=True),
        progress=stall,
    )
    print("finished", flush=True)


if __name__ == "__main__":
    main()
