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
from ekko_memory.interfaces.aio import AsyncMemory, AsyncSession
from ekko_memory.interfaces.tools import TOOL_NAMES, TOOL_SCHEMAS
from ekko_memory.models import (
    AuditEvent,
    BrowseFilter,
    CategoryCount,
    CompactedFile,
    CompactedStore,
    CompactReport,
    ExportReport,
    ExportSelection,
    ImportReport,
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
    NodeHistory,
    NodeUsage,
    OmittedNode,
    PendingItem,
    PurgeFilter,
    PurgeFinding,
    PurgePlan,
    PurgeReport,
    PurgeTarget,
    PurgeVerification,
    SessionSummaryInfo,
)
from ekko_memory.service.config import LlmConfig, MemoryConfig
from ekko_memory.service.memory_service import MemoryService, open_memory
from ekko_memory.service.progress import CancelToken, Progress
from ekko_memory.service.session import MemorySession

__version__ = "0.1.0"

__all__ = [
    "TOOL_NAMES",
    "TOOL_SCHEMAS",
    "AsyncMemory",
    "AsyncSession",
    "AuditEvent",
    "BrowseFilter",
    "CancelToken",
    "CategoryCount",
    "CompactReport",
    "CompactedFile",
    "CompactedStore",
    "Conflict",
    "EkkoMemoryError",
    "ExportReport",
    "ExportSelection",
    "ImportReport",
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
    "NodeHistory",
    "NodeUsage",
    "NotFound",
    "OmittedNode",
    "PendingItem",
    "PermissionDenied",
    "Progress",
    "PurgeFilter",
    "PurgeFinding",
    "PurgePlan",
    "PurgeReport",
    "PurgeTarget",
    "PurgeVerification",
    "SessionSummaryInfo",
    "StoreUnavailable",
    "open_memory",
]
