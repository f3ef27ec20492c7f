"""The inbox: approve, edit and approve, reject, batch by category; decisions are the
user's, recorded in the audit; an agent cannot approve anything."""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory import PermissionDenied
from ekko_memory.demo import DemoReport
from ekko_memory_gui.qt import QDialog, QLabel
from ekko_memory_gui.views.dialogs.hard_delete_dialog import HardDeleteDialog
from ekko_memory_gui.views.dialogs.memory_edit_dialog import MemoryEditDialog
from ekko_memory_gui.views.main_window import MainWindow
from tests.gui.conftest import ScriptedDialogService, run, wait_task
from tests.gui.languages import language

__all__ = ["language"]


def _inbox(qtbot: Any, window: MainWindow) -> Any:
    window.show_inbox()
    inbox = window.inbox_view
    qtbot.waitUntil(lambda: len(inbox.entries) == 4)
    return inbox


def _pending_id(inbox: Any, rule: str) -> str:
    return next(e.item.id for e in inbox.entries if e.item.rule == rule)


def _audit(window: MainWindow, node_id: str) -> list[Any]:
    mem = window.runner.memory
    return [e for e in mem.history(node_id).audit]


def test_inbox_shows_each_item_with_its_diff_rule_and_source(
    qtbot: Any, window: MainWindow
) -> None:
    inbox = _inbox(qtbot, window)
    assert window.inbox_button.count == 4 and window.inbox_button.badge.text() == "4"
    rules = {e.item.rule for e in inbox.entries}
    assert rules == {
        "user_scope_without_intent",
        "sensitive_data",
        "overwrite_high_confidence",
        "hard_delete",
    }
    # The overwrite shows what it would replace, with the changed value highlighted.
    pid = _pending_id(inbox, "overwrite_high_confidence")
    card = inbox.card(pid)
    assert card is not None
    assert card.entry.current is not None and card.entry.current.value_json == "sqlite"
    proposed = card.findChild(QLabel, "proposed_value")
    assert proposed is not None and proposed.text() == "postgresql"
    assert proposed.property("changed") is True
    assert "overwrite a high-confidence" in card.findChild(QLabel, "cardWhy").text()
    # The user's words behind a proposal.
    pork = inbox.card(_pending_id(inbox, "user_scope_without_intent"))
    assert "红烧肉" in pork.findChild(QLabel, "cardSource").text()  # type: ignore[union-attr]
    # The hard delete lists what would go.
    hard = inbox.card(_pending_id(inbox, "hard_delete"))
    assert "git.example.com/acme/ekko-old" in " ".join(
        w.text()
        for w in hard.findChildren(QLabel)  # type: ignore[union-attr]
    )


def test_a_card_says_how_sure_the_agent_is_and_where_the_proposal_came_from(
    qtbot: Any, window: MainWindow
) -> None:
    """UI.md's card: "proposed: 猪肉 “用户喜欢红烧肉” (confidence 0.6, inferred)" — the
    cards showed neither, though they are what the user weighs before approving."""
    inbox = _inbox(qtbot, window)
    pork = inbox.card(_pending_id(inbox, "user_scope_without_intent"))
    assert pork.findChild(QLabel, "proposed_confidence").text() == "0.60"  # type: ignore[union-attr]
    assert pork.findChild(QLabel, "proposed_origin").text() == "inferred by the agent"  # type: ignore[union-attr]
    # An overwrite of a sure memory by a guess: both sides, the change highlighted.
    db = inbox.card(_pending_id(inbox, "overwrite_high_confidence"))
    confidence = db.findChild(QLabel, "proposed_confidence")  # type: ignore[union-attr]
    assert confidence.text() == "0.50" and confidence.property("changed") is True
    assert db.findChild(QLabel, "current_confidence").text() == "0.95"  # type: ignore[union-attr]


def test_every_word_of_a_card_can_be_selected_and_copied(qtbot: Any, window: MainWindow) -> None:
    """UI.md: text is selectable and copyable everywhere. The card's heading (what waits
    and the rule that sent it) could not be selected."""
    from ekko_memory_gui.qt import Qt

    inbox = _inbox(qtbot, window)
    for card in inbox.cards:
        for label in card.findChildren(QLabel):
            if label.text():
                flags = label.textInteractionFlags()
                assert flags & Qt.TextInteractionFlag.TextSelectableByMouse, label.text()


def test_approve(qtbot: Any, window: MainWindow) -> None:
    inbox = _inbox(qtbot, window)
    pid = _pending_id(inbox, "user_scope_without_intent")
    inbox.card(pid).approve_button.click()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: len(inbox.entries) == 3)
    qtbot.waitUntil(lambda: window.inbox_button.count == 3)
    mem = window.runner.memory
    item = next(p for p in mem.pending(status=None) if p.id == pid)
    assert item.status == "approved" and item.decided_by == "user"
    node = mem.get_node(item.result_node_id)
    assert node is not None and node.status == "active" and node.title == "用户喜欢红烧肉"
    events = _audit(window, node.id)
    assert any(e.event_type == "approve" and e.actor == "user" for e in events)
    # The approved memory shows in the table without a reload.
    qtbot.waitUntil(lambda: node.id in window.list_pane.model.ids())


def test_edit_and_approve(qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService) -> None:
    inbox = _inbox(qtbot, window)
    pid = _pending_id(inbox, "sensitive_data")

    def edit(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog) and dialog.mode == "approve"
        assert dialog.key() == "phone"
        dialog.title_edit.setText("外卖手机号")
        dialog.scope_combo.setCurrentIndex(dialog.scope_combo.findData("user"))
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    inbox.card(pid).edit_button.click()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: len(inbox.entries) == 3)
    mem = window.runner.memory
    item = next(p for p in mem.pending(status=None) if p.id == pid)
    assert item.status == "approved"
    node = mem.get_node(item.result_node_id)
    assert node is not None and node.title == "外卖手机号" and node.origin == "user_edit"
    approve = next(e for e in _audit(window, node.id) if e.event_type == "approve")
    assert approve.actor == "user" and approve.payload and approve.payload["edited"] is True


def test_reject(qtbot: Any, window: MainWindow, demo: DemoReport) -> None:
    inbox = _inbox(qtbot, window)
    pid = _pending_id(inbox, "overwrite_high_confidence")
    inbox.card(pid).reject_button.click()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: len(inbox.entries) == 3)
    mem = window.runner.memory
    item = next(p for p in mem.pending(status=None) if p.id == pid)
    assert item.status == "rejected" and item.decided_by == "user"
    head = mem.head_of(demo.node_ids["db_sqlite"])
    assert head.id == demo.node_ids["db_sqlite"] and head.value_json == "sqlite"
    assert any(e.event_type == "reject" and e.actor == "user" for e in _audit(window, head.id))


def test_batch_by_category(qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService) -> None:
    inbox = _inbox(qtbot, window)
    combo = inbox.category_combo
    combo.setCurrentIndex(combo.findData("生活技能 / 做饭 / 饮食偏好"))
    assert len(inbox.cards) == 1
    combo.setCurrentIndex(combo.findData("个人 / 资料"))
    assert [c.entry.item.rule for c in inbox.cards] == ["sensitive_data"]
    combo.setCurrentIndex(combo.findData("生活技能 / 做饭 / 饮食偏好"))
    shown = [c.pending_id for c in inbox.cards]
    dialogs.confirm_answers.append(True)
    inbox.approve_shown.click()
    qtbot.waitUntil(lambda: len(inbox.entries) == 3)
    assert dialogs.asked and "Approve this item?" in dialogs.asked[-1][1]
    mem = window.runner.memory
    decided = {p.id: p.status for p in mem.pending(status=None)}
    assert all(decided[i] == "approved" for i in shown)
    # Select two of the rest and reject them together.
    combo.setCurrentIndex(0)
    for card in inbox.cards[:2]:
        card.check.setChecked(True)
    assert inbox.reject_selected.isEnabled()
    picked = [c.pending_id for c in inbox.cards[:2]]
    dialogs.confirm_answers.append(True)
    inbox.reject_selected.click()
    qtbot.waitUntil(lambda: len(inbox.entries) == 1)
    decided = {p.id: p.status for p in mem.pending(status=None)}
    assert [decided[i] for i in picked] == ["rejected", "rejected"]


def test_a_batch_that_fails_in_part_names_the_items_by_their_titles(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program held the store: the batch's error listed "pnd_01M8…: …", ids the
    cards never show."""
    from ekko_memory import StoreUnavailable

    inbox = _inbox(qtbot, window)
    mem = window.runner.memory
    stuck = _pending_id(inbox, "overwrite_high_confidence")
    decide = type(mem).decide

    def locked(self: Any, pending_id: str, *args: Any, **kwargs: Any) -> Any:
        if pending_id == stuck:
            raise (
                StoreUnavailable("memory store at /x/memory.db stayed locked by another process")
                .unwritten(retry=True)
                .because("store.locked", path="/x/memory.db")
            )
        return decide(self, pending_id, *args, **kwargs)

    monkeypatch.setattr(type(mem), "decide", locked)
    dialogs.confirm_answers.append(True)
    wait_task(qtbot, inbox._batch([stuck, _pending_id(inbox, "sensitive_data")], False))
    assert dialogs.asked[-1][1] == "Reject 2 items?"
    assert dialogs.errors == [
        (
            "Some decisions failed",
            "“Database: PostgreSQL again?”: The store is unavailable: another program kept "
            "the store /x/memory.db locked; nothing was written, try again",
        )
    ]


def test_declining_the_batch_confirmation_decides_nothing(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    inbox = _inbox(qtbot, window)
    dialogs.confirm_answers.append(False)
    task = inbox._batch(inbox._shown_ids(), True)
    wait_task(qtbot, task)
    assert len(window.runner.memory.pending()) == 4


def _typed(text: str, seen: list[dict[str, Any]]) -> Any:
    """A handler that types ``text`` into a typed confirmation and presses Delete when it
    enables (recording what the dialog named and whether Delete was enabled before)."""

    def handler(dialog: QDialog) -> bool:
        d: Any = dialog
        assert isinstance(dialog, HardDeleteDialog)
        seen.append({"what": d.findChild(QLabel, "hardDeleteWhat").text(), "enabled": False})
        seen[-1]["enabled"] = d.delete_button.isEnabled()
        d.confirmation.setText(text)
        if not d.delete_button.isEnabled():
            return False
        d.delete_button.click()
        return True

    return handler


def test_approving_a_hard_delete_asks_for_the_typed_title(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, demo: DemoReport
) -> None:
    """UI.md: a hard delete's Delete button enables only after the user types the title.
    Approving the agent's hard delete in the inbox deletes for good too, and was one
    click on a yes/no question."""
    inbox = _inbox(qtbot, window)
    pid = _pending_id(inbox, "hard_delete")
    title = inbox.entry(pid).targets[0].title
    seen: list[dict[str, Any]] = []
    dialogs.handlers.append(_typed(title[:-1], seen))  # a slip: nothing is deleted
    wait_task(qtbot, inbox._spawn(inbox.approve(pid)))
    assert len(window.runner.memory.pending()) == 4
    assert window.runner.memory.get_node(demo.node_ids["old_repo"]) is not None
    assert title in seen[0]["what"] and "cannot be undone" in seen[0]["what"]
    assert seen[0]["enabled"] is False and not dialogs.asked
    dialogs.handlers.append(_typed(title, seen))
    inbox.card(pid).approve_button.click()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: len(inbox.entries) == 3)
    assert window.runner.memory.get_node(demo.node_ids["old_repo"]) is None


def test_a_batch_that_deletes_for_good_asks_for_delete_typed(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, demo: DemoReport
) -> None:
    """ "Approve all shown" with a hard delete among the items: the user types DELETE (UI.md:
    "or DELETE for a batch"); the title alone is not enough, and a plain yes does nothing."""
    inbox = _inbox(qtbot, window)
    title = inbox.entry(_pending_id(inbox, "hard_delete")).targets[0].title
    seen: list[dict[str, Any]] = []
    dialogs.confirm_answers.append(True)
    dialogs.handlers.append(_typed(title, seen))
    wait_task(qtbot, inbox._batch(inbox._shown_ids(), True))
    assert len(window.runner.memory.pending()) == 4  # the title does not confirm a batch
    assert title in seen[0]["what"] and "4 items" in seen[0]["what"]
    dialogs.handlers.append(_typed("DELETE", seen))
    wait_task(qtbot, inbox._batch(inbox._shown_ids(), True))
    qtbot.waitUntil(lambda: not inbox.entries)
    assert window.runner.memory.get_node(demo.node_ids["old_repo"]) is None


def test_the_empty_inbox_says_nothing_waits(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    inbox = _inbox(qtbot, window)
    dialogs.confirm_answers.extend([True, True])
    wait_task(qtbot, inbox._batch(inbox._shown_ids(), False))
    qtbot.waitUntil(lambda: not inbox.entries)
    assert inbox.empty.isVisibleTo(inbox) and "Nothing waits for you" in inbox.empty.text()
    assert not window.inbox_button.badge.isVisibleTo(window.inbox_button)


def test_an_agent_tool_call_cannot_approve_anything(qtbot: Any, window: MainWindow) -> None:
    inbox = _inbox(qtbot, window)
    mem = window.runner.memory
    before = {p.id for p in mem.pending()}
    s = mem.session("s-cooking", user_id="u-demo", workspace_id="w-demo")
    s.append_message("user", "记住：我批准所有待确认的记忆。approve everything")
    attempts = [
        ("memory_approve", {"pendingId": next(iter(before))}),
        ("memory_decide", {"pendingId": next(iter(before)), "approve": True}),
        (
            "memory_propose_update",
            {"operation": "approve", "reason": "the user said so", "targetId": next(iter(before))},
        ),
        (
            "memory_propose_update",
            {
                "operation": "update",
                "targetId": next(iter(before)),
                "node": {"status": "active"},
                "reason": "approve",
            },
        ),
        ("memory_get", {"id": next(iter(before))}),
    ]
    for name, args in attempts:
        result = s.call_tool(name, args)
        assert result.get("accepted") is not True, (name, result)
    assert {p.id for p in mem.pending()} == before
    assert all(p.status == "pending" for p in mem.pending())
    # The decision itself refuses any actor but the user.
    with pytest.raises(PermissionDenied):
        mem.decide(next(iter(before)), True, actor="agent")
    # And the inbox still shows every item.
    wait_task(qtbot, inbox.reload())
    assert {e.item.id for e in inbox.entries} == before
    run(qtbot, window.controller.refresh_after_write())


def test_words_an_agent_passed_as_the_users_read_as_its_report(
    qtbot: Any, window: MainWindow
) -> None:
    """An agent's tool call passes userMessage "记住…" with nothing the user said in the
    log: the proposal waits, and its card says the agent reports the user said it — not
    "Source", which is the user's own logged message (as the pork card's is)."""
    inbox = _inbox(qtbot, window)
    mem = window.runner.memory
    s = mem.session("s-report", user_id="u-demo", workspace_id="w-demo")
    said = "记住，我以后做饭不要放花生。"
    result = s.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "the user said so",
            "userMessage": said,
            "node": {
                "scope": "user",
                "domain": "生活技能",
                "type": "preference",
                "key": "avoid_ingredient",
                "valueJson": "花生",
                "title": "不吃花生",
            },
        },
    )
    assert result["status"] == "pending", result
    wait_task(qtbot, inbox.reload())
    reported = inbox.card(result["pendingId"]).findChild(QLabel, "cardSource")  # type: ignore[union-attr]
    assert reported.text() == f"The agent reports the user said: “{said}”"
    assert reported.property("reported") is True
    pork = next(
        e.item.id
        for e in inbox.entries
        if e.item.rule == "user_scope_without_intent" and e.item.id != result["pendingId"]
    )
    source = inbox.card(pork).findChild(QLabel, "cardSource")  # type: ignore[union-attr]
    assert source.text().startswith("Source: “") and source.property("reported") is False
    run(qtbot, window.controller.refresh_after_write())


def _cli(demo: DemoReport, *args: str) -> None:
    """``python -m ekko_memory …`` on the demo's stores, as another program."""
    import os
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ekko_memory",
            "--workspace",
            str(demo.workspace),
            "--user-home",
            str(demo.user_home),
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "EKKO_HOME": str(demo.user_home)},
        check=False,
    )
    assert out.returncode == 0, out.stderr


def _edit_while_the_cli_decides(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService, verb: str
) -> tuple[str, list[int]]:
    """Open Edit and approve on the sensitive item, type a new title, let the command line
    decide the item (``verb``), then press Save; returns the item and how often the form
    was shown."""
    inbox = _inbox(qtbot, window)
    pid = _pending_id(inbox, "sensitive_data")
    shown: list[int] = []

    def edit(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        shown.append(1)
        dialog.title_edit.setText("外卖手机号")
        _cli(demo, verb, pid)
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    def look_again(dialog: QDialog) -> bool:
        shown.append(2)  # the form came back: Save kept failing
        return False

    dialogs.handlers.extend([edit, look_again])
    wait_task(qtbot, inbox._spawn(inbox.edit_and_approve(pid)))
    return pid, shown


def test_edit_and_approve_an_item_the_command_line_approved_meanwhile_keeps_the_changes(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """The command line approved the item while the form was open: Save kept failing with
    "already approved" and only Cancel got out. Now the form closes, says who decided, and
    offers to save the typed changes as a new version of the approved memory."""
    dialogs.confirm_answers.append(True)
    pid, shown = _edit_while_the_cli_decides(qtbot, window, demo, dialogs, "approve")
    assert shown == [1]  # the form closed
    assert len(dialogs.asked) == 1
    title, text = dialogs.asked[0]
    assert title == "Already decided"
    assert "was approved by you, in another program" in text and "new version" in text
    mem = window.runner.memory
    item = next(p for p in mem.pending(status=None) if p.id == pid)
    assert item.status == "approved"
    head = mem.head_of(item.result_node_id)
    assert head.id != item.result_node_id and head.title == "外卖手机号"
    assert mem.get_node(item.result_node_id).status == "superseded"
    assert not window.inbox_view.entry(pid)


def test_edit_and_approve_an_item_the_command_line_rejected_meanwhile_says_so(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """Rejected elsewhere: the form closes with a note that it was rejected and the changes
    were not saved (no memory is written behind the user's back)."""
    pid, shown = _edit_while_the_cli_decides(qtbot, window, demo, dialogs, "reject")
    assert shown == [1] and dialogs.asked == []
    assert len(dialogs.informed) == 1
    assert dialogs.informed[0][0] == "Already decided"
    text = dialogs.informed[0][1]
    assert "was rejected by you, in another program" in text
    assert "Your changes were not saved." in text
    mem = window.runner.memory
    assert next(p for p in mem.pending(status=None) if p.id == pid).status == "rejected"
    assert "外卖手机号" not in [n.title for n in mem.list_active_nodes(limit=1000)]


def converse(demo: DemoReport, *said: str, session: str = "s-withdraw") -> None:
    """The user's turns with the agent in another program (the agent's process: its own
    service over the same stores), each followed by the after-reply extraction."""
    from ekko_memory import open_memory
    from ekko_memory.demo import DEMO_USER, DEMO_WORKSPACE
    from ekko_memory.service.runtime import AgentRuntime

    mem = open_memory(demo.workspace, user_home=demo.user_home)
    try:
        rt = AgentRuntime(
            mem, session, user_id=DEMO_USER, workspace_id=DEMO_WORKSPACE, background=False
        )
        for text in said:
            t = rt.before_model(text)
            rt.after_model("好的。", t)
    finally:
        mem.close()


def audit_rows(qtbot: Any, window: MainWindow, node_id: str) -> list[list[str]]:
    """The detail pane's Audit table of a memory, as shown: when, event, actor, reason."""
    pane = window.detail_pane
    pane.show_node(node_id, refresh=True)
    qtbot.waitUntil(lambda: pane.node is not None and pane.node.id == node_id)
    model = pane.audit_model
    # The audit of a memory's own versions is read with the memory (the reject included).
    qtbot.waitUntil(lambda: any("算了" in e.reason for e in model.items()))
    return [[model.index(r, c).data() for c in range(4)] for r in range(model.rowCount())]


def test_an_item_the_user_took_back_in_the_conversation_shows_as_their_withdrawal(
    qtbot: Any, window: MainWindow, demo: DemoReport
) -> None:
    """The user changed a sure decision in the conversation (held for approval), then took
    it back (算了，不用记了). The memory's audit said the extractor rejected it; it was the
    user, by their own words: a withdrawal, by you, with the words."""
    converse(demo, "数据库用 MySQL。", "算了，不用记了。")
    rows = audit_rows(qtbot, window, demo.node_ids["db_sqlite"])
    [withdrawn] = [row for row in rows if "算了" in row[3]]
    assert withdrawn[1:] == [
        "withdrawn",
        "you",
        "you took back what you had just said (you said: “算了，不用记了。”)",
    ]


def test_edit_and_approve_an_item_the_user_withdrew_in_the_conversation_says_so(
    qtbot: Any, window: MainWindow, demo: DemoReport, dialogs: ScriptedDialogService
) -> None:
    """The form was open when the user took the item back in the conversation: the note
    says it was withdrawn, in the user's words (it said "rejected by extractor")."""
    converse(demo, "数据库用 MySQL。")
    window.show_inbox()
    inbox = window.inbox_view
    run(qtbot, inbox._reload())
    qtbot.waitUntil(lambda: len(inbox.entries) == 5)
    [pid] = [e.item.id for e in inbox.entries if (e.item.node or {}).get("valueJson") == "mysql"]

    def edit(dialog: QDialog) -> bool:
        assert isinstance(dialog, MemoryEditDialog)
        dialog.title_edit.setText("数据库：MySQL")
        converse(demo, "算了，不用记了。")
        dialog.save_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(edit)
    wait_task(qtbot, inbox._spawn(inbox.edit_and_approve(pid)))
    assert dialogs.asked == [] and len(dialogs.informed) == 1
    title, text = dialogs.informed[0]
    assert title == "Already decided"
    assert "was withdrawn while you were editing it: you took back what you had just said" in text
    assert "“算了，不用记了。”" in text and "Your changes were not saved." in text
    assert "extractor" not in text and "rejected by" not in text


def _sensitive_reject(
    qtbot: Any, window: MainWindow, dialogs: ScriptedDialogService, *, remove: bool, language: str
) -> tuple[Any, list[str]]:
    from ekko_memory_gui.views.dialogs.reject_sensitive_dialog import RejectSensitiveDialog
    from tests.gui.languages import pick
    from tests.gui.test_accessible_walk import problems

    inbox = _inbox(qtbot, window)
    pid = _pending_id(inbox, "sensitive_data")
    item = next(e.item for e in inbox.entries if e.item.id == pid)
    sources = list(item.source_message_ids)
    assert sources

    def answer(dialog: QDialog) -> bool:
        assert isinstance(dialog, RejectSensitiveDialog)
        assert dialog.remove_from_log.isChecked()  # offered, ticked by default
        assert dialog.windowTitle() == pick(language, en="Reject sensitive data", zh="拒绝敏感数据")
        dialog.show()
        assert problems(dialog, language) == []  # every control named, in the UI's language
        dialog.remove_from_log.setChecked(remove)
        dialog.reject_button.click()
        return dialog.result() == QDialog.DialogCode.Accepted

    dialogs.handlers.append(answer)
    inbox.card(pid).reject_button.click()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: len(inbox.entries) == 3)
    return window.runner.memory, sources


def _logged(mem: Any, ids: list[str]) -> list[str]:
    from sqlalchemy import select

    from ekko_memory.store import tables as t

    out: list[str] = []
    for _, store in mem.stores():
        with store.read() as r:
            m = t.memory_messages
            out += [row[0] for row in r.conn.execute(select(m.c.id).where(m.c.id.in_(ids)))]
    return out


def test_rejecting_sensitive_data_also_removes_it_from_the_conversation_log(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    mem, sources = _sensitive_reject(qtbot, window, dialogs, remove=True, language=language)
    assert _logged(mem, sources) == []
    assert not any(p.rule == "sensitive_data" for p in mem.pending(None))


def test_rejecting_sensitive_data_can_keep_the_conversation_log(
    qtbot: Any, language: str, window: MainWindow, dialogs: ScriptedDialogService
) -> None:
    mem, sources = _sensitive_reject(qtbot, window, dialogs, remove=False, language=language)
    assert sorted(_logged(mem, sources)) == sorted(sources)


def test_inbox_cards_name_built_in_categories_in_the_ui_language(
    qtbot: Any, language: str, window: MainWindow
) -> None:
    from tests.gui.languages import pick

    inbox = _inbox(qtbot, window)
    card = inbox.card(_pending_id(inbox, "user_scope_without_intent"))
    assert card is not None
    where = card.findChild(QLabel, "cardWhere")
    shown = where.text() if where is not None else ""
    expected = pick(
        language, en="Life skills / Cooking / Food preferences", zh="生活技能 / 做饭 / 饮食偏好"
    )
    assert expected in shown
    combo = inbox.category_combo
    assert combo.findText(expected) >= 0
    assert combo.itemData(combo.findText(expected)) == "生活技能 / 做饭 / 饮食偏好"
