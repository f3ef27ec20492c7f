"""What background extraction leaves alone, so it coexists with the agent's own writes.

The design doc (明确记忆写入, 抽取流程) gives a user's explicit "记住…" to the agent at once
(``memory_propose_update``, bound to the user's message) and lets the extractor read the same
messages after the reply, as a safety net. Two rules keep the two from fighting:

1. **A statement is recorded once.** An extracted memory is not written when a memory
   already written from the same source message — by the agent, the user, or an earlier
   extraction run (a retry after a failure) — is about the same thing: the same conflict
   identity (a one-value key: the same key; a many-value key: the same value), or, when
   either is free text, a memory whose text names what the extracted one is about. An
   extracted note that names nothing (the "remember …" catch-all) is covered by any memory
   from its message. Any status counts: a memory from that message that was later
   superseded or deleted was still this statement, and the later decision stands.
2. **An older statement never replaces a newer one.** An extracted write from message M
   does not supersede, update or expire a memory stated later: one whose own newest source
   message is newer than M (without source messages, or edited by the user: written after M).

The memories from a batch's messages are read once per batch, before its first write (a
memory the agent writes from those messages while the batch runs is not seen: the agent
writes during the turn, the extraction runs after the reply).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from ekko_memory.identity import canonical_name, value_subject
from ekko_memory.models import MemoryMessage, MemoryNode
from ekko_memory.schema.normalize import conflict_identity
from ekko_memory.store.filters import NodeFilter

if TYPE_CHECKING:
    from ekko_memory.schema.registry import SchemaRegistry
    from ekko_memory.service.memory_service import MemoryService

ALL_STATUSES = ("active", "superseded", "expired", "deleted")


@dataclass
class Recorded:
    """The memories already written from a batch's user messages, and when things were said."""

    service: MemoryService
    nodes: list[MemoryNode]
    said: dict[str, datetime] = field(default_factory=dict)

    @classmethod
    def load(cls, service: MemoryService, messages: list[MemoryMessage]) -> Recorded:
        """Read, from every readable store, the memories whose sources include ``messages``."""
        said = {m.id: m.created_at for m in messages}
        users = [m for m in messages if m.role == "user"]
        nodes: list[MemoryNode] = []
        if users:
            f = NodeFilter(
                statuses=ALL_STATUSES,
                source_message_ids=[m.id for m in users],
                # Written after its source messages: an index range, not a table scan.
                updated_after=min(m.created_at for m in users),
            )
            for _, store in service.stores():
                if store.health.readable:
                    with store.read() as r:
                        nodes += r.find_nodes(f, limit=None)
        return cls(service, nodes, said)

    def covering(
        self, registry: SchemaRegistry, node: MemoryNode, sources: list[str]
    ) -> MemoryNode | None:
        """A memory already written from one of ``sources`` about what ``node`` says (rule 1)."""
        wanted = set(sources)
        for other in self.nodes:
            if wanted.isdisjoint(other.source_message_ids):
                continue
            if node.key is not None and other.key is not None:
                ident = conflict_identity(registry, node)
                theirs = conflict_identity(registry, other)
                if ident is not None and ident == theirs:
                    return other
                # The same many-value key in other words: the agent's "cilantro" and the
                # extractor's 香菜 (which keeps the word as said among its entities).
                if (
                    ident is not None
                    and theirs is not None
                    and ident[0] == "many"
                    and ident[:3] == theirs[:3]
                    and not set(_about(node)).isdisjoint(_about(other))
                ):
                    return other
                continue
            about = _about(node)
            if not about or any(word in _text(other) for word in about):
                return other
        return None

    def stated_at(self, node: MemoryNode) -> datetime:
        """When what ``node`` says was said: its newest source message, else its writing."""
        if node.origin == "user_edit" or not node.source_message_ids:
            return node.created_at
        missing = [i for i in node.source_message_ids if i not in self.said]
        if missing:
            store = self.service.workspace_store
            if store.health.readable:
                with store.read() as r:
                    self.said.update({m.id: m.created_at for m in r.get_messages(missing)})
        times = [self.said[i] for i in node.source_message_ids if i in self.said]
        return max(times, default=node.created_at)


def _about(node: MemoryNode) -> list[str]:
    """What a memory is about, as words to look for: its value's subject and its entities."""
    words = [value_subject(node.value_json) or "", *node.entities]
    return [w for w in dict.fromkeys(canonical_name(w).casefold() for w in words if w) if w]


def _text(node: MemoryNode) -> str:
    parts = [node.title, node.content, *node.entities, str(node.value_json or "")]
    return unicodedata.normalize("NFKC", " ".join(parts)).casefold()
