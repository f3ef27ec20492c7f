"""Every custom model passes pytest-qt's model tester (the Python one, which fails the test
on any inconsistency), loaded with real data and while it changes."""

from __future__ import annotations

import string
from typing import Any

import pytest

from ekko_memory import BrowseFilter
from ekko_memory.demo import DemoReport
from ekko_memory_gui.controller import AppController
from ekko_memory_gui.models.audit_model import AuditTableModel
from ekko_memory_gui.models.category_tree_model import CategoryTreeModel
from ekko_memory_gui.models.memory_table_model import MemoryTableModel
from ekko_memory_gui.models.pending_model import PendingListModel
from ekko_memory_gui.models.roles import COUNT_ROLE, OBJECT_ROLE
from ekko_memory_gui.models.session_models import (
    MessageListModel,
    SessionListModel,
    SummaryListModel,
)
from ekko_memory_gui.operations import browse_ops
from ekko_memory_gui.operations.changes import ChangeSet
from ekko_memory_gui.qt import QModelIndex, Qt
from tests.gui.conftest import run, wait_task


@pytest.fixture
def opened(qtbot: Any, controller: AppController, demo: DemoReport) -> AppController:
    run(qtbot, controller.open_workspace(demo.workspace, demo.user_home))
    return controller


def test_memory_table_model(qtbot: Any, qtmodeltester: Any, opened: AppController) -> None:
    model = MemoryTableModel(opened.runner, page_size=3)
    qtmodeltester.check(model, force_py=True)
    wait_task(qtbot, model.set_filter(BrowseFilter(statuses=None)))
    assert model.rowCount() == 3
    while model.canFetchMore():
        model.fetchMore()
        qtbot.waitUntil(lambda: not model.loading)
    assert model.rowCount() > 10
    # Live changes keep it consistent: a new memory, and an edited one (old version leaves
    # an "active" view, but stays in this all-statuses view with its new status).
    mem = opened.runner.memory
    out = run(
        qtbot,
        opened.runner.call(
            mem.actions.create,
            {
                "scope": "workspace",
                "domain": "项目",
                "type": "fact",
                "key": "language",
                "valueJson": "Python",
                "title": "Written in Python",
                "confidence": 0.9,
                "importance": 0.5,
            },
        ),
    )
    wait_task(qtbot, model.apply_changes(ChangeSet(node_ids=frozenset({out.node_id}))))
    assert model.row_of(out.node_id) == 0


def _fold_ascii(text: str) -> str:
    """The store sorts titles by code point with ASCII case folded."""
    return text.translate(str.maketrans(string.ascii_uppercase, string.ascii_lowercase))


def test_memory_table_sorts_every_memory_in_the_store(
    qtbot: Any, qtmodeltester: Any, opened: AppController
) -> None:
    """A header click orders every matching memory, not only the pages loaded so far."""
    mem = opened.runner.memory
    every = mem.browse.list_nodes(BrowseFilter(), limit=500).nodes
    model = MemoryTableModel(opened.runner, page_size=3)
    qtmodeltester.check(model, force_py=True)
    wait_task(qtbot, model.set_filter(BrowseFilter()))
    model.sort(1, Qt.SortOrder.DescendingOrder)  # category
    qtbot.waitUntil(lambda: not model.loading and model.rowCount() == 3)
    # The first page already holds the last categories of all of them.
    top = sorted(every, key=lambda n: (n.category_path_text, n.id), reverse=True)[:3]
    assert model.ids() == [n.id for n in top]
    model.sort(0, Qt.SortOrder.AscendingOrder)  # the memory: by its title
    qtbot.waitUntil(lambda: not model.loading and model.rowCount() == 3)
    while model.canFetchMore():
        model.fetchMore()
        qtbot.waitUntil(lambda: not model.loading)
    titles = [model.index(r, 0).data(OBJECT_ROLE).title for r in range(model.rowCount())]
    assert len(titles) == len(every)
    assert titles == sorted(titles, key=_fold_ascii)
    # A new memory takes its place in the order asked, not at the top.
    out = run(
        qtbot,
        opened.runner.call(
            mem.actions.create,
            {"scope": "workspace", "domain": "项目", "type": "fact", "title": "mmm in the middle"},
        ),
    )
    wait_task(qtbot, model.apply_changes(ChangeSet(node_ids=frozenset({out.node_id}))))
    titles = [model.index(r, 0).data(OBJECT_ROLE).title for r in range(model.rowCount())]
    assert 0 < titles.index("mmm in the middle") < len(titles) - 1
    assert titles == sorted(titles, key=_fold_ascii)
    model.sort(-1, Qt.SortOrder.AscendingOrder)  # back to newest first
    qtbot.waitUntil(lambda: not model.loading and model.rowCount() == 3)
    assert model.ids()[0] == out.node_id


def test_category_tree_model(qtbot: Any, qtmodeltester: Any, opened: AppController) -> None:
    model = CategoryTreeModel()
    counts = run(
        qtbot, browse_ops.category_counts(opened.runner, BrowseFilter(), with_history=True)
    )
    model.set_counts(counts.active, counts.every, counts.trash, with_history=True)
    project = model.index_for_key("domain/项目")
    assert project.isValid()
    # Lazy: children exist only after the view asks for them.
    assert model.hasChildren(project) and model.rowCount(project) == 0
    assert model.canFetchMore(project)
    model.fetchMore(project)
    assert model.rowCount(project) == 6  # 任务 协作 架构 约束 部署, and 约定 (only history)
    # The tester walks (and fetches) everything, and re-checks on every change below.
    qtmodeltester.check(model, force_py=True)
    names = [model.index(r, 0, project).data() for r in range(model.rowCount(project))]
    assert "Architecture" in names  # a built-in name, in the UI's language
    arch = model.index_for_key("category/项目/项目/架构")
    # With history the count is of every version, as the list below it counts them.
    assert arch.siblingAtColumn(1).data() == "3"  # PostgreSQL, then SQLite, and the FastAPI
    assert arch.data(COUNT_ROLE) == 2  # active
    assert model.parent(arch) == project
    # A refresh merges: new counts, a new branch, nothing collapses.
    active = [*counts.active]
    from ekko_memory import CategoryCount

    active.append(CategoryCount(domain="项目", category_path=["项目", "发布"], count=4))
    model.set_counts(active, counts.every, counts.trash, with_history=False)
    assert model.rowCount(project) == 7
    assert model.index_for_key("category/项目/项目/发布").siblingAtColumn(1).data() == "4"
    model.reset_tree()
    assert model.rowCount(QModelIndex()) == 3  # All, Sessions, Trash


def test_audit_model(
    qtbot: Any, qtmodeltester: Any, opened: AppController, demo: DemoReport
) -> None:
    model = AuditTableModel()
    qtmodeltester.check(model, force_py=True)
    history = run(qtbot, browse_ops.load_history(opened.runner, demo.node_ids["some_coriander"]))
    model.set_items(history.audit)
    assert model.rowCount() == len(history.audit) > 2
    model.set_items(history.audit[1:])
    model.set_items(list(reversed(history.audit)))
    assert [model.item_at(i).id for i in range(model.rowCount())] == [  # type: ignore[union-attr]
        e.id for e in reversed(history.audit)
    ]


def test_session_models(qtbot: Any, qtmodeltester: Any, opened: AppController) -> None:
    sessions = SessionListModel()
    qtmodeltester.check(sessions, force_py=True)
    sessions.set_items(run(qtbot, browse_ops.sessions(opened.runner)))
    assert {sessions.item_at(i).session_id for i in range(sessions.rowCount())} == {  # type: ignore[union-attr]
        "s-cooking",
        "s-project",
    }
    messages = MessageListModel(opened.runner)
    qtmodeltester.check(messages, force_py=True)
    wait_task(qtbot, messages.set_session("s-cooking"))
    assert messages.rowCount() > 5
    assert messages.message_at(0).role == "user"  # type: ignore[union-attr]
    summaries = SummaryListModel()
    qtmodeltester.check(summaries, force_py=True)
    summaries.set_items(run(qtbot, browse_ops.summaries(opened.runner, "s-cooking")))
    assert summaries.rowCount() == 2


def test_pending_model(qtbot: Any, qtmodeltester: Any, opened: AppController) -> None:
    model = PendingListModel()
    qtmodeltester.check(model, force_py=True)
    items = run(qtbot, opened.runner.call(opened.runner.memory.pending))
    model.set_items(items)
    assert model.rowCount() == 4
    assert "生活技能 / 做饭 / 饮食偏好" in model.categories()
    model.set_items(items[2:])
    assert model.rowCount() == 2
