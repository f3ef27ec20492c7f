"""New memory by a sentence: the sentence dialog, then the writes (or the full form).

Each understood memory is written as the user's own (actor user); a refusal keeps the
dialog open with the reason, the memories already written left out of it. Undo trashes
what was written.
"""

from __future__ import annotations

from typing import Any

from ekko_memory_gui.operations import memory_ops
from ekko_memory_gui.operations.memory_ops import Outcome
from ekko_memory_gui.operations.undo import UndoEntry
from ekko_memory_gui.qt import QCoreApplication
from ekko_memory_gui.views.dialogs.sentence_dialog import SentenceDialog
from ekko_memory_gui.views.memory_actions import MemoryActions


def _tr(text: str) -> str:
    return QCoreApplication.translate("SentenceFlow", text)


async def new_memory_by_sentence(
    actions: MemoryActions, defaults: dict[str, Any] | None = None
) -> Outcome | None:
    """Type a sentence, confirm what Ekko understood, save; "More fields…" opens the form."""
    controller = actions.controller
    dialog = SentenceDialog(controller.runner, actions._rules(), parent=actions.parent_widget)
    written: list[str] = []
    titles: list[str] = []
    last: Outcome | None = None
    try:
        while True:
            if not await actions.dialogs.run(dialog):
                if dialog.wants_form:
                    form = {**(defaults or {}), **dialog.form_defaults()}
                    return await actions.new_memory(form)
                break
            refused = None
            drafts = dialog.drafts()
            saved = 0
            for draft in drafts:
                outcome = await memory_ops.create(controller, draft)
                last = outcome
                if not outcome.accepted:
                    refused = outcome
                    break
                saved += 1
                if outcome.node_id and outcome.status != "duplicate":
                    written.append(outcome.node_id)
                    titles.append(str(draft.get("title") or ""))
            if refused is None:
                break
            dialog.drop_saved(saved)
            dialog.show_error(refused.text)
    finally:
        dialog.deleteLater()
    if written:
        made = list(written)
        label = titles[0]
        actions.undo_stack.push(
            UndoEntry(
                _tr("Undo new memory “{title}”").format(title=label),
                lambda: _trash(actions, made),
            )
        )
        actions.select.emit(made[-1])
    return last


async def _trash(actions: MemoryActions, ids: list[str]) -> Any:
    out: list[Any] = []
    for node_id in ids:
        out += await actions._trash_current(node_id)
    return out
