"""The user takes back, in the conversation, a memory that still waits for approval: the
inbox no longer offers it (rejected, audited with the reason), and nothing else changes."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from ekko_memory.errors import Conflict
from ekko_memory.models import PendingItem
from ekko_memory.service.runtime import AgentRuntime
from tests.core.helpers import COOKING


def turn(rt: AgentRuntime, user: str, reply: str = "好的。") -> None:
    t = rt.before_model(user)
    rt.after_model(reply, t)


def waiting(mem: MemoryService) -> dict[object, PendingItem]:
    """Items waiting for the user, by the value they propose."""
    return {(i.node or {}).get("valueJson"): i for i in mem.pending()}


def every_item(mem: MemoryService) -> list[PendingItem]:
    return mem.pending(status=None)


def withdrawn_audit(mem: MemoryService, item: PendingItem) -> list[tuple[str, str]]:
    """The (actor, reason) of the reject events recorded for ``item``."""
    events = []
    for _, store in mem.stores():
        with store.read() as r:
            events += [
                (e.actor, e.reason)
                for e in r.audit_since(None, limit=10_000)
                if e.event_type == "reject" and (e.payload or {}).get("pendingId") == item.id
            ]
    return events


def assert_withdrawn(mem: MemoryService, item: PendingItem, words: str) -> None:
    [after] = [i for i in every_item(mem) if i.id == item.id]
    assert after.status == "rejected", after
    assert after.decision_note is not None and words in after.decision_note
    # The user withdrew it, by their own words: their decision, not the extractor's.
    assert after.decided_by == "user", after
    [(actor, reason)] = withdrawn_audit(mem, item)
    assert actor == "user"
    assert "the user" in reason and words in reason
    # Nothing the user withdrew can be approved later.
    with pytest.raises(Conflict):
        mem.decide(item.id, approve=True, actor="user")
    assert not [n for n in mem.user_store.list_active_nodes(limit=50) if n.value_json == "葱"]


@pytest.mark.parametrize(
    ("said", "retraction", "words"),
    [
        ("我不吃葱。", "其实我现在可以吃葱了。", "no longer avoids"),
        ("我不吃葱。", "算了，不用记了。", "took back what they had just said"),
        ("我不吃葱。", "葱的事忘掉吧。", "asked to forget"),
        ("I don't eat scallions.", "Actually I can eat scallions now.", "no longer avoids"),
        ("I don't eat scallions.", "Forget what I said about scallions.", "asked to forget"),
        ("I don't eat scallions.", "Scratch that, don't remember it.", "took back"),
    ],
)
def test_a_retraction_withdraws_the_pending_item_it_takes_back(
    mem: MemoryService, said: str, retraction: str, words: str
) -> None:
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "我挺喜欢吃牛肉的。")  # unrelated, also waiting
    turn(rt, said)
    held = waiting(mem)
    assert set(held) == {"牛肉", "葱"}, held
    scallions = held["葱"]
    assert scallions.rule == "user_scope_without_intent"

    turn(rt, retraction, "好的。")

    assert set(waiting(mem)) == {"牛肉"}  # gone from the inbox; the unrelated one stays
    assert_withdrawn(mem, scallions, words)
    assert retraction.rstrip("。.") in (scallions_note := _note(mem, scallions)), scallions_note


def test_a_take_back_late_in_a_long_conversation_reaches_what_was_just_said(
    mem: MemoryService,
) -> None:
    """ "算了，不用记了" after 1 200 earlier messages takes back the message just before it,
    not one among the conversation's first thousand."""
    from datetime import timedelta

    from ekko_memory.service.extraction.pipeline import EXTRACT, SUMMARIZE
    from tests.core.factories import make_message

    start = mem.now() - timedelta(days=1)
    said = [
        make_message("s1", "user" if i % 2 == 0 else "assistant", f"闲聊 {i}", at=start)
        for i in range(1_200)
    ]
    for i, m in enumerate(said):
        m.created_at = start + timedelta(seconds=i)
    with mem.workspace_store.write() as w:
        for m in said:
            w.insert_message(m)
        # Read and summarized long ago: the next runs start after them.
        for kind in (EXTRACT, SUMMARIZE):
            w.set_cursor("s1", kind, said[-1], mem.now())
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "我不吃葱。")
    scallions = waiting(mem)["葱"]
    turn(rt, "算了，不用记了。")
    assert "葱" not in waiting(mem)
    assert_withdrawn(mem, scallions, "took back what they had just said")


def _note(mem: MemoryService, item: PendingItem) -> str:
    [after] = [i for i in every_item(mem) if i.id == item.id]
    return after.decision_note or ""


def test_an_agent_s_proposal_is_withdrawn_with_the_extractor_s(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    t = rt.before_model("我不吃葱。")
    proposed = rt.session.call_tool(
        "memory_propose_update",
        {
            "operation": "create",
            "reason": "the user does not eat scallions",
            "node": {
                "scope": "user",
                "domain": "生活技能",
                "categoryPath": COOKING,
                "type": "preference",
                "key": "avoid_ingredient",
                "valueJson": "葱",
                "title": "不吃葱",
            },
        },
    )
    assert proposed["accepted"] is False and proposed["pendingId"], proposed
    rt.after_model("好的，不放葱。", t)
    held = [i for i in mem.pending() if (i.node or {}).get("valueJson") == "葱"]
    assert {i.requester for i in held} == {"agent", "extractor"}, held

    turn(rt, "其实我现在可以吃葱了")

    assert mem.pending() == []
    for item in held:
        assert_withdrawn(mem, item, "no longer avoids")


def test_a_retraction_leaves_what_it_does_not_name(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "我不吃葱。")
    turn(rt, "我挺喜欢吃牛肉的。")
    before = {i.id: i.status for i in every_item(mem)}
    # Another ingredient, and a bare take-back of a message that proposed nothing of these.
    turn(rt, "Forget what I said about garlic.")
    turn(rt, "其实我现在可以吃香菜了。")
    turn(rt, "今天天气不错。")
    turn(rt, "算了，不用记了。")
    assert {i.id: i.status for i in every_item(mem)} == before
    assert set(waiting(mem)) == {"葱", "牛肉"}
    # In another conversation, a bare take-back reaches nothing of this one; words that name
    # what waits take it back wherever it was said (the user's, not a conversation's).
    other = AgentRuntime(mem, "s2", user_id="u1", workspace_id="w1", background=False)
    turn(other, "算了，不用记了。")
    assert set(waiting(mem)) == {"葱", "牛肉"}
    turn(other, "Forget what I said about scallions.")
    assert set(waiting(mem)) == {"牛肉"}


@pytest.mark.parametrize(
    "reminder",
    [
        "别忘了我不吃葱。",
        "不要忘记我说过我不吃葱。",
        "Don't forget that I don't eat scallions.",
        "Never forget that!",
        "I always forget to buy scallions.",
    ],
)
def test_a_reminder_to_keep_it_withdraws_nothing(mem: MemoryService, reminder: str) -> None:
    """Asking to keep it in mind (别忘了, don't forget) or saying one forgets things is not a
    retraction: the item waiting for approval stays."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "我不吃葱。")
    [item] = [i for i in mem.pending() if (i.node or {}).get("valueJson") == "葱"]
    turn(rt, reminder)
    assert item.id in {i.id for i in mem.pending()}


def test_a_take_back_of_a_remembered_statement_stops_it_without_asking(
    mem: MemoryService,
) -> None:
    """记住，我不吃葱 then 算了，不用记了: the memory the user just asked for stops at once (the
    user's own words take it back: nothing waits), and no opposite memory is written."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "记住，我不吃葱。")  # remembered at once: nothing waits
    [scallions] = [n for n in mem.user_store.list_active_nodes(limit=50) if n.value_json == "葱"]
    assert every_item(mem) == []
    turn(rt, "算了，不用记了。")
    assert mem.get_node(scallions.id).status == "expired"  # type: ignore[union-attr]
    turn(rt, "Forget what I said about scallions.")
    assert every_item(mem) == []
    assert [n for _, st in mem.stores() for n in st.list_active_nodes(limit=50)] == []


def test_a_retraction_does_not_withdraw_what_is_said_again_after_it(mem: MemoryService) -> None:
    """Taking back and saying it again in one batch: the item holds the later statement."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, "我不吃葱。")
    [first] = mem.pending()
    rt.session.append_message("user", "其实我现在可以吃葱了。")
    rt.session.append_message("user", "不对，我还是不吃葱。")
    rt.session.after_reply()
    assert [i.id for i in mem.pending()] == [first.id]
    assert [i.status for i in every_item(mem)] == ["pending"]


def _pending_of(mem: MemoryService, type_: str) -> PendingItem:
    [item] = [i for i in mem.pending() if (i.node or {}).get("type") == type_]
    return item


@pytest.mark.parametrize(
    ("remembered", "said", "retraction", "words"),
    [
        ("记住，数据库用 PostgreSQL。", "数据库用 MySQL。", "算了，不用记了。", "took back what"),
        ("记住，数据库用 PostgreSQL。", "数据库用 MySQL。", "MySQL 的事忘掉吧。", "forget"),
        ("记住，数据库用 PostgreSQL。", "数据库用 MySQL。", "其实我们不用 MySQL 了。", "MySQL"),
        (
            "Remember: we use PostgreSQL for the database.",
            "We use MySQL for the database.",
            "Forget what I said about MySQL.",
            "forget",
        ),
        (
            "Remember: we use PostgreSQL for the database.",
            "We use MySQL for the database.",
            "We stopped using MySQL.",
            "no longer uses MySQL",
        ),
    ],
)
def test_a_retraction_withdraws_a_pending_project_decision(
    mem: MemoryService, remembered: str, said: str, retraction: str, words: str
) -> None:
    """A change of a sure project decision waits for the user (overwrite of a
    high-confidence memory); taking it back withdraws it, as the user's decision, and the
    decision it would have replaced stays."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, remembered)
    turn(rt, said)
    item = _pending_of(mem, "decision")
    assert item.operation == "supersede" and item.rule == "overwrite_high_confidence", item

    turn(rt, retraction)

    assert mem.pending() == []
    assert_withdrawn(mem, item, words)
    [kept] = [n for n in mem.list_active_nodes(limit=50) if n.type == "decision"]
    assert kept.value_json == "postgresql"


@pytest.mark.parametrize(
    ("said", "retraction", "words"),
    [
        ("接下来要给 13812345678 回电话。", "算了，不用记了。", "took back what"),
        ("接下来要给 13812345678 回电话。", "给 13812345678 回电话的事做完了。", "task is done"),
        ("接下来要去医院复查血压。", "算了，不用记了。", "took back what"),
        ("TODO: call back 13812345678.", "Scratch that.", "took back what"),
    ],
)
def test_a_retraction_withdraws_a_pending_task(
    mem: MemoryService, said: str, retraction: str, words: str
) -> None:
    """A task holding sensitive data waits for the user; taking it back (or saying it is
    done) withdraws it, as the user's decision, and no task is written."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    turn(rt, said)
    item = _pending_of(mem, "task")
    assert item.rule == "sensitive_data", item

    turn(rt, retraction)

    assert mem.pending() == []
    assert_withdrawn(mem, item, words)
    assert [n for n in mem.list_active_nodes(limit=50) if n.type == "task"] == []
