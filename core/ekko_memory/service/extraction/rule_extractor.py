"""The default extractor: Chinese and English patterns, no network.

What it understands (one clause at a time, see docs/extraction.md for the full list):
- cooking: ingredients to avoid / prefer / allow in small amounts (from a word list),
  flavor (少油少辣, 不辣, less spicy…), cuisines; temporary states (今天/最近/先别…)
  become constraints with an expiry; corrections of an earlier memory (香菜现在可以接受一点)
  supersede it;
- projects: technology decisions (数据库用 PostgreSQL, we use FastAPI), coding
  constraints (必须/不能 + code words), tasks (TODO/待办/接下来要…) and their completion;
- anything else the user explicitly asks to remember (记住…, remember…) as a note: the
  project's (workspace scope, 项目/约定) when it speaks of the project (这个项目, 本仓库,
  代码库, this repo…), else the user's (个人/笔记).

What it does not: pronouns and references across clauses or messages, negation that
spans clauses, ingredients or technologies missing from the word lists, quantities,
dates beyond 今天/最近/这周 (today/tonight, for now/lately, this week…), sarcasm, hypotheticals ("如果我不吃香菜…"), and anything the
assistant said (only user messages are read).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ekko_memory.identity import canonical_name
from ekko_memory.models import (
    ExtractedNodeOperation,
    MemoryExtraction,
    MemoryMessage,
    MemoryNode,
    MemoryNodeDraft,
)
from ekko_memory.schema import intent
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.schema.values import parse_flavor_text
from ekko_memory.service.extraction.lexicon import Lexicon, load_lexicon
from ekko_memory.service.extraction.protocol import ExtractionInput

COOKING = ["生活技能", "做饭", "饮食偏好"]
_CLAUSE = re.compile(r"[，,。.!！；;？?\n]+")
_NEG = re.compile(
    r"别|不要|不想|不吃|不能吃|不能放|忌口|讨厌|不喜欢|不爱吃|不放|不加|去掉|don'?t|do not|no |avoid|without|hate|never"
)
# Reply languages: the words for each, and its name (Chinese, English).
_LANGUAGES = {
    ("中文", "汉语", "普通话", "chinese", "mandarin"): ("中文", "Chinese"),
    ("英文", "英语", "english"): ("英文", "English"),
    ("日文", "日语", "japanese"): ("日文", "Japanese"),
}
_LANGUAGE_WORDS = "|".join(w for words in _LANGUAGES for w in words)
# 回答我都用中文 / 用英文回复我 / reply in English / answer me in Chinese.
_REPLY_LANG = re.compile(
    rf"(?:回答|回复|答复|回我|说话)[^，。！？,.!?]{{0,6}}?(?:用|使用)\s*({_LANGUAGE_WORDS})"
    rf"|(?:用|使用)\s*({_LANGUAGE_WORDS})\s*(?:来)?(?:回答|回复|答复|回我|和我说|跟我说)"
    rf"|\b(?:reply|respond|answer|talk|write back)\b[^,.!?]{{0,12}}?\bin ({_LANGUAGE_WORDS})\b",
    re.IGNORECASE,
)
_ALLERGY = re.compile(r"过敏|allergic|allerg(?:y|ies)")
_NOT_ALLERGIC = re.compile(r"不过敏|没有过敏|不会过敏|not allergic|no allerg|isn'?t allergic")
_LIKE = re.compile(r"喜欢|爱吃|想吃|偏爱|多放|最爱|\blove\b|\blike\b|\bprefer\b|\benjoy\b")
_ALLOW = re.compile(
    r"现在可以|可以接受|能接受|可以吃|能吃了|可以放|不忌口|not anymore|can eat|is fine now|okay now|ok now"
)
_SMALL = re.compile(r"一点|一些|少量|少许|不要太多|别太多|少放|a little|a bit|small amount")
_FLAVOR_NEG = re.compile(
    r"(不要太|别太|不太|少|别|不要|不想|不能|不吃)(?:给我)?(?:能)?(?:推荐|做|吃|放|来)?(太)?(?:点|些)?"
    r"(辣|油|咸|甜|麻|糖|盐)"
)
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
_DECIDE = re.compile(
    r"用|使用|采用|选用|选择|改用|换成|换用|决定|定了|迁移到|上\b|\buse\b|\busing\b|decided|go with|adopt|migrate to"
    # switch to, switched the database to: what is switched may stand between.
    r"|\bswitch(?:ed|ing)?(?:\s+[a-z]+){0,2}?\s+to\b"
)
# A technology the project stops using (我们不用 Redis 了, 弃用 MySQL, we stopped using Redis):
# no decision to use it, and the decision that held it expires.
_DROP = re.compile(
    r"不用|不再用|不再使用|弃用|停用|放弃|去掉|移除|拿掉"
    r"|\bstop(?:ped)? using\b|\bno longer (?:use|using)\b|\bnot using\b|\b(?:don'?t|do not) use\b"
    r"|\bdrop(?:ped)?\b|\bremoved?\b|\bget(?:ting)? rid of\b"
)
# What the project moves to after dropping one (不用 PostgreSQL 了，改用 MySQL in one clause).
_SWITCH = re.compile(
    r"改用|换成|换用|改成|转用|迁移到|切换到|换到"
    r"|\b(?:switch(?:ed|ing)?|migrat(?:e|ed|ing)|mov(?:e|ed|ing))(?:\s+[a-z.+#]+){0,3}?\s+to\b"
)
# 是 / is between a decision's topic and a technology: 我们的数据库是 PostgreSQL, our database
# is PostgreSQL — not 不是, 是不是, 是否 or "is not".
_COPULA = re.compile(r"(?<!不)是(?!不是|否)|\b(?:is|are|will be)\b(?!\s+not\b)")
# The role a technology is chosen for: 用 Redis 做缓存, Redis 作为消息队列, Redis as a cache.
_ROLE = re.compile(
    r"(?:做|作为|当作?|用作|用于|来做)\s*([\u4e00-\u9fff]{2,6})"
    r"|\bas (?:an? |the |our )?([a-z]+(?: [a-z]+)?)",
    re.IGNORECASE,
)
_RULE = re.compile(
    r"必须|一定要|不能|不允许|禁止|不要|务必|一律|\bmust\b|\bnever\b|\balways\b|not allowed"
)
_CODE = re.compile(
    r"代码|提交|接口|测试|依赖|兼容|版本|类型|注释|日志|API|commit|test|dependenc|compatib|lint|typ|review|merge|PR\b",
    re.IGNORECASE,
)
_TASK = re.compile(
    r"(?:TODO|待办|记一下要|接下来要|下一步要?|需要完成|要做的是|任务[:：]|to-?do:?|next,? i need to|need to)\s*[:：]?\s*(.+)",
    re.IGNORECASE,
)
_DONE = re.compile(
    r"完成了|已完成|已经完成|(?:写|做|改|测|弄|搞|修)(?:完|好)了|finished|done with|completed"
    # Two-character verbs of work (支付模块重构好了, 部署文档整理完了) and 搞定了, 上线了.
    r"|(?:重构|优化|实现|部署|整理|准备|处理|更新|迁移|升级|配置|测试|修复|编写)(?:完|好)了"
    r"|搞定了|上线了|合并了"
    r"|\b(?:is|are|was|were|all) done\b"
)


def work_done(text: str) -> bool:
    """The words report work done (写完了, 支付模块重构好了, finished, all done)."""
    return bool(_DONE.search(text.casefold()))


_LEVEL_ZH = {"none": "不", "mild": "微", "low": "少", "medium": "中", "high": "重", "extra": "特"}
_DIM_ZH = {"spicy": "辣", "oil": "油", "salt": "盐", "sugar": "糖"}
# A decision key's name in the title, (Chinese, English).
_KEY_LABEL = {
    "database": ("数据库", "Database"),
    "framework": ("框架", "Framework"),
    "language": ("编程语言", "Language"),
    "deployment": ("部署", "Deployment"),
    "ci": ("CI", "CI"),
    "testing": ("测试框架", "Test framework"),
}


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


_CJK = re.compile(r"[\u4e00-\u9fff]")
# The request around a note, which is no part of what to remember: 记住，… before it, and
# …，记住 / …, remember that for this project after it (the title is what was said).
_NOTE_LEAD = re.compile(
    r"^(请|帮我)?(记住|记一下|记下|记得|帮我记录|remember( that)?|keep in mind( that)?)[，,:：\s]*",
    re.IGNORECASE,
)
_NOTE_TAIL = re.compile(
    r"[，,;；\s]+(?:请|帮我)?(?:记住|记一下|记下|记得|记着)(?:了|哦|啊|吧|这个|这点)?[。.!！]*$"
    r"|[,;\s]+(?:please\s+)?(?:remember|keep)(?:\s+(?:that|this|it))?(?:\s+in mind)?"
    r"(?:\s+for\s+(?:this|the|our)\s+(?:project|repo|repository|codebase))?[.!]*$",
    re.IGNORECASE,
)


def _clip(text: str, limit: int = 40) -> str:
    text = text.strip(" ，,。.!！；;")
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class _Found:
    ops: list[ExtractedNodeOperation] = field(default_factory=list)

    def add(self, operation: str, reason: str, target_id: str | None = None, **node: Any) -> None:
        self.ops.append(
            ExtractedNodeOperation(
                operation=operation,  # type: ignore[arg-type]
                target_id=target_id,
                node=MemoryNodeDraft.model_validate(node),
                reason=reason,
            )
        )


class RuleBasedExtractor:
    """Pattern extractor for Chinese and English (the default; no network)."""

    name = "rules"

    def __init__(self, registry: SchemaRegistry, lexicon: Lexicon | None = None) -> None:
        self.registry = registry
        self.lexicon = lexicon or load_lexicon()
        self._zh = True

    def _t(self, zh: str, en: str) -> str:
        """Titles and contents in the language the user wrote in."""
        return zh if self._zh else en

    def extract(self, data: ExtractionInput) -> MemoryExtraction:
        """Operations for every user message in the batch."""
        found = _Found()
        known = list(data.known_nodes)
        for msg in data.messages:
            if msg.role == "user":
                self._message(msg, known, found)
        return MemoryExtraction(nodes=found.ops)

    # --- one message ----------------------------------------------------------------

    def _message(self, msg: MemoryMessage, known: list[MemoryNode], found: _Found) -> None:
        text = msg.content.strip()
        if not text:
            return
        before = len(found.ops)
        self._zh = bool(_CJK.search(text))
        until = intent.temporary_expiry(text, msg.created_at, self.registry.temporary_words)
        src = [msg.id]
        for clause in (c.strip() for c in _CLAUSE.split(text)):
            if clause:
                self._cooking(clause, text, until, src, known, found)
                self._project(clause, src, known, found)
                self._reply_language(clause, text, src, found)
        if len(found.ops) == before and intent.has_explicit_intent(text):
            note = _NOTE_TAIL.sub("", _NOTE_LEAD.sub("", text))
            if note:
                # 这个项目的… / this repo…: the project's note, kept in the workspace
                # (design doc: 项目技术约束默认 workspace，不默认 user).
                project = intent.mentions_project(text)
                found.add(
                    "create",
                    "the user asked to remember this",
                    scope="workspace" if project else "user",
                    domain="项目" if project else "个人",
                    category_path=["项目", "约定"] if project else ["个人", "笔记"],
                    type="fact",
                    title=_clip(note),
                    content=text,
                    source_message_ids=src,
                    confidence=0.9,
                    importance=0.7,
                )

    # --- how to talk to the user ----------------------------------------------------

    def _reply_language(self, clause: str, text: str, src: list[str], found: _Found) -> None:
        """以后回答我都用中文 / from now on, reply in English: the reply_language preference
        (its rule puts it in every context). Only as a standing request: 用中文回答我 alone
        asks for this one reply."""
        m = _REPLY_LANG.search(clause)
        if m is None or not intent.has_explicit_intent(text):
            return
        said = next(g for g in m.groups() if g).casefold()
        zh, en = next(names for words, names in _LANGUAGES.items() if said in words)
        found.add(
            "create",
            "the language the user wants replies in",
            scope="user",
            domain="个人",
            category_path=["个人", "沟通"],
            type="preference",
            key="reply_language",
            value_json=self._t(zh, en),
            title=self._t(f"回复用{zh}", f"Reply in {en}"),
            content=self._t(f"以后回答用户都用{zh}。", f"Always reply to the user in {en}."),
            tags=["沟通"],
            source_message_ids=src,
            confidence=0.95,
            importance=0.9,
        )

    # --- cooking --------------------------------------------------------------------

    def _cooking(
        self,
        clause: str,
        text: str,
        until: datetime | None,
        src: list[str],
        known: list[MemoryNode],
        found: _Found,
    ) -> None:
        ingredients = self.lexicon.find_ingredients(clause)
        # Flavor words (辣/油/咸/甜) are not ingredients here.
        ingredients = [i for i in ingredients if i not in ("辣椒",) or "辣椒" in clause]
        # An allergy is the strongest 忌口 (对花生过敏, allergic to peanuts).
        allergic = bool(_ALLERGY.search(clause.casefold())) and not _NOT_ALLERGIC.search(
            clause.casefold()
        )
        negated = allergic or bool(_NEG.search(clause.casefold()))
        if ingredients and _ALLOW.search(clause.casefold()):
            for name in ingredients:
                self._allow(self.lexicon.canonical(name), name, clause, src, known, found)
            return
        flavor = self._flavor(clause)
        if flavor:
            words = flavor_words(flavor)
            if until is not None:
                found.add(
                    "create",
                    "a temporary eating constraint the user stated",
                    domain="生活技能",
                    expires_at=until,
                    category_path=COOKING,
                    type="constraint",
                    key="flavor_profile",
                    value_json=flavor,
                    title=self._t(f"暂时{words}", f"For now: {flavor_english(flavor)}"),
                    content=self._t(
                        f"用户说：{_clip(text, 120)}", f"The user said: {_clip(text, 120)}"
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
                    title=self._t(f"用户偏好{words}", f"Prefers {flavor_english(flavor)}"),
                    content=self._t(
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
                    title=self._t(f"用户对{name}过敏", f"Allergic to {said}"),
                    content=self._t(
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
                    scope=None if until is not None else "user",
                    domain="生活技能",
                    category_path=COOKING,
                    type=kind,
                    key="avoid_ingredient",
                    value_json=name,
                    title=self._t(f"用户不吃{name}", f"Avoids {said}"),
                    content=self._t(
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
                    title=self._t(f"用户喜欢{name}", f"Likes {said}"),
                    content=self._t(
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
                    title=self._t(f"用户{verb}{cuisine}", f"{verb_en} {cuisine}"),
                    content=self._t(f"用户{verb}{cuisine}。", f"{verb_en} {cuisine}."),
                    tags=["口味"],
                    entities=[cuisine],
                    source_message_ids=src,
                    confidence=0.9,
                    importance=0.6,
                )

    def _flavor(self, clause: str) -> dict[str, str]:
        value = {k: v for k, v in parse_flavor_text(clause).items()}
        for m in _FLAVOR_NEG.finditer(clause):
            # 别推荐太咸的 is "not too salty": low, like 别太咸.
            low = m.group(1) in ("少", "不要太", "别太", "不太") or m.group(2) is not None
            value.setdefault(_DIM[m.group(3)], "low" if low else "none")
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
        found: _Found,
    ) -> None:
        target = next(
            (
                n
                for n in known
                if n.key in ("avoid_ingredient", "limit_ingredient")
                and n.status == "active"
                and _subject(n) == canonical_name(name)
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
                "title": self._t(f"用户可接受少量{name}", f"A little {said} is fine"),
                "content": self._t(
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

    # --- projects -------------------------------------------------------------------

    def _other_role(self, clause: str, key: str) -> str | None:
        """The role a clause gives a technology when no decision key names it (用 Redis
        做缓存: 缓存; Redis as a cache: cache), else None — 用 PostgreSQL 做数据库 and
        用 Python 做后端 stay the technology's own decision."""
        m = _ROLE.search(clause)
        if m is None:
            return None
        role = (m.group(1) or m.group(2)).strip()
        folded = role.casefold()
        # Latin key words as whole words (ci is no part of "specific"), Chinese ones anywhere.
        words = set(folded.split())
        for w in (w.casefold() for ws in self.lexicon.key_words.values() for w in ws):
            if (w in words) if w.isascii() else (w in folded):
                return None
        if any(folded in w.casefold() for w in self.lexicon.key_words.get(key, ())):
            return None
        return role

    def _dropped(
        self, clause: str, tech: list[tuple[str, str]], known: list[MemoryNode], found: _Found
    ) -> list[tuple[str, str]]:
        """The technologies a clause chooses, in the order said. The ones it drops are not
        chosen and their decisions expire: those named between the drop word and a switch
        (我们不用 Redis 了; 不用 PostgreSQL 了改用 MySQL keeps MySQL; 用 PostgreSQL 不用 MySQL
        keeps PostgreSQL), else the ones before it (Redis 弃用了). The ones a clause switches
        away from are not chosen either (从 PostgreSQL 迁移到 MySQL, from Flask to FastAPI):
        the one switched to replaces their decision."""
        folded = clause.casefold()
        at = {name: folded.find(name.casefold()) for name, _ in tech}
        said = sorted(tech, key=lambda t: at[t[0]])
        drop = _DROP.search(folded)
        if drop is None:
            switch = _SWITCH.search(folded)
            after = [t for t in said if switch is not None and at[t[0]] >= switch.end()]
            return after or said
        switch = _SWITCH.search(folded, drop.end())
        cut = switch.start() if switch else len(folded)
        gone = {name for name, _ in tech if drop.end() <= at[name] < cut} or {
            name for name, _ in tech if at[name] < drop.start()
        }
        for name in gone:
            for node in known:
                if (
                    node.type == "decision"
                    and node.status == "active"
                    and _subject(node) == canonical_name(name)
                ):
                    found.add("expire", f"the project no longer uses {name}", target_id=node.id)
        return [t for t in said if t[0] not in gone]

    def _stated(self, folded: str, tech: list[tuple[str, str]]) -> bool:
        """The clause says what a decision is: its topic word, then 是/is, then the name
        (我们的数据库是 PostgreSQL, our database is PostgreSQL; not "PostgreSQL is slow", nor
        the question 数据库是 PostgreSQL 吗)."""
        if re.search(r"[吗么呢]\s*$", folded):
            return False
        for name, key in tech:
            at = folded.find(name.casefold())
            for word in self.lexicon.key_words.get(key, ()):
                w = word.casefold()
                found = (
                    re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", folded)
                    if w.isascii()
                    else re.search(re.escape(w), folded)
                )
                if found and found.end() <= at and _COPULA.search(folded[found.end() : at]):
                    return True
        return False

    def _project(self, clause: str, src: list[str], known: list[MemoryNode], found: _Found) -> None:
        folded = clause.casefold()
        tech = self.lexicon.find_tech(clause)
        if tech:
            tech = self._dropped(clause, tech, known, found)
            if not tech:
                return
        decided = _DECIDE.search(folded) or _SWITCH.search(folded) or self._stated(folded, tech)
        if tech and decided and not _NEG.search(folded):
            # One decision per key, the first said (我们用 FastAPI 和 PostgreSQL: both).
            chosen: dict[str, str] = {}
            for name, key in tech:
                chosen.setdefault(key, name)
            for key, name in chosen.items():
                # A role (用 Redis 做缓存) belongs to the clause's one technology.
                role = self._other_role(clause, key) if len(chosen) == 1 else None
                if role is not None:
                    # Redis as the cache: a choice of its own, beside the database.
                    key, label = "tech_choice", role
                else:
                    label = self._t(*_KEY_LABEL.get(key, (key, key)))
                found.add(
                    "create",
                    "a project decision the user stated",
                    domain="项目",
                    type="decision",
                    key=key,
                    value_json=name,
                    title=self._t(f"{label}使用 {name}", f"{label}: {name}"),
                    content=_clip(clause, 200),
                    tags=["技术选型"],
                    entities=[name],
                    source_message_ids=src,
                    confidence=0.9,
                    importance=0.8,
                )
            return
        if _RULE.search(folded) and _CODE.search(clause):
            found.add(
                "create",
                "a project rule the user stated",
                domain="项目",
                type="constraint",
                key="coding_rule",
                value_json=_clip(clause, 200),
                title=_clip(clause),
                content=clause,
                tags=["约束"],
                source_message_ids=src,
                confidence=0.9,
                importance=0.8,
            )
            return
        if _DONE.search(folded):
            for task in known:
                if (
                    task.type == "task"
                    and task.status == "active"
                    and names_same_work(task.title, clause)
                ):
                    found.add("expire", "the user said the task is done", target_id=task.id)
            return
        m = _TASK.search(clause)
        if m and m.group(1).strip():
            what = _clip(m.group(1), 60)
            found.add(
                "create",
                "a task the user mentioned",
                domain="项目",
                type="task",
                key="task_status",
                value_json={"task": what, "status": "todo"},
                title=what,
                content=clause,
                tags=["任务"],
                source_message_ids=src,
                confidence=0.85,
                importance=0.7,
            )


def _subject(node: MemoryNode) -> str:
    value = node.value_json
    if isinstance(value, dict):
        value = value.get("ingredient") or value.get("name") or ""
    return canonical_name(str(value))


# The verb a task's title starts with (写文档, 修复登录超时): the user who is done names
# the object first and the verb after it (文档写完了, 登录超时修好了).
_TASK_VERB = re.compile(
    r"^(?:修复|完成|实现|处理|整理|准备|更新|添加|编写|写|做|改|修|搞|弄)(?=[\u4e00-\u9fff]{2})"
)


# Latin words that name no piece of work ("the" is in every sentence).
_STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "this",
        "that",
        "these",
        "those",
        "are",
        "was",
        "were",
        "our",
        "all",
        "from",
        "into",
        "onto",
        "about",
        "some",
        "any",
        "its",
        "their",
        "your",
        "then",
        "than",
        "also",
        "just",
    ]
)


def _work_words(title: str) -> set[str]:
    """A latin task title's words that name the work: no stop words, and no leading verb
    when more follows (fix the login timeout: login, timeout)."""
    words = [w for w in re.findall(r"[a-z0-9]{3,}", title.casefold()) if w not in _STOPWORDS]
    return set(words[1:] if len(words) > 1 else words)


def names_same_work(title: str, clause: str) -> bool:
    """A task title and a clause share a word of the work (a latin word, whole), or the
    title's object (the title without its leading verb) and the clause share two
    2-character pieces — one when the object is a single word (文档 of 写文档)."""
    words = _work_words(title)
    cjk = re.findall(r"[\u4e00-\u9fff]+", _TASK_VERB.sub("", title.strip()))
    grams = {run[i : i + 2] for run in cjk for i in range(len(run) - 1)}
    folded = clause.casefold()
    need = min(2, len(grams))
    said = set(re.findall(r"[a-z0-9]+", folded))
    return bool(words & said) or (need > 0 and sum(g in clause for g in grams) >= need)
