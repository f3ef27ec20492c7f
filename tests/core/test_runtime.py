"""The runtime keeps extraction off the reply's critical path; the summary chain stays a chain."""

from __future__ import annotations

import itertools
import threading
import time

from ekko_memory import MemoryExtraction, MemoryService
from ekko_memory.service.extraction.protocol import ExtractionInput
from ekko_memory.service.runtime import AgentRuntime


class SlowExtractor:
    """Takes seconds, like a remote model would."""

    name = "slow"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = threading.Event()
        self.calls = 0

    def extract(self, data: ExtractionInput) -> MemoryExtraction:
        self.calls += 1
        self.started.set()
        time.sleep(self.seconds)
        return MemoryExtraction()


def test_slow_extractor_does_not_delay_the_next_turn(mem: MemoryService) -> None:
    slow = SlowExtractor(3.0)
    mem.extractor = slow
    rt = AgentRuntime(mem, "s1", user_id="u1")
    t = rt.before_model("记住，我以后做饭不要香菜。")
    rt.after_model("好的", t)
    assert slow.started.wait(5), "extraction never started"
    # The extractor is now sleeping in the background; the next turn must not wait for it.
    rt.before_model("热身")  # warm caches so we time the steady state
    started = time.perf_counter()
    turn = rt.before_model("今晚吃什么？")
    elapsed = time.perf_counter() - started
    assert elapsed < 0.25, f"before_model took {elapsed * 1000:.0f} ms while extraction ran"
    assert turn.context.diagnostics.store_status == "ok"
    assert not mem.background.wait_idle(0) or slow.calls >= 1
    mem.background.wait_idle(10)


def test_summary_chain_over_fifty_turns(mem: MemoryService) -> None:
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    for i in range(50):
        t = rt.before_model(f"第{i}轮：帮我看看第{i}个问题怎么解决？")
        rt.after_model(f"第{i}轮的回答。", t)
    chain = mem.browse.summaries("s1")
    every = mem.config.summary_every_messages
    assert len(chain) == (50 * 2) // every
    assert chain[0].parent_summary_id is None
    for prev, nxt in itertools.pairwise(chain):
        assert nxt.parent_summary_id == prev.id
        assert nxt.created_at > prev.created_at
    messages = mem.browse.messages("s1", limit=200)
    position = {m.id: i for i, m in enumerate(messages)}
    # Each summary covers the messages after the previous one: no gaps, no overlaps.
    covered = [(position[s.from_message_id], position[s.to_message_id]) for s in chain]
    assert covered[0][0] == 0
    for (_, end), (start, _) in itertools.pairwise(covered):
        assert start == end + 1
    ctx = rt.before_model("总结一下").context
    assert ctx.latest_summary is not None and ctx.latest_summary.id == chain[-1].id
    assert len(ctx.recent_messages) == mem.config.recent_messages
    # 100 messages, a summary every 8: the last one ends with turn 47's reply.
    assert covered[-1][1] == len(chain) * every - 1
    assert "第47轮" in ctx.latest_summary.summary
    assert ctx.latest_summary.current_goal is not None


def test_close_leaves_no_background_writer_behind(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An extraction outlasting close() (a hung LLM) writes nothing afterwards: the stores
    are closed, and its messages wait for the next run."""
    from ekko_memory import open_memory
    from ekko_memory.models import ExtractedNodeOperation, MemoryNodeDraft
    from ekko_memory.service import runtime

    release = threading.Event()

    class Hung:
        name = "hung"
        started = threading.Event()

        def extract(self, data: ExtractionInput) -> MemoryExtraction:
            self.started.set()
            release.wait(30)
            draft = MemoryNodeDraft(
                scope="workspace", domain="项目", type="fact", title="迟到的记忆", content="迟到"
            )
            return MemoryExtraction(nodes=[ExtractedNodeOperation(operation="create", node=draft)])

    monkeypatch.setattr(runtime, "STOP_TIMEOUT_S", 0.3)
    mem = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    hung = Hung()
    mem.extractor = hung
    rt = AgentRuntime(mem, "s1", user_id="u1")
    t = rt.before_model("记住，这个项目的部署在周五。")
    rt.after_model("好的", t)
    assert hung.started.wait(10)
    worker = mem.background
    rt.after_model("还有一件事", rt.before_model("另外，测试要先跑"))  # queued behind it
    mem.close()
    release.set()
    worker._thread.join(10)
    assert not worker._thread.is_alive()
    assert worker.wait_idle(1)  # the skipped job does not leave the worker "busy"

    again = open_memory(tmp_path / "ws", user_home=tmp_path / "home")
    try:
        assert [n.title for _, s in again.stores() for n in s.list_active_nodes(limit=50)] == []
        with again.workspace_store.read() as r:
            assert r.get_cursor("s1", "extract") is None  # the next run reads them all
    finally:
        again.close()


def test_a_tight_budget_keeps_the_newest_turns_of_the_summary(mem: MemoryService) -> None:
    """The README's pattern sends the prompt and the current message only: when the summary
    must be shortened, its newest turns are the ones the model needs (the rule summarizer
    keeps them too), with the goal and a mark where the older part was cut."""
    from ekko_memory.models.context_render import estimate_tokens

    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    for i in range(24):
        t = rt.before_model(f"第{i}轮：帮我看看第{i}个问题怎么解决？")
        rt.after_model(f"第{i}轮的回答。", t)
    ctx = rt.before_model("继续").context
    summary = ctx.latest_summary
    assert summary is not None and "第0轮" in summary.summary and "第23轮" in summary.summary
    text = ctx.render(max_tokens=120)
    assert estimate_tokens(text) <= 120
    assert "第23轮的回答" in text and "第0轮" not in text
    lines = text.splitlines()
    # The summary's lines are indented under its section (quoted, as the memories are).
    assert lines[2] == f"  当前目标：{summary.current_goal}"
    # The cut is marked where the older turns were, before a whole line.
    assert lines[3].startswith("  …助手：") or lines[3].startswith("  …用户：")


def test_an_english_summary_is_cut_from_its_start_too() -> None:
    """The same cut for an English summary, counted as the render counts tokens."""
    from datetime import UTC, datetime

    from ekko_memory import MemoryContext, MemorySummary
    from ekko_memory.models.context_render import estimate_tokens

    turns = "\n".join(f"User: step {i} of the migration, what next?" for i in range(40))
    ctx = MemoryContext(
        latest_summary=MemorySummary(
            id="sum1",
            session_id="s1",
            from_message_id="m1",
            to_message_id="m80",
            summary=turns,
            current_goal="finish the database migration",
            created_at=datetime.now(UTC),
        )
    )
    text = ctx.render(max_tokens=60)
    assert estimate_tokens(text) <= 60
    assert "Goal: finish the database migration" in text
    assert text.endswith("User: step 39 of the migration, what next?")
    assert "step 0 " not in text and "\n  …User: step" in text
