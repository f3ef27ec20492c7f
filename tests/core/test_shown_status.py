"""One notion of a memory's status wherever it is shown or counted: an active memory past
its ``expiresAt`` is expired (``MemoryNode.status_at``), as the context and the app treat
it — the store's row keeps ``active`` until something writes it."""

from __future__ import annotations

import csv
from pathlib import Path

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from ekko_memory.service.runtime import AgentRuntime
from tests.core.conftest import Clock


def lapsed_constraint(mem: MemoryService, clock: Clock) -> tuple[AgentRuntime, MemoryNode]:
    """今天胃不舒服，少辣 becomes a constraint expiring tonight; then two days pass."""
    rt = AgentRuntime(mem, "s1", user_id="u1", workspace_id="w1", background=False)
    t = rt.before_model("今天胃不舒服，少辣。")
    rt.after_model("好的，今天做清淡不辣的。", t)
    temporary = [n for _, s in mem.stores() for n in s.list_active_nodes(limit=50) if n.expires_at]
    assert len(temporary) == 1, temporary
    clock.advance(days=2)
    assert "辣" not in rt.before_model("今晚吃什么？").prompt  # the context: expired
    return rt, temporary[0]


def test_stats_count_a_lapsed_memory_as_expired(mem: MemoryService, clock: Clock) -> None:
    _, node = lapsed_constraint(mem, clock)
    before = mem.browse.stats()
    counts = {name: entry["nodes"] for name, entry in before.items() if "nodes" in entry}
    store = next(name for name, c in counts.items() if c.get("expired"))
    assert counts[store]["expired"] == 1 and counts[store].get("active", 0) == 0, counts
    assert mem.get_node(node.id).status == "active"  # type: ignore[union-attr]  # the row


def test_history_tools_and_search_say_expired(mem: MemoryService, clock: Clock) -> None:
    rt, node = lapsed_constraint(mem, clock)
    assert [v.status for v in mem.history(node.id).chain] == ["expired"]
    got = rt.session.call_tool("memory_get", {"id": node.id})
    assert got["found"] and got["status"] == "expired"
    found = rt.session.call_tool("memory_search", {"queryText": "辣", "includeExpired": True})
    hits = [n for n in [*found["exact"], *found["relevant"]] if n["id"] == node.id]
    assert [n["status"] for n in hits] == ["expired"], found


def test_readable_exports_say_expired(mem: MemoryService, clock: Clock, tmp_path: Path) -> None:
    """Markdown and CSV are read by people; the JSON bundle keeps the stored record (with
    its expiresAt), which an import reads as expired again."""
    _, node = lapsed_constraint(mem, clock)
    md = tmp_path / "out.md"
    mem.exporter.export(md, format="md")
    heading = next(line for line in md.read_text("utf-8").splitlines() if node.title in line)
    assert heading.endswith("_(expired)_"), heading
    out = tmp_path / "out.csv"
    mem.exporter.export(out, format="csv")
    rows = list(csv.DictReader(out.read_text("utf-8-sig").splitlines()))
    assert [r["status"] for r in rows if r["id"] == node.id] == ["expired"]
