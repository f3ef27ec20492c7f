"""The agent runtime for asyncio agents, on top of the asyncio facade: store calls on the
memory worker, extraction on a thread of its own (the synchronous ``AgentRuntime`` is
the service's, ``ekko_memory.service.runtime``).

    rt = AsyncAgentRuntime(mem, "s1", user_id="u1")
    turn = await rt.before_model("今晚吃什么？")
    reply = await my_model(system=turn.prompt, user="今晚吃什么？")
    await rt.after_model(reply, turn)
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from ekko_memory.interfaces.aio import AsyncMemory
from ekko_memory.models import MemoryMessage
from ekko_memory.service.extraction.pipeline import AfterReplyReport
from ekko_memory.service.runtime import Turn


class AsyncAgentRuntime:
    """The same for asyncio agents: store calls on the memory worker, extraction on its own thread."""

    def __init__(
        self,
        mem: AsyncMemory,
        session_id: str,
        *,
        user_id: str | None = None,
        workspace_id: str | None = None,
        max_tokens: int = 800,
    ) -> None:
        self.mem = mem
        self.session = mem.session(session_id, user_id=user_id, workspace_id=workspace_id)
        self.max_tokens = max_tokens
        # Slow extractors must not hold up the memory worker that serves build_context.
        self._extraction = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ekko-extract")
        self._tasks: set[asyncio.Future[AfterReplyReport]] = set()

    async def before_model(self, user_text: str) -> Turn:
        """Append the user's message and build the context."""
        message = await self.session.append_message("user", user_text)
        context = await self.session.build_context(user_text)
        return Turn(message, context, context.render(self.max_tokens))

    async def after_model(self, reply: str, turn: Turn) -> MemoryMessage:
        """Append the reply; extraction and summaries run in the background."""
        msg = await self.session.record_reply(reply, turn.context)
        loop = asyncio.get_running_loop()
        task = loop.run_in_executor(self._extraction, self.session.sync.after_reply)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return msg

    async def drain(self) -> None:
        """Wait for background work (before shutdown)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def aclose(self) -> None:
        """Drain and stop the extraction thread."""
        await self.drain()
        self._extraction.shutdown(wait=True)
