"""Items that wait for the user (the inbox), oldest first."""

from __future__ import annotations

from ekko_memory import PendingItem
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.object_table_model import Column, ObjectTableModel
from ekko_memory_gui.qt import QObject


def proposed_title(item: PendingItem) -> str:
    """What the item proposes, in a few words."""
    if item.node:
        return str(item.node.get("title") or item.node.get("key") or "")
    return ", ".join(item.target_ids)


def category_of(item: PendingItem) -> str:
    """The category path the proposal files under (empty for deletes)."""
    if item.node and item.node.get("categoryPath"):
        return " / ".join(item.node["categoryPath"])
    return ""


def category_shown(item: PendingItem) -> str:
    """``category_of`` as the UI says it: built-in category names in its language."""
    from ekko_memory_gui.models.labels.sentences import category_label

    path = (item.node or {}).get("categoryPath") or []
    return " / ".join(category_label(str(p)) for p in path)


class PendingListModel(ObjectTableModel[PendingItem]):
    """Columns: kind, rule, proposal, category, waiting since."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column(self.tr("Kind"), lambda i: labels.kind_label(i.kind)),
                Column(self.tr("Why it waits"), lambda i: labels.rule_label(i.rule)),
                Column(self.tr("Proposal"), proposed_title),
                Column(self.tr("Category"), category_shown),
                Column(
                    self.tr("Since"),
                    lambda i: labels.short_time(i.created_at),
                    sort=lambda i: i.created_at.timestamp(),
                ),
            ],
            parent,
        )

    def categories(self) -> list[str]:
        """Distinct categories of the waiting items, sorted."""
        return sorted({c for i in self.items() if (c := category_of(i))})
