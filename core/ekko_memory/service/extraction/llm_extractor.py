"""Extractor and summarizer backed by an OpenAI-compatible model; output validated by pydantic."""

from __future__ import annotations

import json

from pydantic import ValidationError

from ekko_memory.models import MemoryExtraction, MemoryMessage
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.service.extraction.llm_client import ChatClient
from ekko_memory.service.extraction.protocol import (
    ExtractionFailed,
    ExtractionInput,
    SummaryDraft,
    SummaryInput,
)

EXTRACT_SYSTEM = """You extract long-term memories from a conversation for an AI agent.
Return ONE JSON object: {"summaryPatch": string or null, "nodes": [{"operation": "create"|"update"|"supersede"|"expire"|"ignore", "targetId": id or null, "node": {...}, "reason": string}]}.
A node has: scope (session|workspace|user), domain, categoryPath (array starting with the domain), type (preference|fact|decision|task|recipe|skill|constraint|correction), key, valueJson, title, content, confidence (0..1), importance (0..1), tags, entities, expiresAt (ISO time, for temporary states), sourceMessageIds (ids of the user messages it comes from).
Rules: only what the USER said; temporary states (today, recently) are constraints with expiresAt; corrections of a known memory use "supersede" with its targetId; use only these controlled keys:
{keys}
If nothing is worth remembering return {"summaryPatch": null, "nodes": []}."""

SUMMARY_SYSTEM = """You keep a running summary of a conversation. Given the previous summary and only the new messages, return ONE JSON object:
{"summary": string, "currentGoal": string or null, "constraints": [..], "preferences": [..], "decisions": [..], "completedWork": [..], "pendingWork": [..], "knownIssues": [..]}.
Carry forward what still holds from the previous summary; add what extractorNotes say (notes on the new messages); keep it short (under 200 words); write in the conversation's language."""


def _messages(msgs: list[MemoryMessage]) -> str:
    return "\n".join(f"[{m.id}] {m.role}: {m.content[:4000]}" for m in msgs)


def _validation(e: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors()[:5])


class LlmExtractor:
    """Asks the model for a MemoryExtraction; anything invalid raises ExtractionFailed."""

    name = "llm"

    def __init__(self, client: ChatClient, registry: SchemaRegistry) -> None:
        self.client = client
        self.registry = registry

    def _keys(self) -> str:
        lines = [
            f"- {r.domain} / {r.type}: {', '.join(r.allowed_keys) or '(no key)'}"
            for r in self.registry.rules
        ]
        return "\n".join(lines)

    def extract(self, data: ExtractionInput) -> MemoryExtraction:
        """The model's extraction, validated."""
        known = [
            {
                "id": n.id,
                "title": n.title,
                "type": n.type,
                "key": n.key,
                "valueJson": n.value_json,
                "scope": n.scope,
            }
            for n in data.known_nodes[:40]
        ]
        prompt = (
            json.dumps(
                {
                    "previousSummary": data.previous_summary.summary
                    if data.previous_summary
                    else None,
                    "knownMemories": known,
                    "now": data.now.isoformat(),
                },
                ensure_ascii=False,
            )
            + "\n\nNew messages:\n"
            + _messages(data.messages)
        )
        raw = self.client.complete_json(EXTRACT_SYSTEM.replace("{keys}", self._keys()), prompt)
        try:
            return MemoryExtraction.model_validate(raw)
        except ValidationError as e:
            raise ExtractionFailed(
                f"the model's extraction does not fit the schema: {_validation(e)}"
            ) from e


class LlmSummarizer:
    """Asks the model for the next summary; anything invalid raises ExtractionFailed."""

    name = "llm"

    def __init__(self, client: ChatClient) -> None:
        self.client = client

    def summarize(self, data: SummaryInput) -> SummaryDraft:
        """The model's summary, validated."""
        prev = (
            data.previous.model_dump(mode="json", by_alias=True, exclude={"id", "session_id"})
            if data.previous
            else None
        )
        prompt = (
            json.dumps(
                {"previousSummary": prev, "extractorNotes": list(data.patches)}, ensure_ascii=False
            )
            + "\n\nNew messages:\n"
            + _messages(data.messages)
        )
        raw = self.client.complete_json(SUMMARY_SYSTEM, prompt)
        try:
            return SummaryDraft.model_validate(raw)
        except ValidationError as e:
            raise ExtractionFailed(
                f"the model's summary does not fit the schema: {_validation(e)}"
            ) from e
