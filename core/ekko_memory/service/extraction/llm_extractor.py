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

EXTRACT_SYSTEM = """You extract long-term memories from a conversation for an AI agent. Read only what the USER said; the assistant's words are never a fact about the user.
Return ONE JSON object: {"summaryPatch": string or null, "nodes": [{"operation": "create"|"update"|"supersede"|"expire"|"ignore", "targetId": id or null, "node": {...}, "reason": string}]}.
A node has: scope (session|workspace|user), domain, categoryPath (array starting with the domain), type (preference|fact|decision|task|recipe|skill|constraint|correction), key, valueJson, title, content, confidence (0..1), importance (0..1), tags, entities, expiresAt (ISO time), sourceMessageIds (ids of the user messages it comes from).

First decide what KIND each user statement is, then act:
1. A fact about the user (where they live, family and their names, pets and names, job, employer, birthday, languages, health: allergies, medication, conditions, habits, routines, travel plans) -> create, scope user, domain 个人. "我住在杭州，养了一只叫团子的猫" -> key city "杭州" and key pet {"species": "猫", "called": "团子"}; "I'm a nurse at St Mary's" -> occupation "nurse", employer "St Mary's"; "我对青霉素过敏" -> allergy "青霉素".
2. A preference or dislike -> create a preference. Food: domain 生活技能 (avoid_ingredient, preferred_ingredient, flavor_profile, dietary_restriction…): "以后做饭别放香菜" -> avoid_ingredient "香菜". Anything else: domain 个人, key likes / dislikes: "I'm really into 90s hip hop" -> likes "90s hip hop".
3. A temporary state (today, tonight, this week, lately, until Friday) -> a constraint with expiresAt when it ends, scope workspace: "今天有点累，晚饭想简单点" -> temporary_state, expiresAt end of today; "I'm on call until the 15th" -> expiresAt the 15th.
4. A plan or task, with its deadline -> type task, key task_status, valueJson {"task": …, "status": "todo", "due": ISO}: "周五前要交季度报告", "dentist next Wednesday at 3pm".
5. A task reported done ("报告交了", "filed my taxes") -> expire the known task with its targetId. Write nothing new.
6. A decision or rule of the user's project or team -> workspace scope, domain 项目: "我们组只在周二和周四发版" -> constraint team_rule; "we're standardizing on pnpm" -> decision.
7. A correction of something said earlier ("不对，是周四", "我说错了", "其实…", "actually…", "I meant…", "it's KPMG, not Deloitte") -> supersede the known memory (targetId) with exactly the new value; if it is not known yet, create the corrected one only.
8. A retraction or forget request ("别记我喜欢鸭血了", "那条删掉", "forget that I live in Bristol") -> expire the memory it names (targetId). NEVER write a new memory for it, and never its opposite (after "我喜欢鸭血" then "别记我喜欢鸭血了", write NO "不吃鸭血").
9. A fact about someone else ("我儿子对花生过敏", "my colleague Tom is vegan", "she hates long emails") -> domain 人物, categoryPath ["人物", "<who>"], valueJson an object with "person": "<who>" (e.g. {"person": "儿子", "allergen": "花生"}). NEVER file it as the user's own.
10. A question ("酸奶能喝吗？"), a hypothetical ("如果我不吃辣…", "what if I moved to Berlin?") or small talk ("今天天气真好", "thanks!") -> nothing at all.
The user need not say "记住" / "remember": what they state about themselves is remembered. Every value must be in the user's own words: a value that appears nowhere in what the user said waits for the user's approval. Never invent: a missing memory is better than a wrong one.
Use only these controlled keys:
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
