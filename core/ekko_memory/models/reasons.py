"""Why something happened, for an interface that words it in the user's language."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ekko_memory.models.base import CamelModel, StoreName


class StoreProblemNote(CamelModel):
    """The store problem behind a result's English text (a warning, a reason): the store,
    its status and its health's code and specifics (``StoreHealth.reason_code`` /
    ``reason_args``), for an interface that words it in the user's language. Results carry
    it beside their text and leave it out of their JSON: agents and scripts read the text."""

    store: StoreName
    status: str
    code: str | None = None
    args: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def of(cls, store: StoreName, health: Any) -> StoreProblemNote:
        """The problem of ``store`` as its ``StoreHealth`` gives it."""
        return cls(
            store=store,
            status=health.status,
            code=health.reason_code,
            args=dict(health.reason_args),
        )
