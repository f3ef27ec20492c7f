"""Frames for the money one lives on: rent, income, mortgage (我房租每月3500, 工资税后一万二,
my rent is 1800 a month, I take home about 3200). Each is one value at a time, kept with its
amount as said; what it is (房租, salary) is an entity, so "工资那个别记了" names it."""

from __future__ import annotations

import re

from ekko_memory.service.extraction.facts.building import FactBuilder
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement

# What the money is, by its words.
_KIND_ZH = {
    "房租": "rent",
    "租金": "rent",
    "月租": "rent",
    "工资": "income",
    "月薪": "income",
    "年薪": "income",
    "薪水": "income",
    "薪资": "income",
    "收入": "income",
    "月收入": "income",
    "房贷": "mortgage",
}
_KIND_EN = {
    "rent": "rent",
    "salary": "income",
    "income": "income",
    "pay": "income",
    "take-home": "income",
    "take home": "income",
    "mortgage": "mortgage",
}
_AMOUNT_ZH = (
    r"(?:\d[\d,.]*\s*(?:[kKwW万千]|块钱?|元)?|[一二两三四五六七八九十百千万]+(?:块钱?|元)?)"
)
_AMOUNT_EN = (
    r"(?:[$£€¥]\s?)?\d[\d,.]*\s*(?:k|grand|bucks|dollars|pounds|quid|euros|yuan|rmb|usd|eur|gbp)?"
)
_PERIOD_ZH = r"(?:每个?月|一个月|每年|一年|一月)"
_PERIOD_EN = r"(?:\s+(?:a|per|each|every)\s+(?:month|year|week)|\s*/\s*(?:mo|month|yr|year)|\s+monthly|\s+yearly)"
_HEDGE_ZH = r"(?:大概|差不多|大约|将近|快|才|就|只有|有|是|能拿|拿|到手|税后|税前)"

# When it holds (现在, 目前): the amount is still the one value; the word is not kept.
_NOW_ZH = r"(?:现在|目前|如今|眼下|这两年|今年)*"
_MONEY_ZH = re.compile(
    rf"^{_NOW_ZH}(?P<pre>{_PERIOD_ZH})?(?P<what>{'|'.join(sorted(_KIND_ZH, key=len, reverse=True))})"
    rf"(?P<how>(?:{_PERIOD_ZH}|{_HEDGE_ZH})*)\s*(?P<amt>{_AMOUNT_ZH})(?P<post>(?:左右|上下|多)?)$"
)
# 一个月到手八千左右, 每个月能挣一万多: what one earns said by its verb, with its period.
_EARN_ZH = re.compile(
    rf"^{_NOW_ZH}(?P<pre>{_PERIOD_ZH})(?P<how>(?:{_HEDGE_ZH}|能|可以)*(?:到手|挣|赚|拿到手|拿)(?:{_HEDGE_ZH})*)"
    rf"\s*(?P<amt>{_AMOUNT_ZH})(?P<post>(?:左右|上下|多)?)$"
)
_MONEY_EN = re.compile(
    rf"^(?:my\s+|our\s+)?(?P<what>rent|salary|mortgage|income|take-home(?:\s+pay)?|pay)\s+(?:is|'s|was|comes\s+to)\s+"
    rf"(?:about|around|roughly|like|only|just)?\s*(?P<amt>{_AMOUNT_EN})(?P<per>{_PERIOD_EN})?(?:\s+(?:before|after)\s+tax)?$"
    rf"|^(?:earn|make|take\s+home|bring\s+home|clear)\s+(?:about|around|roughly|like|only|just)?\s*"
    rf"(?P<amt2>{_AMOUNT_EN})(?P<per2>{_PERIOD_EN})?(?:\s+(?:before|after)\s+tax)?$"
    rf"|^pay\s+(?:about|around|roughly|like|only|just)?\s*(?P<amt3>{_AMOUNT_EN})(?P<per3>{_PERIOD_EN})?\s+(?:in|for)\s+(?P<what3>rent|(?:the\s+)?mortgage)$",
    re.IGNORECASE,
)


# A budget for what one is buying or planning (买电脑预算八千左右, 装修预算控制在20万以内,
# budget is $1500, my budget for the trip is about 2k): one at a time, the newest said.
_BUDGET_ZH = re.compile(
    rf"^{_NOW_ZH}(?P<for>[\u4e00-\u9fffA-Za-z0-9]{{0,8}}?)(?:的)?(?:总)?预算"
    rf"(?:其实|实际上|实际|应该|是|在|大概|大约|差不多|控制在|就|有|只有|最多|顶多|也就|不超过|改成|改到|调到|降到|提到|提高到|变成|缩到)*"
    rf"\s*(?P<amt>{_AMOUNT_ZH})(?P<post>(?:左右|上下|以内|以下|之内|内|多|出头)?)(?:了|啦)?$"
)
# budget is $1500; budget around $1500 (no verb, in a list of wishes); budget's 2k for the
# trip; $1000 max (a correction's value, read in place of the old amount).
_BUDGET_EN = re.compile(
    rf"^(?:my\s+|the\s+|our\s+)?(?:total\s+)?budget(?:\s+for\s+(?:the\s+|a\s+|my\s+)?(?P<for>[\w -]{{1,20}}?))?(?:\s+(?:is|was|of|at)\s+|'s\s+|\s*[:：]\s*|\s+(?=about|around|roughly|max|up\s+to|under|[$£€¥]|\d))"
    rf"(?:about|around|roughly|like|only|just|max|up\s+to|under)?\s*(?P<amt>{_AMOUNT_EN})"
    rf"(?P<post>\s+(?:max|tops|or\s+less|at\s+most|ish))?(?:\s+for\s+(?:the\s+|a\s+|my\s+)?(?P<for2>[\w -]{{1,20}}?))?(?:\s+now)?$",
    re.IGNORECASE,
)


# A budget for one evening or one meal (今晚请部门吃饭，预算两千) passes with it: not kept.
_ONE_OFF = re.compile(
    r"今晚|今天|明天|这顿|这一顿|今儿|\b(?:tonight|today|tomorrow)\b", re.IGNORECASE
)


class MoneyFrames(FactBuilder):
    """Rent, income and mortgage of a statement's subject."""

    def _money_zh(self, st: Statement, body: str) -> list[Finding]:
        said_body = re.sub(r"[吧啊呢哦呀啦]+$", "", body.strip(" 。.!！~"))
        m = _MONEY_ZH.match(said_body) or _EARN_ZH.match(said_body)
        if m is None or st.negated:
            return []
        said = f"{m['pre'] or ''}{m['how'] or ''}{m['amt']}{m['post'] or ''}".strip()
        said = re.sub(r"^(?:是|有)", "", said)
        what = m.groupdict().get("what") or "收入"
        return [self._money(st, _KIND_ZH[what], what, said, f"{{who}}的{what}：{said}")]

    def _budget_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _BUDGET_ZH.match(re.sub(r"[吧啊呢哦呀啦]+$", "", body.strip(" 。.!！~")))
        if m is None or st.negated or st.subject.kind == "person" or _ONE_OFF.search(st.sentence):
            return []
        said = f"{m['amt']}{m['post']}"
        what = f"{m['for']}预算" if m["for"] else "预算"
        return [self._money(st, "budget", what, said, f"{{who}}的{what}：{said}")]

    def _budget_en(self, st: Statement, body: str) -> list[Finding]:
        m = _BUDGET_EN.match(body.strip(" .!~"))
        if m is None or st.negated or st.subject.kind == "person" or _ONE_OFF.search(st.sentence):
            return []
        said = f"{m['amt']}{m['post'] or ''}".strip()
        purpose = m["for"] or m["for2"]
        what = f"budget for {purpose.strip()}" if purpose else "budget"
        return [self._money(st, "budget", what, said, f"{{who}}: {what} {said}")]

    def _money_en(self, st: Statement, body: str) -> list[Finding]:
        m = _MONEY_EN.match(body.strip(" .!~"))
        if m is None or st.negated:
            return []
        amount = m["amt"] or m["amt2"] or m["amt3"]
        per = (m["per"] or m["per2"] or m["per3"] or "").strip()
        said = f"{amount} {per}".strip()
        word = (m["what"] or m["what3"] or "take-home pay").casefold()
        word = re.sub(r"^the\s+", "", word)
        kind = _KIND_EN.get(word.split()[0], "income")
        return [self._money(st, kind, word, said, f"{{who}}: {word} {said}")]

    def _money(self, st: Statement, kind: str, word: str, said: str, title: str) -> Finding:
        return self.fact(
            st,
            kind,
            said,
            title,
            title,
            category=["个人", "财务"],
            importance=0.8,
            tags=["财务" if st.zh else "money"],
            entities=[word],
        )
