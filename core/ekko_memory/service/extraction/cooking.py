"""Frames for food and cooking: ingredients to avoid, prefer or allow in small amounts,
allergies to foods, flavor (少油少辣, less spicy), cuisines, and temporary eating
constraints (今天别放葱) — all from the shipped word lists (``resources/lexicon/food.json``).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ekko_memory.identity import canonical_name
from ekko_memory.models import MemoryNode
from ekko_memory.schema.values import parse_flavor_text
from ekko_memory.service.extraction.findings import Found, clip, subject_name
from ekko_memory.service.extraction.lexicon import Lexicon

COOKING = ["生活技能", "做饭", "饮食偏好"]
# 牛奶我喝了肚子不舒服, 我一吃海鲜就过敏似的难受, dairy makes me bloated: what does the user
# harm each time (habitual: no day or moment named).
_UPSETS = re.compile(
    r"^(?!.*(?:今天|昨天|前天|刚才|刚刚|上次|那次|这次|今早|昨晚))"
    r"(?:.{1,8}?(?:我)(?:一)?(?:吃|喝)(?:了|完)?|(?:我)?一(?:吃|喝).{1,8}?)(?:就|都|会|总)*(?:会)?"
    r"(?:肚子|胃|肠胃)?(?:不舒服|难受|拉肚子|胀气|胀|疼|痛|长痘|起疹子|头疼|心慌|失眠|睡不着)"
    r"|^(?!the\b|this\b|that\b|it\b).{2,30}?\b(?:makes?|gives?)\s+me\s+(?:so\s+|really\s+|super\s+)?(?:jittery|bloated|sick|nauseous|queasy|ill|break\s+out|headaches?|migraines?|heartburn|the\s+shakes)\b",
    re.IGNORECASE,
)
# 榴莲闻着就想吐, 一闻到羊肉味就恶心, the smell of lamb makes me gag: what the user cannot
# take, said by how they react each time.
_REACTS = re.compile(
    r"^(?!.*(?:今天|昨天|前天|刚才|刚刚|这次|那次|上次|今早|昨晚|今晚))"
    r".{0,12}?(?:闻|看|吃|喝|尝|碰|想)(?:着|到|见|起来)?.{0,8}?(?:就|都|会)+(?:想吐|恶心|反胃|犯恶心|倒胃口|难受|受不了|头疼|头晕)"
    r"|\b(?:smell|sight|taste|thought)\s+of\s+.{2,30}?\s+makes?\s+me\s+(?:want\s+to\s+)?(?:gag|puke|throw\s+up|vomit|retch|sick|nauseous|queasy)\b",
    re.IGNORECASE,
)
_NEG = re.compile(
    r"别|不要|不想|不吃|不能吃|不能放|忌口|讨厌|不喜欢|不爱吃|不放|不加|去掉"
    r"|\b(?:don'?t|do not|no|avoid|without|hate|never|skip|leave out|cut out)\b"
    # I can't eat peanuts, can't have dairy: what the user cannot take.
    r"|\b(?:can'?t|cannot|can not|shouldn'?t|not supposed to|not allowed to)\s+(?:really\s+)?"
    r"(?:eat|have|drink|stand|stomach|handle|digest|tolerate|do)\b"
    # 香菜我是真吃不了 (not 吃不了那么多: an amount, no dislike).
    r"|(?:吃不了|吃不得|碰不了|碰不得|吃不来|吃不惯|喝不了|喝不惯|喝不来|受不了)(?!那么|这么|太多|多少|一整|完|了)"
)
# Reply languages: the words for each, and its name (Chinese, English).
_ALLERGY = re.compile(r"过敏|allergic|allerg(?:y|ies)")
_NOT_ALLERGIC = re.compile(r"不过敏|没有过敏|不会过敏|not allergic|no allerg|isn'?t allergic")
_LIKE = re.compile(r"喜欢|爱吃|想吃|偏爱|多放|最爱|\blove\b|\blike\b|\bprefer\b|\benjoy\b")
_ALLOW = re.compile(
    r"现在可以|可以接受|能接受|可以吃|能吃了|可以放|不忌口|(?:我|吃)?(?:没事|没问题|不过敏)|not anymore|can eat|is fine now|okay now|ok now|i'?m fine with|not allergic"
)
_SMALL = re.compile(r"一点|一些|少量|少许|不要太多|别太多|少放|a little|a bit|small amount")
_FLAVOR_NEG = re.compile(
    r"(不要太|别太|不太|少|别|不要|不想|不能|不吃)(?:给我)?(?:能)?(?:推荐|做|吃|放|来)?(太)?(?:点|些)?"
    r"(辣|油|咸|甜|麻|糖|盐)"
)
# 一点辣都吃不了, 吃不了辣, 太甜受不了: a flavor the user cannot take (太: too much of it).
_FLAVOR_CANNOT = re.compile(
    r"(?:一点|一丁点|半点|一口)?(?:儿)?(?P<too>太)?(?P<dim>辣|麻|油|咸|甜)(?:的)?(?:我)?(?:是)?(?:真的?|实在|完全|根本|从小就?)?"
    r"(?:一点)?(?:都|也)?(?:吃不了|碰不了|碰不得|吃不得|受不了|吃不来|吃不惯|接受不了)"
    r"|(?:吃不了|碰不了|吃不得|吃不来|吃不惯|接受不了)(?:一点)?(?P<too2>太)?(?P<dim2>辣|麻|咸|甜)"
)
# 不喜欢吃辣, 不太爱吃甜: a liking of a flavor, negated (不太: a little is fine).
_NOT_FOND_OF = re.compile(
    r"(?:不|没)(?P<soft>太|怎么|是很|是特别|是太|是那么|大)?(?:爱|喜欢|想|习惯)(?:吃|放|加)?(?:太)?(?P<dim>辣|麻|油|咸|甜|糖|盐)"
)
_NONE_WITHOUT = re.compile(r"无(?P<dim>辣|麻|甜|咸|糖)不(?:欢|乐|香)")
_DIM = {
    "辣": "spicy",
    "麻": "spicy",
    "油": "oil",
    "咸": "salt",
    "盐": "salt",
    "甜": "sugar",
    "糖": "sugar",
}
# The English counterparts of _FLAVOR_NEG, which the level-before-dimension reading of
# parse_flavor_text (less spicy, no spice) misses: "nothing spicy", "don't want anything
# spicy", "skip the salt" (none); "nothing too spicy", "go easy on the oil" (low).
_DIM_EN_WORDS = {
    "spicy": "spicy",
    "spice": "spicy",
    "spices": "spicy",
    "spiciness": "spicy",
    "oily": "oil",
    "oil": "oil",
    "greasy": "oil",
    "fatty": "oil",
    "salty": "salt",
    "salt": "salt",
    "sweet": "sugar",
    "sugar": "sugar",
    "sugary": "sugar",
}
_FLAVOR_NEG_EN = re.compile(
    r"\b(?:(?P<low>not too|nothing too|anything too|not very|not so|go easy on|easy on"
    r"|cut down on|cut back on|keep (?:it|things) from being too)"
    r"|(?P<none>nothing|avoid|skip|hold|without|no more"
    r"|(?:don'?t|do not|can'?t|cannot|won'?t)\s+(?:want|have|eat|handle)\s+anything"
    r"|(?:can'?t|cannot)\s+(?:handle|eat|take|stand)))"
    rf"\s+(?:the\s+|any\s+)?(?P<dim>{'|'.join(sorted(_DIM_EN_WORDS, key=len, reverse=True))})\b"
)

# 越辣越好, the spicier the better ("hotter" only where food is spoken of: a shower may be).
_THE_MORE = re.compile(
    r"越(?P<dim>辣|麻)越(?:好|过瘾|爽|带劲|香)"
    r"|\bthe\s+(?:spicier|hotter)\s+the\s+better\b",
    re.IGNORECASE,
)
_FOOD_TALK = re.compile(
    r"\b(?:spicy|spice|chill?i(?:es)?|curry|curries|sauce|salsa|wings|peppers?|food|dish|dishes|eat|eating|ramen|noodles|hot\s+pot|tacos?)\b"
    r"|\bthe\s+spicier\b",
    re.IGNORECASE,
)
_LEVEL_ZH = {"none": "不", "mild": "微", "low": "少", "medium": "中", "high": "重", "extra": "特"}
_DIM_ZH = {"spicy": "辣", "oil": "油", "salt": "盐", "sugar": "糖"}

_LEVEL_EN = {
    "none": "no",
    "mild": "mild",
    "low": "less",
    "medium": "medium",
    "high": "more",
    "extra": "extra",
}
_DIM_EN = {"spicy": "spice", "oil": "oil", "salt": "salt", "sugar": "sugar"}


def flavor_english(value: dict[str, str]) -> str:
    """{'oil': 'low', 'spicy': 'low'} → less oil, less spice."""
    return ", ".join(
        f"{_LEVEL_EN.get(level, level)} {_DIM_EN.get(dim, dim)}" for dim, level in value.items()
    )


def flavor_words(value: dict[str, str]) -> str:
    """{'oil': 'low', 'spicy': 'low'} → 少油少辣."""
    return "".join(
        _LEVEL_ZH.get(level, level) + _DIM_ZH.get(dim, dim) for dim, level in value.items()
    )


# No empty alternative: one would match every message and open the gate to all.
_EATING = re.compile(
    r"吃|喝|做饭|做菜|下厨|口味|喜欢|爱|偏好|偏爱|以后|菜|饭|餐|食|辣|麻|咸|甜|淡|胃|清淡|口|忌"
    r"|盐|油|糖|"
    r"\b(?:eat|eating|ate|cook|cooking|food|meal|meals|dinner|lunch|breakfast|dish|dishes|recipe|taste|like|love|prefer|diet|stomach|spicy|spice|salt|salty|oil|oily|sugar|sweet|something light|order|ordering|menu|wings|curry|curries|noodles|ramen|pizza|tacos?|burgers?|sauce|hot pot|chicken|beef|pork|fish|soup)\b",
    re.IGNORECASE,
)


class CookingFrames:
    """Reads a clause for what the user eats and how (the cooking frames)."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon

    def read(
        self,
        clause: str,
        text: str,
        until: datetime | None,
        src: list[str],
        known: list[MemoryNode],
        found: Found,
    ) -> None:
        ingredients = self.lexicon.find_ingredients(clause)
        # Flavor words (辣/油/咸/甜) are not ingredients here.
        ingredients = [i for i in ingredients if i not in ("辣椒",) or "辣椒" in clause]
        # An allergy is the strongest 忌口 (对花生过敏, allergic to peanuts).
        allergic = bool(_ALLERGY.search(clause.casefold())) and not _NOT_ALLERGIC.search(
            clause.casefold()
        )
        negated = (
            allergic
            or bool(_NEG.search(clause.casefold()))
            or bool(_UPSETS.search(clause))
            or bool(_REACTS.search(clause))
        )
        if ingredients and _ALLOW.search(clause.casefold()):
            for name in ingredients:
                self._allow(self.lexicon.canonical(name), name, clause, src, known, found)
            return
        # A flavor is the user's taste only where the words speak of eating (要低糖的 of a
        # cake ordered for someone else is no preference of the user's).
        flavor = self._flavor(clause, text) if _EATING.search(text) else {}
        if flavor:
            words = flavor_words(flavor)
            if until is not None:
                found.add(
                    "create",
                    "a temporary eating constraint the user stated",
                    scope="workspace",
                    domain="生活技能",
                    expires_at=until,
                    category_path=COOKING,
                    type="constraint",
                    key="flavor_profile",
                    value_json=flavor,
                    title=found.t(f"暂时{words}", f"For now: {flavor_english(flavor)}"),
                    content=found.t(
                        f"用户说：{clip(text, 120)}", f"The user said: {clip(text, 120)}"
                    ),
                    tags=["临时", "口味"],
                    entities=[words],
                    source_message_ids=src,
                    confidence=0.9,
                    importance=0.9,
                )
            else:
                found.add(
                    "create",
                    "a flavor preference the user stated",
                    scope="user",
                    domain="生活技能",
                    category_path=COOKING,
                    type="preference",
                    key="flavor_profile",
                    value_json=flavor,
                    title=found.t(f"用户偏好{words}", f"Prefers {flavor_english(flavor)}"),
                    content=found.t(
                        f"推荐菜谱时优先{words}。", f"Recommend {flavor_english(flavor)} dishes."
                    ),
                    tags=["口味", "菜谱推荐"],
                    entities=[_LEVEL_ZH.get(v, v) + _DIM_ZH.get(k, k) for k, v in flavor.items()],
                    source_message_ids=src,
                    confidence=0.95,
                    importance=0.85,
                )
        for said in ingredients:
            name = self.lexicon.canonical(said)
            entities = list(dict.fromkeys([name, said]))
            if allergic:
                found.add(
                    "create",
                    "a food allergy the user stated",
                    scope="user",
                    domain="生活技能",
                    category_path=COOKING,
                    type="preference",
                    key="avoid_ingredient",
                    value_json=name,
                    title=found.t(f"用户对{name}过敏", f"Allergic to {said}"),
                    content=found.t(
                        f"用户对{name}过敏，推荐菜谱时不能用{name}。",
                        f"Allergic to {said}: never use it in recommended dishes.",
                    ),
                    tags=["过敏", "忌口", "菜谱推荐"],
                    entities=entities,
                    source_message_ids=src,
                    confidence=0.98,
                    importance=1.0,
                )
            elif negated:
                kind = "constraint" if until is not None else "preference"
                found.add(
                    "create",
                    "an ingredient the user does not want",
                    expires_at=until,
                    scope="workspace" if until is not None else "user",
                    domain="生活技能",
                    category_path=COOKING,
                    type=kind,
                    key="avoid_ingredient",
                    value_json=name,
                    title=found.t(f"用户不吃{name}", f"Avoids {said}"),
                    content=found.t(
                        f"推荐菜谱时避免{name}。", f"Leave {said} out of recommended dishes."
                    ),
                    tags=["忌口", "菜谱推荐"],
                    entities=entities,
                    source_message_ids=src,
                    confidence=0.98,
                    importance=0.9,
                )
            elif _LIKE.search(clause.casefold()):
                found.add(
                    "create",
                    "an ingredient the user likes",
                    scope="user",
                    domain="生活技能",
                    category_path=COOKING,
                    type="preference",
                    key="preferred_ingredient",
                    value_json=name,
                    title=found.t(f"用户喜欢{name}", f"Likes {said}"),
                    content=found.t(
                        f"推荐菜谱时可以多用{name}。", f"Dishes with {said} are welcome."
                    ),
                    tags=["口味", "菜谱推荐"],
                    entities=entities,
                    source_message_ids=src,
                    confidence=0.9,
                    importance=0.6,
                )
        for cuisine in self.lexicon.find_cuisines(clause):
            key = (
                "disliked_cuisine"
                if negated
                else "preferred_cuisine"
                if _LIKE.search(clause.casefold())
                else None
            )
            if key is not None:
                verb = "不喜欢" if negated else "喜欢"
                verb_en = "Dislikes" if negated else "Likes"
                found.add(
                    "create",
                    f"a cuisine the user {'dislikes' if negated else 'likes'}",
                    scope="user",
                    domain="生活技能",
                    category_path=COOKING,
                    type="preference",
                    key=key,
                    value_json=cuisine,
                    title=found.t(f"用户{verb}{cuisine}", f"{verb_en} {cuisine}"),
                    content=found.t(f"用户{verb}{cuisine}。", f"{verb_en} {cuisine}."),
                    tags=["口味"],
                    entities=[cuisine],
                    source_message_ids=src,
                    confidence=0.9,
                    importance=0.6,
                )

    def _flavor(self, clause: str, text: str = "") -> dict[str, str]:
        value = {k: v for k, v in parse_flavor_text(clause).items()}
        for m in _NONE_WITHOUT.finditer(clause):
            # 无辣不欢 (no meal is good without spice): the taste loved, not 无辣 (none).
            value[_DIM[m["dim"]]] = "high"
        for m in _NOT_FOND_OF.finditer(clause):
            # 不喜欢吃辣 read as 喜欢吃辣 would be the opposite of what was said.
            dim = _DIM[m["dim"]]
            if value.get(dim) in ("high", "extra", "medium"):
                value[dim] = "low" if m["soft"] else "none"
        for m in _FLAVOR_NEG.finditer(clause):
            # 别推荐太咸的 is "not too salty": low, like 别太咸.
            low = m.group(1) in ("少", "不要太", "别太", "不太") or m.group(2) is not None
            value.setdefault(_DIM[m.group(3)], "low" if low else "none")
        for m in _FLAVOR_CANNOT.finditer(clause):
            low = bool(m["too"] or m["too2"])
            value.setdefault(_DIM[m["dim"] or m["dim2"]], "low" if low else "none")
        more = _THE_MORE.search(clause)
        if more is not None and (more["dim"] or _FOOD_TALK.search(text or clause)):
            # 越辣越好, the spicier the better: the taste turned up.
            value.setdefault("spicy" if not more["dim"] else _DIM[more["dim"]], "high")
        for m in _FLAVOR_NEG_EN.finditer(clause.casefold()):
            value.setdefault(_DIM_EN_WORDS[m["dim"]], "low" if m["low"] else "none")
        return dict(sorted(value.items()))

    def _allow(
        self,
        name: str,
        said: str,
        clause: str,
        src: list[str],
        known: list[MemoryNode],
        found: Found,
    ) -> None:
        target = next(
            (
                n
                for n in known
                if n.key in ("avoid_ingredient", "limit_ingredient")
                and n.status == "active"
                and subject_name(n) == canonical_name(name)
            ),
            None,
        )
        if _SMALL.search(clause.casefold()):
            node: dict[str, Any] = {
                "domain": "生活技能",
                "category_path": COOKING,
                "type": "preference",
                "key": "limit_ingredient",
                "value_json": {"ingredient": name, "amount": "少量"},
                "title": found.t(f"用户可接受少量{name}", f"A little {said} is fine"),
                "content": found.t(
                    f"{name}可以少放一点，但不要太多。", f"A little {said} is fine, not too much."
                ),
                "tags": ["忌口", "菜谱推荐"],
                "entities": [name],
                "source_message_ids": src,
                "confidence": 0.95,
                "importance": 0.85,
            }
            if target is not None:
                found.add(
                    "supersede", "the user corrected an earlier memory", target_id=target.id, **node
                )
            else:
                found.add("create", "the user allows a small amount", scope="user", **node)
        elif target is not None:
            found.add("expire", f"the user no longer avoids {name}", target_id=target.id)
