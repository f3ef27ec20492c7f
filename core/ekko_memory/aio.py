"""``ekko_memory.aio``: the asyncio facade (see ``ekko_memory.interfaces.aio``) and the
async agent runtime (``AsyncAgentRuntime``, see ``ekko_memory.interfaces.aio_runtime``)."""

from ekko_memory.interfaces.aio import AsyncMemory, AsyncSession
from ekko_memory.interfaces.aio_runtime import AsyncAgentRuntime

__all__ = ["AsyncAgentRuntime", "AsyncMemory", "AsyncSession"]
