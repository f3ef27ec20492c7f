"""``ekko-memory mcp``: the four memory tools over MCP stdio, on the official ``mcp`` SDK (2.x).

Built on the SDK's low-level ``Server`` so the tools keep exactly the JSON schemas of
``interfaces/tools.py`` (the ones OpenAI-style agents get), plus three optional
binding arguments: ``sessionId`` names the conversation of one call; ``userId`` and
``workspaceId`` may name the user and workspace only where the command line left them
open (or the server was started with ``--allow-identity-override``): a server started
with ``--user-id`` / ``--workspace-id`` answers for that identity alone, and a call
naming another is an error result. ``userMessage`` is the agent's report of the user's
words — kept as a write's source, never read as the user's request — unless the server
was started with ``--trust-user-message`` (see ``docs/security.md``). Tool results are the
design doc's JSON shapes, as structured content and as JSON text; a call that fails
(invalid arguments, a proposal the service refuses) returns ``isError: true`` with the
reason, while nothing found (``found: false``, ``deletedIds: []``) and a proposal held for
the user are results; an unknown tool is a JSON-RPC error, and none stops the server.

Also offered: the resource ``ekko://memory/context`` (the bound session's standing
memory: constraints, preferences, tasks) and the prompt ``memory_context`` (the memory
context for a given user message). Approvals are not exposed: only the user decides.

The synchronous core runs on the ``AsyncMemory`` worker thread, so a slow write never
blocks the server's event loop.
"""

from __future__ import annotations

import asyncio
import copy
import io
import json
import os
import re
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from typing import Any

import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from ekko_memory.interfaces.aio import AsyncMemory
from ekko_memory.interfaces.tools import TOOL_NAMES, TOOL_SCHEMAS, dispatch, tool_error
from ekko_memory.models.context_render import RENDER_NOTES
from ekko_memory.service.memory_service import MemoryService
from ekko_memory.service.session import MemorySession

SERVER_NAME = "ekko-memory"
CONTEXT_URI = "ekko://memory/context"
CONTEXT_PROMPT = "memory_context"
CONTEXT_TOKENS = 800
# Session handles the server keeps (one per sessionId/userId/workspaceId binding).
SESSION_HANDLES = 256

INSTRUCTIONS = (
    "Long-term memory of this user and workspace. Before answering, call memory_search for "
    "what you need (Chinese and English words work). When the user explicitly asks you to "
    "remember something, call memory_propose_update at once and pass their words as "
    "userMessage; say it is remembered only when the result has accepted=true (otherwise it "
    "waits for the user's approval). When the user asks to forget, call memory_forget."
)

_BINDING_PROPERTIES: dict[str, Any] = {
    "sessionId": {
        "type": "string",
        "description": "Conversation id for this call (default: the server's --session).",
    },
    "userId": {
        "type": "string",
        "description": "User the memories belong to (default: --user-id; a server started with --user-id answers for that user only).",
    },
    "workspaceId": {
        "type": "string",
        "description": "Workspace the memories belong to (default: --workspace-id; a server started with --workspace-id answers for that workspace only).",
    },
}
_BINDING_KEYS = {"sessionId": "session_id", "userId": "user_id", "workspaceId": "workspace_id"}
_READ_ONLY = {"memory_search", "memory_get"}


@dataclass(frozen=True)
class Binding:
    """Which session, user and workspace the calls belong to."""

    session_id: str = "mcp"
    user_id: str | None = None
    workspace_id: str | None = None


@dataclass(frozen=True)
class Trust:
    """What the server takes from its client on trust (nothing, by default)."""

    # ``userMessage`` is what the user typed (the client vouches for it), logged as theirs.
    user_message: bool = False
    # A call may name another user or workspace than the command line bound.
    identity_override: bool = False


class Refused(Exception):
    """A call's binding arguments were refused: answered as an error result."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def mcp_tools() -> list[types.Tool]:
    """The four tools with their JSON schemas (plus the binding arguments)."""
    tools = []
    for schema in TOOL_SCHEMAS:
        fn = schema["function"]
        params = copy.deepcopy(fn["parameters"])
        params["properties"].update(copy.deepcopy(_BINDING_PROPERTIES))
        name = fn["name"]
        tools.append(
            types.Tool(
                name=name,
                description=fn["description"],
                input_schema=params,
                annotations=types.ToolAnnotations(
                    read_only_hint=name in _READ_ONLY,
                    destructive_hint=name == "memory_forget",
                    idempotent_hint=name in _READ_ONLY,
                ),
            )
        )
    return tools


def tool_result(result: dict[str, Any]) -> types.CallToolResult:
    """A dispatcher result as an MCP tool result (structured and as JSON text)."""
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(result, ensure_ascii=False))],
        structured_content=result,
        is_error="error" in result,
    )


class MemoryMcp:
    """The MCP handlers over one memory."""

    def __init__(self, mem: AsyncMemory, binding: Binding, trust: Trust | None = None) -> None:
        self.mem = mem
        self.binding = binding
        self.trust = trust or Trust()
        # The handles of recent bindings, newest last (a client naming a new sessionId per
        # conversation would otherwise grow this for as long as the server runs).
        self._sessions: OrderedDict[Binding, MemorySession] = OrderedDict()
        self._tools = mcp_tools()

    def session(self, binding: Binding) -> MemorySession:
        """The session handle of a binding (the recent ones are kept: each remembers the
        last message it appended, the parent of its next one)."""
        handle = self._sessions.get(binding)
        if handle is None:
            handle = self.mem.service.session(
                binding.session_id, user_id=binding.user_id, workspace_id=binding.workspace_id
            )
            self._sessions[binding] = handle
            if len(self._sessions) > SESSION_HANDLES:
                self._sessions.popitem(last=False)
        else:
            self._sessions.move_to_end(binding)
        return handle

    def bind(self, args: dict[str, Any]) -> Binding:
        """The binding for one call: the server's, with ``sessionId``/``userId``/``workspaceId``
        popped from ``args``. A user or workspace the command line bound is the only one
        a call may name (unless ``--allow-identity-override``); raises ``Refused``."""
        overrides: dict[str, str] = {}
        for key, field in _BINDING_KEYS.items():
            if key not in args:
                continue
            value = args.pop(key)
            if not isinstance(value, str) or not value.strip() or len(value) > 200:
                raise Refused("invalid_arguments", f"{key} must be a non-empty string")
            bound = getattr(self.binding, field)
            if (
                field != "session_id"
                and bound is not None
                and value != bound
                and not self.trust.identity_override
            ):
                option = "--" + field.replace("_", "-")
                raise Refused(
                    "permission_denied",
                    f"{key}: this server answers for {option} {bound!r} only; "
                    "nothing was read or written",
                )
            overrides[field] = value
        return replace(self.binding, **overrides)

    async def list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        """tools/list."""
        return types.ListToolsResult(tools=self._tools)

    async def call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        """tools/call: validate the name, bind the session, run the tool on the worker."""
        if params.name not in TOOL_NAMES:
            raise MCPError(
                types.INVALID_PARAMS,
                f"unknown tool {params.name!r}; tools: {', '.join(TOOL_NAMES)}",
            )
        args = dict(params.arguments or {})
        try:
            binding = self.bind(args)
        except Refused as e:
            return tool_result(tool_error(params.name, e.code, str(e)))
        result = await self.mem.run(
            dispatch,
            self.session(binding),
            params.name,
            args,
            trust_user_message=self.trust.user_message,
        )
        return tool_result(result)

    async def list_resources(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        """resources/list: the standing memory context."""
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=CONTEXT_URI,
                    name="memory-context",
                    title="Memory context",
                    description="Constraints, preferences and tasks this session's replies should follow.",
                    mime_type="text/plain",
                )
            ]
        )

    async def read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        """resources/read ``ekko://memory/context``."""
        if str(params.uri) != CONTEXT_URI:
            raise MCPError(
                types.INVALID_PARAMS, f"unknown resource {params.uri}; try {CONTEXT_URI}"
            )
        text = await self.mem.run(self._render, self.binding, "")
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(uri=CONTEXT_URI, mime_type="text/plain", text=text)
            ]
        )

    async def list_prompts(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        """prompts/list: the memory context for a message."""
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=CONTEXT_PROMPT,
                    description="What long-term memory says about a user message (for the system prompt).",
                    arguments=[
                        types.PromptArgument(
                            name="message", description="The user's message.", required=True
                        )
                    ],
                )
            ]
        )

    async def get_prompt(
        self, ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        """prompts/get ``memory_context``."""
        if params.name != CONTEXT_PROMPT:
            raise MCPError(
                types.INVALID_PARAMS, f"unknown prompt {params.name!r}; try {CONTEXT_PROMPT}"
            )
        message = (params.arguments or {}).get("message", "")
        text = await self.mem.run(self._render, self.binding, message)
        return types.GetPromptResult(
            description="Memory context",
            messages=[types.PromptMessage(role="user", content=types.TextContent(text=text))],
        )

    def _render(self, binding: Binding, message: str) -> str:
        context = self.session(binding).build_context(message)
        text = context.render(max_tokens=CONTEXT_TOKENS)
        diagnostics = context.diagnostics
        if diagnostics.reason_code == "memory.paused":
            return "(memory is paused by the user: nothing is read or written until it is resumed)"
        if diagnostics.store_status != "ok":
            # The client has no diagnostics to look at: without this an unreadable store
            # read "(no memories yet)", and the agent took it for knowing nothing.
            why = [w for w in diagnostics.warnings if not w.startswith(RENDER_NOTES)]
            note = f"(memory {diagnostics.store_status}: {'; '.join(why)})"
            text = f"{text}\n\n{note}" if text else note
        return text or "(no memories yet)"

    def server(self) -> Server[Any]:
        """The SDK server with these handlers."""
        from ekko_memory import __version__

        return Server(
            SERVER_NAME,
            version=__version__,
            instructions=INSTRUCTIONS,
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
            on_list_resources=self.list_resources,
            on_read_resource=self.read_resource,
            on_list_prompts=self.list_prompts,
            on_get_prompt=self.get_prompt,
        )


# In a JSON text: an escaped backslash (kept, so what follows it is not an escape), a
# surrogate pair (kept: one character), or a lone surrogate escape (replaced).
_SURROGATE_ESCAPES = re.compile(
    r"\\\\|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"
)


def clean_json_line(line: str) -> str:
    """A JSON-RPC line with its lone UTF-16 surrogate escapes (``\\ud800``) spelled as
    U+FFFD. The SDK's JSON parser refuses them, and a request it cannot parse is never
    answered (the client waits forever); everywhere else such text is stored as U+FFFD."""
    if "\\u" not in line:
        return line
    return _SURROGATE_ESCAPES.sub(lambda m: m.group(0) if len(m.group(0)) != 6 else "\\ufffd", line)


class _CleanLines:
    """This process's stdin as text lines passed through ``clean_json_line``."""

    def __init__(self) -> None:
        # A duplicate of fd 0: closing this reader leaves the process's stdin alone.
        self._file = anyio.wrap_file(
            io.TextIOWrapper(open(os.dup(0), "rb"), encoding="utf-8", errors="replace")  # noqa: SIM115
        )

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self._file:
            yield clean_json_line(line)


async def serve(mem: MemoryService, binding: Binding, trust: Trust | None = None) -> None:
    """Serve over this process's stdin/stdout until the client closes them."""
    amem = AsyncMemory(mem)
    server = MemoryMcp(amem, binding, trust).server()
    try:
        async with stdio_server(stdin=_CleanLines()) as (read_stream, write_stream):  # type: ignore[arg-type]
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        await amem.aclose()


def serve_stdio(mem: MemoryService, binding: Binding, trust: Trust | None = None) -> None:
    """Blocking entry point of ``ekko-memory mcp``."""
    asyncio.run(serve(mem, binding, trust))
