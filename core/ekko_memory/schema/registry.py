"""The controlled schema: rules per domain and type, loaded from ``resources/schema_rules``."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ekko_memory.models import MemorySchemaRule, NodeType
from ekko_memory.resources import resource_path


@dataclass(frozen=True)
class CategoryHint:
    """Words in a user message that point at a category (今晚吃什么 → 生活技能/做饭)."""

    category_path: tuple[str, ...]
    words: tuple[str, ...]
    # Any of the words, as one search (every turn tests every hint: a third of the time
    # of testing the words one by one).
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        alternatives = "|".join(map(re.escape, self.words)) if self.words else "(?!)"
        object.__setattr__(self, "pattern", re.compile(alternatives))


@dataclass
class SchemaRegistry:
    """All schema rules plus the alias and hint tables."""

    rules: list[MemorySchemaRule]
    domain_aliases: dict[str, str] = field(default_factory=dict)
    category_hints: list[CategoryHint] = field(default_factory=list)
    temporary_words: dict[str, list[str]] = field(default_factory=dict)
    _key_rules: dict[tuple[str, str, str], MemorySchemaRule | None] = field(
        default_factory=dict, repr=False
    )
    _conflict_heads: dict[tuple[str, str, str], tuple[str, str, str]] = field(
        default_factory=dict, repr=False
    )

    @classmethod
    def load(cls, folder: Path | None = None) -> SchemaRegistry:
        """Load every ``*.json`` rule file (and ``aliases.json``) from ``folder``."""
        folder = folder or resource_path("schema_rules")
        rules: list[MemorySchemaRule] = []
        aliases: dict[str, Any] = {}
        for path in sorted(folder.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            if path.name == "aliases.json":
                aliases = data
                continue
            rules.extend(MemorySchemaRule.model_validate(r) for r in data.get("rules", []))
        return cls(
            rules=rules,
            domain_aliases={k.casefold(): v for k, v in aliases.get("domainAliases", {}).items()},
            category_hints=[
                CategoryHint(tuple(h["categoryPath"]), tuple(w.casefold() for w in h["words"]))
                for h in aliases.get("categoryHints", [])
            ],
            temporary_words=aliases.get("temporaryWords", {}),
        )

    def canonical_domain(self, domain: str) -> str:
        """A known domain's canonical name (``cooking`` → ``生活技能``); others unchanged."""
        stripped = domain.strip()
        return self.domain_aliases.get(stripped.casefold(), stripped)

    def rules_for(self, domain: str, node_type: NodeType | None = None) -> list[MemorySchemaRule]:
        """Rules of a domain (and type)."""
        return [
            r
            for r in self.rules
            if r.domain == domain and (node_type is None or r.type == node_type)
        ]

    def rule_for(
        self, domain: str, node_type: str, category_path: Sequence[str] | None = None
    ) -> MemorySchemaRule | None:
        """The most specific rule for a domain, type and category path."""
        best: MemorySchemaRule | None = None
        for rule in self.rules:
            if rule.domain != domain or rule.type != node_type:
                continue
            prefix = rule.category_path_prefix or []
            if category_path is not None and list(category_path[: len(prefix)]) != prefix:
                continue
            if best is None or len(prefix) > len(best.category_path_prefix or []):
                best = rule
        return best

    def rule_for_key(self, domain: str, node_type: str, key: str) -> MemorySchemaRule | None:
        """The rule that allows ``key`` (after aliasing) for this domain and type."""
        # Called for every node of every context (conflict identities): memoized.
        cache_key = (domain, node_type, key)
        if cache_key not in self._key_rules:
            self._key_rules[cache_key] = next(
                (
                    r
                    for r in self.rules_for(domain, node_type)  # type: ignore[arg-type]
                    if key in r.allowed_keys or key in r.key_aliases
                ),
                None,
            )
        return self._key_rules[cache_key]

    def hinted_categories(self, text: str) -> list[tuple[str, ...]]:
        """Categories a message is about, by hint words (in hint order, no duplicates)."""
        folded = text.casefold()
        return [h.category_path for h in self.category_hints if h.pattern.search(folded)]

    def always_in_context_rules(self) -> list[MemorySchemaRule]:
        """Rules whose memories enter every context (reply language, preferred name…)."""
        return [r for r in self.rules if r.always_in_context]

    def conflict_head(self, domain: str, node_type: str, key: str) -> tuple[str, str, str]:
        """``("one", domain, key)`` for a single-valued key; ``("many", domain, key group)``
        for a multi-valued one, whose identities then add the value's subject."""
        cache_key = (domain, node_type, key)
        head = self._conflict_heads.get(cache_key)
        if head is None:
            if self.single_valued(domain, node_type, key):
                head = ("one", domain, key)
            else:
                rule = self.rule_for_key(domain, node_type, key)
                group = next(
                    (
                        "|".join(sorted(keys))
                        for keys in (rule.key_groups if rule else [])
                        if key in keys
                    ),
                    key,
                )
                head = ("many", domain, group)
            self._conflict_heads[cache_key] = head
        return head

    def single_valued(self, domain: str, node_type: str, key: str) -> bool:
        """True when a key holds one value at a time (a new value supersedes the old)."""
        rule = self.rule_for_key(domain, node_type, key)
        if rule is None:
            # Unknown keys are treated as single-valued: safer to supersede than to pile up.
            return True
        return key in rule.single_value_keys
