"""Take-backs and forget requests: which clauses are one, and what they name.

别记我喜欢鸭血了 takes back 我喜欢鸭血; 刚才说的那个不算 takes back the statement before it;
forget that I live in Hangzhou names Hangzhou. A take-back is never itself a statement:
nothing is extracted from it (before this, 别记我喜欢鸭血了 became "用户不吃鸭血").
"""

from __future__ import annotations

import re

from ekko_memory.identity import same_names
from ekko_memory.models import MemoryNode
from ekko_memory.schema import intent

# Asking not to keep something, with what follows it (别记我喜欢鸭血了).
_DONT_KEEP_ZH = re.compile(
    r"(?:别|不要|不用|不必|无需|甭|没必要)再?(?:帮我|给我)?(?:记住|记下来?|记录|记着|记得|记|存|保存|留着)(?!得)"
)
# Removing what was said (那条删掉, 刚才说的不算, 当我没说, 把…忘了).
_DROP_ZH = re.compile(
    r"(?:那条|这条|那句|这句|上一条|刚才(?:那条|那句|说的(?:那个|那条|那句)?|那个)?|之前说的|前面说的|那个记忆|这个记忆|那段|这段)[^，。！？]{0,6}?(?:删掉|删了|删除|去掉|划掉|撤回|作废|不算数?|别记了?|不用记了?|忘了吧|忘掉吧?|不对|取消)"
    r"|(?:你)?(?:就)?当(?:我)?没(?:说|说过|讲过|提|提过)|(?<![我他她])(?<![我他她]就)(?:你)?(?:就)?当没听见|(?<![我他她])(?:就|先|直接)?忽略(?:吧|掉吧?|它|这条|那条)|我收回|收回(?:这句|那句|刚才)|撤回(?:这句|那句|刚才)|忘掉|忘了吧|忘记(?:吧|它|这|那|我说)"
    r"|(?:那个|这个|那件事|这件事|那些|这些|那条|这条|别的|其他的?|其它的?|其余的?)(?:就|都|全|全都|统统|通通|先|暂时|也)*(?:删掉|删了|删除|去掉|划掉|抹掉|作废|不算数?|别记了?|不用记了?|别存|不用存)"
    r"|(?:删掉|删除|去掉|抹掉)(?:那条|这条|刚才|这个记忆|那个记忆|关于)"
    # 小区名字删了吧, 手机号去掉吧: a thing named, then asked gone (not 我把微信删了, done).
    r"|^[^，。！？,!?我你他她]{1,12}?(?:就|也|都)?(?:删掉|删了|去掉|划掉|抹掉)(?:吧|哈|啊|哦|呗)+[。！!~～]*$"
    # 关于他的都删了吧: all that is about someone.
    r"|关于[^，。！？]{1,8}?的(?:事|事情|东西|内容|记忆|那些|这些)?(?:就|都|全|全都|统统|通通)(?:删掉|删了|删除|去掉|抹掉|别记了?|不用记了?|忘了吧|忘掉)"
)
_DROP_EN = re.compile(
    r"(?:^|[,.;:!?]\s*|\b(?:please|just|and|so|now|oh|actually|wait)\s+)forget\b"
    r"|\b(?:don'?t|do not|no need to|never)\s+(?:remember|record|save|note|store|keep|log|hang on to|hang onto|hold on to|hold onto|write down|file away)\b"
    # leave out the part about my sister; keep my salary out of your notes.
    r"|\bleave\s+(?:out\s+)?(?:the|that|this|my|any)\s+(?:[\w'-]+\s+){0,4}?(?:bit|part|thing|stuff|detail|details|line)s?\s+(?:about|on)\b"
    r"|\bleave\s+(?:the|that|this|my|our)\s+(?:[\w'-]+\s+){0,5}?out\b"
    # pretend I didn't mention the melatonin; hold off on saving the trip; ignore it.
    r"|\bpretend\s+i\s+(?:didn'?t|never)\s+(?:say|said|mention|mentioned|tell|told)\b"
    r"|\bhold\s+off\s+on\s+(?:saving|remembering|noting|storing|recording)\b"
    r"|(?:^|[,.;:!?]\s*|\b(?:please|pls|so|oh|actually|wait|then)\s+|(?<!\bi )(?<!\bwe )\bjust\s+)(?:ignore|disregard)\s+(?:it|that|this)\b"
    r"|\bkeep\s+(?:[\w'-]+\s+){1,6}?out\s+of\s+(?:your\s+|the\s+|my\s+)?(?:notes|memory|memories|records|files|file)\b"
    r"|\bscratch that\b|\bdisregard\b|\bignore what i\b|\btake (?:it|that) back\b|\bnever ?mind (?:what i|the|that|about|my|all (?:of )?(?:that|this)|everything)\b"
    r"|\b(?:forget|scratch|strike|ignore|drop)\s+(?:all (?:of )?(?:that|this)|everything i (?:just )?said)\b"
    r"|\b(?:scratch|strike|ignore|drop)\s+what i (?:just )?(?:said|told you|mentioned|wrote)\b"
    r"|\b(?:delete|remove|erase|drop)\s+(?:that|this|it)\s+(?:memory|note|from (?:your )?memory)\b"
    r"|\b(?:delete|remove|erase)\s+(?:the|that|my)\s+(?:memory|note)\b"
    r"|\bthat'?s not (?:right|true) anymore\b|\bstrike that\b|\bunsay that\b"
    r"|(?:^|[,.;:!?]\s*|\b(?:wait|oh|actually|please|pls|just)\s+)(?:delete|remove|erase|scrap|drop|bin)\s+(?:that|it|this)\b"
    r"|\b(?:delete|remove|erase|scrap|scratch|drop|forget)\s+(?:the|that|my)\s+[\w' -]{2,30}?\s+(?:thing|bit|part|trip|note|memory|one|info|detail|details|entry|idea|plan)\b"
    r"|\b(?:ignore|forget|delete|drop|scrap|remove|disregard)\s+(?:the|that|this)\s+(?:bit|part|thing|stuff|line|detail)s?\s+(?:about|on|where)\b",
    re.IGNORECASE,
)
# The take-back's own words, left out of what it names.
_WORDS_ZH = re.compile(
    r"(?:那些|这些|统统|通通|全都|别的|其他的?|其它的?|其余的?)(?=[^，。]{0,2}(?:删|别|不用|忘|去掉|抹))|都(?=删|别记|不用|忘|去掉|抹)|(?:你)?(?:就)?当(?:我)?没(?:说过?|讲过|提过?)|(?:你)?(?:就)?当没听见|忽略(?:掉|它)?|先|暂时|的事|别存|不用存|别再?|不要再?|不用再?|不必|无需|甭|没必要|帮我|给我|记住|记下来?|记录|记着|记得|记|存|保存|留着|那条|这条|那句|这句|上一条|刚才|之前|前面|说的|那个|这个|记忆|删掉|删了|删除|去掉|撤回|作废|不算数?|忘了吧|忘掉吧?|忘记|忘了|当我没说|我收回|收回|取消|抹掉|关于|的事|这件事|那件事|这事|那事|吧|了|啦|呀|啊|哦|把|请|麻烦|也|就|算了|其实|对了"
)
_WORDS_EN = re.compile(
    r"\b(?:please|just|and|so|now|oh|actually|wait|forget|about|that|this|it|what|i|said|just|don'?t|do|not|no|need|to|never|remember|record|save|note|store|keep|leave|out|of|hang|hold|onto|on|log|write|down|file|away|notes|records|files|memories|scratch|disregard|ignore|take|back|mind|delete|remove|erase|drop|memory|from|your|the|my|thing|part|stuff|bit|earlier|before|anymore|strike|unsay|right|true|can|you|could|would|all|everything|anything|pretend|didn'?t|mention|mentioned|hold|off|saving|remembering|noting|storing|recording|was|a|joke|kidding|'s|s)\b",
    re.IGNORECASE,
)


_SCRATCH_THEN = re.compile(
    r"^\s*(?:(?:ok|oh|wait|sorry|no)[,\s]+)?(?:scratch|strike) that\b[,.;:!\s—–-]+(?P<rest>\S.*)$",
    re.IGNORECASE,
)


def scratched_for_new(sentence: str) -> bool:
    """ "scratch that, it's KPMG": the words before are corrected by what follows, not
    forgotten — a correction, read as one (a bare "scratch that" still takes back)."""
    m = _SCRATCH_THEN.match(sentence)
    return m is not None and len(m["rest"].split()) >= 2 and not takes_back(m["rest"])


def takes_back(text: str) -> bool:
    """The clause takes something back or asks to forget it (别记…了, 那条删掉, 刚才说的不算,
    forget that…, scratch that) — not 别忘了 or "I always forget to buy milk"."""
    if re.search(r"别忘|不要忘|别忘记|don'?t forget|do not forget", text, re.IGNORECASE):
        return False
    return bool(
        _DONT_KEEP_ZH.search(text)
        or _DROP_ZH.search(text)
        or _DROP_EN.search(text)
        or intent.forgets_about(text)
    )


# A clause that points at one thing said (the Korean thing was a joke; 大理那个还没定): what a
# take-back beside it that names nothing (ignore it) is about.
_POINTED = re.compile(
    r"\b(?:the|that|my)\s+(?P<en>[\w' -]{2,30}?)\s+(?:thing|bit|part|stuff)\b"
    r"|(?P<zh>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?:那个|那件事|的事|那条)",
    re.IGNORECASE,
)


def pointed_at(sentence: str, clause: str) -> str:
    """What the other clauses of ``sentence`` point at as one thing said ("Korean" of "the
    Korean thing was a joke, ignore it"), or ""."""
    m = _POINTED.search(sentence.replace(clause, " ", 1))
    return (m["en"] or m["zh"] or "").strip() if m is not None else ""


def what_is_taken_back(text: str) -> str:
    """What the take-back names (我喜欢鸭血 of 别记我喜欢鸭血了; Hangzhou of "forget that I
    live in Hangzhou"), "" when it names nothing (刚才那条删掉, scratch that): then it is
    the statement just before it."""
    rest = _WORDS_EN.sub(" ", _WORDS_ZH.sub(" ", text))
    rest = re.sub(r"[\s，,。.!！?？:：;；~～\"'“”]+", " ", rest).strip()
    # Left-overs too short to name anything (我, 那, a lone letter); one Chinese character
    # can (葱的事忘掉吧).
    left = re.sub(r"[\s我你他她它那这的都也就还全]", "", rest)
    return rest if len(left) >= 2 or re.fullmatch(r"[\u4e00-\u9fff]", left) else ""


# What a take-back keeps of what it takes back (当我没说，就记个目标就行; never mind all that,
# just keep the goal; 别的都删了，只留城市; forget everything except the allergy): the
# memories these words name stay.
_KEEP_ONLY = re.compile(
    r"(?:只|就|仅|光)(?:需要|要)?(?:记|留|保留|记住|存)(?:下|着|一下)?(?:个|那个|这个)?"
    r"(?P<zh>[\u4e00-\u9fffA-Za-z0-9]{1,12}?)(?:那条|这条|那个|这个|的事)?"
    r"(?:就行了?|就好了?|就可以了?|就够了|就成|吧|了|啦)?\s*(?=$|[，。！？,.!?~～])"
    r"|(?:除了|除开)(?P<zh2>[\u4e00-\u9fff]{1,8}?)(?:那条|这条|的事)?(?:之外|以外)?[，,]?(?:其他|别的|其余)"
    r"|\b(?:just|only)\s+(?:keep|remember|save|note)\s+(?!\w+ing\b)(?:the\s+|my\s+|that\s+)?(?P<en>[\w' -]{2,40}?)"
    r"(?:\s+(?:part|bit|thing|one))?\s*(?=$|[,.!?;])"
    r"|\b(?:keep|remember)\s+(?:only|just)\s+(?:the\s+|my\s+)?(?P<en2>[\w' -]{2,40}?)\s*(?=$|[,.!?;])"
    r"|\b(?:except|other than|apart from)\s+(?:for\s+)?(?:the\s+|my\s+)?(?P<en3>[\w' -]{2,40}?)\s*(?=$|[,.!?;])",
    re.IGNORECASE,
)


def kept_by(text: str) -> str:
    """What a take-back's words keep (目标 of 当我没说，就记个目标就行; the goal of "never mind
    all that, just keep the goal"), "" when they keep nothing."""
    m = _KEEP_ONLY.search(text)
    if m is None:
        return ""
    return next((g for g in m.groups() if g), "").strip()


def keeps_only(text: str) -> bool:
    """The clause only says what a take-back keeps (就记个目标就行, just keep the city)."""
    m = _KEEP_ONLY.search(text)
    return m is not None and len(text.strip(" ，,。.!！~～")) - (m.end() - m.start()) <= 4


# The words that name what a memory is about, by its key (生日那个删掉吧: the birthday;
# ignore the bit about where I live: the city).
KEY_NAMES: dict[str, tuple[str, ...]] = {
    "city": (
        "住",
        "住址",
        "地址",
        "城市",
        "哪里",
        "live",
        "living",
        "address",
        "city",
        "location",
        "where i",
    ),
    "hometown": ("老家", "家乡", "hometown", "from"),
    "birthday": ("生日", "出生", "birthday", "born", "birth"),
    "age": ("年龄", "岁", "age", "old"),
    "employer": ("公司", "单位", "工作", "company", "employer", "job", "work"),
    "occupation": ("工作", "职业", "job", "work", "occupation"),
    "pet": ("宠物", "猫", "狗", "pet", "cat", "dog"),
    "travel_plan": ("旅行", "旅游", "出差", "行程", "trip", "travel", "flight"),
    "allergy": ("过敏", "allerg"),
    "medication": ("药", "medication", "medicine", "meds"),
    "health_condition": ("病", "健康", "health", "condition"),
    "phone": ("电话", "手机", "phone", "number"),
    "email": ("邮箱", "email"),
    "address": ("地址", "住址", "address"),
    "language": ("语言", "语", "language"),
    "vehicle": ("车", "car"),
    "goal": ("目标", "goal", "aim"),
    "school": ("学校", "school"),
    "blood_type": ("血型", "blood"),
    "rent": ("房租", "租金", "rent"),
    "income": ("工资", "薪", "收入", "salary", "income", "take-home", "paycheck"),
    "mortgage": ("房贷", "mortgage"),
}


def _key_named(word: str, folded: str) -> bool:
    """A key's word in the take-back's words: Chinese anywhere, English as a word or its
    forms (rent names "the rent bit", not "parents"; allerg names allergies)."""
    if not word.isascii() or " " in word:
        return word in folded
    from ekko_memory.service.extraction.revisions import stem

    said = re.findall(r"[a-z][a-z'-]*", folded)
    return any(
        x == word or stem(x) == stem(word) or (len(word) >= 5 and x.startswith(word)) for x in said
    )


def _words(text: str) -> set[str]:
    """The topic words of a text, English ones by their stem (the pregnancy part names
    "I'm pregnant")."""
    from ekko_memory.service.extraction.revisions import stem, topic_words

    return {stem(word) for word in topic_words(text)}


def names(node: MemoryNode, named: str) -> bool:
    """The take-back's words ``named`` name ``node``: a word the memory is about (its
    value, entities, a word of its key's topic), or a word of the user's own words it holds
    (我不喝酒那条去掉吧 names the memory of 我不喝酒，聚会一般都喝饮料)."""
    folded = named.casefold()
    value = node.value_json
    about = [*node.entities]
    if isinstance(value, str):
        about.append(value)
    elif isinstance(value, dict):
        about += [v for v in value.values() if isinstance(v, str)]
    # In any of its names: forget what I said about scallions names 葱.
    if any(
        (
            name.casefold() in folded
            if not name.isascii()
            else re.search(rf"(?<![\w]){re.escape(name.casefold())}(?:s|es)?(?![\w])", folded)
        )
        for a in about
        if a
        for name in same_names(a)
        if len(name) >= 2 or not name.isascii()
    ):
        return True
    if node.key is not None and any(_key_named(w, folded) for w in KEY_NAMES.get(node.key, ())):
        return True
    said = f"{node.title} {node.content}".casefold()
    whole = named.strip().casefold()
    # An English word as a word: "my ex" names no memory of "next Tuesday" or "Excel".
    if len(whole) >= 2 and (
        whole in said
        if not whole.isascii()
        else re.search(rf"(?<![\w-]){re.escape(whole)}(?:s|es)?(?![\w])", said) is not None
    ):
        return True
    return bool(_words(named) & _words(f"{node.title} {node.content}"))


# A take-back of the end of the message before (ignore that last bit, 最后那句不算).
LAST_BIT = re.compile(
    r"最后(?:那|一)句|后面那句|后半句|\b(?:last bit|last part|last sentence|last thing i said)\b",
    re.IGNORECASE,
)
# A take-back that points at what was just said (刚才说的…, that last bit).
POINTS_BACK = re.compile(
    r"刚才|刚刚|上一句|前面说的|上面说的|\b(?:just said|just told you|last bit|that last|i just mentioned)\b",
    re.IGNORECASE,
)


def earlier_in_message(before: list[str], text: str, sentence: str) -> list[str]:
    """The sentences of the same message, said before the take-back ``text`` (in
    ``sentence``), that it takes back: 我不吃香菜。算了，这条别记了 — the one just before it when
    it names nothing, the ones it names otherwise; [] when it names none of them (then it
    speaks of what was said earlier, or of a memory)."""
    if not before or LAST_BIT.search(sentence):
        return []
    named = what_is_taken_back(text)
    if not named:
        return [before[-1]]
    words = _words(named)
    single = re.sub(r"[\s我你他她它那这的事]", "", named)
    return [
        s
        for s in before
        if words & _words(s) or (re.fullmatch(r"[\u4e00-\u9fff]", single) and single in s)
    ]
