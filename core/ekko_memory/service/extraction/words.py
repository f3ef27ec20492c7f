"""Small language helpers shared by the frames: Chinese parts of speech, value clean-up,
and the short lists of words that name a kind of thing (jobs, languages, conditions…).

Chinese words and their parts of speech come from rjieba (jieba's dictionary and HMM in
Rust: ~4.6 MB, 0.16 s to import, ~10 µs a clause); it finds the place in 我住在义乌 and the
organisation in 我在腾讯上班 without a gazetteer. Its word breaks are not trusted for
the subject and the verb (it reads 我会 and 我养 as one word), which the frames find in the
characters themselves.
"""

from __future__ import annotations

import re
from functools import lru_cache

_PLACE_TAGS = frozenset({"ns", "nz", "nr", "nt", "nrt", "eng"})
_PLACE_SUFFIX = re.compile(r"(?:省|市|区|县|镇|乡|村|州|岛|湾|城|特区|新区|自治区)$")
# Words that sit where a place would and name none (住在公司附近, 在家上班).
_NOT_PLACES = frozenset(
    [
        "家",
        "家里",
        "公司",
        "学校",
        "宿舍",
        "附近",
        "这里",
        "那里",
        "这边",
        "那边",
        "楼上",
        "楼下",
        "郊区",
        "市区",
        "城里",
        "乡下",
        "老家",
        "外地",
        "国外",
        "海外",
        "本地",
        "当地",
        "单位",
        "医院",
        "酒店",
        "出租屋",
        "小区",
        "隔壁",
        "对面",
    ]
)


@lru_cache(maxsize=2048)
def tag(text: str) -> tuple[tuple[str, str], ...]:
    """(word, part of speech) of a Chinese text (jieba's tags: ns place, nr person, v verb…)."""
    import rjieba

    return tuple(rjieba.tag(text))


# What names a housing estate or a building (翠屏小区, 阳光花园, 万科公寓): the word before it
# is the estate's name, no part of the town.
_ESTATE = re.compile(r"^(?:小区|社区|花园|公寓|家园|新村|苑|大厦|广场|公馆|华府|府邸|名苑|雅苑)$")


def place_at_start(text: str) -> str:
    """The place a Chinese text opens with (杭州西湖区 of 杭州西湖区，离公司近), "" when it
    opens with something else (公司附近)."""
    out = ""
    words = tag(text)
    for i, (word, pos) in enumerate(words):
        if word in _NOT_PLACES:
            break
        if out and i + 1 < len(words) and _ESTATE.match(words[i + 1][0]):
            break  # 南京江宁区翠屏小区: 翠屏 names the estate, not the town
        if pos in _PLACE_TAGS or _PLACE_SUFFIX.search(word) or (out and word in ("市", "区", "县")):
            out += word
            continue
        break
    if pos_is_latin(out):
        return out.strip()
    return out if len(out) >= 2 else ""


def pos_is_latin(text: str) -> bool:
    return bool(text) and all(ord(c) < 0x3000 for c in text)


def org_at_start(text: str) -> str:
    """The organisation a Chinese text opens with, before a verb (腾讯 of 腾讯做后端): a
    latin name (Google), a name jieba knows as one (nz, nt, nr), or words ending in 公司,
    银行, 医院, 大学…; "" when none."""
    m = re.match(r"\s*([A-Za-z][A-Za-z0-9&.\- ]{1,30}?)(?=\s*(?:[\u4e00-\u9fff]|$))", text)
    if m:
        return m.group(1).strip()
    m = re.match(
        r"([\u4e00-\u9fff]{1,12}?(?:公司|集团|银行|医院|诊所|大学|学院|学校|中学|小学|幼儿园|研究所|研究院|事务所|律所|工作室|工厂|厂|局|部|委|中心|门店|分行|店|超市|酒店|餐厅|报社|电视台|出版社|基金会|协会|科技|网络|有限公司))",
        text,
    )
    if m:
        return m.group(1)
    words = tag(text)
    if words and words[0][1] in ("nz", "nt", "nr", "nrt") and len(words[0][0]) >= 2:
        return words[0][0]
    return ""


_TRAIL_ZH = re.compile(r"[了啦呢哦呀啊吧的哈嘛喔噢哟咯呗～~。.!！,，\s]+$")
_TRAIL_EN = re.compile(
    r"(?:[\s,]+(?:now|too|as well|also|though|tho|lol|lmao|haha|btw|tbh|ngl|honestly|these days|right now|currently|actually|anyway|and stuff|and all|or something|already|at all|either|to be honest))+[.!]*$|[\s.!,;:]+$",
    re.IGNORECASE,
)


def clean_zh(value: str) -> str:
    """A Chinese value without trailing particles and punctuation (杭州了 → 杭州)."""
    value = value.strip()
    previous = None
    while previous != value:
        previous = value
        value = _TRAIL_ZH.sub("", value).strip()
    return value


def clean_en(value: str) -> str:
    """An English value without trailing fillers (Hangzhou now → Hangzhou)."""
    value = value.strip()
    previous = None
    while previous != value:
        previous = value
        value = _TRAIL_EN.sub("", value).strip()
    return value


def capitalized_phrase(text: str) -> str:
    """The proper name an English text opens with (New York of "New York now", the Bay
    Area), "" when it opens with a common word."""
    m = re.match(
        r"\s*((?:the\s+)?(?:[A-Z][\w'.-]*|[A-Z]{2,})(?:\s+(?:of|de|la|upon|on|am|del|du|[A-Z][\w'.-]*))*)",
        text,
    )
    if m is None:
        return ""
    name = m.group(1).strip()
    name = re.sub(r"\s+(?:of|de|la|upon|on|am|del|du)$", "", name)
    return name


# Occupations in English: the head noun of "I'm a/an …" or "work as a …".
JOBS_EN = frozenset(
    [
        "nurse",
        "doctor",
        "physician",
        "surgeon",
        "dentist",
        "pharmacist",
        "therapist",
        "psychologist",
        "psychiatrist",
        "vet",
        "veterinarian",
        "paramedic",
        "teacher",
        "professor",
        "lecturer",
        "tutor",
        "coach",
        "principal",
        "librarian",
        "engineer",
        "developer",
        "dev",
        "swe",
        "rep",
        "producer",
        "animator",
        "illustrator",
        "strategist",
        "copywriter",
        "hygienist",
        "midwife",
        "carer",
        "controller",
        "dispatcher",
        "surveyor",
        "estimator",
        "underwriter",
        "programmer",
        "coder",
        "designer",
        "architect",
        "lawyer",
        "attorney",
        "paralegal",
        "judge",
        "accountant",
        "auditor",
        "banker",
        "trader",
        "analyst",
        "consultant",
        "manager",
        "pm",
        "director",
        "executive",
        "ceo",
        "cto",
        "cfo",
        "coo",
        "founder",
        "entrepreneur",
        "freelancer",
        "contractor",
        "student",
        "intern",
        "resident",
        "chef",
        "cook",
        "baker",
        "barista",
        "bartender",
        "waiter",
        "waitress",
        "server",
        "cashier",
        "driver",
        "pilot",
        "mechanic",
        "electrician",
        "plumber",
        "carpenter",
        "builder",
        "farmer",
        "fisherman",
        "firefighter",
        "officer",
        "cop",
        "detective",
        "soldier",
        "sailor",
        "marine",
        "journalist",
        "reporter",
        "editor",
        "writer",
        "author",
        "blogger",
        "youtuber",
        "streamer",
        "influencer",
        "photographer",
        "artist",
        "painter",
        "musician",
        "singer",
        "actor",
        "actress",
        "dancer",
        "model",
        "translator",
        "interpreter",
        "researcher",
        "scientist",
        "biologist",
        "chemist",
        "physicist",
        "mathematician",
        "economist",
        "statistician",
        "recruiter",
        "salesperson",
        "salesman",
        "saleswoman",
        "marketer",
        "realtor",
        "agent",
        "broker",
        "clerk",
        "secretary",
        "receptionist",
        "assistant",
        "administrator",
        "admin",
        "coordinator",
        "specialist",
        "technician",
        "supervisor",
        "caregiver",
        "nanny",
        "babysitter",
        "housekeeper",
        "cleaner",
        "janitor",
        "guard",
        "retiree",
        "homemaker",
        "housewife",
        "househusband",
        "stay-at-home",
        "mom",
        "dad",
        "parent",
        "professor",
        "postdoc",
        "phd",
        "scientist",
        "programmer",
        "sysadmin",
        "devops",
        "sre",
        "qa",
        "tester",
        "owner",
        "landlord",
        "shopkeeper",
        "pastor",
        "priest",
        "monk",
    ]
)
# Languages in English (a capitalized -ish/-ese/-an/-ic word is one too).
# Peoples one says one is (I'm Brazilian): where one is from.
NATIONALITIES_EN = frozenset(
    [
        "american",
        "british",
        "english",
        "scottish",
        "welsh",
        "irish",
        "canadian",
        "australian",
        "mexican",
        "brazilian",
        "argentinian",
        "argentine",
        "chilean",
        "colombian",
        "peruvian",
        "venezuelan",
        "cuban",
        "spanish",
        "portuguese",
        "french",
        "german",
        "italian",
        "dutch",
        "belgian",
        "swiss",
        "austrian",
        "swedish",
        "norwegian",
        "danish",
        "finnish",
        "icelandic",
        "polish",
        "czech",
        "slovak",
        "hungarian",
        "romanian",
        "bulgarian",
        "greek",
        "turkish",
        "russian",
        "ukrainian",
        "serbian",
        "croatian",
        "chinese",
        "japanese",
        "korean",
        "vietnamese",
        "thai",
        "filipino",
        "indonesian",
        "malaysian",
        "singaporean",
        "indian",
        "pakistani",
        "bangladeshi",
        "nepali",
        "iranian",
        "iraqi",
        "israeli",
        "lebanese",
        "egyptian",
        "moroccan",
        "nigerian",
        "kenyan",
        "ghanaian",
        "ethiopian",
        "african",
        "taiwanese",
        "kiwi",
    ]
)
LANGUAGES_EN = frozenset(
    [
        "english",
        "chinese",
        "mandarin",
        "cantonese",
        "japanese",
        "korean",
        "french",
        "german",
        "spanish",
        "italian",
        "portuguese",
        "russian",
        "arabic",
        "hindi",
        "urdu",
        "bengali",
        "dutch",
        "swedish",
        "norwegian",
        "danish",
        "finnish",
        "polish",
        "czech",
        "greek",
        "turkish",
        "hebrew",
        "thai",
        "vietnamese",
        "indonesian",
        "malay",
        "tagalog",
        "persian",
        "farsi",
        "swahili",
        "ukrainian",
        "romanian",
        "hungarian",
        "latin",
        "esperanto",
        "sign",
        "asl",
    ]
)
_LANG_ZH = re.compile(r"[\u4e00-\u9fff]{1,4}?(?:语|话|文)(?![法学言])|ASL|手语")
# Conditions a person has (I have asthma): names and the endings of names.
CONDITIONS_EN = re.compile(
    r"\b(?:asthma|diabetes|type [12] diabetes|high blood pressure|low blood pressure|high cholesterol|hypertension"
    r"|migraines?|adhd|add|autism|depression|anxiety|insomnia|arthritis|eczema|psoriasis|celiac(?: disease)?|coeliac(?: disease)?"
    r"|ibs|crohn'?s(?: disease)?|gout|epilepsy|a heart condition|heart disease|kidney disease|cancer|long covid|covid"
    r"|sleep apnea|scoliosis|pcos|endometriosis|lupus|glaucoma|a bad back|back pain|tinnitus|vertigo|anemia|anaemia"
    r"|hypothyroidism|hyperthyroidism|a thyroid condition|acid reflux|gerd|fibromyalgia|ptsd|ocd|bipolar(?: disorder)?"
    r"|[a-z]+itis|[a-z]+ (?:disease|syndrome|disorder))\b",
    re.IGNORECASE,
)
CONDITIONS_ZH = re.compile(
    r"[\u4e00-\u9fff]{0,6}?(?:病|症|炎|癌|瘤|结石|高血压|低血压|高血糖|低血糖|血糖高|血压高|哮喘|抑郁|焦虑|失眠|痛风|贫血|近视|甲亢|甲减|偏头痛|湿疹|三高|腰间盘突出|椎间盘突出|脂肪肝|心脏病|乳糖不耐受?|麸质不耐受?|不耐受|晕机|晕车|晕船|恐高|幽闭恐惧)"
)
# Medicine: names and the endings of drug names (metformin, lisinopril, atorvastatin…).
MEDICINE_EN = re.compile(
    r"\b(?:insulin|aspirin|ibuprofen|tylenol|advil|paracetamol|acetaminophen|metformin|levothyroxine|synthroid|prozac|zoloft|lexapro|adderall|ritalin"
    r"|birth control|the pill|antibiotics|antidepressants|blood thinners|inhaler|an inhaler|statins|melatonin|vitamin [a-z0-9]+|iron supplements?"
    r"|[a-z]+(?:pril|sartan|statin|olol|xetine|pramine|zepam|zolam|azole|mycin|cillin|cycline|floxacin|dipine|tidine|prazole|mab|nib|formin|thyroxine|lukast|terol|sone|olone))\b",
    re.IGNORECASE,
)
MEDICINE_ZH = re.compile(
    r"[\u4e00-\u9fffA-Za-z0-9]{0,8}?(?:药|片|胶囊|颗粒|冲剂|口服液|胰岛素|阿司匹林|二甲双胍|降压药|降糖药|他汀|优甲乐|维生素[A-Za-z0-9]*|叶酸|钙片|鱼油|褪黑素|避孕药|抗生素|激素|喷雾|滴眼液|针)"
)
PETS_ZH = [
    "猫咪",
    "小猫",
    "猫",
    "狗狗",
    "小狗",
    "狗",
    "兔子",
    "仓鼠",
    "鹦鹉",
    "金鱼",
    "乌龟",
    "龟",
    "刺猬",
    "龙猫",
    "八哥",
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
    "布偶猫",
    "布偶",
    "英短",
    "美短",
    "橘猫",
    "狸花猫",
    "暹罗猫",
    "蓝猫",
    "鱼",
    "鸟",
    "蜥蜴",
    "蛇",
]
PETS_EN = [
    "cat",
    "cats",
    "kitten",
    "kitty",
    "dog",
    "dogs",
    "puppy",
    "pup",
    "rabbit",
    "bunny",
    "hamster",
    "guinea",
    "pig",
    "parrot",
    "budgie",
    "goldfish",
    "fish",
    "turtle",
    "tortoise",
    "lizard",
    "gecko",
    "snake",
    "ferret",
    "hedgehog",
    "horse",
    "pony",
    "bird",
    "chinchilla",
    "corgi",
    "labrador",
    "lab",
    "retriever",
    "golden",
    "poodle",
    "husky",
    "beagle",
    "bulldog",
    "terrier",
    "dachshund",
    "shih",
    "tzu",
    "greyhound",
    "whippet",
    "spaniel",
    "collie",
    "pug",
    "chihuahua",
    "schnauzer",
    "sheepdog",
    "lurcher",
    "cockapoo",
    "labradoodle",
]
RELATION_EN_ZH = {
    "husband": "丈夫",
    "hubby": "丈夫",
    "wife": "妻子",
    "wifey": "妻子",
    "partner": "伴侣",
    "boyfriend": "男朋友",
    "girlfriend": "女朋友",
    "son": "儿子",
    "daughter": "女儿",
    "kid": "孩子",
    "kids": "孩子",
    "child": "孩子",
    "children": "孩子",
    "mom": "妈妈",
    "mum": "妈妈",
    "mother": "妈妈",
    "dad": "爸爸",
    "father": "爸爸",
}


def language_names_zh(text: str) -> list[str]:
    """Languages named in a Chinese text (粤语, 英文, 上海话)."""
    names = (_LANG_LEAD_ZH.sub("", m.group()) for m in _LANG_ZH.finditer(text))
    return [n for n in names if len(n) >= 2]


# Words before a language's name that are no part of it (粤语和一点英语: 英语).
_LANG_LEAD_ZH = re.compile(r"^(?:和|跟|与|及|以及|还有|也|还|会|说|讲|一点儿?|一些|点儿?|些)+")


def language_names_en(text: str) -> list[str]:
    """Languages named in an English text (Spanish, Mandarin, Sign Language)."""
    out = []
    for word in re.findall(r"[A-Za-z]+", text):
        w = word.casefold()
        if w in LANGUAGES_EN or (
            word[:1].isupper() and re.search(r"(?:ish|ese|ian|ic)$", w) and len(w) > 4
        ):
            out.append(word[:1].upper() + word[1:])
    return out


# Days and months in English: capitalized like names and places, and neither.
CALENDAR_EN = frozenset(
    [
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        *("january", "february", "march", "april", "may", "june", "july"),
        *("august", "september", "october", "november", "december"),
    ]
)
