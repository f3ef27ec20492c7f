"""How the user gets to work or school (I cycle to work; I take the train to the office now;
我每天坐地铁上班): one way at a time, so a new one said later replaces the old."""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement

_VEHICLE_EN = r"(?:train|bus|tube|subway|metro|ferry|tram|underground|shuttle|light rail)"
_COMMUTE_EN = re.compile(
    r"^(?:(?:usually|normally|always|mostly|now|just|still|actually)\s+)*"
    rf"(?P<how>cycle|bike|drive|walk|run|carpool|scooter|skate|commute\s+by\s+\w+|"
    rf"(?:take|get|catch|ride)\s+(?:the\s+|a\s+)?{_VEHICLE_EN}|ride\s+(?:my|a)\s+(?:bike|scooter|motorbike))"
    r"\s+(?:in\s+)?(?:to|into)\s+(?:work|the\s+office|school|uni|college|campus|the\s+hospital)\b",
    re.IGNORECASE,
)
_COMMUTE_ZH = re.compile(
    r"^(?:每天|平时|一般|现在|都|通常|基本|改|改成|换成)*"
    r"(?P<how>骑车|骑自行车|骑电动车|骑电驴|开车|坐地铁|坐公交|坐公交车|搭地铁|挤地铁|坐班车|走路|步行|打车|坐高铁|坐火车)"
    r"(?:去|上)?(?:上班|上学|通勤|公司|单位|学校)"
)


def commute(st: Statement) -> Finding | None:
    """The user's way to work or school the clause states, or None."""
    if st.subject.kind not in ("self", "none") or st.negated or not st.is_claim:
        return None
    body = st.body.strip()
    m = _COMMUTE_ZH.match(body) if st.zh else _COMMUTE_EN.match(body)
    if m is None or any(t.past or t.role == "point" for t in st.times):
        return None  # 今天打车去公司: one day, no habit
    how = m["how"] if st.zh else re.sub(r"\s+", " ", m["how"].casefold())
    said = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
    said = re.sub(r"^(?:actually|well|so|oh|btw|anyway|also|and)\b[,\s]*", "", said, flags=re.I)
    return Finding(
        type="fact",
        domain="个人",
        category=["个人", "习惯"],
        key="commute",
        value=how,
        title=said if len(said) <= 60 else said[:59] + "…",
        content=st.text,
        statement=st,
        scope="user",
        tags=["通勤" if st.zh else "commute"],
        entities=[how],
        importance=0.7,
        reason="how the user gets to work",
    )
