"""Frames for likes and dislikes beyond food (music, sports, tools, places, how they like
answers): the verb of liking or disliking, and what follows it, in the user's words.

Food is read by the cooking frames (ingredients, cuisines and flavors have keys of their own);
these take what they leave.
"""

from __future__ import annotations

import re

from ekko_memory.schema import intent
from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.findings import Finding, clip
from ekko_memory.service.extraction.statements import Statement

_DEGREE_ZH = r"(?:这人|这个人|一向|一贯|历来|打小|基本上?|一般|平时|平常|主要|通常|更|会|倒是|其实|很|超|超级|特别|非常|最|真的|真|实在|挺|蛮|比较|一直|就|还是|也|都|尤其|十分|相当|巨|贼|太|从小就?|向来|始终|完全|根本)*"
# Can't bear, can't take in (吃不了, 听不来, 看不惯): what one cannot do with a thing.
_CANNOT_ZH = r"(?:吃不了|喝不了|吃不来|喝不来|吃不惯|喝不惯|用不惯|听不来|听不惯|听不进去|看不来|看不惯|看不下去|受不了|忍不了|碰不了|碰不得|吃不得|闻不了|接受不了|欣赏不来|玩不来|忍受不了)"
_LIKE_ZH = re.compile(
    rf"^{_DEGREE_ZH}(?P<verb>喜欢|爱|热爱|偏爱|偏好|倾向于|更倾向于?|看重|迷上了?|迷|钟爱|酷爱|喜爱|爱好是?|喜好|沉迷于?|热衷于?|中意|只喝|只吃|只用|只听|只看|只穿|只玩)(?!的)(?P<v>.+)$"
    rf"|^(?:的)?(?:爱好|兴趣|兴趣爱好)(?:就)?(?:是|有)(?P<v2>.+)$"
    rf"|^(?:最|还是|更|比较)?(?:喜欢|爱)的(?:(?P<what>[\u4e00-\u9fff]{{1,6}}?))??(?:就|还)?是(?P<v3>.+)$"
    rf"|^(?:最近)?(?:在|一直在|天天|每天都在)?(?:循环|追|刷|沉迷于?|迷上了?|爱上了?|喜欢上了?|入坑了?|入了)(?P<v4>.+)$"
    # 音乐的话我主要听民谣: what the user mostly listens to, reads, watches or plays.
    rf"|^(?:平时|平常)?(?:主要|最常|经常|常)(?P<verb4>听|看|读|玩|追)(?P<v25>[^，,。]{{2,12}})$"
    # 游泳倒是挺喜欢的: the thing first, then the liking.
    rf"|^(?P<v5>[\u4e00-\u9fffA-Za-z0-9 ]{{2,12}}?)(?:我)?(?:倒是|倒|就|还|也|是)?{_DEGREE_ZH}(?<![可恋])(?:喜欢|爱|热爱)(?:的|吃|喝|玩|看|听)?(?:呢|啊|哦)?$"
    # 后摇真的太适合写代码了: a thing the user finds just right for something they do.
    rf"|^(?!这|那|今天|今晚|明天|现在|天气|你|您|他|她|它)(?P<v6>[\u4e00-\u9fffA-Za-z0-9 ]{{2,10}}?)(?:真的|真是|简直|实在|也)?(?:太|最|超级?|特别|非常|巨)适合(?!你|您|他|她|我们)(?P<fit>[\u4e00-\u9fff]{{1,8}}?)(?:了|啦|的|呢)*$"
    # 不过要换燕麦奶: the milk, tea or drink one has one's coffee or tea switched to.
    rf"|^(?:要|得|都|会|一般|习惯)?(?P<verb2>换成?|改成|改用|换用|改喝|换喝)(?P<v8>[\u4e00-\u9fffA-Za-z]{{1,6}}?(?:奶|茶|咖啡|豆浆|糖浆|代糖))(?:的)?$"
    # 对篮球特别感兴趣: an interest in a thing.
    rf"|^(?!.*(?:今天|今晚|现在|这会儿))(?:对|于)(?P<v13>[^，,。]{{1,12}}?){_DEGREE_ZH}(?:很|特别|超|非常|挺|蛮|比较|一直)?(?:感兴趣|有兴趣)(?:的)?$"
    # 离不开咖啡: what one cannot do without.
    rf"|^{_DEGREE_ZH}(?P<need>离不开|少不了|戒不掉)(?P<v7>.+)$"
    # 喝奶茶只要三分糖, 咖啡都要去冰: how the user has a drink.
    rf"|^(?:喝)?(?P<drink>咖啡|奶茶|茶|拿铁|美式|豆浆|果茶|柠檬茶)(?:的话)?(?:我)?(?:都|一般|一律|基本|只|就)*(?P<verb3>只要|都要|要|点|喝)(?P<v23>[\u4e00-\u9fff\d]{{1,4}}?(?:糖|冰|奶|温|热|杯|份))(?:的)?$"
    # 看书喜欢看实体书, 旅游更喜欢自由行: what the user likes within a thing they do.
    rf"|^(?P<doing>看书|读书|旅游|旅行|出门|出差|运动|健身|跑步|吃饭|吃火锅|喝酒|听歌|听音乐|看电影|看剧|买衣服|购物|写代码|打游戏|做饭|学习|通勤|开车|骑车)(?:的时候|的话)?(?:我)?{_DEGREE_ZH}(?:喜欢|爱|偏爱|偏好)(?P<v24>.+)$"
    # 我是猫派, 甜食控, 咸党: the side one is on, said as what one is.
    rf"|^(?:是)?{_DEGREE_ZH}(?:个|一个)?(?P<v17>(?:猫|狗|咸|甜|辣|肉|素|早起|夜猫子|咖啡|茶|[\u4e00-\u9fff]{{1,3}}食)(?:派|党)|[\u4e00-\u9fff]{{1,3}}控)(?:的|一枚|来的)?$"
)
# How one reacts each time to a thing (闻着就想吐, 一看到…就头疼): a dislike said by reaction.
REACTION_ZH = r"(?:想吐|恶心|反胃|犯恶心|倒胃口|头疼|头痛|头大|头晕|心烦|烦|难受|受不了|起鸡皮疙瘩|发怵|犯困|想哭|崩溃)"
# Not one time that happened (今天闻到烟味就想吐): the reaction said of every time.
_ONCE_ZH = r"(?!.*(?:今天|昨天|前天|刚才|刚刚|这次|那次|上次|今早|昨晚|今晚|现在))"
_DISLIKE_ZH = re.compile(
    rf"^{_ONCE_ZH}(?:每次|只要)?一?(?:看到|看见|听到|闻到|碰到|想到|提到|见到|吃到|喝到)(?P<v9>[^，,。就都]{{1,12}}?)(?:就|都|会)+{REACTION_ZH}"
    rf"|^{_ONCE_ZH}(?P<v10>[^，,。]{{1,12}}?)(?:我)?(?:每次|只要)?一?(?:看|听|闻|吃|喝|碰|想|提)(?:着|到|见|起来)?(?:就|都|会)+{REACTION_ZH}"
    rf"|^(?:是)?{_DEGREE_ZH}(?P<verb>不喜欢|讨厌|烦|不爱|不太喜欢|反感|厌恶|怕|恨(?!不得)|讨厌死了?|不感冒|{_CANNOT_ZH})(?P<v>.+)$"
    rf"|^(?P<v2>[\u4e00-\u9fffA-Za-z0-9 ]{{2,12}}?)(?:我)?(?:是)?{_DEGREE_ZH}(?<!得)(?:不喜欢|讨厌|不爱|反感|{_CANNOT_ZH})(?:的|吃|喝|玩|看|听)?(?:呢|啊|哦|了)?$"
    # 对海鲜没啥兴趣, 对理财一点兴趣都没有: no interest in a thing.
    rf"|^{_ONCE_ZH}(?:对|于)(?P<v12>[^，,。]{{1,12}}?){_DEGREE_ZH}(?:没(?:啥|什么|多大|太大|有|有什么|有啥)?(?:兴趣|兴致)|不(?:太|怎么|大)?感兴趣|不感冒|无感|提不起(?:什么|啥)?兴趣|一点(?:儿)?(?:兴趣都没有?|都不感兴趣))"
    # 奶油就别加了: what not to have added to one's food or drink.
    rf"|^(?P<v5>[\u4e00-\u9fffA-Za-z]{{1,6}}?)(?:就|也|都|可以)?(?P<add>别|不要|不用|甭)(?:给我)?(?:加|放)了?(?:吧|哈|啊)?$"
    # 一点辣都吃不了, 一首说唱都听不下去: not even a little of it.
    rf"|^(?:是)?{_DEGREE_ZH}(?:一点|一口|一丁点|半点|一点点|一首|一集|一部|一页)(?:儿)?(?P<v3>[\u4e00-\u9fffA-Za-z0-9 ]{{1,10}}?)(?:都|也){_DEGREE_ZH}{_CANNOT_ZH}"
    rf"|^(?:是)?{_DEGREE_ZH}(?P<v4>[\u4e00-\u9fffA-Za-z0-9 ]{{1,10}}?)(?:是)?{_DEGREE_ZH}(?:一点|一口|半点)(?:儿)?(?:都|也){_DEGREE_ZH}{_CANNOT_ZH}"
    # 我不太喝咖啡, 从来不抽烟, 很少看电视: what one does not (or seldom) take or do, as a habit.
    rf"|^{_ONCE_ZH}(?:是)?{_DEGREE_ZH}(?P<seldom>(?:不|从不|从来不|几乎不|很少|不怎么|不大|不太|不常)(?:太|怎么|大|常|咋)?(?:吃|喝|抽|看|玩|听|碰|追))(?![得懂见到出好着完过清了下上起])(?P<v16>[^，,。！!？?了吗呢啊]{{1,10}})$"
)
_ADV_EN = r"(?:really\s+|absolutely\s+|totally\s+|just\s+|also\s+|do\s+|kinda\s+|kind\s+of\s+|still\s+|so\s+|super\s+|very\s+|pretty\s+|big\s+time\s+)*"
_LIKE_EN = re.compile(
    rf"^(?:am\s+|is\s+|are\s+)?{_ADV_EN}(?P<verb>like|likes|love|loves|adore|adores|enjoy|enjoys|prefer|prefers|into|a\s+(?:big\s+|huge\s+)?fan\s+of|obsessed\s+with|crazy\s+about|hooked\s+on|addicted\s+to|only\s+drink|only\s+eat|only\s+use|only\s+watch|only\s+read|only\s+listen\s+to|only\s+play|only\s+wear|(?:big|huge)\s+fan\s+of|(?:a\s+)?(?:total\s+|huge\s+|real\s+)?sucker\s+for)\s+(?P<v>.+)$"
    # a huge Arsenal fan, a big Taylor Swift fan: the one the user follows.
    rf"|^(?:am|is)\s+{_ADV_EN}(?:a|an)\s+(?:huge|big|massive|die-?hard|lifelong|total|long-?time)\s+(?P<v19>(?-i:[A-Z])[\w.&' -]{{1,30}}?)\s+fan\b"
    # I'm big on hiking, I lean towards minimalist design, my go-to is oat milk, I'd pick
    # Android over iPhone any day.
    r"|^(?:am\s+|is\s+)?(?:really\s+|pretty\s+|super\s+)?(?:big|huge)\s+on\s+(?P<v26>[\w -]{2,30}?)$"
    r"|^(?:tend\s+to\s+)?(?:lean|leans|lean\s+more)\s+(?:towards?|toward)\s+(?P<v27>[\w -]{2,30}?)$"
    r"|^(?:my\s+)?go-?to\s+(?:\w+\s+)?is\s+(?P<v28>[\w -]{2,30}?)$"
    r"|^(?:'d|would)\s+(?:pick|choose|take)\s+(?P<v29>[\w -]{2,30}?)\s+over\s+(?P<other2>[\w -]{2,30}?)(?:\s+any\s+day(?:\s+of\s+the\s+week)?)?$"
    # tea all the way: the one of two the user picks.
    r"|^(?P<v20>[\w -]{2,20}?)\s+all\s+the\s+way[.!]*$"
    # I'd rather take the train than fly: the one rather than the other.
    r"|^(?:'d|would)\s+(?:much\s+)?rather\s+(?P<v21>[\w -]{2,40}?)\s+than\s+(?P<other>[\w -]{2,30}?)$"
    r"|^(?:'s\s+)?favou?rite\s+(?P<what>[\w ]{1,20}?)\s+is\s+(?P<v2>.+)$"
    rf"|^(?:am|is)\s+{_ADV_EN}(?:pretty\s+much\s+|basically\s+|definitely\s+|totally\s+|more\s+of\s+|such\s+)*(?:a|an)\s+(?P<v3>[\w -]{{2,20}}?)\s+person\b"
    r"|^(?P<v4>[\w -]{3,30}?)\s+(?:is|are)\s+(?:basically\s+|literally\s+|pretty\s+much\s+|definitely\s+|still\s+)?my\s+(?:whole\s+personality|thing|life|passion|obsession|favou?rite\s+thing|jam|comfort\s+food|go-to|guilty\s+pleasure|happy\s+place|weakness)\b"
    # give me a good curry any day: what one would always pick.
    r"|^give\s+me\s+(?:a\s+good\s+|good\s+|a\s+|an\s+|some\s+)?(?P<v6>[\w -]{2,30}?)\s+any\s+day(?:\s+of\s+the\s+week)?\b"
    # can't use any editor without vim keybindings: what one cannot do without.
    r"|^(?P<need>can'?t|cannot|could\s*n'?t)\s+(?:use|work|code|program|write|type|live|function|cook|sleep|study|focus|eat|drink|survive|concentrate|relax|go\s+a\s+day|start\s+(?:my|the)\s+(?:day|morning)|get\s+through\s+(?:the|my)\s+(?:day|morning))\b(?:\s+\w+){0,4}?\s+without\s+(?:my\s+|a\s+|an\s+|some\s+)?(?P<v7>[\w -]{2,40}?)$",
    re.IGNORECASE,
)
_DISLIKE_EN = re.compile(
    # I don't really drink alcohol, I rarely watch TV: what one does not (or seldom) take or do.
    r"^(?P<seldom>(?:(?:really\s+|actually\s+|usually\s+|generally\s+)?(?:don'?t|do\s+not)|never|rarely|hardly\s+ever|seldom)\s+(?:really\s+|usually\s+|much\s+|ever\s+|actually\s+|even\s+|generally\s+)?(?:eat|drink|smoke|watch|play|read|listen\s+to))\s+(?!(?:much|enough|a\s+lot|anymore|any\s+more|that|those|these|it|them|either|out|in|at|on|with|before|after|until|during)\b)(?P<v16>[\w -]{2,40}?)(?:\s+(?:at\s+all|much|anymore|any\s+more|either|these\s+days))*$"
    # I don't drink, I never smoke: the habit with no object.
    r"|^(?P<seldom2>(?:(?:really\s+|actually\s+)?(?:don'?t|do\s+not)|never)\s+(?:really\s+|actually\s+|even\s+)?(?P<v18>drink|smoke))(?:\s+(?:at\s+all|much|anymore|either))*$"
    rf"|^(?:am\s+|is\s+)?{_ADV_EN}(?P<verb>not\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|hate|hates|dislike|dislikes|can'?t\s+stand|cannot\s+stand|don'?t\s+like|do\s+not\s+like|doesn'?t\s+like|am\s+not\s+(?:a\s+)?(?:big\s+)?fan\s+of|am\s+not\s+into|detest|loathe|don'?t\s+enjoy|am\s+sick\s+of|am\s+tired\s+of|can'?t\s+do|cannot\s+do|can'?t\s+handle)\s+(?P<v>.+)$"
    # Anything but horror please: what is ruled out of a request.
    r"|^anything\s+but\s+(?P<v2>[\w -]{2,30}?)(?:\s+please)?[.!]*$"
    # I'm not a morning person; I'm a total wimp with spice.
    r"|^(?:am|is)\s+(?:really\s+|just\s+|definitely\s+|so\s+)?(?:not|never\s+been)\s+(?:really\s+|much\s+of\s+)?(?:a|an)\s+(?P<v14>[\w -]{2,20}?\s+person)\b"
    # not really a coffee drinker, not much of a reader: what one does not take to.
    r"|^(?:am|is)\s+(?:really\s+|just\s+|definitely\s+|so\s+)?(?:not|never\s+been)\s+(?:really\s+|much\s+of\s+|big\s+on\s+being\s+)?(?:a|an)\s+(?:big\s+|huge\s+|heavy\s+|great\s+)?(?P<v22>(?:[\w-]+\s+)?(?:drinker|eater|reader|gamer|runner|cook|fan|watcher|traveller|traveler|swimmer|dancer|drinker))\b"
    r"|^(?:am|is)\s+(?:a\s+)?(?:total\s+|complete\s+|huge\s+|big\s+|such\s+a\s+)?(?:wimp|lightweight)\s+(?:with|when\s+it\s+comes\s+to)\s+(?P<v15>[\w -]{2,30}?)$"
    # anything with olives is a no from me; raisins are a hard pass.
    r"|^(?:anything\s+with\s+|any\s+)?(?P<v3>[\w -]{2,30}?)\s+(?:is|are)\s+(?:a\s+)?(?:hard\s+|big\s+|firm\s+|definite\s+|total\s+)?(?:no|nope|pass|dealbreaker)(?:\s+(?:from|for)\s+me)?\b"
    # bright screens literally hurt my eyes: something one cannot take (not "the", "this").
    r"|^(?!(?:the|this|that|these|those|it|its|my|your|his|her|our|their)\b)(?P<v4>[\w -]{2,30}?)\s+(?:literally\s+|really\s+|actually\s+|always\s+|just\s+)?(?:hurts?|kills?|strains?)\s+my\s+(?:eyes|ears|head)\b"
    # coffee makes me jittery: what upsets the user each time.
    r"|^(?!(?:the|this|that|these|those|it|its|my|your|his|her|our|their)\b)(?P<v5>[\w -]{2,30}?)\s+(?:always\s+|just\s+|really\s+)?(?:makes?|gives?)\s+me\s+(?:so\s+|really\s+|super\s+)?(?:jittery|bloated|sick|nauseous|queasy|ill|headaches?|migraines?|heartburn|the\s+shakes)\b"
    # the smell of durian makes me gag; just seeing a spreadsheet gives me a headache.
    r"|^(?:(?:just|even)\s+)?(?:the\s+(?:smell|sight|sound|taste|thought)\s+of|seeing|smelling|hearing|looking\s+at|thinking\s+(?:of|about))\s+(?:a\s+|an\s+|any\s+)?(?P<v11>[\w -]{2,30}?)\s+(?:always\s+|just\s+|instantly\s+|literally\s+)?(?:makes?\s+me\s+(?:want\s+to\s+)?(?:gag|puke|throw\s+up|vomit|retch|sick|nauseous|queasy|cringe|shudder)|gives?\s+me\s+(?:a\s+)?(?:headaches?|migraines?|the\s+creeps|the\s+ick))\b",
    re.IGNORECASE,
)
# What is no thing liked: the verb's other uses (喜欢你, 爱说, I'd love to, I like that idea).
_NOT_A_THING = re.compile(
    r"^(?:你|您|这个|那个|这样|那样|这些|那些|它|他|她|吗|呢|的|了|死|透|坏|惨|疯|吃|喝|玩|看|听|用|做)$|^(?:to|it|that|this|you|them|him|her|the idea|your|how|what|when|if)\b",
    re.IGNORECASE,
)
# How the user wants answers (回答简短点, keep it short, no emojis).
_STYLE_ZH = re.compile(
    r"(?:回答|回复|答复|说话|解释|写)[^，。！？]{0,6}?(?P<v>简短|简洁|短一?点|详细|具体|分点|列表|用表格|口语化|正式|直接|别啰嗦|不要啰嗦|少废话|带例子|举例子|通俗|专业)"
    r"|(?P<v3>(?:别|不要|少|甭)(?:整|说|写|来|给我)?(?:那么多|太多|一堆)?(?:废话|铺垫|客套话?|长篇大论|车轱辘话|套话)|说重点|直接(?:说|给)?结论|长话短说|一句话说清楚?|简单说就行|挑重点说)"
    r"|(?P<v2>不要|别|少)(?:用|带|加|发)?(?:那么多|这么多|太多|一堆)?(?:表情|emoji|表情包)"
)
# A request said as a question (回答能不能短一点, can you keep your answers shorter?).
_ASKS_FOR = re.compile(
    r"能不能|可不可以|能否|可以.{0,8}吗|\b(?:can|could|would)\s+you\b", re.IGNORECASE
)
_STYLE_EN = re.compile(
    r"\b(?:keep|make)\s+(?:it|answers|replies|responses|things|your\s+answers|your\s+replies)\s+(?P<v>short|shorter|brief|briefer|concise|simple|detailed)\b"
    r"|\b(?P<v2>no emojis?|without emojis?|(?:stop|quit) using emojis?|don'?t use emojis?|no more emojis?|use bullet points|bullet points|be more concise|be concise|be brief|more detail|in detail|step by step|plain english|be direct)\b",
    re.IGNORECASE,
)


# 宁坐高铁不坐飞机: the one rather than the other.
_RATHER_ZH = re.compile(
    r"宁(?:可|愿)?(?P<a>[\u4e00-\u9fffA-Za-z]{1,8}?)(?:也)?(?:不|不要|不想)(?P<b>[\u4e00-\u9fffA-Za-z]{1,8})"
    # 能坐高铁就坐高铁: whenever one can, the same thing.
    r"|^(?:能|只要能|可以)(?P<a2>(?P<verb>[\u4e00-\u9fff])[\u4e00-\u9fffA-Za-z]{1,6}?)就(?:尽量)?(?P=a2)"
)


def _verb(m: re.Match[str], default: str) -> str:
    """The verb of liking as said (看重, 偏好, 只喝), 喜欢 when it was a topic-first 喜欢."""
    verb = m.groupdict().get("verb") or ""
    return (
        verb
        if verb and verb not in ("爱", "迷") and not verb.startswith(("喜欢", "不喜欢"))
        else default
    )


def _title(m: re.Match[str], thing: str, zh: bool, verb_zh: str, verb_en: str) -> str:
    """The preference as the user put it: 喜欢后摇（适合加班）, 离不开咖啡, Needs vim keybindings."""
    found = m.groupdict()
    if found.get("fit"):
        return f"喜欢{thing}（适合{found['fit']}）"
    if found.get("add"):
        return f"不加{thing}"
    if found.get("v8"):
        return f"要{found['verb2']}{thing}"
    if found.get("v14"):
        return f"Not a {thing}"
    if found.get("v25"):
        return f"主要{found['verb4']}{thing}"
    if found.get("v23"):
        return f"{found['drink']}{found['verb3']}{thing}"
    if found.get("v24"):
        return f"{found['doing']}喜欢{thing}"
    if found.get("v19"):
        return f"{thing} fan"
    if found.get("v29"):
        return f"{thing} over {found['other2'].strip()}"
    if found.get("v21"):
        return f"Rather {thing} than {found['other'].strip()}"
    if found.get("v22"):
        return f"Not a {thing}"
    if found.get("v17"):
        return f"是{thing}" if zh else thing
    if found.get("seldom") or found.get("seldom2"):
        # 不太喝咖啡, I rarely watch TV: the habit in the user's words, no liking read into it.
        return f"{found['seldom']}{thing}" if zh else f"I {m.group(0)}"
    if found.get("v7"):
        return f"离不开{thing}" if zh else f"Needs {thing}"
    return f"{_verb(m, verb_zh)}{thing}" if zh else f"{verb_en} {thing}"


def _thing(raw: str, zh: bool) -> str:
    value = w.clean_zh(raw) if zh else w.clean_en(raw)
    if zh:
        # 一点辣, 一口羊肉 (都吃不了): not even a little of the thing.
        value = re.sub(r"^(?:一点点?|一口|一丁点|半点)(?:儿)?(?=.)", "", value)
        # 喜欢吃/听/看/玩/去 X: the verb belongs to the liking, X is the thing.
        value = re.sub(
            r"^(?:吃|喝|听|看|玩|打|去|用|做|逛|跑|读|骑|唱|画|弹|拍)(?=.{2,})",
            lambda m: m.group(),
            value,
        )
    return value


# The groups a liking's thing is read into, by frame.
_GROUPS = (
    "v",
    "v2",
    "v3",
    "v4",
    "v5",
    "v6",
    "v7",
    "v8",
    "v9",
    "v10",
    "v11",
    "v12",
    "v13",
    "v14",
    "v15",
    "v16",
    "v17",
    "v18",
    "v19",
    "v20",
    "v21",
    "v22",
    "v23",
    "v24",
    "v25",
    "v26",
    "v27",
    "v28",
    "v29",
)
# What follows 吃不了/受不了/怕 and is no thing: an amount, a person, an event feared.
_NOT_A_THING_ZH = re.compile(
    r"^(?:那么|这么|太多|多少|一整|完|了|我|你|您|他|她|它|这个人|那个人)"
    r"|^(?:会|被)|(?:来不及|赶不上|迟到|出事|生气|误会|麻烦)"
    # 怕生, 怕羞: shy, one word — no thing feared.
    r"|^(?:生|羞|事)$"
)
# This one (这部电影, 那家店): a reaction to one thing, no lasting taste.
_ONE_OF_THEM_ZH = re.compile(
    r"^(?:这|那)(?:个|部|本|首|家|次|件|款|位|些|回|顿|杯|道)|^(?:这|那)(?:种|样的?)?(?:鬼)?天(?:气|儿)?"
)
# A day or time (Friday is a no for me): a schedule, no taste.
_A_TIME_EN = re.compile(
    r"^(?:(?:this|next|on)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|weekend|the\s+weekend|morning|afternoon|evening|\d{1,2}(?::\d\d)?\s*(?:am|pm)?|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b)(?!s\b)\b",
    re.IGNORECASE,
)
# A thing's name said before the user (游泳我倒是挺喜欢的, 说唱我是真听不来).
_TOPIC_HEAD_ZH = re.compile(r"([\u4e00-\u9fffA-Za-z0-9 ]{2,12})(?:我|俺)$")


# Words of food and drink, around 别加/不要放 (the sugar, the ice, the cream).
_TASTE_ZH = re.compile(
    r"吃|喝|咖啡|茶|奶|饭|菜|汤|面|甜|咸|辣|腻|酸|苦|口味|口感|糖|冰|料|酱|葱|蒜|香菜"
)
_ACTIVITY_NOUNS = frozenset(
    {"跑步", "健身", "运动", "学习", "工作", "通勤", "散步", "开车", "做饭"}
)


def _fits_an_activity(thing: str, fit: str) -> bool:
    """后摇太适合加班了: a thing (not a time: 下雨天, 夏天) fit for something the user
    does (a verb: 加班, 看书), not for someone (新手, 小孩)."""
    thing_tags = w.tag(thing)
    if any(pos == "t" for _, pos in thing_tags) or re.search(
        r"(?:天|季|时候|晚上|早上|周末|假期)$", thing
    ):
        return False
    first = w.tag(fit)[:1]
    return bool(first) and (first[0][1].startswith("v") or first[0][0] in _ACTIVITY_NOUNS)


def _negated_before_thing(m: re.Match[str], st: Statement) -> bool:
    """A negation before the thing liked undoes the liking (我不是很喜欢…); one inside or
    after it does not (a tea person, not coffee; 喜欢不加糖的咖啡)."""
    if not st.negated:
        return False
    group = next((g for g in _GROUPS if m.groupdict().get(g)), None)
    if group is None:
        return True
    # Around the thing: before it (我不喜欢…) and, when it comes first, after it (游泳我不是很喜欢).
    said = m.string[: m.start(group)] + " " + m.string[m.end(group) : m.end()]
    if st.text.strip().endswith(m.string) or m.string == st.body.strip():
        # What precedes the body (the subject, a lead: 我其实不…) may hold the negation.
        said = st.text[: max(0, len(st.text) - len(m.string))] + said
    return bool(
        re.search(
            r"不|没|别|甭|\b(?:not|no|never|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|can'?t|won'?t|n't)\b",
            said,
            re.IGNORECASE,
        )
    )


def _raw(m: re.Match[str]) -> str:
    return next((m[g] for g in _GROUPS if m.groupdict().get(g)), "") or ""


def _fear_of_an_event(m: re.Match[str], body: str) -> bool:
    """怕 alone before a clause (我怕来不及, 怕他不高兴) fears an event; 最怕 / 特别怕 X
    names a thing the user dislikes."""
    return m.groupdict().get("verb") == "怕" and not re.search(
        r"(?:最|特别|很|超|真的|非常|贼|巨|太|挺)怕", body
    )


def _read_liking(st: Statement) -> tuple[re.Match[str] | None, re.Match[str] | None]:
    """The dislike or like the clause states: read on its body, and for a Chinese clause
    that names the thing before the user (游泳我倒是挺喜欢的) on the clause from the thing."""
    body = st.body.strip()
    readings = [body]
    if st.zh:
        text = st.text.strip()
        head = text[: len(text) - len(body)] if text.endswith(body) else ""
        topic = _TOPIC_HEAD_ZH.search(head) if head else None
        if topic is not None:
            readings.insert(0, topic.group() + body)
        # 音乐的话我主要听民谣: what is said after the topic of the clause.
        after = re.sub(r"^[\u4e00-\u9fffA-Za-z]{1,6}的话[，,\s]*(?:我|俺)?", "", body)
        if after != body and not st.hypothetical:
            readings.append(after)
    for said in readings:
        if st.zh:
            dislike = _DISLIKE_ZH.match(said)
            like = None if dislike else _LIKE_ZH.match(said)
        else:
            dislike = _DISLIKE_EN.match(said)
            like = None if dislike else _LIKE_EN.match(said)
        m = dislike or like
        # 倒是挺喜欢的 read alone would make 倒是 the thing liked.
        if m is not None and not re.fullmatch(_DEGREE_ZH + r"(?:我|是)?", _raw(m).strip()):
            return dislike, like
    return None, None


def preference(st: Statement) -> Finding | None:
    """A like or dislike of the statement's subject (我很喜欢听周杰伦, I hate jazz)."""
    if st.subject.kind not in ("self", "none", "person") or st.question or st.hypothetical:
        return None
    if st.subject.kind == "none" and st.explicit_subject:
        return None  # 她喜欢花 with nobody to name: not the user's
    body = st.body.strip()
    dislike, like = _read_liking(st)
    m = dislike or like
    if m is None:
        rather = _RATHER_ZH.search(body) if st.zh else None
        if rather is None:
            return None
        thing = w.clean_zh(rather.group())
        return Finding(
            type="preference",
            domain="个人",
            category=["个人", "喜好"],
            key="likes",
            value=thing,
            title=thing,
            content=st.text,
            statement=st,
            scope="user",
            tags=["喜好"],
            entities=[rather["a"] or rather["a2"]],
            importance=0.6,
            reason="what the user would rather",
        )
    if re.search(
        r"不是说|倒不是|也不是|并不是|并非|not that i|it'?s not that", st.text, re.IGNORECASE
    ):
        return None  # 也不是说我不爱听周杰伦: no dislike said
    if like is not None and _negated_before_thing(m, st) and not m.groupdict().get("need"):
        return None  # (can't … without X is a need, no negation)
    if (
        like is not None
        and not st.zh
        and not st.explicit_subject
        and re.match(r"(?:like|likes)\b", body, re.IGNORECASE)
    ):
        return None  # "like 5 cups a day": like as a filler, not a liking
    if m.groupdict().get("v20") and (
        st.explicit_subject or re.search(r"(?:ed|ing)\b", m["v20"], re.IGNORECASE)
    ):
        return None  # "I walked all the way": a way gone, no pick
    thing = _thing(_raw(m), st.zh)
    if m.groupdict().get("what"):
        thing = f"{m['what']}：{thing}" if st.zh else f"{m['what'].strip()}: {thing}"
    if not thing or len(thing) > 60 or _NOT_A_THING.search(thing):
        return None
    if st.zh and (
        _NOT_A_THING_ZH.search(thing) or _fear_of_an_event(m, body) or re.search("我|俺", thing)
    ):
        return None  # 吃不了那么多, 受不了他了, 怕来不及: no thing liked or disliked
    if (
        dislike is not None
        and not m.groupdict().get("v14")  # not a morning person: a kind of person, no day
        and (_ONE_OF_THEM_ZH if st.zh else _A_TIME_EN).search(thing)
    ):
        return None  # 这部电影我看不下去, Friday is a no for me: this one, a day — no taste
    if m.groupdict().get("add") and not _TASTE_ZH.search(st.sentence):
        return None  # 微信就别加了: adding someone, not something to one's food
    if m.groupdict().get("fit") and not _fits_an_activity(thing, m["fit"]):
        return None  # 下雨天最适合…, Python最适合新手: a time, or for someone else
    key = "dislikes" if dislike else "likes"
    zh, en = ("不喜欢", "Dislikes") if dislike else ("喜欢", "Likes")
    if st.subject.kind == "person":
        who = st.subject.person
        return Finding(
            type="fact",
            domain="人物",
            category=["人物", st.subject.relation or st.subject.name or "其他"],
            key=key,
            value={"person": who, "thing": thing},
            title=(
                clip(st.text, 60)
                if m.groupdict().get("seldom") or m.groupdict().get("seldom2")
                else f"我{who}{zh}{thing}"
                if st.zh
                else f"My {who} {en.lower()} {thing}"
            ),
            content=st.text,
            statement=st,
            scope="user",
            tags=["人物"],
            entities=[who, thing],
            importance=0.6,
            person=who,
            reason="what someone in the user's life likes",
        )
    return Finding(
        type="preference",
        domain="个人",
        category=["个人", "喜好"],
        key=key,
        value=thing,
        title=_title(m, thing, st.zh, zh, en),
        content=st.text,
        statement=st,
        scope="user",
        tags=["喜好" if st.zh else "likes"],
        entities=[thing],
        importance=0.6,
        reason="what the user likes or dislikes",
    )


_USES_ZH = re.compile(
    r"^[\u4e00-\u9fffA-Za-z ]{0,10}?(?:一直|平时|现在|目前|主要|都|日常)?(?:用的是|在用|用的|一直用|习惯用|只用|主力机是|主力是)\s*(?P<v>[A-Za-z][\w .+#-]{1,30}|[\u4e00-\u9fff]{2,8})"
)
_USES_EN = re.compile(
    r"^(?:\w+\s+)?(?:use|uses|am\s+on|'m\s+on|switched\s+to|keep\s+(?:all\s+)?(?:my\s+)?\w+\s+in|do\s+everything\s+in|work\s+in|code\s+in|write\s+in)\s+(?P<v>(?-i:[A-Z])[\w.+#-]*(?:\s+(?-i:[A-Z0-9])[\w.+#-]*)*)",
    re.IGNORECASE,
)


def uses(st: Statement) -> Finding | None:
    """A tool or product the user uses (我用的是 Neovim, I keep my notes in Obsidian): what
    to suggest around."""
    if st.subject.kind not in ("self", "none", "we") or st.negated:
        return None
    m = (_USES_ZH if st.zh else _USES_EN).match(st.body.strip())
    if m is None:
        return None
    thing = w.clean_zh(m["v"]) if st.zh else w.clean_en(m["v"])
    if not thing or (
        st.zh
        and re.fullmatch(r"[\u4e00-\u9fff]+", thing)
        and not re.search(r"[软件机器手机电脑系统]", thing)
    ):
        return None
    said = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
    return Finding(
        type="preference",
        domain="个人",
        category=["个人", "喜好"],
        key="likes",
        value=thing,
        title=said if len(said) <= 60 else said[:59] + "…",
        content=st.sentence if len(st.sentence) <= 200 else st.text,
        statement=st,
        scope="user",
        tags=["工具" if st.zh else "tools"],
        entities=[thing],
        importance=0.7,
        reason="a tool the user uses",
    )


def reply_style(st: Statement) -> Finding | None:
    """How the user wants to be answered (回答简短点, no emojis): a request to the assistant
    that is itself the preference."""
    asked = st.question and not st.remember and not _ASKS_FOR.search(st.text)
    if st.subject.kind == "person" or asked or st.hypothetical:
        return None
    m = (_STYLE_ZH if st.zh else _STYLE_EN).search(st.text)
    if m is None:
        return None
    said = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
    return Finding(
        type="preference",
        domain="个人",
        category=["个人", "沟通"],
        key="reply_style",
        value=said,
        title=said if len(said) <= 40 else said[:39] + "…",
        content=st.text,
        statement=st,
        scope="user",
        tags=["沟通"],
        importance=0.8,
        reason="how the user wants replies",
    )


# What the user wants to be called (叫我小李就行, just call me Sam).
_CALL_ME_ZH = re.compile(
    r"^(?:以后|你|您|大家)?(?:就|可以|直接|都)?(?:叫|喊|称呼)我(?P<name>(?:小|老|阿)[\u4e00-\u9fff]{1,2}|[\u4e00-\u9fff]{1,3}?|[A-Za-z]{2,15})"
    r"(?:就行|就好|就可以|就成|吧|好了|哈|呗)[~～!！。]*$"
)
_CALL_ME_EN = re.compile(
    r"^(?:please\s+|pls\s+|you\s+can\s+|just\s+|feel\s+free\s+to\s+)*call\s+me\s+(?P<name>(?-i:[A-Z])[a-z]+(?:\s+(?-i:[A-Z])[a-z]+)?)(?:\s+(?:please|instead|for\s+short|from\s+now\s+on))?[.!]*$",
    re.IGNORECASE,
)
# What follows 叫我 and is no name (叫我起床, 叫我一声, 喊我吃饭).
_NOT_CALLED = re.compile(r"起|吃|去|来|过|一声|一下|回|出|做|帮|别|不|名字|全名|大名|小名")


def preferred_name(st: Statement) -> Finding | None:
    """The name the user wants to be called by (叫我小李就行, just call me Sam)."""
    if st.subject.kind == "person" or st.question or st.hypothetical:
        return None
    m = (_CALL_ME_ZH if st.zh else _CALL_ME_EN).match(st.text.strip())
    if m is None:
        return None
    name = m["name"].strip()
    if st.zh and _NOT_CALLED.search(name):
        return None
    return Finding(
        type="preference",
        domain="个人",
        category=["个人", "沟通"],
        key="preferred_name",
        value=name,
        title=f"称呼：{name}" if st.zh else f"Preferred name: {name}",
        content=st.sentence if len(st.sentence) <= 200 else st.text,
        statement=st,
        scope="user",
        tags=["称呼" if st.zh else "name"],
        entities=[name],
        importance=0.8,
        reason="the name the user wants to be called",
    )


# How the user's code and texts are to be written (注释用英文, commit messages in English,
# 变量名用驼峰): what is written, and the language or the case it is written in.
_WRITTEN_ZH = re.compile(
    r"(?P<what>(?:代码)?注释|commit\s*(?:message|信息)?|提交信息|变量名|函数名|命名|文档|README|日志|接口文档|文案)"
    r"[^，,。；;！!？?]{0,4}?(?:都|统一|一律|全|全部|最好)?(?:用|写|使用|写成|改成)\s*"
    r"(?P<how>中文|英文|英语|日文|日语|韩文|拼音|驼峰|下划线|snake_case|camelCase|小写|大写)",
    re.IGNORECASE,
)
_WRITTEN_EN = re.compile(
    r"\b(?P<what>(?:code\s+)?comments?|commit\s+messages?|variable\s+names?|function\s+names?|docstrings?|docs|documentation|log\s+messages?|readmes?)\b"
    r"[^.,;!?]{0,20}?\bin\s+(?P<how>English|Chinese|Japanese|Spanish|French|German|snake_case|camelCase|lower\s*case|upper\s*case)\b",
    re.IGNORECASE,
)
# Standing, not for this one answer (帮我写个排序，注释用英文 asks for this code only).
_STANDING = re.compile(
    r"以后|今后|往后|一律|统一|每次|都用|都要|一直|习惯|平时|一般|我们(?:组|团队|公司|项目|这边)|团队|开源"
    r"|\b(?:always|from now on|going forward|in general|by default|every time|our (?:team|codebase|repo|project)|we (?:always|use))\b",
    re.IGNORECASE,
)


def writing_convention(st: Statement) -> Finding | None:
    """How the user wants their code and texts written (以后注释用英文, always write commit
    messages in English), as a standing wish — kept in their words."""
    if st.subject.kind == "person" or st.question or st.hypothetical:
        return None
    m = (_WRITTEN_ZH if st.zh else _WRITTEN_EN).search(st.text)
    if m is None or not (_STANDING.search(st.sentence) or st.remember):
        return None
    if intent.mentions_project(st.sentence):
        return None  # 代码库里的注释写中文: the project's convention, kept in its workspace
    said = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
    said = re.sub(r"^(?:以后|今后|往后)?(?:写代码的时候|写代码时)?[，,\s]*", "", said) or said
    return Finding(
        type="preference",
        domain="个人",
        category=["个人", "沟通"],
        key="writing_convention",
        value=said,
        title=clip(said, 60),
        content=st.sentence if len(st.sentence) <= 200 else st.text,
        statement=st,
        scope="user",
        tags=["写作" if st.zh else "writing", m["how"]],
        entities=[m["what"], m["how"]],
        importance=0.8,
        reason="how the user wants their code or texts written",
    )


# Units of measure (for recipes, weights, temperatures, distances).
_UNIT_EN = (
    r"(?:grams?|kilograms?|kilos?|kg|ounces?|oz|pounds?|lbs?|cups?|tablespoons?|tbsp|"
    r"teaspoons?|tsp|millilit(?:er|re)s?|ml|lit(?:er|re)s?|celsius|fahrenheit|centigrade|"
    r"metric|imperial|kilomet(?:er|re)s?|km|miles?|centimet(?:er|re)s?|cm|inches|feet|"
    r"met(?:er|re)s?|weight|volume)"
)
_UNIT_ZH = (
    r"(?:克|公斤|千克|斤|盎司|磅|杯|量杯|勺|汤匙|茶匙|毫升|升|摄氏度|华氏度|摄氏|华氏|公制|英制|"
    r"公里|英里|厘米|英寸|重量)"
)
# grams please, not cups; use metric, not imperial; Celsius instead of Fahrenheit; 用克，别用杯;
# 以后都用摄氏度: the unit wanted, with the one it replaces or said as standing.
_UNITS_EN = re.compile(
    rf"\b(?P<a>{_UNIT_EN})\b(?:\s+(?:please|pls|only|always))?\s*[,;—–-]?\s*(?:not|no|never|rather than|instead of|over)\s+(?P<b>{_UNIT_EN})\b"
    rf"|\b(?:always|from now on)\b[^.!?]{{0,20}}?\b(?:in|use|using)\s+(?P<a2>{_UNIT_EN})\b"
    rf"|\b(?:in|use|using)\s+(?P<a3>{_UNIT_EN})\b[^.!?]{{0,12}}?\b(?:always|from now on|going forward)\b"
    rf"|\bprefer\s+(?P<a4>{_UNIT_EN})\s+(?:to|over)\s+(?P<b4>{_UNIT_EN})\b",
    re.IGNORECASE,
)
_UNITS_ZH = re.compile(
    rf"(?:用|按)(?P<a>{_UNIT_ZH})(?:来|计|算|写|标)?(?:就行|就好|吧)?[，,、\s]*(?:别|不要|不用|而不是)(?:再)?(?:用|按)?(?P<b>{_UNIT_ZH})"
    rf"|(?:别|不要|不用)(?:再)?(?:用|按)(?P<b2>{_UNIT_ZH})[，,、\s]*(?:改|换)?(?:用|按|成)(?P<a2>{_UNIT_ZH})"
    rf"|(?:以后|今后|一律|统一|都|一直)(?:都|统一)?(?:用|按)(?P<a3>{_UNIT_ZH})(?:来|计|算|写|标|表示)"
)


def units(st: Statement) -> Finding | None:
    """The units the user wants amounts in (grams please, not cups; 用克，别用杯): a standing
    preference, said as a request or a statement of the user's own."""
    if st.subject.kind == "person" or st.question or st.hypothetical:
        return None
    said = st.sentence
    m = (_UNITS_ZH if st.zh else _UNITS_EN).search(said)
    if m is None:
        return None
    found = m.groupdict()
    want = next(found[g] for g in ("a", "a2", "a3", "a4") if found.get(g))
    other = next((found[g] for g in ("b", "b2", "b4") if found.get(g)), None)
    if other is not None and other.casefold().rstrip("s") == want.casefold().rstrip("s"):
        return None
    if st.zh:
        title = f"用{want}" + (f"，不用{other}" if other else "")
    else:
        title = f"Use {want.casefold()}" + (f", not {other.casefold()}" if other else "")
    return Finding(
        type="preference",
        domain="个人",
        category=["个人", "喜好"],
        key="likes",
        value=title,
        title=title,
        content=st.sentence if len(st.sentence) <= 200 else st.text,
        statement=st,
        scope="user",
        tags=["单位" if st.zh else "units"],
        entities=[want] + ([other] if other else []),
        importance=0.7,
        reason="the units the user wants amounts in",
    )
