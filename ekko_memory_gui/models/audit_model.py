"""A memory's audit events, newest first: when, what, who, why."""

from __future__ import annotations

import json

from ekko_memory import AuditEvent
from ekko_memory_gui.models import labels
from ekko_memory_gui.models.object_table_model import Column, ObjectTableModel
from ekko_memory_gui.qt import QCoreApplication, QObject


def _payload(e: AuditEvent) -> str | None:
    if not e.payload:
        return None
    text = json.dumps(e.payload, ensure_ascii=False, indent=1)
    return text if len(text) < 2000 else text[:2000] + "…"


def _withdrawn(e: AuditEvent) -> bool:
    """A reject the user made by taking the item back in the conversation (the retraction
    names the message that withdrew it). Its actor is the user, also in records written
    before the core said so (they named the extractor, which only read the words)."""
    return e.event_type == "reject" and bool((e.payload or {}).get("withdrawnBy"))


def _event(e: AuditEvent) -> str:
    return labels.event_label("withdraw" if _withdrawn(e) else e.event_type)


def _actor(e: AuditEvent) -> str:
    imported = (e.payload or {}).get("imported") if e.actor == "import" else None
    if isinstance(imported, dict) and isinstance(imported.get("actor"), str):
        # Recorded elsewhere and imported: who it named there, never "you" here.
        return QCoreApplication.translate("AuditTableModel", "{actor} (imported)").format(
            actor=labels.actor_label(imported["actor"])
        )
    return labels.actor_label("user" if _withdrawn(e) else e.actor)


class AuditTableModel(ObjectTableModel[AuditEvent]):
    """Columns: time, event, actor, reason (the payload as a tooltip)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(
            [
                Column(
                    self.tr("When"),
                    lambda e: labels.full_time(e.created_at),
                    sort=lambda e: e.created_at.timestamp(),
                ),
                Column(self.tr("Event"), _event),
                Column(self.tr("Actor"), _actor),
                Column(self.tr("Reason"), labels.event_reason, tooltip=_payload),
            ],
            parent,
        )
