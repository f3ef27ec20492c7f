"""A trip the user plans, with where and when."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import ADV_ZH, english_place
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement
from ekko_memory.service.extraction.time_expressions import TimeMention

_TRAVEL_ZH = re.compile(
    rf"^{ADV_ZH}(?:要|会|打算|准备|计划|将|想)?(?:带[\u4e00-\u9fff]{{1,5}}?|和[\u4e00-\u9fff]{{1,5}}?|跟[\u4e00-\u9fff]{{1,5}}?)?(?:一起)?(?:去|飞|到|回|飞去|坐高铁去|开车去|出发去)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}}?)(?:出差|旅游|旅行|玩|度假|探亲|开会|参加|看|拜年|过年|过节|办事|考察|学习|进修|培训|住|待|呆|转转|逛逛|走走|避暑|过冬|滑雪|爬山|徒步|了|$|，)"
    rf"|^{ADV_ZH}(?:要|会|打算|准备|计划)?(?:出差|旅游|度假)(?:去)?(?P<v2>[\u4e00-\u9fffA-Za-z]{{2,10}}?)(?:了|$)"
    # 下周一到周三我在上海出差: where one will be, away on a trip, at a time to come.
    rf"|^{ADV_ZH}(?:我)?(?:要|会|得)?在(?P<v3>[\u4e00-\u9fffA-Za-z]{{2,10}}?)(?:出差|旅游|旅行|度假|开会|培训|参会)"
)

_TRAVEL_EN = re.compile(
    r"^(?:am|are|will\s+be|'ll\s+be)?\s*(?:going|flying|traveling|travelling|heading|driving|off|leaving|moving|taking\s+a\s+trip|visiting)\s+(?:(?:back\s+home|out|over|back|down|up|away|home)\s+)?(?:to\s+|for\s+)?(?P<v>[A-Z][\w .'-]*?)(?=\s+(?:on|in|next|this|for|from|at|by|tomorrow|today|tonight|with|and)\b|$)"
    r"|^(?:have|has)?\s*(?:booked|got|have)\s+(?:a|my|our|the)\s+(?:flight|trip|ticket|tickets|train)\s+to\s+(?P<v2>[A-Z][\w .'-]*?)(?=\s+(?:on|in|next|this|for|from|at|by|tomorrow|with|and)\b|$)"
    r"|^(?:will|'ll|am\s+going\s+to|plan\s+to|want\s+to|gonna)\s+(?:visit|go\s+to|fly\s+to|travel\s+to|be\s+in)\s+(?P<v3>[A-Z][\w .'-]*?)(?=\s+(?:on|in|next|this|for|from|at|by|tomorrow|with|and)\b|$)",
    re.IGNORECASE,
)


# Where one goes back to, said as what it is to them (回老家, 回娘家).
_HOME_ZH = ("老家", "娘家", "婆家", "家乡", "外婆家", "奶奶家", "姥姥家")


# What one does on a trip (住几天, 玩, 度假), not an errand (看病, 开会, 办事).
_STAY_AFTER_ZH = re.compile(r"(?:住|待|呆|玩|旅游|旅行|度假|避暑|过冬|滑雪|转转|逛逛|走走|探亲)")
_NOT_TRIPS_ZH = frozenset(
    {"公司", "单位", "学校", "医院", "超市", "商场", "银行", "健身房", "朋友", "同学"}
)


def travel_plan(st: Statement, times: list[TimeMention]) -> Finding | None:
    """A trip the user plans (下个月去日本, flying to Tokyo next Friday): where and when, kept
    until a day after it (a trip said without a time is no plan we can date: not read)."""
    if st.subject.kind not in ("self", "we", "none") or st.negated:
        return None
    when = next(
        (
            t
            for t in times
            if t.role in ("point", "deadline") and not t.past and t.starts is not None
        ),
        None,
    )
    if when is None or when.ends is None:
        return None
    # 下周一到周三, Monday to Wednesday: the trip lasts to the end of the range.
    last = _range_end(st, times, when)
    text = st.body
    for t in (when, last):
        if t is not None:
            text = text.replace(t.text, " ")
    text = re.sub(r"^\s*(?:到|至|-|~|～|to|through|till|until)\s*", "", text.strip()).strip()
    m = (_TRAVEL_ZH if st.zh else _TRAVEL_EN).match(re.sub(r"\s+", " ", text).strip())
    if m is None:
        return None
    raw = next((m[g] for g in ("v", "v2", "v3") if m.groupdict().get(g)), "")
    place = w.place_at_start(w.clean_zh(raw)) if st.zh else english_place(w.clean_en(raw))
    if st.zh and not place:
        # 五一回老家: home, named by what it is to the user.
        place = next((h for h in _HOME_ZH if w.clean_zh(raw).startswith(h)), "")
    if st.zh and not place and _STAY_AFTER_ZH.match(text[text.find(raw) + len(raw) :]):
        # 去大理住几天, 去三亚玩: one word the segmenter does not know for a place, between
        # "go" and what one does on a trip, is where one goes.
        words = w.tag(raw)
        if (
            len(words) == 1
            and words[0][1].startswith("n")
            and raw not in _NOT_TRIPS_ZH
            and not re.search(r"[家店馆院场园房厅吧楼]$", raw)  # 朋友家, 游乐园: a visit, no trip
        ):
            place = raw
    if not place:
        return None
    starts = when.starts
    assert starts is not None  # a point or a deadline always has its day
    ends = last.ends if last is not None and last.ends is not None else when.ends
    day = _when_words(starts, ends, st.zh)
    # 周六才回北京: going back is no trip out.
    back = st.zh and re.search(rf"回{re.escape(raw[:2])}", text) is not None
    title = f"{day}{'回' if back else '去'}{place}" if st.zh else f"Trip to {place} ({day})"
    return Finding(
        type="fact",
        domain="个人",
        category=["个人", "出行"],
        key="travel_plan",
        value={"destination": place, "when": starts.date().isoformat()},
        title=title,
        content=st.text,
        statement=st,
        scope="user",
        expires_at=ends + timedelta(days=1),
        tags=["出行" if st.zh else "travel"],
        entities=[place],
        importance=0.8,
        reason="a trip the user plans",
    )


def _range_end(st: Statement, times: list[TimeMention], when: TimeMention) -> TimeMention | None:
    """The time that closes a range opened by ``when`` (下周一到周三, Monday to Wednesday)."""
    after = [t for t in times if t.start >= when.end and t.ends is not None]
    if not after or when.ends is None:
        return None
    nxt = after[0]
    between = st.text[when.end : nxt.start] if when.end <= len(st.text) else ""
    if not _RANGE.fullmatch(between.strip()) or nxt.ends is None or nxt.ends < when.ends:
        return None
    return nxt


_RANGE = re.compile(r"到|至|-|–|~|～|to|through|thru|till|until", re.IGNORECASE)


def _when_words(starts: datetime, ends: datetime, zh: bool) -> str:
    """When the trip is, as said: a day (3月12日, Mar 12), a whole month (4月, April) or the
    days of a holiday (5月1日—5月5日) — never one day picked out of a month."""
    last = ends.date()
    if last == starts.date():
        return f"{starts.month}月{starts.day}日" if zh else f"{starts.strftime('%b')} {starts.day}"
    if starts.day == 1 and (last + timedelta(days=1)).day == 1 and last.month == starts.month:
        return f"{starts.month}月" if zh else starts.strftime("%B")
    if zh:
        return f"{starts.month}月{starts.day}日—{last.month}月{last.day}日"
    return f"{starts.strftime('%b')} {starts.day}–{last.strftime('%b')} {last.day}"
