"""Names and descriptions a screen reader says, for every control of a window or dialog,
in the UI's language.

``fill_accessible(root)`` walks the controls under ``root`` and gives each one without an
accessible name the name a sighted user reads beside it (its form label, its buddy
label, its own text, its placeholder), and each one without a description what it does:
a sentence of ``_descriptions()`` by the control's object name, else its tooltip, else
its placeholder, else where it sits. Names and descriptions set by the views themselves
are kept. Windows call it once built; views that build controls later (the inbox's
cards) call it on what they built.
"""

from __future__ import annotations

from collections.abc import Iterator

from ekko_memory_gui.qt import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QLineEdit,
    QPlainTextEdit,
    Qt,
    QTextEdit,
    QToolButton,
    QWidget,
)
from ekko_memory_gui.qt import QCoreApplication as _Q

# What a screen reader treats as a control (labels count when Tab reaches them: links).
CONTROLS = (
    QAbstractButton,
    QLineEdit,
    QComboBox,
    QAbstractSpinBox,
    QAbstractItemView,
    QPlainTextEdit,
    QTextEdit,
)


def _descriptions() -> dict[str, str]:
    """What each named control does (by object name), translated now."""

    return {
        # main window
        "workspaceButton": _Q.translate(
            "Accessible", "The workspace shown; opens the list of workspaces to switch to"
        ),
        "searchField": _Q.translate(
            "Accessible",
            "Finds memories by the words of their title, content, value, tags and entities. "
            "Ctrl+F comes here, Esc clears it",
        ),
        "scopeFilter": _Q.translate("Accessible", "Shows the memories of one scope only"),
        "statusFilter": _Q.translate(
            "Accessible",
            "Active memories only, or every version: superseded, expired and deleted ones too",
        ),
        "inboxButton": _Q.translate(
            "Accessible", "What the agent asked to save or delete, waiting for you (Ctrl+I)"
        ),
        "categoryTree": _Q.translate(
            "Accessible", "Categories and how many memories each holds; choose one to list them"
        ),
        "editButton": _Q.translate(
            "Accessible", "Edit this memory; saving makes a new version (Enter)"
        ),
        "deleteButton": _Q.translate(
            "Accessible", "Move this memory to the trash (Del); Ctrl+Z brings it back"
        ),
        "restoreButton": _Q.translate("Accessible", "Bring this memory back from the trash"),
        "hardDeleteButton": _Q.translate(
            "Accessible", "Delete this memory and every version of it for good (Shift+Del)"
        ),
        "valueView": _Q.translate("Accessible", "The memory's value, to read and copy"),
        "detailIds": _Q.translate("Accessible", "The memory's ids, to read and copy"),
        "auditTable": _Q.translate(
            "Accessible", "What happened to this memory and its versions, newest first"
        ),
        "sessionsTable": _Q.translate(
            "Accessible", "The conversations with the agent; choose one to read it"
        ),
        "messageList": _Q.translate("Accessible", "The messages of the conversation chosen"),
        "summaryChain": _Q.translate(
            "Accessible", "The summaries the agent made of the conversation"
        ),
        "statusFix": _Q.translate("Accessible", "Opens the folder of the store"),
        "statusRetry": _Q.translate("Accessible", "Opens the stores again"),
        # inbox
        "inboxCategory": _Q.translate("Accessible", "Shows the waiting items of one category"),
        "approveSelected": _Q.translate(
            "Accessible", "Approves the items whose box is ticked, after one confirmation"
        ),
        "rejectSelected": _Q.translate(
            "Accessible", "Rejects the items whose box is ticked: nothing of them is kept"
        ),
        "approveShown": _Q.translate(
            "Accessible", "Approves every item shown, after a confirmation saying what each does"
        ),
        "rejectShown": _Q.translate(
            "Accessible", "Rejects every item shown: nothing of them is kept"
        ),
        "cardCheck": _Q.translate(
            "Accessible", "Ticks this item for Approve selected or Reject selected"
        ),
        "rejectButton": _Q.translate(
            "Accessible", "Rejects this item: the memory is left as it is"
        ),
        "editApproveButton": _Q.translate(
            "Accessible", "Change what will be saved, then approve it"
        ),
        "approveButton": _Q.translate(
            "Accessible", "Approves this item: the agent's change is made"
        ),
        # export, import
        "format_json": _Q.translate(
            "Accessible", "A bundle with everything, that Import reads back"
        ),
        "format_md": _Q.translate("Accessible", "A document to read, in the UI's language"),
        "format_csv": _Q.translate("Accessible", "A table for a spreadsheet program"),
        "exportWhat": _Q.translate("Accessible", "Which memories go into the file"),
        "includeMessages": _Q.translate(
            "Accessible", "Also the messages the memories were learned from"
        ),
        "exportPath": _Q.translate("Accessible", "The file to write"),
        "openFolder": _Q.translate("Accessible", "Opens the folder of the written file"),
        "exportButton": _Q.translate("Accessible", "Writes the file"),
        "cancelTask": _Q.translate("Accessible", "Stops the work at its next safe point"),
        "importPath": _Q.translate("Accessible", "The bundle file to read"),
        "importReport": _Q.translate(
            "Accessible", "How many records of each kind were added, skipped and updated"
        ),
        "importButton": _Q.translate("Accessible", "Reads the bundle into this workspace"),
        # purge
        "purgeVerification": _Q.translate(
            "Accessible", "Where the purged words were looked for afterwards, and what was found"
        ),
        "purgeTargets": _Q.translate(
            "Accessible", "Everything the purge would delete, one row each"
        ),
        "scope_session": _Q.translate("Accessible", "Purge memories of this scope"),
        "scope_workspace": _Q.translate("Accessible", "Purge memories of this scope"),
        "scope_user": _Q.translate("Accessible", "Purge memories of this scope"),
        "workspaceId": _Q.translate("Accessible", "Only memories of this workspace id"),
        "userId": _Q.translate("Accessible", "Only memories of this user id"),
        "purgeCategory": _Q.translate("Accessible", "Only memories in this category"),
        "purgeSession": _Q.translate("Accessible", "Only what comes from this conversation"),
        "purgeQuery": _Q.translate("Accessible", "Only memories holding these words"),
        "purgeBackups": _Q.translate(
            "Accessible", "Also delete the migration backups that still hold the purged text"
        ),
        "dryRunButton": _Q.translate(
            "Accessible", "Lists what would go, without deleting anything"
        ),
        "purgeButton": _Q.translate("Accessible", "Deletes for good what the dry run listed"),
        # the edit form
        "titleEdit": _Q.translate("Accessible", "A short title for the memory"),
        "contentEdit": _Q.translate("Accessible", "The memory in a sentence or more"),
        "domainCombo": _Q.translate("Accessible", "The broad area: 生活技能, 项目…"),
        "typeCombo": _Q.translate("Accessible", "What kind of memory: preference, fact, task…"),
        "pathEdit": _Q.translate("Accessible", "Where it is filed, parts separated by /"),
        "keyCombo": _Q.translate(
            "Accessible", "What the value is about; one memory per key is current"
        ),
        "valueJson": _Q.translate("Accessible", "The value as JSON"),
        "valueList": _Q.translate("Accessible", "The values, separated by commas"),
        "valueBoolean": _Q.translate("Accessible", "Ticked for yes"),
        "valueNumber": _Q.translate("Accessible", "The value as a number"),
        "valueText": _Q.translate("Accessible", "The value as text"),
        "valueTable": _Q.translate("Accessible", "The fields of the value and what each holds"),
        "addField": _Q.translate("Accessible", "Adds a field to the value"),
        "removeField": _Q.translate("Accessible", "Removes the selected field of the value"),
        "scopeCombo": _Q.translate("Accessible", "Who the memory is for: you, this workspace…"),
        "confidenceSpin": _Q.translate("Accessible", "How sure the memory is, from 0 to 1"),
        "importanceSpin": _Q.translate("Accessible", "How much the memory matters, from 0 to 1"),
        "tagsEdit": _Q.translate("Accessible", "Words to find the memory by, separated by commas"),
        "entitiesEdit": _Q.translate(
            "Accessible", "People, places and things it is about, separated by commas"
        ),
        "expiryCombo": _Q.translate("Accessible", "When the memory stops being used"),
        "expiryEdit": _Q.translate("Accessible", "The date and time it expires"),
        "saveButton": _Q.translate("Accessible", "Saves the memory"),
        # compact, index, connect, hard delete, move
        "compactReport": _Q.translate("Accessible", "What compacting freed, file by file"),
        "compactButton": _Q.translate("Accessible", "Rewrites the store files smaller"),
        "reindexButton": _Q.translate(
            "Accessible", "Computes the meaning vectors of the memories now"
        ),
        "connectUrl": _Q.translate(
            "Accessible", "The whole address of the database, postgresql://…"
        ),
        "connectHost": _Q.translate("Accessible", "The computer the database runs on"),
        "connectPort": _Q.translate("Accessible", "The port the database listens on"),
        "connectDatabase": _Q.translate("Accessible", "The name of the database"),
        "connectUser": _Q.translate("Accessible", "The user to sign in as"),
        "connectPassword": _Q.translate("Accessible", "The user's password"),
        "connectNamespace": _Q.translate(
            "Accessible", "Keeps this workspace apart from others in the same database"
        ),
        "connectButton": _Q.translate("Accessible", "Connects and opens the workspace"),
        "confirmationEdit": _Q.translate(
            "Accessible", "Type what is asked to enable Delete permanently"
        ),
        "withMessages": _Q.translate(
            "Accessible", "Also delete the messages the memory was learned from"
        ),
        "confirmDelete": _Q.translate("Accessible", "Deletes for good; this cannot be undone"),
        "moveCategory": _Q.translate(
            "Accessible", "A category in use, or a new path such as 项目 / 架构"
        ),
        "moveButton": _Q.translate("Accessible", "Moves the memories there"),
        "revertButton": _Q.translate(
            "Accessible", "Makes this version the current one again, as a new version"
        ),
        "sourceLink": _Q.translate(
            "Accessible", "A message the memory was learned from; Enter opens the conversation"
        ),
        "replyLink": _Q.translate(
            "Accessible", "A reply that used the memory; Enter opens the conversation"
        ),
        "versionEntry": _Q.translate("Accessible", "A version of the memory; Enter shows it"),
    }


def _names() -> dict[str, str]:
    """Names of the controls with no label beside them (by object name), translated now."""
    return {
        "inboxCategory": _Q.translate("Accessible", "Category of the items shown"),
        "compactReport": _Q.translate("Accessible", "What compacting did"),
        "purgeVerification": _Q.translate("Accessible", "What the purge left"),
        "connectUrl": _Q.translate("Accessible", "Database URL"),
    }


def _standard_description(w: QWidget) -> str:
    """What a dialog's standard Close or Cancel button does."""
    box = w.parentWidget()
    if not isinstance(box, QDialogButtonBox) or not isinstance(w, QAbstractButton):
        return ""
    which = box.standardButton(w)
    if which == QDialogButtonBox.StandardButton.Close:
        return _Q.translate("Accessible", "Closes this window")
    if which == QDialogButtonBox.StandardButton.Cancel:
        return _Q.translate("Accessible", "Closes this window without a change")
    return ""


def controls(root: QWidget) -> Iterator[QWidget]:
    """The controls under ``root`` a screen reader reaches, hidden ones included (shown
    later): not Qt's own parts (a spin box's or a combo box's line edit, headers, the
    popups of combo boxes, a line edit's icons), which their owner names."""
    window = root.window()
    for w in [root, *root.findChildren(QWidget)]:
        if isinstance(w, QLabel):
            if not (w.focusPolicy() & Qt.FocusPolicy.TabFocus):
                continue
        elif not isinstance(w, CONTROLS):
            continue
        if isinstance(w, QHeaderView) or w.objectName().startswith("qt_"):
            continue
        if w.window() is not window:
            continue
        parent = w.parentWidget()
        if isinstance(parent, QComboBox | QAbstractSpinBox | QLineEdit):
            continue
        yield w


def _form_label(w: QWidget) -> str:
    """The text of the label a form puts beside ``w`` (or beside the row holding it)."""
    widget: QWidget | None = w
    while widget is not None:
        parent = widget.parentWidget()
        layout = parent.layout() if parent is not None else None
        label = _label_in(layout, widget)
        if label:
            return label
        widget = parent
    return ""


def _label_in(layout: QLayout | None, w: QWidget) -> str:
    if layout is None:
        return ""
    if isinstance(layout, QFormLayout):
        label = layout.labelForField(w)
        if isinstance(label, QLabel):
            return label.text()
        for row in range(layout.rowCount()):
            field = layout.itemAt(row, QFormLayout.ItemRole.FieldRole)
            inner = field.layout() if field is not None else None
            if inner is not None and inner.indexOf(w) >= 0:
                label = layout.itemAt(row, QFormLayout.ItemRole.LabelRole)
                widget = label.widget() if label is not None else None
                if isinstance(widget, QLabel):
                    return widget.text()
    for i in range(layout.count()):
        inner = layout.itemAt(i).layout()
        if inner is not None:
            found = _label_in(inner, w)
            if found:
                return found
    return ""


def _buddy_label(w: QWidget) -> str:
    top = w.window()
    for label in top.findChildren(QLabel):
        if label.buddy() is w:
            return label.text()
    return ""


def _clean(text: str) -> str:
    """A label's text as spoken: no mnemonic ampersand, no trailing colon or dots."""
    text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
    text = " ".join(text.split())
    return text.rstrip(":：").removesuffix("…").strip()


def derived_name(w: QWidget, known: dict[str, str] | None = None) -> str:
    """The name a sighted user reads for ``w``."""
    said = (known or {}).get(w.objectName())
    if said:
        return said
    if isinstance(w, QToolButton) and w.defaultAction() is not None:
        return _clean(w.defaultAction().text())
    if isinstance(w, QAbstractButton) and w.text():
        return _clean(w.text())
    if isinstance(w, QLabel):
        return _clean(w.text().split("\n")[0])
    label = _form_label(w) or _buddy_label(w)
    if label:
        return _clean(label)
    if isinstance(w, QLineEdit) and w.placeholderText():
        return _clean(w.placeholderText())
    return _clean(w.toolTip().split("\n")[0])


def derived_description(w: QWidget, name: str, known: dict[str, str]) -> str:
    """What ``w`` does, in a sentence."""
    said = known.get(w.objectName())
    if said:
        return said
    standard = _standard_description(w)
    if standard:
        return standard
    if w.toolTip() and _clean(w.toolTip()) != name:
        return w.toolTip()
    if isinstance(w, QLineEdit) and w.placeholderText():
        return w.placeholderText()
    if isinstance(w, QToolButton) and w.defaultAction() is not None:
        action = w.defaultAction()
        shortcut = action.shortcut().toString()
        if shortcut:
            return _Q.translate("Accessible", "{name} ({shortcut})").format(
                name=name, shortcut=shortcut
            )
    place = _clean(w.window().windowTitle()) or "Ekko Memory"
    return _Q.translate("Accessible", "{name}, in “{place}”").format(name=name, place=place)


# The translated tables, made once per language (the inbox fills each card it builds).
_tables: dict[str, tuple[dict[str, str], dict[str, str]]] = {}


def _translated_tables() -> tuple[dict[str, str], dict[str, str]]:
    """(descriptions, names) in the language installed now."""
    language = _Q.translate("Accessible", "Closes this window")  # differs by language
    tables = _tables.get(language)
    if tables is None:
        tables = _tables[language] = (_descriptions(), _names())
    return tables


def fill_accessible(root: QWidget) -> None:
    """Give every control under ``root`` a name and a description where it has none."""
    known, names = _translated_tables()
    for w in controls(root):
        name = w.accessibleName()
        if not name:
            name = derived_name(w, names)
            if name:
                w.setAccessibleName(name)
        if not w.accessibleDescription():
            description = derived_description(w, name, known)
            if description:
                w.setAccessibleDescription(description)
