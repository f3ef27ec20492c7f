"""Entry point of the desktop app: QApplication + qasync loop, started in one place.

``main`` creates the QApplication and the qasync event loop and runs ``AppRun.run`` on
it, which sets up translation, theme and fonts, opens the workspace off the GUI
thread, shows the window, and awaits the quit request (the window closing, or the
application's ``aboutToQuit``); then it awaits the controller's shutdown (tasks
cancelled, the memory worker drained, stores closed) before the loop ends.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import logging
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import qasync

from ekko_memory import InvalidInput
from ekko_memory_gui.controller import AppController, DatabaseTarget
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import QApplication
from ekko_memory_gui.services.dialog_service import DialogService, QtDialogService
from ekko_memory_gui.services.fonts import apply_fonts
from ekko_memory_gui.services.gui_thread_gc import GuiThreadCollector
from ekko_memory_gui.services.settings import AppSettings
from ekko_memory_gui.services.theme import apply_theme
from ekko_memory_gui.services.translation import (
    LoadedTranslation,
    install_translation,
    remove_translation,
)
from ekko_memory_gui.smoke import SmokeTest
from ekko_memory_gui.views.main_window import MainWindow

log = logging.getLogger("ekko_memory_gui")


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command-line options of ``ekko-memory-gui``."""
    p = argparse.ArgumentParser(
        prog="ekko-memory-gui", description="See and control what your agent remembers."
    )
    p.add_argument(
        "--workspace",
        type=Path,
        default=None,
        help="workspace folder (default: the current folder when it holds a workspace, "
        "else the last one opened, else the current folder)",
    )
    p.add_argument(
        "--database-url",
        default=None,
        metavar="URL",
        help="open a PostgreSQL store instead of a workspace folder "
        "(postgresql+psycopg://user@host/db; default: $EKKO_DATABASE_URL when no --workspace "
        "is given; the password is never saved)",
    )
    p.add_argument(
        "--namespace",
        default=None,
        metavar="NAME",
        help="with a database URL: the schemas NAME_workspace and NAME_user "
        "(default: $EKKO_DATABASE_NAMESPACE or ekko)",
    )
    p.add_argument(
        "--user-home",
        type=Path,
        default=None,
        help="user store folder (default: $EKKO_HOME or ~/.ekko)",
    )
    p.add_argument(
        "--demo",
        nargs="?",
        const="",
        default=None,
        metavar="DIR",
        help="create a demo workspace filled with sample memories (in DIR, or a temporary folder) and open it",
    )
    p.add_argument(
        "--language", choices=("system", "en", "zh_CN"), default=None, help="UI language (saved)"
    )
    p.add_argument(
        "--theme", choices=("system", "light", "dark"), default=None, help="colours (saved)"
    )
    p.add_argument(
        "--smoke-test",
        action="store_true",
        help="open, wait until the workspace has loaded and the window painted, print one "
        "line and quit with 0 (1 on failure); proves a build works (see packaging/README.md)",
    )
    args = p.parse_args(argv)
    if args.database_url and (args.workspace or args.demo is not None):
        p.error("--database-url opens a server store: leave out --workspace and --demo")
    return args


def database_target(args: argparse.Namespace) -> DatabaseTarget | None:
    """The PostgreSQL store to open: ``--database-url``, else ``$EKKO_DATABASE_URL`` when
    neither a workspace nor the demo was asked for (as ``open_memory`` does); else None."""
    url = args.database_url
    if url is None and args.workspace is None and args.demo is None:
        url = os.environ.get("EKKO_DATABASE_URL") or None
    if url is None:
        return None
    namespace = args.namespace or os.environ.get("EKKO_DATABASE_NAMESPACE") or "ekko"
    return DatabaseTarget(url, namespace)


def default_workspace(settings: AppSettings, cwd: Path | None = None) -> Path:
    """The current folder when it holds a workspace, else the last one opened, else the current folder."""
    cwd = cwd or Path.cwd()
    if (cwd / ".ekko").is_dir():
        return cwd
    return settings.last_workspace() or cwd


async def prepare_demo(folder: str, user_home: Path | None) -> tuple[Path, Path]:
    """Fill a demo workspace (off the GUI thread); returns (workspace, user home)."""
    from ekko_memory.demo import create_demo_workspace

    root = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="ekko-demo-"))
    # A plain worker thread of our own (not the loop's default executor, which under
    # qasync is a pool of QThreads that outlives the loop when it is never closed).
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ekko-demo") as pool:
        report = await asyncio.get_running_loop().run_in_executor(
            pool, functools.partial(create_demo_workspace, root, user_home=user_home)
        )
    return report.workspace, report.user_home


class AppShell:
    """Holds the one window and rebuilds it when the language or the theme changes."""

    def __init__(
        self,
        app: QApplication,
        controller: AppController,
        translation: LoadedTranslation | None,
    ) -> None:
        self.app = app
        self.controller = controller
        self.translation = translation
        self.quit_requested = asyncio.Event()
        self.window: MainWindow | None = None
        app.aboutToQuit.connect(self.quit_requested.set)
        hints = app.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self._system_scheme_changed)

    def build_window(self) -> MainWindow:
        window = MainWindow(self.controller)
        window.finish_menus()
        window.closed.connect(self.quit_requested.set)
        window.rebuild_requested.connect(self.rebuild)
        self.window = window
        return window

    def rebuild(self, setting: str, value: str) -> MainWindow:
        """Apply a language or theme and rebuild the window in place, keeping what it showed."""
        settings = self.controller.settings
        if setting == "language":
            settings.set_language(value)
            remove_translation(self.app, self.translation)
            self.translation = install_translation(self.app, value)
            labels.reset()
        elif setting == "theme":
            settings.set_theme(value)
            apply_theme(self.app, value)
        old = self.window
        state = old.capture_state() if old is not None else None
        window = self.build_window()
        if old is not None:
            window.setGeometry(old.geometry())
        window.show()
        if old is not None:
            old.replace()
            old.deleteLater()
        if self.controller.workspace is not None:
            window.attach_workspace(self.controller.workspace)
            if state is not None:
                window.restore_state(state)
        return window

    def _system_scheme_changed(self, *_: object) -> None:
        if self.controller.settings.theme() == "system":
            self.rebuild("theme", "system")


class AppRun:
    """One run of the app: set up, open the workspace, show the window, await the quit request."""

    def __init__(
        self,
        app: QApplication,
        args: argparse.Namespace,
        *,
        dialogs: DialogService | None = None,
        settings: AppSettings | None = None,
    ) -> None:
        self.app = app
        self.args = args
        self.dialogs = dialogs or QtDialogService()
        self.settings = settings or AppSettings()
        self.controller: AppController | None = None
        self.shell: AppShell | None = None
        self._closed = False

    async def run(self) -> int:
        args, settings = self.args, self.settings
        if args.language:
            settings.set_language(args.language)
        if args.theme:
            settings.set_theme(args.theme)
        translation = install_translation(self.app, settings.language())
        apply_theme(self.app, settings.theme())
        apply_fonts(self.app)
        self.controller = AppController(settings, self.dialogs)
        self.shell = AppShell(self.app, self.controller, translation)
        window = self.shell.build_window()
        smoke = SmokeTest(window) if args.smoke_test else None
        window.show()

        user_home = args.user_home
        database = database_target(args)
        workspace = None
        if args.demo is not None:
            workspace, user_home = await prepare_demo(args.demo, args.user_home)
        elif database is None:
            workspace = args.workspace or default_workspace(settings)
        try:
            if workspace is not None:
                window.status.set_opening(workspace)
                await self.controller.open_workspace(workspace, user_home)
            else:
                assert database is not None
                await self.open_database(window, database)
            # Everything alive now (modules, Qt wrappers, schema rules) lives as long as the
            # app: keep it out of the cyclic collector's full passes, which otherwise take
            # tens of milliseconds on the GUI thread (see bench/bench_gui.py).
            gc.freeze()
            if smoke is not None:
                return await smoke.finish(
                    expect_memories=args.demo is not None, translation=self.shell.translation
                )
            await self.shell.quit_requested.wait()
        finally:
            await self.shutdown()
        return 0

    async def open_database(self, window: MainWindow, database: DatabaseTarget) -> None:
        """The store of ``--database-url``; a URL the core cannot use opens the connection
        dialog with the reason (a server that refuses shows in the status line, with Retry)."""
        assert self.controller is not None
        window.status.set_opening(database.display)
        try:
            await self.controller.open_database(database)
        except InvalidInput as e:
            window.cannot_connect(database, e)

    async def shutdown(self) -> None:
        """Close the window and await the controller's shutdown (once)."""
        if self._closed:
            return
        self._closed = True
        if self.shell is not None and self.shell.window is not None:
            self.shell.window.replace()
        if self.controller is not None:
            await self.controller.aclose()


def main(argv: list[str] | None = None) -> int:
    """Start the app; returns the exit code."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("Ekko Memory")
    app.setOrganizationName("Ekko")
    # The .desktop file's name (packaging/linux): desktops match the window to its entry
    # and icon by it (Wayland app_id, _GTK_APPLICATION_ID on X11).
    app.setDesktopFileName("io.github.ekkomemory.EkkoMemory")
    # The app quits when AppRun.run returns (after the window closed and shutdown was awaited).
    app.setQuitOnLastWindowClosed(False)
    # A short GIL switch interval keeps the GUI thread responsive while the memory
    # worker thread runs Python (measured in bench/bench_gui.py).
    sys.setswitchinterval(0.001)
    # Cycles are collected on this thread only: a QObject destroyed by a collection on the
    # worker thread deadlocked the app.
    GuiThreadCollector(app).start()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    run = AppRun(app, args)
    with loop:
        try:
            return loop.run_until_complete(run.run())
        except RuntimeError:
            # The Qt loop ended under the coroutine (app.quit() from outside, e.g. the
            # session manager): run the loop once more to await the shutdown.
            loop.run_until_complete(run.shutdown())
            return 0


if __name__ == "__main__":
    raise SystemExit(main())
