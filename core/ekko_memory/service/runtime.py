"""The agent runtime around the memory service (AgentRuntime of the design doc).

Before the model call: append the user's message and build the context. After the
reply: append the assistant's message with the memories it used, then extract and
summarize in the background, off the reply's critical path.

    rt = AgentRuntime(mem, "s1", user_id="u1")
    turn = rt.before_model("今晚吃什么？")
    reply = my_model(system=turn.prompt, user="今晚吃什么？")
    rt.after_model(reply, turn)
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ekko_memory.models import MemoryContext, MemoryMessage
from ekko_memory.service.extraction.pipeline import AfterReplyReport

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService
    from ekko_memory.service.session import MemorySession


@dataclass
class Turn:
    """One turn in progress: the user's message, its memory context and the prompt text."""

    message: MemoryMessage
    context: MemoryContext
    prompt: str


# How long closing waits for after-reply work in progress (an LLM call may take longer).
STOP_TIMEOUT_S = 10.0


class BackgroundWorker:
    """One daemon thread running after-reply work; a session queued twice runs once."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service
        self._queue: queue.Queue[tuple[str, str | None, str | None] | None] = queue.Queue()
        self._queued: set[str] = set()
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._stopping = threading.Event()
        self.reports: list[AfterReplyReport] = []
        # Jobs that failed outright (their messages are read again by the next run).
        self.errors: list[str] = []
        self.listeners: list[Callable[[AfterReplyReport], None]] = []
        self._thread = threading.Thread(
            target=self._loop, name="ekko-memory-after-reply", daemon=True
        )
        self._thread.start()

    def submit(self, session_id: str, user_id: str | None, workspace_id: str | None) -> None:
        """Schedule extraction + summary for a session (coalesced)."""
        with self._lock:
            if session_id in self._queued:
                return
            self._queued.add(session_id)
            self._idle.clear()
        self._queue.put((session_id, user_id, workspace_id))

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                self._idle.set()  # stopped: nothing more will run
                return
            session_id, user_id, workspace_id = item
            with self._lock:
                self._queued.discard(session_id)
            if self._stopping.is_set():
                # Left for the next run: the cursors stay before these messages.
                self._settle()
                continue
            try:
                report = self.service.after_reply_runner.run(
                    session_id, user_id=user_id, workspace_id=workspace_id
                )
                if not self._stopping.is_set():
                    self.service.after_reply_runner.retry_due()
            except Exception as e:  # the worker outlives any one job (closed stores on stop)
                # The cursors stay before the job's messages: the next run reads them again.
                self.errors = [*self.errors[-99:], f"{type(e).__name__}: {e}"]
                self._settle()
                continue
            self.reports = [*self.reports[-99:], report]
            for listener in list(self.listeners):
                try:
                    listener(report)
                except Exception:  # a listener's bug must not stop the worker
                    pass
            self._settle()

    def _settle(self) -> None:
        with self._lock:
            if not self._queued and self._queue.empty():
                self._idle.set()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until queued work is done (tests, shutdown); False on timeout."""
        return self._idle.wait(timeout)

    def stop(self, timeout: float | None = None) -> bool:
        """Finish the job in progress (queued ones wait for the next run) and stop the
        thread; False when the job outlasted ``timeout`` (its writes then fail on the
        closed stores, and its messages are extracted next time)."""
        self._stopping.set()
        self._queue.put(None)
        self._thread.join(STOP_TIMEOUT_S if timeout is None else timeout)
        return not self._thread.is_alive()


class AgentRuntime:
    """Memory around each model call for one session (synchronous agents)."""

    def __init__(
        self,
        mem: MemoryService,
        session_id: str,
        *,
        user_id: str | None = None,
        workspace_id: str | None = None,
        max_tokens: int = 800,
        background: bool = True,
    ) -> None:
        self.mem = mem
        self.session: MemorySession = mem.session(
            session_id, user_id=user_id, workspace_id=workspace_id
        )
        self.max_tokens = max_tokens
        self.background = background

    def before_model(self, user_text: str) -> Turn:
        """Append the user's message and build the context (never raises on store trouble)."""
        try:
            message = self.session.append_message("user", user_text)
        except Exception:
            # A broken log must not stop the reply: carry on with an unsaved message.
            message = MemoryMessage(
                id="msg_unsaved",
                session_id=self.session.session_id,
                role="user",
                content=user_text,
                created_at=self.mem.now(),
            )
        context = self.session.build_context(user_text)
        return Turn(message, context, context.render(self.max_tokens))

    def after_model(self, reply: str, turn: Turn) -> MemoryMessage | None:
        """Append the reply with the memories it used; schedule extraction and summaries."""
        try:
            msg = self.session.record_reply(reply, turn.context)
        except Exception:
            msg = None
        if self.background:
            self.mem.background.submit(
                self.session.session_id, self.session.user_id, self.session.workspace_id
            )
        else:
            self.session.after_reply()
        return msg
