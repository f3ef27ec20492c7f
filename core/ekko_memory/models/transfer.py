"""Export, import and purge: what to select and what each did."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ekko_memory.models.base import (
    CamelModel,
    CategoryPath,
    FilterDatetime,
    NodeStatus,
    Role,
    Scope,
    StoreName,
    bounded_text,
)
from ekko_memory.models.reasons import StoreProblemNote

ExportFormat = Literal["json", "md", "csv"]


class ExportSelection(CamelModel):
    """What to export: everything (the default), some scopes, and/or one category branch.

    A store selected whole (no category, all of its scopes) is exported with its whole
    message log, summaries, audit and pending items; a partial selection carries its
    nodes (every version of their chains), their audit, usage and related pending
    items, and the nodes' source messages when ``include_messages``.
    """

    scopes: list[Scope] | None = None
    category_path_prefix: CategoryPath | None = None
    include_messages: bool = True


class ExportReport(CamelModel):
    """What an export wrote (``path`` is None when it was cancelled: nothing is left behind).

    ``warning_problems`` (not in the JSON): for each of ``warnings``, the store problem it
    quotes (a store skipped as it cannot be read), or None.
    """

    path: str | None
    format: ExportFormat
    counts: dict[str, int] = Field(default_factory=dict)
    bytes: int = 0
    cancelled: bool = False
    warnings: list[str] = Field(default_factory=list)
    warning_problems: list[StoreProblemNote | None] = Field(default_factory=list, exclude=True)


class ImportReport(CamelModel):
    """What an import did, by kind of record (nodes, audit, messages, summaries, pending, usage, cursors).

    ``added``: new records; ``skipped``: already present (or refused, see ``notes``);
    ``updated``: present records whose status the bundle moved on (a node superseded,
    expired or deleted since, an older version a newer imported one continues);
    ``superseded``: every node id the import left superseded — that lost a conflict with
    a newer node for the same key (imported or local), that a newer imported version
    continues, or that the bundle shows superseded since. These count only what was
    committed. ``duplicates``: ids the bundle held more than once, by kind of record
    (only the first was read).

    ``committed_stores``: the stores whose import was committed (a store the bundle has
    nothing for is in neither list). ``cancelled``: the import was cancelled;
    ``cancelled_stores`` then names the stores the bundle had records for that hold
    nothing of it (their transaction was rolled back, or never started). Importing the
    same bundle again completes a cancelled import.
    """

    path: str
    bundle_version: int
    added: dict[str, list[str]] = Field(default_factory=dict)
    skipped: dict[str, list[str]] = Field(default_factory=dict)
    updated: dict[str, list[str]] = Field(default_factory=dict)
    superseded: list[str] = Field(default_factory=list)
    duplicates: dict[str, list[str]] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    cancelled: bool = False
    committed_stores: list[StoreName] = Field(default_factory=list)
    cancelled_stores: list[StoreName] = Field(default_factory=list)

    def count(self, what: Literal["added", "skipped", "updated"]) -> dict[str, int]:
        """Record counts per kind for one outcome."""
        return {kind: len(ids) for kind, ids in getattr(self, what).items() if ids}

    @property
    def changed(self) -> bool:
        """True when the import wrote anything."""
        return any(self.added.values()) or any(self.updated.values()) or bool(self.superseded)


PurgeKind = Literal["node", "audit", "pending", "usage", "message", "summary", "job", "cursor"]
PURGE_KINDS: tuple[PurgeKind, ...] = (
    "node",
    "audit",
    "pending",
    "usage",
    "message",
    "summary",
    "job",
    "cursor",
)


class PurgeFilter(CamelModel):
    """What to purge for good; every given criterion must hold (they are ANDed).

    Nodes match by scope, workspace id, user id, category branch, session, creation time
    (``after`` ≤ t < ``before``) and text (``query``: the words anywhere in title, content,
    value, tags or entities, full-text or substring). Every version of a matching
    memory goes. With ``include_messages`` the nodes' source messages go too, and so do
    messages matching the session / time / text criteria; summaries covering them lose
    their text (a purged session's summaries go entirely).
    """

    scopes: list[Scope] | None = None
    workspace_id: str | None = None
    user_id: str | None = None
    category_path_prefix: CategoryPath | None = None
    session_id: str | None = None
    after: FilterDatetime = None
    before: FilterDatetime = None
    query: Annotated[str, bounded_text(2000)] | None = None
    # ``words``: ``query`` matches case-insensitively, a Latin word only whole ("salt" is
    # not in "salty"), Chinese as a substring (``service/word_match.py``).
    match: Literal["substring", "words"] = "substring"
    # Memories named by id (each with every version); ANDed with the other criteria.
    node_ids: list[str] | None = None
    # Messages named by id (with ``include_messages``). Alone, they are all it purges
    # (and the pending items quoting them), no memory.
    message_ids: list[str] | None = None
    include_messages: bool = False
    # Migration backups holding purged data are deleted (False: kept and reported).
    remove_backups: bool = True

    @property
    def messages_only(self) -> bool:
        """The filter names messages by id and nothing else: no memory is purged."""
        rest = self.model_dump(
            exclude={"message_ids", "include_messages", "remove_backups", "match"},
            exclude_defaults=True,
        )
        return bool(self.message_ids) and not rest

    @model_validator(mode="after")
    def _something(self) -> PurgeFilter:
        if self.query is not None and not self.query.strip():
            raise ValueError("query is empty")
        if not any(
            (
                self.scopes,
                self.workspace_id,
                self.user_id,
                self.category_path_prefix,
                self.session_id,
                self.after,
                self.before,
                self.query,
                self.node_ids,
                self.message_ids,
            )
        ):
            raise ValueError(
                "name what to purge: scopes, workspace, user, category, session, dates or a query"
            )
        if self.message_ids and not self.include_messages:
            raise ValueError("message ids name messages: set include_messages")
        if self.after and self.before and self.after >= self.before:
            raise ValueError("'after' must be earlier than 'before'")
        if "global" in (self.scopes or []):
            raise ValueError("global memories ship with the app and cannot be purged")
        return self


class PurgeTarget(CamelModel):
    """One record a purge removes (``delete``) or empties of text (``scrub``)."""

    store: StoreName
    kind: PurgeKind
    id: str
    action: Literal["delete", "scrub"] = "delete"
    label: str = ""
    # What ``label`` is made of, for an interface to word: a memory's title and status
    # ("title (status)"), a message's text and role ("role: text").
    text: str = ""
    status: NodeStatus | None = None
    role: Role | None = None


class PurgePlan(CamelModel):
    """The dry run: every record the purge will touch. ``purge(plan)`` touches exactly these."""

    filter: PurgeFilter
    targets: list[PurgeTarget] = Field(default_factory=list)
    # Memories (chains) among the node versions.
    memories: int = 0
    # Text the verification looks for afterwards (the query, titles and contents).
    needles: list[str] = Field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many records of each kind (``node`` counts versions)."""
        out: dict[str, int] = dict.fromkeys(PURGE_KINDS, 0)
        for t in self.targets:
            out[t.kind] += 1
        return out

    def ids(self, kind: PurgeKind, store: StoreName | None = None) -> list[str]:
        """Ids of one kind (in one store)."""
        return [t.id for t in self.targets if t.kind == kind and store in (None, t.store)]


class PurgeFinding(CamelModel):
    """Where purged text was still found (``location``: table:…, search-index, file:…, backup:…)."""

    text: str
    location: str
    count: int = 1


class PurgeVerification(CamelModel):
    """The search for the purged text after the purge.

    ``leaks``: text found where no live record explains it (free pages, the WAL, an
    orphaned index entry, a backup). ``kept``: text still held by records the purge did
    not cover (a message when messages were not included, another memory with the same
    title). ``clean`` means no leaks, and the query text (if any) is nowhere.
    """

    clean: bool
    texts_checked: int = 0
    files_scanned: list[str] = Field(default_factory=list)
    leaks: list[PurgeFinding] = Field(default_factory=list)
    kept: list[PurgeFinding] = Field(default_factory=list)


class PurgeReport(CamelModel):
    """What a purge did: the records removed, files cleaned, and the verification."""

    purged: list[PurgeTarget] = Field(default_factory=list)
    memories: int = 0
    cancelled: bool = False
    backups_removed: list[str] = Field(default_factory=list)
    backups_kept: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    verification: PurgeVerification | None = None

    def counts(self) -> dict[str, int]:
        """How many records of each kind were purged."""
        out: dict[str, int] = dict.fromkeys(PURGE_KINDS, 0)
        for t in self.purged:
            out[t.kind] += 1
        return out
