"""Writes of Hermes's built-in memory tool (MEMORY.md, USER.md) as Ekko proposals.

USER.md entries are about the user: their long-term (user scope) memory, which waits for
the user unless their own words asked for it. MEMORY.md entries are the agent's notes on
the environment and the work: the workspace's. A replaced or removed entry is found
again among the mirrored memories (tagged ``hermes``) by the text Hermes names it by.
"""

from __future__ import annotations

from typing import Any

from ekko_memory.models import clean_text
from ekko_memory.service.session import MemorySession

MIRROR_TAG = "hermes"


def mirrored_node(target: str, content: str) -> dict[str, Any]:
    """The memory a built-in entry becomes (``target``: ``user`` or ``memory``)."""
    if target == "user":
        where = {"scope": "user", "domain": "个人", "categoryPath": ["个人", "资料"]}
    else:
        where = {"scope": "workspace", "domain": "项目", "categoryPath": ["项目", "笔记"]}
    return {**where, "type": "fact", "content": content, "tags": [MIRROR_TAG]}


def mirror_proposal(
    session: MemorySession, action: str, target: str, content: str, old_text: str | None
) -> dict[str, Any] | None:
    """The ``memory_propose_update`` arguments for one built-in write (None: nothing to
    mirror, e.g. removing an entry Ekko never had)."""
    node = mirrored_node(target, content)
    previous = _mirrored(session, node["scope"], old_text or content)
    if action == "add" or (action == "replace" and previous is None):
        args: dict[str, Any] = {"operation": "create", "node": node}
    elif action == "replace":
        args = {"operation": "supersede", "targetId": previous, "node": node}
    elif action == "remove" and previous is not None:
        args = {"operation": "delete", "targetId": previous, "node": {}}
    else:
        return None
    args["reason"] = f"mirrored from Hermes's built-in memory ({target}: {action})"
    return args


def _mirrored(session: MemorySession, scope: str, text: str) -> str | None:
    """The active mirrored memory whose content holds ``text`` (its id)."""
    wanted = clean_text(text).strip()
    if not wanted:
        return None
    found = session.call_tool(
        "memory_search", {"tags": [MIRROR_TAG], "scopes": [scope], "limit": 100}
    )
    for node in [*found.get("exact", []), *found.get("relevant", [])]:
        if wanted in str(node.get("content", "")):
            return str(node["id"])
    return None
