"""Frames for where one lives: city, hometown, living situation, and the car one drives."""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import ADV_EN, ADV_ZH, FactBuilder, english_place
from ekko_memory.service.extraction.facts.work import LEFT_JOB_ZH
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import SELF, Statement, with_subject

_RESIDE_ZH = re.compile(
    rf"^{ADV_ZH}(?:(?:跟|和|与|同)[\u4e00-\u9fff]{{1,4}}?(?:一起)?)?(?:住在|住|居住在|居住于|生活在|定居在?|定居于|安家在?|家住在?|常住在?|现居|长住在?|住进了?|落户在?|扎根在?|base在|坐标)\s*(?P<v>.+)$"
    rf"|^{ADV_ZH}(?:新)?家(?:在|住)\s*(?P<v2>.+)$|^(?:新家|新房子?|家)(?:在|是在)\s*(?P<v5>.+)$"
    rf"|^{ADV_ZH}(?:一个人|一家人|一家[三四五]口|和家人|跟家人)?(?:现在|目前|一直)?在(?P<v3>.+?)(?:漂着?|生活|定居|住着?|待着|呆着|安家|扎根|落户|老家)(?:呢|了|啊)?$"
    rf"|^(?:平时|平常|常年|一直|长期|现在|目前|如今)?(?:都|人)?在(?P<v4>[\u4e00-\u9fff]{{2,6}}?)(?:这边|这儿|这里|呢)?$"
    # 在上海待了十年了, 在成都住了快五年: where one has lived for years.
    rf"|^{ADV_ZH}在(?P<v6>[\u4e00-\u9fff]{{2,6}}?)(?:待|呆|住|生活)了(?:快|都|已经|差不多)?(?:[一二两三四五六七八九十几\d]+|好几|半)(?:个)?(?:多)?年"
)

_MOVE_ZH = re.compile(
    rf"^{ADV_ZH}(?:上个?月|上周|上礼拜|上星期|前几天|前天|昨天|去年|前阵子|最近|今年|年初)?(?:已经|刚)?(?:从[\u4e00-\u9fff]{{1,6}}?)?(?:搬到|搬去|搬来|搬家到|搬回|迁到|调到)了?\s*(?P<v>.+?)(?:这边|那边|这儿|那儿|这里|那里)?(?:了|住|来了|去了|生活|定居|上班|工作)*$"
)

_RESIDE_EN = re.compile(
    rf"^(?:am\s+|are\s+|is\s+)?{ADV_EN}(?:live|living|lives|reside|residing|resides|based|located|settled|staying)\s+(?:in|at|near|outside|around)\s+(?P<v>.+)$"
    rf"|^(?:have|has|had)?\s*(?:(?:\w+\s+){{1,4}}?and\s+)?{ADV_EN}(?:moved|relocated|moving|relocating)\s+(?:back\s+)?(?:to|into)\s+(?P<v2>.+)$"
    rf"|^(?:call|calls)\s+(?P<v3>.+?)\s+home$"
    # (my) flat's in Hackney, house is in Leith: where one's home is.
    rf"|^(?:flat|house|home|apartment|place)(?:'s|\s+is)\s+(?:in|near)\s+(?P<v5>(?-i:[A-Z])[\w .'-]*)$"
    # we've been in Lisbon about three years now: where one has lived for a while.
    rf"|^(?:(?:have|has)\s+(?:been\s+(?:living\s+)?in|lived\s+in)|been\s+(?:living\s+)?in)\s+(?P<v4>(?-i:[A-Z])[\w .'-]*?)\s+(?:for\s+)?(?:about\s+|nearly\s+|almost\s+|over\s+)?"
    rf"(?:a|an|\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several)\s+(?:years?|months?)(?:\s+now)?$",
    re.IGNORECASE,
)

# I'm in Toronto: a town said as where one is (capitalized words and nothing after).
_AM_IN_EN = re.compile(
    r"^am\s+(?:(?:currently|now|still|also)\s+)?(?:based\s+)?in\s+"
    r"(?P<v>(?-i:[A-Z][a-z][\w'.-]*)(?:\s+(?-i:[A-Z][a-z][\w'.-]*)){0,2})"
    # Portland, Oregon: the state or country said after the town is part of where.
    r"(?P<region>,\s*(?-i:[A-Z][a-z][\w'.-]*)(?:\s+(?-i:[A-Z][a-z][\w'.-]*))?)?$",
    re.IGNORECASE,
)
# Capitalized words that are no town (I'm in Marketing, I'm in Year Ten, I'm in Love).
_NOT_TOWNS_EN = frozenset(
    [
        "marketing",
        "sales",
        "finance",
        "engineering",
        "design",
        "product",
        "operations",
        "legal",
        "accounting",
        "hr",
        "it",
        "support",
        "research",
        "admin",
        "management",
        "consulting",
        "tech",
        "education",
        "healthcare",
        "retail",
        "year",
        "grade",
        "class",
        "school",
        "college",
        "uni",
        "university",
        "love",
        "trouble",
        "charge",
        "bed",
        "hospital",
        "town",
        "church",
        "office",
        "the",
        "a",
        "an",
        "my",
        "our",
    ]
)

_HOMETOWN_ZH = re.compile(
    rf"^{ADV_ZH}(?:是|算是)(?P<v>.+?)人$|^(?:的)?老家(?:是|在)\s*(?P<v2>.+)$|^{ADV_ZH}(?:来自|出生在|出生于|生在|生于)\s*(?P<v3>.+)$"
    rf"|^{ADV_ZH}在(?P<v4>.+?)(?:长大|出生)"
)

_HOMETOWN_EN = re.compile(
    rf"^(?:am|is|are)\s+{ADV_EN}from\s+(?P<v>.+)$|^{ADV_EN}(?:come|comes|came)\s+from\s+(?P<v2>.+)$"
    rf"|^(?:was|were)\s+(?:born|raised)(?:\s+and\s+raised)?\s+in\s+(?P<v3>.+)$|^{ADV_EN}grew\s+up\s+in\s+(?P<v4>.+)$"
    # (my) hometown is Bergen, home town's Cork: said of the place.
    rf"|^(?:hometown|home\s+town)(?:'s|\s+is)\s+(?P<v5>.+)$",
    re.IGNORECASE,
)

_CARS_ZH = (
    "车|汽车|SUV|电车|轿车|特斯拉|比亚迪|蔚来|理想|小鹏|问界|极氪|小米SU7|宝马|奔驰|奥迪|丰田|本田|大众|日产|马自达|"
    "现代|起亚|福特|别克|雪佛兰|凯迪拉克|沃尔沃|路虎|保时捷|吉利|长城|哈弗|奇瑞|长安|五菱|荣威|红旗|卡罗拉|凯美瑞|"
    r"雅阁|思域|朗逸|速腾|迈腾|帕萨特|宝来|轩逸|天籁|CR-V|RAV4|途观|汉兰达|宏光|Model\s?[3SXY]"
)

_VEHICLE_ZH = re.compile(
    rf"^(?:的)?(?P<that>(?:家)?(?:的)?(?:那|这)(?:辆|台))?(?:车是|车子是|座驾是)?{ADV_ZH}(?:开了[\u4e00-\u9fff]{{1,5}}?的|开的是|开着|开|有一?辆|买了一?辆|提了一?辆|一辆|辆)?"
    rf"(?P<v>[\u4e00-\u9fffA-Za-z0-9 -]{{0,8}}?(?:{_CARS_ZH}))"
    # 车位, 车票, 车库: a thing about cars, no car.
    r"(?![位库票站间程费贷险牌号道流速厢窗门钥])"
)

_AT_A_MAKER_ZH = re.compile(
    r"^(?:的)?(?:现在|目前)?[在去到从给跟和对找问进](?![^，,。]*(?:开|辆|台|提车|买了))"
)

# 洗车, 修车, 堵车, 坐车: something done with a car, no car of one's own.
_CAR_VERB_ZH = re.compile(r"[洗修停堵等坐搭打拼租借叫学练晕挪]车")
# 把车卖了, 车被偷了, 旧车报废了: the car is the object of what was done to it — gone, and
# 把车 names no car.
_CAR_GONE_ZH = re.compile(
    r"^[把将被给]|[把将被]车|卖|报废|转手|出掉|处理掉|被偷|偷了|丢了|撞报废|送人"
)
# 天天骑电动车上班: how the user gets about (the commute), no car named.
_CAR_RIDDEN_ZH = re.compile(r"[骑坐搭乘]|天天|每天|平时|一般|[买攒换租看选挑提]")

_CARS_EN = "tesla|toyota|honda|ford|bmw|mercedes|audi|volkswagen|vw|subaru|mazda|nissan|hyundai|kia|volvo|jeep|chevy|chevrolet|lexus|porsche|prius|civic|corolla|camry|model 3|model y|rav4|minivan|suv|pickup|truck|motorcycle|e-bike|ebike"

# drive my old Subaru Outback up north, take my Civic in for a service: the car one drives or
# looks after, said inside what one plans to do with it.
_CAR_IN_A_PLAN_EN = re.compile(
    r"\b(?:drive|driving|take|taking|get|getting|wash|washing|service|servicing|park|parking|fill\s+up|filling\s+up|sell|selling|fix|fixing)\s+"
    r"(?:my|our)\s+(?:(?:old|new|trusty|little|beat-up|used)\s+)*(?:(?:19|20)\d\d\s+)?"
    rf"(?P<v>(?:{_CARS_EN})(?:\s+(?-i:[A-Z][\w-]+))?)\b",
    re.IGNORECASE,
)

# my 2015 Outback needs new tires, my old Civic won't start: a car named in passing with
# what cars go through. The car is the user's; the make is known or comes with its year.
_CAR_OWNED_EN = re.compile(
    r"^(?:my|our)\s+(?:(?:old|new|trusty|little|ancient|beat-up|aging|ageing|used|second-hand)\s+)*"
    r"(?P<year>(?:19|20)\d\d\s+|'\d\d\s+)?"
    rf"(?P<v>(?:[\w-]+\s+){{0,2}}?(?:{_CARS_EN})\b|(?:[A-Z][\w-]*\s+){{0,1}}(?-i:[A-Z][\w-]*))"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
_CAR_DOINGS_EN = re.compile(
    r"\b(?:tires|tyres|oil\s+change|serviced?|servicing|mot|brakes?|battery|won'?t\s+start|"
    r"wouldn'?t\s+start|broke\s+down|breaks\s+down|broken\s+down|mileage|mpg|inspection|"
    r"check\s+engine|engine|transmission|stall(?:s|ing|ed)?|windshield|windscreen|wipers|alignment|"
    r"recall|exhaust|clutch|gearbox|dashboard|(?:flat|new)\s+tire|puncture|rego|registration)\b",
    re.IGNORECASE,
)

_VEHICLE_EN = re.compile(
    rf"^(?:drive|drives|have|has|own|owns|bought|got|have\s+got|has\s+got|just\s+got|just\s+bought)\s+(?:a|an|the)\s+(?P<v>(?:[\w-]+\s+){{0,3}}?(?:{_CARS_EN})(?:\s+(?-i:[A-Z0-9][\w-]*)){{0,2}})\b",
    re.IGNORECASE,
)

_LIVING_ZH = re.compile(
    r"^(?:现在|目前|一直)?(?:一个人住|独居|自己住|一个人生活|和(?:爸妈|父母|室友|对象|男朋友|女朋友|老公|老婆|家人|孩子|公婆|朋友)(?:一起)?住|跟(?:爸妈|父母|室友|对象|男朋友|女朋友|老公|老婆|家人|孩子|公婆|朋友)(?:一起)?住|合租|租房住?|住(?:在)?(?:宿舍|学校|公司宿舍|出租屋))"
)

# 住老小区六楼, 我家在五楼没电梯, I live on the 4th floor with no lift: the floor one lives on,
# and whether a lift goes there (said in the same breath).
_FLOOR_ZH = re.compile(
    r"^(?:住(?:的是|在)?|家(?:住|是|在)?(?:在)?)(?:(?:一个|个)?[\u4e00-\u9fff]{0,4}?(?:小区|老破小|房子?|公寓|楼房)(?:的)?)?"
    r"(?P<floor>(?:\d{1,2}|[一二三四五六七八九十两]{1,3})(?:楼|层))(?!下|上|的[\u4e00-\u9fff])"
)
_FLOOR_EN = re.compile(
    r"^(?:live|living|am|are)\s+(?:in\s+a\s+[\w\s-]{0,20}?\s+)?on\s+the\s+(?P<floor>(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|top)\s+floor)\b",
    re.IGNORECASE,
)
_LIFT_ZH = re.compile(r"^[，,\s]*(?:也|还|而且|但|可)?(?P<lift>没有?电梯|有电梯|爬楼梯?|要爬楼)")
_LIFT_EN = re.compile(
    r"^[,\s]*(?:with\s+|and\s+)?(?:(?:there's\s+)?(?P<lift>no\s+(?:lift|elevator)|a\s+walk-?up|(?:the\s+)?(?:lift|elevator)\s+is\s+broken))",
    re.IGNORECASE,
)

_LIVING_EN = re.compile(
    r"^(?:live|living)\s+(?:alone|on my own|by myself|with (?:my\s+)?(?:partner|parents|mum|mom|dad|roommates?|flatmates?|boyfriend|girlfriend|husband|wife|kids|family|in-laws|sister|brother|friends?))\b",
    re.IGNORECASE,
)


# 去年刚搬过来 (the place named before it in the sentence), since I moved here.
_MOVED_HERE_ZH = re.compile(
    rf"^{ADV_ZH}(?:搬过来|搬来这(?:边|里|儿)?|搬到这(?:边|里|儿)|搬家过来|来这边)(?:以后|之后|的时候|那会儿?|住|了|时)?"
)
_MOVED_HERE_EN = re.compile(
    r"^(?:have\s+|has\s+|had\s+)?(?:just\s+|only\s+|first\s+|recently\s+)?(?:moved|relocated)\s+(?:over\s+)?here\b",
    re.IGNORECASE,
)
# my flat in Leeds, our house in Porto: the user's home and its town.
_HOME_IN_EN = re.compile(
    r"\b(?:my|our)\s+(?:(?:little|tiny|new|rented|own|current)\s+)?(?:flat|apartment|house|home|place|condo|studio)\s+(?:here\s+)?in\s+(?P<v>(?-i:[A-Z])[\w'.-]*(?:\s+(?-i:[A-Z])[\w'.-]*)*)",
    re.IGNORECASE,
)
_PLACE_IN_EN = re.compile(
    r"\b(?:in|to|at|around)\s+(?P<v>(?-i:[A-Z])[\w'.-]*(?:\s+(?-i:[A-Z])[\w'.-]*)*)", re.IGNORECASE
)
_NOT_PLACES_EN = w.CALENDAR_EN | frozenset(
    [
        "i",
        "christmas",
        "easter",
        "summer",
        "winter",
        "spring",
        "autumn",
        "fall",
        "english",
    ]
)


# The state or country said right after the clause's town (I'm in Portland, Oregon — …).
_REGION_AFTER = re.compile(
    r"^,\s*((?-i:[A-Z][a-z][\w'.-]*)(?:\s+(?-i:[A-Z][a-z][\w'.-]*))?)(?=\s*(?:[,.;!?—–-]|$))"
)


def _region_after(st: Statement) -> str:
    """ ", Oregon" when the sentence names a state or country right after the clause (a town's
    clause cut at its comma), else ""."""
    at = st.sentence.find(st.text)
    if at < 0:
        return ""
    m = _REGION_AFTER.match(st.sentence[at + len(st.text) :])
    if m is None or m[1].casefold() in _NOT_PLACES_EN:
        return ""
    return f", {m[1]}"


class PlaceFrames(FactBuilder):
    """Home city, hometown, living situation and vehicle of a statement's subject."""

    def _lives_in(self, st: Statement, place: str, *, moved: bool = False) -> Finding:
        """The city the subject lives in (tagged 搬家 when they moved there)."""
        return self.fact(
            st,
            "city",
            place,
            f"{{who}}住在{place}",
            f"{{who}} live in {place}",
            importance=0.85,
            entities=[place],
            tags=["搬家"] if moved else [],
        )

    def _living_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _LIVING_ZH.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        said = w.clean_zh(m.group())
        return [
            self.fact(
                st, "personal_fact", said, f"{{who}}{said}", f"{{who}}: {said}", importance=0.75
            )
        ]

    def _floor(self, st: Statement, body: str) -> list[Finding]:
        """The floor the user lives on, with the lift said right after it (住老小区六楼，没电梯):
        what moving, deliveries and a new fridge depend on."""
        m = (_FLOOR_ZH if st.zh else _FLOOR_EN).match(body)
        # 住六楼没电梯: the 没 is the lift's; only a "not" before the floor denies it.
        if m is None or re.search(r"[不没别]|\bnot\b|n't\b|\bnever\b", m.group()):
            return []  # (someone else's floor is theirs: never read as a city)
        at = st.sentence.find(st.text)
        after = st.sentence[at + len(st.text) :] if at >= 0 else ""
        lift = (_LIFT_ZH if st.zh else _LIFT_EN).match(body[m.end() :] or after)
        said = w.clean_zh(m.group()) if st.zh else w.clean_en(m.group())
        if lift is not None:
            said += f"，{lift['lift']}" if st.zh else f", {w.clean_en(lift['lift'])}"
        return [
            self.fact(
                st, "personal_fact", said, f"{{who}}{said}", f"{{who}} {said}", importance=0.75
            )
        ]

    def _living_en(self, st: Statement, body: str) -> list[Finding]:
        m = _LIVING_EN.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        said = w.clean_en(m.group())
        return [
            self.fact(
                st, "personal_fact", said, f"{{who}}{said}", f"{{who}} {said}", importance=0.75
            )
        ]

    def _residence_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _RESIDE_ZH.match(body) or _MOVE_ZH.match(body)
        if m is None:
            return []
        place = w.place_at_start(
            w.clean_zh(
                m["v"]
                or m.groupdict().get("v2")
                or m.groupdict().get("v3")
                or m.groupdict().get("v4")
                or m.groupdict().get("v5")
                or m.groupdict().get("v6")
                or ""
            )
        )
        if not place:
            return []
        v4 = m.groupdict().get("v4")
        if v4 and LEFT_JOB_ZH.search(st.sentence):
            return []  # 我从网易离职了，现在在小红书: where one works now, not where one lives
        if v4 and place != w.clean_zh(v4):
            # 在上海工作, 在上海读书: being somewhere to do something says where the user
            # works or studies, not where they live.
            return []
        moved = body.lstrip("现在目前已经刚").startswith(("搬", "迁", "调"))
        return [self._lives_in(st, place, moved=moved)]

    def _residence_en(self, st: Statement, body: str) -> list[Finding]:
        m = _RESIDE_EN.match(body)
        if m is None and not st.negated:
            return self._am_in_en(st, body)
        if m is None or st.negated:
            return []
        raw = w.clean_en(m["v"] or m["v2"] or m["v3"] or m["v4"] or m["v5"] or "")
        place = english_place(raw)
        if not place:
            # a small flat in Edinburgh: the place is the last proper name.
            inner = re.findall(
                r"\b(?:in|near|outside)\s+((?-i:[A-Z])[\w'.-]*(?:\s+(?-i:[A-Z])[\w'.-]*)*)", raw
            )
            place = inner[-1] if inner else ""
        if not place:
            return []
        region = _region_after(st)
        place += region
        verb = "lives" if st.subject.kind == "person" else "live"
        said = w.clean_en(st.text + region)
        # The user's words when they say more than the place (a small flat in Edinburgh).
        title = (
            said
            if st.subject.kind != "person"
            and len(said) <= 80
            and said.casefold() != f"i live in {place}".casefold()
            else f"{{who}} {verb} in {place}"
        )
        return [
            self.fact(
                st, "city", place, f"{{who}}住在{place}", title, importance=0.85, entities=[place]
            )
        ]

    def _am_in_en(self, st: Statement, body: str) -> list[Finding]:
        """I'm in Toronto (, but what if I moved?): where the user is, said as a given —
        only a town named and nothing more (no "for a conference", no "this week")."""
        m = _AM_IN_EN.match(body.strip(" .!"))
        if m is None or st.subject.kind != "self" or st.times:
            return []
        region = _region_after(st)
        place = m["v"] + (m["region"] or "") + region
        words = place.replace(",", " ").casefold().split()
        if any(x in _NOT_TOWNS_EN or x in w.LANGUAGES_EN or x in w.CALENDAR_EN for x in words):
            return []
        return [
            self.fact(
                st,
                "city",
                place,
                f"{{who}}住在{place}",
                w.clean_en(st.text + region),
                importance=0.85,
                entities=[place],
            )
        ]

    def _hometown_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _HOMETOWN_ZH.match(body)
        if m is None or st.negated:
            return []
        raw = next((m[g] for g in ("v", "v2", "v3", "v4") if m.groupdict().get(g)), "")
        place = w.place_at_start(w.clean_zh(raw))
        if not place:
            return []
        return [
            self.fact(
                st,
                "hometown",
                place,
                f"{{who}}老家是{place}",
                f"{{who}} come from {place}",
                entities=[place],
            )
        ]

    def _hometown_en(self, st: Statement, body: str) -> list[Finding]:
        m = _HOMETOWN_EN.match(body)
        if m is None or st.negated:
            return []
        raw = w.clean_en(
            next((m[g] for g in ("v", "v2", "v3", "v4", "v5") if m.groupdict().get(g)), "")
        )
        place = english_place(raw)
        if not place:
            return []
        return [
            self.fact(
                st,
                "hometown",
                place,
                f"{{who}}来自{place}",
                f"{{who}} come from {place}",
                entities=[place],
            )
        ]

    def _vehicle_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _VEHICLE_ZH.match(body)
        # 我那辆旧思域老是打不着火: the car is the user's, whatever it does not do.
        if m is None or (st.negated and not m["that"]) or _CAR_VERB_ZH.search(m["v"]):
            return []
        if _AT_A_MAKER_ZH.match(body):
            return []  # 在蔚来, 去宝马面试: the maker as a place of work, no car
        if (
            _CAR_GONE_ZH.search(m["v"])
            # 又把钥匙锁车里了: 把/被 inside what was read as the car makes 车 the object of
            # something done, and the words before it no car's name.
            or re.search(r"[把将被]", m["v"])
            or _CAR_GONE_ZH.search(body[m.end() :])
            or _CAR_RIDDEN_ZH.search(m["v"])
        ):
            return []
        car = m["v"].strip()
        return [
            self.fact(
                st, "vehicle", car, f"{{who}}开{car}", f"{{who}} drive a {car}", entities=[car]
            )
        ]

    def _vehicle_en(self, st: Statement, body: str) -> list[Finding]:
        m = _VEHICLE_EN.match(body)
        car = m["v"].strip() if m is not None else ""
        if m is None and st.subject.kind in ("self", "none"):
            car = self._car_in_passing_en(body)
        elif st.negated:
            return []
        if not car:
            return []
        return [
            self.fact(
                st, "vehicle", car, f"{{who}}开{car}", f"{{who}} drive a {car}", entities=[car]
            )
        ]

    def car_in_a_plan(self, st: Statement) -> list[Finding]:
        """The user's car named inside a plan (gonna drive my old Outback to the coast, need
        to take my Mazda in for a service on Friday): a known make or model after "my" and a
        verb of driving or caring for it — the user has that car."""
        if st.zh or st.subject.kind not in ("self", "none") or st.negated or st.hypothetical:
            return []
        m = _CAR_IN_A_PLAN_EN.search(st.text)
        if m is None:
            return []
        car = w.clean_en(m["v"])
        return [
            self.fact(
                with_subject(st, SELF),
                "vehicle",
                car,
                f"{{who}}开{car}",
                f"{{who}} drive a {car}",
                entities=[car],
            )
        ]

    def _car_in_passing_en(self, body: str) -> str:
        """my 2015 Outback needs new tires: the car ("2015 Outback"), or ""."""
        m = _CAR_OWNED_EN.match(body)
        if m is None or not _CAR_DOINGS_EN.search(m["rest"]):
            return ""
        known = re.search(rf"\b(?:{_CARS_EN})\b", m["v"], re.IGNORECASE)
        if not known and not m["year"]:
            return ""  # my Bruno needs a bath: a name, no make, says no car
        return f"{m['year'] or ''}{m['v']}".strip()

    def _moved_here_zh(self, st: Statement, body: str) -> list[Finding]:
        """这两天成都又下雨了，去年刚搬过来的时候…: moving "here" makes the one place the
        sentence names before it the home."""
        if _MOVED_HERE_ZH.match(body) is None:
            return []
        before = st.sentence[: st.sentence.find(st.text)] if st.text in st.sentence else ""
        places = list(dict.fromkeys(word for word, pos in w.tag(before) if pos == "ns"))
        if len(places) != 1:
            return []  # none, or which of them: nothing said
        place = places[0]
        return [self._lives_in(st, place, moved=True)]

    def _moved_here_en(self, st: Statement, body: str) -> list[Finding]:
        """it's been pouring in Leeds since I moved here: the one town the sentence names."""
        if _MOVED_HERE_EN.match(body) is None or st.negated:
            return []
        places = list(
            dict.fromkeys(
                p
                for m in _PLACE_IN_EN.finditer(st.sentence)
                if (p := english_place(m["v"])) and p.casefold() not in _NOT_PLACES_EN
            )
        )
        if len(places) != 1:
            return []
        return [self._lives_in(st, places[0])]

    def _home_in_en(self, st: Statement, body: str) -> list[Finding]:
        """…without my flat in Leeds smelling damp: where the user's home is."""
        m = _HOME_IN_EN.search(st.text)
        if m is None or st.subject.kind == "person":
            return []
        place = english_place(m["v"])
        if not place or place.casefold() in _NOT_PLACES_EN:
            return []
        return [
            self.fact(
                st,
                "city",
                place,
                f"{{who}}住在{place}",
                f"{{who}} live in {place}",
                importance=0.85,
                entities=[place],
            )
        ]
