"""Live refresh: what another process (the agent) writes shows up without a restart and
without reloading everything."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from ekko_memory.demo import DemoReport
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import titles

AGENT = textwrap.dedent(
    """
    import sys
    from ekko_memory import open_memory

    workspace, home, text = sys.argv[1], sys.argv[2], sys.argv[3]
    mem = open_memory(workspace, user_home=home)
    s = mem.session("s-agent", user_id="u-demo", workspace_id="w-demo")
    s.append_message("user", text)
    result = s.call_tool("memory_propose_update", {
        "operation": "create",
        "node": {
            "scope": "user", "domain": "生活技能", "categoryPath": ["生活技能", "做饭", "饮食偏好"],
            "type": "preference", "key": "avoid_ingredient", "valueJson": "芹菜",
            "title": "用户不吃芹菜", "content": "做饭不要放芹菜。", "confidence": 0.9, "importance": 0.8,
        },
        "reason": "the user asked to remember",
    })
    assert result["accepted"], result
    print(result["nodeId"])
    mem.close()
    """
)


def _another_program(demo: DemoReport, script: str, *args: str) -> str:
    """Run ``script`` in another Python process on the demo's stores (``sys.argv[1:3]``:
    workspace, user home; then ``args``); what it printed."""
    out = subprocess.run(
        [sys.executable, "-c", script, str(demo.workspace), str(demo.user_home), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def _agent_writes(demo: DemoReport, text: str) -> str:
    return _another_program(demo, AGENT, text).strip().splitlines()[-1]


def test_a_write_from_another_process_appears(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    model = window.list_pane.model
    before = set(model.ids())
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    pane = window.category_pane
    idx = pane.model.index_for_key("domain/生活技能")
    count_before = int(idx.siblingAtColumn(1).data())

    node_id = _agent_writes(demo, "记住，我不吃芹菜。")

    # The watcher polls every 500 ms (bench and docs speak of timing; the test allows slack).
    qtbot.waitUntil(lambda: node_id in model.ids(), timeout=10000)
    assert "用户不吃芹菜" in titles(window)
    assert before <= set(model.ids())  # nothing was lost
    assert model.row_of(node_id) == 0  # the newest on top
    assert resets == []  # rows were inserted, the table was not reloaded
    qtbot.waitUntil(
        lambda: (
            int(pane.model.index_for_key("domain/生活技能").siblingAtColumn(1).data())
            == count_before + 1
        ),
        timeout=10000,
    )
    # The new message shows in the sessions list too.
    qtbot.waitUntil(
        lambda: window.sessions_view.sessions_model.row_of("s-agent") >= 0, timeout=10000
    )


def test_a_change_to_the_shown_memory_updates_the_detail_pane(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    model = window.list_pane.model
    target = demo.node_ids["no_scallion"]
    window.list_pane.select_id(target)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == target)
    script = textwrap.dedent(
        """
        import sys
        from ekko_memory import open_memory
        mem = open_memory(sys.argv[1], user_home=sys.argv[2])
        mem.actions.expire(sys.argv[3], reason="not any more")
        mem.close()
        """
    )
    _another_program(demo, script, target)
    # The expired memory leaves the active list, and the pane shows its new status and audit.
    qtbot.waitUntil(lambda: target not in model.ids(), timeout=10000)
    qtbot.waitUntil(
        lambda: detail.node is not None and detail.node.status == "expired", timeout=10000
    )
    assert "expire" in [e.event_type for e in detail.audit_model.items()]
    # No row took its place as the selection (Enter or Del would act on it).
    assert window.list_pane.selected_id() is None


def test_the_shown_memory_deleted_for_good_by_another_process(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    """The CLI deletes for good the memory the app shows: its row goes, the pane empties
    (no other row is selected in its place), and no "Not found" error is reported for the
    reload of a memory that no longer exists."""
    model = window.list_pane.model
    target = demo.node_ids["no_scallion"]
    window.list_pane.select_id(target)
    detail = window.detail_pane
    qtbot.waitUntil(lambda: detail.node is not None and detail.node.id == target)
    runner = window.controller.runner
    failed: list[tuple[str, str]] = []
    runner.failed.connect(lambda what, text: failed.append((what, text)))
    script = textwrap.dedent(
        """
        import sys
        from ekko_memory import open_memory
        mem = open_memory(sys.argv[1], user_home=sys.argv[2])
        assert mem.delete_node(node_id=sys.argv[3], mode="hard", reason="gone")
        mem.close()
        """
    )
    _another_program(demo, script, target)
    qtbot.waitUntil(lambda: target not in model.ids(), timeout=10000)
    qtbot.waitUntil(lambda: runner.pending_tasks == 0, timeout=10000)
    assert failed == []
    assert window.list_pane.selected_id() is None
    qtbot.waitUntil(lambda: detail.node_id is None, timeout=5000)


BULK_THEN_DELETE = textwrap.dedent(
    """
    import sys
    from ekko_memory import open_memory
    from ekko_memory.ids import new_id
    from ekko_memory.models import MemoryNode
    from ekko_memory.store.chain_writes import delete_in
    from ekko_memory.timeutil import utcnow

    mem = open_memory(sys.argv[1], user_home=sys.argv[2])
    target, name = mem.locate(sys.argv[3])
    store = mem.workspace_store if name == "workspace" else mem.user_store
    # One transaction, as a bulk write by another program: 1,100 new memories, then the
    # shown one deleted (its event is the newest).
    with store.write() as w:
        nodes = [
            MemoryNode.model_validate({
                "id": new_id("mem"), "scope": target.scope, "user_id": target.user_id,
                "workspace_id": target.workspace_id, "domain": "工作",
                "category_path": ["工作", "批量"], "type": "fact", "title": f"批量 {i}",
                "content": "x", "status": "active", "confidence": 0.8, "importance": 0.5,
                "created_at": utcnow(), "updated_at": utcnow(),
            })
            for i in range(1100)
        ]
        w.insert_nodes(nodes)
        for n in nodes:
            w.add_audit("create", actor="user", reason="bulk", node=n, payload={})
        delete_in(w, target, mode="soft", actor="user", reason="no longer true")
    mem.close()
    """
)


def test_a_change_after_a_bulk_write_of_another_process_still_appears(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    """Another program writes more than a page of audit events between two looks of the
    watcher (a bulk write, a burst) and deletes a listed memory after them: the deletion
    shows. (The watcher read the oldest thousand events only: the rest, the deletion
    among them, were never seen, and a window full of seen events stayed stuck.)"""
    model = window.list_pane.model
    target = demo.node_ids["no_scallion"]
    assert target in model.ids()
    _another_program(demo, BULK_THEN_DELETE, target)
    qtbot.waitUntil(lambda: target not in model.ids(), timeout=10000)
