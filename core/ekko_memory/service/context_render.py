"""Render a MemoryContext as compact prompt text within a token budget.

Token counts use a tokenizer-free estimate that holds for Chinese: one token per CJK
character (cl100k/o200k spend 0.7–1.3), one per ~4 latin letters, one per symbol.
Lowest-priority items are dropped first; the caller reports them as ``over_limit``.
A summary that does not fit whole keeps its goal and its newest lines ("…" marks the cut).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ekko_memory.models import MemoryNode
from ekko_memory.timeutil import local_time

if TYPE_CHECKING:
    from ekko_memory.models import MemoryContext

_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]")
_WORD = re.compile(r"[A-Za-z0-9]+")
_OTHER = re.compile(r"[^\sA-Za-z0-9\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f]")


def estimate_tokens(text: str) -> int:
    """Conservative token estimate for mixed Chinese/English text."""
    cjk = len(_CJK.findall(text))
    words = sum(max(1, math.ceil(len(w) / 4)) for w in _WORD.findall(text))
    other = len(_OTHER.findall(text))
    return cjk + words + other


@dataclass(frozen=True)
class _Line:
    rank: float
    section: int
    text: str
    node_id: str | None


def _labels(chinese: bool) -> list[str]:
    if chinese:
        return [
            "约束（优先遵守）",
            "偏好",
            "进行中的任务",
            "项目事实与决策",
            "其他相关记忆",
            "对话摘要",
        ]
    return [
        "Constraints (follow first)",
        "Preferences",
        "Active tasks",
        "Project facts and decisions",
        "Other relevant memories",
        "Conversation summary",
    ]


def node_line(node: MemoryNode, chinese: bool) -> str:
    """One bullet for a node: title and content (the content alone when it already says
    the title, the title alone when the content is long), with expiry for temporary ones.

    A recipe's content (五花肉焯水…) does not name its dish: without the title the model
    would not know what it is about.
    """
    title, content = node.title.strip(), node.content.strip()
    if not content or len(content) > 160:
        text = title
    elif not title or title.casefold() in content.casefold():
        text = content
    else:
        # The colon of the title's script (CI runs on GitHub Actions: …, 红烧肉做法：…).
        text = f"{title}：{content}" if _CJK.match(title[-1]) else f"{title}: {content}"
    if node.expires_at is not None:
        local = local_time(node.expires_at)
        # The year only when it is not this one: a far expiry must not read as this year's.
        same_year = local.year == datetime.now(local.tzinfo).year
        until = local.strftime("%m-%d %H:%M" if same_year else "%Y-%m-%d %H:%M")
        text += f"（有效至 {until}）" if chinese else f" (until {until})"
    return f"- {text}"


def _looks_chinese(ctx: MemoryContext) -> bool:
    sample = " ".join(
        n.title
        for n in (
            *ctx.constraints,
            *ctx.preferences,
            *ctx.active_tasks,
            *ctx.facts,
            *ctx.relevant_nodes,
        )
    )
    if ctx.recent_messages:
        sample += ctx.recent_messages[-1].content[:200]
    letters = len(re.sub(r"\s", "", sample))
    # Chinese headings when at least a sixth of the characters are CJK.
    return letters > 0 and len(_CJK.findall(sample)) * 6 >= letters


def _summary_parts(ctx: MemoryContext, chinese: bool) -> tuple[str, str]:
    """(the goal line or "", the summary text) of the context's latest summary."""
    s = ctx.latest_summary
    if s is None:
        return "", ""
    goal = ""
    if s.current_goal and s.current_goal.strip():
        goal = (
            f"当前目标：{s.current_goal.strip()}" if chinese else f"Goal: {s.current_goal.strip()}"
        )
    return goal, s.summary.strip()


def _newest_tail(body: str, room: int) -> str:
    """The longest end of ``body`` that fits in ``room`` tokens after a leading "…",
    from the start of a line when one fits ("" when not even "…" and a character do).

    The summary grows at its end (the rule summarizer appends the turns, and keeps the
    newest part itself when it must cut): its end is what the agent needs now.
    """
    # Dropping leading characters never raises the estimate: search the first kept one.
    lo, hi = 0, len(body)
    while lo < hi:
        mid = (lo + hi) // 2
        if estimate_tokens("…" + body[mid:]) <= room:
            hi = mid
        else:
            lo = mid + 1
    if lo >= len(body):
        return ""
    if lo > 0 and body[lo - 1] != "\n":
        # A whole line reads better than its cut end (用户：… loses who said it): start at
        # the next line when there is one.
        newline = body.find("\n", lo)
        if newline != -1 and body[newline + 1 :].strip():
            lo = newline + 1
    tail = body[lo:].lstrip("\n")
    return tail if lo == 0 else "…" + tail.removeprefix("…").lstrip("\n")


def shorten_summary(goal: str, body: str, room: int) -> str:
    """The summary cut to ``room`` tokens: the goal line when it takes at most half of the
    room, then the newest part of the text, the cut marked by a leading "…"."""
    text = ""
    if goal and estimate_tokens(goal) + 1 <= room // 2:
        text, room = goal, room - estimate_tokens(goal) - 1
    tail = _newest_tail(body, room)
    return "\n".join(part for part in (text, tail) if part)


def render_context(ctx: MemoryContext, max_tokens: int | None) -> tuple[str, list[str], list[str]]:
    """(text, ids included, ids dropped for the budget; None: no budget)."""
    chinese = _looks_chinese(ctx)
    labels = _labels(chinese)
    lines: list[_Line] = []
    rank = 0
    for section, nodes in enumerate(
        (ctx.constraints, ctx.preferences, ctx.active_tasks, ctx.facts, ctx.relevant_nodes)
    ):
        for node in nodes:
            lines.append(_Line(rank, section, node_line(node, chinese), node.id))
            rank += 1
    goal, body = _summary_parts(ctx, chinese)
    if goal or body:
        summary = "\n".join(part for part in (goal, body) if part)
        # The summary ranks after constraints and preferences but before facts.
        lines.append(_Line(len(ctx.constraints) + len(ctx.preferences) + 0.5, 5, summary, None))

    header = "相关记忆：" if chinese else "Relevant memory:"
    budget = math.inf if max_tokens is None else max_tokens - estimate_tokens(header)
    chosen: list[_Line] = []
    dropped: list[str] = []
    sections_used: set[int] = set()
    for line in sorted(lines, key=lambda ln: ln.rank):
        cost = estimate_tokens(line.text) + 1
        if line.section not in sections_used:
            cost += estimate_tokens(labels[line.section]) + 1
        if cost <= budget:
            budget -= cost
            chosen.append(line)
            sections_used.add(line.section)
        elif line.node_id is None and budget > 20:
            # Shorten the summary to what fits rather than losing it whole.
            room = budget - estimate_tokens(labels[line.section]) - 2
            text = shorten_summary(goal, body, int(room))
            if text:
                chosen.append(_Line(line.rank, line.section, text, None))
                sections_used.add(line.section)
                budget = 0
        elif line.node_id is not None:
            dropped.append(line.node_id)
    if not chosen:
        return "", [], dropped
    out = [header]
    for section in range(len(labels)):
        section_lines = [ln for ln in chosen if ln.section == section]
        if not section_lines:
            continue
        out.append(f"{labels[section]}：" if chinese else f"{labels[section]}:")
        out.extend(ln.text for ln in section_lines)
    included = [ln.node_id for ln in chosen if ln.node_id is not None]
    return "\n".join(out), included, dropped
