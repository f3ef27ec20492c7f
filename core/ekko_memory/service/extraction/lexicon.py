"""Word lists the rule-based extractor recognizes (``resources/lexicon``)."""

from __future__ import annotations

import json
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
        """(canonical name, decision key) of technologies named in ``text``."""
        found = _find(tuple(sorted(self.tech_names, key=len, reverse=True)), text)
        return [(self.tech_names[n], self.tech[n]) for n in found]


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
                (start == 0 or not folded[start - 1].isalnum())
                and (end == len(folded) or not folded[end].isalnum())
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
            if after == len(folded) or not folded[after].isalnum():
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
        # Words holding an ingredient's name that name no food (钓鱼) block it as dishes do.
        dishes=tuple(food.get("dishes", ())) + tuple(food.get("notFood", ())),
    )
