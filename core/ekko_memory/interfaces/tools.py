"""The four agent tools (按需 Memory Tool): JSON schemas in OpenAI function-calling format.
The argument models and the dispatcher that never raises into the agent are the
service's (``ekko_memory.service.tool_calls``), imported here for the MCP server and
the hosts.

Register ``TOOL_SCHEMAS`` with your model; pass each tool call to ``session.call_tool``.
Approvals are not a tool: only the user decides pending items.
"""

from __future__ import annotations

from typing import Any

from ekko_memory.models import MAX_QUERY_LIMIT
from ekko_memory.service.tool_calls import (
    TOOL_NAMES,
    ForgetArgs,
    GetArgs,
    ProposeArgs,
    SearchArgs,
    dispatch,
    error_result,
    foreign_identity,
    refusal_as_error,
    tool_error,
)

_SCOPES = ["session", "workspace", "user", "global"]
_TYPES = ["preference", "fact", "decision", "task", "recipe", "skill", "constraint", "correction"]

_NODE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The memory (Partial<MemoryNode>). Ids, status, timestamps and sources are filled in by the service.",
    "properties": {
        "scope": {
            "type": "string",
            "enum": _SCOPES,
            "description": "session: this conversation only; workspace: this project; user: the user's long-term memory (needs the user's explicit request). global is read-only.",
        },
        "domain": {"type": "string", "description": "Top-level domain, e.g. 生活技能, 项目, 个人."},
        "categoryPath": {
            "type": "array",
            "items": {"type": "string"},
            "description": 'Category path starting with the domain, e.g. ["生活技能", "做饭", "饮食偏好"].',
        },
        "type": {"type": "string", "enum": _TYPES},
        "key": {
            "type": "string",
            "description": "Controlled key for exact lookup, e.g. avoid_ingredient, flavor_profile, database. Synonyms are normalized.",
        },
        "valueJson": {
            "description": 'The value for the key, e.g. "香菜" or {"spicy": "low"}. Phrases like 少辣 are normalized.'
        },
        "title": {"type": "string", "description": "Short title, e.g. 用户不吃香菜."},
        "content": {
            "type": "string",
            "description": "One or two sentences a future reply can use.",
        },
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "importance": {"type": "number", "minimum": 0, "maximum": 1},
        "tags": {"type": "array", "items": {"type": "string"}},
        "entities": {"type": "array", "items": {"type": "string"}},
        "expiresAt": {
            "type": "string",
            "format": "date-time",
            "description": "When a temporary state ends (ISO 8601).",
        },
    },
    "additionalProperties": False,
}

_USER_MESSAGE = {
    "type": "string",
    "description": "The user's words that prompted this call, as you heard them (for clients that keep no message log, such as MCP). Kept with a proposal as its source, shown to the user; whether the user asked to remember is judged from the messages the host logged as the user's.",
}

TOOL_SCHEMAS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "memory_search",
            "description": "Search long-term memory. Returns exact matches of the structured fields, other relevant matches of the text (keywords or a sentence), and what was left out with reasons; with no text and no fields, the memories of the scopes in priority order. `warnings` names stores that could not be read (an empty answer is then not final). The per-turn context already holds the essentials; use this for more.",
            "parameters": {
                "type": "object",
                "properties": {
                    "queryText": {
                        "type": "string",
                        "description": "Words to search for (Chinese and English).",
                    },
                    "scopes": {"type": "array", "items": {"type": "string", "enum": _SCOPES}},
                    "domain": {"type": "string"},
                    "categoryPathPrefix": {"type": "array", "items": {"type": "string"}},
                    "types": {"type": "array", "items": {"type": "string", "enum": _TYPES}},
                    "key": {"type": "string"},
                    "valueJson": {},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "entities": {"type": "array", "items": {"type": "string"}},
                    "includeExpired": {"type": "boolean"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_QUERY_LIMIT},
                    "userMessage": _USER_MESSAGE,
                },
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "memory_get",
            "description": "Get one memory by id, or the current memory for a type/key/value (e.g. key avoid_ingredient, valueJson 香菜). Returns the node, or found=false.",
            "parameters": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "type": {"type": "string", "enum": _TYPES},
                    "key": {"type": "string"},
                    "valueJson": {},
                    "scope": {"type": "string", "enum": _SCOPES},
                    "domain": {"type": "string"},
                    "userMessage": _USER_MESSAGE,
                },
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "memory_propose_update",
            "description": "Propose a memory write. The service validates it, binds it to the user's message, resolves conflicts and writes it — or holds it for the user's approval (accepted=false with a pendingId). Only tell the user something is remembered when accepted is true. Call it at once when the user explicitly asks to remember something.",
            "parameters": {
                "type": "object",
                "properties": {
                    "operation": {
                        "type": "string",
                        "enum": ["create", "update", "supersede", "expire", "delete"],
                    },
                    "targetId": {
                        "type": "string",
                        "description": "The memory to update, supersede, expire or delete.",
                    },
                    "node": _NODE_SCHEMA,
                    "reason": {"type": "string", "description": "Why, in a few words."},
                    "sourceMessageIds": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Defaults to the latest user message.",
                    },
                    "userMessage": _USER_MESSAGE,
                },
                "required": ["operation", "reason"],
                "additionalProperties": False,
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "memory_forget",
            "description": "Forget memories when the user asks (忘掉…, 不要再记…). By id or by an exact description. One match is soft-deleted; several matches or mode=hard need the user's confirmation (requiresConfirmation=true, candidates listed).",
            "parameters": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "scope": {"type": "string", "enum": _SCOPES},
                    "domain": {"type": "string"},
                    "categoryPathPrefix": {"type": "array", "items": {"type": "string"}},
                    "type": {"type": "string", "enum": _TYPES},
                    "key": {"type": "string"},
                    "valueJson": {},
                    "mode": {"type": "string", "enum": ["soft", "hard"]},
                    "reason": {"type": "string"},
                    "userMessage": _USER_MESSAGE,
                },
                "required": ["reason"],
                "additionalProperties": False,
            },
        },
    },
]

__all__ = [
    "TOOL_NAMES",
    "TOOL_SCHEMAS",
    "ForgetArgs",
    "GetArgs",
    "ProposeArgs",
    "SearchArgs",
    "dispatch",
    "error_result",
    "foreign_identity",
    "refusal_as_error",
    "tool_error",
]
