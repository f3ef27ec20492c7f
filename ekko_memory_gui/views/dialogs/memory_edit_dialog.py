"""Edit or create a memory in a form driven by the controlled schema.

The key is a choice of the keys the schema allows for the domain and type; the value
editor fits the key's shape; scope is session, workspace or user (global memories ship
with the app); expiry has presets. Saving an edit creates a new version that supersedes
the old one — the dialog says so.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any, Literal

from ekko_memory import (
    LATEST_DATE,
    NODE_LIMITS,
    NODE_TYPES,
    STORED_SCOPES,
    MemoryNode,
    MemorySchemaRule,
)
from ekko_memory_gui.models import labels
from ekko_memory_gui.qt import (
    QComboBox,
    QDateTime,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSize,
    Qt,
    QVBoxLayout,
    QWidget,
)
from ekko_memory_gui.views.accessible import fill_accessible
from ekko_memory_gui.views.dialogs.screen_fit import fit_to_screen
from ekko_memory_gui.views.dialogs.value_editor import ValueEditor
from ekko_memory_gui.views.widgets import text_label

Mode = Literal["create", "edit", "approve"]
# The latest expiry the form offers: a day before the last date the stores hold.
LAST_EXPIRY = (LATEST_DATE - timedelta(days=1)).timestamp()
NO_KEY = ""
# Fields compared to find what an edit changed (camelCase, as the core takes them).
FIELDS = (
    "title",
    "content",
    "domain",
    "categoryPath",
    "type",
    "key",
    "valueJson",
    "scope",
    "confidence",
    "importance",
    "tags",
    "entities",
    "expiresAt",
)


def _split_list(text: str) -> list[str]:
    for sep in ("，", "、", ";", "；"):
        text = text.replace(sep, ",")
    return [t.strip() for t in text.split(",") if t.strip()]


def _path(text: str) -> list[str]:
    return [p.strip() for p in text.replace("／", "/").split("/") if p.strip()]


class MemoryEditDialog(QDialog):
    """The form; ``values()`` for a new memory, ``changes()`` for an edit."""

    def __init__(
        self,
        rules: list[MemorySchemaRule],
        *,
        mode: Mode,
        node: dict[str, Any] | None = None,
        defaults: dict[str, Any] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("memoryEditDialog")
        self.rules = rules
        self.mode = mode
        self.original: dict[str, Any] = dict(node or {})
        start = {**(defaults or {}), **self.original}
        self.setWindowTitle(
            {
                "create": self.tr("New memory"),
                "edit": self.tr("Edit memory"),
                "approve": self.tr("Edit and approve"),
            }[mode]
        )
        self.setMinimumWidth(560)

        note = {
            "create": self.tr(
                "Written by you (actor: user). The agent sees it from its next turn."
            ),
            "edit": self.tr(
                "Saving creates a new version that supersedes this one; the current version stays in the history and you can revert to it."
            ),
            "approve": self.tr(
                "Your changes are applied to the proposal, which is then approved (and recorded as approved by you)."
            ),
        }[mode]
        self.note = text_label(note, role="muted")
        self.note.setObjectName("editNote")

        self.title_edit = QLineEdit()
        self.title_edit.setObjectName("titleEdit")
        self.title_edit.setMaxLength(NODE_LIMITS.title_chars)
        self.content_edit = QPlainTextEdit()
        self.content_edit.setObjectName("contentEdit")
        self.content_edit.setMaximumHeight(80)
        # Tab goes on to the next field (it typed tab characters into the content and
        # kept the keyboard there).
        self.content_edit.setTabChangesFocus(True)
        self.domain_combo = QComboBox()
        self.domain_combo.setObjectName("domainCombo")
        self.domain_combo.setEditable(True)
        for d in sorted({r.domain for r in rules}):
            self.domain_combo.addItem(d)
        self.type_combo = QComboBox()
        self.type_combo.setObjectName("typeCombo")
        for t in NODE_TYPES:
            self.type_combo.addItem(labels.type_label(t), t)
        self.path_edit = QLineEdit()
        self.path_edit.setObjectName("pathEdit")
        self.path_edit.setPlaceholderText("生活技能 / 做饭 / 饮食偏好")
        # True while the category is our suggestion (it follows the key); typing makes it the user's.
        self._path_auto = True
        self.path_edit.textEdited.connect(self._path_typed)
        # True while the key is the form's choice (the rule's first key): it follows the
        # domain and type; choosing one makes it the user's.
        self._key_auto = False
        self.key_combo = QComboBox()
        self.key_combo.setObjectName("keyCombo")
        self.value_editor = ValueEditor()
        self.value_editor.setObjectName("valueEditor")
        self.scope_combo = QComboBox()
        self.scope_combo.setObjectName("scopeCombo")
        for s in STORED_SCOPES:
            self.scope_combo.addItem(labels.scope_label(s), s)
        self.confidence_spin = self._unit_spin("confidenceSpin")
        self.importance_spin = self._unit_spin("importanceSpin")
        self.tags_edit = QLineEdit()
        self.tags_edit.setObjectName("tagsEdit")
        self.entities_edit = QLineEdit()
        self.entities_edit.setObjectName("entitiesEdit")
        self.expiry_combo = QComboBox()
        self.expiry_combo.setObjectName("expiryCombo")
        self.expiry_edit = QDateTimeEdit()
        self.expiry_edit.setObjectName("expiryEdit")
        self.expiry_edit.setAccessibleName(self.tr("Expires at"))
        self.expiry_edit.setCalendarPopup(True)
        self.expiry_edit.setDisplayFormat("yyyy-MM-dd HH:mm")
        # The last date the stores hold (``timeutil.LATEST``), in any time zone.
        self.expiry_edit.setMaximumDateTime(QDateTime.fromSecsSinceEpoch(int(LAST_EXPIRY)))
        expiry_row = QHBoxLayout()
        expiry_row.addWidget(self.expiry_combo)
        expiry_row.addWidget(self.expiry_edit, 1)

        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.addRow(self.tr("Title"), self.title_edit)
        form.addRow(self.tr("Content"), self.content_edit)
        form.addRow(self.tr("Domain"), self.domain_combo)
        form.addRow(self.tr("Type"), self.type_combo)
        form.addRow(self.tr("Category"), self.path_edit)
        form.addRow(self.tr("Key"), self.key_combo)
        form.addRow(self.tr("Value"), self.value_editor)
        form.addRow(self.tr("Scope"), self.scope_combo)
        form.addRow(self.tr("Confidence"), self.confidence_spin)
        form.addRow(self.tr("Importance"), self.importance_spin)
        form.addRow(self.tr("Tags"), self.tags_edit)
        form.addRow(self.tr("Entities"), self.entities_edit)
        form.addRow(self.tr("Expires"), expiry_row)

        self.error = text_label("", role="danger")
        self.error.setObjectName("editError")
        self.error.setVisible(False)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveButton")
        self.save_button.setProperty("role", "primary")
        if mode == "approve":
            self.save_button.setText(self.tr("Approve with changes"))
        elif mode == "edit":
            self.save_button.setText(self.tr("Save as new version"))
        self.buttons.accepted.connect(self._try_accept)
        self.buttons.rejected.connect(self.reject)

        # The fields scroll in a dialog no taller than the screen: squeezed below its
        # natural height, the form laid the value box over the content line.
        form_box = QWidget()
        form_box.setObjectName("editFields")
        form_box.setLayout(form)
        self.form_scroll = QScrollArea()
        self.form_scroll.setObjectName("editScroll")
        self.form_scroll.setWidgetResizable(True)
        self.form_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.form_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.form_scroll.setWidget(form_box)
        # Tab goes from field to field (the area scrolls to each), not to the area itself.
        self.form_scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.form_scroll, 1)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

        self._fill(start)
        natural = form_box.sizeHint()
        chrome = self.note.sizeHint().height() + self.buttons.sizeHint().height() + 48
        fit_to_screen(self, QSize(max(560, natural.width() + 24), natural.height() + chrome))
        self.domain_combo.currentTextChanged.connect(lambda _t: self._schema_changed())
        self.type_combo.currentIndexChanged.connect(lambda _i: self._schema_changed())
        self.path_edit.editingFinished.connect(self._schema_changed)
        self.key_combo.currentIndexChanged.connect(lambda _i: self._key_chosen())
        self.expiry_combo.currentIndexChanged.connect(lambda _i: self._expiry_changed())
        # A name and a description for every control, in the UI's language.
        fill_accessible(self)

    @staticmethod
    def _unit_spin(name: str) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setObjectName(name)
        spin.setRange(0.0, 1.0)
        spin.setSingleStep(0.05)
        spin.setDecimals(2)
        return spin

    # --- filling --------------------------------------------------------------------

    def _fill(self, n: dict[str, Any]) -> None:
        self.title_edit.setText(n.get("title") or "")
        self.content_edit.setPlainText(n.get("content") or "")
        domain = n.get("domain") or (
            self.domain_combo.itemText(0) if self.domain_combo.count() else ""
        )
        self.domain_combo.setCurrentText(domain)
        t = n.get("type") or "preference"
        self.type_combo.setCurrentIndex(max(0, self.type_combo.findData(t)))
        path = n.get("categoryPath") or []
        self.path_edit.setText(" / ".join(path))
        self._path_auto = not path
        scope = n.get("scope") or "user"
        self.scope_combo.setCurrentIndex(max(0, self.scope_combo.findData(scope)))
        self.confidence_spin.setValue(float(n.get("confidence", 1.0)))
        self.importance_spin.setValue(float(n.get("importance", 0.6)))
        self.tags_edit.setText(", ".join(n.get("tags") or []))
        self.entities_edit.setText(", ".join(n.get("entities") or []))
        self._fill_keys(n.get("key"))
        self.value_editor.set_shape(self._shape(), n.get("valueJson"))
        self._fill_expiry(n.get("expiresAt"))
        if not path:
            self._suggest_path()

    def rule(self) -> MemorySchemaRule | None:
        """The most specific schema rule for the domain, type and category chosen."""
        domain = self.domain_combo.currentText().strip()
        node_type = self.type_combo.currentData()
        path = _path(self.path_edit.text())
        candidates = [r for r in self.rules if r.domain == domain and r.type == node_type]
        best = None
        for r in candidates:
            prefix = r.category_path_prefix or []
            if path and path[: len(prefix)] != prefix:
                continue
            if best is None or len(prefix) > len(best.category_path_prefix or []):
                best = r
        # A category outside the rule's prefix still takes the domain's keys.
        return best or (candidates[0] if candidates else None)

    def _fill_keys(self, key: str | None) -> None:
        rule = self.rule()
        needs_key = rule is not None and bool(rule.allowed_keys)
        if self._key_auto:
            key = None  # the form chose it for the previous domain or type: choose again
        self._key_auto = False
        self.key_combo.blockSignals(True)
        self.key_combo.clear()
        self.key_combo.setEditable(rule is None)
        # Where the schema has keys, a key is required (``problem``): the empty choice
        # says so instead of offering "(no key)" that Save would refuse.
        self.key_combo.addItem(
            self.tr("(choose a key)") if needs_key else self.tr("(no key)"), NO_KEY
        )
        if rule is not None:
            for k in rule.allowed_keys:
                self.key_combo.addItem(k, k)
        if key and self.key_combo.findData(key) < 0:
            if rule is not None and key != self.original.get("key"):
                key = None  # the new domain or type does not take this key
            else:
                # A key the schema does not list (an older memory, a free domain): keep it.
                self.key_combo.addItem(key, key)
        if rule is not None and needs_key and not key and self._may_choose_key():
            key = rule.allowed_keys[0]
            self._key_auto = True
        self.key_combo.setCurrentIndex(max(0, self.key_combo.findData(key or NO_KEY)))
        self.key_combo.setEnabled(rule is None or bool(rule.allowed_keys) or bool(key))
        self.key_combo.blockSignals(False)

    def _may_choose_key(self) -> bool:
        """Whether the form may preselect a key the schema requires: for a new memory, or
        one that had a key (its domain or type changed); never for an existing memory
        without one (the user decides whether it gets a key)."""
        return self.mode == "create" or bool(self.original.get("key"))

    def _shape(self) -> str:
        rule = self.rule()
        key = self.key()
        if rule is None:
            return "string"
        if key and key in rule.key_shapes:
            return rule.key_shapes[key]
        return rule.value_shape

    def _fill_expiry(self, value: Any) -> None:
        self.expiry_combo.blockSignals(True)
        self.expiry_combo.clear()
        self.expiry_combo.addItem(self.tr("Never"), "never")
        self.expiry_combo.addItem(self.tr("End of today"), "today")
        self.expiry_combo.addItem(self.tr("End of this week"), "week")
        self.expiry_combo.addItem(self.tr("At…"), "custom")
        when = _parse_time(value)
        if when is not None:
            self.expiry_combo.setCurrentIndex(3)
            self.expiry_edit.setDateTime(QDateTime.fromSecsSinceEpoch(int(when.timestamp())))
        else:
            self.expiry_combo.setCurrentIndex(0)
            self.expiry_edit.setDateTime(QDateTime.currentDateTime().addDays(1))
        self.expiry_combo.blockSignals(False)
        self._expiry_changed()

    # --- reacting -------------------------------------------------------------------

    def _schema_changed(self) -> None:
        key = self.key()
        self._fill_keys(key)
        self._key_changed()

    def _key_changed(self) -> None:
        value = self.value_editor.value() if self.value_editor.problem() is None else None
        self.value_editor.set_shape(
            self._shape(), value if _fits_shape(self._shape(), value) else None
        )
        self._suggest_path()

    def _key_chosen(self) -> None:
        self._key_auto = False
        self._key_changed()

    def _path_typed(self, _text: str) -> None:
        self._path_auto = False

    def _suggest_path(self) -> None:
        """File under the key's category while the user has not chosen one."""
        if not self._path_auto and self.path_edit.text().strip():
            return
        rule = self.rule()
        key = self.key()
        path: list[str] = []
        if rule is not None and key and key in rule.key_categories:
            path = list(rule.key_categories[key])
        elif rule is not None and rule.category_path_prefix:
            path = list(rule.category_path_prefix)
        else:
            domain = self.domain_combo.currentText().strip()
            path = [domain] if domain else []
        self.path_edit.setText(" / ".join(path))
        self._path_auto = True

    def _expiry_changed(self) -> None:
        self.expiry_edit.setEnabled(self.expiry_combo.currentData() == "custom")

    # --- reading --------------------------------------------------------------------

    def key(self) -> str | None:
        data = self.key_combo.currentData()
        if self.key_combo.isEditable():
            text = self.key_combo.currentText().strip()
            if text and text != self.key_combo.itemText(0):
                return text
            return None
        return data or None

    def expires_at(self) -> datetime | None:
        choice = self.expiry_combo.currentData()
        now = datetime.now().astimezone()
        if choice == "today":
            return datetime.combine(now.date(), time(23, 59), now.tzinfo).astimezone(UTC)
        if choice == "week":
            end = now.date() + timedelta(days=6 - now.weekday())
            return datetime.combine(end, time(23, 59), now.tzinfo).astimezone(UTC)
        if choice == "custom":
            secs = self.expiry_edit.dateTime().toSecsSinceEpoch()
            return datetime.fromtimestamp(secs, UTC)
        return None

    def values(self) -> dict[str, Any]:
        """Every field, camelCase, as the core's draft takes it."""
        expires = self.expires_at()
        return {
            "title": self.title_edit.text().strip(),
            "content": self.content_edit.toPlainText().strip(),
            "domain": self.domain_combo.currentText().strip(),
            "categoryPath": _path(self.path_edit.text()) or None,
            "type": self.type_combo.currentData(),
            "key": self.key(),
            "valueJson": self.value_editor.value() if self.value_editor.problem() is None else None,
            "scope": self.scope_combo.currentData(),
            "confidence": round(self.confidence_spin.value(), 2),
            "importance": round(self.importance_spin.value(), 2),
            "tags": _split_list(self.tags_edit.text()),
            "entities": _split_list(self.entities_edit.text()),
            "expiresAt": expires.isoformat() if expires else None,
        }

    def changes(self) -> dict[str, Any]:
        """Only the fields that differ from the memory being edited."""
        now = self.values()
        out: dict[str, Any] = {}
        for f in FIELDS:
            before = self.original.get(f)
            after = now.get(f)
            if f == "expiresAt":
                same = _parse_time(before) == _parse_time(after) or (
                    _parse_time(before) is not None
                    and _parse_time(after) is not None
                    and abs((_parse_time(before) - _parse_time(after)).total_seconds()) < 60  # type: ignore[operator]
                )
            elif f in ("confidence", "importance"):
                same = before is not None and abs(float(before) - float(after)) < 0.005
            elif f in ("tags", "entities"):
                same = list(before or []) == list(after or [])
            elif f == "content":
                same = (before or "") == (after or "")
            else:
                same = before == after
            if not same:
                out[f] = after
        return out

    def problem(self) -> str | None:
        if not self.title_edit.text().strip():
            return self.tr("A memory needs a title.")
        if not self.domain_combo.currentText().strip():
            return self.tr("Choose a domain (for example 生活技能 or 项目).")
        limits = self._limits_problem()
        if limits:
            return limits
        value_problem = self.value_editor.problem()
        if value_problem:
            return value_problem
        rule = self.rule()
        if rule is not None and rule.allowed_keys and self.key() is None:
            return self.tr("Choose a key: the schema for this domain and type asks for one.")
        key = self.key()
        if key is not None and self.value_editor.value() is None:
            return self.tr("Enter a value: the key {key} needs one.").format(key=key)
        expires = self.expires_at()
        if expires is not None and expires.timestamp() > LAST_EXPIRY:
            return self.tr("The expiry is later than the year 9998: choose an earlier time.")
        if (
            expires is not None
            and expires <= datetime.now(UTC)
            and (self.mode == "create" or "expiresAt" in self.changes())
        ):
            # Said here in the form's words (the core's refusal names its field expiresAt).
            return self.tr("The expiry is in the past: choose a later time, or Never.")
        if self.mode == "edit" and not self.changes():
            return self.tr("Nothing changed.")
        return None

    def _limits_problem(self) -> str | None:
        """The core's size limits, checked here so the form says which field to shorten."""
        lim = NODE_LIMITS
        if len(self.title_edit.text().strip()) > lim.title_chars:
            return self.tr("The title is longer than {n} characters.").format(n=lim.title_chars)
        if len(self.content_edit.toPlainText().strip()) > lim.content_chars:
            return self.tr("The content is longer than {n} characters.").format(n=lim.content_chars)
        path = _path(self.path_edit.text())
        if len(path) > lim.category_depth:
            return self.tr("The category is deeper than {n} levels.").format(n=lim.category_depth)
        if any(len(p) > lim.category_segment_chars for p in path):
            return self.tr("A category level is longer than {n} characters.").format(
                n=lim.category_segment_chars
            )
        for name, edit in (
            (self.tr("tags"), self.tags_edit),
            (self.tr("entities"), self.entities_edit),
        ):
            items = _split_list(edit.text())
            if len(items) > lim.list_items:
                return self.tr("There are {count} {name}; a memory takes at most {n}.").format(
                    count=len(items), name=name, n=lim.list_items
                )
            if any(len(i) > lim.list_item_chars for i in items):
                return self.tr("One of the {name} is longer than {n} characters.").format(
                    name=name, n=lim.list_item_chars
                )
        return None

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _try_accept(self) -> None:
        problem = self.problem()
        if problem:
            self.show_error(problem)
            return
        self.show_error("")
        self.accept()


def _parse_time(value: Any) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _fits_shape(shape: str, value: Any) -> bool:
    from ekko_memory_gui.views.dialogs.value_editor import fits

    return fits(shape, value)


def node_fields(node: MemoryNode) -> dict[str, Any]:
    """A memory as the dialog's camelCase fields."""
    return node.to_json()
