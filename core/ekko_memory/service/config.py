"""Tunable settings of the memory service, from ``<workspace>/.ekko/config.json`` and the environment."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ekko_memory.errors import InvalidInput


class LlmConfig(BaseModel):
    """An OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM…)."""

    model_config = ConfigDict(extra="forbid")

    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = Field(30.0, gt=0, le=600)
    max_retries: int = Field(2, ge=0, le=10)


def _limits() -> dict[str, int]:
    return {
        "profile": 8,
        "constraints": 8,
        "preferences": 8,
        "active_tasks": 5,
        "facts": 6,
        "relevant_nodes": 5,
        "unconfirmed": 6,
    }


# At most this many memories a context section may hold.
MAX_SECTION_LIMIT = 50


# The default of ``import_max_mb``: far above a bundle of 100k memories and their log.
IMPORT_MAX_MB = 1024


class MemoryConfig(BaseModel):
    """Everything the service lets you tune; defaults follow the design doc."""

    model_config = ConfigDict(extra="forbid")

    # How many recent messages enter the context (the design doc says 3–8).
    recent_messages: int = Field(6, ge=3, le=8)
    # Below this confidence a node stays out of contexts (low_confidence).
    min_confidence: float = Field(0.3, ge=0, le=1)
    # Overwriting a node at or above this confidence needs clear intent (else it waits).
    high_confidence: float = Field(0.9, ge=0, le=1)
    # With no topic detected, only user preferences this important enter the context.
    topicless_min_importance: float = Field(0.8, ge=0, le=1)
    section_limits: dict[str, int] = Field(default_factory=_limits)
    # Summarize after this many new messages (the design doc says 6–10)…
    summary_every_messages: int = Field(8, ge=2, le=100)
    # …or when the new messages exceed this many tokens.
    summary_token_threshold: int = Field(1500, ge=100)
    # The largest bundle ``import`` reads, in MiB: a bundle is parsed whole, in memory
    # (several times its size), so a huge or hostile file is refused before it is read.
    import_max_mb: int = Field(IMPORT_MAX_MB, ge=1)
    llm: LlmConfig | None = None

    @field_validator("section_limits")
    @classmethod
    def _complete_limits(cls, value: dict[str, int]) -> dict[str, int]:
        """A partial override changes only the sections it names (the rest keep their
        defaults: every turn reads all five); an unknown section is a typo."""
        defaults = _limits()
        unknown = sorted(set(value) - set(defaults))
        if unknown:
            raise ValueError(
                f"unknown section {', '.join(unknown)}; the sections are {', '.join(defaults)}"
            )
        bad = sorted(k for k, v in value.items() if not 0 <= v <= MAX_SECTION_LIMIT)
        if bad:
            raise ValueError(f"{', '.join(bad)}: a section holds 0 to {MAX_SECTION_LIMIT} memories")
        return {**defaults, **value}


def load_config(workspace_ekko_dir: Path) -> MemoryConfig:
    """Config from ``config.json`` (if any), then ``EKKO_LLM_BASE_URL``/``_MODEL``/``_API_KEY``."""
    data: dict[str, Any] = {}
    path = workspace_ekko_dir / "config.json"
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as e:
            raise InvalidInput(f"{path} is not valid JSON: {e}") from e
        if not isinstance(data, dict):
            raise InvalidInput(f"{path} must hold a JSON object of settings")
        if not isinstance(data.get("llm") or {}, dict):
            raise InvalidInput(f"{path}: llm must be an object (base_url, model, …)")
    base = os.environ.get("EKKO_LLM_BASE_URL")
    model = os.environ.get("EKKO_LLM_MODEL")
    if base and model:
        llm = dict(data.get("llm") or {})
        llm.update(base_url=base, model=model)
        if os.environ.get("EKKO_LLM_API_KEY"):
            llm["api_key"] = os.environ["EKKO_LLM_API_KEY"]
        data["llm"] = llm
    try:
        return MemoryConfig.model_validate(data)
    except ValidationError as e:
        raise InvalidInput.of(str(path), e) from e
