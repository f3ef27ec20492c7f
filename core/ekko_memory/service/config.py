"""Tunable settings of the memory service, from ``<workspace>/.ekko/config.json`` and the environment."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ekko_memory.errors import InvalidInput


class LlmConfig(BaseModel):
    """An OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM…)."""

    model_config = ConfigDict(extra="forbid")

    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = Field(30.0, gt=0, le=600)
    max_retries: int = Field(2, ge=0, le=10)


class EmbedderConfig(BaseModel):
    """Semantic recall's embedder: the local model (the ``semantic`` extra), an
    OpenAI-compatible ``/v1/embeddings`` endpoint (Ollama, LM Studio, vLLM, llama.cpp
    server, OpenAI), or none (keyword search only)."""

    model_config = ConfigDict(extra="forbid")

    provider: Literal["local", "openai", "none"] = "local"
    # The endpoint's base URL (``…/v1``), the model's name and key (provider openai).
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = None
    # Asked of the endpoint when set (OpenAI's text-embedding-3 models can shorten).
    dimensions: int | None = Field(None, ge=8, le=8192)
    # The longest a turn waits for its query's embedding before going on by keyword.
    timeout_s: float = Field(1.0, gt=0, le=60)
    # The relevance floor: a memory less similar than this to the message is not
    # relevant to it (None: the model's own calibrated floor; see semantic/embedders.py).
    min_similarity: float | None = Field(None, ge=-1, le=1)

    @model_validator(mode="after")
    def _endpoint(self) -> EmbedderConfig:
        if self.provider == "openai" and not (self.base_url and self.model):
            raise ValueError("the openai embedder needs base_url and model")
        return self


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
    # Semantic recall: on with the local model when it is installed (see EmbedderConfig).
    embedder: EmbedderConfig = Field(default_factory=EmbedderConfig)

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
    """Config from ``config.json`` (if any), then ``EKKO_LLM_BASE_URL``/``_MODEL``/``_API_KEY``
    and ``EKKO_EMBEDDER`` (``none`` turns semantic recall off, ``local``/``openai`` choose)
    with ``EKKO_EMBEDDER_BASE_URL``/``_MODEL``/``_API_KEY``."""
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
        if not isinstance(data.get("embedder") or {}, dict):
            raise InvalidInput(f"{path}: embedder must be an object (provider, base_url, …)")
    base = os.environ.get("EKKO_LLM_BASE_URL")
    model = os.environ.get("EKKO_LLM_MODEL")
    if base and model:
        llm = dict(data.get("llm") or {})
        llm.update(base_url=base, model=model)
        if os.environ.get("EKKO_LLM_API_KEY"):
            llm["api_key"] = os.environ["EKKO_LLM_API_KEY"]
        data["llm"] = llm
    embedder = _embedder_from_env(dict(data.get("embedder") or {}))
    if embedder:
        data["embedder"] = embedder
    try:
        return MemoryConfig.model_validate(data)
    except ValidationError as e:
        raise InvalidInput.of(str(path), e) from e


def _embedder_from_env(embedder: dict[str, Any]) -> dict[str, Any]:
    """The embedder settings with the environment's over the file's."""
    base = os.environ.get("EKKO_EMBEDDER_BASE_URL")
    model = os.environ.get("EKKO_EMBEDDER_MODEL")
    if base and model:
        embedder.update(provider="openai", base_url=base, model=model)
        if os.environ.get("EKKO_EMBEDDER_API_KEY"):
            embedder["api_key"] = os.environ["EKKO_EMBEDDER_API_KEY"]
    chosen = os.environ.get("EKKO_EMBEDDER", "").strip().lower()
    if chosen in ("none", "off", "0", "false"):
        embedder["provider"] = "none"
    elif chosen in ("local", "openai"):
        embedder["provider"] = chosen
    elif chosen:
        raise InvalidInput(f"EKKO_EMBEDDER is none, local or openai; got {chosen!r}")
    return embedder
