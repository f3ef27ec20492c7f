"""The controlled schema: one rule per domain and type."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ekko_memory.models.base import KEY_PATTERN, CamelModel, NodeType, Scope

ValueShape = Literal["string", "number", "boolean", "string[]", "object"]


class MemorySchemaRule(CamelModel):
    """Controlled schema for one domain/type: which keys exist and what their values look like."""

    domain: str
    category_path_prefix: list[str] | None = None
    type: NodeType
    allowed_keys: list[str]
    value_shape: ValueShape
    default_scope: Scope
    requires_explicit_user_intent: bool
    # Extensions beyond the design doc (all optional in the rule files):
    # keys that hold one value at a time (a new value supersedes); others hold many.
    single_value_keys: list[str] = Field(default_factory=list)
    # Per-key value shape when a rule mixes shapes (flavor_profile is an object, avoid_ingredient a string).
    key_shapes: dict[str, ValueShape] = Field(default_factory=dict)
    # Synonyms mapped to the controlled key (disliked_ingredient -> avoid_ingredient).
    key_aliases: dict[str, str] = Field(default_factory=dict)
    # Keys that speak about the same subject and contradict each other for it
    # (avoid / prefer / limit an ingredient): at most one is active per subject.
    key_groups: list[list[str]] = Field(default_factory=list)
    # Keys whose values are personal data: writes and deletes wait for the user.
    sensitive_keys: list[str] = Field(default_factory=list)
    # The category a key files under when the proposal names none.
    key_categories: dict[str, list[str]] = Field(default_factory=dict)
    # Preferences of this rule enter every context, whatever the topic (reply language...).
    always_in_context: bool = False
    description: str = ""

    @model_validator(mode="after")
    def _keys(self) -> MemorySchemaRule:
        for key in self.allowed_keys:
            if not KEY_PATTERN.match(key):
                raise ValueError(f"allowed key {key!r} is not snake_case")
        return self
