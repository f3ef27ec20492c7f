"""New memory by typing a sentence: "我不吃香菜" or "Reply in English from now on".

The core reads the sentence as the after-reply extraction would (``mem.understand``,
nothing written) and the dialog shows what it understood — the memory as a sentence, its
category, its kind and until when it lasts — for the user to confirm or change. A
sentence nothing understands is kept as a note. "More fields…" opens the full form with
what was understood filled in.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, time, timedelta
from typing import Any

from ekko_memory import NODE_TYPES, MemoryNodeDraft, MemorySchemaRule, Understanding
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.labels import sentences
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QTimer,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.widgets import text_label

# Typing pauses this long before the sentence is read (each read runs the extractor).
READ_DELAY_MS = 400
KEEP = "keep"  # the expiry as understood


def _local_end_of_day(days: int) -> datetime:
    now = datetime.now().astimezone()
    end = (now + timedelta(days=days)).date()
    return datetime.combine(end, time(23, 59), now.tzinfo).astimezone(UTC)


class UnderstoodMemory(QFrame):
    """One memory the sentence proposes: its sentence, and category, kind and expiry to change."""

    def __init__(
        self, draft: MemoryNodeDraft, paths: list[list[str]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("understoodMemory")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.draft = draft
        self.sentence = text_label(sentences.node_sentence(draft), role="title")
        self.sentence.setObjectName("understoodSentence")

        self.category_combo = QComboBox()
        self.category_combo.setObjectName("understoodCategory")
        self.category_combo.setAccessibleName(self.tr("Category"))
        own = list(draft.category_path or [])
        for path in [own, *[p for p in paths if p != own]]:
            if path:
                self.category_combo.addItem(" › ".join(map(sentences.category_label, path)), path)
        self.kind_combo = QComboBox()
        self.kind_combo.setObjectName("understoodKind")
        self.kind_combo.setAccessibleName(self.tr("Kind"))
        for t in NODE_TYPES:
            self.kind_combo.addItem(labels.type_label(t), t)
        self.kind_combo.setCurrentIndex(max(0, self.kind_combo.findData(draft.type)))
        self.until_combo = QComboBox()
        self.until_combo.setObjectName("understoodUntil")
        self.until_combo.setAccessibleName(self.tr("Until"))
        if draft.expires_at is not None:
            self.until_combo.addItem(
                sentences.until_text(draft.expires_at, datetime.now(UTC)).capitalize(), KEEP
            )
        self.until_combo.addItem(self.tr("Always (until you change it)"), "never")
        self.until_combo.addItem(self.tr("Until the end of today"), "today")
        self.until_combo.addItem(self.tr("For a week"), "week")

        form = QFormLayout()
        form.addRow(self.tr("Category"), self.category_combo)
        form.addRow(self.tr("Kind"), self.kind_combo)
        form.addRow(self.tr("Lasts"), self.until_combo)
        layout = QVBoxLayout(self)
        layout.addWidget(self.sentence)
        layout.addLayout(form)

    def category(self) -> list[str]:
        return list(self.category_combo.currentData() or self.draft.category_path or [])

    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    def expires_at(self) -> datetime | None:
        choice = self.until_combo.currentData()
        if choice == KEEP:
            return self.draft.expires_at
        if choice == "today":
            return _local_end_of_day(0)
        if choice == "week":
            return _local_end_of_day(7)
        return None

    def values(self) -> dict[str, Any]:
        """The memory to write (camelCase, as the core's draft takes it): a new category's
        domain or another kind leaves the key behind (it belongs to the schema's place)."""
        d = self.draft
        path = self.category()
        out = d.model_dump(by_alias=True, mode="json", exclude_none=True)
        out.pop("expiresAt", None)
        out["categoryPath"] = path
        out["domain"] = path[0] if path else d.domain
        out["type"] = self.kind()
        if out["domain"] != d.domain or out["type"] != d.type:
            out.pop("key", None)
            out.pop("valueJson", None)
        expires = self.expires_at()
        if expires is not None:
            out["expiresAt"] = expires.isoformat()
        elif d.expires_at is not None and out.get("scope") == "workspace":
            out["scope"] = "user"  # no longer temporary: the user's lasting memory
        return out


class SentenceDialog(QDialog):
    """Type a sentence; see what it says; Save, or "More fields…" for the full form."""

    def __init__(
        self,
        runner: OperationRunner,
        rules: list[MemorySchemaRule],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("sentenceDialog")
        self.setWindowTitle(self.tr("New memory"))
        self.setMinimumWidth(520)
        self.runner = runner
        self.paths = _category_paths(rules)
        self.understanding: Understanding | None = None
        self.wants_form = False
        self._reading: asyncio.Task[None] | None = None
        self._generation = 0

        intro = text_label(
            self.tr(
                "Say it as you would to your agent: “I don't eat cilantro”, “Reply in "
                "English from now on”. Ekko shows what it understood before saving."
            ),
            role="muted",
        )
        self.text_edit = QLineEdit()
        self.text_edit.setObjectName("sentenceEdit")
        self.text_edit.setPlaceholderText(self.tr("我不吃香菜 · I prefer short answers"))
        self.text_edit.setAccessibleName(self.tr("What to remember"))
        self.text_edit.setAccessibleDescription(
            self.tr("One sentence; Ekko reads it and shows what it will remember")
        )
        self.status = text_label("", role="muted")
        self.status.setObjectName("sentenceStatus")
        self.proposals = QVBoxLayout()
        self.proposals.setSpacing(8)
        self.error = text_label("", role="danger")
        self.error.setObjectName("sentenceError")
        self.error.setVisible(False)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveButton")
        self.save_button.setProperty("role", "primary")
        self.save_button.setEnabled(False)
        self.more_button = QPushButton(self.tr("More fields…"))
        self.more_button.setObjectName("moreFieldsButton")
        self.more_button.setAccessibleDescription(
            self.tr("The full form: key, value, scope, confidence and expiry")
        )
        self.more_button.setAutoDefault(False)
        self.buttons.addButton(self.more_button, QDialogButtonBox.ButtonRole.ResetRole)
        self.buttons.accepted.connect(self._try_accept)
        self.buttons.rejected.connect(self.reject)
        self.more_button.clicked.connect(self._more_fields)

        row = QHBoxLayout()
        row.addWidget(self.text_edit, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addLayout(self.proposals)
        layout.addWidget(self.error)
        layout.addStretch(1)
        layout.addWidget(self.buttons)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(READ_DELAY_MS)
        self._timer.timeout.connect(self.read_sentence)
        self.text_edit.textChanged.connect(self._typed)
        self.text_edit.returnPressed.connect(self._enter)

    # --- reading --------------------------------------------------------------------

    def _typed(self, _text: str) -> None:
        self.save_button.setEnabled(False)
        self._timer.start()

    def _enter(self) -> None:
        """Enter reads the sentence at once, or saves what was read for it."""
        if self.save_button.isEnabled():
            self._try_accept()
        else:
            self.read_sentence()

    def read_sentence(self) -> asyncio.Task[None] | None:
        """Have the core read the sentence (off the GUI thread); show what it understood."""
        self._timer.stop()
        text = self.text_edit.text().strip()
        self._generation += 1
        if not text:
            self._show(None)
            return None
        if self._reading is not None and not self._reading.done():
            self._reading.cancel()
        self.status.setText(self.tr("Reading…"))
        self._reading = self.runner.spawn(
            self._read(self._generation, text), self.tr("Reading a sentence")
        )
        return self._reading

    async def _read(self, generation: int, text: str) -> None:
        try:
            found: Understanding = await self.runner.call(self.runner.memory.understand, text)
        except Exception as e:  # shown in the dialog; the user can change the sentence
            if generation == self._generation:
                self.status.setText(labels.error_text(e))
            return
        if generation == self._generation:
            self._show(found)

    def _show(self, found: Understanding | None) -> None:
        self.understanding = found
        while self.proposals.count():
            item = self.proposals.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self.error.setVisible(False)
        if found is None:
            self.status.setText("")
            self.save_button.setEnabled(False)
            return
        if found.understood:
            self.status.setText(
                self.tr("Ekko understood:")
                if len(found.memories) == 1
                else self.tr("Ekko understood {n} memories:").format(n=len(found.memories))
            )
        else:
            self.status.setText(
                self.tr(
                    "Ekko found no preference, fact or plan it knows in this sentence: it "
                    "will be kept as a note in your own words."
                )
            )
        for draft in found.memories:
            self.proposals.addWidget(UnderstoodMemory(draft, self.paths))
        self.save_button.setEnabled(bool(found.memories))

    # --- results --------------------------------------------------------------------

    def items(self) -> list[UnderstoodMemory]:
        out = []
        for i in range(self.proposals.count()):
            w = self.proposals.itemAt(i).widget()
            if isinstance(w, UnderstoodMemory):
                out.append(w)
        return out

    def drafts(self) -> list[dict[str, Any]]:
        """The memories to write, as the user confirmed or changed them."""
        return [item.values() for item in self.items()]

    def form_defaults(self) -> dict[str, Any]:
        """What the full form starts with: the first understood memory, else the sentence."""
        items = self.items()
        if items:
            return items[0].values()
        text = self.text_edit.text().strip()
        return {"content": text, "title": text[:60]} if text else {}

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(True)

    def drop_saved(self, count: int) -> None:
        """The first ``count`` memories were written: only the rest remain to save."""
        for item in self.items()[:count]:
            self.proposals.removeWidget(item)
            item.deleteLater()

    def _try_accept(self) -> None:
        if self.save_button.isEnabled():
            self.accept()

    def _more_fields(self) -> None:
        self.wants_form = True
        self.reject()


def _category_paths(rules: list[MemorySchemaRule]) -> list[list[str]]:
    """The schema's categories (each rule's place and its keys' places), and Notes."""
    seen: list[list[str]] = []
    for r in rules:
        for path in [r.category_path_prefix or [r.domain], *r.key_categories.values()]:
            if list(path) not in seen:
                seen.append(list(path))
    for path in (["个人", "笔记"],):
        if path not in seen:
            seen.append(path)
    return seen
