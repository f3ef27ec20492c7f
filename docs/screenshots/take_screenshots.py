"""Screenshots of the app on the demo workspace, taken under Xvfb (a real X window).

Run: .venv/bin/python docs/screenshots/take_screenshots.py [--only NAME ...]

Without a display it re-runs itself under ``xvfb-run`` (install ``xvfb xauth`` and a CJK
font such as ``fonts-wqy-microhei``). Each scene runs in its own process (a fresh
QApplication with its language and theme) and writes ``docs/screenshots/<name>.png``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# name: (language, theme, scene); the window is 1400×900 unless SIZES says otherwise.
SCENES: dict[str, tuple[str, str, str]] = {
    "main-en": ("en", "light", "main"),
    "main-zh_CN": ("zh_CN", "light", "main"),
    "main-dark-en": ("en", "dark", "main"),
    "main-dark-zh_CN": ("zh_CN", "dark", "main"),
    "main-1024-en": ("en", "light", "main"),
    "main-1024-zh_CN": ("zh_CN", "light", "main"),
    "main-1024-dark-en": ("en", "dark", "main"),
    "main-1024-dark-zh_CN": ("zh_CN", "dark", "main"),
    "details-en": ("en", "light", "details"),
    "first-run-en": ("en", "light", "first_run"),
    "first-run-zh_CN": ("zh_CN", "light", "first_run"),
    "first-run-1024-dark-zh_CN": ("zh_CN", "dark", "first_run"),
    "new-memory-en": ("en", "light", "new_memory"),
    "new-memory-zh_CN": ("zh_CN", "light", "new_memory"),
    "new-memory-note-zh_CN": ("zh_CN", "light", "new_memory_note"),
    "search-zh_CN": ("zh_CN", "light", "search"),
    "inbox-en": ("en", "light", "inbox"),
    "inbox-zh_CN": ("zh_CN", "light", "inbox"),
    "edit-form-en": ("en", "light", "edit"),
    "edit-form-zh_CN": ("zh_CN", "light", "edit"),
    "hard-delete-en": ("en", "light", "hard_delete"),
    "sessions-en": ("en", "light", "sessions"),
    "sessions-zh_CN": ("zh_CN", "light", "sessions"),
    "export-en": ("en", "light", "export"),
    "purge-dry-run-en": ("en", "light", "purge_plan"),
    "purge-report-en": ("en", "light", "purge"),
    "purge-report-zh_CN": ("zh_CN", "light", "purge"),
    "connect-postgres-en": ("en", "light", "connect"),
    "forget-about-en": ("en", "light", "forget"),
    "forget-about-zh_CN": ("zh_CN", "light", "forget"),
    "delete-all-dark-en": ("en", "dark", "delete_all"),
    "duplicates-en": ("en", "light", "duplicates"),
    "duplicates-zh_CN": ("zh_CN", "light", "duplicates"),
    "paused-zh_CN": ("zh_CN", "light", "paused"),
}
# A small screen's window (the scenes named "-1024-").
SIZES = {name: (1024, 700) for name in SCENES if "-1024-" in name}
DEFAULT_SIZE = (1400, 900)


# --- child: one scene in one app process ------------------------------------------------


def run_scene(name: str, demo_dir: str) -> None:
    language, theme, scene = SCENES[name]
    os.environ["EKKO_HOME"] = tempfile.mkdtemp(prefix="ekko-shot-home-")
    import qasync

    from ekko_memory_gui.app import AppRun, parse_args
    from ekko_memory_gui.qt import QApplication, QDialog, QWidget
    from ekko_memory_gui.services.dialog_service import QtDialogService

    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    out = HERE / f"{name}.png"
    grabbed: list[QWidget] = []

    class GrabbingDialogs(QtDialogService):
        """Shows each custom dialog, photographs it, and closes it."""

        def __init__(self, prepare: Callable[[QDialog], Any] | None = None) -> None:
            self.prepare = prepare

        async def confirm(self, parent: Any, title: str, text: str, *, ok_label: str) -> bool:
            return True  # the purge's "are you sure" (the scene shows its result)

        async def run(self, dialog: QDialog) -> bool:
            dialog.show()
            if self.prepare is not None:
                result = self.prepare(dialog)
                if asyncio.iscoroutine(result):
                    await result
            dialog.resize(dialog.size().expandedTo(dialog.sizeHint()))
            await asyncio.sleep(0.6)
            dialog.grab().save(str(out))
            grabbed.append(dialog)
            dialog.reject()
            return False

    prepare: Callable[[QDialog], None] | None = None
    if scene == "hard_delete":

        def prepare(dialog: QDialog) -> None:
            dialog.confirmation.setText("用户可接受少量")  # type: ignore[attr-defined]

    elif scene == "edit":

        def prepare(dialog: QDialog) -> None:
            dialog.value_editor.set_value({"ingredient": "香菜", "amount": "一点点"})  # type: ignore[attr-defined]

    elif scene == "export":

        async def prepare(dialog: QDialog) -> None:
            dialog.path_edit.setText(str(Path(demo_dir) / "ekko-memory-export.json"))  # type: ignore[attr-defined]
            await dialog.start()  # type: ignore[attr-defined]

    elif scene == "connect":

        def prepare(dialog: QDialog) -> None:
            d: Any = dialog
            d.host_edit.setText("db.example.org")
            d.database_edit.setText("ekko")
            d.user_edit.setText("alice")
            d.password_edit.setText("not a real password")
            d.namespace_edit.setText("team1")

    elif scene in ("new_memory", "new_memory_note"):
        sentence = {
            ("new_memory", "en"): "I don't eat celery",
            ("new_memory", "zh_CN"): "今天胃不舒服，别放辣",
        }.get((scene, language), "今天天气不错，适合散步")

        async def prepare(dialog: QDialog) -> None:
            d: Any = dialog
            d.text_edit.setText(sentence)
            task = d.read_sentence()
            if task is not None:
                await task

    elif scene in ("purge", "purge_plan"):

        async def prepare(dialog: QDialog) -> None:
            dialog.query_edit.setText("香菜")  # type: ignore[attr-defined]
            dialog.messages_check.setChecked(True)  # type: ignore[attr-defined]
            await dialog.start_dry_run()  # type: ignore[attr-defined]
            if scene == "purge":
                await dialog.start_purge()  # type: ignore[attr-defined]

    elif scene in ("forget", "delete_all"):

        async def prepare(dialog: QDialog) -> None:
            d: Any = dialog
            if scene == "forget":
                d.word_edit.setText("香菜")
                d.request_preview()
            if d.preview_task is not None:
                await d.preview_task
            d.confirmation.setText(d.expected())

    dialogs = GrabbingDialogs(prepare)
    if scene == "first_run":  # an empty workspace (and an empty user store)
        empty = Path(demo_dir)
        (empty / "workspace").mkdir(parents=True, exist_ok=True)
        where = ["--workspace", str(empty / "workspace"), "--user-home", str(empty / "home")]
    else:
        where = ["--demo", demo_dir]
    run = AppRun(
        app,
        parse_args([*where, "--language", language, "--theme", theme]),
        dialogs=dialogs,
    )

    async def wait_for(cond: Callable[[], bool], timeout: float = 20) -> None:
        for _ in range(int(timeout / 0.05)):
            if cond():
                return
            await asyncio.sleep(0.05)
        raise TimeoutError(name)

    async def drive() -> None:
        task = asyncio.ensure_future(run.run())
        await wait_for(
            lambda: (
                run.shell is not None
                and run.shell.window is not None
                and run.controller is not None
                and run.controller.workspace is not None
            )
        )
        w = run.shell.window  # type: ignore[union-attr]
        assert w is not None
        w.resize(*SIZES.get(name, DEFAULT_SIZE))
        model = w.list_pane.model
        if scene == "first_run":
            await wait_for(lambda: w.list_pane.stack.currentWidget() is w.list_pane.first_run)
            await asyncio.sleep(0.8)
            w.grab().save(str(out))
            w.close()
            await task
            return
        await wait_for(lambda: model.rowCount() > 0 and not model.loading)
        w.category_pane.expand_domains()
        await asyncio.sleep(0.3)

        def node_id(title: str) -> str:
            return next(i for i in model.ids() if model.row_at(model.row_of(i)).title == title)  # type: ignore[union-attr]

        async def show(title: str) -> str:
            nid = node_id(title)
            w.list_pane.select_id(nid)
            await wait_for(lambda: w.detail_pane.node is not None and w.detail_pane.node.id == nid)
            return nid

        scenes: dict[str, Callable[[], Coroutine[Any, Any, None]]] = {}

        async def main() -> None:
            w.category_pane.select_key("category/生活技能/生活技能/做饭")
            await asyncio.sleep(0.1)
            idx = w.category_pane.model.index_for_key("category/生活技能/生活技能/做饭")
            w.category_pane.tree.expand(idx)
            await wait_for(lambda: not model.loading and model.rowCount() > 0)
            await asyncio.sleep(0.2)
            await show("用户可接受少量香菜")

        async def details() -> None:
            await main()
            w.detail_pane.details.set_open(True)

        async def new_memory() -> None:
            await w.new_memory()

        async def search() -> None:
            w.search_field.setText("香菜")
            await wait_for(
                lambda: w.list_pane.filter is not None and w.list_pane.filter.text == "香菜"
            )
            await wait_for(lambda: not model.loading)
            await show("用户可接受少量香菜")

        async def inbox() -> None:
            w.show_inbox()
            await wait_for(lambda: len(w.inbox_view.entries) == 4)

        async def edit() -> None:
            nid = await show("用户可接受少量香菜")
            await w.edit_memory(nid)

        async def hard_delete() -> None:
            nid = await show("用户可接受少量香菜")
            await w.hard_delete_memory(nid)

        async def sessions() -> None:
            await show("用户可接受少量香菜")
            replies = w.detail_pane.replies
            reply = replies[0] if replies else w.detail_pane.history.sources[-1]  # type: ignore[union-attr]
            await w.show_message(reply.session_id, reply.id)
            await wait_for(lambda: w.sessions_view.summaries_model.rowCount() > 0)
            task = w.sessions_view._used_task
            if task is not None:
                await task

        async def export() -> None:
            await w.export_memories()

        async def purge() -> None:
            await w.purge()

        async def connect() -> None:
            await w.connect_database()

        async def forget() -> None:
            await w.controls.forget_about("")

        async def delete_all() -> None:
            await w.controls.delete_all()

        async def duplicates() -> None:
            # Two memories that say nearly the same.
            mem = w.runner.memory
            for title in ("用户家里有一只猫，名叫团子", "用户家里有只猫，名字叫团子"):
                mem.actions.create(
                    {
                        "scope": "user",
                        "type": "fact",
                        "domain": "生活",
                        "categoryPath": ["生活", "事实"],
                        "title": title,
                        "content": title,
                    }
                )
            await w.runner.call(mem.reindex)
            await w.controls.show_duplicates()

        async def paused() -> None:
            await main()
            await w.controls.set_paused_now(True)

        scenes.update(
            main=main,
            details=details,
            new_memory=new_memory,
            new_memory_note=new_memory,
            search=search,
            inbox=inbox,
            edit=edit,
            hard_delete=hard_delete,
            sessions=sessions,
            export=export,
            purge=purge,
            purge_plan=purge,
            connect=connect,
            forget=forget,
            delete_all=delete_all,
            duplicates=duplicates,
            paused=paused,
        )
        await scenes[scene]()
        await asyncio.sleep(0.8)
        if not grabbed:
            w.grab().save(str(out))
        w.close()
        await task

    with loop:
        loop.run_until_complete(drive())
    print(f"wrote {out.relative_to(ROOT)}")


# --- parent -----------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", default=None, help="scene names (default: all)")
    ap.add_argument("--scene", nargs=2, metavar=("NAME", "DEMO_DIR"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.scene:
        run_scene(*args.scene)
        return
    demo_root = Path(tempfile.mkdtemp(prefix="ekko-shot-demo-"))
    names = args.only or list(SCENES)
    for name in names:
        demo = demo_root / name  # a fresh demo per scene: scenes must not see each other's edits
        cmd = [sys.executable, str(Path(__file__).resolve()), "--scene", name, str(demo)]
        env = dict(os.environ)
        if not env.get("DISPLAY") and env.get("QT_QPA_PLATFORM") != "offscreen":
            if not shutil.which("xvfb-run"):
                sys.exit(
                    "no display and no xvfb-run: apt-get install -y xvfb xauth fonts-wqy-microhei"
                )
            cmd = ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", *cmd]
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        subprocess.run(cmd, check=True, env=env, timeout=180)
    shutil.rmtree(demo_root, ignore_errors=True)


if __name__ == "__main__":
    main()
