"""What a user's own words say: explicit intent to remember, corrections, temporary states,
sensitive data. Judged from the source message text, never from what an agent claims.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import lru_cache

from ekko_memory.timeutil import to_utc

_EXPLICIT = re.compile(
    r"记住|记得|记一下|记下|记着|帮我记|请记|别忘|不要忘|以后都|以后[^，。！？；,.!?;\n]{0,16}?(?:别|不要|不用|都|要|请|就|一律|全|也)"
    # 以后 opening a clause (or after 我/你/我们) with a standing request's verb: 以后少放盐,
    # 以后回复我用英文, 我以后不吃辣了 — not 以后 as "after" (吃完饭以后用洗碗机).
    r"|(?:^|(?<=[，,。！!？?；;\s我你们]))以后[^，。！？；,.!?;\n]{0,16}?"
    r"(?:少|多放|多加|不吃|不放|不加|不喝|用|还是|推荐|回复|回答)"
    r"|今后|从今以后|从今往后|从现在起|从现在开始|从今天(?:起|开始)|往后|永远|每次都|一直都|务必|帮我记录|记录一下"
    r"|\bremember\b|keep (?:(?:that|this|it) )?in mind|don'?t forget|do not forget|from now on|from today on|going forward|in the future"
    r"|for future reference|make a note|note that|note to self|always (?:use|give|recommend|reply|answer|write|do|avoid|skip)"
    r"|备忘一下|备注一下|给我备注|^\s*备忘[:：]"
    # note for later: …, if I ever ask about "the blue folder", that's …: a note to keep.
    r"|\bnote (?:for|to) (?:later|the future|future me|myself)\b|^\s*(?:note|memo)\s*:"
    r"|\bif i ever (?:ask|asks|mention|say|bring up|talk)\b(?=[^.?!]*,\s*(?:that'?s|it'?s|that\s+means|i\s+mean)\b)"
    r"|never (?:use|give|recommend|suggest|reply|answer|write|do|again)",
    re.IGNORECASE,
)

_CORRECTION = re.compile(
    r"现在可以|现在能|现在(?:不|也|又|喜欢|要|想)|其实|改成|改为|换成|改用|换用|不再"
    # 不对，我是说… / 我的意思是…: the user corrects what they just said.
    r"|不对[，,。！!\s]|我是说|我的意思是|迁移到|切换到|弃用|停用|不再用|不用[^，。！？；,.!?;\n]{0,20}了|更正|纠正|说错|搞错|已经不|不是.{0,12}而是|反而|可以接受"
    r"|\bactually\b|no longer|changed my mind|\bi meant\b|\bswitch(?:ed)?\b|\bstop(?:ped)? using\b|\bmigrat(?:e|ed|ing)\b|\binstead\b|correction|i was wrong|now i (?:can|like|prefer|eat|want)"
    r"|not anymore|any more",
    re.IGNORECASE,
)

_FORGET = re.compile(
    r"忘掉|忘记|忘了吧|不要再记|别再记|删除|删掉|清除|抹掉|forget|delete|remove|erase|don'?t remember"
    # …or to let it expire (the expire operation): 让它过期, 作废, 失效.
    r"|过期|作废|失效|不再有效|\bexpire",
    re.IGNORECASE,
)

# Identifiers: always held for the user's approval, in any scope.
_IDENTIFIERS = [
    (
        "phone number",
        re.compile(
            r"(?<!\d)1[3-9]\d{9}(?!\d)|(?<![\w+])\+\d{1,3}[\s-]?\d{3,4}[\s-]?\d{3,4}[\s-]?\d{3,4}(?!\d)"
            # A landline with its area code (010-12345678, (0755) 1234567) and a North
            # American number (415-555-2671, (415) 555-2671).
            r"|(?<![\d-])\(?0\d{2,3}\)?[\s-]?\d{7,8}(?![\d-])"
            r"|(?<![\d-])\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?![\d-])"
        ),
    ),
    ("ID number", re.compile(r"(?<!\d)\d{17}[\dXx](?![\dXx])|(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)")),
    ("bank card number", re.compile(r"(?<!\d)\d{16,19}(?!\d)")),
    ("email address", re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")),
    (
        "street address",
        re.compile(
            r"[\u4e00-\u9fff]{2,}(?:路|街|巷|大道|胡同)\d+号|\d+号楼|\d+单元|\d+室"
            # Where someone lives, down to the district or town (住在浦东新区张江镇).
            r"|(?:住在|家住|住址|地址|家在|搬到)[^，。；;\n]{0,12}?(?:区|县|镇|乡|村|街道|小区|社区)"
            r"|\b\d+\s+\w+(?:\s\w+)?\s(?:street|st|road|rd|avenue|ave|lane|ln|boulevard|blvd|drive|dr)\b",
            re.IGNORECASE,
        ),
    ),
]

# Health: held for approval outside session scope (a passing "胃不舒服" today is not a record).
_HEALTH_CJK = (
    r"胃|病|疼|痛|过敏|药|医院|诊断|怀孕|孕期|抑郁|焦虑|糖尿病|高血压|血压|血糖|癌|手术|体检|失眠|不舒服|发烧|感冒"
    r"|哮喘|不耐受|化疗|放疗|骨折|中风|癫痫|艾滋|肝炎|胰岛素|透析|残疾|心理咨询|住院|治疗"
)
_HEALTH_LATIN = (
    r"diagnos|allerg|medication|medicine|pregnan|depress|anxiety|diabet|cancer|surgery|illness|\bsick\b|disease|symptom"
    r"|asthma|hypertension|blood (?:pressure|sugar)|\bhiv\b|insulin|therap(?:y|ist)|\badhd\b|autis|migraine"
    r"|intoleran|heart attack|chemo|fracture|broke my|disabilit|mental health|psychiatr|hospital|epilep|hepatitis"
    r"|dialysis|injur"
)
_HEALTH = re.compile(f"{_HEALTH_CJK}|{_HEALTH_LATIN}", re.IGNORECASE)
# The same test in parts (every governed write asks it; ~26 µs over a short Chinese note,
# now ~1): the Chinese words alone let the engine skip to their first characters; the
# Latin words, tried case-blind at every position, only when the text holds a letter that
# one of them starts with (every match starts with one). A match of
# ``_HEALTH`` is a match of one of its parts and back: the same answers
# (``tests/core/test_write_path_shortcuts.py``).
_HEALTH_CJK_RE = re.compile(_HEALTH_CJK, re.IGNORECASE)
_HEALTH_LATIN_RE = re.compile(_HEALTH_LATIN, re.IGNORECASE)
HEALTH_LATIN_STARTS = "abcdefhimpst"
_HEALTH_LATIN_START = re.compile(f"[{HEALTH_LATIN_STARTS}]", re.IGNORECASE)


# Words that point at the project the user works in (design doc: 项目技术约束默认 workspace).
_PROJECT = re.compile(
    r"(?:这个|这|本|该|此|当前|我们的?|咱们的?)\s*(?:项目|仓库|代码库|工程|repo|codebase)"
    r"|项目(?:里|中|内)|仓库(?:里|中|内)|代码库|代码仓库"
    r"|\b(?:this|our|the current)\s+(?:project|repo|repository|codebase|code base|workspace)\b"
    r"|\bthe codebase\b",
    re.IGNORECASE,
)


def mentions_project(text: str) -> bool:
    """The text is about the project at hand (这个项目, 本仓库, 代码库, this repo, …)."""
    return bool(_PROJECT.search(text))


# Words of remembering that ask for nothing: refused (别记住, don't remember this) or asked
# about (你记住了吗, do you remember…?). An explicit phrase inside one of these is no request.
_NOT_A_REQUEST = re.compile(
    r"(?:别|不要|不用|不必|无需|甭|没|不)再?(?:帮我)?(?:记住|记得|记一下|记下|记着|记录)"
    r"|(?:记住|记得|记下|记着)了?(?:吗|么|没有?)"
    r"|还记得[^，。！；,.!;\n]*[吗么？?]"
    # 我记下了, I'll remember that: the user keeping it themself, asking nothing.
    r"|(?<![帮给替让叫请])(?:我|俺)(?:已经|都|也)?(?:记住|记下|记好|记着)了"
    r"|\bi(?:'ll|\s+will|'ve|\s+have)\s+(?:remember(?:ed)?|noted|made\s+a\s+note\s+of)\b"
    r"|\b(?:don'?t|do not|no need to|never|not)\s+(?:to\s+)?remember\b"
    r"|\b(?:do|did)\s+you\s+(?:still\s+)?remember\b",
    re.IGNORECASE,
)


# The intent tests below are pure functions of the text, asked of the same user message by
# every write that rests on it (an agent storing five things the user said at once): kept.
@lru_cache(maxsize=512)
def has_explicit_intent(text: str) -> bool:
    """The user asked to remember for the long term (记住, 以后都, from now on, …) — not
    when the words refuse it or ask about it (别记住这个, 你记住了吗, don't remember this)."""
    refused = [m.span() for m in _NOT_A_REQUEST.finditer(text)]
    return any(
        not any(start < end_ and start_ < end for start_, end_ in refused)
        for start, end in (m.span() for m in _EXPLICIT.finditer(text))
    )


@lru_cache(maxsize=512)
def is_correction(text: str) -> bool:
    """The user corrects something (现在可以, 其实, 改成, actually, no longer, …)."""
    return bool(_CORRECTION.search(text))


def asks_to_forget(text: str) -> bool:
    """The user asks to forget, delete or expire something."""
    return bool(_FORGET.search(text))


# Taking back what was just said (算了，不用记了; 当我没说; scratch that, don't remember that):
# the statement before it is not to be remembered. Only these clear phrasings — not 算了 or
# "never mind" alone, which as often just change the subject.
_TAKE_BACK = re.compile(
    r"(?:不用|不要|别|不必|无需|甭)再?(?:帮我)?记(?:住|下|录|着)?(?:了|吧|啦|这个|这条|这些|那个|那条|它)"
    r"|当我没说|我收回|收回(?:这句|那句|刚才)|撤回(?:这句|那句|刚才)|忘了吧|忘掉(?:吧|它|这|那|刚才|我说)"
    r"|(?<!n't )(?<!not )(?<!never )\bforget (?:it|that|this|about (?:it|that)|what i (?:just )?said)\b"
    r"|\b(?:don'?t|do not|no need to)\s+(?:remember|record|save|note)\s+(?:that|this|it)\b"
    r"|\bscratch that\b|\bdisregard (?:that|this|what i (?:just )?said)\b"
    r"|\btake (?:it|that) back\b|\bignore what i (?:just )?said\b"
    # never mind all that; scratch what I said about the pool: all of it, or what it names.
    r"|\bnever ?mind (?:all (?:of )?(?:that|this)|everything i (?:just )?said)\b"
    r"|\b(?:forget|scratch|strike|ignore|disregard|drop)\s+(?:all (?:of )?(?:that|this)|everything i (?:just )?said)\b"
    r"|\b(?:scratch|strike|ignore|disregard|drop)\s+what i (?:just )?(?:said|told you|mentioned|wrote)\b",
    re.IGNORECASE,
)
# Asking to forget something the words name (把葱的事忘掉, forget about scallions): a take-back
# only together with the thing it names (我忘记买葱了 names no request). A request, not a
# reminder: 别忘了/不要忘记/don't forget ask to keep it, and "I always forget to buy
# scallions" asks nothing. English "forget" counts only as an order, at the start of a
# clause (after please / just / and); Chinese 忘 only unnegated.
_FORGET_ABOUT = re.compile(
    r"(?<![别不要莫勿没])(?:忘掉|忘了吧|忘记(?:吧|它|这|那|我说))|不要再记|别再记|不用再记"
    r"|(?:^|[,.;:!?，。；：！？]|\b(?:please|just|and|so|now))\s*forget\s+(?:about|what|that|it|my|the)\b",
    re.IGNORECASE,
)


def takes_back(text: str) -> bool:
    """The user takes back what they just said (算了，不用记了; forget it; scratch that)."""
    return bool(_TAKE_BACK.search(text))


def forgets_about(text: str) -> bool:
    """The words take something back or ask to forget it (takes_back, 忘掉, forget …); what
    it is about must be named beside them."""
    return takes_back(text) or bool(_FORGET_ABOUT.search(text))


# What a text must hold for an identifier pattern to match anywhere in it, tested first
# (one quick scan instead of a slow one; every governed write asks): each phone, ID and
# card number has three digits in a row (``\\d``, any script's digits, as the patterns
# read them); an email address an @; a street address one of 号 单 室 住 址 家 搬 or a digit
# before a space. Same answers as the patterns alone (``tests/core/test_write_path_shortcuts.py``).
_DIGITS = re.compile(r"\d{3}")
_ADDRESS_HINT = re.compile(r"[号单室住址家搬]|\d\s")
_NEEDS: dict[str, re.Pattern[str] | str] = {
    "phone number": _DIGITS,
    "ID number": _DIGITS,
    "bank card number": _DIGITS,
    "email address": "@",
    "street address": _ADDRESS_HINT,
}


def sensitive_identifiers(text: str) -> list[str]:
    """Kinds of personal identifiers found in ``text`` (phone number, ID number, …)."""
    found: list[str] = []
    held: dict[int, bool] = {}  # the hints already tested, by identity
    for name, pattern in _IDENTIFIERS:
        need = _NEEDS[name]
        if isinstance(need, str):
            if need not in text:
                continue
        else:
            has = held.get(id(need))
            if has is None:
                has = held[id(need)] = need.search(text) is not None
            if not has:
                continue
        if pattern.search(text):
            found.append(name)
    return found


def mentions_health(text: str) -> bool:
    """The text talks about health (symptoms, conditions, medication)."""
    if _HEALTH_CJK_RE.search(text):
        return True
    return bool(_HEALTH_LATIN_START.search(text) and _HEALTH_LATIN_RE.search(text))


_FROM_NOW_ON = re.compile(
    r"(?:从|自)?(?:今天|今日|今晚|即日)(?:起|开始|以后|之后|往后)"
    r"|\b(?:from|starting|beginning|as of)\s+(?:today|tonight)(?:\s+on(?:wards?)?)?\b",
    re.IGNORECASE,
)


# The registry's temporary words casefolded, one pattern a kind (any of them anywhere: the
# same as testing each word), for the one dict last asked about (held, so its id is never
# another's): every write reads them, and folding ~36 words each time was half the check.
_folded: tuple[dict[str, list[str]], dict[str, re.Pattern[str]]] | None = None


def _folded_words(words: dict[str, list[str]]) -> dict[str, re.Pattern[str]]:
    global _folded
    held = _folded
    if held is not None and held[0] is words:
        return held[1]
    folded = {
        kind: re.compile("|".join(re.escape(w.casefold()) for w in ws))
        for kind, ws in words.items()
        if ws
    }
    _folded = (words, folded)
    return folded


def temporary_expiry(text: str, now: datetime, words: dict[str, list[str]]) -> datetime | None:
    """When a temporary state in ``text`` should end (今天 → end of today, 最近 → 3 days,
    这周 → 7 days), or None when the text states nothing temporary."""
    # "From today on" starts something lasting: 从今天开始吃素 is no state of today.
    folded = _FROM_NOW_ON.sub(" ", text.casefold())
    kinds = _folded_words(words)

    def has(kind: str) -> bool:
        pattern = kinds.get(kind)
        return pattern is not None and pattern.search(folded) is not None

    local = now.astimezone()
    if has("today"):
        end = local.replace(hour=23, minute=59, second=59, microsecond=0)
        return to_utc(end)
    if has("days"):
        return to_utc(now + timedelta(days=3))
    if has("week"):
        return to_utc(now + timedelta(days=7))
    return None
