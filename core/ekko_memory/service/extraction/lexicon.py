"""Word lists the rule-based extractor recognizes (``resources/lexicon``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from ekko_memory.identity import name_synonyms, normalize_name
from ekko_memory.resources import resource_path


@dataclass(frozen=True)
class Lexicon:
    """Ingredients, cuisines and technology names, longest first (so 五花肉 wins over 肉)."""

    ingredients: tuple[str, ...]
    cuisines: tuple[str, ...]
    tech: dict[str, str]  # name (casefolded) -> decision key
    tech_names: dict[str, str]  # name (casefolded) -> canonical spelling
    key_words: dict[str, tuple[str, ...]]
    # Technology names (casefolded) that are everyday English words too.
    plain_words: frozenset[str] = frozenset()
    # Dish names holding an ingredient's word (鱼香肉丝, 杏仁豆腐): matched as one word so
    # the ingredient inside is not read, and reported as none.
    dishes: tuple[str, ...] = ()

    @cached_property
    def _ingredient_words(self) -> tuple[str, ...]:
        """Ingredients and dish names, longest first (杏仁豆腐 wins over 杏仁 and 豆腐)."""
        return tuple(sorted((*self.ingredients, *self.dishes), key=len, reverse=True))

    def canonical(self, name: str) -> str:
        """The stored name of an ingredient (cilantro → 香菜)."""
        return name_synonyms().get(normalize_name(name), name)

    def find_ingredients(self, text: str) -> list[str]:
        """Ingredients named in ``text`` (no word inside another match, nor in a dish's
        name)."""
        found = _find(self._ingredient_words, text)
        return [w for w in found if w not in self.dishes] if self.dishes else found

    def find_cuisines(self, text: str) -> list[str]:
        """Cuisines named in ``text``."""
        return _find(self.cuisines, text)

    def find_tech(self, text: str) -> list[tuple[str, str]]:
        """(canonical name, decision key) of technologies named in ``text``. A name that is
        also an everyday English word (Go, Rust, Sketch, Node) counts only when written with
        its capital or among Chinese words: "let's go with Figma" names no Go."""
        found = _find(tuple(sorted(self.tech_names, key=len, reverse=True)), text)
        chinese = any("\u4e00" <= c <= "\u9fff" for c in text)
        return [
            (self.tech_names[n], self.tech[n])
            for n in found
            if n not in self.plain_words or chinese or _capitalized(n, text)
        ]


def _capitalized(name: str, text: str) -> bool:
    """``text`` holds ``name`` as a whole word starting with a capital (Go, not go)."""
    return any(
        text[m.start()].isupper()
        for m in re.finditer(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text, re.I)
    )


def _latin(c: str) -> bool:
    """A latin letter or digit: 用pnpm holds the word pnpm, pnpmx does not."""
    return c.isascii() and c.isalnum()


def _find(words: tuple[str, ...], text: str) -> list[str]:
    folded = text.casefold()
    taken = [False] * len(folded)
    out: list[str] = []
    for word in words:
        w = word.casefold()
        start = folded.find(w)
        while start != -1:
            end = start + len(w)
            ascii_word = w.isascii()
            if ascii_word:
                end = _plural_end(folded, end)
            boundary = not ascii_word or (
                (start == 0 or not _latin(folded[start - 1]))
                and (end == len(folded) or not _latin(folded[end]))
            )
            if boundary and not any(taken[start:end]):
                taken[start:end] = [True] * (end - start)
                if word not in out:
                    out.append(word)
            start = folded.find(w, end)
    return out


def _plural_end(folded: str, end: int) -> int:
    """Past an English plural ending right after a word ("no onions", "tomatoes"): the
    lists hold the singular, and the plural names the same thing."""
    for suffix in ("es", "s"):
        if folded.startswith(suffix, end):
            after = end + len(suffix)
            if after == len(folded) or not _latin(folded[after]):
                return after
    return end


@lru_cache(maxsize=1)
def load_lexicon() -> Lexicon:
    """The shipped word lists."""
    food = json.loads(resource_path("lexicon", "food.json").read_text(encoding="utf-8"))
    tech = json.loads(resource_path("lexicon", "tech.json").read_text(encoding="utf-8"))
    tech_keys = {name.casefold(): key for key, names in tech["keys"].items() for name in names}
    tech_names = {name.casefold(): name for names in tech["keys"].values() for name in names}
    return Lexicon(
        ingredients=tuple(sorted(food["ingredients"], key=len, reverse=True)),
        cuisines=tuple(sorted(food["cuisines"], key=len, reverse=True)),
        tech=tech_keys,
        tech_names=tech_names,
        key_words={k: tuple(v) for k, v in tech["keyWords"].items()},
        plain_words=frozenset(w.casefold() for w in tech.get("plainWords", ())),
        # Words holding an ingredient's name that name no food (钓鱼) block it as dishes do.
        dishes=tuple(food.get("dishes", ())) + tuple(food.get("notFood", ())),
    )
