"""The fact frames in the order they read a clause (the first that reads it wins), and
what the user says of someone that no frame reads."""

from __future__ import annotations

import re
from collections.abc import Callable

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import category_of
from ekko_memory.service.extraction.facts.doing import DoingFrames
from ekko_memory.service.extraction.facts.goals import GoalFrames
from ekko_memory.service.extraction.facts.health import HealthFrames
from ekko_memory.service.extraction.facts.kitchen import KitchenFrames
from ekko_memory.service.extraction.facts.money import MoneyFrames
from ekko_memory.service.extraction.facts.people import BIRTHDAY_AS_ONE_ZH, PeopleFrames
from ekko_memory.service.extraction.facts.places import PlaceFrames
from ekko_memory.service.extraction.facts.work import WorkFrames
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import (
    RELATIONS_EN,
    RELATIONS_ZH,
    SELF,
    Statement,
    goes_on_about,
    whose_thing,
    with_subject,
)

# Talk about the talk (上次手滑打错了, autocorrect): nothing about the person.
_META = re.compile(
    r"打错|说错|写错|搞错|记错|手滑|口误|错别字|\b(?:typo|autocorrect|misspel|mistyp|my bad|i meant)\b",
    re.IGNORECASE,
)

# The pets a clause can be about (我家柯基, our corgi): kinds and breeds, not "pet".
_OWN_PETS_ZH = frozenset(w.PETS_ZH) | frozenset(
    r for r in RELATIONS_ZH[RELATIONS_ZH.index("猫咪") :] if r != "宠物"
)
_OWN_PETS_EN = frozenset(w.PETS_EN) | frozenset(
    r for r in RELATIONS_EN[RELATIONS_EN.index("cat") :] if r != "pet"
)
# Whose it is, said first: 我家, 我的, 家里那只, my, our.
_OWNED = re.compile(
    r"^(?:(?:对了|另外|还有|其实|不过|但是|而且|然后|所以|哎|唉|嗯|啊|话说|说起来)[，,\s]*)*"
    r"(?:我们家|咱们家|我家|俺家|咱家|我的|我|家里|(?:(?:oh|btw|by the way|also|and|but|so|well|actually|anyway)\b[,\s]*)*(?:my|our)\b)",
    re.IGNORECASE,
)
# A pet that is gone is not a pet the user has.
_GONE = re.compile(
    r"去世|走了|死了|没了|不在了|送人|送走|丢了|\b(?:died|passed away|put down|put to sleep|lost|rehomed|gave away|used to)\b",
    re.IGNORECASE,
)

# A guess of what someone would do or think (would love it, 可能会喜欢, 估计会生气).
_WOULD = re.compile(
    r"\b(?:would|could|might|'d)\b(?!\s+(?:always|never|usually|often)\b)|(?:肯定|应该|估计|可能|大概|也许)会",
    re.IGNORECASE,
)

# Relation words too vague to keep a person's facts under (老师 in 我问老师…).
_NOBODY_RELATIONS = frozenset({"宠物", "pet", "team", "teammates"})


class FactFrames(
    HealthFrames,
    PeopleFrames,
    WorkFrames,
    DoingFrames,
    PlaceFrames,
    MoneyFrames,
    GoalFrames,
    KitchenFrames,
):
    """Reads one statement for facts of its subject; call ``read``."""

    def read(self, st: Statement) -> list[Finding]:
        """The facts ``st`` states of its subject (empty when it states none)."""
        if st.subject.kind not in ("self", "person", "we") and not (
            st.subject.kind == "none" and not st.explicit_subject
        ):
            return []
        body = st.body.strip()
        for t in st.times:
            # 我上周跳槽去拼多多了: when it happened opens the body; the frame reads the rest.
            if t.past and body.startswith(t.text) and len(body) > len(t.text):
                body = body[len(t.text) :].lstrip(" ，,")
        named: list[Finding] = []
        if (
            st.subject.kind == "person"
            and st.subject.name
            and st.subject.relation
            # Maya's turning 7, of the daughter named before: no new naming in this clause.
            and st.subject.relation.casefold() in st.text.casefold()
        ):
            # 我媳妇林晓, my wife Priya: the person and their name.
            named = self._named(st, st.subject.relation, st.subject.name)
        # my daughter Maya (7): the age said in brackets after the name.
        named += self._age_in_brackets(st)
        if not body:
            return named
        frames = self._zh_frames() if st.zh else self._en_frames()
        for frame in frames:
            found = frame(st, body)
            if found:
                return named + _with_what_follows(st, found)
        # 下个月12号我生日: a birthday said by the day it falls on, when no frame read a date.
        return named + self.birthday_by_time(st)

    def own_pet(self, st: Statement) -> list[Finding]:
        """A pet the user calls theirs (我家柯基, 家里那只橘猫, our corgi) while saying something of
        it: the user has one (kept once per kind; its name comes with its own frame)."""
        rel = st.subject.relation
        if st.subject.kind != "person" or st.subject.name or st.hypothetical or st.question:
            return []
        if rel not in _OWN_PETS_ZH and rel not in _OWN_PETS_EN:
            return []
        if _GONE.search(st.text) or not _OWNED.match(st.text):
            return []  # my cat died last year: no pet now; 邻居家的狗: not the user's
        return [self._pet(with_subject(st, SELF), rel, "")]

    def owned_in_question(self, st: Statement) -> list[Finding]:
        """A pet the user calls theirs inside a question or what it asks about (我家柯基掉毛正常
        吗？ can my cat eat tuna?): that they have one is given, not asked; what the question
        asks is not kept.
        Not "should I get a cat?" (no pet of theirs yet) nor a pet that is gone."""
        if st.hypothetical or _GONE.search(st.text):
            return []
        pets_zh = "|".join(sorted(_OWN_PETS_ZH, key=len, reverse=True))
        pets_en = "|".join(sorted(_OWN_PETS_EN, key=len, reverse=True))
        m = (
            re.search(
                rf"(?:我们家|咱们家|我家|俺家|咱家|家里)(?:的)?(?:那|这)?(?:只|条)?(?:大|小|老)?(?P<pet>{pets_zh})(?![\u4e00-\u9fff]?[粮砂窝笼绳])",
                st.text,
            )
            if st.zh
            else re.search(
                rf"\b(?:my|our)\s+(?:little\s+|old\s+|new\s+|two\s+)?(?P<pet>{pets_en})\b(?!\s+(?:food|bed|toys?|crate|litter|cage|lead|leash)\b)",
                st.text,
                re.IGNORECASE,
            )
        )
        if m is None:
            return []
        return [self._pet(with_subject(st, SELF), m["pet"].casefold(), "")]

    def said_of_oneself(self, st: Statement) -> list[Finding]:
        """What the user says of themselves inside someone's words or beside a question
        (我朋友说我这种8月3号生日的人很倔): the user's own, read from the words about them."""
        if st.hypothetical:
            return []
        mine = with_subject(st, SELF)
        if not st.zh:
            # any tips for keeping my flat in Bristol warm?: the home, said as a given.
            return self._home_in_en(mine, st.body)
        m = BIRTHDAY_AS_ONE_ZH.search(st.text)
        if m is None:
            return []
        day = m["v"]
        return [
            self.fact(
                mine,
                "birthday",
                day,
                f"{{who}}的生日是{day}",
                f"{{who}}: birthday {day}",
                tags=["生日"],
                entities=[day],
            )
        ]

    def about_person(self, st: Statement) -> Finding | None:
        """What the user says of someone in their life that no frame reads (安安超级挑食,
        she wants everything in three bullets max): kept in the user's words, under them."""
        if st.subject.kind != "person" or not st.body.strip() or st.question or st.hypothetical:
            return None
        if not st.explicit_subject:
            return None  # 沙发上全是 after 我家猫掉毛: a clause that does not name them says too little
        said = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
        if len(said) < 4 or len(st.body.strip()) < 3:
            return None
        more = goes_on_about(st)
        if more:
            # 我老公是个摄影发烧友，用的索尼: what follows of him is his too.
            said = ("，" if st.zh else ", ").join([said, *more])
        if st.subject.relation in _NOBODY_RELATIONS or _META.search(st.text):
            return None
        if _WOULD.search(st.body):
            return None  # my brother would love it, 我妈肯定会喜欢: a guess, nothing that holds
        if st.zh and whose_thing(st.text):
            return None  # 饭是我老公做的: whose a thing is, with nothing lasting said of them
        return Finding(
            type="fact",
            domain="人物",
            category=["人物", category_of(st.subject)],
            key="person_fact",
            value={"person": st.subject.person, "said": said},
            title=said if len(said) <= 60 else said[:59] + "…",
            content=("，" if st.zh else ", ").join([st.text, *more]),
            statement=st,
            scope="user",
            tags=["人物"],
            entities=[st.subject.person],
            importance=0.7,
            person=st.subject.person,
            reason="what the user said about someone in their life",
        )

    # Ordered: the first frame that reads a clause wins (过敏 before 有; 在…上班 before 在).
    def _zh_frames(self) -> list[Callable[[Statement, str], list[Finding]]]:
        return [
            self._blood_zh,
            self._money_zh,
            self._budget_zh,
            self._goal_zh,
            self._allergy_zh,
            self._diet_zh,
            self._pet_in_passing_zh,
            self._business_zh,
            self._work_mode_zh,
            self._name_zh,
            self._living_zh,
            self._floor,
            self._kitchen,
            self._job_done_zh,
            self._ongoing_zh,
            self._kin_zh,
            self._pet_zh,
            self._married_zh,
            self._residence_zh,
            self._moved_here_zh,
            self._hometown_zh,
            self._birthday_zh,
            self._age_zh,
            self._trait,
            self._school_zh,
            self._degree_zh,
            self._work_zh,
            self._job_zh,
            self._as_a_job,
            self._language_zh,
            self._nights_zh,
            self._condition_zh,
            self._medicine_zh,
            self._vehicle_zh,
        ]

    def _en_frames(self) -> list[Callable[[Statement, str], list[Finding]]]:
        return [
            self._blood_en,
            self._money_en,
            self._budget_en,
            self._goal_en,
            self._allergy_en,
            self._diet_en,
            self._pet_in_passing_en,
            self._business_en,
            self._work_mode_en,
            self._name_en,
            self._living_en,
            self._floor,
            self._kitchen,
            self._ongoing_en,
            self._kin_en,
            self._pet_en,
            self._married_en,
            self._residence_en,
            self._moved_here_en,
            self._hometown_en,
            self._birthday_en,
            self._age_en,
            self._trait,
            self._school_en,
            self._degree_en,
            self._work_en,
            self._job_en,
            self._as_a_job,
            self._job_done_en,
            self._language_en,
            self._nationality_en,
            self._being_job_en,
            self._nights_en,
            self._condition_en,
            self._medicine_en,
            self._vehicle_en,
            self._relatives_named_en,
            self._home_in_en,
        ]


def _with_what_follows(st: Statement, found: list[Finding]) -> list[Finding]:
    """Someone's facts, with what the next clauses go on to say of them (我妈血压高，不能吃太
    咸: kept in the words of the memory, under her)."""
    more = goes_on_about(st)
    if more:
        for f in found:
            # 它叫豆包，是只柴犬: the pet's breed, said after its name, comes with it.
            if (f.domain == "人物" or f.key == "pet") and f.content == st.text:
                f.content = ("，" if st.zh else ", ").join([st.text, *more])
    return found
