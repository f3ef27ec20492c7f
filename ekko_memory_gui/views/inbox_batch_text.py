"""What approving (or rejecting) several inbox items at once does, in words.

"Approve all shown" warned as if every item were a deletion ("Approving these 4 items
deletes for good") when one of four was, and never said that an item holding sensitive
data (a phone number, health) would be saved into the memory by the same click.
"""

from __future__ import annotations

from collections.abc import Iterable

from ekko_memory_gui.models import labels
from ekko_memory_gui.operations.pending_ops import InboxEntry
from ekko_memory_gui.qt import QCoreApplication as _Q

DELETING = ("hard_delete", "forget_many")


def _kinds(entry: InboxEntry) -> list[str]:
    raw = (entry.item.reason_params or {}).get("kinds", "")
    return [k.strip() for k in raw.split(",") if k.strip()]


def sensitive_entries(entries: Iterable[InboxEntry]) -> list[InboxEntry]:
    """The items that would save sensitive personal data into the memory."""
    return [
        e
        for e in entries
        if e.item.kind not in DELETING and (e.item.rule == "sensitive_data" or _kinds(e))
    ]


def sensitive_kinds(entries: Iterable[InboxEntry]) -> str:
    """The kinds of sensitive data the items hold, translated, each once."""
    seen: dict[str, None] = {}
    for e in entries:
        for kind in _kinds(e):
            seen.setdefault(labels.sensitive_label(kind), None)
    return _Q.translate("MemoryLabels", ", ").join(seen)


def batch_effects(entries: list[InboxEntry], approve: bool) -> list[str]:
    """One line per effect of deciding ``entries`` together (empty for a rejection: it
    changes no memory)."""
    if not approve:
        return []
    saves = [e for e in entries if e.item.kind not in DELETING]
    deletes = [e for e in entries if e.item.kind in DELETING]
    out: list[str] = []
    if saves:
        out.append(
            _Q.translate("InboxBatch", "{n} of them save or change a memory.").format(n=len(saves))
            if len(saves) > 1
            else _Q.translate("InboxBatch", "1 of them saves or changes a memory.")
        )
    if deletes:
        out.append(
            _Q.translate("InboxBatch", "{n} of them delete memories.").format(n=len(deletes))
            if len(deletes) > 1
            else _Q.translate("InboxBatch", "1 of them deletes memories.")
        )
    sensitive = sensitive_entries(entries)
    if sensitive:
        kinds = sensitive_kinds(sensitive)
        text = (
            _Q.translate(
                "InboxBatch",
                "{n} of them hold sensitive personal data ({kinds}): approving saves it in "
                "your memory, where the agent can read it.",
            )
            if len(sensitive) > 1
            else _Q.translate(
                "InboxBatch",
                "1 of them holds sensitive personal data ({kinds}): approving saves it in "
                "your memory, where the agent can read it.",
            )
        )
        out.append(text.format(n=len(sensitive), kinds=kinds or "—"))
    return out
