"""From a proposal to a normalized candidate node under the controlled schema (受控 Schema).

Key synonyms become the controlled key, values take the key's shape (少辣 → {spicy: low}),
technical memories default to workspace scope, temporary states get an expiry or stay in
session scope, and what the schema does not know is refused or kept to the session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import ValidationError

from ekko_memory.errors import InvalidInput
from ekko_memory.ids import new_id
from ekko_memory.models import MemoryNode, MemoryNodeDraft, MemorySchemaRule, Origin
from ekko_memory.schema import intent
from ekko_memory.schema.normalize import canonical_key
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.schema.values import ValueError_, normalize_value
from ekko_memory.store.filters import Viewer

Actor = Literal["agent", "extractor", "user", "import"]
AGENT_ACTORS = ("agent", "extractor")


@dataclass
class WriteContext:
    """Who proposes, on whose behalf, and the user's own words behind it."""

    actor: Actor
    session_id: str | None = None
    user_id: str | None = None
    workspace_id: str | None = None
    source_message_ids: list[str] = field(default_factory=list)
    # The text of the user's source messages: intent is judged from it, never from the agent.
    source_text: str = ""
    # A model's value the user's words do not hold: it waits for the user, whatever else.
    unverified: list[str] = field(default_factory=list)

    @property
    def viewer(self) -> Viewer:
        """What the proposing session may see."""
        return Viewer(
            session_id=self.session_id, user_id=self.user_id, workspace_id=self.workspace_id
        )

    @property
    def is_agent(self) -> bool:
        """An agent or an extractor (not the user through the app or CLI)."""
        return self.actor in AGENT_ACTORS

    @property
    def explicit(self) -> bool:
        """The user's words ask to remember (记住, 以后都, from now on…)."""
        return intent.has_explicit_intent(self.source_text)


@dataclass
class Candidate:
    """A normalized node ready for permission checks, plus what normalization changed."""

    node: MemoryNode
    rule: MemorySchemaRule | None
    temporary: bool = False
    notes: list[str] = field(default_factory=list)


def _merge(base: MemoryNode | None, draft: MemoryNodeDraft) -> dict[str, Any]:
    fields: dict[str, Any] = base.model_dump() if base is not None else {}
    for name in draft.model_fields_set:
        fields[name] = getattr(draft, name)
    return fields


def _derive_title(fields: dict[str, Any]) -> str:
    content = (fields.get("content") or "").strip()
    if content:
        return content[:40] + ("…" if len(content) > 40 else "")
    if fields.get("key"):
        return f"{fields['key']}: {fields.get('value_json')}"
    raise InvalidInput("a memory needs a title or content")


def plan_node(
    registry: SchemaRegistry,
    draft: MemoryNodeDraft,
    ctx: WriteContext,
    now: datetime,
    *,
    base: MemoryNode | None = None,
) -> Candidate:
    """Validate and normalize a proposal into a full node (not yet written)."""
    f = _merge(base, draft)
    notes: list[str] = []

    node_type = f.get("type")
    if node_type is None:
        raise InvalidInput(
            "node.type is required (preference, fact, decision, task, recipe, skill, constraint or correction)"
        )
    path = f.get("category_path")
    domain = f.get("domain") or (path[0] if path else None)
    key = f.get("key")
    if domain is None and key:
        owners = {
            r.domain
            for r in registry.rules
            if r.type == node_type
            and canonical_key(registry, r.domain, node_type, key) in r.allowed_keys
        }
        if len(owners) == 1:
            domain = owners.pop()
    if not domain:
        raise InvalidInput("node.domain is required (for example 生活技能 or 项目)")
    domain = registry.canonical_domain(domain)

    rule = registry.rule_for(domain, node_type, path)
    if key is not None:
        key = canonical_key(registry, domain, node_type, key)
        if key != f.get("key"):
            notes.append(f"key {f.get('key')!r} normalized to {key!r}")
        keyed_rule = registry.rule_for_key(domain, node_type, key)
        rule = keyed_rule or rule
        if rule is not None and key not in rule.allowed_keys:
            if not rule.allowed_keys:
                raise InvalidInput(f"{domain} {node_type} memories take no key (got {key!r})")
            raise InvalidInput(
                f"key {key!r} is not in the controlled schema for {domain} {node_type}; "
                f"allowed: {', '.join(rule.allowed_keys)}"
            )

    if path is None:
        if rule is not None and key is not None and key in rule.key_categories:
            path = list(rule.key_categories[key])
        elif rule is not None and rule.category_path_prefix:
            path = list(rule.category_path_prefix)
        else:
            path = [domain]
    path = [s.strip() for s in path]
    if path[0] != domain:
        path = [domain, *path]

    value = f.get("value_json")
    if key is not None and value is None and ctx.actor != "import":
        # A key names what the memory says; without a value it says nothing (a misspelt
        # valueJson arrives this way).
        raise InvalidInput(f"key {key!r} needs a value (node.valueJson)")
    if key is not None and value is not None:
        shape = None if rule is None else rule.key_shapes.get(key, rule.value_shape)
        try:
            normalized = normalize_value(key, shape, value)
        except ValueError_ as e:
            raise InvalidInput(str(e)) from e
        if normalized != value:
            notes.append(f"value normalized to {normalized!r}")
        value = normalized

    scope = f.get("scope")
    if scope is None:
        scope = rule.default_scope if rule is not None else ("session" if ctx.is_agent else "user")
    own_text = " ".join(str(f.get(k) or "") for k in ("title", "content"))
    if ctx.is_agent and scope == "user":
        if rule is not None and rule.default_scope == "workspace":
            scope = "workspace"
            notes.append("technical memory kept in workspace scope, not user scope")
        elif intent.mentions_project(own_text):
            # 这个项目的代码缩进用 4 个空格 is this project's rule, not the user's everywhere.
            scope = "workspace"
            notes.append("about this project: kept in workspace scope, not user scope")
    if ctx.is_agent and rule is None and key is not None and scope != "session":
        scope = "session"
        notes.append(
            f"{domain} {node_type} with key {key!r} is outside the controlled schema: kept in session scope"
        )

    expires_at = f.get("expires_at")
    temporary = False
    # A temporary state stays temporary when the user asks to remember it too (记住，我今天胃
    # 不舒服): without its expiry it would become a long-term user memory, and replace the
    # lasting preference of a one-value key for good.
    # The extractor decides what is temporary itself (最近迷上了后摇 is a lasting taste): only
    # an agent's proposal, or an extractor's constraint without an end, is read for it here.
    reads_time = ctx.actor != "extractor" or (node_type == "constraint" and expires_at is None)
    if ctx.is_agent and base is None and reads_time:
        until = intent.temporary_expiry(own_text, now, registry.temporary_words) or (
            intent.temporary_expiry(ctx.source_text, now, registry.temporary_words)
            if node_type == "constraint"
            else None
        )
        if until is not None:
            temporary = True
            if expires_at is None:
                expires_at = until
                notes.append(f"temporary state: expires at {until.isoformat()}")
            if scope == "user":
                # The workspace's conversations share it until it ends (a new one the same
                # evening still knows the user is unwell); it never becomes long-term.
                scope = "workspace"
                notes.append("temporary state kept in workspace scope until it ends")
    if expires_at is not None and expires_at <= now:
        raise InvalidInput("expiresAt is in the past")

    origin: Origin = "inferred"
    if ctx.actor == "user":
        origin = "user_edit"
    elif ctx.actor == "import":
        origin = f.get("origin") or "imported"
    elif ctx.explicit or intent.is_correction(ctx.source_text):
        origin = "user_explicit"
    elif base is not None and draft.model_fields_set <= {"status", "expires_at"}:
        origin = base.origin

    strong = origin in ("user_explicit", "user_edit")

    def pick(name: str, default: Any) -> Any:
        if name in draft.model_fields_set and getattr(draft, name) is not None:
            return getattr(draft, name)
        return getattr(base, name) if base is not None else default

    # A temporary state keeps the conversation it came from (purging that session takes it
    # along), though the workspace's other conversations see it while it lasts.
    session_id = (
        (ctx.session_id or f.get("session_id"))
        if scope == "session" or (scope == "workspace" and expires_at is not None and ctx.is_agent)
        else None
    )
    fields = {
        "id": new_id("mem"),
        "parent_id": f.get("parent_id"),
        "supersedes_id": base.id if base is not None else None,
        "scope": scope,
        "domain": domain,
        "category_path": path,
        "type": node_type,
        "key": key,
        "value_json": value,
        "title": f.get("title") or _derive_title(f),
        "content": f.get("content") or "",
        "status": "active",
        "confidence": pick("confidence", 0.95 if strong else 0.7),
        "importance": pick("importance", 0.85 if strong else 0.5),
        "tags": f.get("tags") or [],
        "entities": f.get("entities") or [],
        "source_message_ids": ctx.source_message_ids or (f.get("source_message_ids") or []),
        "origin": origin,
        "session_id": session_id,
        "workspace_id": (ctx.workspace_id or f.get("workspace_id"))
        if scope in ("session", "workspace")
        else None,
        "user_id": ctx.user_id or f.get("user_id"),
        "created_at": now,
        "updated_at": now,
        "expires_at": expires_at,
    }
    if scope == "session" and session_id is None:
        raise InvalidInput("a session-scope memory needs a session")
    try:
        node = MemoryNode.model_validate(fields)
    except ValidationError as e:
        raise InvalidInput.of("invalid memory", e) from e
    return Candidate(node=node, rule=rule, temporary=temporary, notes=notes)
