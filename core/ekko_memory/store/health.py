"""A store's health: whether it can be read and written, and if not, why."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ekko_memory.store.problem import Problem, ReasonCode

HealthStatus = Literal["ok", "readonly", "degraded", "disabled"]


@dataclass
class StoreHealth:
    """Whether a store can be read and written, and if not, why and how to fix it."""

    status: HealthStatus
    location: str
    reason: str | None = None
    schema_version: int | None = None
    backup: Path | None = None
    warnings: list[str] = field(default_factory=list)
    # The kind of problem ``reason`` words and the specifics it names (see
    # ``store.problem``): for an interface that says it in the user's language.
    reason_code: ReasonCode | None = None
    reason_args: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        status: HealthStatus,
        location: str,
        problem: Problem,
        schema_version: int | None = None,
    ) -> StoreHealth:
        """A store's health with ``problem`` as its reason (its sentence, code and specifics)."""
        return cls(
            status,
            location,
            problem.text,
            schema_version,
            reason_code=problem.code,
            reason_args=dict(problem.args),
        )

    def set_problem(self, status: HealthStatus, problem: Problem) -> None:
        """The store turned ``status`` for ``problem`` (found while it was in use)."""
        self.status = status
        self.reason = problem.text
        self.reason_code = problem.code
        self.reason_args = dict(problem.args)

    @property
    def readable(self) -> bool:
        """Reads are possible (ok, read-only or degraded)."""
        return self.status != "disabled"

    @property
    def writable(self) -> bool:
        """Writes are possible."""
        return self.status == "ok"
