"""Frames for health: allergies, diets, conditions and the medicine one takes."""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import ADV_ZH, FactBuilder
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement

_ALLERGY_ZH = re.compile(
    r"^(?:对|吃|碰|闻)?(?P<v>.+?)(?:严重|有点|有些|轻微|比较)?过敏|^过敏(?:原)?(?:是|有)?(?P<v2>.+)$|^(?:有|得了)(?P<v3>.+?)过敏"
)

_ALLERGY_EN = re.compile(
    r"^(?:am|is|are)\s+(?:\w+\s+){0,2}?allergic\s+to\s+(?P<v>.+)$"
    r"|^(?:have|has|got)\s+(?:an?\s+|a\s+severe\s+|a\s+bad\s+|a\s+mild\s+)?(?P<v2>[\w -]+?)\s+allerg(?:y|ies)$"
    r"|^(?:have|has)\s+(?:an?\s+)?allerg(?:y|ies)\s+to\s+(?P<v3>.+)$",
    re.IGNORECASE,
)

_CONDITION_ZH = re.compile(
    rf"^{ADV_ZH}(?:(?:体检|检查|复查)(?:的时候|时)?)?(?:有|患有|得了|得过|患了|确诊了?|被?查出来?了?|被诊断(?:为|出)?)(?P<v>.+)$|^(?P<v2>血压|血糖|血脂|尿酸|胆固醇)(?:有点|一直|比较|偏|有些)?(?P<lvl>高|低|偏高|偏低)"
    rf"|^{ADV_ZH}(?P<v3>怀孕了?|孕期|怀孕\S{{0,4}}个?月|在备孕|坐月子)"
)

_CONDITION_EN = re.compile(
    r"^(?:have|has|had|got)\s+(?:got\s+)?(?P<v>.+)$|^(?:was|were|got|been|have\s+been|has\s+been)\s+diagnosed\s+with\s+(?P<v2>.+)$"
    r"|^(?:suffer|suffers)\s+from\s+(?P<v3>.+)$"
    r"|^(?:am|is|are|been|have\s+been|has\s+been)\s+(?:a\s+)?(?P<v4>(?:type\s*[12]\s+|pre-?)?diabetic|asthmatic|pregnant|epileptic|anemic|anaemic|celiac|coeliac|lactose\s+intolerant|gluten\s+intolerant|pre-?diabetic|autistic|colorblind|deaf|hard of hearing)\b",
    re.IGNORECASE,
)

_BARE_CONDITION_EN = re.compile(
    r"^(?:also\s+|been\s+)?(?P<v>(?:type\s*[12]\s+|pre-?)?diabetic|asthmatic|epileptic|anemic|anaemic|celiac|coeliac"
    r"|lactose\s+intolerant|gluten\s+intolerant)"
    r"(?:\s+(?:since\s+(?:forever|birth|childhood|i\s+was\s+\w+|\w+)|for\s+(?:years|ages|life|\w+\s+years)|my\s+whole\s+life|all\s+my\s+life))?"
    r"(?:\s+(?:tho|though|lol|haha|btw))?[.!]*$",
    re.IGNORECASE,
)

_DOSE_ZH = re.compile(r"^(?:[一二两三四五六七八九十半\d]+)(?:片|粒|颗|袋|支|针|毫克|mg)")
_MEDICINE_ZH = re.compile(
    rf"^{ADV_ZH}(?:每天|每晚|每早|长期|按时)?(?:要)?(?:吃|服用|服|打|用|靠)(?P<v>.+)$"
)
# 医生给我开了消炎药: what a doctor prescribes is taken.
_PRESCRIBED_ZH = re.compile(r"^(?:医生|大夫)(?:给我|帮我)?开了(?:点|些|一些|一盒|两盒)?(?P<v>.+)$")
# What the user does or is told (医生开了消炎药, 我说有点炎症): no condition's name before it.
_NOT_A_CONDITION_ZH = re.compile(r"了|医生|大夫|说|让|给|开|吃|药|买")

# What may follow a medicine's name (舍曲林，每天半片; 胰岛素针; 降压药): the clause ends,
# or a dose or a time comes — not 打球把脚崴了, where 打 is play and no medicine follows.
_ENDS_A_DRUG = re.compile(
    r"$|[，,。;；]|了?$|每|一天|一日|早晚|半|\d|[一两三]|片|粒|颗|次|支|针|药"
)

_MEDICINE_EN = re.compile(
    r"^(?:take|takes|am\s+taking|is\s+taking|am\s+on|is\s+on|been\s+on|have\s+been\s+on|use|uses|need|needs|started|started\s+on|was\s+put\s+on|got\s+put\s+on)\s+(?P<v>.+)$",
    re.IGNORECASE,
)

_DOSE = re.compile(
    r"^(?P<v>[A-Za-z][\w-]{3,})\s*\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ml|iu|units?)\b", re.IGNORECASE
)

_DIET_ZH = re.compile(
    r"^(?:现在|目前|一直|常年|从小|也|都|平时|基本)?(?:不喝酒|滴酒不沾|戒酒了?|不抽烟|戒烟了?|吃素|吃全素|吃斋|是素食(?:主义)?者?|素食|吃清真|只吃清真|不吃肉|不吃荤|戒肉了?|不吃猪肉|吃蛋奶素|在吃生酮|生酮饮食|在控糖|在减脂|在断食|轻断食)"
)

_DIET_EN = re.compile(
    r"^(?:am|is|are|went|go|have\s+been|'ve\s+been)\s+(?:a\s+|an\s+|fully\s+|strictly\s+|mostly\s+)?(?P<v>vegetarian|vegan|veggie|pescatarian|pescetarian|plant-based|keto|paleo|halal|kosher|gluten-free|dairy-free|on\s+keto|on\s+a\s+diet|on\s+a\s+low-carb\s+diet|low-carb)\b"
    r"|^(?:do|does|follow|follows|eat|eats|keep|keeps)\s+(?P<v2>halal|kosher|keto|\d+:\d+\s+fasting|intermittent\s+fasting|fasting|paleo|plant-based|low-carb)\b"
    r"|^(?:don'?t|doesn'?t|do\s+not|never)\s+eat\s+(?P<v3>meat|red\s+meat|pork|beef|dairy|gluten|fish|seafood|anything\s+before\s+\w+)\b"
    # I don't drink (alcohol): not "I don't drink coffee", which names another drink.
    r"|^(?:don'?t|doesn'?t|do\s+not|never)\s+(?P<v4>drink|smoke)\b(?:\s+(?:alcohol|booze))?"
    r"(?=\s*(?:$|[,.!;?]|(?:at\s+all|anymore|any\s+more|and|but|so|either|though)\b))"
    r"|^(?:am|is)\s+(?P<v5>teetotal|sober|tee-total)\b"
    # trying to cut carbs, cutting out sugar, quitting caffeine: what one eats less of.
    r"|^(?:am|is|are)?\s*(?:trying\s+to\s+|going\s+to\s+)?(?P<v6>(?:cut|cutting|quit|quitting|give\s+up|giving\s+up)"
    r"\s+(?:out\s+|down\s+on\s+|back\s+on\s+)?(?:carbs|sugar|dairy|gluten|meat|red\s+meat|caffeine|coffee|alcohol|booze|salt|fried\s+food|junk\s+food))\b",
    re.IGNORECASE,
)

# 膝盖有旧伤, 腰不好: a part of the body and what is wrong with it (a lasting condition).
_BODY_ZH = re.compile(
    r"^(?:的)?(?P<part>膝盖|腰|腰椎|颈椎|脖子|肩膀|肩|脚踝|手腕|背|后背|心脏|胃|肝|肾|眼睛|耳朵|牙|牙齿|膝|腿脚|手脚|腿|脚|手|关节|鼻子|喉咙|皮肤)"
    r"(?P<what>有旧伤|受过伤|有伤|不好|不太好|有毛病|有问题|动过手术|做过手术|不行|有点问题|落下病根|老疼|经常疼|一直疼|劳损|突出)"
)

_BODY_EN = re.compile(
    r"^(?:have|has|got)\s+(?:a\s+)?(?P<v>(?:bad|dodgy|weak|old|injured|busted|torn|slipped)\s+(?:knee|knees|back|ankle|ankles|shoulder|hip|hips|wrist|neck|disc|acl|meniscus|hamstring)(?:\s+injury)?)\b",
    re.IGNORECASE,
)

# my left knee's been bad since the surgery, my lower back is killing me: a part of the body
# (said after "my") and what is wrong with it, as lasting as the Chinese 膝盖不好.
_PART_STATE_EN = re.compile(
    r"^(?P<side>(?:left|right|lower|upper)\s+)?(?P<part>knee|knees|back|ankle|ankles|shoulder|shoulders|hip|hips|wrist|wrists|neck|elbow|foot|feet|hamstring|achilles)"
    r"(?:'s|\s+is|\s+are|\s+has|\s+have)?\s+(?:been\s+)?(?:really\s+|pretty\s+|so\s+|super\s+|kinda\s+|a\s+bit\s+|still\s+|always\s+)*"
    r"(?P<how>bad|sore|dodgy|weak|stiff|wrecked|busted|playing\s+up|acting\s+up|killing\s+me|hurting|injured|messed\s+up|giving\s+me\s+(?:trouble|grief))\b"
    r"(?P<since>\s+(?:since|after|ever\s+since)\s+[^,;.!?]{2,40})?",
    re.IGNORECASE,
)

_ACHE_EN = re.compile(r"sore|stiff|hurting|killing\s+me", re.IGNORECASE)

# 我是O型血, 血型是AB型, O型 (of 是我爸): a blood type; I'm type A, my blood type is O-.
_BLOOD_ZH = re.compile(
    r"^(?:其实|应该|就|原来)?(?:是)?(?:血型(?:是|为)?)?(?P<v>AB|[ABO])\s*型(?:血)?"
    r"(?P<rh>\s*(?:RH|Rh|rh)?\s*(?:阴性|阳性))?(?:的|啊|呀|哦)?$"
)
_BLOOD_EN = re.compile(
    r"^(?:am|'m|is|was)\s+(?:actually\s+|really\s+)?(?:blood\s+)?type\s+(?P<v>AB|[ABO])(?P<rh>[+-]|\s+(?:positive|negative))?$"
    r"|^(?:blood\s+type\s+)?(?:is|was)\s+(?:actually\s+)?(?:type\s+)?(?P<v2>AB|[ABO])(?P<rh2>[+-]|\s+(?:positive|negative))?$",
    re.IGNORECASE,
)

_DOCTOR = re.compile(r"医生|大夫|医院|处方|开的药|疗程|复查|门诊|药房|副作用|剂量")


class HealthFrames(FactBuilder):
    """Allergies, diets, conditions and medicine of a statement's subject."""

    def _diet_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _DIET_ZH.match(body)
        if m is None:
            return []
        said = w.clean_zh(m.group())
        return [self._diet(st, said)]

    def _diet_en(self, st: Statement, body: str) -> list[Finding]:
        m = _DIET_EN.match(body)
        if m is None:
            return []
        said = w.clean_en(m.group())
        said = re.sub(
            r"^(?:am|is|are|go|have been|'ve been)\s+(?:a\s+|an\s+)?", "", said, flags=re.IGNORECASE
        )
        return [self._diet(st, said)]

    def _diet(self, st: Statement, said: str) -> Finding:
        """A diet: the user's is a cooking restriction every meal question meets; someone
        else's is theirs."""
        if st.subject.kind == "person":
            return self.fact(
                st,
                "diet",
                said,
                f"{{who}}{said}",
                f"{{who}}: {said}",
                importance=0.85,
                tags=["饮食"],
                entities=[said],
            )
        return Finding(
            type="preference",
            domain="生活技能",
            category=["生活技能", "做饭", "饮食偏好"],
            key="dietary_restriction",
            value=said,
            title=f"饮食：{said}" if st.zh else f"Diet: {said}",
            content=st.text,
            statement=st,
            scope="user",
            tags=["饮食", "忌口"],
            entities=[said],
            importance=0.9,
            reason="the user's diet",
        )

    def _blood_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _BLOOD_ZH.match(body.strip())
        if m is None or st.negated or "血" not in st.text:
            return []  # O型是我爸, 我是A型的: a type, of blood only where blood is said
        rh = re.sub(r"\s+", "", m["rh"] or "").upper().replace("RH", "Rh")
        return [self._blood(st, f"{m['v'].upper()}型{rh}")]

    def _blood_en(self, st: Statement, body: str) -> list[Finding]:
        m = _BLOOD_EN.match(body.strip())
        if m is None or st.negated:
            return []
        if m["v2"] and not re.search(r"\bblood\b|\btype\b", st.text, re.IGNORECASE):
            return []  # "it is A": a blood type only where blood or type is said
        rh = (m["rh"] or m["rh2"] or "").strip().casefold()
        rh = {"+": " positive", "-": " negative"}.get(rh, f" {rh}" if rh else "")
        return [self._blood(st, f"type {(m['v'] or m['v2']).upper()}{rh}")]

    def _blood(self, st: Statement, what: str) -> Finding:
        """A blood type: one at a time (a new one replaces the old)."""
        return self.fact(
            st,
            "blood_type",
            what,
            f"{{who}}是{what}血" if what.endswith("型") else f"{{who}}是{what}",
            f"{{who}}: blood {what}",
            category=["个人", "健康"],
            importance=0.9,
            tags=["健康", "血型"],
            entities=[what],
        )

    def _allergy_zh(self, st: Statement, body: str) -> list[Finding]:
        if "过敏" not in body or re.search(r"不过敏|没有?过敏|不会过敏|不是过敏", body):
            return []
        m = _ALLERGY_ZH.match(body)
        if m is None:
            return []
        what = w.clean_zh(
            re.sub(
                r"^(?:原来|其实|实际上|后来发现)?(?:是|就是)?(?:对|吃|碰)?",
                "",
                m["v"] or m["v2"] or m["v3"] or "",
            )
        )
        what = re.sub(r"(?:严重|有点|有些|轻微|比较|特别|很)$", "", what)
        if not what or len(what) > 12 or (self.is_food(what) and st.subject.kind != "person"):
            return []
        return [self._allergy(st, what)]

    def _allergy_en(self, st: Statement, body: str) -> list[Finding]:
        m = _ALLERGY_EN.match(body)
        if m is None or st.negated:
            return []
        what = w.clean_en(m["v"] or m["v2"] or m["v3"] or "")
        what = re.sub(r"^(?:a|an|the)\s+", "", what)
        if not what or len(what) > 40 or (self.is_food(what) and st.subject.kind != "person"):
            return []
        return [self._allergy(st, what)]

    def _allergy(self, st: Statement, what: str) -> Finding:
        return self.fact(
            st,
            "allergy",
            what,
            f"{{who}}对{what}过敏",
            f"{{who}}: allergic to {what}",
            category=["个人", "健康"],
            importance=1.0,
            tags=["过敏", "健康"],
            entities=[what],
        )

    def _condition_zh(self, st: Statement, body: str) -> list[Finding]:
        part = _BODY_ZH.match(body)
        if part is not None:
            what = f"{part['part']}{part['what']}"
            return [
                self.fact(
                    st,
                    "health_condition",
                    what,
                    f"{{who}}{what}",
                    f"{{who}}: {what}",
                    category=["个人", "健康"],
                    importance=0.9,
                    tags=["健康"],
                    entities=[part["part"]],
                )
            ]
        # 乳糖不耐 holds its own 不: only a negation before the condition denies it.
        bare = w.CONDITIONS_ZH.match(re.sub(r"^(?:有点|有些|一直|是)", "", body))
        if (
            bare is not None
            and len(bare.group()) >= 2
            and len(body) <= len(bare.group()) + 4
            and not _NOT_A_CONDITION_ZH.search(bare.group()[:-1])
        ):
            what = bare.group()
            return [
                self.fact(
                    st,
                    "health_condition",
                    what,
                    f"{{who}}{what}",
                    f"{{who}}: {what}",
                    category=["个人", "健康"],
                    importance=0.95,
                    tags=["健康"],
                    entities=[what],
                )
            ]
        m = _CONDITION_ZH.match(body)
        if m is None or st.negated:
            return []
        if m["v2"]:
            what = f"{m['v2']}{m['lvl']}"
        elif m["v3"]:
            what = w.clean_zh(m["v3"])
        else:
            c = w.CONDITIONS_ZH.match(w.clean_zh(m["v"]))
            if c is None:
                return []
            what = c.group()
        return [
            self.fact(
                st,
                "health_condition",
                what,
                f"{{who}}{'' if m['v3'] else '有'}{what}",
                f"{{who}}: {what}",
                category=["个人", "健康"],
                importance=0.95,
                tags=["健康"],
                entities=[what],
            )
        ]

    def _condition_en(self, st: Statement, body: str) -> list[Finding]:
        state = _PART_STATE_EN.match(body) if st.subject.kind == "self" else None
        if (
            state is not None
            and not st.negated
            # sore, killing me: an ache of now, unless said to have lasted (since the surgery)
            and (state["since"] or not _ACHE_EN.fullmatch(state["how"]))
        ):
            how = re.sub(r"\s+", " ", state["how"]).casefold()
            what = f"{(state['side'] or '').casefold()}{state['part'].casefold()} {how}"
            since = w.clean_en(state["since"] or "")
            return [
                self.fact(
                    st,
                    "health_condition",
                    what,
                    f"{{who}}{what}",
                    f"{{who}}: {what}{f' ({since})' if since else ''}",
                    category=["个人", "健康"],
                    importance=0.9,
                    tags=["health"],
                    entities=[state["part"].casefold()],
                )
            ]
        part = _BODY_EN.match(body)
        if part is not None:
            what = part["v"]
            return [
                self.fact(
                    st,
                    "health_condition",
                    what,
                    f"{{who}}{what}",
                    f"{{who}}: {what}",
                    category=["个人", "健康"],
                    importance=0.9,
                    tags=["health"],
                    entities=[what],
                )
            ]
        m = _CONDITION_EN.match(body)
        if m is None and st.subject.kind == "none" and not st.explicit_subject:
            # lactose intolerant since forever: a condition said without "I'm", alone in
            # its clause (or with how long), is the user's.
            bare = _BARE_CONDITION_EN.match(body)
            m = _CONDITION_EN.match(f"am {bare.group('v')}") if bare else None
        if m is None or st.negated:
            return []
        raw = w.clean_en(m["v"] or m["v2"] or m["v3"] or m["v4"] or "")
        c = w.CONDITIONS_EN.search(raw) if not m["v4"] else None
        if not m["v4"] and (c is None or c.start() > 12):
            return []
        what = m["v4"] or raw[: c.end()] if c is not None else m["v4"]
        what = re.sub(r"^(?:a|an|the|mild|severe|bad)\s+", "", what or "")
        if not what:
            return []
        return [
            self.fact(
                st,
                "health_condition",
                what,
                f"{{who}}有{what}",
                f"{{who}}: {what}",
                category=["个人", "健康"],
                importance=0.95,
                tags=["health"],
                entities=[what],
            )
        ]

    def _medicine_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _MEDICINE_ZH.match(body) or _PRESCRIBED_ZH.match(body)
        if m is None or st.negated:
            return []
        # 吃一片优甲乐, 两粒布洛芬: the dose before the medicine is no part of its name.
        said = _DOSE_ZH.sub("", w.clean_zh(m["v"]))
        c = w.MEDICINE_ZH.match(said)
        drug = re.match(r"[\u4e00-\u9fffA-Za-z]{2,6}", said)
        if c is not None:
            what = c.group()
        elif (
            drug is not None
            and _DOCTOR.search(st.sentence)
            and not self.is_food(drug.group())
            and _ENDS_A_DRUG.match(said[drug.end() :])
            and not re.search(r"[把被给让]", drug.group())
        ):
            # 在吃舍曲林，医生说要吃半年: what a doctor has one take is a medicine.
            what = drug.group()
        else:
            return []
        return [
            self.fact(
                st,
                "medication",
                what,
                f"{{who}}在吃{what}" if not what.endswith("针") else f"{{who}}在打{what}",
                f"{{who}}: takes {what}",
                category=["个人", "健康"],
                importance=0.95,
                tags=["用药"],
                entities=[what],
            )
        ]

    def _medicine_en(self, st: Statement, body: str) -> list[Finding]:
        m = _MEDICINE_EN.match(body)
        if m is None or st.negated:
            return []
        # on a course of antibiotics: the medicine is what the course is of.
        v = re.sub(
            r"^(?:a\s+|another\s+)?(?:course|round|dose|prescription)\s+(?:of|for)\s+",
            "",
            m["v"],
            flags=re.I,
        )
        c = w.MEDICINE_EN.search(v)
        dose = _DOSE.match(v)
        if dose is not None:
            what = dose["v"]
        elif c is None or c.start() > 10:
            return []
        else:
            what = c.group()
        return [
            self.fact(
                st,
                "medication",
                what,
                f"{{who}}在服用{what}",
                f"{{who}}: takes {what}",
                category=["个人", "健康"],
                importance=0.95,
                tags=["medication"],
                entities=[what],
            )
        ]
