"""``ekko_memory.aio``: the asyncio facade (see ``ekko_memory.interfaces.aio``)."""

from ekko_memory.interfaces.aio import AsyncMemory, AsyncSession

__all__ = ["AsyncMemory", "AsyncSession"]
