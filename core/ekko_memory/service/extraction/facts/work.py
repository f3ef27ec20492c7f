"""Frames for what one does: job and workplace, one's own business, school, languages
and what one is working towards."""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import (
    ADV_EN,
    ADV_ZH,
    FactBuilder,
    english_place,
    lower_org,
)
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement

_JOB_SUFFIX_ZH = (
    r"(?:工程师|程序员|设计师|产品经理|项目经理|经理|总监|主管|老师|教师|教授|医生|大夫|护士|药剂师|律师|会计|"
    r"司机|厨师|记者|编辑|作家|研究员|博士生|研究生|本科生|大学生|高中生|初中生|小学生|学生|店主|主播|博主|"
    r"模特|演员|歌手|保安|保姆|军人|警察|公务员|自由职业者?|全职妈妈|全职爸爸|全职太太|宝妈|创业者|农民|"
    r"外卖员|快递员|销售|运营|码农|社畜|打工人|画家|摄影师|翻译|导游|空姐|空乘|飞行员|消防员|兽医|心理咨询师|"
    r"分析师|咨询师|架构师|建筑师|会计师|审计|HR|hr|财务|前端|后端|全栈|测试|实习生|老板|老师傅|师傅|工人|老湿|"
    r"[\u4e00-\u9fff]{1,3}(?:师|员|生|家|工|官|长))"
)

_JOB_ZH = re.compile(
    rf"^{ADV_ZH}(?:是|当|做|在当)(?:一名|一个|一位|个|名|位|一)?(?!了)(?P<v>[\u4e00-\u9fffA-Za-z]{{0,8}}?{_JOB_SUFFIX_ZH})(?:的|呢|啊|哦|了|$)"
    rf"|^{ADV_ZH}(?:是做|是搞|是干|做|搞|干)(?P<v2>[\u4e00-\u9fffA-Za-z]{{1,6}}?)(?:的|这一?行|工作|相关的?工作)$"
    rf"|^(?:的)?(?:工作|职业|本职)(?:是|是做)(?P<v3>.+)$"
    rf"|^{ADV_ZH}退休了?$"
)

_WORK_AT_ZH = re.compile(
    # 我再郑州上班: 再 typed for 在 (one sound), before a place and 上班/工作.
    rf"^{ADV_ZH}(?:是)?(?:在|再(?=[\u4e00-\u9fff]{{2,6}}(?:上班|工作)))(?P<v>.+?)(?:工作|上班|实习|任职|就职|供职|打工|当|做|干|搬砖|上岗)(?P<rest>.*)$"
    rf"|^{ADV_ZH}(?:入职了?|加入了?|跳槽到了?|跳槽去了?|去了)(?P<v2>.+?)(?:工作|上班)?$"
)

# A length of time (入职快三年了, 加入两个月了): no workplace.
_SPAN_ZH = re.compile(
    r"^(?:快|差不多|大概|将近|都|才|刚|有|已经)*[\d一二三四五六七八九十两半几多]+(?:年|个?月|个?星期|周|天|礼拜)"
)

# Where one is now (现在在拼多多), and the words of leaving a job that make it a workplace.
_NOW_AT_ZH = re.compile(r"^(?:现在|目前|如今)(?:已经|又)?在[\u4e00-\u9fffA-Za-z]{2,10}$")
LEFT_JOB_ZH = re.compile(r"离职|辞职|跳槽|换了?(?:工作|公司|东家)|被裁|被优化")

_JOB_EN = re.compile(
    rf"^(?:am|is|are)\s+{ADV_EN}(?:a|an)\s+(?P<v>(?:[\w-]+\s+){{0,3}}?[\w-]+)(?:\s+(?:at|for|with)\s+(?P<org>.+)|\s+in\s+(?P<place>.+))?$"
    rf"|^{ADV_EN}(?:work|works|working)\s+as\s+(?:a|an)?\s*(?P<v2>.+?)(?:\s+(?:at|for|in)\s+(?P<org2>.+))?$"
    rf"|^(?:am|is|are)\s+(?P<retired>retired|unemployed|between jobs|self-employed)$",
    re.IGNORECASE,
)

_WORK_AT_EN = re.compile(
    rf"^{ADV_EN}(?:work|works|working|intern|interning)\s+(?:at|for)\s+(?P<v>.+)$"
    rf"|^(?:have\s+|has\s+)?{ADV_EN}(?:joined|started\s+at|started\s+working\s+at)\s+(?P<v2>.+)$"
    # got a job at Shopify, landed a new job at Canva, got hired at Acme (an offer is no job).
    rf"|^(?:have\s+|has\s+)?{ADV_EN}(?:got|landed|accepted|took)\s+(?:a|an|the)\s+(?:new\s+|full-time\s+|part-time\s+)?"
    rf"(?:job|position|role)\s+(?:at|with)\s+(?P<v3>.+)$"
    rf"|^(?:have\s+|has\s+)?{ADV_EN}got\s+hired\s+(?:at|by)\s+(?P<v4>.+)$",
    re.IGNORECASE,
)

# ... in Leeds: the town after a workplace.
_IN_A_TOWN_EN = re.compile(
    r"\s(?:in|based\s+in)\s+(?P<v>(?-i:[A-Z])[\w .'-]{1,30})$", re.IGNORECASE
)

# 作为一个护士, 身为老师, as a teacher, as a nurse on nights: the job one speaks as.
_AS_A_ZH = re.compile(r"^(?:作为|身为)(?:一(?:个|名|位)|个|名)?(?P<v>[\u4e00-\u9fff]{2,8})$")
_AS_A_EN = re.compile(r"^as\s+(?:a|an)\s+(?P<v>(?:[\w-]+\s+){0,2}[\w-]+)$", re.IGNORECASE)

# I'm at Figma now, currently at Stripe: where one is now — a workplace only in talk of jobs.
_NOW_AT_EN = re.compile(
    r"^am\s+(?:now\s+|currently\s+|actually\s+)?(?:over\s+)?at\s+(?P<v>(?-i:[A-Z][\w&.-]*)(?:\s+(?-i:[A-Z][\w&.-]*)){0,2})"
    r"(?:\s+(?:now|these\s+days|nowadays))?(?:\s+(?:on|in)\s+the\s+[\w\s-]{2,30}?\s+team|\s+as\s+(?:a|an)\s+[\w\s-]{2,30})?[.!]*$",
    re.IGNORECASE,
)
_JOB_TALK_EN = re.compile(
    r"\b(?:job|jobs|role|team|joined|switched|moved\s+(?:over\s+)?to|laid\s+off|hired|offer|company|"
    r"employer|work|working|startup|engineer|designer|developer|dev|manager|pm)\b"
    r"|\s+(?:on|in)\s+the\s+[\w\s-]{2,30}?\s+team\b|\bas\s+(?:a|an)\s+",
    re.IGNORECASE,
)
# The words of changing jobs that make where one is now a workplace (left Shopify in
# March, switched jobs, new job).
_CHANGED_JOBS_EN = re.compile(
    r"\b(?:(?:left|quit|resigned\s+from|moved\s+on\s+from)\s+(?:my\s+(?:old\s+)?(?:job|company|employer|role|position)\b|(?-i:[A-Z])\w+)|switched\s+jobs|changed\s+jobs|new\s+job|job\s+change"
    r"|got\s+laid\s+off|was\s+laid\s+off|handed\s+in\s+my\s+notice|(?:switched|moved)\s+companies)\b",
    re.IGNORECASE,
)

# The job given up in the same breath (turned it down, quit after a month, got laid off).
_LEFT_IT_EN = re.compile(
    r"\b(?:turned\s+(?:it|them|that)\s+down|turned\s+down|declined|quit(?!\s+(?:smoking|drinking|sugar|coffee|caffeine|alcohol|meat|vaping))|resigned|left\s+(?:after|in|last)"
    r"|got\s+(?:fired|laid\s+off|let\s+go)|was\s+(?:fired|laid\s+off|let\s+go)|didn'?t\s+take\s+it)\b",
    re.IGNORECASE,
)

# A workplace described, not named (a small fintech startup, an architecture firm).
_UNNAMED_WORKPLACE_EN = re.compile(
    r"^(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:company|startup|start-up|firm|agency|bank|hospital|"
    r"school|shop|store|bakery|restaurant|cafe|café|studio|clinic|charity|nonprofit|non-profit|"
    r"factory|lab|consultancy|hotel|warehouse|university|college)\b",
    re.IGNORECASE,
)

_LANGUAGE_ZH = re.compile(
    rf"^{ADV_ZH}(?:会说|会讲|能说|能讲|说|讲|懂|会|精通|擅长|熟悉|在学|正在学|学|自学|学了(?:\S{{1,3}}年)?)(?P<v>.+)$"
    rf"|^(?:的)?母语是(?P<v2>.+)$"
)

# 普通话还行, 英文就只能看看: a language and how well, said after it.
_LANGUAGE_LEVEL_ZH = re.compile(
    r"^(?P<v>[\u4e00-\u9fff]{1,4}?(?:语|话|文))(?:的话)?(?:也|就|都|还|倒是|说得|讲得|水平)?(?:很|挺|比较|非常|特别|超|太|真的)?(?P<lvl>还行|一般般|一般|还可以|流利|很溜|挺好|不错|很好|只能看看|能看懂|看得懂|听得懂|会一点|一点点|不太会说?|不太行|很差|很烂|不好|马马虎虎|凑合)"
)

# Mandarin (native), English (fluent), 普通话（母语）: a language and its level in brackets,
# as a list of one's languages reads.
_LEVEL_IN_BRACKETS_EN = (
    r"native|fluent|bilingual|basic|beginner|intermediate|advanced|conversational|business"
    r"|working|professional|rusty|learning|so-so|decent|good|ok|okay|mother tongue"
    r"|first language|[abc][12]"
)
_LANGUAGE_BRACKET_EN = re.compile(
    rf"(?P<v>(?-i:[A-Z])[a-z]+)\s*\(\s*(?P<lvl>{_LEVEL_IN_BRACKETS_EN})(?:\s+speaker)?\s*\)",
    re.IGNORECASE,
)
_LANGUAGE_BRACKET_ZH = re.compile(
    r"^(?P<v>[\u4e00-\u9fff]{1,4}?(?:语|话|文))[（(]\s*(?P<lvl>母语|流利|熟练|精通|一般|一般般|还行|入门|基础|初级|中级|高级|日常交流|会一点|在学)\s*[)）]$"
)
_LANGUAGE_LEVEL_EN = re.compile(
    # (have got) some German from uni, a bit of French too: a language had, and how well.
    r"^(?:and\s+|plus\s+|also\s+)?(?:(?:have|has)\s+(?:got\s+|also\s+|picked\s+up\s+)?|got\s+|speak\s+|know\s+|picked\s+up\s+)?"
    r"(?P<lvl>a\s+(?:bit|little)\s+of|some|basic|conversational|fluent|broken|rusty|decent|ok)\s+(?P<v>[A-Z][a-z]+)"
    r"(?:\s+(?:from|since|at)\s+(?:uni|university|school|college|work|high\s+school|childhood|[\w\s]{2,20}?)|\s+too|\s+as\s+well)?$"
    # English is fine, my French is rusty: a language and how well, said after it.
    r"|^(?:and\s+|plus\s+|also\s+|my\s+)?(?P<v2>(?-i:[A-Z])[a-z]+)\s+is\s+(?:pretty\s+|totally\s+|still\s+|kinda\s+)?(?P<lvl2>fine|ok|okay|good|decent|fluent|rusty|basic|passable|so-so|conversational|native)$",
    re.IGNORECASE,
)
# I'm Brazilian (so Portuguese is my first language): where one is from, as a people.
_NATIONALITY_EN = re.compile(
    r"^(?:am|is|are)\s+(?:half\s+)?(?P<v>(?-i:[A-Z])[a-z]+(?:ian|ean|ese|ish|an|i|ch|ic|er|ot))\b"
    r"(?:\s*,?\s*(?:so|and|which\s+means)\s+(?P<rest>.+))?$",
    re.IGNORECASE,
)
# being an ER nurse on permanent nights is rough: one's job said as what one lives with.
_BEING_JOB_EN = re.compile(
    r"^being\s+(?:a|an)\s+(?P<v>(?:[\w-]+\s+){0,3}?[\w-]+?)(?:\s+(?:on|at|in|for|with|working|doing)\b.*?)?"
    r"\s+(?:is|has\s+been|gets|can\s+be|was)\s+(?:so\s+|really\s+|pretty\s+|super\s+|very\s+|kinda\s+)?(?:rough|hard|tough|exhausting|brutal|tiring|draining|killing\s+me|a\s+lot|stressful|wild|insane)\b",
    re.IGNORECASE,
)
_FAMILY_ROLES = frozenset(
    {"mom", "mum", "mother", "dad", "father", "parent", "wife", "husband", "grandma", "grandpa"}
)
# on permanent nights, I work nights, 上夜班: night shifts.
_NIGHTS_EN = re.compile(
    r"\b(?:on\s+(?:permanent\s+|the\s+|constant\s+)?nights|(?:work|working|works)\s+(?:the\s+)?nights|night\s+shifts?|the\s+night\s+shift|graveyard\s+shifts?|overnight\s+shifts?)\b",
    re.IGNORECASE,
)
_NIGHTS_ZH = re.compile(
    r"^(?:一直|长期|常年|都|现在|平时|天天|经常)*(?:上|值|倒|轮)(?:大)?(?:夜班|晚班)"
)

_LANGUAGE_EN = re.compile(
    rf"^{ADV_EN}(?:can\s+)?(?:speak|speaks|am\s+learning|is\s+learning|(?:have\s+|has\s+)?been\s+(?:learning|studying)|learning|am\s+fluent\s+in|am\s+studying|study|know|understand)\s+(?P<v>.+)$"
    rf"|^(?:'s\s+)?(?:native|first|mother)\s+(?:language|tongue)\s+is\s+(?P<v2>.+)$|^(?:am|is)\s+a\s+native\s+(?P<v3>\w+)\s+speaker$"
    # Portuguese is my first language: the language named first.
    rf"|^(?P<v4>(?-i:[A-Z])[a-z]+)\s+is\s+(?:my|his|her|their)\s+(?:native|first|mother)\s+(?:language|tongue)\b",
    re.IGNORECASE,
)

_SCHOOL_ZH = re.compile(
    rf"^{ADV_ZH}(?:在|读|上|念)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,12}}?(?:大学|学院|中学|小学|幼儿园|高中|初中|一中|二中|附中|实验学校|学校))(?:读书|上学|读|念书|上|念)?"
    rf"|^{ADV_ZH}(?:在读|读|上|念|在上|在念|考了?)(?:在职)?(?P<lvl>小学|初中|高中|中学)?(?P<v2>(?:大|高|初)[一二三四]|[一二三四五六]年级|研[一二三]|博[一二三四五]|幼儿园(?:大|中|小)班|(?:大|中|小)班|E?MBA|MPA|MPAcc|研究生|硕士|博士|本科|大专|夜大|函授|成人本科|专升本)"
    rf"|^{ADV_ZH}(?:是|都|已经)?(?P<v4>(?:大|高|初)[一二三四]|[一二三四五六]年级)了?$"
    rf"|^(?:是)?(?P<v3>[\u4e00-\u9fff]{{2,10}}(?:大学|学院))毕业的?"
)

# 本科是浙大计算机系的, 研究生在中山大学读的, 本科学的是法学: a degree and where or what.
_DEGREE_ZH = re.compile(
    r"^(?P<deg>本科|研究生|硕士|博士|大专|专科|大学)(?:是|在|就是)*"
    r"(?:(?P<at>[\u4e00-\u9fffA-Za-z]{2,16}?(?:大学|学院|大|系|专业))(?:读的|念的|毕业的|上的|学的|的)?"
    r"|(?:学的|读的|念的|学|读|念|专业)(?:是)?(?P<what>[\u4e00-\u9fffA-Za-z]{2,10}?)(?:专业)?(?:的)?)"
    r"(?:[，,。.!！~]|$)"
)
# studied law at Leeds, did my master's at UCL, have a degree in chemistry from Bristol.
_DEGREE_EN = re.compile(
    r"^(?:studied|read|majored\s+in|did\s+(?:a|my)\s+(?:degree|ba|bsc|ma|msc|masters?|master's|phd|mba)\s+(?:in)?)"
    r"\s*(?P<what>[\w\s]{2,30}?)\s+(?:at|in)\s+(?P<at>(?-i:[A-Z])[\w\s'-]{1,40}?)(?=[,.;!]|$|\s+(?:and|but|so|then)\b)"
    r"|^(?:have|got|hold)\s+(?:a|an|my)\s+(?P<deg>(?:ba|bsc|ma|msc|phd|mba|degree|masters?|master's|bachelor's|doctorate))\s+in\s+(?P<what2>[\w\s]{2,30}?)(?:\s+from\s+(?P<at2>(?-i:[A-Z])[\w\s'-]{1,40}?))?(?=[,.;!]|$|\s+(?:and|but|so)\b)",
    re.IGNORECASE,
)

_SCHOOL_EN = re.compile(
    r"^(?:am|is|are)\s+(?:in|a)\s+(?P<v>(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d+(?:st|nd|rd|th))\s+grade(?:r)?|(?:freshman|sophomore|junior|senior)(?:\s+in\s+(?:high\s+school|college))?|kindergarten|preschool|year\s+\d+)"
    r"|^(?:go|goes|went)\s+to\s+(?P<v2>[A-Z][\w ]*?(?:School|University|College|Academy|Kindergarten|Institute))"
    r"|^(?:study|studies|studying|am\s+studying)\s+(?P<v3>[\w ]+?)\s+at\s+(?P<at>[A-Z][\w ]+)",
    re.IGNORECASE,
)

_ONGOING_ZH = re.compile(
    rf"^{ADV_ZH}(?:最近|这段时间|今年)?(?:在|正在)(?:准备|备考|备战|学|练|复习|找工作|找房|装修|减肥|健身|备孕|考|读|写|筹备|创业|攒钱|存钱|戒烟|戒酒|戒糖|控糖|带娃|养病|康复|调理|学车|考驾照|考证|考研|考公|跑|做(?![饭菜作家早午晚蛋]))"
)

_GOAL_ZH = re.compile(r"(?:目标|目标是|想考|打算考)[^，。！？]{1,16}")

_ONGOING_EN = re.compile(
    r"^(?:am|is|are)\s+(?:currently\s+|now\s+|still\s+)?(?:training\s+for|studying\s+for|preparing\s+for|learning\s+(?:to\s+)?\w+|saving\s+(?:up\s+)?for|working\s+(?:on|towards?)|trying\s+to\s+(?:lose|quit|get|learn|save)|doing\s+(?:a|an|my)\s+\w+|applying\s+(?:for|to)|renovating|house[- ]hunting|job[- ]hunting|pregnant|expecting)\b",
    re.IGNORECASE,
)

_BUSINESS_ZH = re.compile(
    r"^(?:在[\u4e00-\u9fff]{1,10}?)?(?:开了|开|经营|经营着|盘了)(?:一)?(?:家|个|间|爿)(?P<what>[\u4e00-\u9fffA-Za-z]{1,8}?(?:店|馆|铺|厅|坊|工作室|公司|超市|诊所|餐馆|饭店|小卖部|摊))"
)

_BUSINESS_EN = re.compile(
    r"^(?:run|own|have|started|opened|manage)\s+(?:a|an|my own|our own)\s+(?:[\w-]+\s+){0,3}?(?P<what>shop|store|cafe|café|restaurant|bakery|studio|business|company|salon|bar|gym|clinic|practice|agency|startup|stall|farm|garage|workshop)\b(?:\s+in\s+(?P<place>.+))?",
    re.IGNORECASE,
)

# Where one lives rather than works for (在上海做产品经理 is a city, not a company).
_PROVINCES = re.compile(
    r"^(?:北京|上海|天津|重庆|广州|深圳|杭州|南京|苏州|成都|武汉|西安|长沙|郑州|青岛|厦门|宁波|合肥|福州|济南|沈阳|大连|"
    r"昆明|哈尔滨|长春|石家庄|太原|南昌|南宁|贵阳|兰州|海口|三亚|香港|澳门|台北|东莞|佛山|无锡|珠海|"
    r"[\u4e00-\u9fff]{1,3}(?:省|市|区|县))"
)

_NOT_WORKPLACES = frozenset(
    [
        "家",
        "家里",
        "这",
        "那",
        "这里",
        "那里",
        "这边",
        "那边",
        "外地",
        "外面",
        "公司",
        "单位",
        "老家",
        "本地",
        "国外",
        "附近",
    ]
)


class WorkFrames(FactBuilder):
    """Job, workplace, business, school, languages and goals of a statement's subject."""

    def _business_zh(self, st: Statement, body: str) -> list[Finding]:
        """我在小区门口开了家水果店，叫鲜果邦: the user's own business, in their words."""
        m = _BUSINESS_ZH.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        after = (
            st.sentence[st.sentence.find(st.text) + len(st.text) :]
            if st.text in st.sentence
            else ""
        )
        name = re.match(
            r"^[，,\s]*(?:叫|名叫|名字叫|店名叫?)([\u4e00-\u9fffA-Za-z0-9]{1,10})", after
        )
        said = w.clean_zh(body) + (f"，叫{name.group(1)}" if name else "")
        return [
            self.fact(
                st,
                "occupation",
                said,
                f"{{who}}{said}",
                f"{{who}}: {said}",
                category=["个人", "工作"],
                entities=[m["what"], name.group(1) if name else ""],
            )
        ]

    def _business_en(self, st: Statement, body: str) -> list[Finding]:
        m = _BUSINESS_EN.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        said = w.clean_en(st.text)
        out = [
            self.fact(
                st,
                "occupation",
                said,
                f"{{who}}{said}",
                said,
                category=["个人", "工作"],
                entities=[m["what"]],
            )
        ]
        place = english_place(m.groupdict().get("place") or "")
        if place:
            out.append(
                self.fact(
                    st, "city", place, f"{{who}}在{place}", said, importance=0.85, entities=[place]
                )
            )
        return out

    def _ongoing_zh(self, st: Statement, body: str) -> list[Finding]:
        """我在准备考研，目标浙大计算机: what the user is busy with for a while (and its goal)."""
        m = _ONGOING_ZH.match(body)
        if m is None or st.negated:
            return []
        said = w.clean_zh(body)
        after = (
            st.sentence[st.sentence.find(st.text) + len(st.text) :]
            if st.text in st.sentence
            else ""
        )
        goal = _GOAL_ZH.search(after)
        if goal:
            said += f"，{w.clean_zh(goal.group())}"
        if len(said) < 3 or len(said) > 60:
            return []
        return [
            self.fact(
                st, "personal_fact", said, f"{{who}}{said}", f"{{who}}: {said}", importance=0.75
            )
        ]

    def _ongoing_en(self, st: Statement, body: str) -> list[Finding]:
        m = _ONGOING_EN.match(body)
        if m is None or st.negated:
            return []
        said = w.clean_en(body)
        said = re.sub(r"^(?:am|is|are)\s+", "", said)
        if len(said) < 6 or len(said) > 80:
            return []
        return [
            self.fact(
                st,
                "personal_fact",
                said,
                f"{{who}}{said}",
                f"{{who}}: {said}" if st.subject.kind == "person" else f"{{who}}'m {said}",
                importance=0.75,
            )
        ]

    def _work_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _WORK_AT_ZH.match(body)
        now_left = False
        if m is None and _NOW_AT_ZH.match(body) and LEFT_JOB_ZH.search(st.sentence):
            # 我从美团离职了，现在在拼多多: where one is now, said after leaving a job, is
            # the new workplace.
            m = _WORK_AT_ZH.match(body + "上班")
            now_left = True
        if m is None or st.negated:
            return []
        where = w.clean_zh(m["v"] or m["v2"] or "")
        if _SPAN_ZH.match(where):
            return []  # 入职快三年了: how long, not where
        if m["v"] and "再" in body[: m.start("v")] and not w.place_at_start(where):
            return []  # 我再想想上班的事: 再 of "again", no place typed with it
        if where and all(pos.startswith("v") for _, pos in w.tag(where)):
            return []  # 我在想想工作的事: 在 of doing (thinking it over), no workplace
        # What follows the workplace (做客服 of 在美团做客服): the job, if one is named.
        after = body[len(m["v"] or "") + 1 :] if m["v"] else ""
        said_rest = m.groupdict().get("rest") or ""
        # 在杭州一家做跨境电商的公司上班, 在上海一家外企做财务: the town, then the workplace
        # said by what it is (not "杭州一家").
        town = ""
        split = re.match(
            r"^(?P<town>[\u4e00-\u9fff]{2,6}?)(?=(?:一|这|那|某)(?:家|个|所|间))", where
        )
        if split is not None and w.place_at_start(where) == split["town"]:
            town = split["town"]
            where = where[len(town) :]
        if re.fullmatch(r"(?:一|这|那|某)(?:家|个|所|间)", where):
            # 在一家做新能源的公司上班: the workplace runs to where one works, not to 做.
            whole = re.search(
                rf"在(?:{re.escape(town)})?(?P<v>(?:一|这|那|某)(?:家|个|所|间).+?)(?:工作|上班|实习|任职|就职|做|当)",
                body,
            )
            if whole is None:
                return []  # 在一家…: a fragment is no workplace
            where = w.clean_zh(whole["v"])
            after = body[whole.end("v") :]
            said_rest = re.sub(r"^(?:工作|上班|实习|任职|就职|做|当)", "", after)
        out: list[Finding] = []
        if town:
            out.append(
                self.fact(
                    st,
                    "personal_fact",
                    f"在{town}工作",
                    f"{{who}}在{town}工作",
                    f"{{who}} work in {town}",
                    category=["个人", "工作"],
                    entities=[town],
                )
            )
        place = w.place_at_start(where)
        rest_after = w.clean_zh(m.groupdict().get("rest") or "")
        if (
            place == where
            and (m["v2"] or re.search(_JOB_SUFFIX_ZH + "$", rest_after))
            and not _PROVINCES.search(where)
        ):
            # 我在阿里做产品经理, 跳槽到京东: a job done at X, or joined, makes X the
            # workplace, though X names a place too.
            place = ""
        if place == where and now_left and not any(pos == "ns" for _, pos in w.tag(where)):
            place = ""  # 离职了，现在在小红书: no town's name, so the new workplace
        org = (
            ""
            if place == where
            else w.org_at_start(where)
            or (where if 2 <= len(where) <= 10 and where not in _NOT_WORKPLACES else "")
        )
        if org and len(org) >= len(where) - 2:
            out.append(self.employer(st, org))
        elif place:
            out.append(
                self.fact(
                    st,
                    "personal_fact",
                    f"在{place}工作",
                    f"{{who}}在{place}工作",
                    f"{{who}} work in {place}",
                    category=["个人", "工作"],
                    entities=[place],
                )
            )
        rest = w.clean_zh(said_rest)
        job = re.match(r"^(?:一名|一个|个|名)?(?P<v>[\u4e00-\u9fffA-Za-z]{1,8})$", rest)
        if (
            out
            and job
            and (re.search(_JOB_SUFFIX_ZH + "$", job["v"]) or after.startswith(("当", "做")))
        ):
            title = job["v"]
            out.append(
                self.fact(
                    st,
                    "occupation",
                    title,
                    f"{{who}}的工作是{title}",
                    f"{{who}} work as {title}",
                    category=["个人", "工作"],
                )
            )
        return out

    def _as_a_job(self, st: Statement, body: str) -> list[Finding]:
        """作为一个护士, as a teacher: the job one speaks from, said before the question."""
        m = (_AS_A_ZH if st.zh else _AS_A_EN).match(body)
        if m is None or st.subject.kind == "person":
            return []
        said = f"是{m['v']}" if st.zh else f"am a {m['v']}"
        return (self._job_zh if st.zh else self._job_en)(st, said)

    def _job_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _JOB_ZH.match(body)
        if m is None or st.negated:
            return []
        if body.rstrip("了").endswith("退休"):
            return [
                self.fact(
                    st,
                    "occupation",
                    "已退休",
                    "{who}已退休",
                    "{who} retired",
                    category=["个人", "工作"],
                )
            ]
        job = w.clean_zh(m["v"] or m["v2"] or m["v3"] or "")
        if not job or job in ("人", "一个人", "好人") or len(job) > 12:
            return []
        if m["v2"] and not re.search(r"[\u4e00-\u9fffA-Za-z]{2}", job):
            return []
        return [
            self.fact(
                st,
                "occupation",
                job,
                f"{{who}}是{job}" if not m["v2"] else f"{{who}}做{job}",
                f"{{who}} work as {job}",
                category=["个人", "工作"],
            )
        ]

    def _work_en(self, st: Statement, body: str) -> list[Finding]:
        m = _WORK_AT_EN.match(body)
        now_at = _NOW_AT_EN.match(body) if m is None else None
        if now_at is not None and (
            _JOB_TALK_EN.search(st.sentence) or _CHANGED_JOBS_EN.search(st.sentence)
        ):
            # left Google in May, I'm at Figma now: where one is now, said of a job, is the
            # workplace (alone, "I'm at Costco now" is where one stands).
            m = _WORK_AT_EN.match(f"work at {now_at['v']}")
        if m is None or st.negated:
            return []
        said = m["v"] or m["v2"] or m["v3"] or m["v4"] or ""
        if _LEFT_IT_EN.search(
            st.sentence[st.sentence.find(st.text) :] if st.text in st.sentence else said
        ):
            return []  # got a job at Google but turned it down / but quit after a month
        org = w.capitalized_phrase(said) or lower_org(said)
        unnamed = _UNNAMED_WORKPLACE_EN.match(said)
        if not org and unnamed is not None:
            # a small fintech startup: a workplace the user does not name, in their words.
            org = unnamed.group().strip()
        if not org:
            return []
        out = [self.employer(st, org)]
        where = _IN_A_TOWN_EN.search(said)
        place = english_place(w.clean_en(where["v"])) if where is not None else ""
        if place and place.casefold() not in org.casefold():
            # a small agency in Leeds, Google in Zurich: the town one works in, in their words.
            said_place = f"work in {place}"
            out.append(
                self.fact(
                    st,
                    "personal_fact",
                    said_place,
                    f"{{who}}在{place}工作",
                    f"{{who}} {said_place}",
                    importance=0.75,
                    entities=[place],
                )
            )
        return out

    def _job_en(self, st: Statement, body: str) -> list[Finding]:
        m = _JOB_EN.match(body)
        if m is None or st.negated:
            return []
        if m["retired"]:
            word = m["retired"].casefold()
            return [
                self.fact(
                    st,
                    "occupation",
                    word,
                    f"{{who}}{'已退休' if word == 'retired' else word}",
                    f"{{who}}: {word}",
                    category=["个人", "工作"],
                )
            ]
        job = w.clean_en(m["v"] or m["v2"] or "")
        head = job.split()[-1].casefold() if job else ""
        if m["v"] and head not in w.JOBS_EN and head.rstrip("s") not in w.JOBS_EN:
            return []
        if head in _FAMILY_ROLES and not re.search(r"stay.at.home|full.time", job, re.IGNORECASE):
            return []  # a new dad, a mum of three: family, no job (a stay-at-home mum is one)
        if not job or len(job) > 40:
            return []
        out = [
            self.fact(
                st,
                "occupation",
                job,
                f"{{who}}是{job}",
                f"{{who}} work as a {job}"
                if st.subject.kind != "person"
                else f"{{who}} is a {job}",
                category=["个人", "工作"],
            )
        ]
        org = w.capitalized_phrase(m["org"] or m["org2"] or "")
        if org:
            out.append(self.employer(st, org))
        place = english_place(w.clean_en(m.groupdict().get("place") or ""))
        if place:
            # a teacher in Bristol: where the user lives and works, in their words.
            out.append(
                self.fact(
                    st,
                    "city",
                    place,
                    f"{{who}}在{place}",
                    w.clean_en(st.text),
                    importance=0.85,
                    entities=[place],
                )
            )
        return out

    def _school_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _SCHOOL_ZH.match(body)
        if m is None or st.negated:
            return []
        school = m["v"] or ((m["lvl"] or "") + (m["v2"] or "")) or m["v4"] or m["v3"]
        return [
            self.fact(
                st,
                "school",
                school,
                f"{{who}}在读{school}" if not m["v3"] else f"{{who}}{school}毕业",
                f"{{who}}: {school}",
                entities=[school],
            )
        ]

    def _degree_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _DEGREE_ZH.match(body)
        if m is None or st.negated:
            return []
        said = f"{m['deg']}：{w.clean_zh(m['at'] or m['what'])}"
        return [
            self.fact(st, "school", said, f"{{who}}{said}", f"{{who}}: {said}", entities=[said])
        ]

    def _degree_en(self, st: Statement, body: str) -> list[Finding]:
        m = _DEGREE_EN.match(body)
        if m is None or st.negated:
            return []
        what = w.clean_en(m["what"] or m["what2"] or "")
        at = w.clean_en(m["at"] or m["at2"] or "")
        said = f"{what} at {at}" if at else f"{m['deg']} in {what}"
        return [
            self.fact(st, "school", said, f"{{who}}：{said}", f"{{who}}: {said}", entities=[said])
        ]

    def _school_en(self, st: Statement, body: str) -> list[Finding]:
        m = _SCHOOL_EN.match(body)
        if m is None or st.negated:
            return []
        school = w.clean_en(m["v"] or m["v2"] or f"{m['v3']} at {m['at']}")
        return [
            self.fact(
                st, "school", school, f"{{who}}：{school}", f"{{who}}: {school}", entities=[school]
            )
        ]

    def _language_zh(self, st: Statement, body: str) -> list[Finding]:
        lvl = _LANGUAGE_LEVEL_ZH.match(body) or _LANGUAGE_BRACKET_ZH.match(body.strip())
        if lvl is not None and w.language_names_zh(lvl["v"]):
            lang, level = lvl["v"], lvl["lvl"]
            return [
                self.fact(
                    st,
                    "language",
                    f"{lang}（{level}）",
                    f"{{who}}的{lang}{level}"
                    if lvl.re is _LANGUAGE_LEVEL_ZH
                    else f"{{who}}：{lang}（{level}）",
                    f"{{who}}: {lang} ({level})",
                    category=["个人", "语言"],
                    entities=[lang],
                )
            ]
        m = _LANGUAGE_ZH.match(body)
        if m is None or st.negated:
            return []
        langs = w.language_names_zh(m["v"] or m["v2"] or "")
        if not langs:
            return []
        verb = (
            "母语是" if m["v2"] else "在学" if re.match(r"^(?:正在|在)?学|自学", body) else "会说"
        )
        return [
            self.fact(
                st,
                "language",
                f"{lang}（{'母语' if verb == '母语是' else '在学' if verb == '在学' else '会说'}）",
                f"{{who}}{verb}{lang}",
                f"{{who}}: {lang}",
                category=["个人", "语言"],
                entities=[lang],
            )
            for lang in langs
        ]

    def _language_en(self, st: Statement, body: str) -> list[Finding]:
        listed = _LANGUAGE_BRACKET_EN.fullmatch(body.strip())
        if listed is not None and w.language_names_en(listed["v"]) and not st.negated:
            return [self._language_level_en(st, listed["v"], listed["lvl"])]
        lvl = _LANGUAGE_LEVEL_EN.match(body)
        if lvl is not None and w.language_names_en(lvl["v"] or lvl["v2"]):
            lang, level = lvl["v"] or lvl["v2"], " ".join((lvl["lvl"] or lvl["lvl2"]).split())
            return [
                self.fact(
                    st,
                    "language",
                    f"{lang} ({level})",
                    f"{{who}}会一点{lang}" if lvl["v"] else f"{{who}}的{lang}：{level}",
                    f"{{who}}: {level} {lang}" if lvl["v"] else f"{{who}}: {lang} ({level})",
                    category=["个人", "语言"],
                    entities=[lang],
                )
            ]
        m = _LANGUAGE_EN.match(body)
        if m is None or st.negated:
            return []
        langs = w.language_names_en(m["v"] or m["v2"] or m["v3"] or m["v4"] or "")
        if not langs:
            return []
        learning = bool(
            re.match(
                r"^(?:am\s+|is\s+|(?:have\s+|has\s+)?been\s+)?(?:learning|studying)|^study",
                body,
                re.IGNORECASE,
            )
        )
        native = bool(m["v2"] or m["v3"] or m["v4"])
        level = "native" if native else "learning" if learning else "speaks"
        said = {b["v"].casefold(): b["lvl"] for b in _LANGUAGE_BRACKET_EN.finditer(m["v"] or "")}
        if said:
            # I speak Mandarin (native) and some French: each level where it is said.
            return [
                self._language_level_en(st, lang, said[lang.casefold()])
                if lang.casefold() in said
                else self._language_level_en(st, lang, level)
                for lang in langs
            ]
        return [
            self.fact(
                st,
                "language",
                f"{lang} ({level})",
                f"{{who}}会说{lang}",
                f"{{who}}: {lang} (native)" if native else f"{{who}}: {level} {lang}",
                category=["个人", "语言"],
                entities=[lang],
            )
            for lang in langs
        ]

    def _language_level_en(self, st: Statement, lang: str, level: str) -> Finding:
        """The subject's language with its level (Mandarin (native), English (fluent))."""
        lang = lang[:1].upper() + lang[1:]
        level = " ".join(level.casefold().split())
        return self.fact(
            st,
            "language",
            f"{lang} ({level})",
            f"{{who}}的{lang}：{level}",
            f"{{who}}: {lang} ({level})",
            category=["个人", "语言"],
            entities=[lang],
        )

    def _nationality_en(self, st: Statement, body: str) -> list[Finding]:
        """I'm Brazilian (so Portuguese is my first language): the user's nationality, and
        what the rest of the clause says of their languages."""
        m = _NATIONALITY_EN.match(body)
        if m is None or st.negated or m["v"].casefold() not in w.NATIONALITIES_EN:
            return []
        people = m["v"][:1].upper() + m["v"][1:]
        out = [
            self.fact(
                st,
                "personal_fact",
                people,
                f"{{who}}是{people}",
                f"{{who}}'m {people}" if st.subject.kind != "person" else f"{{who}} is {people}",
                category=["个人", "资料"],
                entities=[people],
            )
        ]
        if m["rest"]:
            out += self._language_en(st, m["rest"])
        return out

    def _being_job_en(self, st: Statement, body: str) -> list[Finding]:
        """being an ER nurse on permanent nights is rough: the job (and night shifts)."""
        m = _BEING_JOB_EN.match(body)
        if m is None or st.subject.kind == "person":
            return []
        job = w.clean_en(m["v"])
        head = job.split()[-1].casefold() if job else ""
        if (head not in w.JOBS_EN and head.rstrip("s") not in w.JOBS_EN) or head in _FAMILY_ROLES:
            return []  # being a mom is hard: a part in a family, no job
        out = [
            self.fact(
                st,
                "occupation",
                job,
                f"{{who}}是{job}",
                f"{{who}} work as a {job}",
                category=["个人", "工作"],
            )
        ]
        return out + self._nights_en(st, body)

    def _nights_en(self, st: Statement, body: str) -> list[Finding]:
        """on permanent nights, I work nights: the user works night shifts."""
        if st.negated or not _NIGHTS_EN.search(body) or st.subject.kind == "person":
            return []
        said = _NIGHTS_EN.search(body).group()  # type: ignore[union-attr]
        return [
            self.fact(
                st,
                "routine",
                f"works night shifts ({said})",
                "{who}上夜班",
                f"{{who}} work night shifts ({said})",
                category=["个人", "习惯"],
                importance=0.75,
            )
        ]

    def _nights_zh(self, st: Statement, body: str) -> list[Finding]:
        """我一直上夜班: the user works night shifts."""
        m = _NIGHTS_ZH.match(body)
        if m is None or st.negated or st.subject.kind == "person" or st.times:
            return []
        said = w.clean_zh(m.group())
        return [
            self.fact(
                st, "routine", said, f"{{who}}{said}", f"{{who}}: {said}", category=["个人", "习惯"]
            )
        ]
