"""Browsing: the tree filters the table, search finds Chinese words, the detail pane tells
a memory's story, sessions open at a source message, paging is lazy."""

from __future__ import annotations

from typing import Any

from ekko_memory import BrowseFilter
from ekko_memory.demo import DemoReport
from ekko_memory_gui.models.category_tree_model import KIND_DOMAIN
from ekko_memory_gui.models.memory_table_model import MemoryTableModel
from ekko_memory_gui.models.roles import KIND_ROLE
from ekko_memory_gui.operations.runner import OperationRunner
from ekko_memory_gui.qt import QLabel, QPoint, Qt
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import detail_at_1000_px, run, titles, type_text, wait_task


def _node(window: MainWindow, title: str) -> str:
    model = window.list_pane.model
    for node_id in model.ids():
        node = model.row_at(model.row_of(node_id))
        if node is not None and node.title == title:
            return node_id
    raise AssertionError(f"{title!r} not in the table: {titles(window)}")


def test_the_window_opens_on_all_active_memories(qtbot: Any, window: MainWindow) -> None:
    shown = titles(window)
    assert "用户可接受少量香菜" in shown
    assert "用户不吃香菜" not in shown  # superseded: only with history
    assert "Commit messages follow Conventional Commits" not in shown  # deleted: in the trash
    qtbot.waitUntil(lambda: window.list_pane.count_label.text() == f"{len(shown)} memories")
    qtbot.waitUntil(lambda: "memories" in window.status.text.text())
    # How things are in words; the files are in the tooltip.
    mine = window.runner.memory.browse.count(
        BrowseFilter(hide_expired=True, scopes=["session", "workspace", "user"])
    )
    assert window.status.text.text() == f"Saved on this computer · {mine} memories"
    assert "memory.db" in window.status.text.toolTip()
    assert window.status.level == "ok"


def test_selecting_a_branch_filters_the_table(qtbot: Any, window: MainWindow) -> None:
    pane = window.category_pane
    qtbot.waitUntil(lambda: pane.model.index_for_key("domain/项目").isValid())
    assert pane.select_key("category/项目/项目/架构")
    qtbot.waitUntil(
        lambda: (
            window.list_pane.filter is not None
            and window.list_pane.filter.category_path_prefix == ["项目", "架构"]
        )
    )
    qtbot.waitUntil(lambda: not window.list_pane.model.loading)
    shown = titles(window)
    assert sorted(shown) == ["Database: SQLite (desktop build)", "Web framework: FastAPI"]
    model = window.list_pane.model
    for node_id in model.ids():
        node = model.row_at(model.row_of(node_id))
        assert node is not None and node.category_path[:2] == ("项目", "架构")
    # The tree shows the branch's count of active memories.
    index = pane.model.index_for_key("category/项目/项目/架构")
    assert index.siblingAtColumn(1).data() == "2"


def test_typing_a_chinese_word_shows_the_matching_memory(qtbot: Any, window: MainWindow) -> None:
    window.focus_search()
    type_text(window.search_field, "香菜")
    assert window.search_field.text() == "香菜"
    qtbot.waitUntil(
        lambda: window.list_pane.filter is not None and window.list_pane.filter.text == "香菜",
        timeout=3000,
    )
    qtbot.waitUntil(lambda: not window.list_pane.model.loading)
    shown = titles(window)
    assert "用户可接受少量香菜" in shown
    assert "Web framework: FastAPI" not in shown
    assert "用户不吃葱" not in shown
    # Clearing the search brings everything back.
    window.search_field.clear()
    qtbot.waitUntil(
        lambda: window.list_pane.filter is not None and window.list_pane.filter.text is None,
        timeout=3000,
    )
    qtbot.waitUntil(lambda: "Web framework: FastAPI" in titles(window))


def test_search_matches_are_painted_highlighted(qtbot: Any, window: MainWindow) -> None:
    """UI.md: the search filters as you type, "matches highlighted" — the word is painted
    on its mark in the row that matched."""
    from ekko_memory_gui.qt import QColor
    from ekko_memory_gui.services.theme import current_colors

    window.search_field.setText("香菜")
    qtbot.waitUntil(
        lambda: window.list_pane.filter is not None and window.list_pane.filter.text == "香菜",
        timeout=3000,
    )
    qtbot.waitUntil(lambda: not window.list_pane.model.loading)
    table = window.list_pane.table
    row = titles(window).index("用户可接受少量香菜")
    table.clearSelection()  # the mark, not the selection colour
    rect = table.visualRect(table.model().index(row, 0))
    image = table.viewport().grab(rect).toImage()
    mark = QColor(current_colors().highlight_match).rgb()
    marked = sum(
        image.pixel(x, y) == mark for x in range(image.width()) for y in range(image.height())
    )
    assert marked > 50, "no highlighted match in the title cell"


def test_search_without_matches_explains_itself(qtbot: Any, window: MainWindow) -> None:
    window.search_field.setText("不存在的东西xyz")
    qtbot.waitUntil(
        lambda: window.list_pane.filter is not None and bool(window.list_pane.filter.text),
        timeout=3000,
    )
    qtbot.waitUntil(lambda: window.list_pane.stack.currentWidget() is window.list_pane.empty)
    assert "Nothing matches" in window.list_pane.empty.text()
    # Not "0 matches, best first" above it.
    qtbot.waitUntil(lambda: window.list_pane.count_label.text() == "No matches")


def test_clicking_the_selected_branch_leaves_the_inbox(qtbot: Any, window: MainWindow) -> None:
    """After Ctrl+I the tree keeps its selection: a click on that branch (the first thing a
    user tries) brings its page back — it did nothing, leaving the inbox on screen."""
    pane = window.category_pane
    for key, page in (("all/", window.memory_split), ("sessions/", window.sessions_view)):
        assert pane.select_key(key)
        qtbot.waitUntil(lambda page=page: window.pages.currentWidget() is page)
        window.inbox_action.trigger()
        assert window.pages.currentWidget() is window.inbox_view
        rect = pane.tree.visualRect(pane.model.index_for_key(key))
        qtbot.mouseClick(pane.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.waitUntil(lambda page=page: window.pages.currentWidget() is page)


def test_selecting_a_memory_shows_its_chain_and_audit(qtbot: Any, window: MainWindow) -> None:
    node_id = _node(window, "用户可接受少量香菜")
    window.list_pane.select_id(node_id)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == node_id)
    assert detail.title.text() == "A little cilantro (香菜) is fine"  # the memory as a sentence
    assert detail.title_field.text() == "用户可接受少量香菜"  # its title, under Details
    assert '"ingredient": "香菜"' in detail.value.toPlainText()
    # The supersede chain: newest on top, the old "不吃香菜" below, with actor and reason.
    entries = detail.chain.entries
    assert [e.node.title for e in entries] == ["用户可接受少量香菜", "用户不吃香菜"]
    assert entries[0].is_head and entries[1].node.status == "superseded"
    assert entries[1].actor == "agent" and "记住" in entries[1].reason
    assert detail.chain.findChildren(type(detail.edit_button), "revertButton")
    # The audit of every version, newest first.
    events = [e.event_type for e in detail.audit_model.items()]
    assert "create" in events and "supersede" in events
    times = [e.created_at for e in detail.audit_model.items()]
    assert times == sorted(times, reverse=True)
    # Sources and usage.
    assert any("香菜" in m.content for m in detail.history.sources)  # type: ignore[union-attr]
    assert detail.usage.text().startswith("Used in")


def test_clicking_an_old_version_shows_it(qtbot: Any, window: MainWindow) -> None:
    node_id = _node(window, "用户可接受少量香菜")
    window.list_pane.select_id(node_id)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == node_id)
    old = detail.chain.entries[1].node.id
    detail.chain.version_clicked.emit(old)
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == old)
    assert detail.node.status == "superseded"


def test_a_source_message_opens_in_the_sessions_view(qtbot: Any, window: MainWindow) -> None:
    node_id = _node(window, "用户可接受少量香菜")
    window.list_pane.select_id(node_id)
    detail = window.detail_pane
    qtbot.waitUntil(
        lambda: detail.history is not None and detail.node is not None and detail.node.id == node_id
    )
    source = detail.history.sources[0]  # type: ignore[union-attr]
    task = window.show_message(source.session_id, source.id)
    wait_task(qtbot, task)
    assert task.result() is True
    view = window.sessions_view
    assert window.pages.currentWidget() is view
    assert view.session_id == source.session_id
    current = view.messages.currentIndex()
    assert view.messages_model.message_at(current.row()).id == source.id  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: view.summaries_model.rowCount() == 2)
    assert "香菜" in view.summaries.toPlainText()


def test_history_status_shows_superseded_versions_greyed(qtbot: Any, window: MainWindow) -> None:
    window.status_combo.setCurrentIndex(1)
    qtbot.waitUntil(
        lambda: window.list_pane.filter is not None and window.list_pane.filter.statuses is None
    )
    qtbot.waitUntil(lambda: not window.list_pane.model.loading)
    shown = titles(window)
    assert "用户不吃香菜" in shown and "用户可接受少量香菜" in shown
    model = window.list_pane.model
    row = model.row_of(_node(window, "用户不吃香菜"))
    assert model.data(model.index(row, 0), Qt.ItemDataRole.ForegroundRole) is not None


def test_scope_filter_limits_table_and_tree(qtbot: Any, window: MainWindow) -> None:
    window.scope_combo.setCurrentIndex(window.scope_combo.findData("workspace"))
    qtbot.waitUntil(
        lambda: (
            window.list_pane.filter is not None and window.list_pane.filter.scopes == ["workspace"]
        )
    )
    qtbot.waitUntil(lambda: not window.list_pane.model.loading)
    model = window.list_pane.model
    scopes = {model.row_at(i).scope for i in range(model.rowCount())}  # type: ignore[union-attr]
    assert scopes == {"workspace"}


def _domains(window: MainWindow) -> list[str]:
    model = window.category_pane.model
    return sorted(
        model.index(r, 0).data()
        for r in range(model.rowCount())
        if model.index(r, 0).data(KIND_ROLE) == KIND_DOMAIN
    )


def test_a_scope_change_while_the_tree_is_counting_reshapes_the_tree(
    qtbot: Any, window: MainWindow
) -> None:
    """The scope changes while the tree's counts are loading (after a change by the app or
    the agent): the tree still drops the domains of the scopes no longer shown. (The
    reshape asked during a count in flight was lost: the user domains stayed, at 0.)"""
    pane = window.category_pane
    assert sorted(_domains(window)) == ["Life skills", "Personal", "Project"]  # in English
    pane.reload_counts()  # as a change set does
    window.scope_combo.setCurrentIndex(window.scope_combo.findData("workspace"))
    qtbot.waitUntil(lambda: not pane.loading)
    assert _domains(window) == ["Project"]


def test_trash_lists_deleted_memories(qtbot: Any, window: MainWindow) -> None:
    assert window.category_pane.select_key("trash/")
    qtbot.waitUntil(
        lambda: (
            window.list_pane.filter is not None and window.list_pane.filter.statuses == ["deleted"]
        )
    )
    qtbot.waitUntil(lambda: not window.list_pane.model.loading)
    assert titles(window) == ["Commit messages follow Conventional Commits"]


def test_pages_load_lazily_as_the_view_scrolls(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    runner: OperationRunner = window.runner
    model = MemoryTableModel(runner, page_size=4)
    wait_task(qtbot, model.set_filter(BrowseFilter()))
    assert model.rowCount() == 4 and model.canFetchMore()
    model.fetchMore()
    assert not model.canFetchMore()  # one load in flight at a time
    qtbot.waitUntil(lambda: model.rowCount() == 8)
    while model.canFetchMore():
        model.fetchMore()
        qtbot.waitUntil(lambda: not model.loading)
    everything = run(qtbot, runner.call(runner.memory.browse.count, BrowseFilter()))
    assert model.rowCount() == everything
    assert len(set(model.ids())) == everything


def test_used_in_lists_the_replies_and_opens_them(qtbot: Any, window: MainWindow) -> None:
    node_id = _node(window, "用户可接受少量香菜")
    window.list_pane.select_id(node_id)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == node_id)
    assert detail.replies and all(m.role == "assistant" for m in detail.replies)
    from ekko_memory_gui.qt import QLabel

    links = detail.findChildren(QLabel, "replyLink")
    assert links and "香菜" in " ".join(link.text() for link in links)
    reply = detail.replies[-1]
    task = window.show_message(reply.session_id, reply.id)
    wait_task(qtbot, task)
    view = window.sessions_view
    assert view.messages_model.message_at(view.messages.currentIndex().row()).id == reply.id  # type: ignore[union-attr]


def test_ctrl_c_copies_the_selected_row(qtbot: Any, window: MainWindow) -> None:
    from ekko_memory_gui.qt import QGuiApplication

    node_id = _node(window, "用户不吃葱")
    window.list_pane.select_id(node_id)
    window.list_pane.table.setFocus()
    qtbot.keyClick(window.list_pane.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    text = QGuiApplication.clipboard().text()
    # The row as it reads: the sentence, its category, who wrote it…, and the id.
    assert text.startswith("Doesn't eat scallion (葱)\tFood preferences\tYou\t") and text.endswith(
        node_id
    )


def test_an_empty_workspace_explains_what_memories_are(
    qtbot: Any, controller: Any, tmp_path: Any
) -> None:
    from tests.gui.conftest import open_window

    ws, home = tmp_path / "empty", tmp_path / "home"
    ws.mkdir()
    home.mkdir()
    window = open_window(qtbot, controller, ws, home, branches=3)
    try:
        # Only the read-only global seeds; the user's own stores are empty.
        window.scope_combo.setCurrentIndex(window.scope_combo.findData("user"))
        qtbot.waitUntil(
            lambda: (
                window.list_pane.filter is not None and window.list_pane.filter.scopes == ["user"]
            )
        )
        qtbot.waitUntil(lambda: window.list_pane.stack.currentWidget() is window.list_pane.empty)
        assert "No memories yet" in window.list_pane.empty.text()
        assert "remember" in window.list_pane.empty.text()
        window.show_inbox()
        qtbot.waitUntil(lambda: window.inbox_view.empty.isVisibleTo(window.inbox_view))
    finally:
        window.replace()


def test_a_long_search_never_widens_the_window(qtbot: Any, window: MainWindow) -> None:
    for query in ("x" * 300, "x" * 5000):
        window.search_field.setText(query)
        window.apply_filter()
        qtbot.waitUntil(lambda: window.list_pane.stack.currentWidget() is window.list_pane.empty)
        qtbot.wait(50)
        assert window.minimumSizeHint().width() < 1000
        assert window.width() == 1400
        empty = window.list_pane.empty
        assert "x" * 58 + "…" in empty.text() and empty.toolTip() == query
    window.search_field.clear()
    window.apply_filter()
    qtbot.waitUntil(lambda: window.list_pane.stack.currentWidget() is window.list_pane.table)
    assert window.width() == 1400


def test_clicking_a_header_sorts_in_the_store(qtbot: Any, window: MainWindow) -> None:
    """The header asks the store for the order (every matching memory, see test_models);
    the selection stays on the same memory."""
    pane = window.list_pane
    mem = window.runner.memory
    mine = BrowseFilter(hide_expired=True, scopes=["session", "workspace", "user"])
    every = mem.browse.list_nodes(mine, limit=500).nodes
    node_id = _node(window, "用户可接受少量香菜")
    pane.select_id(node_id)
    header = pane.table.horizontalHeader()
    x = header.sectionViewportPosition(3) + header.sectionSize(3) // 2  # changed
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    assert header.sortIndicatorSection() == 3
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder  # newest first
    assert pane.model.sort_order == ("updated", True)
    x = header.sectionViewportPosition(1) + header.sectionSize(1) // 2  # category
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    assert header.sortIndicatorSection() == 1
    assert header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    assert pane.model.sort_order == ("category", False)
    qtbot.waitUntil(lambda: not pane.model.loading and pane.model.rowCount() == len(every))
    wanted = sorted(every, key=lambda n: (n.category_path_text, n.id))
    assert pane.model.ids() == [n.id for n in wanted]
    qtbot.waitUntil(lambda: pane.selected_id() == node_id)
    assert window.detail_pane.node_id == node_id


def test_the_detail_pane_and_edit_actions_follow_the_selection(
    qtbot: Any, window: MainWindow
) -> None:
    """A memory that left the list (another branch, the trash, a search without matches)
    leaves the detail pane, and Move to trash has nothing to act on."""
    detail = window.detail_pane
    mem = window.runner.memory

    def select(title: str) -> str:
        node_id = _node(window, title)
        window.list_pane.select_id(node_id)
        qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == node_id)
        return node_id

    node_id = select("用户可接受少量香菜")
    assert window.category_pane.select_key("trash/")
    qtbot.waitUntil(lambda: titles(window) == ["Commit messages follow Conventional Commits"])
    qtbot.waitUntil(lambda: detail.node_id is None)
    window.delete_action.trigger()
    qtbot.wait(100)
    node = mem.get_node(node_id)
    assert node is not None and node.status == "active"

    assert window.category_pane.select_key("all/")
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window))
    select("用户可接受少量香菜")
    window.search_field.setText("不存在的东西xyz")
    window.apply_filter()
    qtbot.waitUntil(lambda: detail.node_id is None)

    window.search_field.clear()
    window.apply_filter()
    qtbot.waitUntil(lambda: "用户可接受少量香菜" in titles(window))
    select("用户可接受少量香菜")
    # A filter that keeps the memory keeps it selected and shown.
    window.search_field.setText("香菜")
    window.apply_filter()
    qtbot.waitUntil(lambda: window.list_pane.selected_id() == node_id)
    assert detail.node_id == node_id
    # On the Sessions page the hidden list's selection is not acted on.
    window.category_pane.select_key("sessions/")
    qtbot.waitUntil(lambda: window.pages.currentWidget() is window.sessions_view)
    window.delete_action.trigger()
    qtbot.wait(100)
    node = mem.get_node(node_id)
    assert node is not None and node.status == "active"


def test_a_wrapped_message_is_shown_whole(qtbot: Any) -> None:
    """A message bubble is as tall as its text wrapped at the width it is painted at (a
    guessed width had cut a Chinese message's last line in half)."""
    from ekko_memory.timeutil import utcnow
    from ekko_memory_gui.models.roles import OBJECT_ROLE
    from ekko_memory_gui.qt import (
        QFontMetrics,
        QListView,
        QRect,
        QStandardItem,
        QStandardItemModel,
        QStyleOptionViewItem,
    )
    from ekko_memory_gui.views.sessions_view import MessageDelegate
    from tests.core.factories import make_message

    view = QListView()
    qtbot.addWidget(view)
    view.setSpacing(2)
    view.resize(330, 400)
    delegate = MessageDelegate(view)
    view.setItemDelegate(delegate)
    model = QStandardItemModel()
    text = "可以做番茄炒蛋和一道家常豆腐，都不放香菜和葱，少油少盐。" * 3
    item = QStandardItem()
    item.setData(make_message(role="assistant", content=text, at=utcnow()), OBJECT_ROLE)
    model.appendRow(item)
    view.setModel(model)
    view.show()
    qtbot.waitExposed(view)
    for width in (330, 520, 260):
        view.resize(width, 400)
        qtbot.wait(10)
        option = QStyleOptionViewItem()
        option.font = view.font()
        option.rect = QRect()  # as a list view may ask, without a width
        hint = delegate.sizeHint(option, model.index(0, 0))
        painted = QRect(0, 0, view.viewport().width() - 2 * view.spacing(), hint.height())
        pad = delegate.PAD  # the bubble's margins and padding, as painted
        inner = painted.adjusted(4 + pad, 3 + pad // 2, -4 - pad, -3 - pad // 2)
        fm = QFontMetrics(view.font())
        needed = fm.boundingRect(
            QRect(0, 0, inner.width(), 100000), int(Qt.TextFlag.TextWordWrap), text
        )
        assert inner.height() - fm.height() - 4 >= needed.height(), (width, hint)


def test_the_detail_pane_words_expiry_by_the_cores_status(qtbot: Any, window: MainWindow) -> None:
    """The pane had its own copy of "expired by time"; it now asks the core
    (``MemoryNode.status_at``). Where the copy was wrong: a deleted memory that would have
    expired within a day was flagged amber like an active one about to expire, although a
    deleted memory never expires."""
    from datetime import UTC, datetime, timedelta

    mem = window.runner.memory
    node_id = mem.actions.create(
        {
            "scope": "workspace",
            "domain": "测试",
            "type": "fact",
            "title": "今天的临时记录",
            "content": "五小时后过期。",
            "expiresAt": (datetime.now(UTC) + timedelta(hours=5)).isoformat(),
        }
    ).node_id
    assert node_id is not None
    detail = window.detail_pane

    def shown(status: str) -> tuple[list[str], str, str]:
        # The memory as it now is: the change watcher may reload the pane meanwhile (a
        # newer load of it replaces the one asked here, whose task then renders nothing).
        detail.show_node(node_id)
        qtbot.waitUntil(
            lambda: (
                detail.node is not None
                and detail.node.id == node_id
                and detail.node.status == status
            )
        )
        chips = [w.text() for w in detail.findChildren(QLabel) if w.property("role") == "chip"]
        return chips, detail.expiry.text(), detail.expiry.property("role")

    chips, text, role = shown("active")
    assert "active" in chips and text.startswith("Expires") and role == "amber"
    mem.actions.delete(node_id, "soft")
    chips, text, role = shown("deleted")
    assert "deleted" in chips and text.startswith("Expiry set: in "), (
        "a deleted memory does not expire: it read 'Expires in 5 hours'"
    )
    assert role == "muted", "a deleted memory does not expire: its date is no warning"


def test_the_detail_pane_fits_a_1000_px_window_in_english(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    """The Chinese pane fits at 1000 px; the English one scrolled sideways: Edit, Delete
    and "Delete permanently…" on one row were wider than the pane, and cut the pane's
    right edge (the score numbers, the Revert button) off. The buttons now wrap."""
    scroll = detail_at_1000_px(qtbot, window, demo)
    pane = window.detail_pane
    assert pane.hard_delete_button.text() == "Delete permanently…"
    assert scroll.horizontalScrollBar().maximum() == 0, "the pane scrolls sideways"
    right = scroll.viewport().width()
    for button in (pane.edit_button, pane.delete_button, pane.hard_delete_button):
        assert button.mapTo(scroll.widget(), button.rect().topRight()).x() <= right
