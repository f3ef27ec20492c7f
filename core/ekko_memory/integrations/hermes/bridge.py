"""Ekko behind Hermes Agent's memory-provider calls, without importing Hermes.

``provider.py`` adapts Hermes's ``MemoryProvider`` interface to this class; everything
that touches memory is here, testable without Hermes.

Threads. Hermes calls in from at least three: ``prefetch`` on a thread of its own per
turn, ``sync_turn`` / ``queue_prefetch`` / session-boundary work on one background worker
(in order), tool calls and built-in memory writes on the agent's thread. The bridge's
own state (the session, the open turns, what was shown) is guarded by one lock, never
held across a store call; the memory service is thread-safe.

The log. The user's message is logged when the turn first needs it as the source of a
write (a tool call that writes, a mirrored built-in memory write), else with the reply
in ``sync_turn``: intent is judged from that log, never from a ``userMessage`` argument
(the tools offered to Hermes have none, and one passed anyway is dropped). The reply is
logged with the memories this turn's prefetch showed (``usedMemoryIds``).

Failure. Nothing raises into Hermes: a store that cannot open, is locked or corrupt gives
an empty prefetch and tool results with a clear error; why goes to Hermes's log (the
``ekko_memory.hermes`` logger), once per distinct reason.
"""

from __future__ import annotations

import itertools
import json
import logging
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from ekko_memory.errors import EkkoMemoryError, InvalidInput
from ekko_memory.integrations.hermes.mirror import mirror_proposal
from ekko_memory.integrations.hermes.prefetch import render_unseen
from ekko_memory.integrations.hermes.settings import HermesSettings
from ekko_memory.integrations.hermes.shared_memory import SHARED, SharedMemories
from ekko_memory.interfaces.tools import TOOL_NAMES, TOOL_SCHEMAS, error_result
from ekko_memory.models import MemoryMessage
from ekko_memory.service.config import LlmConfig, MemoryConfig, load_config
from ekko_memory.service.memory_service import MemoryService, open_memory
from ekko_memory.service.paths import StorePaths
from ekko_memory.service.session import MemorySession

log = logging.getLogger("ekko_memory.hermes")

READ_TOOLS = frozenset({"memory_search", "memory_get"})
# How long a turn's first write waits for the previous turn's reply to be logged (Hermes
# logs it on its background worker, in milliseconds; a turn that was interrupted never
# is), so the log keeps the conversation's order.
PREVIOUS_REPLY_WAIT_S = 1.0
# What a resumed session showed before, read back from this many of its last messages.
SHOWN_LOOKBACK = 200

SYSTEM_PROMPT = """# Ekko memory
Your long-term memory is Ekko Memory: local, audited, and reviewed by the user in the Ekko Memory app. Memories relevant to the user's message arrive inside <memory-context>.
- memory_search: look up more (Chinese and English words both work).
- memory_get: one memory by id, or the current one for a key (e.g. avoid_ingredient).
- memory_propose_update: when the user asks you to remember, correct or update something, call it at once. Say it is remembered only when the result has accepted=true; otherwise it waits for the user's approval in the Ekko Memory app — tell them so.
- memory_forget: when the user asks you to forget something.
Only the user can approve a pending memory; you cannot."""


def hermes_tool_schemas() -> list[dict[str, Any]]:
    """The four tools as bare function schemas, without ``userMessage``: Hermes logs the
    user's words itself, so the model has none to report."""
    out = []
    for tool in TOOL_SCHEMAS:
        schema = json.loads(json.dumps(tool["function"]))
        schema["parameters"]["properties"].pop("userMessage", None)
        out.append(schema)
    return out


_turn_numbers = itertools.count()


@dataclass(eq=False)
class _Turn:
    """One user turn: its session, the user's words, and what Ekko did with them."""

    session: MemorySession
    text: str
    message: MemoryMessage | None = None
    # Memories this turn's prefetch put in front of the model.
    shown: list[str] = field(default_factory=list)
    number: int = field(default_factory=lambda: next(_turn_numbers))


@dataclass(frozen=True)
class StartInfo:
    """What Hermes told the provider at ``initialize``."""

    session_id: str
    hermes_home: str | None = None
    agent_workspace: str | None = None
    agent_context: str = "primary"
    user_id: str | None = None
    # The endpoint Hermes chats with, when the user lets extraction use it.
    hermes_llm: LlmConfig | None = None


class HermesBridge:
    """Ekko Memory for one Hermes agent (one provider instance)."""

    def __init__(self, settings: HermesSettings, *, memories: SharedMemories = SHARED) -> None:
        self.settings = settings
        self._memories = memories
        self._lock = threading.RLock()
        self._synced = threading.Condition(self._lock)
        # Serializes logging a turn's user message (agent thread and background worker).
        self._log_lock = threading.Lock()
        self._mem: MemoryService | None = None
        self._owned = False
        self._session: MemorySession | None = None
        self._user_id: str | None = None
        self._writes = True
        self._context = "primary"
        self._unavailable: str | None = "Ekko memory was not started"
        self._turns: deque[_Turn] = deque(maxlen=16)
        self._shown: OrderedDict[str, set[str]] = OrderedDict()
        self._said: set[str] = set()
        # Sessions Hermes ended while a turn of theirs may still be on its way.
        self._ended: set[str] = set()

    # --- lifecycle ------------------------------------------------------------------

    def start(self, info: StartInfo, *, memory: MemoryService | None = None) -> None:
        """Open (or share) the memory and bind the session; never raises. ``memory``: one
        opened elsewhere, which the bridge uses but does not close (tests, embedding)."""
        self._context = info.agent_context or "primary"
        # Subagents, cron jobs and flushes read memories but write none: their prompts
        # are not the user's words.
        self._writes = self._context == "primary"
        self._user_id = info.user_id or None
        try:
            if memory is None:
                memory = self._open(info)
                self._owned = True
            with self._lock:
                self._mem = memory
                self._unavailable = None
                self._session = memory.session(info.session_id or "hermes", user_id=self._user_id)
        except Exception as e:  # a folder that cannot be made, a bad URL...
            self._unavailable = f"{type(e).__name__}: {e}"
            self._say(f"Ekko memory is unavailable: {self._unavailable}")
            return
        for name, health in memory.health().items():
            if health.status != "ok":
                self._say(f"Ekko's {name} store is {health.status}: {health.reason}")
        if memory.config_warning:
            self._say(f"Ekko config: {memory.config_warning}")

    def _open(self, info: StartInfo) -> MemoryService:
        folder = self.settings.workspace_dir(
            hermes_home=info.hermes_home, agent_workspace=info.agent_workspace
        )
        home = self.settings.user_home_dir(hermes_home=info.hermes_home)
        paths = StorePaths.resolve(folder, home)
        config = self._config(paths, info.hermes_llm)
        key = (paths, None if config is None else config.model_dump_json())
        log.info(
            "Ekko memory: workspace store %s, user store %s", paths.workspace_db, paths.user_db
        )
        return self._memories.acquire(
            key, lambda: open_memory(paths.workspace_dir, user_home=paths.user_home, config=config)
        )

    def _config(self, paths: StorePaths, hermes_llm: LlmConfig | None) -> MemoryConfig | None:
        """Ekko's settings with the extraction the provider's setting asks for (None:
        Ekko's own, as the memory service reads them)."""
        mode = self.settings.extraction
        if mode == "ekko":
            return None
        try:
            config = load_config(paths.config_dir)
        except InvalidInput as e:
            self._say(f"Ekko config: {e}; using defaults")
            config = MemoryConfig()
        if mode == "rules":
            return config.model_copy(update={"llm": None})
        if hermes_llm is None:
            self._say(
                "memory.ekko.extraction is hermes, but Hermes's model endpoint could not be "
                "used (it must speak chat completions); Ekko's own extraction runs instead"
            )
            return config
        return config.model_copy(update={"llm": hermes_llm})

    def switch_session(self, session_id: str, *, rewound: bool = False) -> None:
        """Hermes moved to another session id (/new, /resume, /branch, compression)."""
        try:
            with self._lock:
                if self._mem is None or not session_id:
                    return
                self._session = self._mem.session(session_id, user_id=self._user_id)
                if rewound:
                    # The transcript was cut: what earlier turns showed may be gone from it
                    # (not read back from the log, which still holds those turns).
                    self._shown[self._session.session_id] = set()
        except Exception as e:
            self._say(f"Ekko could not switch to session {session_id!r}: {e}")

    def end_session(self) -> None:
        """The conversation ends (or Hermes compresses it): extract from and summarize what
        is logged, now. Hermes may still hold the last turn on its worker (at exit it ends
        the session first): that turn's sync does the same once it has logged it."""
        session = self._current_session()
        if session is None or not self._writes:
            return
        with self._lock:
            self._ended.add(session.session_id)
        self._finish(session)

    def _finish(self, session: MemorySession) -> None:
        report = session.after_reply(final=True)
        for error in report.errors:
            self._say(f"Ekko end-of-session work for {session.session_id}: {error}")

    def shutdown(self) -> None:
        """Let go of the memory (the last user closes it, after its background work)."""
        with self._lock:
            memory, owned = self._mem, self._owned
            self._mem = self._session = None
            self._owned = False
            self._unavailable = "Ekko memory was shut down"
        if memory is not None and owned:
            self._memories.release(memory)

    # --- what Hermes shows the model -----------------------------------------------

    def system_prompt(self) -> str:
        """The lines that explain the four tools (plus why memory is off, if it is)."""
        if self._mem is None:
            return f"{SYSTEM_PROMPT}\n(Ekko memory is unavailable now: {self._unavailable})"
        return SYSTEM_PROMPT

    def begin_turn(self, text: str) -> None:
        """A user turn starts (no store call: the message is logged when needed)."""
        with self._lock:
            if self._session is not None and text.strip():
                self._turns.append(_Turn(self._session, text))
                self._ended.discard(self._session.session_id)  # it goes on

    def prefetch(self, query: str) -> str:
        """Ekko's context for the user's message within the token budget, without what
        earlier turns of the session already showed ("" when nothing new)."""
        try:
            with self._lock:
                session = self._session
                if session is None or not query.strip():
                    return ""
                turn = self._open_turn(session, query)
                if turn is None:  # a Hermes that does not call on_turn_start
                    turn = _Turn(session, query)
                    self._turns.append(turn)
            shown = self._shown_in(session)
            context = session.build_context(query)
            for warning in context.diagnostics.warnings:
                if not warning.startswith("token budget"):
                    self._say(f"Ekko context: {warning}")
            text, ids = render_unseen(context, shown, self.settings.prefetch_tokens)
            with self._lock:
                shown.update(ids)
                turn.shown.extend(ids)
            return text
        except Exception as e:
            self._say(f"Ekko prefetch failed: {type(e).__name__}: {e}")
            return ""

    def _shown_in(self, session: MemorySession) -> set[str]:
        """What earlier turns of the session showed (read back from the log's replies the
        first time a session is met in this process: a resumed session)."""
        sid = session.session_id
        with self._lock:
            known = self._shown.get(sid)
            if known is not None:
                self._shown.move_to_end(sid)
                return known
        seen: set[str] = set()
        try:
            for message in session.service.list_recent_messages(sid, SHOWN_LOOKBACK):
                used = (message.metadata or {}).get("usedMemoryIds")
                if message.role == "assistant" and isinstance(used, list):
                    seen.update(i for i in used if isinstance(i, str))
        except EkkoMemoryError:
            pass  # an unreadable log: every memory is new to this process
        with self._lock:
            known = self._shown.setdefault(sid, seen)
            while len(self._shown) > 64:
                self._shown.popitem(last=False)
            return known

    # --- after the reply ------------------------------------------------------------

    def sync_turn(self, user_content: str, assistant_content: str) -> None:
        """Log the turn (the user's message unless a write logged it, then the reply with
        the memories shown) and queue extraction and the summary chain."""
        if not self._writes:
            return
        with self._lock:
            session = self._session
            if session is None:
                return
            turn = self._take_turn(user_content)
        if self._paused(session):
            # The user paused memory: the turn is not logged, nothing is extracted.
            with self._lock:
                if turn is not None and turn in self._turns:
                    self._turns.remove(turn)
                self._synced.notify_all()
            return
        with self._lock:
            if turn is None:
                turn = _Turn(session, user_content)
                self._turns.append(turn)
        try:
            # No wait here: Hermes syncs in order, so an older open turn never will be.
            message = self._log_user(turn, wait=False)
            turn.session.append_message(
                "assistant", assistant_content, used_memory_ids=turn.shown, parent_id=message.id
            )
            with self._lock:
                ended = turn.session.session_id in self._ended
            if ended:
                self._finish(turn.session)
            else:
                memory = turn.session.service
                memory.background.submit(turn.session.session_id, turn.session.user_id, None)
        except Exception as e:
            self._say(f"Ekko could not log the turn: {type(e).__name__}: {e}")
        finally:
            with self._lock:
                if turn in self._turns:
                    self._turns.remove(turn)
                self._synced.notify_all()

    def _open_turn(self, session: MemorySession, text: str | None = None) -> _Turn | None:
        """The newest open turn of ``session`` (with these words, when given). Locked."""
        for turn in reversed(self._turns):
            if turn.session.session_id == session.session_id and (
                text is None or turn.text == text
            ):
                return turn
        return None

    def _take_turn(self, user_content: str) -> _Turn | None:
        """The open turn Hermes syncs (the oldest with these words); turns opened before
        it were interrupted — Hermes syncs in order and skips those — and are dropped.
        Locked."""
        for turn in self._turns:
            if turn.text == user_content:
                while self._turns[0] is not turn:
                    self._turns.popleft()
                return turn
        return None

    def _log_user(self, turn: _Turn, *, wait: bool = True) -> MemoryMessage:
        """The turn's user message in the session log (logged once), after the previous
        turn's reply when that comes within ``PREVIOUS_REPLY_WAIT_S``."""
        with self._lock:
            deadline = time.monotonic() + PREVIOUS_REPLY_WAIT_S
            while wait and turn.message is None and self._older_than(turn):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._synced.wait(left)
        with self._log_lock:
            if turn.message is None:
                turn.message = turn.session.append_message("user", turn.text)
            return turn.message

    def _older_than(self, turn: _Turn) -> bool:
        """Whether an open turn of the same session began before ``turn``. Locked."""
        sid = turn.session.session_id
        return any(t.number < turn.number and t.session.session_id == sid for t in self._turns)

    # --- tools and mirrored writes --------------------------------------------------

    def call_tool(self, name: str, args: Any) -> dict[str, Any]:
        """One of the four tools, as ``session.call_tool`` answers it; never raises."""
        try:
            session = self._current_session()
            if session is None:
                return error_result(
                    "store_unavailable", f"Ekko memory is unavailable: {self._unavailable}"
                )
            args = _without_user_message(args)
            if self._paused(session):
                # Refused by the dispatcher with reason code memory.paused; nothing logged.
                return session.call_tool(name, args)
            if name in TOOL_NAMES and name not in READ_TOOLS:
                if not self._writes:
                    return error_result(
                        "permission_denied",
                        f"this Hermes agent runs as {self._context}: it reads memories but "
                        "does not write them",
                    )
                self._log_current_turn(session)
            return session.call_tool(name, args)
        except Exception as e:  # the agent must never see a traceback
            return error_result("internal_error", f"{type(e).__name__}: {e}")

    def _log_current_turn(self, session: MemorySession) -> None:
        """Log the user's message of the turn in progress: it is the write's source."""
        with self._lock:
            turn = self._open_turn(session)
        if turn is not None:
            try:
                self._log_user(turn)
            except EkkoMemoryError as e:
                # The write that follows meets the same store and says why it failed.
                self._say(f"Ekko could not log the user's message: {e}")

    def mirror_write(self, action: str, target: str, content: str, old_text: str | None) -> None:
        """A write of Hermes's built-in memory as an Ekko proposal, under the same rules as
        the agent's own (mirror.py)."""
        session = self._current_session()
        if session is None or not self._writes:
            return
        args = mirror_proposal(session, action, target, content, old_text)
        if args is None:
            return
        result = self.call_tool("memory_propose_update", args)
        if "error" in result:
            self._say(f"Ekko did not mirror a built-in memory {action}: {result['reason']}")

    def pre_compress(self) -> str:
        """Ekko's latest summary of the conversation, for Hermes's compression summary."""
        session = self._current_session()
        if session is None or self._paused(session):
            return ""
        try:
            summary = session.service.get_latest_summary(session.session_id)
        except EkkoMemoryError:
            return ""
        if summary is None:
            return ""
        lines = ["Ekko Memory's summary of this conversation so far:"]
        if summary.current_goal:
            lines.append(f"Goal: {summary.current_goal}")
        lines.append(summary.summary)
        return "\n".join(lines)

    def backup_folders(self, *, hermes_home: str | None, agent_workspace: str | None) -> list[str]:
        """The folders of the two stores (for ``hermes backup``)."""
        workspace = self.settings.workspace_dir(
            hermes_home=hermes_home, agent_workspace=agent_workspace
        )
        paths = StorePaths.resolve(workspace, self.settings.user_home_dir(hermes_home=hermes_home))
        return [str(paths.workspace_db.parent), str(paths.user_home)]

    # --- plumbing -------------------------------------------------------------------

    def _paused(self, session: MemorySession) -> bool:
        """Whether the user paused memory (said once in Hermes's log)."""
        try:
            paused = session.service.controls.is_paused()
        except Exception:  # a store that cannot say: the calls meet it and say why
            return False
        if paused:
            self._say("Ekko memory is paused by the user: nothing is read or written")
        return paused

    def _current_session(self) -> MemorySession | None:
        with self._lock:
            return self._session

    def _say(self, message: str) -> None:
        """A diagnostic for Hermes's log, once per distinct text."""
        with self._lock:
            if message in self._said:
                return
            if len(self._said) > 500:
                self._said.clear()
            self._said.add(message)
        log.warning("%s", message)


def _without_user_message(args: Any) -> Any:
    """Tool arguments without ``userMessage``: the model's report of the user's words is
    not the user's words (Hermes logs those)."""
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except (ValueError, RecursionError):
            return args  # the dispatcher says what is wrong with it
    if isinstance(args, dict) and "userMessage" in args:
        return {k: v for k, v in args.items() if k != "userMessage"}
    return args
