"""Forget everything about a word or a selection, delete all, and reject sensitive data
together with the conversation text it came in: a plain preview (memories with their
versions, messages, summaries), then the purge it describes, which leaves none of it in
the stores, the search index or the files' bytes."""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory import (
    BrowseFilter,
    Conflict,
    ForgetPreview,
    InvalidInput,
    MemoryService,
    NotFound,
)
from tests.core.factories import make_summary
from tests.core.helpers import every_node, propose
from tests.core.helpers import raw_bytes as raw
from tests.core.sample_data import dump, seed

CILANTRO_BYTES = "香菜".encode()
LIVE_SCOPES = ["session", "workspace", "user"]


def _messages(mem: MemoryService, session_id: str = "s1") -> list[str]:
    return [m.content for m in mem.list_recent_messages(session_id, 100)]


def _nothing_changed_by(mem: MemoryService, preview: Any) -> None:
    before = (dump(mem.workspace_store), dump(mem.user_store))
    preview()
    assert (dump(mem.workspace_store), dump(mem.user_store)) == before


def test_forget_everything_about_a_chinese_word(mem: MemoryService) -> None:
    sample = seed(mem)
    # A second version of the memory: both versions go, counted as one memory.
    edited = mem.actions.edit(sample.cilantro, {"content": "用户不吃香菜，做饭都不要放。"})
    assert edited.node_id is not None
    assert CILANTRO_BYTES in raw(mem)
    _nothing_changed_by(mem, lambda: mem.preview_forget_about("香菜"))
    preview = mem.preview_forget_about("香菜")
    # 2 messages say 香菜 (the user's request, the reply), 1 summary quotes it.
    assert preview.counts() == {"memories": 1, "versions": 2, "messages": 2, "summaries": 1}
    assert preview.kind == "word" and preview.word == "香菜" and preview.token
    assert preview.titles == ["用户不吃香菜"]
    kept = [m for m in _messages(mem) if "香菜" not in m]

    result = mem.forget_previewed(preview)
    assert (result.memories, result.versions, result.messages, result.summaries) == (1, 2, 2, 1)
    verification = result.report.verification
    assert verification is not None and verification.clean, verification
    assert mem.get_node(sample.cilantro) is None and mem.get_node(edited.node_id) is None
    assert mem.browse.search(BrowseFilter(text="香菜", statuses=None, scopes=LIVE_SCOPES)) == []
    assert _messages(mem) == kept  # the other messages stay
    with mem.workspace_store.read() as r:
        summary = r.list_summaries("s1")[0]
        assert r.text_occurrences("香菜") == {}
    assert summary.stale and summary.summary == ""
    with mem.user_store.read() as r:
        assert r.text_occurrences("香菜") == {}
    assert CILANTRO_BYTES not in raw(mem)
    # What is not about 香菜 is all there.
    assert mem.get_node(sample.spicy_new) is not None
    assert mem.get_node(sample.database) is not None


def test_a_latin_word_is_forgotten_whole_and_in_any_case(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    for text in ("Please use less SALT in soups.", "Salty chips are fine.", "I like basalt."):
        s.append_message("user", text)
    for title in ("Less salt in soups", "Salty snacks are fine", "Salt-free bread"):
        created = mem.actions.create(
            {
                "scope": "user",
                "domain": "生活技能",
                "categoryPath": ["生活技能", "做饭"],
                "type": "preference",
                "title": title,
            },
            user_id="u1",
        )
        assert created.accepted, created
    preview = mem.preview_forget_about("salt")
    # "Salt-free" holds the word whole (a hyphen ends it); "Salty" and "basalt" do not.
    assert sorted(preview.titles) == ["Less salt in soups", "Salt-free bread"]
    assert preview.counts() == {"memories": 2, "versions": 2, "messages": 1, "summaries": 0}
    assert mem.preview_forget_about("SALT").counts() == preview.counts()
    result = mem.forget_previewed(preview)
    assert result.report.verification is not None and result.report.verification.clean
    assert _messages(mem) == ["Salty chips are fine.", "I like basalt."]
    assert [n.title for n in every_node(mem) if n.scope == "user"] == ["Salty snacks are fine"]


def test_forget_a_selection_with_the_messages_it_came_from(mem: MemoryService) -> None:
    sample = seed(mem)
    preview = mem.preview_forget_about(node_ids=[sample.database, sample.spicy_new])
    # 少辣 superseded 喜欢吃辣: both versions of that memory go.
    assert preview.kind == "selection"
    assert preview.counts() == {"memories": 2, "versions": 3, "messages": 3, "summaries": 1}
    result = mem.forget_previewed(preview)
    assert result.versions == 3 and result.messages == 3
    for gone in (sample.database, sample.spicy_new, sample.spicy_old):
        assert mem.get_node(gone) is None
    assert _messages(mem) == [
        "记住，我以后做饭不要香菜。",
        "记住，我不吃葱",
        "我昨天做了红烧肉，挺好吃的。",
        "推荐番茄炒蛋，不放香菜，少辣。",
    ]
    assert mem.get_node(sample.cilantro) is not None
    assert b"PostgreSQL" not in raw(mem)
    # Without the log: the messages stay.
    only = mem.preview_forget_about(node_ids=[sample.cilantro], include_messages=False)
    assert only.counts() == {"memories": 1, "versions": 1, "messages": 0, "summaries": 0}


def test_delete_all_in_one_command(mem: MemoryService) -> None:
    seed(mem)
    s2 = mem.session("s2", user_id="u1", workspace_id="w1")
    first = s2.append_message("user", "第二个会话")
    mem.append_summary(make_summary("s2", first, first, "第二个会话的摘要"))
    versions = len(every_node(mem))
    preview = mem.preview_delete_all()
    assert preview.kind == "all"
    assert preview.versions == versions == 5 and preview.memories == 4
    assert preview.messages == len(_messages(mem)) + 1 and preview.summaries == 2
    result = mem.forget_previewed(preview)
    assert result.report.verification is not None and result.report.verification.clean
    assert every_node(mem) == [] and mem.pending(None) == []
    assert _messages(mem) == [] and _messages(mem, "s2") == []
    with mem.workspace_store.read() as r:
        assert list(r.iter_summaries()) == []
    assert CILANTRO_BYTES not in raw(mem)
    # The shipped global memories are read-only and stay.
    assert mem.get_node("mem_00000000000000000000000001") is not None


def test_delete_all_memories_but_keep_the_conversation(mem: MemoryService) -> None:
    seed(mem)
    count = len(_messages(mem))
    preview = mem.preview_delete_all(include_messages=False)
    assert preview.messages == 0 and preview.summaries == 0 and preview.versions > 0
    mem.forget_previewed(preview)
    assert every_node(mem) == [] and len(_messages(mem)) == count


def test_a_preview_that_no_longer_holds_is_refused(mem: MemoryService) -> None:
    seed(mem)
    preview = mem.preview_forget_about("香菜")
    mem.session("s1", user_id="u1", workspace_id="w1").append_message("user", "香菜真难吃")
    with pytest.raises(Conflict) as e:
        mem.forget_previewed(preview)
    assert e.value.reason_code == "forget.preview_outdated"
    assert CILANTRO_BYTES in raw(mem)  # nothing was removed
    fresh = mem.preview_forget_about("香菜")
    assert fresh.messages == preview.messages + 1
    mem.forget_previewed(fresh)
    assert CILANTRO_BYTES not in raw(mem)


def test_bad_requests_are_refused_clearly(mem: MemoryService) -> None:
    seed(mem)
    for call in (
        lambda: mem.preview_forget_about(),
        lambda: mem.preview_forget_about("香菜", node_ids=["mem_x"]),
        lambda: mem.preview_forget_about("   "),
        lambda: mem.preview_forget_about(node_ids=[]),
        lambda: mem.preview_forget_about(node_ids=["mem_00000000000000000000000001"]),
        lambda: mem.forget_previewed({"kind": "all"}),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidInput):
            call()
    with pytest.raises(NotFound):
        mem.preview_forget_about(node_ids=["mem_nothing"])
    empty = mem.preview_forget_about("不存在的词")
    assert isinstance(empty, ForgetPreview) and empty.empty
    assert mem.forget_previewed(empty).versions == 0


def test_rejecting_sensitive_data_can_remove_it_from_the_log(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "今晚吃什么？")
    held = propose(
        s,
        "记住我的手机号是13800138000",
        scope="user",
        domain="个人",
        type="fact",
        title="用户手机号 13800138000",
        content="用户的手机号是 13800138000。",
    )
    assert held["status"] == "pending" and held["rule"] == "sensitive_data", held
    assert b"13800138000" in raw(mem)
    with pytest.raises(InvalidInput):
        mem.decide(held["pendingId"], approve=True, remove_from_log=True)
    out = mem.decide(held["pendingId"], approve=False, remove_from_log=True)
    assert out["status"] == "rejected" and out["removedMessages"] == 1
    assert out["purge"]["verification"]["clean"] is True
    assert _messages(mem) == ["今晚吃什么？"]
    assert b"13800138000" not in raw(mem)
    # Without it, a rejection keeps the conversation as it was.
    again = propose(
        s,
        "记住我的手机号是13900139000",
        scope="user",
        domain="个人",
        type="fact",
        title="用户手机号 13900139000",
    )
    plain = mem.decide(again["pendingId"], approve=False)
    assert "removedMessages" not in plain and "13900139000" in _messages(mem)[-1]


def test_an_item_rejected_earlier_can_still_leave_the_log(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    held = propose(
        s,
        "记住我的身份证号是110101199003071234",
        scope="user",
        domain="个人",
        type="fact",
        title="用户身份证号 110101199003071234",
    )
    assert held["status"] == "pending", held
    mem.decide(held["pendingId"], approve=False)
    assert b"110101199003071234" in raw(mem)
    report = mem.remove_pending_from_log(held["pendingId"])
    assert report.counts()["message"] == 1
    assert report.verification is not None and report.verification.clean
    assert b"110101199003071234" not in raw(mem)
    with pytest.raises(NotFound):
        mem.remove_pending_from_log("pnd_nothing")


def test_a_reply_that_used_the_memory_meanwhile_does_not_outdate_the_preview(
    mem: MemoryService,
) -> None:
    sample = seed(mem)
    preview = mem.preview_forget_about(node_ids=[sample.database])
    # A reply that used the memory adds a usage row, no memory, message or summary.
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    mem.record_usage(mem.list_recent_messages("s1", 1)[0], [sample.database])
    assert mem.preview_forget_about(node_ids=[sample.database]).token == preview.token
    result = mem.forget_previewed(preview)
    assert result.memories == 1 and mem.get_node(sample.database) is None
    assert s.call_tool("memory_get", {"id": sample.database})["found"] is False
