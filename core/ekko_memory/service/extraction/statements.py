"""A user message read as statements: who each clause is about and what kind of clause it is.

The extractor never matches words against a whole message. It cuts the message into
sentences and clauses, finds each clause's subject (the user, someone in their life, "we"
of a team or family, or nobody named), and marks what the clause does: a question, a
supposition (如果…的话, what if…), a request to the assistant, a take-back, a correction,
a report of what someone else said. Only plain statements — and what the user asks to be
remembered — become memories; the kind decides which frames may read them.

Chinese drops the subject: a clause without one speaks of the last subject of its sentence
(我住在杭州，养了一只猫 — both the user's), and a message's first clause of the user.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Literal

from ekko_memory.schema import intent
from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.time_expressions import TimeMention, find_times

SubjectKind = Literal["self", "we", "person", "other", "none"]

# People in someone's life, as Chinese speakers name them (the longest first).
RELATIONS_ZH = [
    "发小",
    "嫂子",
    "姐夫",
    "妹夫",
    "弟媳",
    "堂弟",
    "堂妹",
    "堂哥",
    "堂姐",
    "干妈",
    "继母",
    "后妈",
    "保姆",
    "前男友",
    "前女友",
    "前妻",
    "前夫",
    "前任",
    "大儿子",
    "小儿子",
    "大女儿",
    "小女儿",
    "二儿子",
    "二女儿",
    "儿子",
    "女儿",
    "闺女",
    "孩子",
    "娃娃",
    "小孩",
    "宝宝",
    "大宝",
    "二宝",
    "娃",
    "老大",
    "老二",
    "老公",
    "老婆",
    "媳妇儿",
    "媳妇",
    "丈夫",
    "妻子",
    "爱人",
    "对象",
    "男朋友",
    "女朋友",
    "男友",
    "女友",
    "先生",
    "太太",
    "另一半",
    "家那位",
    "那口子",
    "爸爸",
    "妈妈",
    "老爸",
    "老妈",
    "父亲",
    "母亲",
    "爸",
    "妈",
    "爹",
    "娘",
    "爷爷",
    "奶奶",
    "外公",
    "外婆",
    "姥姥",
    "姥爷",
    "公公",
    "婆婆",
    "岳父",
    "岳母",
    "丈母娘",
    "老丈人",
    "哥哥",
    "姐姐",
    "弟弟",
    "妹妹",
    "哥",
    "姐",
    "弟",
    "妹",
    "表哥",
    "表姐",
    "表弟",
    "表妹",
    "堂哥",
    "堂姐",
    "舅舅",
    "舅妈",
    "叔叔",
    "婶婶",
    "阿姨",
    "姑姑",
    "姨妈",
    "侄子",
    "侄女",
    "外甥",
    "外甥女",
    "孙子",
    "孙女",
    "同事",
    "领导",
    "老板",
    "上司",
    "经理",
    "组长",
    "下属",
    "朋友",
    "好朋友",
    "闺蜜",
    "兄弟",
    "哥们",
    "室友",
    "同学",
    "老师",
    "邻居",
    "家人",
    "爸妈",
    "父母",
    "公婆",
    "岳父母",
    "孩子们",
    "俩娃",
    "两个娃",
    "主子",
    "猫咪",
    "猫",
    "狗狗",
    "狗",
    "宠物",
    "柯基",
    "金毛",
    "泰迪",
    "哈士奇",
    "柴犬",
    "拉布拉多",
    "边牧",
    "比熊",
    "博美",
    "萨摩耶",
    "布偶",
    "英短",
    "美短",
    "橘猫",
    "狸花猫",
    "暹罗猫",
    "兔子",
    "仓鼠",
    "鹦鹉",
]
RELATIONS_EN = [
    "ex-husband",
    "ex-wife",
    "ex-boyfriend",
    "ex-girlfriend",
    "ex-partner",
    "ex",
    "husband",
    "hubby",
    "wife",
    "wifey",
    "partner",
    "boyfriend",
    "girlfriend",
    "fiance",
    "fiancee",
    "spouse",
    "son",
    "sons",
    "daughter",
    "daughters",
    "kid",
    "kids",
    "child",
    "children",
    "baby",
    "toddler",
    "mom",
    "mum",
    "mother",
    "dad",
    "father",
    "parents",
    "parent",
    "grandma",
    "grandmother",
    "grandpa",
    "grandfather",
    "brother",
    "sister",
    "sibling",
    "siblings",
    "aunt",
    "uncle",
    "cousin",
    "nephew",
    "niece",
    "grandson",
    "granddaughter",
    "colleague",
    "coworker",
    "co-worker",
    "boss",
    "manager",
    "teammate",
    "friend",
    "roommate",
    "flatmate",
    "neighbor",
    "neighbour",
    "in-laws",
    "buddy",
    "pal",
    "mate",
    "bestie",
    "bff",
    "bf",
    "gf",
    "bro",
    "sis",
    "grandkids",
    "grandson",
    "teacher",
    "doctor",
    "dentist",
    "therapist",
    "landlord",
    "landlady",
    "neighbours",
    "neighbors",
    "team",
    "teammates",
    "mother-in-law",
    "father-in-law",
    "stepson",
    "stepdaughter",
    "stepmom",
    "stepdad",
    "intern",
    "interns",
    "classmate",
    "housemate",
    "mentor",
    "client",
    "nanny",
    "babysitter",
    "tenant",
    "supervisor",
    "cofounder",
    "co-founder",
    "cat",
    "dog",
    "puppy",
    "kitten",
    "pet",
    "greyhound",
    "labrador",
    "lab",
    "retriever",
    "poodle",
    "corgi",
    "beagle",
    "spaniel",
    "terrier",
    "husky",
    "collie",
    "dachshund",
    "bulldog",
    "rabbit",
    "bunny",
    "hamster",
    "parrot",
]
_REL_ZH = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
_REL_EN = "|".join(sorted(RELATIONS_EN, key=len, reverse=True))

# Discourse words before a subject (对了，我…; btw, I…).
_LEAD_ZH = r"(?:(?:从现在开始|从现在起|从今天起|从今天开始|今后|以后|对了|另外|还有|其实|不过|但是|可是|而且|并且|然后|所以|因为|顺便说一下|顺便|哦|噢|嗯|啊|哈哈|哈|诶|呃|对|是的|没错|话说|说起来|说真的|讲真|说实在的|坦白说|实话说|说实话|老实说|跟你说|告诉你|你知道吗|反正|毕竟|麻烦的是|问题是|关键是|主要是|头疼的是|尴尬的是)[，,\s]*)*"
_LEAD_EN = r"(?:(?:(?:last|this|earlier this) (?:week|weekend|month|year|summer|winter|spring|fall|autumn)|yesterday|recently|lately|(?:a few|a couple of|two|three|four|five|six|several|\d+) (?:days|weeks|months|years) ago|from now on|starting today|going forward|these days|nowadays|(?:right )?now|currently|at the moment|normally|usually|generally|typically|otherwise|oh|btw|by the way|also|and|but|so|well|actually|fyi|just so you know|ok|okay|anyway|honestly|fwiw|tbh|plus|because|cause|since|though|yeah|yes|no|hey|hi|um|uh|haha|lol|ugh|argh|sigh|oof|welp|whew|phew|hmm|hm|gosh|omg|meh)\b[,\s]*)*"

_SUBJ_ZH = re.compile(
    rf"^{_LEAD_ZH}"
    rf"(?:(?P<own>我们家|咱们家|我家|俺家|咱家|我的|俺的|咱的|我|俺|咱|家里(?=(?:的)?(?:那|这)(?:只|条)))(?:的)?(?:(?:那|这)(?:只|条|个|位)?)?(?:大|小|老)?(?P<rel>{_REL_ZH})"
    # 我们组的老张, 我们部门的小刘, 我们公司的前台: someone of the user's group (before "we").
    rf"|(?:我们|咱们|我)(?:组|部门|公司|班|单位|团队|科室|办公室|小区|学校|实验室|项目组|宿舍)(?:里|上)?(?:的)?"
    rf"(?:(?P<rel3>{_REL_ZH})|(?P<cname2>(?:小|老|阿)(?![时候区家公婆板师人天学子孩朋心说吃是])[\u4e00-\u9fff]))"
    # 我俩同事, 我们组两个同事: people of a kind counted, not the user (before "we").
    # Not 我有两个娃: what the user has is theirs to tell (read below as the user's).
    rf"|(?:(?:我们|我们?(?:组|公司|部门|班|单位))(?:有)?|我(?!有)|有)?(?:[一两三四五六七八九十几\d]+个|俩|仨|几个|好几个)(?P<some2>{_REL_ZH})"
    rf"|(?P<we>我们|咱们|俺们|大家伙儿?|大伙儿?|大家|我们家|咱们家|我俩|我们俩|我们两个|我和我?(?:{_REL_ZH}))"
    rf"|(?P<you>你们|你|您)"
    # 有两个同事不吃牛肉, 几个朋友对猫过敏, 班上有个同学…: some people of a kind, not the user.
    rf"|(?:(?:班上|班里|组里|公司里|单位里|群里|楼里|学校里|宿舍里)有(?:[一两三四五六七八九十几\d]+|好几|一)?|(?:有)?(?:[一两三四五六七八九十几\d]+|好几|一))(?:个|位)(?P<some>{_REL_ZH})"
    # 隔壁老王, 楼下的张阿姨, 对门邻居: someone placed by where they live, not the user.
    rf"|(?:隔壁|楼上|楼下|对门|对面)(?:的)?(?:(?P<rel4>{_REL_ZH})|(?P<cname3>(?:小|老|阿)[\u4e00-\u9fff]|[\u4e00-\u9fff](?:阿姨|叔叔|大爷|大妈|奶奶|爷爷|姐|哥)))"
    # 孩子他爸, 娃她妈: the child's parent — the user's spouse, said through the child.
    rf"|(?P<kin>(?:孩子|娃|宝宝|儿子|女儿|闺女)(?:他|她)(?:爸|妈|爹|娘|奶奶|爷爷|姥姥|姥爷|外婆|外公))"
    rf"|(?P<self>我|俺|本人|咱(?!们))"
    rf"|(?P<pron>他们|她们|他|她|它(?!们)|人家)(?![们家])"
    # 小王, 老李, 阿明, 安安: a name opening a clause about that person.
    rf"|(?P<cname>(?:小|老|阿)(?![时候区家公婆板师人天学子孩朋心说吃是])[\u4e00-\u9fff]|(?!天天|常常|刚刚|慢慢|渐渐|好好|偏偏|往往|明明|稍稍|悄悄|早早|默默|人人|个个|样样|处处|时时|年年|月月|事事|谢谢|哈哈|呵呵|嘻嘻|嗯嗯|哦哦|好好|试试|看看|想想|说说|聊聊|问问|等等|刚刚|多多|常常|乖乖|宝宝|妈妈|爸爸|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|星星|狗狗|猫猫)(?P<dup>[\u4e00-\u9fff])(?P=dup))(?=[是叫在对有很也都就不没会要想去今明后下这上已还经刚正打喜爱讨最比说觉的超特挺从吃喝爱倒一]|[\u4e00-\u9fff]{{1,4}}过敏)"
    # 英短蓝猫, 柯基犬: a breed before its kind names one animal, not a subject.
    rf"|(?P<bare>(?:{_REL_ZH}))(?![\u4e00-\u9fff]?[猫狗犬兔])(?=[是叫在对有很也都就不没会要想去今明后下这上已还经刚正打喜爱讨最比说觉的让]|[\u4e00-\u9fff]{{2,3}})"
    rf")"
)
# Words after "my" that say what a thing is like, not who a person is (my new Honda).
_NOT_A_ROLE_EN = (
    "new|old|little|big|first|second|last|current|previous|own|favou?rite|dear|lovely|sweet"
    "|beloved|trusty|late|former|poor|good|best|whole|entire|only|main|other"
)
_SUBJ_EN = re.compile(
    rf"^{_LEAD_EN}"
    rf"(?:(?P<own>my|our)\s+(?:(?:little|older|younger|big|eldest|youngest|oldest|baby|best|two|three|new)\s+)?(?P<rel>{_REL_EN})\b(?:,?\s+(?P<name>(?-i:[A-Z][a-z]+))\b,?)?"
    # our intern Jake, my physio Dana: a word for who they are, then their name.
    rf"|(?P<own2>my|our)\s+(?:(?-i:new|old|little|big|former|current)\s+)?(?!(?:{_NOT_A_ROLE_EN})\b)(?P<rel2>(?-i:[a-z][a-z-]+))\s+(?P<name2>(?-i:[A-Z][a-z]+))\b(?=,?\s+(?:is|was|has|had|can'?t|doesn'?t|won'?t|hates|loves|likes|needs|wants|works|lives|just|always|never|gets|takes|goes|turns|started|moved|got)\b|'s\b)"
    rf"|(?P<we>we're|we've|we'd|we'll|we|me and my (?:{_REL_EN})|my (?:{_REL_EN}) and i)\b"
    rf"|(?P<you>you|you're|you've|your)\b"
    rf"|(?P<mine>my|our)\s+(?=(?:(?:left|right|lower|upper)\s+(?=knee|back|ankle|shoulder|hip|wrist|elbow|foot|hamstring))?(?:birthday|name|job|work|office|company|employer|home|house|flat|apartment|place|hometown|address|email|phone|car|native|first|mother|dream|goal|plan|plans|favou?rite|commute|schedule|diet|doctor|school|degree|major|team|health|back|knee|knees|ankle|ankles|shoulder|shoulders|hip|hips|wrist|neck|elbow|foot|feet|hamstring|blood)\b)"
    rf"|(?P<self>i'm|i've|i'd|i'll|im|ive|i|me)\b"
    rf"|(?P<pron>he|she|he's|she's|they|they're|him|her)\b"
    rf"|(?P<bare>(?:{_REL_EN}))(?='s\b|\s+(?:is|was|has|hates|loves|likes|can'?t|doesn'?t|won'?t|wants|needs|works|lives|turns|just|always|never|gets|takes|goes)\b)"
    rf")",
    re.IGNORECASE,
)

# A question: its mark, a final particle, an interrogative word, or A-not-A (去不去).
# 没啥兴趣, 没什么问题, 看书什么的: 啥/什么 of "not much" or "and so on" asks nothing.
_QUESTION_ZH = re.compile(
    r"[？?]\s*$|[吗么嘛呢]\s*[。.!！~～]*$|(?<!没)(?<!没有)(?<!无)(?:什么|啥)(?![都也])(?!的(?:[，,。.!！~～\s]|$))|(?:哪|谁)(?![都也])|(?<!不)(?:怎么|怎样|咋)(?!样都|么都)|几[点岁号]|多少|多久|多大|(?<!差不)(?<!许)多(?:厚|长|高|远|重|宽|深|贵|快|冷|热)(?![了点些])|为什么|为啥|是不是|有没有|能不能|会不会|可不可以|要不要|行不行|对不对|好不好|是否|请问|想知道|不知道"
    r"|([\u4e00-\u9fff])不\1"
    # 每天要喂几顿, 一天喝几杯合适: 几 and its measure closing the clause ask how many (not
    # 我每周去几次健身房, a few); 养柯基好还是柴犬好: a choice put to the assistant.
    r"|(?<![好没这那十住待呆玩歇躺])几[个只次顿杯碗天周年遍回趟块本条件位斤瓶粒片分][\u4e00-\u9fff]{0,2}?(?:比较好|合适|才好|正常|算多|算少)?[呢啊呀]?\s*$"
    r"|(?:好|划算|合适|适合|便宜|方便|靠谱)还是|还是[^，,。]{1,10}?(?:好|划算|合适|便宜|方便|靠谱)[呢啊呀]?\s*$"
)
_QUESTION_EN = re.compile(
    r"\?\s*$|^(?:what|where|when|why|how|which|who|whom|whose)\b"
    r"|^(?:is|are|was|were|do|does|did|can|could|would|should|will|shall|may|might|have|has|am|isn't|aren't|don't|doesn't|didn't|won't|can't)\s+(?:i|you|we|it|he|she|they|there|this|that|these|those|my|your|our|the|a|an|anyone|anything|someone)\b"
    r"|\bi (?:wonder|was wondering)\b|\bany (?:ideas|tips|suggestions|recommendations)\b"
    # do most people…, is walking every day enough: asked with no mark.
    r"|^(?:is|are|was|were|do|does|did|can|should|would)\s+(?:most|many|some|other|people|everyone|anybody)\b"
    r"|^(?:is|was|isn'?t)\s+(?!(?:going|getting|being|nothing|something|everything|anything)\b)\w+ing\b",
    re.IGNORECASE,
)
# A supposition: nothing in its sentence is a fact about anyone.
_HYPOTHETICAL = re.compile(
    r"如果|要是|假如|假设|假若|倘若|万一|若是|假使|要不是|的话|设想|想象一下|想象|下辈子|上辈子|来世|来生|下一世|考虑要不要|在想要不要|纠结要不要|犹豫要不要|打算要不要|不知道要不要|是不是该"
    r"|(?<!decide )(?<!wonder )(?<!see )(?<!check )(?<!ask )(?<!know )(?<!sure )(?<!tell )(?<!out )(?<!asking )(?<!deciding )(?<!wondering )\bif\b|\bwhat if\b|\bsuppose\b|(?:^|[,.;]\s*)(?:say|let'?s say)\s+(?:i|we)\b|\bsupposing\b|\bimagine\b|\bin case\b|\bhypothetically\b|\bwould it\b|\bwere i\b|\bhad i\b"
    # 下辈子我想当只猫, in my next life: a life the user does not live; nor a dream or a game's.
    r"|梦见|梦到|做梦|梦里|游戏里(?:我)?(?:是|当|演|扮)|\bi\s+(?:dreamt|dreamed|had\s+a\s+dream)\b"
    r"|\bin\s+(?:my|the|a)\s+dream\b|\bin\s+(?:the|this|that)\s+game\b"
    r"|\bin\s+(?:my|a|another)\s+(?:next|past|other|previous)?\s*life\b"
    r"|\bthinking (?:about|of) (?:maybe )?(?:moving|getting|switching|quitting|buying)\b|\bconsidering\b|\bnot sure (?:if|whether)\b|\bshould i\b"
    # I thought I'd be in Rome, 我以为…: what the user expected, and was wrong about.
    r"|\bi (?:thought|assumed|figured) (?:i'?d|i would|i was going to|we'?d|we would)\b|我以为|本以为",
    re.IGNORECASE,
)
# 吃饭的话我比较随便, 咖啡的话我只喝美式: 的话 after a short topic, then a plain statement
# with no consequence (就, 会, 可以…): "as for", no supposition (有空的话我就去 is one).
_TOPIC_DEHUA = re.compile(
    r"^(?!.*(?:如果|要是|假如|假设|万一|若是|倘若))(?![太很有没不下要真好贵便])[\u4e00-\u9fffA-Za-z]{1,4}的话[，,\s]*"
    r"(?:我|俺)(?![^，,。]*(?:就|会|可以|能|再|得|(?<!主)要|去|来|吧))[^，,。]+$"
    # 推荐餐厅的话，我偏爱日料: "when it comes to recommending…".
    r"|^(?:推荐|说到|提到|讲到|聊到|要说|至于|关于|论)[\u4e00-\u9fffA-Za-z]{1,8}的话$"
)
# A clause that draws a consequence as a fact (so I'm…, which is why I…), not a would.
_SO_NOW = re.compile(
    r"^(?:and\s+)?(?:so|which\s+is\s+why|that'?s\s+why)\s+(?:i'm|i\s+am|i've|i\s+have|i\s+(?!would|could|might|'d)\w+)\b"
    r"(?!.*\b(?:would|could|might|'d)\b)",
    re.IGNORECASE,
)
# A request to the assistant (帮我…, 推荐…, can you…): no statement about the user.
# Only a request to remember, the thing said elsewhere (…, keep that in mind).
_ASK_ONLY = re.compile(
    r"^(?:so\s+|and\s+)?(?:please\s+|请|帮我)?(?:keep (?:that|this|it) in mind|remember (?:that|this|it)|note (?:that|this)|note to self|memo|记住|记一下|记着|记下来?|记好|备忘一下|备注一下)(?:了|哦|啊|吧|这个|这点)?"
    # …for recipes, when you plan meals, going forward: when to keep it in mind.
    r"(?:\s+(?:for|when|while|going forward|from now on|next time)\b[\w ]*|以后|下次)?[.!。！]*$",
    re.IGNORECASE,
)
_REQUEST = re.compile(
    r"^(?:请|麻烦|劳驾)?(?:你)?(?:帮我|帮忙|给我|替我|推荐|介绍|告诉我|说说|讲讲|列|写|翻译|查|搜|算|看看|查查|想想|安排|规划|整理|总结|解释|对比一下|分析一下|生成|做个|来个|给个|出个|设计)"
    r"|^(?:please|pls|can you|could you|would you|will you|help me|tell me|give me(?!.*\bany\s+day\b)|show me|suggest|recommend|list|write|find|explain|compare|translate|plan|make(?!\s+(?:about|around|roughly|like|only|just|over|under|close\s+to|nearly|almost|[$£€¥]|\d))|draft|summarize|let me know)\b"
    r"|^(?:i\s+)?(?:need|want|would like|'d like)\s+(?:some\s+)?(?:help|advice|ideas|suggestions|a hand|tips|recommendations)\b|^(?:need|want)\s+(?:help|advice|ideas)\b|^(?:想|想要|需要)(?:问|请教|咨询|求)",
    re.IGNORECASE,
)
# "doctor's orders", "mom's cooking": 's of a thing owned, not "is" (mom's coming over).
_POSSESSED_EN = re.compile(
    r"^'s\s+(?!(?:always|perhaps|sometimes|thus|gonna|got|been|back|visiting)\b)"
    r"(?:\w+s|orders?|advice|idea|call|fault|rules?|choice|decision|words|cooking|place|house|car"
    r"|birthday|recipe|plan)\s*[.!]*$",
    re.IGNORECASE,
)

# my wife's birthday, my son's school: 's of what the person has, not "is" (my wife's vegan).
_OWNED_AFTER_EN = re.compile(
    r"^'s\s+(?:\w+\s+)?(?:birthday|name|job|work|office|company|employer|boss|home|house|flat"
    r"|apartment|place|car|family|parents?|mom|mum|dad|mother|father|sister|brother|friends?"
    r"|school|class|teacher|doctor|team|phone|email|wedding|party|room|bedtime|diet|allergy"
    r"|allergies|cooking|orders?|advice|idea|plan|plans|flight|trip|surgery|appointment"
    r"|recipe|favou?rite|dog|cat|kids?|son|daughter|husband|wife)\b"
    r"|^'s\s+\w+s\s+(?:is|are|was|were)\b",
    re.IGNORECASE,
)

# Someone else's words or view reported: 我妈说…, my doctor said… (not the user's own fact).
_REPORTED = re.compile(
    r"(?:说|觉得|认为|建议|让我|叫我|希望我|要求我|问我)"
    r"|\b(?:says?|said|thinks?|thought|told me|wants me|suggested|recommended|asked me)\b",
    re.IGNORECASE,
)
# Hearsay: what a source with no person behind it says (听说…, 网上说…, 刷到新闻说…, I heard
# that…, studies show…, you said…) — the words that follow are the source's claim, not the
# user's fact.
_HEARSAY = re.compile(
    r"听说|据说|听人说|听别人说|听[^，,。我]{1,6}?说|有人说|人家说|(?:大家|人们|别人)都说"
    r"|(?:网上|新闻|书上|书里|报纸|报道|文章|研究|专家|视频|帖子|节目|公众号|博主|科普|广告|医书|资料)"
    r"[^，,。我]{0,3}?(?:说|称|讲|显示|表明|指出|推荐|建议)"
    r"|\bi\s+heard\s+(?:that|somewhere|online|on)\b|\bi\s+(?:read|saw)\s+(?:somewhere|online|on\s+\w+)\s+that\b"
    r"|\bapparently\b|\baccording\s+to\b"
    r"|\b(?:they|people|experts|doctors|studies|research|scientists|articles?|the\s+(?:article|news|internet|video|study|book))"
    r"\s+(?:say|says|said|show|shows|showed|claim|claims|claimed|suggest|suggests|found)\b"
    # The assistant's own words handed back (你刚才说…, you said I should…): its, not the user's.
    r"|^(?:你|您)(?:刚才|刚刚|之前|上次|昨天|前面|不是)?(?:说|讲|提到|建议|推荐)"
    r"|^(?:you|u)\s+(?:just\s+|already\s+)?(?:said|say|told me|mentioned|suggested|recommended)\b",
    re.IGNORECASE,
)
# People at large as the clause's subject (一般人每天喝几杯咖啡算多, most people run every
# day), or someone's view of the user put first (家里人都觉得我应该…): no fact of the user's.
_PEOPLE_AT_LARGE = re.compile(
    r"^(?:一般人|大多数人|多数人|很多人|好多人|不少人|有些人|有的人|人们|别人|大家|正常人|普通人)"
    r"|^(?!我|俺)(?P<who>[^我俺你，,。]{1,6}?)(?:都|也|一直|总是|老是|总)?(?:觉得|认为|说|希望|建议|劝)(?:我|我们)"
    r"|^(?:(?:do|does|should|can|would|will)\s+)?(?:most|many|some|other|normal)\s+people\b"
    r"|^(?:(?:do|does|should|can|would|will)\s+)?(?:people|everyone|everybody|nobody|no\s+one)\b",
    re.IGNORECASE,
)
_A_TIME_ZH = re.compile(r"[天周月号日点年晚早午]|星期|礼拜|最近|刚才|刚刚|有时|现在|突然")


def _of_people_at_large(clause: str) -> bool:
    """The clause speaks of people at large, or opens with someone's view of the user."""
    m = _PEOPLE_AT_LARGE.match(clause.strip())
    return m is not None and not (m["who"] and _A_TIME_ZH.search(m["who"]))


# Mock agreement opening the sentence and a liking blown up after it (sure, because I totally
# love waking up at 6; oh yeah, I just adore doing taxes): irony, no liking of the user's.
_MOCK_OPENER = re.compile(
    r"^(?:sure|oh\s+(?:yeah|sure|great|joy)|yeah\s+right|as\s+if)\b",
    re.IGNORECASE,
)
_BLOWN_UP_LIKING = re.compile(
    r"\b(?:i|i'm)\s+(?:just\s+|totally\s+|absolutely\s+|simply\s+|so+\s+|really\s+)+(?:love|adore|enjoy|loving|enjoying)\b",
    re.IGNORECASE,
)
# A wish for what is not so (I wish I had time to…, if only I could…, 真希望我能…): that
# clause and the ones after it with no subject of their own hold nothing of the user.
_WISH = re.compile(r"\bi\s+wish\b|\bif\s+only\b|真希望|好希望|多希望|但愿|巴不得", re.IGNORECASE)
# Asking whether what was just said is true (…，真的假的 / …, is that true?): the sentence's
# claim is put to the assistant, not asserted.
_TRUE_OR_NOT = re.compile(
    r"^(?:这|那)?(?:是)?(?:真的假的|真的吗|是真的吗|是不是真的|有道理吗|有没有道理|可信吗|靠谱不)[吗啊呀呢?？!！。.~～]*$"
    r"|^(?:is|was)\s+(?:that|it|this)\s+(?:true|real|legit|right)\b.*$|^(?:true|really)\s*\?+$",
    re.IGNORECASE,
)
# The user's opinion of something (我觉得这个方案不错): a view, not a fact about them.
_OPINION = re.compile(
    r"^(?:我|俺)?(?:觉得|认为|感觉|看来|估计|猜|相信|怀疑|以为)"
    r"|^(?:i )?(?:think|feel like|guess|suppose|believe|reckon|doubt|bet)\b",
    re.IGNORECASE,
)
# Negation as a word: 不/没/别 — not inside 不错, 不过, 没关系, 差不多; nor 非常 (very), 未来
# (the future), 莫 of a name (阿莫西林, 莫斯科).
_NEG_ZH = re.compile(
    r"(?<![差恨巴怪由])(?:不|没|(?<![特区分级类告离识个性])别|甭|勿|未(?!来)|非(?!常|得|要|洲|典)|莫(?=要|急|慌|怕|担心|着急|生气))(?!错|过(?![敏])|仅|但|管|少|久|论|如|然|断|停|得不|止|用谢|客气|关系|事儿?|问题|准)"
    r"|不再|从不|从来不|再也不|并不|并没"
)
_NEG_EN = re.compile(
    r"\b(?:not|no|never|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|wasn'?t|weren'?t|won'?t|can'?t|cannot|couldn'?t|shouldn'?t|no longer|nor|neither|hardly|dont|cant|wont|ain'?t)\b",
    re.IGNORECASE,
)
# Sentences end at their marks; a latin full stop only before a space (3.5 and e.g. stay),
# not after a title or a one-letter abbreviation (Dr. Li, St. Mary's, U.S.).
_SENTENCE = re.compile(
    r"(?<=[。！？!?；;\n])"
    r"|(?<![.\s][A-Za-z]\.)(?<!\b(?:mr|ms|dr|st|mt|jr|sr|vs|no|co|eg|ie)\.)(?<!\b(?:mrs|etc|inc|ltd)\.)(?<=[.])(?=\s+\S)"
    r"|(?<=[.])$"
    # An emoji that closes a thought before a new one (…at five-a-side 🤕 Any desk exercises?).
    r"|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])(?=\s+(?-i:[A-Z])|\s+[\u4e00-\u9fff])",
    re.IGNORECASE,
)
_CLAUSE_ZH = re.compile(
    r"[，,、：:]+|…+|\.{3,}|\s{2,}|(?<=[\u4e00-\u9fff])[ \t\u3000](?=[\u4e00-\u9fff])"
    r"|\s*[\U0001F300-\U0001FAFF\u2600-\u27BF]+\s*"
)
# A space between Chinese words stands for a comma in chat (好 我先搞数据 周三前弄完) — not
# after a word that wants what follows (我叫 王磊, 我想 吃火锅) nor after a time, whose work
# or time of day follows (明天 下午, 周五前 交报告).
_HOLDS_ON = re.compile(
    r"[叫是在住姓去到和跟给把被从要想会能得让请]$|(?<!跟你)(?<!和你)(?<!告诉你)说$"
    r"|(?:周|星期|礼拜)[一二三四五六日天]$|[今明后昨前每当]天$|[\d一二三四五六七八九十]+[号日点]$"
    r"|(?:月底|月初|月中|年底|年初|周末|[这下上本]周|[这下上本]个?月|今年|明年|早上|上午|中午|下午|晚上|今晚|明早)$"
    r"|[前后]$"
)


def _breaks(sentence: str, at: int, sep: str) -> bool:
    """Whether a separator found at ``at`` cuts the sentence (a lone space between Chinese
    words does unless the words before it hold on to what follows)."""
    if sep not in (" ", "\t", "\u3000"):
        return True
    if sentence[:at].endswith("的") and sentence[at + 1 : at + 2] == "是":
        return False  # 我最喜欢的 是火锅
    return not _HOLDS_ON.search(sentence[:at])


# English clauses: at a comma or "and/but/so" that a new subject (or a verb of the same) follows.
# English clauses: at every comma, semicolon, dash or bracket, and at "and/but/so/because…"
# when a new subject (or a question) follows.
_CLAUSE_EN = re.compile(
    r"\s*(?:(?<!\d),|,(?!\d{3}\b)|;|:(?!\d)|\s[-–—]\s|…+|\.{3,})\s*"
    r"|\s+(?:but|and|so|while|plus|although|though|because|cause|since|whereas)\s+(?=(?:i|i'm|i've|i'd|i'll|im|we|we're|we've|my|our|he|she|they|it|it's|what|what's|how|is|are|do|does|can|could|should|would|any|also|now)\b)"
    # I'm from Cork originally but live in Dublin now: "but" before where one lives or works.
    r"|\s+(?:but|and)\s+(?=(?:now\s+)?(?:live|living|work|working|based)\s+(?:in|at|for|from)\b)"
    # I grew up in Porto so Portuguese is my first language: a new subject named, then "is my".
    r"|\s+(?:but|and|so|because|since)\s+(?=(?-i:[A-Z])[a-z]+\s+is\s+(?:my|our)\b)"
    # A list of things to do: "buy a present for Dad and mow the lawn".
    r"|\s+and\s+(?=(?:buy|mow|call|ring|pay|book|send|finish|clean|pick|drop|get|fix|email|text|write|do|go|make|take|submit|renew|cancel|order|return|check|update|prepare|print|sign|file|visit|see|meet|bring|wash|cook|sort|tidy|pack|collect|post|reply|review|test|deploy|ship|schedule|arrange|organise|organize|move|sell|apply|register|charge|water|feed|walk|iron|vacuum|hoover)\b)",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
# The request around what to remember (记住，…; please remember that …): the clause is read
# without it, and counts as asked to be remembered.
_REMEMBER_LEAD = re.compile(
    r"^(?:请|麻烦)?(?:你)?(?:帮我|给我)?(?:记住|记一下|记下来?|记得|记着|备注一下|备忘一下|备忘|帮我记录|记录一下)(?:一下)?[，,:：\s]*(?=\S)"
    r"|^(?:please\s+)?(?:remember|note to self|note (?:for|to) (?:later|the future|future me|myself)|note(?! to self)|keep in mind|don'?t forget|make a note|for the record)(?:\s+that)?[,:\s]+(?=\S)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Subject:
    """Who a clause speaks of: the user (``self``), a group the user is in (``we``), one
    person of their life (``person``: 儿子, my wife Anna), someone else the message does not
    name (``other``: 他们, they, with nobody said before), or nobody named (``none``)."""

    kind: SubjectKind
    relation: str = ""
    name: str = ""

    @property
    def person(self) -> str:
        """The person as the user named them: 儿子, 女儿朵朵, wife (Anna)."""
        if self.kind != "person":
            return ""
        if self.name and self.relation:
            return (
                f"{self.relation}{self.name}"
                if _CJK.search(self.relation)
                else f"{self.relation} {self.name}"
            )
        return self.relation or self.name


SELF = Subject("self")
NOBODY = Subject("none")
# 他们最后定了，下周搬家 with nobody named before: someone else's doing, never the user's.
SOMEONE = Subject("other")


@dataclass
class Statement:
    """One clause of a user message with what the extractor needs to know about it."""

    text: str
    sentence: str
    lang: Literal["zh", "en"]
    subject: Subject
    # The clause after its subject (对花生过敏, live in Hangzhou).
    body: str
    explicit_subject: bool
    negated: bool
    question: bool
    hypothetical: bool
    request: bool
    reported: bool
    opinion: bool
    times: list[TimeMention] = field(default_factory=list)
    index: int = 0
    # The user asked for it to be remembered (记住…, remember that…).
    remember: bool = False

    @property
    def zh(self) -> bool:
        return self.lang == "zh"

    @property
    def is_claim(self) -> bool:
        """A plain statement: not a question, supposition, request, report or opinion."""
        return not (
            self.question or self.hypothetical or self.request or self.reported or self.opinion
        )

    @property
    def about_user(self) -> bool:
        """It states something of the user (or of a "we" the user is in)."""
        return self.subject.kind in ("self", "we") or (
            self.subject.kind == "none" and not self.explicit_subject
        )


def sentences(text: str) -> list[str]:
    """The message cut into sentences (kept with their end marks)."""
    parts = [p.strip() for p in _SENTENCE.split(text)]
    return [p for p in parts if p]


_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)、])\s+")


def _clauses(sentence: str, zh: bool) -> list[str]:
    if zh:
        pieces = _split_outside_brackets(_CLAUSE_ZH, sentence)
        parts: list[str] = []
        joining = False
        for i in range(0, len(pieces), 2):
            text = pieces[i]
            sep = pieces[i + 1] if i + 1 < len(pieces) else ""
            if joining:
                parts[-1] += text
            else:
                parts.append(text)
            # 每周二、周四晚上上游泳课: a list of days inside one clause stays whole.
            joining = sep.startswith("、") and bool(_SHORT_ITEM.fullmatch(text.strip()[-6:]))
            if joining:
                parts[-1] += "、"
    else:
        parts = _split_outside_brackets(_CLAUSE_EN, sentence)[::2]
    parts = [_BULLET.sub("", p) for p in parts if p]
    parts = [p.strip(" \t，,。.!！;；") for p in parts if p and p.strip(" \t，,。.!！;；")]
    # 哎，那条删掉吧 / 嗯 另外…: a sound before the clause says nothing of its own.
    return [p for p in parts if not (zh and _FILLER_ZH.fullmatch(p))] or parts


_FILLER_ZH = re.compile(r"(?:哎|唉|嗯|哦|噢|喔|啊|呃|额|诶|欸|哎呀|哎哟|嘿|emm+|嗯+|哈+|呵+)[~～]*")


def _split_outside_brackets(pattern: re.Pattern[str], sentence: str) -> list[str]:
    """``sentence`` cut at ``pattern`` as ``re.split`` with the separators kept (text, sep,
    text, …), except inside brackets: "Spanish (native), French (basic)" and 预产期（3月，
    大概中旬） keep what the brackets say with the clause they belong to."""
    out: list[str] = []
    at = 0
    for m in pattern.finditer(sentence):
        before = sentence[: m.start()]
        depth = sum(before.count(o) for o in "(（[【") - sum(before.count(c) for c in ")）]】")
        closed = any(c in sentence[m.start() :] for c in ")）]】")
        if (
            (depth > 0 and closed)
            or m.end() == m.start()
            or not _breaks(sentence, m.start(), m.group())
        ):
            continue
        out += [sentence[at : m.start()], m.group()]
        at = m.end()
    out.append(sentence[at:])
    return out


# The end of a piece before 、 that is an item of a list inside a clause (周二、周四; 我、老婆).
_SHORT_ITEM = re.compile(
    r".*?(?:周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|[一二三四五六七八九十\d]+[号日点])"
)


_TOPIC_FIRST = re.compile(
    # Not someone's words or doing (他说我很胖, 你让我…): then the user is no subject.
    r"^(?![^我俺]*(?:说|觉得|认为|告诉|问|让|叫|他|她|你))"
    r"[\u4e00-\u9fffA-Za-z]{1,6}?(?:我|俺)(?=[只就也都最很不倒是挺还一从更比特超真会平偏喜爱习常经通每用向基早])"
)
_ASSIGNED = re.compile(r"^(?:让|叫|要|要求|安排|派)我")
# Who sets the user work (my boss wants me to…, 老板要我…): what they ask is a to-do.
_WORK_GIVERS_ZH = frozenset(
    {"老板", "领导", "经理", "主管", "上司", "老师", "导师", "客户", "甲方"}
)
# 老板要周五前看到预算, 客户催着下周一之前要稿子: what one who gives work wants by a time
# is the user's to hand in.
_WANTS_BY_ZH = re.compile(
    r"^(?:要|需要|要求|等着要|催着要|催着|催)(?=[^，,。！？]{0,8}?(?:前|之前|以前|截止))"
)
_WORK_GIVERS_EN = frozenset(
    {"boss", "manager", "supervisor", "teacher", "professor", "client", "lead", "team lead"}
)
_SET_WORK_EN = re.compile(
    r"^(?:wants|asked|told|needs|expects|reminded|has asked|has told)\s+me\s+to\s+(?=\w)",
    re.IGNORECASE,
)
# my boss wants the deck by Friday, the client needs the final files before the 20th: a
# thing asked for by a time is work the user hands in then.
_WANTS_BY_EN = re.compile(
    r"^(?:wants|needs|expects|asked\s+for|is\s+asking\s+for|has\s+asked\s+for|is\s+waiting\s+on)"
    r"\s+(?P<what>(?:the|my|a|an|our|this|that|those|these)\s+[^,;.!?]{1,40}?)"
    r"\s+(?=(?:by|before|no\s+later\s+than|first\s+thing|end\s+of|on|this|next|tomorrow|today|tonight)\b)",
    re.IGNORECASE,
)
# A pronoun's subject: the last person the message named (他/she → 我儿子, my boss).
_PRONOUN = "\x00pronoun"
# What he, she or they have the user do (让我…, 说我得…, want me to…): the user's.
_ASSIGNED_PRON_ZH = re.compile(
    r"^(?:让|叫|要|要求|安排|派|通知)我|^(?:说|通知)我(?=[^，,。]{0,6}?(?:要|得|需要|必须))"
)
_ASSIGNED_PRON_EN = re.compile(
    r"^(?:wants?|wanted|asked|asks|told|tells|needs?|needed|expects?|reminded)\s+me\s+to\s+",
    re.IGNORECASE,
)
_LEAD_ZH_RE = re.compile(_LEAD_ZH)
_LEAD_EN_RE = re.compile(_LEAD_EN, re.IGNORECASE)


# 芒果是我妹过敏, O型是我爸, 过敏的是我弟: a thing first, then whose it is (是我<relation>):
# the relation's, never the user's. Not 这是我妈做的 (a demonstrative names no thing).
_WHOSE_ZH = re.compile(
    rf"^(?!这|那|它)(?P<thing>[^我你他她，,。！？!?\s]{{1,8}}?)(?:的)?(?:其实|应该|才)?是(?:我|俺)(?:的)?"
    rf"(?:大|小|老)?(?P<rel>{_REL_ZH})(?P<rest>[^，,。！？!?]{{0,4}})$"
)


def _whose(clause: str) -> re.Match[str] | None:
    whose = _WHOSE_ZH.match(_LEAD_ZH_RE.sub("", clause, count=1))
    return whose if whose is not None and not _WHEN_ZH.search(whose["thing"]) else None


def whose_thing(clause: str) -> bool:
    """The clause puts a thing first and then whose it is (芒果是我妹过敏, 饭是我老公做的)."""
    return _whose(clause) is not None


# A time (周五是我老婆的生日, 今天是我妈生日): the day of someone's event, not their thing.
_WHEN_ZH = re.compile(r"[天周月号日点年晚早午]|星期|礼拜|\d")


# 邻居家的狗天天叫, 隔壁的小孩每天哭, 同事的孩子: someone's person or animal opening the
# clause — its doer, someone else (the user's own: 我家的狗, read above as theirs).
_OTHERS_ONE_ZH = re.compile(
    rf"^{_LEAD_ZH}(?!我|俺|咱|你|您|自己)(?P<owner>[\u4e00-\u9fff]{{1,4}}?)(?:家)?的"
    rf"(?:那|这)?(?:只|条|个|位|些|群)?(?:大|小|老)?(?:{_REL_ZH})"
    rf"(?=[\u4e00-\u9fff])(?!的)"
)


# 我有个同学对花生过敏, 我有几个朋友在杭州: someone the user knows, then what is said of
# them (not kin nor a pet: 我有个女儿叫朵朵 says the user has a daughter).
_HAS_SOMEONE_ZH = re.compile(
    r"^有(?:[一两三四五六七八九十几\d]+|好几)?(?:个|位)"
    r"(?P<rel>同学|同事|朋友|邻居|室友|客户|网友|老乡|亲戚|发小|闺蜜|哥们|学生|病人|患者)"
    r"(?=[\u4e00-\u9fff]{2})(?!叫|名叫)"
)


# Of a group of ours (我们组的, 我们公司的): the person named after it is someone else.
_OURS_ZH = re.compile(
    r"^(?:组|公司|部门|团队|班|班上|小组|项目组|单位|科室|办公室|学校|实验室)(?:里)?的"
)


# 电影里那个男主每天早上跑步, 楼下那位大爷天天遛鸟: someone pointed at (那个/这位 …) opens
# the clause and does what it says — someone else, when the user is nowhere in it.
_POINTED_AT_ZH = re.compile(
    r"^(?:[\u4e00-\u9fff]{0,6}?(?:里|上|中|下|对面|隔壁)的?)?(?:那|这)(?:个|位|俩|几个|些)"
    r"(?P<who>[\u4e00-\u9fff]{0,3}?(?:人|主|男主|女主|主角|家伙|大爷|大妈|大叔|阿姨|叔叔|小孩|孩子|小伙|姑娘"
    r"|[员师者家手生工匠长客友民]|"
    + _REL_ZH
    + r"))(?=每|天天|总|老是|经常|一直|又|也|都|就|在|是|很|特别|好像)"
)


def _subject_zh(clause: str) -> tuple[Subject, str, bool]:
    whose = _whose(clause)
    if whose is not None:
        return Subject("person", whose["rel"]), f"{whose['thing']}{whose['rest']}", True
    others = _OTHERS_ONE_ZH.match(clause)
    if others is not None and not _WHEN_ZH.search(others["owner"]):
        return SOMEONE, clause[others.end() :], True
    pointed = _POINTED_AT_ZH.match(clause)
    if pointed is not None and not (
        _WHEN_ZH.search(pointed["who"]) or re.search(r"[我俺咱]", clause)
    ):
        return SOMEONE, clause[pointed.end() :], True
    m = _SUBJ_ZH.match(clause)
    topic = _TOPIC_FIRST.match(clause) if m is None else None
    if topic is not None:
        # 咖啡我只喝美式, 游泳我倒是挺喜欢: the thing first, then the user.
        return SELF, clause[topic.end() :], True
    if m is None:
        return NOBODY, clause[_LEAD_ZH_RE.match(clause).end() :] or clause, False  # type: ignore[union-attr]
    body = clause[m.end() :].lstrip("的 ")
    if m["self"] and body.startswith("自己") and len(body) > 3:
        body = body[2:]  # 我自己在重庆上班: the user, said against someone else
    one = _HAS_SOMEONE_ZH.match(body) if m["self"] else None
    if one is not None:
        # 我有个同学对花生过敏: what follows is the classmate's, not the user's.
        return Subject("person", one["rel"]), body[one.end() :], True
    if m["rel"]:
        assigned = _ASSIGNED.match(body)
        if assigned:
            # 老板让我周五前交报告: what someone has the user do is the user's to do (for
            # one who gives work, a must: 老板要我周五前把方案发给他).
            rest = body[assigned.end() :]
            if m["rel"] in _WORK_GIVERS_ZH and not re.match(r"(?:要|得|必须|需要)", rest):
                rest = f"得{rest}"
            return SELF, rest, True
        if m["rel"] in _WORK_GIVERS_ZH and _WANTS_BY_ZH.match(body):
            return SELF, f"得{body[_WANTS_BY_ZH.match(body).end() :]}", True  # type: ignore[union-attr]
        name = name_after(body)
        if name:
            body = body[len(name) :].lstrip("，, ")
        return Subject("person", m["rel"], name), body, True
    if m["bare"]:
        rest = clause[m.end() :]
        assigned = _ASSIGNED.match(rest)
        if assigned:
            todo = rest[assigned.end() :]
            if m["bare"] in _WORK_GIVERS_ZH and not re.match(r"(?:要|得|必须|需要)", todo):
                todo = f"得{todo}"  # 老板要我周五前把方案发给他: a must
            return SELF, todo, True
        wants = _WANTS_BY_ZH.match(rest)
        if wants and m["bare"] in _WORK_GIVERS_ZH:
            return SELF, f"得{rest[wants.end() :]}", True  # 老板要周五前看到预算: the user's to do
        if rest.startswith("的"):
            # 娃的手抄报…: the child's thing, said by the user — the user's clause.
            return SELF, clause, False
        name = name_after(rest)
        if (
            not name
            and not re.match(
                r"[是叫在对有很也都就不没会要想去今明后下这上已还经刚正打喜爱讨最比说觉读念考满]|(?:周|星期|礼拜)[一二三四五六日天末]|\d",
                rest,
            )
            # 婆婆腿脚不好, 老公胃不好: their body and how it is.
            and not (_OF_A_PERSON_WORD.match(rest) or _BODY_PART_ZH.match(rest))
        ):
            return NOBODY, clause, False
        return Subject("person", m["bare"], name), rest[len(name) :].lstrip("，, "), True
    if m["kin"]:
        return Subject("person", m["kin"]), clause[m.end() :], True
    if m["rel4"] or m["cname3"]:
        return Subject("person", m["rel4"] or "邻居", m["cname3"] or ""), clause[m.end() :], True
    if m["rel3"] or m["cname2"]:
        rest = clause[m.end() :]
        name = m["cname2"] or name_after(rest)
        if m["rel3"] and name:
            rest = rest[len(name) :].lstrip("，, ")
        return Subject("person", m["rel3"] or "", name), rest, True
    if m["pron"]:
        return Subject("person", _PRONOUN), clause[m.end() :], True
    if m["you"]:
        return NOBODY, clause, True  # 你真靠谱: of the assistant, nothing of the user
    if m["some"] or m["some2"]:
        return Subject("person", m["some"] or m["some2"]), clause[m.end() :], True
    if m["cname"]:
        return Subject("person", "", m["cname"]), clause[m.end() :], True
    if m["we"]:
        ours = _OURS_ZH.match(body)
        if ours is not None:
            # 我们组的老张下个月退休: someone of ours, not us.
            subject, rest, _ = _subject_zh(body[ours.end() :])
            if subject.kind == "person":
                return subject, rest, True
        word = m["we"].casefold()
        if word in ("we're", "we've", "we'd", "we'll"):
            body = {"re": "are ", "ve": "have ", "d": "would ", "ll": "will "}[word[3:]] + body
        return Subject("we"), body, True
    return SELF, body, True


# What follows a relation word and is no name (我老公今天…, 我女儿上学…).
_NOT_NAME_TAGS = frozenset(
    {"t", "v", "vn", "d", "p", "c", "r", "m", "f", "u", "uj", "ul", "y", "a", "ad", "s", "zg"}
)
# What a person has, said right after them (我老婆预产期是3月, 女儿名字叫小雨): no name.
_OF_A_PERSON = re.compile(
    r"名字|小名|大名|预产期|生日|工作|工资|收入|身高|体重|血压|血糖|血型|学校|公司|单位|老家|电话"
    r"|手机|婚礼|头发|脾气|性格|成绩|年龄|岁数|属相|爱好|专业|职业|班主任|老师|同事|朋友|身体"
    r"|[\u4e00-\u9fff]{1,2}(?:期|日|费|号|码|病|症|课|班|假)"
)
_OF_A_PERSON_WORD = re.compile(
    r"血压|血糖|血脂|尿酸|胆固醇|心脏|肠胃|脾胃|身体|体重|身高|脾气|性格|视力|睡眠|腰椎|颈椎|膝盖"
)
_BODY_PART_ZH = re.compile(
    r"腿脚|手脚|腿|脚|腰|胃|肝|肾|心脏|眼睛|耳朵|牙|颈椎|肩膀?|皮肤|嗓子|关节"
)
_DOING_FIRST = re.compile(r"[吃喝戒忌怕属]")
_NOT_NAME_CHARS = re.compile(
    r"[的了在是也都很就不没还又要会想说叫有和跟对从今明昨每刚已正去来给被把让]"
)


# 老 before a verb is "always" (我妈老说我…, 我姐老嫌我乱花钱), no nickname: a verb or a
# word of the clause's frame follows it, or the user it does something to (老催我).
_ALWAYS_DOES = re.compile(
    r"老(?:[说是爱想要觉叫让问催嫌骂念唠跟和在去来给拿忘把被不没会能喜吵管逼劝]|[\u4e00-\u9fff]我)"
)


def name_after(text: str) -> str:
    """A name right after a relation word (林晓 of 我媳妇林晓, 朵朵 of 闺女朵朵，今年五岁):
    two or three characters up to a break, that the segmenter does not read as a time, a
    verb or a function word; "" when none."""
    from ekko_memory.service.extraction.words import tag

    m = re.match(
        r"([\u4e00-\u9fff]{2,3})(?=$|[，,、。！!？?\s和跟也都今年现在已经刚才才是在叫])", text
    )
    nick = re.match(r"(?:小|老|阿)(?![时候区家公婆板师人天学子孩朋])[\u4e00-\u9fff]", text)
    if nick is not None and not _ALWAYS_DOES.match(text):
        return nick.group()  # 同事小王不吃牛肉: 小王
    if m is None:
        return ""
    name = m.group(1)
    if (
        _NOT_NAME_CHARS.search(name[0])
        or _OF_A_PERSON.fullmatch(name)
        # 我妈血压高, 我爸血糖偏高: what the person has, then how it is — no name.
        or _OF_A_PERSON_WORD.match(name)
        # 我老婆吃素, 我儿子戒奶了: a verb of eating or quitting opens a predicate.
        or _DOING_FIRST.match(name)
    ):
        return ""
    if re.fullmatch(r"(.)\1", name):
        return name  # 朵朵, 乐乐: a child's name
    if any(pos in _NOT_NAME_TAGS for _, pos in tag(name)):
        return ""
    return name


def _names_a_language(word: str) -> bool:
    """English is fine, Japanese is hard: a language, no person, opens the clause."""
    from ekko_memory.service.extraction.words import LANGUAGES_EN

    return word.casefold() in LANGUAGES_EN


# the new guy at work, someone on my team, one of my students, a couple of the guests: people
# said as a noun phrase before their verb — someone else, never the user.
_PEOPLE_NP_EN = re.compile(
    r"^(?P<np>(?:the|a|an|some|this|that|these|those|one|two|three|four|several|a\s+few|a\s+couple\s+of|most|all|half|both|none|each|every|someone|somebody|everyone|everybody|no\s*one|nobody)\b"
    r"(?:\s+(?!(?:is|are|was|were|has|have)\b)[\w'-]+){0,6}?)"
    r"\s+(?=(?:is|are|was|were|has|have|gets|get|can'?t|cannot|doesn'?t|don'?t|won'?t|hates|loves|likes|eats|avoids|needs|keeps)\b)",
    re.IGNORECASE,
)
_PEOPLE_WORDS_EN = re.compile(
    r"\b(?:guy|guys|girl|girls|man|men|woman|women|lady|person|people|kid|kids|child|children|student|students"
    r"|pupil|pupils|colleagues?|co-?workers?|folks|someone|somebody|everyone|everybody|anyone|nobody|no\s*one"
    r"|friends?|guests?|clients?|customers?|members?|hire|hires|interns?|staff|teammates?|neighbou?rs?"
    r"|classmates?|relatives?|cousins?|in-laws|attendees|visitors|players|boys|girls|toddlers?)\b",
    re.IGNORECASE,
)
# A noun after "my dentist", "my doctor" that makes them the user's visit: the appointment is
# the user's (my dentist appointment, my doctor's visit), not something of the person.
_SEEING_THEM_EN = re.compile(
    r"(?:'s\s+)?(?:appointment|appt|visit|check-?up|cleaning|consult(?:ation)?|exam|session|class|lesson)s?\b",
    re.IGNORECASE,
)


def _work_set_en(rel: str, body: str) -> tuple[Subject, str, bool] | None:
    """What one who gives the user work wants done (my boss wants me to send the invoice by
    Friday; the client needs the revised quote by the 20th): the user's to do."""
    if rel.casefold() not in _WORK_GIVERS_EN:
        return None
    set_work = _SET_WORK_EN.match(body)
    if set_work:
        return SELF, f"have to {body[set_work.end() :]}", True
    wants = _WANTS_BY_EN.match(body)
    if wants:
        # my boss wants the report by Friday: the user hands it in by then.
        return SELF, f"have to deliver {wants['what']} {body[wants.end() :]}", True
    return None


def _people_np_en(clause: str) -> tuple[Subject, str, bool] | None:
    """A clause opened by people said as a noun phrase (the new guy at work is allergic…):
    the kids or the wife named with "the" are the user's family; anyone else is someone."""
    body = clause[_LEAD_EN_RE.match(clause).end() :]  # type: ignore[union-attr]
    np = _PEOPLE_NP_EN.match(body)
    if np is None or not _PEOPLE_WORDS_EN.search(np["np"]):
        return None
    rest = body[np.end() :]
    rel = re.fullmatch(rf"the\s+(?P<rel>{_REL_EN})", np["np"], re.IGNORECASE)
    if rel is not None:
        return _work_set_en(rel["rel"], rest) or (
            Subject("person", rel["rel"].casefold()),
            rest,
            True,
        )
    return SOMEONE, rest, True


def _subject_en(clause: str) -> tuple[Subject, str, bool]:
    m = _SUBJ_EN.match(clause)
    if m is None:
        people = _people_np_en(clause)
        if people is not None:
            return people
        # A named person stating something of theirs: "Anna is allergic to shellfish".
        named = re.match(
            r"^([A-Z][a-z]+)(?:'s\s+(?=(?:turning|starting|moving|allergic|pregnant|retired|married|engaged|vegan|vegetarian)\b)"
            r"|(?:\s+(?:from|in|at|on)\s+(?:the\s+|our\s+|my\s+)?[\w-]+)?\s+(?=is\b|has\b|was\b|likes\b|loves\b|hates\b|works\b|lives\b|can'?t\b|doesn'?t\b|takes\b|goes\b|just\b|turns\b|needs\b|wants\b|handles\b|runs\b|manages\b|leads\b|teaches\b|coaches\b|speaks\b|prefers\b|owns\b))",
            clause,
        )
        if named and named[1].casefold() not in _NOT_NAMES and not _names_a_language(named[1]):
            body = clause[named.end() :]
            if named.group().endswith(("'s ", "'s")):
                body = "is " + body  # Maya's turning 7: she is
            return Subject("person", "", named[1]), body, True
        return NOBODY, clause[_LEAD_EN_RE.match(clause).end() :] or clause, False  # type: ignore[union-attr]
    body = clause[m.end() :].strip(" ,")
    if m["own2"]:
        rest = clause[m.end() :].strip(" ,")
        rest = re.sub(r"^'s\s+(?=been\b|got\b)", "has ", rest)
        rest = re.sub(r"^'s\s+", "is ", rest)
        return Subject("person", m["rel2"].casefold(), m["name2"]), rest, True
    if m["rel"]:
        if _SEEING_THEM_EN.match(body) and not m["name"]:
            # my dentist appointment is on the 12th: the user's appointment, not the dentist.
            return SELF, clause[_LEAD_EN_RE.match(clause).end() :] or clause, True  # type: ignore[union-attr]
        if body.startswith("'s ") and not _OWNED_AFTER_EN.match(body):
            # my wife's vegetarian, my son's been sick: 's is "is" or "has" here.
            body = re.sub(r"^'s\s+(?=been\b|got\b)", "has ", body)
            body = re.sub(r"^'s\s+", "is ", body)
        work = _work_set_en(m["rel"], body)
        if work is not None:
            return work
        return Subject("person", m["rel"].casefold(), m["name"] or ""), body, True
    if m["bare"]:
        if _POSSESSED_EN.match(body):
            return NOBODY, clause, False  # doctor's orders: the doctor's thing, said in passing
        body = re.sub(r"^'s\s+", "is ", body)
        return Subject("person", m["bare"].casefold()), body, True
    if m["you"]:
        return NOBODY, clause, True
    if m["mine"]:
        return SELF, body, True  # my birthday's on the 9th of July
    if m["pron"]:
        word = m["pron"].casefold()
        body = (
            ("is " + body)
            if word.endswith("'s")
            else ("are " + body)
            if word.endswith("'re")
            else body
        )
        return Subject("person", _PRONOUN), body, True
    if m["we"]:
        return Subject("we"), body, True
    word = m["self"].casefold()
    if word in ("i'm", "im"):
        body = "am " + body
    elif word in ("i've", "ive"):
        body = "have " + body
    elif word == "i'd":
        body = "would " + body
    elif word == "i'll":
        body = "will " + body
    return SELF, body, True


# What opens an English clause about something else than the speaker.
_OTHER_START = re.compile(
    r"^(?:the|a|an|this|that|these|those|it|it's|its|there|here|he|she|they|you|your|what|how|why|when|where|who|which|is|are|was|were|do|does|can|could|would|should|any|some|no|not|thanks|thank|hi|hello|hey|ok|okay|yes|yeah|lol|haha|please)\b",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset(
    [
        "it",
        "this",
        "that",
        "there",
        "here",
        "what",
        "which",
        "who",
        "when",
        "where",
        "why",
        "how",
        "the",
        "a",
        "an",
        "my",
        "our",
        "your",
        "his",
        "her",
        "their",
        "today",
        "tomorrow",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ]
)


# Someone the user says they have (我有个女儿, 家里有只柯基, 养了两只猫, I have a corgi, we got a
# kitten): the one the next clause, with no subject of its own, may go on about.
_HAS_ONE_ZH = re.compile(
    r"(?<![没無无])(?:有|养了?|养着|领养了|收养了|捡了)(?:一|两|三|几|[1-9])?(?:个|只|条|位|头)?(?:小)?"
    rf"(?P<pet>{'|'.join(sorted({*w.PETS_ZH, *RELATIONS_ZH}, key=len, reverse=True))})"
)
_HAS_ONE_EN = re.compile(
    r"\b(?<!don't )(?<!never )(?:have|has|got|adopted|rescued|own)\s+(?:a|an|one|two|three|\d)\s+(?:[a-z]+\s+)?"
    rf"(?P<pet>{'|'.join(sorted({*w.PETS_EN, *RELATIONS_EN}, key=len, reverse=True))})\b",
    re.IGNORECASE,
)
# What is said of the pet itself with no subject (三岁了, 很乖, 特别黏人): its age or
# what it is like, not something the user does (每天早上喂它 stays the user's).
_OF_THE_PET_ZH = re.compile(
    r"^(?:今年|已经|都|才|刚|刚满|满|快)*[\d一二两三四五六七八九十半]+(?:岁|个月|周|了|$)"
    r"|^(?:很|特别|超|超级|挺|非常|有点|比较|巨)(?![^，,]*[它他她])"
)


_NAMED_ZH_IN = re.compile(rf"(?:我|俺)(?:的)?(?:大|小|老)?(?P<rel>{_REL_ZH})")
_NAMED_EN_IN = re.compile(
    rf"\b(?:my|our)\s+(?:(?:little|older|younger|big|baby|best|new)\s+)?(?P<rel>{_REL_EN})\b(?!'s)",
    re.IGNORECASE,
)


def _named_in_passing(clause: str, zh: bool) -> Subject | None:
    """The last person of the user's a clause names anywhere (给我爸的礼物, for my dad)."""
    found = list((_NAMED_ZH_IN if zh else _NAMED_EN_IN).finditer(clause))
    return Subject("person", found[-1]["rel"].casefold()) if found else None


def _pet_introduced(body: str, zh: bool) -> Subject | None:
    """The pet or person a clause of the user's says they have, as the one the next clauses
    speak of."""
    m = (_HAS_ONE_ZH if zh else _HAS_ONE_EN).search(body)
    return Subject("person", m["pet"].casefold()) if m else None


@lru_cache(maxsize=512)
def _analyze(
    text: str, before: Subject | None = None
) -> tuple[tuple[str, str, Subject, str, bool], ...]:
    """(clause, sentence, subject, body, explicit subject) for each clause; memoized: the
    trigger check and the extractor read the same messages."""
    out: list[tuple[str, str, Subject, str, bool]] = []
    first = True
    last_person: Subject | None = before
    for sentence in sentences(text):
        zh = bool(_CJK.search(sentence))
        carried: Subject | None = None
        pet: Subject | None = None
        for clause in _clauses(sentence, zh):
            if not _ASK_ONLY.match(clause):  # remember that for this project: all request
                clause = _REMEMBER_LEAD.sub("", clause) or clause
            subject, body, explicit = (_subject_zh if zh else _subject_en)(clause)
            if subject.relation == _PRONOUN:
                # they loved the jousting: of someone, never the user, even when unnamed.
                subject = last_person or (NOBODY if clause.lstrip().startswith("人家") else SOMEONE)
                explicit = True
                assigned = (_ASSIGNED_PRON_ZH if zh else _ASSIGNED_PRON_EN).match(body)
                if assigned is not None:
                    # 他们让我周五前交报告, they want me to send it by Friday: the user's to do.
                    subject, body = SELF, body[assigned.end() :]
            if not explicit and pet is not None and zh and _OF_THE_PET_ZH.match(body.strip()):
                # 我家有只柯基叫豆豆，三岁了: the dog is three, not the user (the next clause
                # with no subject is the user's again: …，每天早上遛它).
                first = False
                out.append((clause, sentence, pet, body, True))
                continue
            if not explicit:
                if carried is not None:
                    subject = carried
                elif first and (zh or not _OTHER_START.match(clause)):
                    # Chat drops the speaker: 住在杭州 or "been on sertraline for a year"
                    # opening a message is the user's.
                    subject = SELF
            carried = subject
            if subject.kind == "person":
                last_person = subject
            else:
                # what should I get my dad?… he's into birdwatching: the person the clause
                # names as the user's, though not its subject, is whom "he" points back to.
                named = _named_in_passing(clause, zh)
                if named is not None:
                    last_person = named
            pet = _pet_introduced(body, zh) if subject.kind in ("self", "person") else None
            if pet is not None and subject.kind == "person":
                # 我朋友养了只猫，三岁了: the friend's cat is three — of nobody to keep.
                pet = NOBODY
            elif pet is not None:
                last_person = pet  # I have a corgi named Bean, she's three: the dog
            first = False
            out.append((clause, sentence, subject, body, explicit))
    return tuple(out)


def read_statements(text: str, now: datetime, before: Subject | None = None) -> list[Statement]:
    """The clauses of a user message, each with its subject and kind."""
    out: list[Statement] = []
    supposing: str | None = None
    hearsay: str | None = None
    wishing: str | None = None
    last_time: TimeMention | None = None
    for index, (clause, sentence, subject, body, explicit) in enumerate(_analyze(text, before)):
        if out and out[-1].sentence != sentence:
            last_time = None
        # Hearsay holds over the clauses after it with no subject of their own (听说每天
        # 喝柠檬水能美白，还能减肥): they go on with the source's claim.
        if hearsay != sentence or (explicit and subject.kind != "none"):
            hearsay = sentence if _HEARSAY.search(clause) else None
        if wishing != sentence or (explicit and subject.kind != "none"):
            wishing = sentence if _WISH.search(clause) else None
        zh = bool(_CJK.search(clause)) or bool(_CJK.search(sentence))
        folded = clause.casefold()
        # A supposition holds from the clause that makes it to the end of its sentence
        # (我在备考公务员，万一考不上，…: the first clause is a fact).
        if supposing != sentence:
            supposing = (
                sentence
                if _HYPOTHETICAL.search(clause) and not _TOPIC_DEHUA.match(clause)
                else None
            )
        elif not zh and _SO_NOW.match(clause) and not _HYPOTHETICAL.search(clause):
            # I can't sleep if I have it late, so I'm a tea person now: what follows "so"
            # is what holds, not part of the supposition.
            supposing = None
        hypothetical = supposing == sentence or wishing == sentence
        question = bool(
            (_QUESTION_ZH if zh else _QUESTION_EN).search(
                clause if not zh else clause + _tail(sentence, clause)
            )
        )
        if zh and sentence.rstrip().endswith(("?", "？")) and clause == _clauses(sentence, zh)[-1]:
            question = True
        request = bool(_REQUEST.search(body if explicit and subject.kind == "self" else clause))
        remember = intent.has_explicit_intent(clause) or intent.has_explicit_intent(sentence)
        out.append(
            Statement(
                text=clause,
                sentence=sentence,
                lang="zh" if zh else "en",
                subject=subject,
                body=body,
                explicit_subject=explicit,
                negated=bool((_NEG_ZH if zh else _NEG_EN).search(body if zh else folded)),
                question=question and not remember,
                hypothetical=hypothetical,
                request=(request and not remember) or bool(_ASK_ONLY.match(clause)),
                reported=(bool(_REPORTED.search(body)) and subject.kind == "person")
                or hearsay == sentence
                or ((not explicit or subject.kind == "none") and _of_people_at_large(clause)),
                opinion=bool(_OPINION.search(body if explicit else clause))
                or bool(_MOCK_OPENER.match(sentence) and _BLOWN_UP_LIKING.search(clause)),
                times=(times := find_times(clause, now, last_time)),
                index=index,
                remember=remember,
            )
        )
        last_time = times[-1] if times else last_time
    return _truth_asked(out)


def _truth_asked(out: list[Statement]) -> list[Statement]:
    """A sentence closed by asking whether it is true (网上说每天喝三杯咖啡能长寿，真的假的;
    …, is that true?) asks about all it said: its clauses are questions."""
    for st in out:
        if _TRUE_OR_NOT.match(st.text.strip()):
            for other in out:
                if other.sentence == st.sentence:
                    other.question = True
    return out


def goes_on_about(st: Statement) -> list[str]:
    """The clauses right after ``st`` in its sentence that go on about the same person with
    no subject of their own (我老公是个摄影发烧友，用的索尼，天天研究镜头: what he uses and
    does); none for a clause about the user, nor past a clause that names someone."""
    if st.subject.kind != "person" or not st.explicit_subject:
        return []
    out: list[str] = []
    seen = False
    for clause, _, subject, _, explicit in _analyze(st.sentence):
        if not seen:
            seen = clause == st.text
            continue
        if explicit or subject != st.subject or _QUESTION_MARK.search(clause):
            break
        out.append(clause)
    return out


_QUESTION_MARK = re.compile(r"[?？]|[吗呢嘛]\s*$")


def _tail(sentence: str, clause: str) -> str:
    """The end mark of ``clause``'s sentence when the clause ends it (a ? belongs to the
    clause before it only)."""
    rest = sentence[sentence.find(clause) + len(clause) :] if clause in sentence else ""
    return rest.strip()[:1] if rest.strip()[:1] in ("?", "？") else ""


def with_subject(statement: Statement, subject: Subject) -> Statement:
    """The same clause read of another subject (我和老公都不吃辣: of each)."""
    return replace(statement, subject=subject)


# Asking for a story, a poem, a character (帮我写个小说开头, write me a bedtime story): what
# the message goes on to say is the story's, not the user's.
_FICTION = re.compile(
    r"(?:写|编|创作|构思|续写|改写|想|起)(?:一?[个篇段首部则份])?[^，。,.]{0,8}?"
    r"(?:小说|故事|童话|剧本|诗|歌词|段子|人设|剧情|情节|台词|同人|角色设定|剧本杀|对话|场景|情景剧|小品|相声|短剧)"
    # A play the user sets up (假装你是我男朋友，我们住在巴黎…; pretend I'm a 45-year-old
    # accountant): the lines after it are the play's, not the user's life.
    r"|假装(?:你|我|我们)|扮演|角色扮演|(?:你|我)来?演(?:一个|一位|个|位)|(?:你|我)当(?:一个|一位|个|位)"
    r"|\bpretend\s+(?:you'?re|you\s+are|to\s+be|i'?m|i\s+am|we'?re|that)\b|\brole[- ]?play"
    r"|^(?:please\s+|now\s+|can\s+you\s+|could\s+you\s+)?act\s+as\b|\bplay\s+the\s+(?:role|part)\b|\bimagine\s+you'?re\b|\blet'?s\s+play\b"
    # Words drafted for someone else (帮我朋友写个自我介绍：我叫…; write a bio for my sister:
    # …): what follows is in their voice.
    rf"|^(?:请|麻烦你?)?(?:帮|替)(?:我|忙)?(?:给|替|为|帮)?(?:我的?)?(?:大|小|老)?(?:{_REL_ZH})"
    r"[^，,。：:]{0,4}?(?:写|编|起草|拟|改|润色|整理)"
    r"|^(?:please\s+|can\s+you\s+|could\s+you\s+|help\s+me\s+)?(?:write|draft|compose|polish|edit|rewrite|put\s+together)\b"
    rf"[^.!?;:]{{0,40}}?\bfor\s+(?:my|our)\s+(?:\w+\s+)?(?:{_REL_EN})\b"
    r"|\b(?:write|draft|compose|make up|come up with|tell me|create|invent|help me with)\b[^,.;:]{0,30}?"
    r"\b(?:story|stories|novel|poem|script|screenplay|fanfic|fan fiction|lyrics|fairy tale|"
    r"character|plot|scene|dialogue|limerick|haiku|skit|sketch)s?\b",
    re.IGNORECASE,
)


def writes_fiction(text: str) -> bool:
    """The clause asks for a piece of fiction (a story, a poem, a character)."""
    return bool(_FICTION.search(text))
