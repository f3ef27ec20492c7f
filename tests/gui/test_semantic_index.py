"""File ▸ Semantic index: the embedding state per store, and embedding again (after a
change of model, every memory) on the memory worker with a progress bar."""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory_gui.qt import QDialog
from ekko_memory_gui.views.dialogs.reindex_dialog import ReindexDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.core.factories import make_node
from tests.gui.conftest import ScriptedDialogService, run, wait_task


@pytest.mark.background_indexing
def test_the_semantic_index_dialog_embeds_with_a_progress_bar(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    mem = window.runner.memory
    assert mem.semantic is not None

    def work() -> None:
        # Written straight into the store: nobody tells the indexer about these.
        nodes = [make_node(key=None, value_json=None, title=f"笔记 {i}") for i in range(150)]
        with mem.user_store.write() as w:
            w.insert_nodes(nodes)

    # The demo's memories embedded in the background; then the dialog does the work.
    assert mem.semantic.indexer.wait_idle(60)
    mem.semantic.indexer.stop()
    run(qtbot, window.runner.call(work), timeout=60000)
    seen: list[Any] = []

    async def handler(dialog: QDialog) -> bool:
        assert isinstance(dialog, ReindexDialog)
        before = dialog.state.text()
        assert "use-multilingual-v3" in before and "150 waiting" in before, before
        updates: list[Any] = []
        dialog.progress.bar.valueChanged.connect(updates.append)
        report = await dialog.start()
        seen.extend([report, before, dialog.state.text(), dialog.summary.text(), updates])
        return True

    dialogs.handlers.append(handler)
    wait_task(qtbot, window.semantic_index(), timeout=120000)
    report, _before, after, summary, updates = seen
    assert report.remaining["user"] == 0 and report.embedded["user"] >= 150
    assert "0 waiting" in after and "embedded" in summary
    assert updates and updates[-1] == 1000  # the bar moved, and ended full
    assert window.reindex_action in window.advanced_menu.actions()
