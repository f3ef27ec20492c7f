"""``ekko-memory mcp`` in a real subprocess, driven by the official SDK's client over stdio."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters


def server_params(workspace: Path, home: Path, *options: str) -> StdioServerParameters:
    """The server on ``workspace`` and the user store in ``home``, with the ``mcp``
    command's ``options`` (``--user-id u1``, ``--trust-user-message``…)."""
    return StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "ekko_memory",
            "--workspace",
            str(workspace),
            "--user-home",
            str(home),
            "mcp",
            *options,
        ],
        # The SDK starts the server with a minimal environment: pass PYTHONPATH on, so the
        # server runs this checkout's core (not whichever one the interpreter installed).
        env={"EKKO_HOME": str(home), **_python_path()},
    )


def _python_path() -> dict[str, str]:
    path = os.environ.get("PYTHONPATH")
    return {"PYTHONPATH": path} if path else {}


def with_client(
    params: StdioServerParameters,
    body: Callable[[Client], Awaitable[Any]],
    *,
    mode: str = "auto",
) -> Any:
    """``body(client)`` with a client connected to the server (60 s at most)."""

    async def main() -> Any:
        async with Client(params, mode=mode) as client:
            return await body(client)

    return asyncio.run(asyncio.wait_for(main(), timeout=60))


def structured(result: Any) -> dict[str, Any]:
    """A tool result's structured content (checked against its JSON text)."""
    assert json.loads(result.content[0].text) == result.structured_content
    return dict(result.structured_content)
