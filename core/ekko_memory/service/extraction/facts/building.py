"""What every fact frame shares: the finding a fact becomes (the user's under 个人, another
person's under 人物/<who>), where each key files, and reading a place or an organisation
out of an English clause."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement, Subject

PROFILE = ["个人", "资料"]

ADV_ZH = r"(?:上个?月|上周末?|上礼拜|上星期|前几天|前天|昨天|去年|前年|前阵子|最近|近来|这阵子|这段时间|今年|年初|年底|(?:\d+|[一二两三四五六七八九十几]+)年前|现在|目前|如今|一直|已经|刚刚?|才|也|都|还|就|正|在|本来|原来|平时|主要|基本上?|其实|常年|长期|一个人(?=在)|独自(?=在))*"

ADV_EN = r"(?:(?:currently|now|still|also|just|recently|finally|actually|really|originally|mostly|both|all|officially|already)\s+)*"

PEOPLE_KEYS = frozenset(
    [
        "family_member",
        "allergy",
        "health_condition",
        "medication",
        "occupation",
        "employer",
        "school",
        "birthday",
        "age",
        "likes",
        "dislikes",
        "diet",
        "city",
        "routine",
        "person_fact",
    ]
)

_VALUE_FIELD = {
    "allergy": "allergen",
    "city": "place",
    "occupation": "job",
    "employer": "workplace",
    "medication": "medicine",
}

_KEY_CATEGORY = {
    "city": PROFILE,
    "hometown": PROFILE,
    "birthday": PROFILE,
    "age": PROFILE,
    "school": PROFILE,
    "relationship_status": PROFILE,
    "vehicle": PROFILE,
    "employer": ["个人", "工作"],
    "occupation": ["个人", "工作"],
    "language": ["个人", "语言"],
    "allergy": ["个人", "健康"],
    "health_condition": ["个人", "健康"],
    "medication": ["个人", "健康"],
}

_COMMON_EN = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "our",
        "his",
        "her",
        "their",
        "this",
        "that",
        "an",
        "apartment",
        "house",
        "flat",
        "home",
        "city",
        "town",
        "village",
        "suburb",
        "suburbs",
        "countryside",
        "area",
        "neighborhood",
        "neighbourhood",
        "building",
        "dorm",
        "dorms",
        "place",
        "room",
        "basement",
        "small",
        "big",
        "same",
        "nice",
        "new",
        "old",
        "quiet",
        "busy",
        "downtown",
        "uptown",
        "here",
        "there",
    ]
)


class FactBuilder:
    """Builds a fact finding of a statement's subject; the frames' common base."""

    def __init__(self, is_food: Callable[[str], bool]) -> None:
        # Food allergies are cooking memories (avoid the ingredient), read elsewhere.
        self.is_food = is_food

    def employer(self, st: Statement, org: str) -> Finding:
        """Where the subject works (在字节工作, works at Deloitte)."""
        return self.fact(
            st,
            "employer",
            org,
            f"{{who}}在{org}工作",
            f"{{who}} work at {org}",
            category=["个人", "工作"],
            entities=[org],
        )

    def fact(
        self,
        st: Statement,
        key: str,
        value: Any,
        zh: str,
        en: str,
        *,
        category: list[str] | None = None,
        importance: float = 0.8,
        tags: list[str] | None = None,
        entities: list[str] | None = None,
    ) -> Finding:
        """A fact of the statement's subject: the user's under 个人, another person's under
        人物/<who> with the person in the value. ``zh``/``en``: the sentence, with {who}
        for the person's name."""
        subject = st.subject
        if subject.kind == "person":
            who = subject.person
            person_value: dict[str, Any] = {"person": who}
            if isinstance(value, dict):
                person_value.update(value)
            else:
                person_value[_VALUE_FIELD.get(key, "value")] = value
            return Finding(
                type="fact",
                domain="人物",
                category=["人物", category_of(subject)],
                key=key if key in PEOPLE_KEYS else "person_fact",
                value=person_value,
                title=(zh if st.zh else en).format(who=_who(subject, st.zh)),
                content=st.text,
                statement=st,
                scope="user",
                tags=["人物", *(tags or [])],
                entities=[who, subject.name, *(entities or [])],
                importance=importance,
                person=who,
                reason="a fact the user stated about someone in their life",
            )
        return Finding(
            type="fact",
            domain="个人",
            category=category or _KEY_CATEGORY.get(key, PROFILE),
            key=key,
            value=value,
            title=zh.format(who="我") if st.zh else _own_title(en),
            content=st.text,
            statement=st,
            scope="user",
            tags=tags or [],
            entities=entities or [],
            importance=importance,
        )


def category_of(subject: Subject) -> str:
    """The 人物 branch a person files under: their relation as said (儿子, wife), or their name."""
    return subject.relation or subject.name or "其他"


def _who(subject: Subject, zh: bool) -> str:
    if zh:
        return f"我{subject.relation}{subject.name}" if subject.relation else subject.name
    if subject.relation:
        return f"My {subject.relation}" + (f" {subject.name}" if subject.name else "")
    return subject.name


def english_place(raw: str) -> str:
    """A place an English clause names (Hangzhou, New York, the Bay Area; a lower-case
    "hangzhou" too), "" for common words (an apartment, the suburbs)."""
    raw = re.split(
        r"\s+(?:with|and|near|since|for|because|but|so|now|right now|at the moment|these days|which|where|who|that)\b|[,;]",
        raw,
        maxsplit=1,
    )[0].strip()
    name = w.capitalized_phrase(raw)
    if name:
        name = re.sub(r"^the\s+", "the ", name)
        return name if name.casefold() not in _COMMON_EN else ""
    words = raw.split()
    if len(words) == 1 and words[0].casefold() not in _COMMON_EN and words[0].isalpha():
        return words[0].capitalize()
    return ""


def lower_org(raw: str) -> str:
    """An organisation said in lower case (work at google): one word, not a common noun."""
    words = w.clean_en(raw).split()
    if len(words) == 1 and words[0].casefold() not in _COMMON_EN and words[0].isalpha():
        return words[0].capitalize()
    return ""


def _own_title(en: str) -> str:
    """The user's own fact in English: "{who}: allergic to eggs" reads "Allergic to eggs",
    not "I: allergic to eggs"; a sentence (I live in Leeds) keeps its "I"."""
    if en.startswith("{who}: "):
        said = en[len("{who}: ") :]
        return said[:1].upper() + said[1:]
    return en.format(who="I")
