"""Run every benchmark in turn and write their results to bench/results/ (``make bench``).

Each script can also run alone; see bench/README.md for what each measures.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
SCRIPTS = [
    ("store", ["bench_store.py"]),
    ("context", ["bench_context.py"]),
    ("writes", ["bench_writes.py"]),
    ("gui", ["bench_gui.py"]),
    ("hermes", ["bench_hermes.py"]),
]
# Benchmarks that run in another environment than this one.
PYTHONS = {"hermes": HERE.parent / "build" / "hermes-venv" / "bin" / "python"}


def main() -> int:
    """Run them all; returns non-zero if any failed."""
    failed = []
    for name, args in SCRIPTS:
        script = HERE / args[0]
        if not script.exists():
            continue
        python = PYTHONS.get(name, Path(sys.executable))
        if not python.exists():
            print(f"== {name}: skipped, no {python} (make hermes-venv)", flush=True)
            continue
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        code = subprocess.call([str(python), str(script), *args[1:]])
        print(f"== {name}: exit {code} in {time.perf_counter() - started:.0f} s", flush=True)
        if code:
            failed.append(name)
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
