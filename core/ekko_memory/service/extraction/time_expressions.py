"""Time expressions in Chinese and English: when a statement holds, is due, or happens.

周五前要交 (a deadline: Friday), 下周三去看牙医 (an event: next week's Wednesday), 25号下午
(the 25th, afternoon), 今天有点累 (a state of today), 最近胃不好 (a state of these days),
每周二健身 (a routine), by Friday, next Wednesday at 3pm, until the 15th, this weekend, lately.

A small grammar, not a library: jionlp parses Chinese times well but weighs 218 MB with its
segmenter and prints to stdout on import (an MCP server speaks JSON there), and misses
下个月 and 月底之前; dateparser reads "may" as May, misses "this weekend" and "the end of
the month", and barely reads Chinese (bench/README.md, extraction section).

Everything is computed in local time from the instant given (the service clock), so 今天
ends at the user's midnight. Past times (昨天, last week) are found too, marked ``past``:
a statement about yesterday is no plan and no state of now.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta
from typing import Literal

Role = Literal["point", "deadline", "until", "state", "recurring"]

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_CN_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
_WEEKDAY_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_WEEKDAY_EN = {
    "mon": 0,
    "tue": 1,
    "tues": 1,
    "wed": 2,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
}
_MONTH_EN = {m.casefold(): i for i, m in enumerate(calendar.month_name) if m} | {
    m.casefold(): i for i, m in enumerate(calendar.month_abbr) if m
}
_MONTH_EN["sept"] = 9


# Holidays by their dates: (month, day, days long); lunar ones by year.
_HOLIDAYS_FIXED = {
    "五一": (5, 1, 5),
    "劳动节": (5, 1, 5),
    "国庆": (10, 1, 7),
    "十一假期": (10, 1, 7),
    "十一长假": (10, 1, 7),
    "元旦": (1, 1, 1),
    "清明": (4, 4, 3),
    "圣诞": (12, 25, 1),
    "圣诞节": (12, 25, 1),
    "平安夜": (12, 24, 1),
    "情人节": (2, 14, 1),
    "暑假": (7, 1, 62),
    "寒假": (1, 20, 30),
    "christmas": (12, 25, 1),
    "christmas eve": (12, 24, 1),
    "new year's day": (1, 1, 1),
    "new year's eve": (12, 31, 1),
    "new year": (1, 1, 1),
    "halloween": (10, 31, 1),
    "valentine's day": (2, 14, 1),
    "may day": (5, 1, 1),
    "summer holidays": (7, 15, 45),
    "summer break": (6, 15, 75),
}
_HOLIDAYS_LUNAR = {
    "春节": {2026: (2, 17), 2027: (2, 6), 2028: (1, 26), 2029: (2, 13), 2030: (2, 3)},
    "过年": {2026: (2, 17), 2027: (2, 6), 2028: (1, 26), 2029: (2, 13), 2030: (2, 3)},
    "端午": {2026: (6, 19), 2027: (6, 9), 2028: (5, 28), 2029: (6, 16), 2030: (6, 5)},
    "中秋": {2026: (9, 25), 2027: (9, 15), 2028: (10, 3), 2029: (9, 22), 2030: (9, 12)},
}
_HOLIDAY_RE = re.compile(
    "|".join(
        sorted((re.escape(h) for h in [*_HOLIDAYS_FIXED, *_HOLIDAYS_LUNAR]), key=len, reverse=True)
    ),
    re.IGNORECASE,
)


def _holidays(text: str, now: datetime) -> list[TimeMention]:
    """五一, 国庆, 春节, Christmas: the holiday's next days (lunar ones from a table of years)."""
    out = []
    for m in _HOLIDAY_RE.finditer(text):
        name = m.group().casefold()
        if name.isascii() and not re.match(r"\b", text[m.start() :]):
            continue
        for year in (now.year, now.year + 1):
            if name in _HOLIDAYS_FIXED:
                month, day, days = _HOLIDAYS_FIXED[name]
            elif year in _HOLIDAYS_LUNAR.get(m.group(), {}):
                month, day = _HOLIDAYS_LUNAR[m.group()][year]
                days = 7 if m.group() in ("春节", "过年") else 3
            else:
                continue
            start = now.replace(
                year=year, month=month, day=day, hour=0, minute=0, second=0, microsecond=0
            )
            end = _day_span(start + timedelta(days=days - 1))[1]
            if end >= now:
                out.append(TimeMention(m.group(), m.start(), m.end(), "point", start, end))
                break
    return out


def cn_number(text: str) -> int | None:
    """一 → 1, 十五 → 15, 二十三 → 23, 两 → 2, 15 → 15 (up to 99); None if not a number."""
    if text.isdigit():
        return int(text)
    if not text or any(c not in _CN_DIGITS and c != "十" for c in text):
        return None
    if "十" not in text:
        return _CN_DIGITS[text] if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    high = _CN_DIGITS.get(tens, 0) if tens else 1
    low = _CN_DIGITS.get(ones, 0) if ones else 0
    return high * 10 + low


@dataclass(frozen=True)
class TimeMention:
    """A time expression found in a text.

    ``starts``/``ends``: the local span it names (a day: 00:00 to 23:59:59; a clock time:
    that minute; a state: now until it ends). ``role``: how the statement uses it — a
    ``deadline`` (周五前, by Friday), an ``until`` (到周五为止), a ``state`` bound (今天,
    最近, this week), a ``recurring`` time (每周二), else a ``point`` (下周三, tomorrow at 3).
    """

    text: str
    start: int
    end: int
    role: Role
    starts: datetime | None
    ends: datetime | None
    has_clock: bool = False
    past: bool = False


def _day_span(day: datetime) -> tuple[datetime, datetime]:
    start = day.replace(hour=0, minute=0, second=0, microsecond=0)
    return start, start.replace(hour=23, minute=59, second=59)


def _week_start(now: datetime) -> datetime:
    return (now - timedelta(days=now.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)


def _month_end(year: int, month: int, now: datetime) -> datetime:
    last = calendar.monthrange(year, month)[1]
    return now.replace(
        year=year, month=month, day=last, hour=23, minute=59, second=59, microsecond=0
    )


def _add_months(now: datetime, months: int) -> tuple[int, int]:
    index = now.year * 12 + now.month - 1 + months
    return index // 12, index % 12 + 1


def _safe_day(now: datetime, year: int, month: int, day: int) -> datetime | None:
    try:
        return now.replace(
            year=year, month=month, day=day, hour=0, minute=0, second=0, microsecond=0
        )
    except ValueError:
        return None


def _next_date_with_day(now: datetime, day: int) -> datetime | None:
    """The next 25th (this month's if it has not passed, else next month's)."""
    for months in range(0, 3):
        year, month = _add_months(now, months)
        found = _safe_day(now, year, month, day)
        if found is not None and found.date() >= now.date():
            return found
    return None


def _month_day(now: datetime, month: int, day: int) -> datetime | None:
    """March 5 said in a year: this year's, or next year's when this year's has passed
    more than a month ago (a date just gone is still this year's: 'the 1st' said late)."""
    found = _safe_day(now, now.year, month, day)
    if found is not None and found < now - timedelta(days=31):
        found = _safe_day(now, now.year + 1, month, day)
    return found


# --- parts of the day and clock times ----------------------------------------------------

_PART_ZH = {
    "凌晨": (2, 5),
    "早上": (7, 9),
    "早晨": (7, 9),
    "清早": (6, 8),
    "一早": (7, 9),
    "上午": (9, 12),
    "中午": (12, 13),
    "下午": (13, 18),
    "傍晚": (17, 19),
    "晚上": (18, 23),
    "晚": (18, 23),
    "夜里": (21, 23),
    "半夜": (23, 23),
    "早": (7, 9),
}
_PART_EN = {
    "morning": (7, 12),
    "noon": (12, 13),
    "afternoon": (13, 18),
    "evening": (18, 23),
    "night": (19, 23),
    "tonight": (18, 23),
}


def _at_clock(day: datetime, hour: int, minute: int, part: str | None) -> datetime:
    if part in (
        "下午",
        "晚上",
        "傍晚",
        "晚",
        "夜里",
        "afternoon",
        "evening",
        "night",
        "tonight",
        "pm",
    ):
        if hour < 12:
            hour += 12
    elif part in ("半夜", "凌晨") and hour == 12:
        hour = 0
    return day.replace(hour=hour % 24, minute=minute, second=0, microsecond=0)


# --- Chinese ----------------------------------------------------------------------------

_NUM = r"(?:\d{1,2}|[一二三四五六七八九十两]{1,3})"
_ZH_DAY = (
    r"(?P<rel>大后天|后天|明天|明儿|明日|明早|明晚|今天|今日|今儿|今晚|今早|今夜|昨天|昨晚|昨日|前天)"
    r"|(?P<wk>(?P<wkrel>下下|下|这|本|上)?(?:个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天末])(?![件个次项样份种条门本位名场节趟顿把台辆套])(?<!周天(?=天))(?<!期天(?=天))(?<!拜天(?=天)))"
    r"|(?P<md>(?:(?P<mrel>下|这|本|上)个?月|(?P<mon>"
    + _NUM
    + r")月)(?P<mday>"
    + _NUM
    + r")(?:号|日)?)(?![\d月])"
    r"|(?P<dd>(?<![\d月])(?P<day>" + _NUM + r")(?:号|日)(?!子|本|语|元|记))"
    r"|(?P<mpart>(?P<mprel>下|这|本|上)?个?月(?P<edge>底|初|中))"
    r"|(?P<ye>年底|年末|年初)"
    r"|(?P<after>(?P<n>" + _NUM + r"|几|两)(?P<unit>天|周|个星期|个礼拜|个月)(?:后|之后|以后))"
    r"|(?P<soon>过(?:两|几|一两)天)"
    r"|(?P<nextm>下个?月|下下个?月)"
    r"|(?P<nextw>下周|下星期|下礼拜)"
)
_ZH_CLOCK = re.compile(
    r"(?P<part>凌晨|早上|早晨|清早|一早|上午|中午|下午|傍晚|晚上|夜里|半夜)?"
    r"(?P<h>\d{1,2}|[一二三四五六七八九十两]{1,3})(?:点|:|：|时)(?P<m>半|一刻|三刻|\d{1,2}分?|[一二三四五六七八九十]{1,3}分)?"
)
_ZH_PART = re.compile(r"(?P<part>凌晨|早上|早晨|清早|一早|上午|中午|下午|傍晚|晚上|夜里|半夜)")
_ZH_DAY_RE = re.compile(_ZH_DAY)
# A state of now: 今天/今晚 (till midnight), 这几天 (a few days), 最近 (a couple of weeks: a
# state one says has lasted a while lasts a while more), 这周 (the week), 这个月.
LASTING_DAYS = 14
_ZH_STATE = re.compile(
    r"(?P<lasting>最近|近来|近期|这阵子|这阵|这段时间)"
    r"|(?P<days>这几天|这两天|这些天|暂时|临时|目前|眼下|近日)"
    # 这周天天加班: this week, every day (not this Sunday); 这周三件事: three things this week.
    r"|(?P<week>这周|这个星期|这星期|这礼拜|本周|这一周)(?![一二三四五六日末](?![件个次项样份种条门本位名场节趟顿把台辆套]))(?!天(?!天|[件个次项样份种条门本位名场节趟顿把台辆套]))"
    r"|(?P<month>这个月|本月|这一个月)(?!\d|[一二三四五六七八九十两]|底|初)"
)
# 一般 of "usually" opens what is done (我一般七点起); 英语一般, 很一般 (so-so) ends its clause.
_ZH_RECUR = re.compile(
    r"每(?:天|日|晚|早|周|星期|礼拜|个?月|年|逢|隔|个?工作日|次)|天天|工作日|周一到周五|平时|平常|通常|(?<![很挺较常别超太也都还])一般(?!般|[的吧啊呀了吗呢]*(?:$|[，,。.!！?？；;、\s]))|经常|总是|向来|习惯(?=[\u4e00-\u9fff]{2})(?!了)|偶尔|有时候?|时不时|常常"
    r"|一(?:周|个星期|个月)[一两二三四五六七\d]+次"
)
# How long a state lasts (两周内不能跑步, no running for two weeks): it ends then.
_ZH_N = r"(?P<n>\d+|[一二两三四五六七八九十几半])(?P<unit>天|周|个星期|个礼拜|个月)"
# How long something holds: 两周不能跑步; 接下来三周 (the weeks to come); 药要吃七天 (a
# course taken for a span). A span after other verbs (加班了五天, 每周三天) says no end.
_ZH_DURATIONS = (
    re.compile(_ZH_N + r"(?:内|之内|左右)?(?=不|别|都|要|得|没|只)"),
    # 这两周, 这几个月: the weeks now running, as 接下来 (这两天 is a state of its own).
    re.compile(
        r"(?:接下来|未来|之后|往后|今后|这(?=(?:两|几|\d+)(?:周|个星期|个礼拜|个月)))的?\s*"
        + _ZH_N
        + r"(?:内|之内|里)?"
    ),
    re.compile(
        # 医生让我休息三天: what someone has the user do for a span is a must too.
        r"(?P<lead>(?:要|得|需要|还要|还得|必须|让我|叫我|要我)(?:连着|连续|在家|好好)?"
        r"(?:吃|打|用|涂|喝|敷|休息|休养|请假|住院|静养|卧床|隔离|禁食|戒|停)药?)"
        + _ZH_N
        + r"(?![前后以])"
    ),
)
_EN_DURATION = re.compile(
    r"\bfor\s+(?:(?:about\s+|around\s+|roughly\s+|another\s+|the\s+next\s+)?"
    r"(?P<n>\d+|a|one|two|three|four|five|six|seven|ten|a\s+couple\s+of|a\s+few|few)"
    r"|the\s+(?P<n1>next|coming))\s+(?P<unit>days?|weeks?|months?)\b",
    re.IGNORECASE,
)
_ZH_DEADLINE_AFTER = re.compile(r"^\s*(?:之前|以前|前|截止|为止|到期|内)")
_ZH_DEADLINE_BEFORE = re.compile(r"(?:截止(?:到|日期是|时间是)?|最晚|最迟|不晚于|赶在)\s*$")
_ZH_UNTIL_BEFORE = re.compile(r"(?:到|直到|一直到)\s*$")
_ZH_UNTIL_AFTER = re.compile(r"^\s*(?:为止|之前都|前都)")


def _zh_day(m: re.Match[str], now: datetime) -> tuple[datetime | None, datetime | None, bool]:
    """(start, end, past) of the day (or span) one match of _ZH_DAY names."""
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if m["rel"]:
        rel = m["rel"]
        offset = (
            3
            if rel == "大后天"
            else 2
            if rel == "后天"
            else 1
            if rel[0] == "明"
            else -1
            if rel[0] == "昨"
            else -2
            if rel == "前天"
            else 0
        )
        start, end = _day_span(today + timedelta(days=offset))
        if rel in ("今晚", "今夜", "明晚", "昨晚"):
            start = start.replace(hour=18)
        return start, end, offset < 0
    if m["wk"]:
        week = _week_start(now)
        rel = m["wkrel"] or ""
        shift = {"下下": 14, "下": 7, "上": -7}.get(rel, 0)
        wd = _WEEKDAY_ZH[m["wd"]]
        day = week + timedelta(days=shift + wd)
        if not rel and day.date() <= now.date():
            # 周三 said on a Thursday is next week's (people say 上周三 for the past one,
            # 今天 for today).
            day += timedelta(days=7)
        start, end = _day_span(day)
        if m["wd"] == "末":
            end = _day_span(day + timedelta(days=1))[1]
        return start, end, rel == "上"
    if m["md"]:
        day_n = cn_number(m["mday"]) or 0
        if m["mon"]:
            month = cn_number(m["mon"]) or 0
            found = _month_day(now, month, day_n) if 1 <= month <= 12 else None
        else:
            shift = {"下": 1, "上": -1}.get(m["mrel"] or "", 0)
            year, month = _add_months(now, shift)
            found = _safe_day(now, year, month, day_n)
        if found is None:
            return None, None, False
        start, end = _day_span(found)
        return start, end, found.date() < now.date()
    if m["dd"]:
        day_n = cn_number(m["day"]) or 0
        found = _next_date_with_day(now, day_n) if 1 <= day_n <= 31 else None
        if found is None:
            return None, None, False
        return (*_day_span(found), False)
    if m["mpart"]:
        shift = {"下": 1, "上": -1}.get(m["mprel"] or "", 0)
        year, month = _add_months(now, shift)
        first = now.replace(
            year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0
        )
        if m["edge"] == "底":
            end = _month_end(year, month, now)
            return end.replace(hour=0, minute=0, second=0) - timedelta(days=4), end, shift < 0
        if m["edge"] == "初":
            return first, first + timedelta(days=5, hours=23, minutes=59, seconds=59), shift < 0
        return (
            first + timedelta(days=12),
            first + timedelta(days=17, hours=23, minutes=59),
            shift < 0,
        )
    if m["ye"]:
        if m["ye"] == "年初":
            start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
            if start < now:
                start = start.replace(year=now.year + 1)
            return start, start + timedelta(days=31), False
        end = now.replace(month=12, day=31, hour=23, minute=59, second=59, microsecond=0)
        return end - timedelta(days=14), end, False
    if m["after"]:
        n = 3 if m["n"] == "几" else cn_number(m["n"]) or 2
        unit = m["unit"]
        if unit == "天":
            day = today + timedelta(days=n)
        elif unit == "个月":
            year, month = _add_months(now, n)
            day = _safe_day(now, year, month, min(now.day, 28)) or today
        else:
            day = today + timedelta(days=7 * n)
        return (*_day_span(day), False)
    if m["soon"]:
        return today + timedelta(days=1), _day_span(today + timedelta(days=3))[1], False
    if m["nextm"]:
        year, month = _add_months(now, 2 if m["nextm"].startswith("下下") else 1)
        first = now.replace(
            year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0
        )
        return first, _month_end(year, month, now), False
    if m["nextw"]:
        start = _week_start(now) + timedelta(days=7)
        return start, start + timedelta(days=6, hours=23, minutes=59, seconds=59), False
    return None, None, False


def _zh_clock(text: str, pos: int, day: datetime) -> tuple[datetime, int] | None:
    """A clock time (下午3点半) right after ``pos`` (after a day word), on ``day``."""
    m = _ZH_CLOCK.match(text, pos)
    if m is None:
        return None
    hour = cn_number(m["h"])
    if hour is None or hour > 24:
        return None
    mm = m["m"] or ""
    minute = (
        30
        if mm == "半"
        else 15
        if mm == "一刻"
        else 45
        if mm == "三刻"
        else cn_number(mm.rstrip("分")) or 0
    )
    # 明天三点开会: an hour from one to six said with no part of the day is the afternoon's.
    morning = re.search(r"[早晨凌]|上午", text[max(0, pos - 3) : pos]) is not None  # 明早六点
    # 今晚十点, 明晚八点: the evening said in the day word is the part of the day.
    evening = re.search(r"晚$|夜$", text[max(0, pos - 2) : pos]) is not None
    part = m["part"] or ("晚上" if evening else "下午" if 1 <= hour <= 6 and not morning else None)
    return _at_clock(day, hour, min(minute, 59), part), m.end()


def _role_zh(text: str, start: int, end: int) -> Role:
    after, before = text[end : end + 6], text[max(0, start - 6) : start]
    if _ZH_UNTIL_BEFORE.search(before) and re.match(r"^\s*(?:之前|以前|前)?(?:都|一直)", after):
        return "until"  # 到15号之前都轮到我值班
    if _ZH_UNTIL_AFTER.match(after) or (
        _ZH_UNTIL_BEFORE.search(before) and not _ZH_DEADLINE_AFTER.match(after)
    ):
        return "until"
    if _ZH_DEADLINE_AFTER.match(after) or _ZH_DEADLINE_BEFORE.search(before):
        return "deadline"
    return "point"


def _find_zh(text: str, now: datetime) -> list[TimeMention]:
    out: list[TimeMention] = []
    taken: list[tuple[int, int]] = []
    for m in _ZH_DAY_RE.finditer(text):
        start, end, past = _zh_day(m, now)
        if start is None:
            continue
        stop = m.end()
        has_clock = False
        # 明天下午三点, 周五晚上, 25号下午: a part of the day and a clock time may follow.
        part = _ZH_PART.match(text, stop)
        clock = _zh_clock(text, stop, start)
        if clock is not None:
            start, stop, has_clock = clock[0], clock[1], True
            end = start
        elif part is not None:
            lo, hi = _PART_ZH[part["part"]]
            start = start.replace(hour=lo)
            end = start.replace(hour=hi, minute=59, second=59)
            stop = part.end()
            clock = _zh_clock(text, stop, start)
            if clock is None and m["rel"] and m["rel"][-1] in "晚早":
                pass
        role: Role = _role_zh(text, m.start(), stop)
        if m["wk"] and re.search(
            r"每个?(?:周|星期|礼拜)?$|每个?(?:周|星期|礼拜)[一二三四五六日天](?:[、和跟及到]|以及)$",
            text[max(0, m.start() - 8) : m.start()],
        ):
            role = "recurring"  # 每周二、周四: days of a routine, no date
        if m["rel"] in ("今天", "今日", "今儿", "今晚", "今夜", "今早") and role == "point":
            role = "state"
        out.append(
            TimeMention(text[m.start() : stop], m.start(), stop, role, start, end, has_clock, past)
        )
        taken.append((m.start(), stop))
    for m in _ZH_STATE.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        today = now.replace(hour=0, minute=0, second=0, microsecond=0)
        if m["lasting"]:
            end = _day_span(today + timedelta(days=LASTING_DAYS))[1]
        elif m["days"]:
            end = _day_span(today + timedelta(days=3))[1]
        elif m["week"]:
            end = _day_span(_week_start(now) + timedelta(days=6))[1]
        else:
            end = _month_end(now.year, now.month, now)
        out.append(TimeMention(m.group(), m.start(), m.end(), "state", now, end))
        taken.append((m.start(), m.end()))
    for m in _ZH_RECUR.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        out.append(TimeMention(m.group(), m.start(), m.end(), "recurring", None, None))
    # A bare clock time (3点开会) is today's, or tomorrow's once it has passed.
    for m in _ZH_CLOCK.finditer(text):
        if any(a <= m.start() < b for a, b in taken) or not (m["part"] or "点" in m.group()):
            continue
        hour = cn_number(m["h"])
        if hour is None or hour > 24:
            continue
        if not m["part"] and not m["m"] and not m["h"].isdigit():
            continue  # 小众一点, 快一点: "a bit", not one o'clock (一点半, 3点, 下午一点 are)
        clock = _zh_clock(text, m.start(), now.replace(hour=0, minute=0, second=0, microsecond=0))
        if clock is None:
            continue
        when = clock[0]
        if when < now:
            when += timedelta(days=1)
        role = _role_zh(text, m.start(), m.end())
        out.append(TimeMention(m.group(), m.start(), m.end(), role, when, when, True))
    return sorted(out, key=lambda t: t.start)


# --- English ----------------------------------------------------------------------------

_EN_WD = r"(?P<wd>mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday|sday)?\.?"
_EN_MON = r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_ORD = r"(?P<dnum>\d{1,2})(?:st|nd|rd|th)?"
_EN_DAY = re.compile(
    r"\b(?:"
    r"(?P<rel>the day after tomorrow|tomorrow|today|tonight|yesterday)"
    r"|(?P<wk>(?:(?P<wkrel>next|this|last|coming)\s+)?" + _EN_WD + r")"
    r"|(?P<wkend>(?:(?P<werel>next|this|last)\s+)?weekend)"
    r"|(?P<md>"
    + _EN_MON
    + r"\s+"
    + _ORD
    + r"|(?:the\s+)?"
    + _ORD.replace("dnum", "dnum2")
    + r"\s+(?:of\s+)?"
    + _EN_MON.replace("<mon>", "<mon2>")
    + r")"
    r"|(?P<dd>the\s+(?P<day>\d{1,2})(?:st|nd|rd|th))"
    r"|(?P<eom>(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?P<eunit>month|week|year|next\s+month|next\s+week))"
    r"|(?P<after>in\s+(?P<n>\d+|a|one|two|three|four|five|a\s+couple\s+of|a\s+few)\s+(?P<unit>days?|weeks?|months?))"
    r"|(?P<nextu>next\s+(?P<nunit>week|month|year))"
    r")\b",
    re.IGNORECASE,
)
_EN_WORD_NUM = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_EN_CLOCK = re.compile(
    r"\s*(?:at\s+)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)?(?![\d:])"
    r"|\s*(?:in\s+the\s+|this\s+)?(?P<part>morning|afternoon|evening|night|noon)\b",
    re.IGNORECASE,
)
_EN_STATE = re.compile(
    r"\b(?P<lasting>lately|recently|these days|for a while)\b"
    r"|\b(?P<days>for now|for the time being|for the moment"
    r"|for a few days|for the next few days|for a couple of days|temporarily|at the moment|right now|currently)\b"
    # all weekend, the whole week: a state that ends with this week's Sunday.
    r"|\b(?P<week>this week|all week|for the week|the whole week|all weekend|the whole weekend)\b"
    r"|\b(?P<month>this month|all month|the whole month|for the rest of the month)\b"
    r"|\b(?P<today>this (?:morning|afternoon|evening))\b",
    re.IGNORECASE,
)
_EN_RECUR = re.compile(
    r"\b(?:(?:once|twice|three\s+times|\d+\s+times)\s+a\s+(?:week|month|day)|sometimes|occasionally|often|every\s+(?:day|morning|evening|night|week|month|year|weekday|weekend|other\s+\w+|mon\w*|tue\w*|wed\w*|thu\w*|fri\w*|sat\w*|sun\w*)"
    r"|each\s+(?:day|week|month|morning)|daily|weekly|monthly|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days"
    r"|on\s+weekdays|on\s+weekends|usually|always|normally|typically|every\s+so\s+often|most\s+days)\b",
    re.IGNORECASE,
)
_EN_DEADLINE = re.compile(
    r"\b(?:by|before|due|no later than|deadline(?:\s+is)?|not later than)\s+(?:the\s+|this\s+|next\s+)?$",
    re.IGNORECASE,
)
_EN_UNTIL = re.compile(
    r"\b(?:until|till|til|through)\s+(?:the\s+|this\s+|next\s+)?$", re.IGNORECASE
)


def _en_day(m: re.Match[str], now: datetime) -> tuple[datetime | None, datetime | None, bool]:
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if m["rel"]:
        rel = m["rel"].casefold()
        offset = {"the day after tomorrow": 2, "tomorrow": 1, "yesterday": -1}.get(rel, 0)
        start, end = _day_span(today + timedelta(days=offset))
        if rel == "tonight":
            start = start.replace(hour=18)
        return start, end, offset < 0
    if m["wk"]:
        rel = (m["wkrel"] or "").casefold()
        wd = _WEEKDAY_EN[m["wd"].casefold()]
        week = _week_start(now)
        if rel == "next":
            day = week + timedelta(days=7 + wd)
        elif rel == "last":
            day = week + timedelta(days=wd - 7)
        else:
            day = week + timedelta(days=wd)
            if day.date() <= now.date():
                day += timedelta(days=7)
        return (*_day_span(day), rel == "last")
    if m["wkend"]:
        rel = (m["werel"] or "").casefold()
        sat = _week_start(now) + timedelta(
            days=5 + (7 if rel == "next" else -7 if rel == "last" else 0)
        )
        return sat, _day_span(sat + timedelta(days=1))[1], rel == "last"
    if m["md"]:
        mon = (m["mon"] or m["mon2"]).casefold().rstrip(".")
        day_n = int(m["dnum"] or m["dnum2"])
        found = _month_day(now, _MONTH_EN[mon], day_n)
        if found is None:
            return None, None, False
        return (*_day_span(found), found.date() < now.date())
    if m["dd"]:
        found = _next_date_with_day(now, int(m["day"]))
        return (None, None, False) if found is None else (*_day_span(found), False)
    if m["eom"]:
        unit = " ".join(m["eunit"].casefold().split())
        if unit.endswith("month"):
            year, month = _add_months(now, 1 if unit.startswith("next") else 0)
            end = _month_end(year, month, now)
            return end.replace(hour=0, minute=0, second=0) - timedelta(days=4), end, False
        if unit.endswith("week"):
            sunday = _week_start(now) + timedelta(days=6 + (7 if unit.startswith("next") else 0))
            return sunday - timedelta(days=2), _day_span(sunday)[1], False
        end = now.replace(month=12, day=31, hour=23, minute=59, second=59, microsecond=0)
        return end - timedelta(days=14), end, False
    if m["after"]:
        raw = " ".join((m["n"] or m.groupdict().get("n1") or "").casefold().split())
        n = (
            2
            if raw == "a couple of"
            else 3
            if raw == "a few"
            else _EN_WORD_NUM.get(raw) or int(raw)
        )
        unit = m["unit"].casefold()
        if unit.startswith("day"):
            day = today + timedelta(days=n)
        elif unit.startswith("week"):
            day = today + timedelta(days=7 * n)
        else:
            year, month = _add_months(now, n)
            day = _safe_day(now, year, month, min(now.day, 28)) or today
        return (*_day_span(day), False)
    if m["nextu"]:
        unit = m["nunit"].casefold()
        if unit == "week":
            start = _week_start(now) + timedelta(days=7)
            return start, start + timedelta(days=6, hours=23, minutes=59, seconds=59), False
        if unit == "month":
            year, month = _add_months(now, 1)
            first = now.replace(
                year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0
            )
            return first, _month_end(year, month, now), False
        first = now.replace(
            year=now.year + 1, month=1, day=1, hour=0, minute=0, second=0, microsecond=0
        )
        return first, first.replace(month=12, day=31, hour=23, minute=59, second=59), False
    return None, None, False


def _en_clock(text: str, pos: int, day: datetime) -> tuple[datetime, datetime, int, bool] | None:
    m = _EN_CLOCK.match(text, pos)
    if m is None:
        return None
    if m["part"]:
        lo, hi = _PART_EN[m["part"].casefold()]
        return day.replace(hour=lo), day.replace(hour=hi, minute=59, second=59), m.end(), False
    hour = int(m["h"])
    # A bare number after a day is a clock time only with "at", minutes or am/pm.
    if hour > 24 or not (m["ap"] or m["m"] or m.group().strip().casefold().startswith("at")):
        return None
    ap = (m["ap"] or "").casefold().replace(".", "")
    if not ap and 1 <= hour <= 6 and not re.search(r"morning\s*$", text[:pos], re.IGNORECASE):
        ap = "pm"  # interview next Thursday at 2: nobody books 2 in the morning unsaid
    when = _at_clock(day, hour, int(m["m"] or 0), "pm" if ap == "pm" else None)
    if ap == "am" and hour == 12:
        when = when.replace(hour=0)
    return when, when, m.end(), True


def _find_en(text: str, now: datetime) -> list[TimeMention]:
    out: list[TimeMention] = []
    taken: list[tuple[int, int]] = []
    for m in _EN_DAY.finditer(text):
        start, end, past = _en_day(m, now)
        if start is None:
            continue
        stop = m.end()
        clock = _en_clock(text, stop, start)
        has_clock = False
        if clock is not None:
            start, end, stop, has_clock = clock
        before = text[max(0, m.start() - 24) : m.start()]
        role: Role = (
            "deadline"
            if _EN_DEADLINE.search(before)
            else "until"
            if _EN_UNTIL.search(before)
            else "point"
        )
        if m["rel"] and m["rel"].casefold() in ("today", "tonight") and role == "point":
            role = "state"
        out.append(
            TimeMention(text[m.start() : stop], m.start(), stop, role, start, end, has_clock, past)
        )
        taken.append((m.start(), stop))
    for m in _EN_STATE.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        today = now.replace(hour=0, minute=0, second=0, microsecond=0)
        if m["lasting"]:
            end = _day_span(today + timedelta(days=LASTING_DAYS))[1]
        elif m["days"]:
            end = _day_span(today + timedelta(days=3))[1]
        elif m["week"]:
            end = _day_span(_week_start(now) + timedelta(days=6))[1]
        elif m["month"]:
            end = _month_end(now.year, now.month, now)
        else:
            end = _day_span(today)[1]
        out.append(TimeMention(m.group(), m.start(), m.end(), "state", now, end))
        taken.append((m.start(), m.end()))
    for m in _EN_RECUR.finditer(text):
        if not any(a <= m.start() < b for a, b in taken):
            out.append(TimeMention(m.group(), m.start(), m.end(), "recurring", None, None))
    return sorted(out, key=lambda t: t.start)


def _durations(text: str, now: datetime) -> list[TimeMention]:
    out: list[TimeMention] = []
    found = [m for zh in _ZH_DURATIONS for m in zh.finditer(text)]
    for m in sorted([*found, *_EN_DURATION.finditer(text)], key=lambda m: (m.start(), -m.end())):
        if any(m.start() < seen.end and seen.start < m.end() for seen in out):
            continue  # 接下来两周都…: one span, read once
        raw = " ".join((m["n"] or m.groupdict().get("n1") or "").casefold().split())
        n = {
            "a": 1,
            "one": 1,
            "two": 2,
            "three": 3,
            "four": 4,
            "five": 5,
            "six": 6,
            "seven": 7,
            "ten": 10,
            "a couple of": 2,
            "a few": 3,
            "few": 3,
            "next": 1,
            "coming": 1,
            "几": 3,
            "半": 0,
        }.get(raw)
        if n is None:
            n = cn_number(raw) or 1
        unit = m["unit"].casefold()
        days = (
            n
            * (
                1
                if unit.startswith(("天", "day"))
                else 30
                if unit.startswith(("个月", "month"))
                else 7
            )
            or 15
        )
        end = _day_span(now + timedelta(days=days))[1]
        begin = m.end("lead") if "lead" in m.re.groupindex else m.start()
        out.append(TimeMention(text[begin : m.end()], begin, m.end(), "until", now, end))
    return out


# A whole month, or a part of one (4月份, 七月底, 明年3月, in April, early May, by the end of
# June): the next such month; not a day of it (4月12号, April 12), nor 3个月 or 上个月.
_MONTH_ZH = re.compile(
    r"(?P<year>今年|明年|去年)?(?<![\d一二三四五六七八九十个上下本这每])"
    r"(?P<m>1[0-2]|[1-9]|十[一二]|[一二三四五六七八九十])月(?:份)?(?P<part>初|上旬|中旬|下旬|中|底|末)?"
    r"(?![\d一二三四五六七八九十两]|号|日|饼|亮|光|球|薪|嫂|子|经|票|卡)"
)
_MONTH_EN_SPAN = re.compile(
    r"\b(?P<lead>in|during|this|next|early|late|mid-?|(?:by |before |until |till )?(?:the )?(?:end|beginning|start|middle) of|by|before|until|till|over)\s+"
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december|sept)\b"
    r"(?!\s*,?\s*(?:the\s+)?\d)",
    re.IGNORECASE,
)
_BEEN_ZH = re.compile(r"[去来到玩吃看住]过")
_WAS_EN = re.compile(
    r"\b(?:was|were|went|visited|spent|had|did|got back|came back|moved|flew|stayed|loved|enjoyed)\b",
    re.IGNORECASE,
)
_PART_DAYS = {"初": (1, 10), "上旬": (1, 10), "中": (11, 20), "中旬": (11, 20)}


def _months(text: str, now: datetime) -> list[TimeMention]:
    """Months said whole or by a part (4月份去日本, 七月底前, Paris in April, by the end of
    June): their span, this year's or the next one's."""
    out: list[TimeMention] = []
    for m in _MONTH_ZH.finditer(text):
        month = int(m["m"]) if m["m"].isdigit() else cn_number(m["m"])
        if not month or not 1 <= month <= 12:
            continue
        year = now.year + (1 if m["year"] == "明年" else -1 if m["year"] == "去年" else 0)
        past = m["year"] == "去年" or (m["year"] == "今年" and month < now.month)
        if _BEEN_ZH.search(text):
            # 5月去过西藏: been there — a month gone, this year's or last year's.
            past = m["year"] != "明年"
            year -= 1 if m["year"] is None and month > now.month else 0
        elif m["year"] is None and month < now.month:
            year += 1
        part = m["part"] or ""
        after = text[m.end() :]
        role: Role = "deadline" if _ZH_DEADLINE_AFTER.match(after) else "point"
        out.append(_month_span(text, m.start(), m.end(), role, now, year, month, part, past))
    for m in _MONTH_EN_SPAN.finditer(text):
        word = m["mon"]
        if word.casefold() in ("may", "march") and not word[0].isupper():
            continue  # "this may be", "in march" of a parade: only the capitalised month
        month = _MONTH_EN[word.casefold()]
        lead = " ".join(m["lead"].casefold().split())
        # I was in Rome in January: a month gone (this year's, or last year's).
        gone = bool(_WAS_EN.search(text)) and lead not in ("next", "by", "before")
        year = now.year + (1 if month < now.month and not gone else 0)
        year -= 1 if gone and month > now.month else 0
        part = (
            "底"
            if "end" in lead or lead == "late"
            else "初"
            if "beginning" in lead or "start" in lead or lead == "early"
            else "中"
            if lead.startswith("mid")
            else ""
        )
        role = (
            "deadline"
            if lead.startswith(("by", "before"))
            else "until"
            if lead.startswith(("until", "till"))
            else "point"
        )
        out.append(_month_span(text, m.start(), m.end(), role, now, year, month, part, gone))
    return out


def _month_span(
    text: str,
    start: int,
    end: int,
    role: Role,
    now: datetime,
    year: int,
    month: int,
    part: str,
    past: bool,
) -> TimeMention:
    last = calendar.monthrange(year, month)[1]
    first_day, last_day = _PART_DAYS.get(part, (21, last) if part else (1, last))
    begin = now.replace(
        year=year, month=month, day=first_day, hour=0, minute=0, second=0, microsecond=0
    )
    finish = _day_span(begin.replace(day=last_day))[1]
    return TimeMention(text[start:end], start, end, role, begin, finish, past=past)


def find_times(
    text: str, now: datetime, said_before: TimeMention | None = None
) -> list[TimeMention]:
    """Every time expression in ``text``, in order, resolved against ``now`` (aware; local
    time is the machine's, as the service renders expiries). ``said_before``: the last time
    of the sentence before ``text`` (下周一开始休年假，休到周五: that Friday is the next week's)."""
    local = now.astimezone()
    found = _find_zh(text, local) if re.search(r"[\u4e00-\u9fff]", text) else []
    found += _find_en(text, local)
    taken = [(t.start, t.end) for t in found]
    spans = [d for d in _durations(text, local) if not any(a <= d.start < b for a, b in taken)]
    # for the next month: one span, not also "next month" as a date.
    found = [t for t in found if not any(d.start <= t.start and t.end <= d.end for d in spans)]
    found += spans
    taken = [(t.start, t.end) for t in found]
    found += [h for h in _holidays(text, local) if not any(a <= h.start < b for a, b in taken)]
    for month in _months(text, local):
        inside = [t for t in found if month.start <= t.start and t.end <= month.end]
        if any(month.start < t.end and t.start < month.end for t in found if t not in inside):
            continue
        # 七月底: the month said with its end, not this month's 月底.
        found = [t for t in found if t not in inside or t.text == month.text] + (
            [] if any(t.text == month.text for t in inside) else [month]
        )
    found = _one_day(sorted(found, key=lambda t: t.start), text, local)
    if said_before is not None:
        # The time said before, placed just before this text, for the span's end in it.
        anchor = replace(said_before, start=-1, end=0)
        return _in_order([anchor, *found], text)[1:]
    return _in_order(found, text)


# A weekday said alone, with nothing saying which week (周五, Friday).
_BARE_WEEKDAY = re.compile(
    r"^(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday|sday)?\.?"
    r"|(?:周|星期|礼拜)[一二三四五六日天])$",
    re.IGNORECASE,
)


_RANGE_BETWEEN = re.compile(r"到|至|~|～|-|—|\b(?:to|through|thru|till|until)\b", re.IGNORECASE)


def _in_order(found: list[TimeMention], text: str) -> list[TimeMention]:
    """下周一开始休到周五, next Tuesday through Thursday: a weekday said alone after a time
    is not before it — the end of the span is in the week it starts in."""
    out: list[TimeMention] = []
    for t in found:
        before = out[-1] if out else None
        if (
            before is not None
            and not before.past
            and before.starts is not None
            and t.starts is not None
            and t.ends is not None
            and _BARE_WEEKDAY.match(t.text.strip())
            and t.starts < before.starts
            and _RANGE_BETWEEN.search(text[max(before.end, 0) : t.start])
        ):
            weeks = timedelta(days=7 * ((before.starts - t.starts).days // 7 + 1))
            if t.starts + weeks - timedelta(days=7) >= before.starts:
                weeks -= timedelta(days=7)
            t = replace(t, starts=t.starts + weeks, ends=t.ends + weeks)
        out.append(t)
    return out


# A weekday alone (Saturday, this Sat, 周六, 这个星期六) and a day of the month (the 14th,
# March 14, 14号, 3月14日): said side by side they name one day.
_WEEKDAY_ALONE = re.compile(
    r"^(?:(?:this|next|coming)\s+)?(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
    r"(?:day|nesday|rsday|urday|sday)?\.?(?![a-z])|^(?:这|本|下)?个?(?:周|星期|礼拜)[一二三四五六日天]",
    re.IGNORECASE,
)
# A day of the month said right after a weekday without "the" (Sat 14th, Saturday 14th).
_BARE_ORDINAL = re.compile(r"\s*,?\s*(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_DAY_OF_MONTH = re.compile(
    r"(?:^|\s)(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|\d{1,2}(?:号|日)"
    r"|[一二三四五六七八九十]{1,3}(?:号|日)|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d",
    re.IGNORECASE,
)
_MONTH_SAID = re.compile(r"月|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.IGNORECASE)
_SIDE_BY_SIDE = re.compile(r"^\s*[,，]?\s*(?:[（(]\s*)?$")


def _one_day(found: list[TimeMention], text: str, now: datetime) -> list[TimeMention]:
    """ "Saturday the 14th", 周六14号, 14号（周六）: one day, not two. The day of the month
    says which; when its weekday is another, the next month whose such day is that weekday
    (Saturday the 14th said in a month whose 14th is a Tuesday)."""
    out: list[TimeMention] = []
    starts_at = {t.start for t in found}
    found = [_with_ordinal(t, text, now, starts_at) for t in found]
    i = 0
    while i < len(found):
        a = found[i]
        b = found[i + 1] if i + 1 < len(found) else None
        if (
            b is None
            or a.starts is None
            or b.starts is None
            or not _SIDE_BY_SIDE.match(text[a.end : b.start])
        ):
            out.append(a)
            i += 1
            continue
        if (
            _WEEKDAY_ALONE.match(a.text)
            and not _DAY_OF_MONTH.search(a.text)
            and not a.has_clock
            and _DAY_OF_MONTH.search(b.text)
        ):
            weekday, dated = a, b
        elif (
            _DAY_OF_MONTH.search(a.text)
            and _WEEKDAY_ALONE.match(b.text.strip())
            and not _DAY_OF_MONTH.search(b.text)
        ):
            weekday, dated = b, a
        else:
            out.append(a)
            i += 1
            continue
        starts, ends = dated.starts, dated.ends
        assert starts is not None and weekday.starts is not None
        wanted = weekday.starts.weekday()
        if starts.weekday() != wanted and not _MONTH_SAID.search(dated.text):
            shift = _to_weekday(now, starts, wanted)
            if shift is not None:
                starts = starts + shift
                ends = ends + shift if ends is not None else None
        has_clock = dated.has_clock
        if weekday is b and not dated.has_clock and (b.has_clock or b.starts.hour):
            # 14号周六下午三点: the time of day said with the weekday is the date's.
            day = starts.date() - b.starts.date()
            starts, ends = b.starts + day, (b.ends + day if b.ends is not None else None)
            has_clock = b.has_clock
        out.append(
            TimeMention(
                text[a.start : b.end],
                a.start,
                b.end,
                a.role if a.role != "point" else b.role,
                starts,
                ends,
                has_clock,
                dated.past,
            )
        )
        i += 2
    return out


def _with_ordinal(t: TimeMention, text: str, now: datetime, others: set[int]) -> TimeMention:
    """A weekday followed by a bare ordinal (Sat 14th): the weekday and that day of the
    month, as one mention (not when the ordinal opens a mention of its own: 14th March)."""
    m = _BARE_ORDINAL.match(text, t.end)
    if (
        t.starts is None
        or t.has_clock
        or not _WEEKDAY_ALONE.match(t.text)
        or m is None
        or any(t.end <= o < m.end() for o in others)
    ):
        return t
    found = _next_date_with_day(now, int(m[1]))
    if found is None:
        return t
    shift = _to_weekday(now, found, t.starts.weekday())
    day = found + shift if shift is not None else found
    start, end = _day_span(day)
    return TimeMention(text[t.start : m.end()], t.start, m.end(), t.role, start, end)


def _to_weekday(now: datetime, day: datetime, weekday: int) -> timedelta | None:
    """How far the next date with ``day``'s day of the month falling on ``weekday`` is from
    ``day`` (within a year), or None."""
    for months in range(0, 13):
        year, month = _add_months(now, months)
        found = _safe_day(now, year, month, day.day)
        if found is not None and found.date() >= now.date() and found.weekday() == weekday:
            return found.replace(hour=day.hour, minute=day.minute, second=day.second) - day
    return None


def end_of_day(day: datetime) -> datetime:
    """23:59:59 of ``day``'s local date."""
    return datetime.combine(
        day.astimezone().date(), time(23, 59, 59), tzinfo=day.astimezone().tzinfo
    )
