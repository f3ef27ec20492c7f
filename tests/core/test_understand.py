"""``mem.understand(text)``: what a typed sentence proposes, nothing written; and which
memories fed a reply (``browse.used_in_reply``, ``browse.last_used``)."""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory import BrowseFilter, InvalidInput, MemoryService, Understanding
from tests.core.helpers import COOKING, user_write


def _counts(mem: MemoryService) -> tuple[int, int]:
    return mem.browse.count(BrowseFilter(statuses=None)), len(mem.pending())


def test_a_sentence_is_understood_without_writing(mem: MemoryService) -> None:
    before = _counts(mem)
    got = mem.understand("我不吃香菜")
    assert isinstance(got, Understanding) and got.understood
    (draft,) = got.memories
    assert (draft.domain, draft.category_path, draft.type) == ("生活技能", COOKING, "preference")
    assert (draft.key, draft.value_json, draft.scope) == ("avoid_ingredient", "香菜", "user")
    assert draft.title
    assert _counts(mem) == before  # nothing stored, nothing waiting


def test_english_and_a_temporary_state(mem: MemoryService) -> None:
    english = mem.understand("Reply in English from now on").memories[0]
    assert english.key == "reply_language" and str(english.value_json).casefold() == "english"
    temporary = mem.understand("今天胃不舒服，别放辣").memories[0]
    assert temporary.type == "constraint" and temporary.expires_at is not None
    assert temporary.expires_at > mem.now()
    assert temporary.scope != "session"  # no conversation to keep it to


def test_a_sentence_nothing_understands_is_kept_as_a_note(mem: MemoryService) -> None:
    got = mem.understand("  今天天气不错  ")
    assert not got.understood and got.text == "今天天气不错"
    (note,) = got.memories
    assert note.content == "今天天气不错" and note.title == "今天天气不错"
    assert note.type == "fact" and note.scope == "user"
    # The note can be stored as the user's own memory as it is.
    out = mem.actions.create(note.model_dump(by_alias=True, exclude_none=True))
    assert out.accepted, out


def test_empty_and_oversized_text_is_refused_clearly(mem: MemoryService) -> None:
    with pytest.raises(InvalidInput, match="sentence"):
        mem.understand("   ")
    with pytest.raises(InvalidInput, match="at most"):
        mem.understand("字" * 40000)


def test_a_failing_model_falls_back_to_the_rules(mem: MemoryService) -> None:
    class Broken:
        name = "broken"

        def extract(self, data: Any) -> Any:
            raise RuntimeError("the model did not answer")

    mem.extractor = Broken()  # type: ignore[assignment]
    assert mem.understand("我不吃香菜").memories[0].key == "avoid_ingredient"


def test_the_memories_a_reply_used(mem: MemoryService) -> None:
    node_id = user_write(
        mem,
        scope="user",
        domain="生活技能",
        category_path=COOKING,
        type="preference",
        key="avoid_ingredient",
        value_json="香菜",
        title="不吃香菜",
    )
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "今晚做什么菜？")
    ctx = s.build_context("今晚做什么菜？")
    reply = s.record_reply("番茄炒蛋，不放香菜。", ctx)
    used = mem.browse.used_in_reply(reply.id)
    assert node_id in [n.id for n in used]
    assert mem.browse.used_in_reply("msg_unknown") == []
    last = mem.browse.last_used([node_id, "mem_unknown"])
    assert set(last) == {node_id}


def test_sessions_carry_their_first_words(mem: MemoryService) -> None:
    s = mem.session("s-long", user_id="u1")
    s.append_message("system", "You are a helpful assistant.")
    s.append_message("user", "今晚   想吃点清淡的，\n有什么推荐？" + "很" * 80)
    (info,) = [i for i in mem.browse.sessions() if i.session_id == "s-long"]
    assert info.first_words is not None
    assert info.first_words.startswith("今晚 想吃点清淡的， 有什么推荐？")
    assert len(info.first_words) == 60 and info.first_words.endswith("…")
