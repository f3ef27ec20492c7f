"""Frames for the people and pets in the user's life and for who someone is: names,
family, partner, pets, birthday and age."""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import ADV_ZH, FactBuilder, category_of
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import (
    RELATIONS_EN,
    RELATIONS_ZH,
    SELF,
    Statement,
    Subject,
    with_subject,
)

_DATE_ZH = r"(?:\d{4}年)?(?:\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\d{1,2}|[一二三四五六七八九十]{1,3})(?:号|日)?|(?:农历)?[正腊一二三四五六七八九十冬]{1,2}月[初十廿]{0,1}[一二三四五六七八九十]{1,2}"

_BIRTHDAY_ZH = re.compile(
    rf"^(?:的)?生日(?:是|在)?\s*(?P<v>{_DATE_ZH})|^(?P<v2>{_DATE_ZH})(?:过)?生日|^(?:出生于|生于|出生在)\s*(?P<v3>{_DATE_ZH})"
    # 我这种8月3号生日的人: the birthday said as what kind of person one is.
    rf"|^(?:这种|这样的?|们这种)(?P<v4>{_DATE_ZH})(?:号|日)?(?:生日|出生)的人"
)
_REL_ZH_ALL = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
_REL_EN_ALL = "|".join(sorted(RELATIONS_EN, key=len, reverse=True))

# Whose birthday it is, said beside the day (下个月12号我生日, 下周三是我老婆的生日, my
# birthday's next Thursday, it's my son's birthday on the 14th).
_BIRTHDAY_BY_TIME_ZH = re.compile(
    rf"(?:是|就是)?(?:我|俺)(?:的)?(?:(?P<rel>{_REL_ZH_ALL})(?:的)?)?(?:生日|生辰)(?![礼蛋会派聚宴])"
)
_BIRTHDAY_BY_TIME_EN = re.compile(
    rf"\bmy\s+(?:(?P<rel>{_REL_EN_ALL})'s\s+)?birthday(?:'s|\s+is|\s+falls)?\b(?!\s+(?:party|present|gift|cake|dinner|card))",
    re.IGNORECASE,
)

# The same inside someone's words or a question (我朋友说我这种…生日的人…).
BIRTHDAY_AS_ONE_ZH = re.compile(
    rf"(?:^|[^\u4e00-\u9fff]|[说觉得像])我(?:这种|这样的?|们这种)(?P<v>{_DATE_ZH})(?:号|日)?(?:生日|出生)的人"
)
# Maya (7), Theo (he's 4): an age in brackets right after a name.
_AGE_IN_BRACKETS = r"\s*[(（]\s*(?:(?:he|she)(?:'s|\s+is)\s+)?(?P<age>\d{1,2})\s*(?:岁|yo|y/o|years?\s+old|yrs?)?\s*[)）]"
# her little brother Theo, my cousin Sam: someone named inside a clause.
_RELATIVE_NAMED_EN = re.compile(
    r"\b(?P<pos>my|our|his|her|their)\s+(?P<adj>(?:(?:little|older|younger|big|baby|twin|eldest|youngest|oldest|new)\s+)?)"
    r"(?P<rel>brother|sister|son|daughter|cousin|husband|wife|partner|boyfriend|girlfriend|mom|mum|dad|friend|best\s+friend|twin)"
    r"\s+(?P<name>(?-i:[A-Z][a-z]+))\b",
    re.IGNORECASE,
)
# 我家年糕…, 柯基是不是都这样: a pet's breed said of all its kind, the user's pet by name.
_KIND_ALL_ZH = r"(?:们)?(?:是不是|是否|难道|一般)?(?:都|全都|本来就|就是)(?:这样|这么|会|爱|容易|是这样|这德行)"
# What pets do (掉毛, 拆家, shedding, barking): a named one said to do it is an animal.
_PET_DOINGS_ZH = re.compile(
    r"掉毛|拆家|乱叫|狂叫|叫个不停|咬|挠|抓沙发|乱尿|乱拉|尿|便便|舔|吃狗粮|吃猫粮|狗粮|猫粮|打疫苗|驱虫|绝育|发情|换毛|吐毛|遛|牵绳|爬|掉牙|挑食"
)
_PET_DOINGS_EN = re.compile(
    r"\b(?:shed|sheds|shedding|bark|barks|barking|chew|chews|chewing|scratch|scratches|scratching|pee|peeing|poop|pooping|lick|licks|licking|walk|walks|leash|fur|kibble|vet|neutered|spayed|meow|meowing|howl|howling|zoomies)\b",
    re.IGNORECASE,
)
_OWN_NAME_ZH = re.compile(
    r"^(?:我家|我们家|咱家|俺家)(?:的|那只|这只)?(?P<name>[\u4e00-\u9fff]{2,3})"
)
_OWN_NAME_EN = re.compile(
    r"^(?:my|our)\s+(?P<name>(?-i:[A-Z][a-z]+))\b(?!\s+(?-i:[A-Z]))", re.IGNORECASE
)

_BIRTHDAY_EN = re.compile(
    r"^(?:'s\s+)?birthday\s+is\s+(?:on\s+)?(?P<v>.+)$|^(?:was|were)\s+born\s+on\s+(?P<v2>.+)$"
    r"|^birthday'?s\s+(?:on\s+)?(?P<v3>.+)$"
    # I'm turning 40 on June 3rd: the day of the birthday.
    r"|^(?:am\s+|is\s+|are\s+)?(?:turning|going\s+to\s+be|gonna\s+be)\s+\d{1,3}\s+on\s+(?P<v4>.+)$",
    re.IGNORECASE,
)

_AGE_ZH = re.compile(
    r"^(?:今年|现在|已经)?(?:是|都|已经|满)?(?P<v>\d{1,3}|[一二三四五六七八九十两]{1,3})(?:岁|周岁)(?:了|啦)?(?:半)?$"
    # 我今年35了: a number this year, said with 了, is an age without 岁.
    r"|^(?:今年|今年都|今年已经)(?P<v2>\d{1,2}|[一二三四五六七八九十]{1,3})(?:了|啦)$"
    # 他今年六十: tens said this year, no 岁 needed.
    r"|^(?:今年|今年都|今年已经)(?P<v3>[1-9]\d|[二三四五六七八九]?十[一二三四五六七八九]?)(?:了|啦)?$"
)
# 属兔, 天蝎座, 左撇子, 夜猫子; a Scorpio, left-handed, a night owl: what kind of person one is,
# said as one of a closed set.
_TRAIT_ZH = re.compile(
    r"^(?:是)?(?:个|一个)?(?:(?P<sign>属(?:鼠|牛|虎|兔|龙|蛇|马|羊|猴|鸡|狗|猪))(?:的)?"
    r"|(?P<star>白羊|金牛|双子|巨蟹|狮子|处女|天秤|天蝎|射手|摩羯|水瓶|双鱼)座(?:的)?"
    r"|(?P<kind>左撇子|夜猫子|独生女|独生子|路痴|早起星人|色盲|色弱))(?:[，,。.!！~]|$)"
)
_TRAIT_EN = re.compile(
    r"^(?:am|is)\s+(?:a|an)\s+(?P<kind>night\s+owl|early\s+bird|morning\s+person|lefty|left-hander|only\s+child"
    r"|(?-i:Aries|Taurus|Gemini|Cancer|Leo|Virgo|Libra|Scorpio|Sagittarius|Capricorn|Aquarius|Pisces))\b"
    r"|^(?:am|is)\s+(?P<adj>left-handed|left\s+handed|colou?r-?blind)\b",
    re.IGNORECASE,
)

_AGE_EN = re.compile(
    r"^(?:am|is|are|just\s+turned|turned|turns)\s+(?P<v>\d{1,3})(?:\s+(?:years?|yrs?)\s+old|\s+y/?o)?$",
    re.IGNORECASE,
)

_COUNT_ZH = r"(?:一个|两个|三个|四个|俩|仨|个|一|二|两|三|一对)?"

_HAVE_KIN_ZH = re.compile(
    # 带着两个娃: the children one has along are one's own.
    rf"^{ADV_ZH}(?:有|生了|养了|带着|带了)(?P<n>{_COUNT_ZH})(?P<rel>双胞胎|儿子|女儿|闺女|孩子|娃|宝宝|小孩|哥哥|姐姐|弟弟|妹妹|男朋友|女朋友|老公|老婆|对象)(?:[，,]?\s*(?:叫|名叫|名字叫|名字是)(?P<name>[\u4e00-\u9fffA-Za-z]{{1,6}}))?"
)

# How old the children just named are, said right after them (老大7岁老二4岁, （5岁和8岁）,
# ", 5 and 8", "(ages 6 and 9)"): kept with them.
_AGES_AFTER_ZH = re.compile(
    r"^\s*[，,（(]?\s*(?P<ages>(?:(?:老大|老二|老三|大的|小的|大宝|二宝|一个|另一个|哥哥|姐姐|弟弟|妹妹)?"
    r"(?:今年)?(?:\d{1,2}|[一二两三四五六七八九十]{1,3})岁半?(?:了)?[，,、和跟\s]*){1,4})"
)
_AGES_AFTER_EN = re.compile(
    r"^\s*[,(]?\s*(?P<ages>(?:aged?\s+|ages\s+)?\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2}){1,3}"
    r"(?:\s+(?:years?\s+old|yo|y/o))?)\s*\)?"
)

_NAMED_ZH = re.compile(
    r"^(?:的)?(?:名字)?(?:其实|实际上|应该)?(?P<verb>叫|名叫|叫做|名字叫|名字是|是)(?P<v>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:[，,。]|$|呢|哦|啊|呀)"
)


# 我叫王小雨 — the user's own name, and nothing after it.
_MY_NAME_ZH = re.compile(r"^叫(?P<v>[\u4e00-\u9fff]{2,4}|(?-i:[A-Z][a-z]+))$")
# my name is Priya, my name's Sam Lee, call me Jo (not "call me later").
_MY_NAME_EN = re.compile(
    r"^(?:my\s+name\s+is|my\s+name'?s|(?:you\s+can\s+|please\s+|just\s+)?call\s+me)\s+"
    r"(?P<v>(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?)(?:\s+(?:actually|btw|by the way|now|though|lol|haha))?$",
    re.IGNORECASE,
)


def _sounds_like_a_name(word: str) -> bool:
    """朵朵, 林晓: a doubled syllable or what the segmenter tags a person's name (老师, 护士,
    医生 are no names)."""
    return bool(re.fullmatch(r"(.)\1", word)) or all(pos.startswith("nr") for _, pos in w.tag(word))


_HAVE_KIN_EN = re.compile(
    r"^(?:have\s+got|has\s+got|have|has|got)\s+(?P<n>a|an|one|two|three|four|\d)\s+(?:little\s+|young\s+|grown\s+|teenage\s+|twin\s+|adult\s+)?(?P<rel>sons?|daughters?|kids?|children|child|boys?|girls?|brothers?|sisters?|twins|grandkids|grandchildren|toddlers?|newborns?|bab(?:y|ies)|teenagers?|teens?)\b(?:,?\s*(?:named|called)\s+(?P<name>[A-Z]\w+(?:\s+and\s+[A-Z]\w+)?))?",
    re.IGNORECASE,
)

# a mum of three, a dad of two boys: the children, counted.
_PARENT_OF_EN = re.compile(
    r"^(?:am|is)\s+(?:a|an)\s+(?:\w+\s+)?(?:mum|mom|dad|mother|father|parent)\s+of\s+(?P<n>two|three|four|five|six|\d)"
    r"(?:\s+(?P<rel>kids|boys|girls|children|teenagers|teens))?(?P<name>)",
    re.IGNORECASE,
)

_NAMED_EN = re.compile(
    r"^(?:'s\s+name\s+is|is\s+called|is\s+named|goes\s+by)\s+(?P<v>[A-Z][\w-]+)", re.IGNORECASE
)

_MARRIED_ZH = re.compile(
    r"^(?:已经|刚)?(?P<v>结婚了|已婚|离婚了|离异|单身|订婚了|恋爱了|有对象了?"
    # 结婚五年了, 结婚快十年了: married, with how long.
    r"|结婚(?:快|都|已经)?(?:[一二两三四五六七八九十几\d]+|好几|半)(?:个)?年(?:多)?了)"
)

_MARRIED_EN = re.compile(
    r"^(?:am|is|are|just\s+got|got)\s+(?P<v>married|divorced|single|engaged|widowed|separated)\b",
    re.IGNORECASE,
)

_PET_ZH = re.compile(
    rf"^(?:家里|家里面|我家|家)?{ADV_ZH}(?:养了?|有|收养了?|领养了?|捡了)(?:一只|一条|一头|一匹|只|条|两只|三只|两条|俩|一)?(?:的)?(?P<adj>[\u4e00-\u9fff]{{0,4}}?)(?P<species>{'|'.join(sorted(w.PETS_ZH, key=len, reverse=True))})(?:[，,]?\s*(?:叫|名叫|名字叫|名字是)(?P<name>[\u4e00-\u9fffA-Za-z]{{1,6}}))?"
)

# 我家两只猫, 家里一条狗: the pets at home, counted, with no verb of having.
_PET_AT_HOME_ZH = re.compile(
    rf"^(?:家里|家里面|家)(?:也|都)?(?:一只|两只|三只|几只|一条|两条|俩|仨)(?P<adj>)"
    rf"(?P<species>{'|'.join(sorted(w.PETS_ZH, key=len, reverse=True))})(?P<name>)(?![\u4e00-\u9fff]?[粮砂窝笼绳])"
)

# A pet's weight, said as what it is right after it (兔子6斤, 猫现在8斤了, rabbit weighs
# 3 kg): not what it eats (一个月吃5斤狗粮) nor any amount said elsewhere in the clause.
_PET_WEIGHT = re.compile(
    r"^(?:\s|现在|目前|已经|才|都|快|有|体重|大概|差不多|大约|将近|\b(?:weighs|weighing|is|now|about|around|almost|nearly|over|under|just)\b|'s)*"
    r"(?P<w>\d+(?:\.\d+)?\s*(?:斤|公斤|千克|kg|kilos?|kilograms?|lbs?|pounds?))"
    r"(?:多|左右|重|了|啦|呢|\s+now)*[。.!！~～]*$",
    re.IGNORECASE,
)

_PET_EN = re.compile(
    rf"^(?:have|has|got|own|adopted|just\s+adopted|rescued|got\s+ourselves|have\s+got|has\s+got)\s+(?:a|an|one|two|three|\d)\s+(?P<species>(?:[\w-]+\s+)?(?:{'|'.join(w.PETS_EN)})s?)\b(?:,?\s*(?:named|called)\s+(?P<name>[A-Z][\w-]*))?",
    re.IGNORECASE,
)

_PET_NAMES_ZH = re.compile(
    # 一只叫橘子一只叫年糕: the next one's name starts where "一只" begins again.
    r"(?:叫|名叫|名字叫|名字是)(?P<name>[\u4e00-\u9fffA-Za-z]{1,5}?)"
    r"(?=$|[，,、。！!？?和跟的\s]|[一另](?:只|条|个)|还有)"
)

_PET_NAMES_EN = re.compile(
    r"\b(?:named|called|(?:his|her|its|their)\s+names?(?:'s|\s+is|\s+are))\s+(?P<name>[A-Z][\w-]*)"
    r"|^\s*,?\s*(?P<name2>[A-Z][\w-]*)(?:\s*(?:,|and|&)\s*(?P<name3>[A-Z][\w-]*))?[\s.!~]*$"
)


class PeopleFrames(FactBuilder):
    """Names, family, marriage, pets, birthday and age of a statement's subject."""

    def _birthday_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _BIRTHDAY_ZH.match(body)
        if m is None:
            return []
        day = m["v"] or m["v2"] or m["v3"] or m["v4"]
        return [
            self.fact(
                st,
                "birthday",
                day,
                f"{{who}}的生日是{day}",
                f"{{who}}: birthday {day}",
                tags=["生日"],
                entities=[day],
            )
        ]

    def birthday_by_time(self, st: Statement) -> list[Finding]:
        """A birthday said by the day it falls on (下个月12号我生日, 下周三是我老婆生日, my
        birthday's next Thursday, it's my son's birthday on the 14th): that day, as a date."""
        if st.question or st.hypothetical or st.negated or st.reported:
            return []
        m = (_BIRTHDAY_BY_TIME_ZH if st.zh else _BIRTHDAY_BY_TIME_EN).search(st.text)
        if m is None:
            return []
        day = next(
            (
                t
                for t in st.times
                # 今天是我妈生日 is a day's news (a state of today), not read as a date.
                if not t.past
                and t.role in ("point", "deadline")
                and t.starts is not None
                and t.ends is not None
                and t.starts.date() == t.ends.date()
                and (t.end <= m.start() or t.start >= m.end() - 1)
            ),
            None,
        )
        if day is None or day.starts is None:
            return []
        rel = (m["rel"] or "").casefold()
        who = with_subject(st, Subject("person", rel)) if rel else with_subject(st, SELF)
        d = day.starts
        value = f"{d.month}月{d.day}日" if st.zh else d.strftime("%B %-d")
        return [
            self.fact(
                who,
                "birthday",
                value,
                f"{{who}}的生日是{value}",
                f"{{who}}: birthday {value}",
                tags=["生日" if st.zh else "birthday"],
                entities=[value],
            )
        ]

    def _trait(self, st: Statement, body: str) -> list[Finding]:
        """What kind of person one is, of a closed set (属兔, 天蝎座, 左撇子, a night owl)."""
        m = (_TRAIT_ZH if st.zh else _TRAIT_EN).match(body)
        if m is None or st.negated:
            return []
        said = next(v for v in m.groupdict().values() if v)
        if st.zh and m["star"]:
            said += "座"
        said = said if st.zh else " ".join(said.split()).casefold()
        return [
            self.fact(
                st, "personal_fact", said, f"{{who}}是{said}", f"{{who}}: {said}", importance=0.6
            )
        ]

    def _birthday_en(self, st: Statement, body: str) -> list[Finding]:
        m = _BIRTHDAY_EN.match(body)
        if m is None:
            return []
        day = w.clean_en(m["v"] or m["v2"] or m["v3"] or m["v4"] or "")
        if not re.search(
            r"\d|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec",
            day,
            re.IGNORECASE,
        ):
            return []
        return [
            self.fact(
                st,
                "birthday",
                day,
                f"{{who}}的生日是{day}",
                f"{{who}}: birthday {day}",
                tags=["birthday"],
                entities=[day],
            )
        ]

    def _age_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _AGE_ZH.match(body)
        if m is None or st.negated:
            return []
        age = m["v"] or m["v2"] or m["v3"]
        return [self.fact(st, "age", f"{age}岁", f"{{who}}{age}岁", f"{{who}}: {age} years old")]

    def _age_en(self, st: Statement, body: str) -> list[Finding]:
        m = _AGE_EN.match(body)
        if m is None or st.negated or not 0 < int(m["v"]) < 120:
            return []
        return [
            self.fact(
                st,
                "age",
                f"{m['v']} years old",
                f"{{who}}{m['v']}岁",
                f"{{who}}: {m['v']} years old",
            )
        ]

    def _married_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _MARRIED_ZH.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        return [
            self.fact(st, "relationship_status", m["v"], f"{{who}}{m['v']}", f"{{who}}: {m['v']}")
        ]

    def _married_en(self, st: Statement, body: str) -> list[Finding]:
        m = _MARRIED_EN.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        word = m["v"].casefold()
        return [
            self.fact(
                st,
                "relationship_status",
                word,
                f"{{who}}{word}",
                f"{{who}} am {word}",
            )
        ]

    def _own_name(self, st: Statement, name: str) -> list[Finding]:
        """The name the user goes by (我叫王小雨; my name's Priya; call me Sam)."""
        return [
            Finding(
                type="preference",
                domain="个人",
                category=["个人", "沟通"],
                key="preferred_name",
                value=name,
                title=f"我叫{name}" if st.zh else f"My name is {name}",
                content=st.text,
                statement=st,
                scope="user",
                tags=["称呼" if st.zh else "name"],
                entities=[name],
                confidence=0.9,
                importance=0.8,
                reason="the name the user goes by",
            )
        ]

    def _name_zh(self, st: Statement, body: str) -> list[Finding]:
        """我女儿叫朵朵 (a person subject and a name), 我家猫叫咪咪; 我叫王小雨 (the user's own)."""
        if st.subject.kind == "self" and st.explicit_subject and not st.negated:
            own = _MY_NAME_ZH.match(body.strip(" 。.!！~"))
            if own is not None and _sounds_like_a_name(own["v"]):
                return self._own_name(st, own["v"])
        if st.subject.kind != "person" or st.negated:
            return []
        m = _NAMED_ZH.match(body)
        if m is None:
            return []
        name = w.clean_zh(m["v"])
        if not name or name in ("什么", "啥", "谁"):
            return []
        if m["verb"] == "是" and not _sounds_like_a_name(name):
            return []  # 我妈是老师: what she is, not what she is called
        return self._named(st, st.subject.relation, name)

    def _name_en(self, st: Statement, body: str) -> list[Finding]:
        own = _MY_NAME_EN.match(st.text.strip(" .!~"))
        if own is not None and not st.negated and st.subject.kind != "person":
            return self._own_name(st, own["v"])
        if st.subject.kind != "person" or st.negated:
            return []
        m = _NAMED_EN.match(body)
        if m is None:
            return []
        return self._named(st, st.subject.relation, m["v"])

    def _named(self, st: Statement, relation: str, name: str) -> list[Finding]:
        species_zh = relation if relation in w.PETS_ZH else ""
        species_en = relation if relation.casefold() in w.PETS_EN else ""
        if species_zh or species_en:
            return [self._pet(st, species_zh or species_en, name)]
        owner = Subject("person", relation, name)
        who = owner.person
        return [
            Finding(
                type="fact",
                domain="人物",
                category=["人物", category_of(owner)],
                key="family_member",
                value={"person": relation or name, "called": name},
                title=f"{'我' if st.zh else 'My '}{relation}叫{name}"
                if st.zh
                else f"My {relation} is called {name}",
                content=st.text,
                statement=st,
                scope="user",
                tags=["人物"],
                entities=[who, name, relation],
                importance=0.8,
                person=relation or name,
                reason="someone in the user's life and their name",
            )
        ]

    def _kin_zh(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "none", "we") or st.negated:
            return []
        m = _HAVE_KIN_ZH.match(body)
        if m is None:
            return []
        rel, count, name = m["rel"], m["n"] or "", m["name"] or ""
        if name:
            return self._named(st, rel, w.clean_zh(name))
        phrase = f"{count}{rel}".strip()
        ages = _AGES_AFTER_ZH.match(_after(st, m.group()))
        if ages is not None:
            phrase += f"（{ages['ages'].strip('，,、和跟 ')}）"
        return [
            Finding(
                type="fact",
                domain="人物",
                category=["人物", "家人"],
                key="family_member",
                value={"person": rel, "count": phrase},
                title=f"我有{phrase}",
                content=st.text,
                statement=st,
                scope="user",
                tags=["人物", "家人"],
                entities=[rel],
                importance=0.8,
                person=rel,
                reason="someone in the user's life",
            )
        ]

    def _kin_en(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "we") or st.negated:
            return []
        m = _HAVE_KIN_EN.match(body) or _PARENT_OF_EN.match(body)
        if m is None:
            return []
        rel = (m["rel"] or "kids").casefold()
        phrase = f"{m['n']} {rel}"
        if m["name"]:
            phrase += f" ({m['name']})"
        else:
            ages = _AGES_AFTER_EN.match(_after(st, m["rel"] or rel))
            if ages is not None:
                phrase += f" ({ages['ages']})"
        return [
            Finding(
                type="fact",
                domain="人物",
                category=["人物", "家人"],
                key="family_member",
                value={"person": rel, "count": phrase},
                title=f"I have {phrase}",
                content=st.text,
                statement=st,
                scope="user",
                tags=["人物", "家人"],
                entities=[rel, m["name"] or ""],
                importance=0.8,
                person=rel,
                reason="someone in the user's life",
            )
        ]

    def _pet(self, st: Statement, species: str, name: str) -> Finding:
        value = {"species": species, "called": name} if name else {"species": species}
        at = st.text.casefold().find(species.casefold())
        weight = _PET_WEIGHT.match(st.text[at + len(species) :]) if at >= 0 else None
        if weight is not None:
            # 我家兔子6斤, my rabbit weighs 3 kg: how heavy the pet is, kept with it.
            value["weight"] = re.sub(r"\s+", " ", weight["w"].strip())
        zh = f"养了一只{species}" + (f"，叫{name}" if name else "")
        en = f"Has a {species}" + (f" named {name}" if name else "")
        if "weight" in value:
            zh, en = f"{zh}（{value['weight']}）", f"{en} ({value['weight']})"
        return Finding(
            type="fact",
            domain="个人",
            category=["个人", "宠物"],
            key="pet",
            value=value,
            title=zh if st.zh else en,
            content=st.text,
            statement=st,
            scope="user",
            tags=["宠物" if st.zh else "pet"],
            entities=[species, name],
            importance=0.75,
            reason="the user's pet",
        )

    def _pet_zh(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "none", "we") or st.negated:
            return []
        m = _PET_ZH.match(body) or _PET_AT_HOME_ZH.match(body)
        if m is None:
            return []
        species = (
            (m["adj"] or "") + m["species"] if m["adj"] and len(m["adj"]) <= 2 else m["species"]
        )
        names = [w.clean_zh(m["name"])] if m["name"] else []
        # 家里有两只猫，大的叫可乐，小的叫雪碧: the names follow in the sentence.
        after = (
            st.sentence[st.sentence.find(st.text) + len(st.text) :]
            if st.text in st.sentence
            else ""
        )
        names += [n["name"] for n in _PET_NAMES_ZH.finditer(after)]
        return [self._pet(st, species, n) for n in dict.fromkeys(names)] or [
            self._pet(st, species, "")
        ]

    def _pet_en(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "we") or st.negated:
            return []
        m = _PET_EN.match(body)
        if m is None:
            return []
        names = [m["name"]] if m["name"] else []
        after = (
            st.sentence[st.sentence.find(st.text) + len(st.text) :]
            if st.text in st.sentence
            else ""
        )
        for n in _PET_NAMES_EN.finditer(after):
            names += [x for x in (n["name"], n["name2"], n["name3"]) if x]
        species = m["species"].casefold()
        if species.endswith("s") and species[:-1].split()[-1] in w.PETS_EN:
            species = species[:-1]  # two cats, Mochi and Bean: each is a cat
        return [self._pet(st, species, n) for n in dict.fromkeys(names)] or [
            self._pet(st, species, "")
        ]

    def _age_in_brackets(self, st: Statement) -> list[Finding]:
        """my daughter Maya (7): the named person's age, said in brackets after the name."""
        name = st.subject.name
        if st.subject.kind != "person" or not name:
            return []
        m = re.search(re.escape(name) + _AGE_IN_BRACKETS, st.sentence)
        if m is None or not 0 < int(m["age"]) < 120:
            return []
        age = m["age"]
        return [
            self.fact(
                st,
                "age",
                f"{age}岁" if st.zh else f"{age} years old",
                f"{{who}}{age}岁",
                f"{{who}}: {age} years old",
            )
        ]

    def _relatives_named_en(self, st: Statement, body: str) -> list[Finding]:
        """…fighting with her little brother Theo (he's 4): someone named inside the clause,
        the user's (my brother Sam) or the subject's (her brother: filed under his own name,
        with whose brother he is in the user's words). Never the user's own fact."""
        out: list[Finding] = []
        for m in _RELATIVE_NAMED_EN.finditer(body):
            if m.start() == 0 and st.explicit_subject:
                continue  # the clause's own subject, read as such
            pos, rel, name = m["pos"].casefold(), m["rel"].casefold(), m["name"]
            if name.casefold() in _NOT_NAMES_EN:
                continue
            adj = m["adj"].strip().casefold()
            if pos in ("my", "our"):
                relation, who = rel, Subject("person", rel, "")
                said = f"My {adj + ' ' if adj else ''}{rel} is called {name}"
            elif st.subject.kind == "person" and pos in ("his", "her", "their"):
                owner = st.subject.person
                relation = f"{owner}'s {adj + ' ' if adj else ''}{rel}"
                who = Subject("person", "", name)
                said = f"My {relation} is called {name}"
            else:
                continue
            age = re.match(_AGE_IN_BRACKETS, st.sentence[st.sentence.find(name) + len(name) :])
            value = {"person": who.person, "called": name}
            if pos not in ("my", "our"):
                value["relation"] = relation
            out.append(
                Finding(
                    type="fact",
                    domain="人物",
                    category=["人物", category_of(who)],
                    key="family_member",
                    value=value,
                    title=said,
                    content=st.text,
                    statement=st,
                    scope="user",
                    tags=["人物"],
                    entities=[name, rel],
                    importance=0.8,
                    person=who.person,
                    reason="someone in the user's life and their name",
                )
            )
            if age is not None and 0 < int(age["age"]) < 120:
                out.append(
                    Finding(
                        type="fact",
                        domain="人物",
                        category=["人物", category_of(who)],
                        key="age",
                        value={"person": who.person, "value": f"{age['age']} years old"},
                        title=f"{name}: {age['age']} years old",
                        content=st.text,
                        statement=st,
                        scope="user",
                        tags=["人物"],
                        entities=[name],
                        importance=0.8,
                        person=who.person,
                        reason="the age of someone in the user's life",
                    )
                )
        return out

    def _pet_in_passing_zh(self, st: Statement, body: str) -> list[Finding]:
        """我家年糕最近老拆家，柯基是不是都这样: the pet called 年糕 is a corgi — its breed said
        of all its kind in the same sentence, its name after 我家."""
        if st.subject.kind == "person" or st.hypothetical:
            return []
        own = _OWN_NAME_ZH.match(_lead_stripped_zh(st.text))
        if own is None:
            return []
        words = w.tag(own["name"] + st.text[own.end() :][:4])
        name = words[0][0] if words else ""
        if not 2 <= len(name) <= 3 or name in w.PETS_ZH or not words[0][1].startswith("n"):
            return []
        if not _PET_DOINGS_ZH.search(st.text[own.end() :]):
            return []  # 我家小区最近在修路: nothing an animal does
        breeds = "|".join(sorted(w.PETS_ZH, key=len, reverse=True))
        kind = re.search(rf"(?P<breed>{breeds}){_KIND_ALL_ZH}", st.sentence)
        if kind is None:
            return []
        return [self._pet(st, kind["breed"], name)]

    def _pet_in_passing_en(self, st: Statement, body: str) -> list[Finding]:
        """my Biscuit keeps shedding, do all corgis do this?: the pet called Biscuit is a
        corgi — its breed said of all its kind in the same sentence."""
        if st.subject.kind == "person" or st.hypothetical:
            return []
        own = _OWN_NAME_EN.match(body) or _OWN_NAME_EN.match(st.text)
        if own is None or own["name"].casefold() in _NOT_NAMES_EN:
            return []
        if not _PET_DOINGS_EN.search(st.text[own.end() :]):
            return []  # my Honda keeps stalling: nothing an animal does
        kind = re.search(
            r"\b(?:do|are|is\s+it\s+(?:normal|typical)\s+for|typical\s+(?:for|of))\s+(?:all\s+|most\s+)?(?P<kind>[a-z]+)\b",
            st.sentence,
            re.IGNORECASE,
        )
        breed = _one_of_kind(kind["kind"]) if kind is not None else ""
        if not breed:
            return []
        return [self._pet(st, breed, own["name"])]


_NOT_NAMES_EN = w.CALENDAR_EN | frozenset(
    {
        "mom",
        "mum",
        "dad",
        "god",
        "english",
        "boss",
        "team",
    }
)


def _one_of_kind(plural: str) -> str:
    """corgis → corgi, huskies → husky: the pet kind a plural names ("" for none)."""
    word = plural.casefold()
    for one in (word[:-3] + "y" if word.endswith("ies") else "", word[:-2], word[:-1]):
        if one and word != one and one in w.PETS_EN:
            return one
    return ""


def _lead_stripped_zh(text: str) -> str:
    return re.sub(
        r"^(?:对了|另外|还有|其实|不过|但是|哎|唉|嗯|啊|哈哈|话说|说起来)[，,\s]*", "", text
    )


def _after(st: Statement, said: str) -> str:
    """What the sentence says right after ``said`` (in the statement), up to its end."""
    at = st.sentence.find(said)
    return st.sentence[at + len(said) :] if at >= 0 else ""
