"""GUI benchmark at 100k memories: cold start to the first painted window, and the longest
event-loop stall while scrolling and searching (targets: ≤ 1.5 s and ≤ 50 ms).

- Cold start: a fresh process per run (``python -m``-style start of the real app through
  ``ekko_memory_gui.app.main``), timed from just before the process is spawned to the
  first paint of the main window, and to the first page of memories painted.
- Stalls: in one app process, a 1 ms timer records the gaps between its ticks (a gap is
  time the event loop could not run) while the table is scrolled to the end again and
  again (each time the next page loads) and while queries are typed one character at a
  time like a user would (150 ms debounce, then a full-text search at 100k rows).

Runs under Xvfb when there is no display and ``xvfb-run`` is installed (a real X
window), else on the offscreen platform. The filled database is cached in the temp
folder between runs.

Run: .venv/bin/python bench/bench_gui.py [--nodes 100000] [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


# --- data -------------------------------------------------------------------------------


def prepare(nodes: int) -> tuple[Path, Path]:
    """A workspace and user store holding ``nodes`` memories (filled once, then cached)."""
    root = Path(tempfile.gettempdir()) / f"ekko-bench-gui-{nodes}"
    workspace, home = root / "workspace", root / "home"
    marker = root / "filled"
    if marker.exists():
        return workspace, home
    shutil.rmtree(root, ignore_errors=True)
    workspace.mkdir(parents=True)
    home.mkdir(parents=True)
    from datagen import make_nodes

    from ekko_memory import open_memory

    print(f"filling {nodes} memories (once)…", file=sys.stderr)
    mem = open_memory(workspace, user_home=home)
    batch: dict[str, list[Any]] = {"user": [], "workspace": []}
    for node in make_nodes(nodes):
        key = "user" if node.scope == "user" else "workspace"
        batch[key].append(node)
    # Benchmark filling only: the store's bulk insert (the app uses the public API).
    for key, items in batch.items():
        store = mem.store_for_scope(key)
        for i in range(0, len(items), 2000):
            with store.write() as w:
                w.insert_nodes(items[i : i + 2000])
        store.analyze()
    mem.close()
    marker.write_text("ok\n")
    return workspace, home


# --- child: one app process -------------------------------------------------------------


def child(mode: str, workspace: str, home: str, settings_home: str) -> None:
    """Start the real app (``main``) and measure from inside; prints one JSON line."""
    os.environ["EKKO_HOME"] = settings_home
    from ekko_memory_gui.qt import QApplication, QEvent, QMainWindow, QObject, QTimer

    app = QApplication(sys.argv[:1])
    result: dict[str, Any] = {"platform": app.platformName()}

    class FirstPaint(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.window: Any = None
            self.painted_rows = False

        def eventFilter(self, obj: Any, event: Any) -> bool:
            if event.type() == QEvent.Type.Paint:
                now = time.time()
                if isinstance(obj, QMainWindow) and "first_paint" not in result:
                    result["first_paint"] = now
                    self.window = obj
                elif (
                    self.window is not None
                    and not self.painted_rows
                    and obj.objectName() == "qt_scrollarea_viewport"
                    and obj.parent() is not None
                    and obj.parent().objectName() == "memoryTable"
                    and obj.parent().model().rowCount() > 0
                ):
                    self.painted_rows = True
                    result["first_rows"] = now
                    # Measuring is done: stop filtering every event through Python.
                    QApplication.instance().removeEventFilter(self)
                    if mode == "startup":
                        QTimer.singleShot(50, self.window.close)
                    else:
                        QTimer.singleShot(
                            300, lambda: asyncio.ensure_future(stall_run(self.window))
                        )
            return False

    watcher = FirstPaint()
    app.installEventFilter(watcher)

    async def stall_run(window: Any) -> None:
        from PySide6.QtGui import QInputMethodEvent

        from ekko_memory_gui.qt import QApplication as QA

        gaps: list[float] = []
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append((now - last[0]) * 1000)
            last[0] = now

        timer = QTimer()
        timer.setInterval(1)
        timer.timeout.connect(tick)
        gc_times: list[tuple[int, float]] = []
        if os.environ.get("EKKO_BENCH_GCLOG"):
            import gc

            gc_start = [0.0]

            def gc_cb(phase_: str, info: dict[str, int]) -> None:
                if phase_ == "start":
                    gc_start[0] = time.perf_counter()
                elif info["generation"] >= 1:
                    gc_times.append(
                        (info["generation"], round((time.perf_counter() - gc_start[0]) * 1000, 1))
                    )

            gc.callbacks.append(gc_cb)
            result["gc"] = gc_times
        if os.environ.get("EKKO_BENCH_WATCHDOG"):
            # Debugging aid: what the GUI thread (and the others) do during a long gap.
            import threading

            gui_ident = threading.get_ident()
            samples: list[str] = []

            def where(frame: Any) -> str:
                out = []
                while frame is not None and len(out) < 3:
                    out.append(
                        f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno}:{frame.f_code.co_name}"
                    )
                    frame = frame.f_back
                return " < ".join(out)

            def watchdog() -> None:
                while len(samples) < 400:
                    time.sleep(0.002)
                    gap = time.perf_counter() - last[0]
                    if gap > 0.025:
                        frames = sys._current_frames()
                        others = [
                            where(f)
                            for i, f in frames.items()
                            if i not in (gui_ident, threading.get_ident())
                        ]
                        samples.append(
                            f"{gap * 1000:.0f}ms GUI={where(frames.get(gui_ident))} | "
                            + " || ".join(others)
                        )

            threading.Thread(target=watchdog, daemon=True).start()
            result["watchdog"] = samples

        def phase(name: str) -> None:
            if gaps:
                g = sorted(gaps)
                result[name] = {
                    "max_stall_ms": round(g[-1], 1),
                    "p99_ms": round(g[int(len(g) * 0.99) - 1], 1),
                    "ticks": len(g),
                }
            gaps.clear()

        table = window.list_pane.table
        model = window.list_pane.model
        bar = table.verticalScrollBar()
        last[0] = time.perf_counter()
        timer.start()
        # Scrolling: to the end (the next page loads), then page by page, 40 times.
        t_end = time.perf_counter() + 8
        rounds = 0
        while time.perf_counter() < t_end and rounds < 40:
            bar.setValue(bar.maximum())
            await asyncio.sleep(0.05)
            for _ in range(3):
                bar.setValue(max(0, bar.value() - bar.pageStep()))
                await asyncio.sleep(0.02)
            bar.setValue(bar.maximum())
            while model.loading:
                await asyncio.sleep(0.01)
            rounds += 1
        result["rows_loaded_while_scrolling"] = model.rowCount()
        phase("scroll")
        last[0] = time.perf_counter()
        # Searching: type each query like a user (80 ms between keys), wait for results.
        from datagen import QUERIES

        field = window.search_field
        searches = 0
        for query in QUERIES:
            field.clear()
            field.setFocus()
            for ch in query:
                ev = QInputMethodEvent("", [])
                ev.setCommitString(ch)
                QA.sendEvent(field, ev)
                await asyncio.sleep(0.08)
            await asyncio.sleep(0.2)
            while model.loading:
                await asyncio.sleep(0.01)
            searches += 1
        result["searches"] = searches
        phase("search")
        timer.stop()
        window.close()

    from ekko_memory_gui import app as gui_app

    if os.environ.get("EKKO_BENCH_SWITCH"):
        real = sys.setswitchinterval
        sys.setswitchinterval = lambda _v: real(float(os.environ["EKKO_BENCH_SWITCH"]))  # type: ignore[assignment]

    gui_app.main(["--workspace", workspace, "--user-home", home, "--language", "en"])
    print("RESULT " + json.dumps(result))


# --- parent -----------------------------------------------------------------------------


def _spawn(mode: str, workspace: Path, home: Path, platform: str = "auto") -> dict[str, Any]:
    settings_home = tempfile.mkdtemp(prefix="ekko-bench-settings-")
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        mode,
        str(workspace),
        str(home),
        settings_home,
    ]
    env = dict(os.environ)
    if platform == "offscreen":
        env["QT_QPA_PLATFORM"] = "offscreen"
    elif not env.get("DISPLAY") and xvfb_available():
        env.pop("QT_QPA_PLATFORM", None)
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", *cmd]
    elif not env.get("DISPLAY"):
        env["QT_QPA_PLATFORM"] = "offscreen"
    t0 = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    shutil.rmtree(settings_home, ignore_errors=True)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            data: dict[str, Any] = json.loads(line[7:])
            for key in ("first_paint", "first_rows"):
                if key in data:
                    data[key + "_s"] = round(data.pop(key) - t0, 3)
            return data
    raise RuntimeError(f"child failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")


def xvfb_available() -> bool:
    return shutil.which("xvfb-run") is not None


def _stall_summary(stall: dict[str, Any]) -> dict[str, Any]:
    return {
        "platform": stall.get("platform"),
        "scroll": stall.get("scroll"),
        "rows_loaded_while_scrolling": stall.get("rows_loaded_while_scrolling"),
        "search": stall.get("search"),
        "searches": stall.get("searches"),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--stall-runs", type=int, default=3)
    ap.add_argument("--child", nargs=4, metavar=("MODE", "WS", "HOME", "SETTINGS"))
    ap.add_argument("--out", type=Path, default=HERE / "results" / "gui.json")
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    workspace, home = prepare(args.nodes)
    starts = [_spawn("startup", workspace, home) for _ in range(args.runs)]
    first_paint = [s["first_paint_s"] for s in starts]
    first_rows = [s["first_rows_s"] for s in starts]
    stalls = [_stall_summary(_spawn("stall", workspace, home)) for _ in range(args.stall_runs)]
    if stalls[0]["platform"] != "offscreen":
        # The same without an X server: Qt's own cost (Xvfb renders in software on the
        # same CPUs, which adds its share to every frame).
        stalls += [
            _stall_summary(_spawn("stall", workspace, home, "offscreen"))
            for _ in range(args.stall_runs)
        ]
    result = {
        "nodes": args.nodes,
        "platform": starts[0]["platform"],
        "cold_start_first_paint_s": {
            "median": round(statistics.median(first_paint), 3),
            "max": max(first_paint),
            "runs": first_paint,
        },
        "cold_start_first_rows_painted_s": {
            "median": round(statistics.median(first_rows), 3),
            "max": max(first_rows),
            "runs": first_rows,
        },
        "worst_stall_ms": {
            phase: max(st[phase]["max_stall_ms"] for st in stalls if st.get(phase))
            for phase in ("scroll", "search")
        },
        "stalls": stalls,
        "cpus": os.cpu_count(),
        "targets": {"cold_start_s": 1.5, "max_stall_ms": 50},
    }
    print(json.dumps(result, ensure_ascii=False, indent=2))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
