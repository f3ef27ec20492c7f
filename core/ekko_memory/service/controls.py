"""What the user controls over the agent: pins and the pause switch.

A pinned memory can be read by agents but never changed, superseded, expired, deleted or
forgotten by an agent's tool call or the extractor: those are refused with reason code
``node.pinned``. The user (the app, the CLI, ``mem.actions``) still edits or deletes it,
and its new versions stay pinned.

While memory is paused, agents neither read nor write it: the context is empty (its
diagnostics say why), after-reply work stores nothing, the agent tools and the MCP
server refuse with reason code ``memory.paused``, the runtime and the Hermes provider
log nothing. The switch lives in the stores (both, so every process sees it, whichever
of them it can read); the user's own actions keep working.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ekko_memory.errors import PermissionDenied, StoreUnavailable
from ekko_memory.models import MemoryContext, MemoryContextDiagnostics, MemoryNode, PauseState
from ekko_memory.models.reasons import stored_reason
from ekko_memory.store import marks
from ekko_memory.store.sql_store import SqlStore
from ekko_memory.timeutil import from_db

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

PAUSED = "memory.paused"
PINNED = "node.pinned"
SETTING = "paused"


def paused_error() -> PermissionDenied:
    """The error a paused memory answers agents with (reason code ``memory.paused``)."""
    return PermissionDenied(
        "memory is paused by the user: agents neither read nor write it until it is "
        "resumed; nothing was read or written"
    ).because("memory.paused")


def pinned_error(node_id: str) -> PermissionDenied:
    """The error a pinned memory answers agents' changes with (reason code ``node.pinned``)."""
    return PermissionDenied(
        f"memory {node_id} is pinned by the user: agents may read it but not change or delete it"
    ).because("node.pinned", id=node_id)


# The schema version that added the settings table (migrations._v13_marks_and_settings).
_SETTINGS_SINCE = 13


class Controls:
    """Pins and the pause switch of one service (``mem.controls``; the public calls are
    ``mem.pause()``, ``mem.resume()``, ``mem.pause_state()``, ``mem.actions.pin()``…)."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service
        # Per store (by id, the store held so the id is never another's): (store, what
        # says the file is unchanged since, its ``paused`` setting) as last read.
        self._values: dict[int, tuple[SqlStore, tuple[Any, ...], Any]] = {}
        # (the settings, the state they say) as last worked out: every tool call asks.
        self._state: tuple[list[Any], PauseState] | None = None

    # --- pause ----------------------------------------------------------------------

    def pause_state(self, *, read_by_turn: Collection[SqlStore] = ()) -> PauseState:
        """Whether memory is paused, read from the stores (any store that says so);
        ``read_by_turn``: stores left out, a turn reads their switch with its own reads."""
        values = [self._setting(s) for _, s in self.service.stores() if s not in read_by_turn]
        kept = self._state
        if kept is not None and kept[0] == values:
            return kept[1]
        state = self.state_of(values)
        self._state = (values, state)
        return state

    def _setting(self, store: SqlStore) -> Any:
        """``store``'s ``paused`` setting, read again only when it may have changed.

        Every tool call asks, and every governed write commits. On a SQLite file the
        thread's kept connection tells whether any other connection committed since the
        last reading (``others_version``: a pause set by another process, thread or
        store object shows at once), and this process's own setting writes are counted
        (``marks.settings_written``): the store's own writes in between leave the reading
        valid (~20 µs a store to ask, where reading the switch after every write cost
        ~40 more). Elsewhere the store's change count, which any commit moves."""
        version = store.others_version()
        key: tuple[Any, ...] | None
        if version is not None:
            key = ("others", *version, marks.settings_written())
        else:
            count = store.change_count()
            key = None if count is None else ("count", count)
        held = self._values.get(id(store))
        if key is not None and held is not None and held[0] is store and held[1] == key:
            return held[2]
        # The key is taken before the read: a commit in between makes the next call read again.
        value = self._read(store)
        if key is None:
            self._values.pop(id(store), None)
        else:
            self._values[id(store)] = (store, key, value)
        return value

    @staticmethod
    def state_of(values: Iterable[Any]) -> PauseState:
        """The pause state the stores' ``paused`` settings say (any that says paused)."""
        for value in values:
            if isinstance(value, dict) and value.get("paused"):
                return PauseState(
                    paused=True,
                    since=from_db(value.get("since")),
                    by=value.get("by"),
                    reason_code=PAUSED,
                )
        return PauseState()

    @staticmethod
    def _read(store: SqlStore) -> Any:
        if not store.health.readable or (store.health.schema_version or 0) < _SETTINGS_SINCE:
            return None  # a store of a release before the pause switch has none
        try:
            # Every tool call asks, and every write changes the stores' counts: the
            # thread's snapshot connection and the bare statement (~30 µs, was ~300 µs
            # through a pooled read transaction and SQLAlchemy's statement machinery).
            with store.snapshot() as r:
                rows = r.dialect.fetch(r.conn, marks.SETTING_SELECT, {"name": SETTING})
                return marks.setting_value(rows[0] if rows else None)
        except StoreUnavailable:
            return None

    def paused_context(self, *, read_by_turn: Collection[SqlStore] = ()) -> MemoryContext | None:
        """The empty context of a paused memory (None when it is not paused, or a store
        cannot say: the context then meets the store and says why). ``read_by_turn``:
        stores whose switch the turn reads in its own snapshot (``context_builder``)."""
        try:
            if not self.pause_state(read_by_turn=read_by_turn).paused:
                return None
        except Exception:
            return None
        return self.empty_context()

    @staticmethod
    def empty_context() -> MemoryContext:
        """A paused memory's context: nothing, and why (reason code ``memory.paused``)."""
        return MemoryContext(
            diagnostics=MemoryContextDiagnostics(
                enabled=False, warnings=[str(paused_error())], reason_code="memory.paused"
            )
        )

    def is_paused(self) -> bool:
        """``pause_state().paused``."""
        return self.pause_state().paused

    def require_running(self) -> None:
        """Raise ``memory.paused`` (PermissionDenied) while memory is paused."""
        if self.is_paused():
            raise paused_error()

    def set_paused(self, paused: bool, *, actor: str = "user") -> PauseState:
        """Pause or resume, in every store that can be written, audited in each."""
        now = self.service.now()
        value: dict[str, Any] = {"paused": paused}
        if paused:
            value |= {"since": now.isoformat(), "by": actor}
        written = 0
        failures: list[str] = []
        for name, store in self.service.stores():
            if not store.health.writable:
                failures.append(f"the {name} store cannot be written ({store.health.reason})")
                continue
            with store.write() as w:
                before = marks.get_setting(w.conn, SETTING)
                was = isinstance(before, dict) and bool(before.get("paused"))
                if was == paused:
                    written += 1
                    continue
                marks.put_setting(w.conn, SETTING, value, now)
                w.add_audit(
                    "pause" if paused else "resume",
                    actor=actor,
                    reason=stored_reason("user.paused" if paused else "user.resumed"),
                    at=now,
                    payload={"paused": paused},
                )
                written += 1
        self._values.clear()
        state = self.pause_state()
        if not written or (not paused and state.paused):
            raise StoreUnavailable(
                f"memory could not be {'paused' if paused else 'resumed'}: {'; '.join(failures)}"
            )
        return state

    # --- pins -----------------------------------------------------------------------

    def pinned_at(self, node: MemoryNode) -> datetime | None:
        """When ``node`` was pinned (None: not pinned)."""
        if node.scope == "global":
            return None
        store = self.service.store_for_scope(node.scope)
        if not store.health.readable:
            return None
        with store.read() as r:
            return marks.marked(r.conn, marks.PIN, [node.id]).get(node.id)

    def pinned_among(self, nodes: Sequence[MemoryNode]) -> list[MemoryNode]:
        """The pinned ones of ``nodes``."""
        out: list[MemoryNode] = []
        for name, store in self.service.stores():
            here = [n for n in nodes if n.scope != "global" and _store_name(n) == name]
            if not here or not store.health.readable:
                continue
            with store.read() as r:
                found = marks.marked(r.conn, marks.PIN, [n.id for n in here])
            out += [n for n in here if n.id in found]
        return out

    def refuse_if_pinned(self, node: MemoryNode) -> None:
        """Raise ``node.pinned`` when ``node`` is pinned (for agents' and extractors' changes)."""
        if self.pinned_at(node) is not None:
            raise pinned_error(node.id)

    def pinned(self) -> dict[str, datetime]:
        """Every pinned memory's id, with when it was pinned."""
        out: dict[str, datetime] = {}
        for _, store in self.service.stores():
            if store.health.readable:
                with store.read() as r:
                    out |= marks.all_marked(r.conn, marks.PIN)
        return out


def _store_name(node: MemoryNode) -> str:
    return "user" if node.scope == "user" else "workspace"
