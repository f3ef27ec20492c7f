"""Keyboard and screen reader: every control has a name a screen reader can say, the
inbox button says how many items wait, and Tab walks the window in reading order — the
detail pane's buttons and links included, which are built after the window."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAccessible

from ekko_memory_gui.qt import QApplication, Qt, QWidget
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import titles


def _name(widget: QWidget) -> str:
    """What a screen reader says for a widget (Qt's accessibility interface, as AT-SPI reads it)."""
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None
    return iface.text(QAccessible.Text.Name)


def _show(qtbot: Any, window: MainWindow, title: str) -> None:
    model = window.list_pane.model
    node_id = next(i for i in model.ids() if model.row_at(model.row_of(i)).title == title)  # type: ignore[union-attr]
    window.list_pane.select_id(node_id)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == node_id)


def test_every_control_of_the_main_window_has_a_spoken_name(qtbot: Any, window: MainWindow) -> None:
    _show(qtbot, window, "用户可接受少量香菜")
    detail = window.detail_pane
    # A combo box's spoken name on Linux is its current text (Qt speaks the label
    # separately); its accessible name is what Windows and macOS say.
    assert window.scope_combo.accessibleName() == "Scope"
    assert window.status_combo.accessibleName() == "Status"
    named = {
        window.search_field: "Search memories",
        window.category_pane.tree: "Categories",
        window.list_pane.table: "Memories",
        detail.value: "Value",
        detail.ids: "Ids",
        detail.audit: "Audit",
    }
    for widget, name in named.items():
        assert _name(widget) == name, widget.objectName()
    # The badge is painted: the button's name carries the count.
    qtbot.waitUntil(lambda: window.inbox_button.count == 4)
    assert _name(window.inbox_button) == "Inbox, 4 waiting"


def _tab_walk(qtbot: Any, start: QWidget, steps: int) -> list[QWidget]:
    """The widgets Tab visits from ``start``, as a user pressing Tab meets them."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(start.hasFocus)
    seen: list[QWidget] = []
    for _ in range(steps):
        widget = QApplication.focusWidget()
        assert widget is not None
        seen.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return seen


def test_tab_walks_the_window_in_reading_order(qtbot: Any, window: MainWindow) -> None:
    """The toolbar, the tree, the table, then the detail pane from top to bottom: its
    Revert button and source links (made when a memory is shown) came right after the
    toolbar's Inbox button, before the tree."""
    assert "用户可接受少量香菜" in titles(window)
    _show(qtbot, window, "用户可接受少量香菜")
    detail = window.detail_pane
    walk = _tab_walk(qtbot, window.workspace_button, 30)
    order = walk[: walk.index(window.workspace_button, 1)]
    revert = detail.chain.findChildren(QWidget, "revertButton")
    sources = detail.findChildren(QWidget, "sourceLink")
    assert revert and sources
    expected_start = [
        window.workspace_button,
        window.search_field,
        window.scope_combo,
        window.status_combo,
        window.inbox_button,
        window.category_pane.tree,
        window.list_pane.table,
    ]
    assert order[: len(expected_start)] == expected_start
    pos = order.index
    button = detail.details.button  # Details (key, value, ids…) opens in place
    assert pos(detail.edit_button) < pos(button) < pos(revert[0]) < pos(sources[0])
    assert pos(sources[-1]) < pos(detail.audit)


def test_an_older_version_opens_from_the_keyboard(qtbot: Any, window: MainWindow) -> None:
    """The Versions timeline opened a version only with the mouse: Tab now stops at each
    version, before its Revert button, and Enter opens it."""
    _show(qtbot, window, "用户可接受少量香菜")
    detail = window.detail_pane
    entries = detail.chain.findChildren(QWidget, "versionEntry")
    revert = detail.chain.findChildren(QWidget, "revertButton")
    assert len(entries) >= 2 and revert
    walk = _tab_walk(qtbot, detail.details.button, 30)
    assert walk.index(entries[0]) < walk.index(entries[1]) < walk.index(revert[0])
    older = detail.chain.entries[1].node.id
    opened: list[str] = []
    detail.version_clicked.connect(opened.append)
    entries[1].setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(entries[1].hasFocus)
    qtbot.keyClick(entries[1], Qt.Key.Key_Return)
    assert opened == [older]
    assert entries[1].accessibleName().startswith("Version ")


def test_source_and_reply_links_open_from_the_keyboard(qtbot: Any, window: MainWindow) -> None:
    _show(qtbot, window, "用户可接受少量香菜")
    detail = window.detail_pane
    links = detail.findChildren(QWidget, "sourceLink") + detail.findChildren(QWidget, "replyLink")
    assert links
    for link in links:
        flags = link.textInteractionFlags()  # type: ignore[attr-defined]
        assert flags & Qt.TextInteractionFlag.LinksAccessibleByKeyboard
        assert link.focusPolicy() & Qt.FocusPolicy.TabFocus
    opened: list[tuple[str, str]] = []
    detail.open_message.connect(lambda s, m: opened.append((s, m)))
    source = detail.history.sources[0]  # type: ignore[union-attr]
    link = detail.findChildren(QWidget, "sourceLink")[0]
    link.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(link.hasFocus)
    qtbot.keyClick(link, Qt.Key.Key_Tab)  # into the label: its first link
    if not link.hasFocus():
        link.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(link, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(opened))
    assert opened[0] == (source.session_id, source.id)


def test_the_detail_sections_follow_the_spec_order(qtbot: Any, window: MainWindow) -> None:
    """UI.md: Versions, Sources, Audit, Used in."""
    _show(qtbot, window, "用户可接受少量香菜")
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.audit.isVisible() and detail.usage.isVisible())
    y = lambda w: w.mapTo(detail, w.rect().topLeft()).y()  # noqa: E731
    link = detail.findChildren(QWidget, "sourceLink")[-1]
    assert y(detail.chain) < y(link) < y(detail.audit) < y(detail.usage)


def test_the_hard_delete_dialog_opens_in_the_field_to_type_the_title(
    qtbot: Any, window: MainWindow, demo: Any
) -> None:
    """The dialog opened with the focus on "Also delete the source messages": typing the
    title needed a Tab first, and Space ticked deleting the user's messages too."""
    from ekko_memory_gui.views.dialogs.hard_delete_dialog import HardDeleteDialog

    node = window.runner.memory.get_node(demo.node_ids["some_coriander"])
    assert node is not None
    dialog = HardDeleteDialog([node], window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    focused = QApplication.focusWidget()
    assert focused is dialog.confirmation, focused.objectName() if focused else None
    qtbot.keyClicks(dialog.confirmation, "DELETE")
    assert dialog.delete_button.isEnabled() and not dialog.with_messages.isChecked()


def _nameless(root: QWidget) -> list[str]:
    """Controls Tab reaches that a screen reader could only call "edit" or "check box"
    (Qt's own parts of a spin box or an editable combo box are named by their owner)."""
    out = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisible() or not (w.focusPolicy() & Qt.FocusPolicy.TabFocus):
            continue
        if w.objectName() == "qt_spinbox_lineedit" or type(w).__name__ == "QTabWidget":
            continue
        if type(w.parentWidget()).__name__ == "QComboBox":
            continue
        if not _name(w).strip():
            out.append(f"{type(w).__name__}:{w.objectName()}")
    return out


def test_no_control_of_the_inbox_or_the_dialogs_is_nameless(
    qtbot: Any, window: MainWindow, demo: Any, dialogs: Any
) -> None:
    """The inbox cards' checkboxes, the export and import paths, the purge's dates, the
    edit form's value table and expiry were read out with no name."""
    from tests.gui.conftest import wait_task

    window.show_inbox()
    qtbot.waitUntil(lambda: len(window.inbox_view.cards) == 4)
    assert _nameless(window) == []
    card = window.inbox_view.cards[0]
    assert _name(card.check) == f"Select “{card.entry.item.node['title']}”"  # type: ignore[index]
    window.pages.setCurrentWidget(window.memory_split)
    _show(qtbot, window, "用户可接受少量香菜")
    assert _nameless(window) == []

    found: dict[str, list[str]] = {}

    def look(dialog: Any) -> bool:
        dialog.show()
        qtbot.waitExposed(dialog)
        found[type(dialog).__name__] = _nameless(dialog)
        return False

    node_id = window.detail_pane.node.id  # type: ignore[union-attr]
    for open_dialog in (
        window.export_memories,
        window.import_bundle,
        window.purge,
        lambda: window.edit_memory(node_id),
    ):
        dialogs.handlers.append(look)
        wait_task(qtbot, open_dialog())
    assert found == {
        "ExportDialog": [],
        "ImportDialog": [],
        "PurgeDialog": [],
        "MemoryEditDialog": [],
    }


def test_tab_walks_the_inbox_after_its_header(qtbot: Any, window: MainWindow) -> None:
    """The cards are built when the inbox loads, after the window: Tab went from the
    toolbar's Inbox button through every card, then to the tree, then to the inbox's
    category and batch buttons above the cards."""
    window.show_inbox()
    inbox = window.inbox_view
    qtbot.waitUntil(lambda: len(inbox.cards) == 4)
    walk = _tab_walk(qtbot, window.workspace_button, 40)
    order = walk[: walk.index(window.workspace_button, 1)]
    pos = order.index
    assert pos(window.inbox_button) < pos(window.category_pane.tree)
    assert pos(window.category_pane.tree) < pos(inbox.category_combo) < pos(inbox.approve_shown)
    last = pos(inbox.reject_shown)
    for card in inbox.cards:  # top to bottom, each box before its buttons
        steps = [card.check, card.reject_button, card.approve_button]
        assert [pos(w) for w in steps] == sorted(pos(w) for w in steps)
        assert pos(card.check) > last
        last = pos(card.approve_button)
