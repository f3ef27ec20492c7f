"""Export and import of a JSON bundle: seconds for a store of N memories (plus audit).

    python bench/bench_transfer.py --sizes 20000 100000

Export writes the bundle of a filled workspace; import reads it into an empty one (every
record new: validation, bounds, audit marking, conflict checks, the writes). Each is
timed ``--repeat`` times on fresh folders; the median is reported.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from fill import filled_service

from ekko_memory import open_memory


def run(size: int, repeat: int) -> dict[str, float]:
    exports: list[float] = []
    imports: list[float] = []
    with tempfile.TemporaryDirectory(prefix="ekko-bench-transfer-") as tmp:
        root = Path(tmp)
        mem = filled_service(root / "src", size)
        # An audit event per memory, as a governed write leaves one.
        with mem.user_store.write() as w:
            for i in range(size):
                w.add_audit("create", actor="agent", reason=f"bench {i}", node_id="mem_x")
        try:
            for i in range(repeat):
                bundle = root / f"bundle-{i}.json"
                t0 = time.perf_counter()
                mem.exporter.export(bundle)
                exports.append(time.perf_counter() - t0)
        finally:
            mem.close()
        for i in range(repeat):
            target = open_memory(root / f"dst-{i}" / "ws", user_home=root / f"dst-{i}" / "home")
            try:
                t0 = time.perf_counter()
                target.importer.import_bundle(root / f"bundle-{i}.json")
                imports.append(time.perf_counter() - t0)
            finally:
                target.close()
    return {
        "export_s": round(statistics.median(exports), 2),
        "import_s": round(statistics.median(imports), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="*", default=[20_000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    results = {str(n): run(n, args.repeat) for n in args.sizes}
    text = json.dumps(results, indent=1)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
