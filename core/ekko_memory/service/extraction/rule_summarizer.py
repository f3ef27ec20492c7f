"""The default summarizer: the next link of the chain from the previous summary and the new
messages only (never the whole history). Deterministic and bounded in size."""

from __future__ import annotations

import re

from ekko_memory.models import MemoryMessage, MemoryNode
from ekko_memory.service.extraction.project import names_same_work
from ekko_memory.service.extraction.protocol import SummaryDraft, SummaryInput

# What the user is after: a request, or a goal stated as such (我的目标是…, 打算…) — the
# words the after-reply trigger counts as a long-term goal.
_GOAL = re.compile(
    r"[？?]|帮我|请|能不能|怎么|如何|想要|我想|需要|目标|打算|计划"
    r"|how|what|can you|could you|please|help me|my goal|i plan to|i want to",
    re.IGNORECASE,
)
# Work reported done (写完了, 改好了 as the task trigger reads them).
_DONE = re.compile(
    r"完成了|(?:写|做|改|测|弄|搞|修)(?:完|好)了|搞定了|已完成|解决了"
    r"|done|finished|fixed|completed|resolved",
    re.IGNORECASE,
)
_TODO = re.compile(
    r"TODO|待办|接下来|下一步|还需要|还要|之后再|next|to do|need to|remaining", re.IGNORECASE
)
_ISSUE = re.compile(
    r"bug|报错|错误|失败|异常|问题|崩溃|卡住|error|fail|exception|crash|broken|issue", re.IGNORECASE
)

# A decision stated in the user's words (the after-reply trigger's words for one).
_DECIDED = re.compile(
    r"决定|定了|就用|改用|选用|decided|let'?s go with|we'?ll go with|switch(?:ed)? to",
    re.IGNORECASE,
)
# A goal stated as such: it stays the goal even when it mentions what comes next.
_STATED_GOAL = re.compile(r"目标|打算|计划|my goal|i plan to", re.IGNORECASE)

# How a to-do line starts (还需要写测试): what follows is the work.
_TODO_LEAD = re.compile(
    r"^\s*(?:TODO|待办|接下来要?|下一步要?|还需要|还要|之后再|next,?|to do:?|need to|remaining)"
    r"\s*[:：]?\s*",
    re.IGNORECASE,
)

KEEP_ITEMS = 12
MAX_CHARS = 1200


def clipped_line(text: str, limit: int) -> str:
    """``text`` on one line (runs of whitespace as one space), cut to ``limit`` with "…"."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _line(msg: MemoryMessage, limit: int = 80) -> str:
    return clipped_line(msg.content, limit)


def _is_goal(text: str) -> bool:
    """A request or a stated goal — not work still to do (还需要写测试 is pending work)."""
    return bool(_STATED_GOAL.search(text)) or (bool(_GOAL.search(text)) and not _TODO.search(text))


def _finished(todo: str, done: list[str]) -> bool:
    """Work reported done in one of ``done`` (测试也写完了 finishes 还需要写测试)."""
    what = _TODO_LEAD.sub("", todo)
    return any(names_same_work(what, line) for line in done)


def _pending(prev: list[str], messages: list[MemoryMessage]) -> list[str]:
    """The previous to-dos and the new ones, less the work reported done after them."""
    left = list(prev)
    for m in messages:
        line = _line(m)
        if _DONE.search(m.content):
            left = [t for t in left if not _finished(t, [line])]
        if m.role == "user" and _TODO.search(m.content):
            left = [t for t in left if t != line] + [line]
    return left[-KEEP_ITEMS:]


def _merge(old: list[str], new: list[str]) -> list[str]:
    out = [x for x in old if x not in new] + new
    return out[-KEEP_ITEMS:]


def _by_type(nodes: list[MemoryNode], *types: str) -> list[str]:
    return [n.title for n in nodes if n.type in types]


def _unrecorded(messages: list[MemoryMessage], recorded: frozenset[str]) -> list[MemoryMessage]:
    """The turns no memory speaks for: a user message a memory was written from, and the
    reply right after it, are left out. Their words would otherwise come back in every
    context after the memory was corrected or expired (今天胃不舒服，少辣 the next day)."""
    out: list[MemoryMessage] = []
    skipping = False
    for m in messages:
        if m.role == "user":
            skipping = m.id in recorded
        if not skipping:
            out.append(m)
    return out


class RuleBasedSummarizer:
    """Rolls the previous summary forward with the new messages."""

    name = "rules"

    def summarize(self, data: SummaryInput) -> SummaryDraft:
        """The next summary's content."""
        prev = data.previous
        users = [m for m in data.messages if m.role == "user"]
        goal = prev.current_goal if prev is not None else None
        for m in reversed(users):
            if _is_goal(m.content):
                goal = _line(m, 120)
                break
        done = [_line(m) for m in data.messages if _DONE.search(m.content)]
        issues = [_line(m) for m in data.messages if _ISSUE.search(m.content)]
        unrecorded = _unrecorded(data.messages, data.recorded_message_ids)
        turns = [
            f"{'用户' if m.role == 'user' else '助手'}：{_line(m, 60)}"
            for m in unrecorded
            if m.role in ("user", "assistant")
        ]
        # Decisions no memory holds (no key fits them), in the user's words.
        decided = [_line(m) for m in unrecorded if m.role == "user" and _DECIDED.search(m.content)]
        # The extractor's notes on these messages, one line each.
        turns += [" ".join(p.split()) for p in data.patches]
        text = (prev.summary + "\n" if prev is not None and prev.summary else "") + "\n".join(turns)
        if len(text) > MAX_CHARS:
            # Keep the newest lines; the chain's older links keep the rest.
            text = "…\n" + text[-MAX_CHARS:].split("\n", 1)[-1]
        return SummaryDraft(
            summary=text,
            current_goal=goal,
            constraints=_merge(
                prev.constraints if prev else [], _by_type(data.extracted, "constraint")
            ),
            preferences=_merge(
                prev.preferences if prev else [], _by_type(data.extracted, "preference")
            ),
            decisions=_merge(
                prev.decisions if prev else [],
                _by_type(data.extracted, "decision", "fact") + decided,
            ),
            completed_work=_merge(prev.completed_work if prev else [], done),
            pending_work=_pending(prev.pending_work if prev else [], data.messages),
            known_issues=_merge(prev.known_issues if prev else [], issues),
        )
