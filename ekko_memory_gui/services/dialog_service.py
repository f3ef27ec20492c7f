"""Dialogs behind a small injectable service, so tests never block on a modal.

Every method is a coroutine that opens the dialog window-modally with ``open()`` and
awaits its ``finished`` signal: the qasync event loop keeps running (no nested
``exec()`` loop, which would re-enter asyncio tasks). Tests replace the service with
``ScriptedDialogService`` (in the test suite), which answers from a script and drives
the real dialog widgets.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Protocol

from ekko_memory_gui.qt import QDialog, QFileDialog, QMessageBox, Qt, QWidget


async def await_dialog(dialog: QDialog) -> int:
    """Open ``dialog`` window-modally and wait until it closes; returns its result code."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[int] = loop.create_future()

    def finished(result: int) -> None:
        if not done.done():
            done.set_result(result)

    dialog.finished.connect(finished)
    dialog.open()
    try:
        return await done
    finally:
        dialog.finished.disconnect(finished)


class DialogService(Protocol):
    """What views ask of the user."""

    async def confirm(
        self, parent: QWidget | None, title: str, text: str, *, ok_label: str
    ) -> bool: ...

    async def inform(self, parent: QWidget | None, title: str, text: str) -> None: ...

    async def error(self, parent: QWidget | None, title: str, text: str) -> None: ...

    async def run(self, dialog: QDialog) -> bool:
        """Show a custom dialog; True when the user accepted it."""
        ...

    async def choose_directory(
        self, parent: QWidget | None, title: str, start: Path | None
    ) -> Path | None: ...

    async def choose_save_file(
        self, parent: QWidget | None, title: str, start: Path, name_filter: str
    ) -> Path | None: ...

    async def choose_open_file(
        self, parent: QWidget | None, title: str, start: Path | None, name_filter: str
    ) -> Path | None: ...


class QtDialogService:
    """The real dialogs."""

    async def _message(
        self,
        parent: QWidget | None,
        icon: QMessageBox.Icon,
        title: str,
        text: str,
        buttons: QMessageBox.StandardButton,
        ok_label: str | None = None,
    ) -> bool:
        box = QMessageBox(icon, title, text, buttons, parent)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if ok_label is not None:
            ok = box.button(QMessageBox.StandardButton.Ok)
            if ok is not None:
                ok.setText(ok_label)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        await await_dialog(box)
        clicked = box.clickedButton()
        accepted = clicked is not None and box.buttonRole(clicked) in (
            QMessageBox.ButtonRole.AcceptRole,
            QMessageBox.ButtonRole.YesRole,
        )
        box.deleteLater()
        return accepted

    async def confirm(
        self, parent: QWidget | None, title: str, text: str, *, ok_label: str
    ) -> bool:
        return await self._message(
            parent,
            QMessageBox.Icon.Question,
            title,
            text,
            QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel,
            ok_label,
        )

    async def inform(self, parent: QWidget | None, title: str, text: str) -> None:
        await self._message(
            parent, QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok
        )

    async def error(self, parent: QWidget | None, title: str, text: str) -> None:
        await self._message(
            parent, QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok
        )

    async def run(self, dialog: QDialog) -> bool:
        return await await_dialog(dialog) == int(QDialog.DialogCode.Accepted)

    async def choose_directory(
        self, parent: QWidget | None, title: str, start: Path | None
    ) -> Path | None:
        dlg = QFileDialog(parent, title, str(start or Path.home()))
        dlg.setFileMode(QFileDialog.FileMode.Directory)
        dlg.setOption(QFileDialog.Option.ShowDirsOnly, True)
        return await self._file(dlg)

    async def choose_save_file(
        self, parent: QWidget | None, title: str, start: Path, name_filter: str
    ) -> Path | None:
        dlg = QFileDialog(parent, title, str(start), name_filter)
        dlg.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        return await self._file(dlg)

    async def choose_open_file(
        self, parent: QWidget | None, title: str, start: Path | None, name_filter: str
    ) -> Path | None:
        dlg = QFileDialog(parent, title, str(start or Path.home()), name_filter)
        dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
        return await self._file(dlg)

    async def _file(self, dlg: QFileDialog) -> Path | None:
        accepted = await self.run(dlg)
        files = dlg.selectedFiles()
        dlg.deleteLater()
        return Path(files[0]) if accepted and files else None
