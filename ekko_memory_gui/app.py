"""Entry point of the desktop app: QApplication + qasync loop, started in one place."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

import qasync

from ekko_memory import open_memory
from ekko_memory_gui.qt import QApplication, QLabel, QMainWindow, Qt


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command-line options of ``ekko-memory-gui``."""
    p = argparse.ArgumentParser(
        prog="ekko-memory-gui", description="See and control what your agent remembers."
    )
    p.add_argument(
        "--workspace", type=Path, default=None, help="workspace folder (default: current folder)"
    )
    p.add_argument(
        "--user-home",
        type=Path,
        default=None,
        help="user store folder (default: $EKKO_HOME or ~/.ekko)",
    )
    p.add_argument(
        "--demo", action="store_true", help="open a demo workspace filled with sample memories"
    )
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Start the app; returns the exit code."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    workspace = args.workspace or (
        Path(tempfile.mkdtemp(prefix="ekko-demo-")) if args.demo else Path.cwd()
    )
    app = QApplication.instance() or QApplication(sys.argv[:1])
    mem = open_memory(workspace, user_home=args.user_home)
    window = QMainWindow()
    window.setWindowTitle("Ekko Memory")
    lines = [
        f"{name}: {h.location} — {h.status}" + (f" ({h.reason})" if h.reason else "")
        for name, h in mem.health().items()
    ]
    label = QLabel("\n".join(lines))
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setMargin(24)
    window.setCentralWidget(label)
    window.resize(720, 240)
    window.show()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    done = asyncio.Event()
    app.aboutToQuit.connect(done.set)
    with loop:
        loop.run_until_complete(done.wait())
    mem.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
