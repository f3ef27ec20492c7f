"""What the user changes of what they said: corrections and updates.

- **Both values said** (是无锡不是苏州, it's KPMG, not Deloitte, his name's Dan, not Dave):
  the statement that held the old value is read again with the new one.
- **Only the new value** (不对，是周四; sorry, I meant Birmingham): it replaces the value of
  the same kind (a time, a place, a name) in the statement just before.
- **An update of a topic** (钢琴课改成周六上午; my Spanish class got moved to Tuesdays; 遛狗
  时间变了，现在改成晚上8点): the memory that shares the topic's words is replaced by the new
  statement, in the user's words.

Whatever the way, the result replaces what the corrected statement left (a supersede of its
memory, or of the proposal still waiting), and nothing of the old value stays in the context.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from ekko_memory.models import MemoryNode
from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.time_expressions import find_times
from ekko_memory.service.extraction.weekly import holds_weekdays, names_the_week

# A correction's opening words (不对，是…; sorry, I meant…), at the start of a clause.
CORRECTION_LEAD = re.compile(
    r"(?:^|[，,。！!？?…\s]+)(?:之前|刚才|上次|前面)?(?:跟你|和你)?(?:说的|讲的)(?P<topic>[\u4e00-\u9fff]{0,6}?)(?:不对|错了|有误)[，,。！!\s]*"
    r"|(?:^|[，,。！!？?…\s]+)(?:啊|哦|呃|嗯)?(?:sorry)?(?:不对不对|不对|不是不是|错了|说错了|我说错了|搞错了|我搞错了|打错了|我打错了|手滑打错了|记错了|我记错了|看错了|我看错了|弄错了|写错了|我?(?:记|搞|弄|说|看)(?:混|反|岔)了|等下|等一下|"
    r"更正一下|纠正一下|更正|纠正|口误|等等|哦不|啊不|我的意思是|我是说|(?:其实|实际上|准确地?说)(?=(?:应该)?是)|(?:后来|结果|才)?(?:发现|查了|问了)?[，,]?原来(?=是))[，,。！!\s]*(?:应该)?(?:是|改成|改为)?"
    r"|(?:^|[,.;!?—–-]\s*)(?:(?:oh|ah|hmm+|um+|er)[,\s]+)?(?:sorry|oops|wait|no|correction|actually|my bad|typo|scratch that|strike that|update|(?:it\s+)?turns\s+out(?:\s+that)?)\b[,:!—–\-\s]+(?:i\s+meant|it'?s|make\s+(?:that|it)|that\s+should\s+be|i\s+mean|should\s+be)?\s*"
    r"|(?:^|[,.;!?]\s*)i\s+meant\s+"
    # 改成八百吧, make it 2 grand: a message that opens by giving the value anew.
    r"|^(?:那就|那|就|还是|嗯|哦)?[，,\s]*(?:现在|最近|以后|今后|从今天起|从下周起)?(?:都)?(?:改成|改为|改到|挪到|推到|推迟到|延到|提前到|调成|调到|降到|提到|换成)\s*"
    # it got pushed to Wednesday; that's been moved to the 14th: the new time of what was
    # just said.
    r"|(?:^|[,.;!?]\s*)(?:(?:actually|update|heads up|oh|ok|so)[,:\s]+)?(?:it|that|this|they|we)(?:'s|\s+(?:got|was|were|has|have|is))?\s*(?:been\s+)?"
    r"(?:pushed|moved|bumped|rescheduled|changed|shifted)\s+(?:back\s+|up\s+|forward\s+)?(?:to|till|until)\s+"
    r"|^(?:ok(?:ay)?[,\s]+|so[,\s]+)?(?:make\s+(?:it|that)|change\s+(?:it|that)\s+to)\s+"
    # 上回我媳妇名字打错了，是王莉: what was wrong said before the lead.
    r"|(?<=[\u4e00-\u9fff])(?:打|写|说|记|搞|弄|填)(?:错(?:字|话|名字)?|混|反)了[，,。！!\s]*(?:应该)?(?:是|改成|改为)?",
    re.IGNORECASE,
)


def named_topic(lead: re.Match[str]) -> str:
    """What a correction's lead names as wrong (上次说的茶我说错了 → 茶), or ''."""
    topic = lead.groupdict().get("topic") or ""
    return re.sub(r"(?:我|你)?(?:说|讲|记|搞|打|写|弄)?$", "", topic)


# 不是X，是Y / 是Y不是X / not X but Y / Y, not X: both values said. Tried in this order, the
# most explicit first: 不是X，是Y wins over "Y，不是X", whose Y would else be the whole clause
# before it (猫的名字说错了，不是X，是Y).
NOT_BUT = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"不是(?P<old>[^，,。是!！]{1,12}?)[，,]?\s*(?:而)?是(?P<new>[^，,。！!]{1,12})",
        # 我家猫不叫年糕，叫汤圆: a name denied, then the name.
        r"不叫(?P<old>[^，,。叫!！]{1,8}?)[，,]?\s*(?:而是|是)?叫(?P<new>[^，,。！!]{1,8})",
        r"是(?P<new>[^，,。！!不]{1,12}?)[，,]?\s*不是(?P<old>[^，,。！!]{1,12})",
        r"(?P<new>[^，,。！!\s]{1,12}?)[，,]\s*不是(?P<old>[^，,。！!]{1,12})",
        r"\bnot\s+(?P<old>[\w'. -]{1,30}?),?\s+but\s+(?P<new>[\w'. -]{1,30})",
        # it's not Rex, it's Max; I'm not vegetarian, I'm pescatarian
        r"\bnot\s+(?P<old>[\w'.-]{1,30}(?:\s+[\w'.-]+){0,2}?),?\s+(?:it|he|she|they|that|i|we)"
        r"(?:'s|'m|'re|\s+is|\s+am|\s+are)\s+(?:actually\s+|really\s+)?"
        r"(?P<new>[\w'.-]{1,30}(?:\s+[\w'.-]+){0,2}?)(?=[.!,;?]|$|\s+(?:lol|haha|btw|—))",
        # Maine, not Oregon: a capitalized name for a capitalized name.
        r"(?<![\w'])(?P<new>(?-i:[A-Z][a-z][\w'.-]*)),\s+not\s+(?P<old>(?-i:[A-Z][a-z][\w'.-]*))(?![\w'])",
        r"\b(?:it'?s|is|meant|name'?s|name is|at|on|to|in)\s+(?P<new>[\w'.:-]{1,30}?(?:\s+[\w'.:-]+){0,2}?),?\s+not\s+(?P<old>[\w'.:-]{1,30}?(?:\s+[\w'.:-]+){0,2}?)(?=[.!,;]|$|\s+(?:no|lol|haha|sorry|idk|—))",
    )
]


# An update of something the user does or plans (改成, 换成, moved to, changed to).
UPDATE = re.compile(
    r"改成|改到|改为|换成|换到|调整|调到|调了|调时间|换时间|改时间|挪到|推迟到|提前到|变成|变了|改了|不再是|改作息|现在是|现在改"
    r"|\b(?:moved to|changed to|switched to|rescheduled (?:to|for)|pushed (?:back )?to|brought forward to|is now|are now|now on|got moved|has moved|changed|instead)\b",
    re.IGNORECASE,
)


def old_and_new(text: str) -> tuple[str, str] | None:
    """(old, new) when the words give both (是无锡不是苏州 → (苏州, 无锡))."""
    found = _old_and_new(text)
    return found[0] if found is not None else None


def both_values_at(text: str) -> tuple[int, int] | None:
    """Where in ``text`` the words giving both values are (不是X，是Y), or None."""
    found = _old_and_new(text)
    return found[1] if found is not None else None


def _old_and_new(text: str) -> tuple[tuple[str, str], tuple[int, int]] | None:
    for shape in NOT_BUT:
        for m in shape.finditer(text):
            old, new = bare(m["old"]), m["new"]
            # A correction's own words are not its value (名字说错了，不是X: no new value).
            lead = CORRECTION_LEAD.search(new)
            new = bare(new[lead.end() :] if lead is not None else new)
            if old and new and old != new:
                return (old, new), m.span()
    return None


def bare(value: str) -> str:
    """A corrected value without its filler (啊, 那个, 了, 的)."""
    value = re.sub(r"^(?:啊|哦|呃|嗯|那个|那家|这个)", "", value.strip(" ，,。.!！"))
    value = re.sub(r"(?:啦|了|哦|呀|啊|的|吧|呗|嘛|哈)+$", "", value)
    return value.strip()


# What opens an English correction before its value (I'm at X, it's X, I meant X).
_VALUE_LEAD_EN = re.compile(
    r"^(?:i\s+meant\s+|i\s+mean\s+|it'?s\s+|it\s+is\s+|that'?s\s+|"
    r"(?:i'?m|i\s+am|i\s+work|i\s+live|we'?re|we\s+are)\s+(?:actually\s+)?(?:at|in|with|for|from|on)\s+)",
    re.IGNORECASE,
)


def value_of(correction: str) -> str:
    """The value a correction gives (Wealthsimple of "I'm at Wealthsimple")."""
    value = bare(correction)
    if re.search(r"[\u4e00-\u9fff]", value):
        return value
    return _VALUE_LEAD_EN.sub("", value).strip()


def substituted(said: str, correction: str, pair: tuple[str, str] | None) -> str | None:
    """``said`` with the corrected value in place of the one it replaces, or None when the
    correction does not fit it."""
    if pair is not None:
        old, new = pair
        # 3pm not 2: "2" as said, with its am/pm (Saturday at 2pm → Saturday at 3pm).
        unit = re.search(
            rf"(?<![\w:]){re.escape(old)}(?:\s?[ap]\.?m\.?|点|:00)?(?![\w:])", said, re.IGNORECASE
        )
        if unit is not None:
            return said[: unit.start()] + new + said[unit.end() :]
        if old in said:
            return _replace_unit(said, old, new)
        folded = said.casefold()
        if old.casefold() in folded:
            at = folded.find(old.casefold())
            return said[:at] + new + said[at + len(old) :]
        return None
    new_value = bare(correction)
    if not new_value or len(new_value) > 30:
        return None
    ordinal = _ORDINAL.match(new_value)
    if ordinal is not None and (ordinal["n"] or ordinal["n2"]).casefold() in said.casefold():
        # the first Thursday for "the first Tuesday of every month": the ordinal is said in
        # both, the weekday is what changes.
        new_value = new_value[ordinal.end() :]
    for shape in _TIME_SHAPES:
        # 晚上跑 for 我每天早上7点跑步: the time said anew, with the doing said again after
        # it (跑 of 跑步) — the time in place of the old one, the rest as said.
        head = shape.match(new_value)
        hits = list(shape.finditer(said))
        rest = new_value[head.end() :].strip() if head is not None else ""
        if (
            head is not None
            and len(hits) == 1
            and (
                not rest
                or (
                    re.search(r"[\u4e00-\u9fff]", rest) is not None
                    and rest in said[hits[0].end() :]
                )
            )
        ):
            # 7:30pm for "at 6pm on Friday": the one clock time said.
            return said[: hits[0].start()] + head.group() + said[hits[0].end() :]
    now = __import__("datetime").datetime.now().astimezone()
    new_times = find_times(new_value, now)
    if new_times and len(new_times[0].text) >= len(new_value) - 3:
        new_text = new_times[0].text
        for shape in _TIME_SHAPES:
            # 周四 for 每周二晚上七点: the weekday, and only it, in place of the old one.
            if shape.fullmatch(new_text) and (hit := shape.search(said)) is not None:
                if len(shape.findall(said)) > 1:
                    return None  # 周三开会，周五交报告 → 是周四: which one is unknown
                return said[: hit.start()] + new_text + said[hit.end() :]
        old_times = find_times(said, now)
        if len([t for t in old_times if t.role in ("point", "deadline")]) > 1:
            return None
        for t in old_times:
            # 每周二 → 周六上午: the weekday and what the correction says after it, in the
            # place of the old one (每周六上午), the week's word kept.
            merged = _merged_time(t.text, new_text)
            if merged is not None:
                return said[: t.start] + merged + said[t.end :]
        if old_times:
            t = max(old_times, key=lambda t: t.end - t.start)
            return said[: t.start] + new_text + said[t.end :]
        return None
    counted = _recount(said, new_value)
    if counted is not None:
        return counted
    zh = bool(re.search(r"[\u4e00-\u9fff]", said))
    if zh:
        place = w.place_at_start(new_value)
        if place:
            old_place = _first_place_zh(said)
            if old_place:
                return said.replace(old_place, place, 1)
        verb = re.match(r"(?:叫做|叫|姓|住在|是)", new_value)
        if verb is not None and len(new_value) > verb.end() and verb.group() in said:
            # 打错了，叫豆豆 of 我女儿叫朵朵: the verb said again, and what follows it anew.
            at = said.rfind(verb.group())
            end = re.search(r"[，,。.!！？?；;]", said[at:])
            return said[:at] + new_value + (said[at + end.start() :] if end else "")
        tags = w.tag(new_value)
        if len(tags) == 1 and tags[0][1] == "nr":
            # 是王莉 for 我媳妇叫王丽: a name for the name said.
            # The name that shares a character with the new one (王丽 → 王莉: a misspelling).
            old_name = next(
                (
                    word
                    for word, pos in w.tag(said)
                    if pos == "nr" and word != new_value and set(word) & set(new_value)
                ),
                "",
            )
            if old_name and old_name != new_value:
                return said.replace(old_name, new_value, 1)
        return None
    name = w.capitalized_phrase(value_of(new_value))
    if name and len(name) >= 2 and name.casefold() not in ("i", "i'm", "it", "the"):
        for candidate in re.findall(
            r"(?<!^)(?<![.!?]\s)\b[A-Z][\w'.-]+(?:\s+[A-Z][\w'.-]+)*", said
        ):
            if candidate.casefold() not in ("i", "i'm") and candidate != name:
                return said.replace(candidate, name, 1)
    return None


# An ordinal before a weekday (the first Thursday, 第一个周四).
_ORDINAL = re.compile(
    r"^(?:the\s+)?(?P<n>first|second|third|fourth|last)\s+(?=(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"|^(?P<n2>第[一二三四]个|最后一个)(?=(?:周|星期|礼拜)[一二三四五六日天])",
    re.IGNORECASE,
)
# Parts of a time a correction replaces on their own: a weekday, a clock time, a date.
_TIME_SHAPES = [
    re.compile(r"(?:周|星期|礼拜)[一二三四五六日天1-7]"),
    re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?", re.IGNORECASE),
    re.compile(
        r"(?:早上|上午|中午|下午|晚上)?(?:\d{1,2}|[一二两三四五六七八九十]{1,3})(?:[:：]\d{2}|点(?:半|一刻|\d{1,2}分?)?)"
    ),
    re.compile(r"\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)", re.IGNORECASE),
    # A part of the day, with its clock time if said (早上7点 → 晚上: 每天晚上).
    re.compile(
        r"(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里|凌晨)(?:(?:\d{1,2}|[一二两三四五六七八九十]{1,3})(?:[:：]\d{2}|点(?:半|一刻|\d{1,2}分?)?))?"
    ),
    re.compile(
        r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\d{1,2}|[一二三四五六七八九十]{1,3})(?:号|日)?"
    ),
]
_NUMERAL = r"(?:\d+(?:[.,]\d+)*|[零一二两三四五六七八九十百千万半]+)"
_COUNTED = re.compile(
    rf"^(?P<n>{_NUMERAL})(?P<unit>[\u4e00-\u9fff]{{1,3}}|\s*[a-z]{{2,10}})$", re.I
)


def dated(text: str, now: datetime) -> bool:
    """``text`` says when something happens (a day, a time; not 今天 of a passing state)."""
    return any(t.role in ("point", "deadline", "recurring") for t in find_times(text, now))


def is_time(correction: str, now: datetime) -> bool:
    """The correction's value is a date or a time (the 16th, 周四, 3pm) and nothing else."""
    value = bare(correction)
    times = find_times(value, now) if value else []
    return bool(times) and len(times[0].text) >= len(value) - 3


def ambiguous(said: str, correction: str) -> bool:
    """``said`` holds two or more values the bare ``correction`` could replace (狗20斤，猫9斤
    → 其实是22斤; 周三开会，周五交报告 → 不对，是周四): which one is meant is unknown."""
    new_value = bare(correction)
    if not new_value or len(new_value) > 30:
        return False
    now = __import__("datetime").datetime.now().astimezone()
    new_times = find_times(new_value, now)
    if new_times and len(new_times[0].text) >= len(new_value) - 3:
        if any(s.fullmatch(new_times[0].text) and len(s.findall(said)) > 1 for s in _TIME_SHAPES):
            return True
        if any(s.fullmatch(new_times[0].text) and len(s.findall(said)) == 1 for s in _TIME_SHAPES):
            return False  # 7:30pm for "at 6pm on Friday": the one clock time said
        return len([t for t in find_times(said, now) if t.role in ("point", "deadline")]) > 1
    if re.fullmatch(r"\d+(?:[.,]\d+)?", new_value):
        return len(re.findall(r"(?<![\d.,])\d+(?:[.,]\d+)?(?![\d.,]*\d)", said)) > 1
    m = _COUNTED.match(new_value)
    if m is None:
        return False
    unit = re.escape(m["unit"].strip())
    return len(re.findall(rf"(?<![\d.,]){_NUMERAL}(?=\s*{unit})", said, re.IGNORECASE)) > 1


def _recount(said: str, new_value: str) -> str | None:
    """``said`` with a count in the correction's unit set to its number (8岁 → 9岁,
    三年级 → 四年级, 3 kids → 2 kids, 3rd grade → 4th); None when ``said`` has no count in
    that unit."""
    ordinal = re.match(r"^(\d+(?:st|nd|rd|th))\b", new_value.strip(), re.IGNORECASE)
    if ordinal is not None:
        olds = list(re.finditer(r"\b\d+(?:st|nd|rd|th)\b", said, re.IGNORECASE))
        rest = new_value.strip()[ordinal.end() :].strip()
        if len(olds) == 1 and olds[0][0] != ordinal[1] and (not rest or rest in said):
            return said[: olds[0].start()] + ordinal[1] + said[olds[0].end() :]
        return None
    bare_number = re.fullmatch(r"\d+(?:[.,]\d+)?", new_value.strip())
    if bare_number is not None:
        # "actually it's 11" after "my cat weighs 9 pounds": the one number said, if only one
        # was (two numbers: which one is meant is unknown, and nothing is corrected).
        numbers = list(re.finditer(r"(?<![\d.,])\d+(?:[.,]\d+)?(?![\d.,]*\d)", said))
        if len(numbers) != 1 or numbers[0][0] == new_value.strip():
            return None
        hit = numbers[0]
        return said[: hit.start()] + new_value.strip() + said[hit.end() :]
    m = _COUNTED.match(new_value)
    if m is None:
        return None
    unit = m["unit"].strip()
    olds = list(re.finditer(rf"(?<![\d.,]){_NUMERAL}(?=\s*{re.escape(unit)})", said, re.IGNORECASE))
    # 狗15斤，猫8斤 → 其实是18斤: two counts in the unit, and which one is meant is unknown.
    if len(olds) != 1 or olds[0][0] == m["n"]:
        return None
    old = olds[0]
    return said[: old.start()] + m["n"] + said[old.end() :]


def _first_place_zh(text: str) -> str:
    for word, pos in w.tag(text):
        if pos == "ns" and len(word) >= 2:
            return word
    return ""


def _replace_unit(said: str, old: str, new: str) -> str:
    """Replace ``old`` — a whole time expression when it is part of one (March → April 28 in
    "March 28" becomes "April 28", not "April 28 28")."""
    now = __import__("datetime").datetime.now().astimezone()
    for t in find_times(said, now):
        if old in t.text and find_times(new, now):
            return said[: t.start] + new + said[t.end :]
    return said.replace(old, new, 1)


# Words too common to tie an update to a memory.
_COMMON_ZH = frozenset(
    [
        "时间",
        "现在",
        "以后",
        "时候",
        "事情",
        "东西",
        "这个",
        "那个",
        "一下",
        "这边",
        "那边",
        "早上",
        "晚上",
        "上午",
        "下午",
        "每天",
        "每周",
        "周末",
    ]
)
_COMMON_EN = frozenset(
    [
        "time",
        "now",
        "then",
        "thing",
        "things",
        "stuff",
        "that",
        "this",
        "there",
        "here",
        "with",
        "from",
        "have",
        "been",
        "into",
        "onto",
        "about",
        "every",
        "each",
        "week",
        "weeks",
        "day",
        "days",
        "morning",
        "evening",
        "night",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "mondays",
        "tuesdays",
        "wednesdays",
        "thursdays",
        "fridays",
        "saturdays",
        "sundays",
        "moved",
        "changed",
        "only",
        "instead",
        "also",
        "just",
        "heads",
    ]
)


def topic_words(text: str) -> set[str]:
    """The words of a text that name what it is about (钢琴课, Spanish class), not its time."""
    if re.search(r"[\u4e00-\u9fff]", text):
        return {
            word
            for word, pos in w.tag(text)
            if len(word) >= 2
            and pos[:1] in ("n", "v", "e", "x")
            and pos != "t"
            and word not in _COMMON_ZH
        }
    return {x for x in re.findall(r"[a-z]{4,}", text.casefold()) if x not in _COMMON_EN}


# English endings one word's forms differ by (pregnancy / pregnant, allergies / allergic).
_ENDINGS = re.compile(
    r"(?:ancies|encies|ations|ation|ancy|ency|ant|ent|ness|ings|ing|ies|ied|ic|ed|es|s|y)$"
)


def stem(word: str) -> str:
    """An English word without its ending (pregnancy and pregnant → pregn); a word of four
    letters or fewer, or a Chinese one, as it is."""
    if len(word) <= 4 or not word.isascii():
        return word
    cut = _ENDINGS.sub("", word)
    if re.search(r"([bdgmnprt])\1$", cut) and word.endswith(("ing", "ed")):
        return cut[:-1]  # swimming, planned: swim, plan
    return cut if len(cut) >= 4 else word


def updated_by(text: str, nodes: Sequence[MemoryNode]) -> list[MemoryNode]:
    """The memories an update of a topic replaces: active routines, tasks, plans and facts
    that share a word of the topic with it (钢琴课改成周六上午 → 每周二和周四晚上学钢琴)."""
    if UPDATE.search(text) is None:
        return []
    mine = topic_words(text)
    if not mine:
        return []
    out = []
    for node in nodes:
        if node.status != "active" or node.key not in _UPDATABLE:
            continue
        theirs = topic_words(f"{node.title} {node.content}")
        zh = bool(re.search(r"[\u4e00-\u9fff]", text))
        # deploys are now on Wednesdays of "we deploy on Tuesdays": a word in any of its forms.
        stems = (
            {a for a in mine for b in theirs if stem(a) in (b, stem(b)) or stem(b) == a}
            if not zh
            else set()
        )
        shared = (
            mine & theirs
            or stems
            or (
                zh
                and {
                    a
                    for a in mine
                    for b in theirs
                    if min(len(a), len(b)) >= 2 and (a in b or b in a)
                }
            )
        )
        if shared:
            out.append(node)
    if not out and names_the_week(text):
        # schedule changed at work: the one routine that holds days of the week.
        weeks = [
            n
            for n in nodes
            if n.status == "active" and n.key == "routine" and holds_weekdays(n.title)
        ]
        out = weeks if len(weeks) == 1 else []
    return out


_UPDATABLE = frozenset(
    {
        "routine",
        "task_status",
        "travel_plan",
        "personal_fact",
        "person_fact",
        "temporary_state",
        # our code reviews are now on Fridays: how the team works, changed.
        "team_rule",
    }
)


# A value said as the precise one: "well, pescatarian technically", "technically a
# contractor", 准确说是蛋奶素, 严格来说是合同工.
_HEDGED_EN = re.compile(
    r"^\W*(?:(?:well|hmm+|um+|ok|okay|oh|so)\b[,\s]*)?"
    r"(?:(?:technically|strictly speaking|to be precise|more precisely|more like|or rather|rather)\b[,\s]*"
    r"(?:(?:a|an|i'?m|it'?s)\s+)?(?P<v>[\w'-]+(?:\s+[\w'-]+)?)"
    r"|(?:(?:a|an)\s+)?(?P<v2>[\w'-]+(?:\s+[\w'-]+)?)[,\s]+(?:technically|strictly speaking|to be precise|more precisely|really|actually)\b)"
    r"\s*(?=[,.;!?]|$)",
    re.IGNORECASE,
)
_HEDGED_ZH = re.compile(
    r"^\W*(?:嗯|哦|呃)?[，,\s]*(?:准确|严格|确切|精确)(?:地|点)?(?:说|来说|讲|来讲)[，,\s]*(?:应该)?(?:是|算)?(?P<v>[\u4e00-\u9fffA-Za-z0-9]{1,8})(?=[，,。.!！;；]|$)"
)


# The value drawn as a conclusion later in the message (I eat eggs and dairy, so vegetarian
# really; 我其实吃鸡蛋，所以算蛋奶素吧).
_SO_REALLY_EN = re.compile(
    r"(?:^|[,.;!?]\s*)(?:and\s+)?(?:so|which makes me|making me)\s+(?:i'?m\s+|i\s+am\s+)?"
    r"(?:more\s+like\s+|basically\s+)?(?:(?:a|an)\s+)?(?P<v>[\w'-]+(?:\s+[\w'-]+)?)\s+"
    r"(?:really|actually|technically|i guess|i suppose)\b\s*(?=[,.;!?]|$)",
    re.IGNORECASE,
)
_SO_REALLY_ZH = re.compile(
    r"所以(?:我)?(?:其实)?(?:应该)?(?:算|是|算是)(?P<v>[\u4e00-\u9fff]{2,6}?)(?:吧|啦|了)?(?=[，,。.!！;；]|$)"
)


def hedged_value(text: str) -> str:
    """The value a message gives as the precise one (pescatarian of "well, pescatarian
    technically, I do eat fish"; vegetarian of "I do eat eggs, so vegetarian really"), or "";
    never a clause with its own subject or verb."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    m = _HEDGED_ZH.match(text) if zh else _HEDGED_EN.match(text)
    if m is None:
        m = _SO_REALLY_ZH.search(text) if zh else _SO_REALLY_EN.search(text)
    if m is None:
        return ""
    value = next((g for g in m.groups() if g), "")
    if re.search(
        r"\b(?:i|you|we|he|she|they|it|is|are|was|do|did|not|no|that|this|well|ok|okay|so|yes|yeah|sure|thanks|very)\b",
        value,
        re.IGNORECASE,
    ):
        return ""
    return bare(value) if not re.search(r"[我你他她]", value) else ""


def bare_value(text: str, now: datetime) -> bool:
    """The whole message is a value of its own (周四; the 15th; 无锡): in a chat, the answer
    that corrects the statement just before."""
    value = bare(text)
    if not value or len(value) > 12:
        return False
    times = find_times(value, now)
    if times and len(times[0].text) >= len(value) - 1:
        return True
    return bool(re.search(r"[\u4e00-\u9fff]", value)) and w.place_at_start(value) == value


# What an assistant's question asks for, by its words (the slot a short answer fills).
_SLOTS: list[tuple[str, re.Pattern[str]]] = [
    (
        "city",
        re.compile(
            r"哪个城市|哪座城市|住哪|住在哪|在哪个城市|哪里人|在哪儿住|\bwhich city\b|\bwhere (?:do|are) you (?:live|based|located)\b|\bwhat city\b|\bwhere are you\b|\btime ?zone\b",
            re.IGNORECASE,
        ),
    ),
    (
        "job",
        re.compile(
            r"做什么工作|什么工作|职业是|做哪行|干什么的|在哪(?:里|儿)?(?:工作|上班)|\bwhat do you do\b|\bwhat(?:'s| is) your (?:job|role|title)\b|\bwhere do you work\b",
            re.IGNORECASE,
        ),
    ),
    (
        "medicine",
        re.compile(
            r"什么药|哪种药|吃的药|药名|\bwhich (?:medication|medicine|drug)\b|\bwhat (?:medication|medicine|are you taking)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "when",
        re.compile(
            r"什么时候|哪天|几号|几月几|截止|deadline|\bwhen\b|\bwhat date\b|\bwhich day\b|\bdue\b",
            re.IGNORECASE,
        ),
    ),
]


def asked_slot(asked: str) -> str | None:
    """The slot the assistant's last question asks the user to fill, if it asks one."""
    if not re.search(r"[？?]", asked):
        return None
    tail = re.split(r"[。.!！\n]", asked)[-2:]
    for slot, pattern in _SLOTS:
        if any(pattern.search(part) for part in tail):
            return slot
    return None


def answer_statement(slot: str, said: str, zh: bool) -> str | None:
    """The statement a short answer makes in reply to a question about ``slot``, with the
    user's words kept (成都 → 我住在成都), or None when the answer is no such value."""
    value = bare(said)
    if not value:
        return None
    if slot == "city":
        return (
            f"我住在{value}"
            if zh and re.search(r"[\u4e00-\u9fff]", value)
            else f"I live in {value[:1].upper()}{value[1:]}"
        )
    if slot == "job":
        return f"我是{value}" if zh and re.search(r"[\u4e00-\u9fff]", value) else f"I'm a {value}"
    if slot == "medicine":
        return f"我在吃{value}，医生开的" if zh else f"I take {value}"
    return None


def mentions(text: str, word: str) -> bool:
    """``text`` names ``word``: Chinese anywhere, a Latin word as a whole word, any case."""
    if len(word.strip()) < 2:
        return False
    if re.search(r"[\u4e00-\u9fff]", word):
        return word in text
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE) is not None


def named_again(said: str, after: str, correction: str) -> str:
    """The noun of ``said`` that the words ``after`` a correction's new value name again
    (我对青霉素过敏 … 是头孢 青霉素我没事的 → 青霉素), or ""."""
    new = bare(correction)
    if not new:
        return ""
    if not re.search(r"[\u4e00-\u9fff]", new):
        # I'm at Wealthsimple, no idea why I wrote Shopify: the name said again after it.
        value = value_of(correction)
        for name in re.findall(r"\b[A-Z][\w'.&-]+(?:\s+[A-Z][\w'.&-]+)*", after):
            if name.casefold() != value.casefold() and mentions(said, name):
                return str(name)
        return ""
    for word, pos in w.tag(said):
        if len(word) >= 2 and pos[:1] == "n" and word != new and word in after:
            return word
    return ""


# Words that take back the value just said, mid-sentence, before saying it again (下周三，哦不，
# 周四; next Wednesday — no wait, Thursday; 两千，啊不，三千).
_REPAIR = re.compile(
    r"\s*[，,—–-]?\s*(?:哦不|啊不|呃不|噢不|哦不对|啊不对|不对|不不|不是不是|说错了|口误"
    r"|(?:oh\s+)?no\s+wait|wait\s+no|wait|sorry|no|(?:er+|um+)\s+no|i\s+mean)"
    r"(?:\s*[，,—–-]\s*|\s+)(?:(?:it'?s|是)\s*)?",
    re.IGNORECASE,
)
# An amount said as a value (三千, 2k, $1500, 800块): what a repair of an amount replaces.
_AMOUNT = re.compile(
    r"(?:[$£€¥]\s?)?\d[\d,.]*\s*(?:k|grand|bucks|块钱?|元|万|千)?|[一二两三四五六七八九十百千万]+(?:块钱?|元|万)?",
    re.IGNORECASE,
)


def inline_repair(text: str, now: datetime) -> str:
    """``text`` with a value taken back mid-sentence replaced by the one said after it: the
    time or the amount just before the repair words, by the same kind of value right after
    them (下周三，哦不，周四上午复查 → 下周四上午复查: the week said first still holds;
    budget $1500, no wait, $1200 → budget $1200). Unchanged when the words around the
    repair are no such pair."""
    for m in _REPAIR.finditer(text):
        before, after = text[: m.start()], text[m.end() :]
        if not before.strip() or not after.strip():
            continue
        olds = [t for t in find_times(before, now) if t.end >= len(before.rstrip()) - 1]
        news = [t for t in find_times(after, now) if t.start == 0]
        if olds and news:
            old, new = olds[-1], news[0]
            merged = _merged_time(old.text, new.text) or new.text
            return before[: old.start] + merged + after[new.end :]
        old_amount = _last_amount(before)
        new_amount = _AMOUNT.match(after)
        if old_amount is not None and new_amount is not None and new_amount.group().strip():
            head = before[: old_amount.start()]
            return head + new_amount.group() + after[new_amount.end() :]
    return text


def _merged_time(old: str, new: str) -> str | None:
    """The repaired time: ``new`` in place of the part of ``old`` it opens with (a weekday, a
    clock time), what ``old`` said before that part kept (下周三 → 周四上午: 下周四上午; 每周二
    → 周六: 每周六), and what ``old`` said after it too when ``new`` is only that part (下周三
    上午 → 周四: 下周四上午); None when ``new`` opens with no part ``old`` has once."""
    for shape in _TIME_SHAPES:
        head = shape.match(new)
        hit = shape.search(old)
        if head is not None and hit is not None and len(shape.findall(old)) == 1:
            if new[head.end() :].strip():
                # 周二晚上七点 → 周六上午: from the weekday on, the new time.
                return old[: hit.start()] + new
            return old[: hit.start()] + head.group() + old[hit.end() :]
    return None


def _last_amount(text: str) -> re.Match[str] | None:
    """The amount ``text`` ends with, if it ends with one."""
    hits = [m for m in _AMOUNT.finditer(text) if m.group().strip()]
    if hits and hits[-1].end() >= len(text.rstrip()) and len(hits[-1].group().strip()) >= 2:
        return hits[-1]
    return None
