"""Screenshots of the app on the demo workspace, for the AppStream metainfo and the docs.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/take_screenshots.py [--out DIR]

Starts the app's own window (no real display needed), fills a demo workspace in a
temporary folder, and saves ``window.grab()`` PNGs to ``docs/screenshots/``:
``main-window.png`` (a memory with its supersede chain), ``sessions.png`` (a session's
messages and summary chain) and ``main-window-dark.png`` (dark palette, the project
branch). Chinese needs a CJK font installed (Debian: fonts-wqy-microhei); the script
stops with an error rather than save screenshots that would show boxes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync

from ekko_memory.demo import COOKING_SESSION, create_demo_workspace
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.qt import QApplication
from ekko_memory_gui.services import icons
from ekko_memory_gui.services.dialog_service import QtDialogService
from ekko_memory_gui.services.fonts import apply_fonts
from ekko_memory_gui.services.settings import AppSettings
from ekko_memory_gui.services.theme import apply_theme
from ekko_memory_gui.services.translation import install_translation
from ekko_memory_gui.views.main_window import MainWindow

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1280, 800)


async def wait_until(check: Callable[[], bool], timeout: float = 15.0) -> None:
    """Poll ``check`` on the event loop until it holds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not reach the expected state")
        await asyncio.sleep(0.05)


async def settle(window: MainWindow) -> None:
    """Wait for the window's background work, then let it paint."""
    runner = window.runner
    await wait_until(lambda: runner.pending_tasks == 0 and not window.list_pane.model.loading)
    await asyncio.sleep(0.3)
    QApplication.processEvents()


async def open_window(controller: AppController, workspace: Path, user_home: Path) -> MainWindow:
    """A main window of the screenshot size over the workspace, loaded."""
    window = MainWindow(controller)
    window.finish_menus()
    window.resize(*SIZE)
    window.show()
    await controller.open_workspace(workspace, user_home)
    await wait_until(lambda: window.list_pane.filter is not None)
    await settle(window)
    return window


def save(window: MainWindow, path: Path) -> Path:
    """Grab the whole window into a PNG."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(path), "PNG"):
        raise RuntimeError(f"could not save {path}")
    print(path)
    return path


async def take(out: Path, app: QApplication) -> list[Path]:
    """Fill a demo workspace and take the screenshots."""
    tmp = Path(tempfile.mkdtemp(prefix="ekko-shots-"))
    os.environ["EKKO_HOME"] = str(tmp / "home")  # settings and user store stay private
    # The status line shortens paths under the home folder: "~/projects/…", not "/tmp/…".
    os.environ["HOME"] = str(tmp)
    demo = await asyncio.to_thread(create_demo_workspace, tmp / "projects")
    settings = AppSettings(tmp / "gui.ini")
    install_translation(app, "en")
    if apply_fonts(app) is None:
        raise RuntimeError("no CJK font installed: Chinese would show as boxes")
    apply_theme(app, "light")
    controller = AppController(settings, QtDialogService())
    shots = []
    try:
        window = await open_window(controller, demo.workspace, demo.user_home)
        window.list_pane.select_id(demo.node_ids["some_coriander"])
        await settle(window)
        shots.append(save(window, out / "main-window.png"))

        window.category_pane.select_key("sessions/")
        await settle(window)
        window.sessions_view.select_session(COOKING_SESSION)
        await settle(window)
        shots.append(save(window, out / "sessions.png"))
        window.replace()

        apply_theme(app, "dark")
        icons.clear_cache()
        window = await open_window(controller, demo.workspace, demo.user_home)
        window.category_pane.select_key("category/项目/项目/架构")
        await settle(window)
        window.list_pane.select_id(demo.node_ids["db_sqlite"])
        await settle(window)
        shots.append(save(window, out / "main-window-dark.png"))
        window.replace()
    finally:
        await controller.aclose()
    return shots


def main(argv: list[str] | None = None) -> int:
    """Command line: take the screenshots into ``docs/screenshots`` (or ``--out DIR``)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = p.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setQuitOnLastWindowClosed(False)  # the windows are replaced, as in the app
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(take(args.out, app))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
