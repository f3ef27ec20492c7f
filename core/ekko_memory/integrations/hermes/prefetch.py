"""What a turn's prefetch shows: the context's memories an earlier turn of the session did
not show, rendered within the token budget.

Hermes appends each turn's ``<memory-context>`` to that user message and keeps it in the
history for every later turn, so a memory shown once stays in front of the model; the
summary and recent messages are left out too (Hermes holds the conversation itself).
"""

from __future__ import annotations

from typing import Any, get_args

from ekko_memory.models import MemoryContext, MemoryNode
from ekko_memory.models.context_render import HEADER, node_line

# Every section of the context that lists memories (constraints, profile, preferences…).
NODE_SECTIONS = tuple(
    name
    for name, spec in MemoryContext.model_fields.items()
    if get_args(spec.annotation) == (MemoryNode,)
)


def render_unseen(
    context: MemoryContext, shown: set[str], max_tokens: int
) -> tuple[str, list[str]]:
    """(the text, the ids of the memories it shows) without the ``shown`` ones."""
    update: dict[str, Any] = {
        name: [n for n in getattr(context, name) if n.id not in shown] for name in NODE_SECTIONS
    }
    update.update(latest_summary=None, recent_messages=[])
    fresh = context.model_copy(update=update)
    text = fresh.render(max_tokens)
    ids = list(fresh.rendered_memory_ids)
    # A section whose lines the context does not report as used memories (one of things
    # not stored yet) was shown all the same when its line is in the text.
    lines = set(text.splitlines())
    chinese = HEADER[True] in lines
    for name in NODE_SECTIONS:
        for node in getattr(fresh, name):
            if node.id not in ids and node_line(node, chinese).text in lines:
                ids.append(node.id)
    return text, ids
