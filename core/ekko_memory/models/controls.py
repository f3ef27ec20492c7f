"""What the user controls: the pause switch, and the preview of forgetting everything
about a word, a selection, or all of it."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ekko_memory.models.base import CamelModel, OptUtcDatetime
from ekko_memory.models.transfer import PurgePlan, PurgeReport


class PauseState(CamelModel):
    """Whether memory is paused (``mem.pause_state()``): while it is, agents neither read
    nor write memory (context empty, extraction off, tools refused with reason code
    ``memory.paused``); the user's own actions still work."""

    paused: bool = False
    since: OptUtcDatetime = None
    by: str | None = None
    # ``memory.paused`` while paused (the code an interface words), None otherwise.
    reason_code: str | None = None


ForgetKind = Literal["word", "selection", "all"]


class ForgetPreview(CamelModel):
    """What ``mem.forget_previewed(preview)`` will remove, in plain counts.

    ``memories``: memories (each with all its versions, counted in ``versions``);
    ``messages``: messages of the conversation log; ``summaries``: conversation summaries
    that go or lose their text. ``token`` ties the preview to the forget: a preview whose
    records changed meanwhile is refused (preview again). ``plan`` is the purge's dry run
    underneath, record by record.
    """

    kind: ForgetKind
    word: str | None = None
    node_ids: list[str] = Field(default_factory=list)
    include_messages: bool = True
    memories: int = 0
    versions: int = 0
    messages: int = 0
    summaries: int = 0
    titles: list[str] = Field(default_factory=list)
    token: str = ""
    plan: PurgePlan | None = None

    def counts(self) -> dict[str, int]:
        """``{memories, versions, messages, summaries}``."""
        return {
            "memories": self.memories,
            "versions": self.versions,
            "messages": self.messages,
            "summaries": self.summaries,
        }

    @property
    def empty(self) -> bool:
        """Nothing to forget."""
        return not (self.versions or self.messages or self.summaries)


class ForgetResult(CamelModel):
    """What ``mem.forget_previewed`` removed (counts as in the preview) and the purge report
    (its ``verification`` searched the files' bytes for the forgotten text)."""

    memories: int = 0
    versions: int = 0
    messages: int = 0
    summaries: int = 0
    report: PurgeReport
