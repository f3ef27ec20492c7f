"""Ekko Memory: local, auditable long-term memory for AI agents.

The public API is what this module exports; everything else is internal.
"""

from ekko_memory.errors import (
    Conflict,
    EkkoMemoryError,
    InvalidInput,
    NotFound,
    PermissionDenied,
    StoreUnavailable,
)
from ekko_memory.interfaces.tools import TOOL_NAMES, TOOL_SCHEMAS
from ekko_memory.models import (
    AuditEvent,
    MemoryContext,
    MemoryContextDiagnostics,
    MemoryExtraction,
    MemoryMessage,
    MemoryNode,
    MemoryNodeDraft,
    MemoryQuery,
    MemoryQueryResult,
    MemorySchemaRule,
    MemorySummary,
    NodeUsage,
    OmittedNode,
    PendingItem,
)
from ekko_memory.service.config import LlmConfig, MemoryConfig
from ekko_memory.service.memory_service import MemoryService, open_memory
from ekko_memory.service.session import MemorySession

__version__ = "0.1.0"

__all__ = [
    "TOOL_NAMES",
    "TOOL_SCHEMAS",
    "AuditEvent",
    "Conflict",
    "EkkoMemoryError",
    "InvalidInput",
    "LlmConfig",
    "MemoryConfig",
    "MemoryContext",
    "MemoryContextDiagnostics",
    "MemoryExtraction",
    "MemoryMessage",
    "MemoryNode",
    "MemoryNodeDraft",
    "MemoryQuery",
    "MemoryQueryResult",
    "MemorySchemaRule",
    "MemoryService",
    "MemorySession",
    "MemorySummary",
    "NodeUsage",
    "NotFound",
    "OmittedNode",
    "PendingItem",
    "PermissionDenied",
    "StoreUnavailable",
    "open_memory",
]
