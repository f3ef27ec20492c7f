"""Frames for facts about a person: where they live and come from, their work, languages,
family, pets, health, birthday, age, school, car, routines and travel plans.

A frame reads a statement's *body* — the clause after its subject — so one frame serves the
user (我对花生过敏, I'm allergic to peanuts) and anyone in their life (我儿子对花生过敏, my son
is allergic to peanuts): the subject decides whose fact it is. A fact about someone else is
filed under 人物/<who> with the person in its value, never as the user's.

Each frame looks for the structure of the clause (the verb and what follows it), not for a
list of sentences: 住在/搬到/live in/moved to + a place; 是/am a + a job; 对…过敏/allergic
to + anything. What fills the slot is kept in the user's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement, Subject
from ekko_memory.service.extraction.time_expressions import TimeMention

PROFILE = ["个人", "资料"]

# --- the pieces of a clause --------------------------------------------------------------

_ADV_ZH = r"(?:现在|目前|如今|一直|已经|刚刚?|才|也|都|还|就|正|在|本来|原来|平时|主要|基本上?|其实|常年|长期)*"
_ADV_EN = (
    r"(?:(?:currently|now|still|also|just|recently|actually|really|originally|mostly|both|all)\s+)*"
)

_RESIDE_ZH = re.compile(
    rf"^{_ADV_ZH}(?:(?:跟|和|与|同)[\u4e00-\u9fff]{{1,4}}?(?:一起)?)?(?:住在|住|居住在|居住于|生活在|定居在?|定居于|安家在?|家住在?|常住在?|现居|长住在?|住进了?|落户在?|扎根在?|base在|坐标)\s*(?P<v>.+)$"
    rf"|^{_ADV_ZH}(?:新)?家(?:在|住)\s*(?P<v2>.+)$|^(?:新家|新房子?|家)(?:在|是在)\s*(?P<v5>.+)$"
    rf"|^{_ADV_ZH}(?:一个人|一家人|一家[三四五]口|和家人|跟家人)?(?:现在|目前|一直)?在(?P<v3>.+?)(?:漂着?|生活|定居|住着?|待着|呆着|安家|扎根|落户|老家)(?:呢|了|啊)?$"
    rf"|^(?:平时|平常|常年|一直|长期|现在|目前|如今)?(?:都|人)?在(?P<v4>[\u4e00-\u9fff]{{2,6}}?)(?:这边|这儿|这里|呢)?$"
)
_MOVE_ZH = re.compile(
    rf"^{_ADV_ZH}(?:上个?月|上周|上礼拜|上星期|前几天|前天|昨天|去年|前阵子|最近|今年|年初)?(?:已经|刚)?(?:搬到|搬去|搬来|搬家到|搬回|迁到|调到)\s*(?P<v>.+?)(?:了|住|来了|去了|生活|定居)*$"
)
_RESIDE_EN = re.compile(
    rf"^(?:am\s+|are\s+|is\s+)?{_ADV_EN}(?:live|living|lives|reside|residing|resides|based|located|settled|staying)\s+(?:in|at|near|outside|around)\s+(?P<v>.+)$"
    rf"|^(?:have|has|had)?\s*{_ADV_EN}(?:moved|relocated|moving|relocating)\s+(?:back\s+)?(?:to|into)\s+(?P<v2>.+)$"
    rf"|^(?:call|calls)\s+(?P<v3>.+?)\s+home$",
    re.IGNORECASE,
)
_HOMETOWN_ZH = re.compile(
    rf"^{_ADV_ZH}(?:是|算是)(?P<v>.+?)人$|^(?:的)?老家(?:是|在)\s*(?P<v2>.+)$|^{_ADV_ZH}(?:来自|出生在|出生于|生在|生于)\s*(?P<v3>.+)$"
    rf"|^{_ADV_ZH}在(?P<v4>.+?)(?:长大|出生)"
)
_HOMETOWN_EN = re.compile(
    rf"^(?:am|is|are)\s+{_ADV_EN}from\s+(?P<v>.+)$|^{_ADV_EN}(?:come|comes|came)\s+from\s+(?P<v2>.+)$"
    rf"|^(?:was|were)\s+(?:born|raised)(?:\s+and\s+raised)?\s+in\s+(?P<v3>.+)$|^{_ADV_EN}grew\s+up\s+in\s+(?P<v4>.+)$",
    re.IGNORECASE,
)
_JOB_SUFFIX_ZH = (
    r"(?:工程师|程序员|设计师|产品经理|项目经理|经理|总监|主管|老师|教师|教授|医生|大夫|护士|药剂师|律师|会计|"
    r"司机|厨师|记者|编辑|作家|研究员|博士生|研究生|本科生|大学生|高中生|初中生|小学生|学生|店主|主播|博主|"
    r"模特|演员|歌手|保安|保姆|军人|警察|公务员|自由职业者?|全职妈妈|全职爸爸|全职太太|宝妈|创业者|农民|"
    r"外卖员|快递员|销售|运营|码农|社畜|打工人|画家|摄影师|翻译|导游|空姐|空乘|飞行员|消防员|兽医|心理咨询师|"
    r"分析师|咨询师|架构师|建筑师|会计师|审计|HR|hr|财务|前端|后端|全栈|测试|实习生|老板|老师傅|师傅|工人|老湿|"
    r"[\u4e00-\u9fff]{1,3}(?:师|员|生|家|工|官|长))"
)
_JOB_ZH = re.compile(
    rf"^{_ADV_ZH}(?:是|当|做|在当)(?:一名|一个|一位|个|名|位|一)?(?P<v>[\u4e00-\u9fffA-Za-z]{{0,8}}?{_JOB_SUFFIX_ZH})(?:的|呢|啊|哦|了|$)"
    rf"|^{_ADV_ZH}(?:是做|是搞|是干|做|搞|干)(?P<v2>[\u4e00-\u9fffA-Za-z]{{1,6}}?)(?:的|这一?行|工作|相关的?工作)$"
    rf"|^(?:的)?(?:工作|职业|本职)(?:是|是做)(?P<v3>.+)$"
    rf"|^{_ADV_ZH}退休了?$"
)
_WORK_AT_ZH = re.compile(
    rf"^{_ADV_ZH}(?:是)?在(?P<v>.+?)(?:工作|上班|实习|任职|就职|供职|打工|当|做|干|搬砖|上岗)(?P<rest>.*)$"
    rf"|^{_ADV_ZH}(?:入职了?|加入了?|跳槽到了?|跳槽去了?|去了)(?P<v2>.+?)(?:工作|上班)?$"
)
_JOB_EN = re.compile(
    rf"^(?:am|is|are)\s+{_ADV_EN}(?:a|an)\s+(?P<v>(?:[\w-]+\s+){{0,3}}?[\w-]+)(?:\s+(?:at|for|with)\s+(?P<org>.+)|\s+in\s+(?P<place>.+))?$"
    rf"|^{_ADV_EN}(?:work|works|working)\s+as\s+(?:a|an)?\s*(?P<v2>.+?)(?:\s+(?:at|for|in)\s+(?P<org2>.+))?$"
    rf"|^(?:am|is|are)\s+(?P<retired>retired|unemployed|between jobs|self-employed)$",
    re.IGNORECASE,
)
_WORK_AT_EN = re.compile(
    rf"^{_ADV_EN}(?:work|works|working|intern|interning)\s+(?:at|for)\s+(?P<v>.+)$"
    rf"|^(?:have\s+|has\s+)?{_ADV_EN}(?:joined|started\s+at|started\s+working\s+at)\s+(?P<v2>.+)$",
    re.IGNORECASE,
)
_DATE_ZH = r"(?:\d{4}年)?(?:\d{1,2}|[一二三四五六七八九十]{1,3})月(?:\d{1,2}|[一二三四五六七八九十]{1,3})(?:号|日)?|(?:农历)?[正腊一二三四五六七八九十冬]{1,2}月[初十廿]{0,1}[一二三四五六七八九十]{1,2}"
_BIRTHDAY_ZH = re.compile(
    rf"^(?:的)?生日(?:是|在)?\s*(?P<v>{_DATE_ZH})|^(?P<v2>{_DATE_ZH})(?:过)?生日|^(?:出生于|生于|出生在)\s*(?P<v3>{_DATE_ZH})"
)
_BIRTHDAY_EN = re.compile(
    r"^(?:'s\s+)?birthday\s+is\s+(?:on\s+)?(?P<v>.+)$|^(?:was|were)\s+born\s+on\s+(?P<v2>.+)$"
    r"|^birthday'?s\s+(?:on\s+)?(?P<v3>.+)$",
    re.IGNORECASE,
)
_AGE_ZH = re.compile(
    r"^(?:今年|现在|已经)?(?P<v>\d{1,3}|[一二三四五六七八九十两]{1,3})(?:岁|周岁)(?:了|啦)?(?:半)?$"
)
_AGE_EN = re.compile(
    r"^(?:am|is|are|just\s+turned|turned|turns)\s+(?P<v>\d{1,3})(?:\s+(?:years?|yrs?)\s+old|\s+y/?o)?$",
    re.IGNORECASE,
)
_LANGUAGE_ZH = re.compile(
    rf"^{_ADV_ZH}(?:会说|会讲|能说|能讲|说|讲|懂|会|精通|擅长|熟悉|在学|正在学|学|自学|学了(?:\S{{1,3}}年)?)(?P<v>.+)$"
    rf"|^(?:的)?母语是(?P<v2>.+)$"
)
# 普通话还行, 英文就只能看看: a language and how well, said after it.
_LANGUAGE_LEVEL_ZH = re.compile(
    r"^(?P<v>[\u4e00-\u9fff]{1,4}?(?:语|话|文))(?:的话)?(?:也|就|都|还|倒是|说得|讲得|水平)?(?P<lvl>还行|一般|还可以|流利|很溜|挺好|不错|很好|只能看看|能看懂|看得懂|听得懂|会一点|一点点|不太会说?|不太行|很差|很烂|不好|马马虎虎|凑合)"
)
_LANGUAGE_LEVEL_EN = re.compile(
    r"^(?:and\s+|plus\s+|also\s+)?(?P<lvl>a\s+(?:bit|little)\s+of|some|basic|conversational|fluent|broken|rusty|decent|ok)\s+(?P<v>[A-Z][a-z]+)$",
    re.IGNORECASE,
)
_LANGUAGE_EN = re.compile(
    rf"^{_ADV_EN}(?:can\s+)?(?:speak|speaks|am\s+learning|is\s+learning|learning|am\s+fluent\s+in|am\s+studying|study|know|understand)\s+(?P<v>.+)$"
    rf"|^(?:'s\s+)?native\s+language\s+is\s+(?P<v2>.+)$|^(?:am|is)\s+a\s+native\s+(?P<v3>\w+)\s+speaker$",
    re.IGNORECASE,
)
_COUNT_ZH = r"(?:一个|两个|三个|四个|俩|仨|个|一|二|两|三|一对)?"
_HAVE_KIN_ZH = re.compile(
    rf"^{_ADV_ZH}(?:有|生了|养了)(?P<n>{_COUNT_ZH})(?P<rel>双胞胎|儿子|女儿|闺女|孩子|娃|宝宝|小孩|哥哥|姐姐|弟弟|妹妹|男朋友|女朋友|老公|老婆|对象)(?:[，,]?\s*(?:叫|名叫|名字叫|名字是)(?P<name>[\u4e00-\u9fffA-Za-z]{{1,6}}))?"
)
_NAMED_ZH = re.compile(
    r"^(?:的)?(?:名字)?(?:其实|实际上|应该)?(?:叫|名叫|叫做|名字叫|名字是|是)(?P<v>[\u4e00-\u9fffA-Za-z]{1,6}?)(?:[，,。]|$|呢|哦|啊|呀)"
)
_HAVE_KIN_EN = re.compile(
    r"^(?:have|has|got)\s+(?P<n>a|an|one|two|three|four|\d)\s+(?:little\s+|young\s+|grown\s+|teenage\s+|twin\s+|adult\s+)?(?P<rel>sons?|daughters?|kids?|children|child|boys?|girls?|brothers?|sisters?|twins|grandkids|grandchildren)\b(?:,?\s*(?:named|called)\s+(?P<name>[A-Z]\w+(?:\s+and\s+[A-Z]\w+)?))?",
    re.IGNORECASE,
)
_NAMED_EN = re.compile(
    r"^(?:'s\s+name\s+is|is\s+called|is\s+named|goes\s+by)\s+(?P<v>[A-Z][\w-]+)", re.IGNORECASE
)
_MARRIED_ZH = re.compile(
    r"^(?:已经|刚)?(?P<v>结婚了|已婚|离婚了|离异|单身|订婚了|恋爱了|有对象了?)"
)
_MARRIED_EN = re.compile(
    r"^(?:am|is|are|just\s+got|got)\s+(?P<v>married|divorced|single|engaged|widowed|separated)\b",
    re.IGNORECASE,
)
_PET_ZH = re.compile(
    rf"^(?:家里|家里面|我家|家)?{_ADV_ZH}(?:养了?|有|收养了?|领养了?|捡了)(?:一只|一条|一头|一匹|只|条|两只|三只|两条|俩|一)?(?P<adj>[\u4e00-\u9fff]{{0,4}}?)(?P<species>{'|'.join(sorted(w.PETS_ZH, key=len, reverse=True))})(?:[，,]?\s*(?:叫|名叫|名字叫|名字是)(?P<name>[\u4e00-\u9fffA-Za-z]{{1,6}}))?"
)
_PET_EN = re.compile(
    rf"^(?:have|has|got|own|adopted|just\s+adopted|rescued|got\s+ourselves|have\s+got|has\s+got)\s+(?:a|an|one|two|three|\d)\s+(?P<species>(?:[\w-]+\s+)?(?:{'|'.join(w.PETS_EN)}))\b(?:,?\s*(?:named|called)\s+(?P<name>[A-Z][\w-]*))?",
    re.IGNORECASE,
)
_PET_NAMES_ZH = re.compile(
    r"(?:叫|名叫|名字叫|名字是)(?P<name>[\u4e00-\u9fffA-Za-z]{1,5}?)(?=$|[，,、。！!？?和跟的\s])"
)
_PET_NAMES_EN = re.compile(
    r"\b(?:named|called|(?:his|her|its|their)\s+names?(?:'s|\s+is|\s+are))\s+(?P<name>[A-Z][\w-]*)"
    r"|^\s*,?\s*(?P<name2>[A-Z][\w-]*)(?:\s*(?:,|and|&)\s*(?P<name3>[A-Z][\w-]*))?\s*$"
)
_ALLERGY_ZH = re.compile(
    r"^(?:对|吃|碰|闻)?(?P<v>.+?)(?:严重|有点|有些|轻微|比较)?过敏|^过敏(?:原)?(?:是|有)?(?P<v2>.+)$|^(?:有|得了)(?P<v3>.+?)过敏"
)
_ALLERGY_EN = re.compile(
    r"^(?:am|is|are)\s+(?:\w+\s+){0,2}?allergic\s+to\s+(?P<v>.+)$"
    r"|^(?:have|has|got)\s+(?:an?\s+|a\s+severe\s+|a\s+bad\s+|a\s+mild\s+)?(?P<v2>[\w -]+?)\s+allerg(?:y|ies)$"
    r"|^(?:have|has)\s+(?:an?\s+)?allerg(?:y|ies)\s+to\s+(?P<v3>.+)$",
    re.IGNORECASE,
)
_CONDITION_ZH = re.compile(
    rf"^{_ADV_ZH}(?:有|患有|得了|得过|患了|确诊了?|查出了?|被诊断(?:为|出)?)(?P<v>.+)$|^(?P<v2>血压|血糖|血脂|尿酸|胆固醇)(?:有点|一直|比较|偏|有些)?(?P<lvl>高|低|偏高|偏低)"
    rf"|^{_ADV_ZH}(?P<v3>怀孕了?|孕期|怀孕\S{{0,4}}个?月|在备孕|坐月子)"
)
_CONDITION_EN = re.compile(
    r"^(?:have|has|had|got)\s+(?:got\s+)?(?P<v>.+)$|^(?:was|were|got|been|have\s+been|has\s+been)\s+diagnosed\s+with\s+(?P<v2>.+)$"
    r"|^(?:suffer|suffers)\s+from\s+(?P<v3>.+)$"
    r"|^(?:am|is|are)\s+(?P<v4>(?:type\s*[12]\s+|pre-?)?diabetic|asthmatic|pregnant|epileptic|anemic|anaemic|celiac|coeliac|lactose\s+intolerant|gluten\s+intolerant|pre-?diabetic|autistic|colorblind|deaf|hard of hearing)\b",
    re.IGNORECASE,
)
_MEDICINE_ZH = re.compile(
    rf"^{_ADV_ZH}(?:每天|每晚|每早|长期|按时)?(?:要)?(?:吃|服用|服|打|用|靠)(?P<v>.+)$"
)
_MEDICINE_EN = re.compile(
    r"^(?:take|takes|am\s+taking|is\s+taking|am\s+on|is\s+on|been\s+on|have\s+been\s+on|use|uses|need|needs|started|started\s+on|was\s+put\s+on|got\s+put\s+on)\s+(?P<v>.+)$",
    re.IGNORECASE,
)
_DOSE = re.compile(
    r"^(?P<v>[A-Za-z][\w-]{3,})\s*\d+(?:\.\d+)?\s*(?:mg|mcg|µg|ml|iu|units?)\b", re.IGNORECASE
)
_SCHOOL_ZH = re.compile(
    rf"^{_ADV_ZH}(?:在|读|上|念)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,12}}?(?:大学|学院|中学|小学|幼儿园|高中|初中|一中|二中|附中|实验学校|学校))(?:读书|上学|读|念书|上|念)?"
    rf"|^{_ADV_ZH}(?:在读|读|上|念|在上|在念|考了?)(?:在职)?(?P<v2>(?:大|高|初)[一二三四]|[一二三四五六]年级|研[一二三]|博[一二三四五]|幼儿园(?:大|中|小)班|(?:大|中|小)班|E?MBA|MPA|MPAcc|研究生|硕士|博士|本科|大专|夜大|函授|成人本科|专升本)"
    rf"|^(?:是)?(?P<v3>[\u4e00-\u9fff]{{2,10}}(?:大学|学院))毕业的?"
)
_SCHOOL_EN = re.compile(
    r"^(?:am|is|are)\s+(?:in|a)\s+(?P<v>(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d+(?:st|nd|rd|th))\s+grade(?:r)?|(?:freshman|sophomore|junior|senior)(?:\s+in\s+(?:high\s+school|college))?|kindergarten|preschool|year\s+\d+)"
    r"|^(?:go|goes|went)\s+to\s+(?P<v2>[A-Z][\w ]*?(?:School|University|College|Academy|Kindergarten|Institute))"
    r"|^(?:study|studies|studying|am\s+studying)\s+(?P<v3>[\w ]+?)\s+at\s+(?P<at>[A-Z][\w ]+)",
    re.IGNORECASE,
)
_CARS_ZH = (
    "车|汽车|SUV|电车|轿车|特斯拉|比亚迪|蔚来|理想|小鹏|问界|极氪|小米SU7|宝马|奔驰|奥迪|丰田|本田|大众|日产|马自达|"
    "现代|起亚|福特|别克|雪佛兰|凯迪拉克|沃尔沃|路虎|保时捷|吉利|长城|哈弗|奇瑞|长安|五菱|荣威|红旗|卡罗拉|凯美瑞|"
    r"雅阁|思域|朗逸|速腾|迈腾|帕萨特|宝来|轩逸|天籁|CR-V|RAV4|途观|汉兰达|宏光|Model\s?[3SXY]"
)
_VEHICLE_ZH = re.compile(
    rf"^(?:的)?(?:车是|车子是|座驾是)?{_ADV_ZH}(?:开了[\u4e00-\u9fff]{{1,5}}?的|开的是|开着|开|有一?辆|买了一?辆|提了一?辆|一辆|辆)?"
    rf"(?P<v>[\u4e00-\u9fffA-Za-z0-9 -]{{0,8}}?(?:{_CARS_ZH}))"
)
_CARS_EN = "tesla|toyota|honda|ford|bmw|mercedes|audi|volkswagen|vw|subaru|mazda|nissan|hyundai|kia|volvo|jeep|chevy|chevrolet|lexus|porsche|prius|civic|corolla|camry|model 3|model y|rav4|minivan|suv|pickup|truck|motorcycle|e-bike|ebike"
_VEHICLE_EN = re.compile(
    rf"^(?:drive|drives|have|has|own|owns|bought|got)\s+(?:a|an|the)\s+(?P<v>(?:[\w-]+\s+){{0,3}}?(?:{_CARS_EN})(?:\s+(?-i:[A-Z0-9][\w-]*))?)\b",
    re.IGNORECASE,
)
_TRAVEL_ZH = re.compile(
    rf"^{_ADV_ZH}(?:要|会|打算|准备|计划|将|想)?(?:带[\u4e00-\u9fff]{{1,5}}?|和[\u4e00-\u9fff]{{1,5}}?|跟[\u4e00-\u9fff]{{1,5}}?)?(?:一起)?(?:去|飞|到|回|飞去|坐高铁去|开车去|出发去)(?P<v>[\u4e00-\u9fffA-Za-z]{{2,10}}?)(?:出差|旅游|旅行|玩|度假|探亲|开会|参加|看|拜年|过年|过节|办事|考察|学习|进修|培训|了|$|，)"
    rf"|^{_ADV_ZH}(?:要|会|打算|准备|计划)?(?:出差|旅游|度假)(?:去)?(?P<v2>[\u4e00-\u9fffA-Za-z]{{2,10}}?)(?:了|$)"
)
_TRAVEL_EN = re.compile(
    r"^(?:am|are|will\s+be|'ll\s+be)?\s*(?:going|flying|traveling|travelling|heading|driving|off|leaving|moving|taking\s+a\s+trip|visiting)\s+(?:to\s+|for\s+)?(?P<v>[A-Z][\w .'-]*?)(?=\s+(?:on|in|next|this|for|from|at|by|tomorrow|today|tonight|with|and)\b|$)"
    r"|^(?:have|has)?\s*(?:booked|got|have)\s+(?:a|my|our|the)\s+(?:flight|trip|ticket|tickets|train)\s+to\s+(?P<v2>[A-Z][\w .'-]*?)(?=\s+(?:on|in|next|this|for|from|at|by|tomorrow|with|and)\b|$)"
    r"|^(?:will|'ll|am\s+going\s+to|plan\s+to|want\s+to|gonna)\s+(?:visit|go\s+to|fly\s+to|travel\s+to|be\s+in)\s+(?P<v3>[A-Z][\w .'-]*?)(?=\s+(?:on|in|next|this|for|from|at|by|tomorrow|with|and)\b|$)",
    re.IGNORECASE,
)


_LIVING_ZH = re.compile(
    r"^(?:现在|目前|一直)?(?:一个人住|独居|自己住|一个人生活|和(?:爸妈|父母|室友|对象|男朋友|女朋友|老公|老婆|家人|孩子|公婆|朋友)(?:一起)?住|跟(?:爸妈|父母|室友|对象|男朋友|女朋友|老公|老婆|家人|孩子|公婆|朋友)(?:一起)?住|合租|租房住?|住(?:在)?(?:宿舍|学校|公司宿舍|出租屋))"
)
_LIVING_EN = re.compile(
    r"^(?:live|living)\s+(?:alone|on my own|by myself|with (?:my\s+)?(?:partner|parents|mum|mom|dad|roommates?|flatmates?|boyfriend|girlfriend|husband|wife|kids|family|in-laws|sister|brother|friends?))\b",
    re.IGNORECASE,
)
_ONGOING_ZH = re.compile(
    rf"^{_ADV_ZH}(?:最近|这段时间|今年)?(?:在|正在)(?:准备|备考|备战|学|练|复习|找工作|找房|装修|减肥|健身|备孕|考|读|写|筹备|创业|攒钱|存钱|戒烟|戒酒|戒糖|控糖|带娃|养病|康复|调理|学车|考驾照|考证|考研|考公|跑|做)"
)
_GOAL_ZH = re.compile(r"(?:目标|目标是|想考|打算考)[^，。！？]{1,16}")
_ONGOING_EN = re.compile(
    r"^(?:am|is|are)\s+(?:currently\s+|now\s+|still\s+)?(?:training\s+for|studying\s+for|preparing\s+for|learning\s+(?:to\s+)?\w+|saving\s+(?:up\s+)?for|working\s+(?:on|towards?)|trying\s+to\s+(?:lose|quit|get|learn|save)|doing\s+(?:a|an|my)\s+\w+|applying\s+(?:for|to)|renovating|house[- ]hunting|job[- ]hunting|pregnant|expecting)\b",
    re.IGNORECASE,
)


_DIET_ZH = re.compile(
    r"^(?:现在|目前|一直|常年|从小|也|都|平时|基本)?(?:不喝酒|滴酒不沾|戒酒了?|不抽烟|戒烟了?|吃素|吃全素|吃斋|是素食(?:主义)?者?|素食|吃清真|只吃清真|不吃肉|不吃荤|戒肉了?|不吃猪肉|吃蛋奶素|在吃生酮|生酮饮食|在控糖|在减脂|在断食|轻断食)"
)
_DIET_EN = re.compile(
    r"^(?:am|is|are|went|go|have\s+been|'ve\s+been)\s+(?:a\s+|an\s+|fully\s+|strictly\s+|mostly\s+)?(?P<v>vegetarian|vegan|veggie|pescatarian|pescetarian|plant-based|keto|paleo|halal|kosher|gluten-free|dairy-free|on\s+keto|on\s+a\s+diet|on\s+a\s+low-carb\s+diet|low-carb)\b"
    r"|^(?:do|does|follow|follows|eat|eats|keep|keeps)\s+(?P<v2>halal|kosher|keto|\d+:\d+\s+fasting|intermittent\s+fasting|fasting|paleo|plant-based|low-carb)\b"
    r"|^(?:don'?t|doesn'?t|do\s+not|never)\s+eat\s+(?P<v3>meat|red\s+meat|pork|beef|dairy|gluten|fish|seafood|anything\s+before\s+\w+)\b"
    r"|^(?:don'?t|doesn'?t|do\s+not|never)\s+(?P<v4>drink|smoke)\b(?:\s+alcohol)?|^(?:am|is)\s+(?P<v5>teetotal|sober|tee-total)\b",
    re.IGNORECASE,
)
# 膝盖有旧伤, 腰不好: a part of the body and what is wrong with it (a lasting condition).
_BODY_ZH = re.compile(
    r"^(?:的)?(?P<part>膝盖|腰|腰椎|颈椎|脖子|肩膀|肩|脚踝|手腕|背|后背|心脏|胃|肝|肾|眼睛|耳朵|牙|牙齿|膝|腿|脚|手|关节|鼻子|喉咙|皮肤)"
    r"(?P<what>有旧伤|受过伤|有伤|不好|不太好|有毛病|有问题|动过手术|做过手术|不行|有点问题|落下病根|老疼|经常疼|一直疼|劳损|突出)"
)
_BODY_EN = re.compile(
    r"^(?:have|has|got)\s+(?:a\s+)?(?P<v>(?:bad|dodgy|weak|old|injured|busted|torn|slipped)\s+(?:knee|knees|back|ankle|ankles|shoulder|hip|hips|wrist|neck|disc|acl|meniscus|hamstring)(?:\s+injury)?)\b",
    re.IGNORECASE,
)


_BUSINESS_ZH = re.compile(
    r"^(?:在[\u4e00-\u9fff]{1,10}?)?(?:开了|开|经营|经营着|盘了)(?:一)?(?:家|个|间|爿)(?P<what>[\u4e00-\u9fffA-Za-z]{1,8}?(?:店|馆|铺|厅|坊|工作室|公司|超市|诊所|餐馆|饭店|小卖部|摊))"
)
_BUSINESS_EN = re.compile(
    r"^(?:run|own|have|started|opened|manage)\s+(?:a|an|my own|our own)\s+(?:[\w-]+\s+){0,3}?(?P<what>shop|store|cafe|café|restaurant|bakery|studio|business|company|salon|bar|gym|clinic|practice|agency|startup|stall|farm|garage|workshop)\b(?:\s+in\s+(?P<place>.+))?",
    re.IGNORECASE,
)

# --- the frames ---------------------------------------------------------------------------


class FactFrames:
    """Reads one statement for facts of its subject; call ``read``."""

    def __init__(self, is_food: Callable[[str], bool]) -> None:
        # Food allergies are cooking memories (avoid the ingredient), read elsewhere.
        self.is_food = is_food

    def read(self, st: Statement) -> list[Finding]:
        """The facts ``st`` states of its subject (empty when it states none)."""
        if st.subject.kind not in ("self", "person", "we") and not (
            st.subject.kind == "none" and not st.explicit_subject
        ):
            return []
        body = st.body.strip()
        named: list[Finding] = []
        if st.subject.kind == "person" and st.subject.name and st.subject.relation:
            # 我媳妇林晓, my wife Priya: the person and their name.
            named = self._named(st, st.subject.relation, st.subject.name)
        if not body:
            return named
        frames = self._zh_frames() if st.zh else self._en_frames()
        for frame in frames:
            found = frame(st, body)
            if found:
                return named + found
        return named

    def about_person(self, st: Statement) -> Finding | None:
        """What the user says of someone in their life that no frame reads (安安超级挑食,
        she wants everything in three bullets max): kept in the user's words, under them."""
        if st.subject.kind != "person" or not st.body.strip() or st.question or st.hypothetical:
            return None
        if not st.explicit_subject:
            return None  # 沙发上全是 after 我家猫掉毛: a clause that does not name them says too little
        said = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
        if len(said) < 4 or len(st.body.strip()) < 3:
            return None
        if st.subject.relation in _NOBODY_RELATIONS or _META.search(st.text):
            return None
        return Finding(
            type="fact",
            domain="人物",
            category=["人物", _category_of(st.subject)],
            key="person_fact",
            value={"person": st.subject.person, "said": said},
            title=said if len(said) <= 60 else said[:59] + "…",
            content=st.text,
            statement=st,
            scope="user",
            tags=["人物"],
            entities=[st.subject.person],
            importance=0.7,
            person=st.subject.person,
            reason="what the user said about someone in their life",
        )

    # Ordered: the first frame that reads a clause wins (过敏 before 有; 在…上班 before 在).
    def _zh_frames(self) -> list[Callable[[Statement, str], list[Finding]]]:
        return [
            self._allergy_zh,
            self._diet_zh,
            self._business_zh,
            self._name_zh,
            self._living_zh,
            self._ongoing_zh,
            self._kin_zh,
            self._pet_zh,
            self._married_zh,
            self._residence_zh,
            self._hometown_zh,
            self._birthday_zh,
            self._age_zh,
            self._school_zh,
            self._work_zh,
            self._job_zh,
            self._language_zh,
            self._condition_zh,
            self._medicine_zh,
            self._vehicle_zh,
        ]

    def _en_frames(self) -> list[Callable[[Statement, str], list[Finding]]]:
        return [
            self._allergy_en,
            self._diet_en,
            self._business_en,
            self._name_en,
            self._living_en,
            self._ongoing_en,
            self._kin_en,
            self._pet_en,
            self._married_en,
            self._residence_en,
            self._hometown_en,
            self._birthday_en,
            self._age_en,
            self._school_en,
            self._work_en,
            self._job_en,
            self._language_en,
            self._condition_en,
            self._medicine_en,
            self._vehicle_en,
        ]

    # --- building ------------------------------------------------------------------------

    def fact(
        self,
        st: Statement,
        key: str,
        value: Any,
        zh: str,
        en: str,
        *,
        category: list[str] | None = None,
        importance: float = 0.8,
        tags: list[str] | None = None,
        entities: list[str] | None = None,
    ) -> Finding:
        """A fact of the statement's subject: the user's under 个人, another person's under
        人物/<who> with the person in the value. ``zh``/``en``: the sentence, with {who}
        for the person's name."""
        subject = st.subject
        if subject.kind == "person":
            who = subject.person
            person_value: dict[str, Any] = {"person": who}
            if isinstance(value, dict):
                person_value.update(value)
            else:
                person_value[_VALUE_FIELD.get(key, "value")] = value
            return Finding(
                type="fact",
                domain="人物",
                category=["人物", _category_of(subject)],
                key=key if key in PEOPLE_KEYS else "person_fact",
                value=person_value,
                title=(zh if st.zh else en).format(who=_who(subject, st.zh)),
                content=st.text,
                statement=st,
                scope="user",
                tags=["人物", *(tags or [])],
                entities=[who, subject.name, *(entities or [])],
                importance=importance,
                person=who,
                reason="a fact the user stated about someone in their life",
            )
        return Finding(
            type="fact",
            domain="个人",
            category=category or _KEY_CATEGORY.get(key, PROFILE),
            key=key,
            value=value,
            title=(zh if st.zh else en).format(who="我" if st.zh else "I"),
            content=st.text,
            statement=st,
            scope="user",
            tags=tags or [],
            entities=entities or [],
            importance=importance,
        )

    # --- a business of one's own ---------------------------------------------------------

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
        place = _english_place(m.groupdict().get("place") or "")
        if place:
            out.append(
                self.fact(
                    st, "city", place, f"{{who}}在{place}", said, importance=0.85, entities=[place]
                )
            )
        return out

    # --- what they eat -------------------------------------------------------------------

    def _diet_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _DIET_ZH.match(body)
        if m is None:
            return []
        said = w.clean_zh(m.group())
        return [self._diet(st, said)]

    def _diet_en(self, st: Statement, body: str) -> list[Finding]:
        m = _DIET_EN.match(body)
        if m is None:
            return []
        said = w.clean_en(m.group())
        said = re.sub(
            r"^(?:am|is|are|go|have been|'ve been)\s+(?:a\s+|an\s+)?", "", said, flags=re.IGNORECASE
        )
        return [self._diet(st, said)]

    def _diet(self, st: Statement, said: str) -> Finding:
        """A diet: the user's is a cooking restriction every meal question meets; someone
        else's is theirs."""
        if st.subject.kind == "person":
            return self.fact(
                st,
                "diet",
                said,
                f"{{who}}{said}",
                f"{{who}}: {said}",
                importance=0.85,
                tags=["饮食"],
                entities=[said],
            )
        return Finding(
            type="preference",
            domain="生活技能",
            category=["生活技能", "做饭", "饮食偏好"],
            key="dietary_restriction",
            value=said,
            title=f"饮食：{said}" if st.zh else f"Diet: {said}",
            content=st.text,
            statement=st,
            scope="user",
            tags=["饮食", "忌口"],
            entities=[said],
            importance=0.9,
            reason="the user's diet",
        )

    # --- how they live and what they are busy with ---------------------------------------

    def _living_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _LIVING_ZH.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        said = w.clean_zh(m.group())
        return [
            self.fact(
                st, "personal_fact", said, f"{{who}}{said}", f"{{who}}: {said}", importance=0.75
            )
        ]

    def _living_en(self, st: Statement, body: str) -> list[Finding]:
        m = _LIVING_EN.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        said = w.clean_en(m.group())
        return [
            self.fact(
                st, "personal_fact", said, f"{{who}}{said}", f"{{who}} {said}", importance=0.75
            )
        ]

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

    # --- residence and origin ------------------------------------------------------------

    def _residence_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _RESIDE_ZH.match(body) or _MOVE_ZH.match(body)
        if m is None:
            return []
        place = w.place_at_start(
            w.clean_zh(
                m["v"]
                or m.groupdict().get("v2")
                or m.groupdict().get("v3")
                or m.groupdict().get("v4")
                or ""
            )
        )
        if not place:
            return []
        moved = body.lstrip("现在目前已经刚").startswith(("搬", "迁", "调"))
        return [
            self.fact(
                st,
                "city",
                place,
                f"{{who}}住在{place}",
                f"{{who}} live in {place}",
                importance=0.85,
                entities=[place],
                tags=["搬家"] if moved else [],
            )
        ]

    def _residence_en(self, st: Statement, body: str) -> list[Finding]:
        m = _RESIDE_EN.match(body)
        if m is None or st.negated:
            return []
        raw = w.clean_en(m["v"] or m["v2"] or m["v3"] or "")
        place = _english_place(raw)
        if not place:
            # a small flat in Edinburgh: the place is the last proper name.
            inner = re.findall(
                r"\b(?:in|near|outside)\s+((?-i:[A-Z])[\w'.-]*(?:\s+(?-i:[A-Z])[\w'.-]*)*)", raw
            )
            place = inner[-1] if inner else ""
        if not place:
            return []
        verb = "lives" if st.subject.kind == "person" else "live"
        said = w.clean_en(st.text)
        # The user's words when they say more than the place (a small flat in Edinburgh).
        title = (
            said
            if st.subject.kind != "person"
            and len(said) <= 80
            and said.casefold() != f"i live in {place}".casefold()
            else f"{{who}} {verb} in {place}"
        )
        return [
            self.fact(
                st, "city", place, f"{{who}}住在{place}", title, importance=0.85, entities=[place]
            )
        ]

    def _hometown_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _HOMETOWN_ZH.match(body)
        if m is None or st.negated:
            return []
        raw = next((m[g] for g in ("v", "v2", "v3", "v4") if m.groupdict().get(g)), "")
        place = w.place_at_start(w.clean_zh(raw))
        if not place:
            return []
        return [
            self.fact(
                st,
                "hometown",
                place,
                f"{{who}}老家是{place}",
                f"{{who}} come from {place}",
                entities=[place],
            )
        ]

    def _hometown_en(self, st: Statement, body: str) -> list[Finding]:
        m = _HOMETOWN_EN.match(body)
        if m is None or st.negated:
            return []
        raw = w.clean_en(next((m[g] for g in ("v", "v2", "v3", "v4") if m.groupdict().get(g)), ""))
        place = _english_place(raw)
        if not place:
            return []
        return [
            self.fact(
                st,
                "hometown",
                place,
                f"{{who}}来自{place}",
                f"{{who}} come from {place}",
                entities=[place],
            )
        ]

    # --- work ----------------------------------------------------------------------------

    def _work_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _WORK_AT_ZH.match(body)
        if m is None or st.negated:
            return []
        where = w.clean_zh(m["v"] or m["v2"] or "")
        out: list[Finding] = []
        place = w.place_at_start(where)
        rest_after = w.clean_zh(m.groupdict().get("rest") or "")
        if (
            place == where
            and re.search(_JOB_SUFFIX_ZH + "$", rest_after)
            and not _PROVINCES.search(where)
        ):
            # 我在阿里做产品经理: a job done at X makes X the workplace, though X names a place too.
            place = ""
        org = (
            ""
            if place == where
            else w.org_at_start(where)
            or (where if 2 <= len(where) <= 10 and where not in _NOT_WORKPLACES else "")
        )
        if org and len(org) >= len(where) - 2:
            out.append(
                self.fact(
                    st,
                    "employer",
                    org,
                    f"{{who}}在{org}工作",
                    f"{{who}} work at {org}",
                    category=["个人", "工作"],
                    entities=[org],
                )
            )
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
        rest = w.clean_zh(m.groupdict().get("rest") or "")
        job = re.match(r"^(?:一名|一个|个|名)?(?P<v>[\u4e00-\u9fffA-Za-z]{1,8})$", rest)
        if (
            out
            and job
            and (
                re.search(_JOB_SUFFIX_ZH + "$", job["v"])
                or body[len(m["v"] or "") + 1 :].startswith(("当", "做"))
            )
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
        if m is None or st.negated:
            return []
        org = w.capitalized_phrase(m["v"] or m["v2"] or "") or _lower_org(m["v"] or m["v2"] or "")
        if not org:
            return []
        return [
            self.fact(
                st,
                "employer",
                org,
                f"{{who}}在{org}工作",
                f"{{who}} work at {org}",
                category=["个人", "工作"],
                entities=[org],
            )
        ]

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
            out.append(
                self.fact(
                    st,
                    "employer",
                    org,
                    f"{{who}}在{org}工作",
                    f"{{who}} work at {org}",
                    category=["个人", "工作"],
                    entities=[org],
                )
            )
        place = _english_place(w.clean_en(m.groupdict().get("place") or ""))
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

    # --- birthday, age, school, marriage -------------------------------------------------

    def _birthday_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _BIRTHDAY_ZH.match(body)
        if m is None:
            return []
        day = m["v"] or m["v2"] or m["v3"]
        return [
            self.fact(
                st,
                "birthday",
                day,
                f"{{who}}的生日是{day}",
                f"{{who}}: birthday {day}",
                tags=["生日"],
                entities=[day],
            )
        ]

    def _birthday_en(self, st: Statement, body: str) -> list[Finding]:
        m = _BIRTHDAY_EN.match(body)
        if m is None:
            return []
        day = w.clean_en(m["v"] or m["v2"] or m["v3"] or "")
        if not re.search(
            r"\d|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec",
            day,
            re.IGNORECASE,
        ):
            return []
        return [
            self.fact(
                st,
                "birthday",
                day,
                f"{{who}}的生日是{day}",
                f"{{who}}: birthday {day}",
                tags=["birthday"],
                entities=[day],
            )
        ]

    def _age_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _AGE_ZH.match(body)
        if m is None or st.negated:
            return []
        age = m["v"] or m["v2"]
        return [self.fact(st, "age", f"{age}岁", f"{{who}}{age}岁", f"{{who}}: {age} years old")]

    def _age_en(self, st: Statement, body: str) -> list[Finding]:
        m = _AGE_EN.match(body)
        if m is None or st.negated or not 0 < int(m["v"]) < 120:
            return []
        return [
            self.fact(
                st,
                "age",
                f"{m['v']} years old",
                f"{{who}}{m['v']}岁",
                f"{{who}}: {m['v']} years old",
            )
        ]

    def _school_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _SCHOOL_ZH.match(body)
        if m is None or st.negated:
            return []
        school = m["v"] or m["v2"] or m["v3"]
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

    def _married_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _MARRIED_ZH.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        return [
            self.fact(st, "relationship_status", m["v"], f"{{who}}{m['v']}", f"{{who}}: {m['v']}")
        ]

    def _married_en(self, st: Statement, body: str) -> list[Finding]:
        m = _MARRIED_EN.match(body)
        if m is None or st.negated or st.subject.kind == "person":
            return []
        word = m["v"].casefold()
        return [
            self.fact(
                st,
                "relationship_status",
                word,
                f"{{who}}{word}",
                f"{{who}} am {word}",
            )
        ]

    # --- family and pets -----------------------------------------------------------------

    def _name_zh(self, st: Statement, body: str) -> list[Finding]:
        """我女儿叫朵朵 (a person subject and a name), 我家猫叫咪咪."""
        if st.subject.kind != "person" or st.negated:
            return []
        m = _NAMED_ZH.match(body)
        if m is None:
            return []
        name = w.clean_zh(m["v"])
        if not name or name in ("什么", "啥", "谁"):
            return []
        return self._named(st, st.subject.relation, name)

    def _name_en(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind != "person" or st.negated:
            return []
        m = _NAMED_EN.match(body)
        if m is None:
            return []
        return self._named(st, st.subject.relation, m["v"])

    def _named(self, st: Statement, relation: str, name: str) -> list[Finding]:
        species_zh = relation if relation in w.PETS_ZH else ""
        species_en = relation if relation.casefold() in w.PETS_EN else ""
        if species_zh or species_en:
            return [self._pet(st, species_zh or species_en, name)]
        owner = Subject("person", relation, name)
        who = owner.person
        return [
            Finding(
                type="fact",
                domain="人物",
                category=["人物", _category_of(owner)],
                key="family_member",
                value={"person": relation or name, "called": name},
                title=f"{'我' if st.zh else 'My '}{relation}叫{name}"
                if st.zh
                else f"My {relation} is called {name}",
                content=st.text,
                statement=st,
                scope="user",
                tags=["人物"],
                entities=[who, name, relation],
                importance=0.8,
                person=relation or name,
                reason="someone in the user's life and their name",
            )
        ]

    def _kin_zh(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "none", "we") or st.negated:
            return []
        m = _HAVE_KIN_ZH.match(body)
        if m is None:
            return []
        rel, count, name = m["rel"], m["n"] or "", m["name"] or ""
        if name:
            return self._named(st, rel, w.clean_zh(name))
        phrase = f"{count}{rel}".strip()
        return [
            Finding(
                type="fact",
                domain="人物",
                category=["人物", "家人"],
                key="family_member",
                value={"person": rel, "count": phrase},
                title=f"我有{phrase}",
                content=st.text,
                statement=st,
                scope="user",
                tags=["人物", "家人"],
                entities=[rel],
                importance=0.8,
                person=rel,
                reason="someone in the user's life",
            )
        ]

    def _kin_en(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "we") or st.negated:
            return []
        m = _HAVE_KIN_EN.match(body)
        if m is None:
            return []
        rel = m["rel"].casefold()
        phrase = f"{m['n']} {rel}"
        if m["name"]:
            phrase += f" ({m['name']})"
        return [
            Finding(
                type="fact",
                domain="人物",
                category=["人物", "家人"],
                key="family_member",
                value={"person": rel, "count": phrase},
                title=f"I have {phrase}",
                content=st.text,
                statement=st,
                scope="user",
                tags=["人物", "家人"],
                entities=[rel, m["name"] or ""],
                importance=0.8,
                person=rel,
                reason="someone in the user's life",
            )
        ]

    def _pet(self, st: Statement, species: str, name: str) -> Finding:
        value = {"species": species, "called": name} if name else {"species": species}
        zh = f"养了一只{species}" + (f"，叫{name}" if name else "")
        en = f"Has a {species}" + (f" named {name}" if name else "")
        return Finding(
            type="fact",
            domain="个人",
            category=["个人", "宠物"],
            key="pet",
            value=value,
            title=zh if st.zh else en,
            content=st.text,
            statement=st,
            scope="user",
            tags=["宠物" if st.zh else "pet"],
            entities=[species, name],
            importance=0.75,
            reason="the user's pet",
        )

    def _pet_zh(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "none", "we") or st.negated:
            return []
        m = _PET_ZH.match(body)
        if m is None:
            return []
        species = (
            (m["adj"] or "") + m["species"] if m["adj"] and len(m["adj"]) <= 2 else m["species"]
        )
        names = [w.clean_zh(m["name"])] if m["name"] else []
        # 家里有两只猫，大的叫可乐，小的叫雪碧: the names follow in the sentence.
        after = (
            st.sentence[st.sentence.find(st.text) + len(st.text) :]
            if st.text in st.sentence
            else ""
        )
        names += [n["name"] for n in _PET_NAMES_ZH.finditer(after)]
        return [self._pet(st, species, n) for n in dict.fromkeys(names)] or [
            self._pet(st, species, "")
        ]

    def _pet_en(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "we") or st.negated:
            return []
        m = _PET_EN.match(body)
        if m is None:
            return []
        names = [m["name"]] if m["name"] else []
        after = (
            st.sentence[st.sentence.find(st.text) + len(st.text) :]
            if st.text in st.sentence
            else ""
        )
        for n in _PET_NAMES_EN.finditer(after):
            names += [x for x in (n["name"], n["name2"], n["name3"]) if x]
        species = m["species"].casefold()
        return [self._pet(st, species, n) for n in dict.fromkeys(names)] or [
            self._pet(st, species, "")
        ]

    # --- health --------------------------------------------------------------------------

    def _allergy_zh(self, st: Statement, body: str) -> list[Finding]:
        if "过敏" not in body or re.search(r"不过敏|没有?过敏|不会过敏|不是过敏", body):
            return []
        m = _ALLERGY_ZH.match(body)
        if m is None:
            return []
        what = w.clean_zh(
            re.sub(r"^(?:是|其实是|就是)?(?:对|吃|碰)?", "", m["v"] or m["v2"] or m["v3"] or "")
        )
        what = re.sub(r"(?:严重|有点|有些|轻微|比较|特别|很)$", "", what)
        if not what or len(what) > 12 or (self.is_food(what) and st.subject.kind != "person"):
            return []
        return [self._allergy(st, what)]

    def _allergy_en(self, st: Statement, body: str) -> list[Finding]:
        m = _ALLERGY_EN.match(body)
        if m is None or st.negated:
            return []
        what = w.clean_en(m["v"] or m["v2"] or m["v3"] or "")
        what = re.sub(r"^(?:a|an|the)\s+", "", what)
        if not what or len(what) > 40 or (self.is_food(what) and st.subject.kind != "person"):
            return []
        return [self._allergy(st, what)]

    def _allergy(self, st: Statement, what: str) -> Finding:
        return self.fact(
            st,
            "allergy",
            what,
            f"{{who}}对{what}过敏",
            f"{{who}}: allergic to {what}",
            category=["个人", "健康"],
            importance=1.0,
            tags=["过敏", "健康"],
            entities=[what],
        )

    def _condition_zh(self, st: Statement, body: str) -> list[Finding]:
        part = _BODY_ZH.match(body)
        if part is not None:
            what = f"{part['part']}{part['what']}"
            return [
                self.fact(
                    st,
                    "health_condition",
                    what,
                    f"{{who}}{what}",
                    f"{{who}}: {what}",
                    category=["个人", "健康"],
                    importance=0.9,
                    tags=["健康"],
                    entities=[part["part"]],
                )
            ]
        # 乳糖不耐 holds its own 不: only a negation before the condition denies it.
        bare = w.CONDITIONS_ZH.match(re.sub(r"^(?:有点|有些|一直|是)", "", body))
        if bare is not None and len(bare.group()) >= 2 and len(body) <= len(bare.group()) + 4:
            what = bare.group()
            return [
                self.fact(
                    st,
                    "health_condition",
                    what,
                    f"{{who}}{what}",
                    f"{{who}}: {what}",
                    category=["个人", "健康"],
                    importance=0.95,
                    tags=["健康"],
                    entities=[what],
                )
            ]
        m = _CONDITION_ZH.match(body)
        if m is None or st.negated:
            return []
        if m["v2"]:
            what = f"{m['v2']}{m['lvl']}"
        elif m["v3"]:
            what = w.clean_zh(m["v3"])
        else:
            c = w.CONDITIONS_ZH.match(w.clean_zh(m["v"]))
            if c is None:
                return []
            what = c.group()
        return [
            self.fact(
                st,
                "health_condition",
                what,
                f"{{who}}{'' if m['v3'] else '有'}{what}",
                f"{{who}}: {what}",
                category=["个人", "健康"],
                importance=0.95,
                tags=["健康"],
                entities=[what],
            )
        ]

    def _condition_en(self, st: Statement, body: str) -> list[Finding]:
        part = _BODY_EN.match(body)
        if part is not None:
            what = part["v"]
            return [
                self.fact(
                    st,
                    "health_condition",
                    what,
                    f"{{who}}{what}",
                    f"{{who}}: {what}",
                    category=["个人", "健康"],
                    importance=0.9,
                    tags=["health"],
                    entities=[what],
                )
            ]
        m = _CONDITION_EN.match(body)
        if m is None or st.negated:
            return []
        raw = w.clean_en(m["v"] or m["v2"] or m["v3"] or m["v4"] or "")
        c = w.CONDITIONS_EN.search(raw) if not m["v4"] else None
        if not m["v4"] and (c is None or c.start() > 12):
            return []
        what = m["v4"] or raw[: c.end()] if c is not None else m["v4"]
        what = re.sub(r"^(?:a|an|the|mild|severe|bad)\s+", "", what or "")
        if not what:
            return []
        return [
            self.fact(
                st,
                "health_condition",
                what,
                f"{{who}}有{what}",
                f"{{who}}: {what}",
                category=["个人", "健康"],
                importance=0.95,
                tags=["health"],
                entities=[what],
            )
        ]

    def _medicine_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _MEDICINE_ZH.match(body)
        if m is None or st.negated:
            return []
        c = w.MEDICINE_ZH.match(w.clean_zh(m["v"]))
        drug = re.match(r"[\u4e00-\u9fffA-Za-z]{2,6}", w.clean_zh(m["v"]))
        if c is not None:
            what = c.group()
        elif drug is not None and _DOCTOR.search(st.sentence) and not self.is_food(drug.group()):
            # 在吃舍曲林，医生说要吃半年: what a doctor has one take is a medicine.
            what = drug.group()
        else:
            return []
        return [
            self.fact(
                st,
                "medication",
                what,
                f"{{who}}在吃{what}" if not what.endswith("针") else f"{{who}}在打{what}",
                f"{{who}}: takes {what}",
                category=["个人", "健康"],
                importance=0.95,
                tags=["用药"],
                entities=[what],
            )
        ]

    def _medicine_en(self, st: Statement, body: str) -> list[Finding]:
        m = _MEDICINE_EN.match(body)
        if m is None or st.negated:
            return []
        c = w.MEDICINE_EN.search(m["v"])
        dose = _DOSE.match(m["v"])
        if dose is not None:
            what = dose["v"]
        elif c is None or c.start() > 10:
            return []
        else:
            what = c.group()
        return [
            self.fact(
                st,
                "medication",
                what,
                f"{{who}}在服用{what}",
                f"{{who}}: takes {what}",
                category=["个人", "健康"],
                importance=0.95,
                tags=["medication"],
                entities=[what],
            )
        ]

    # --- things --------------------------------------------------------------------------

    def _language_zh(self, st: Statement, body: str) -> list[Finding]:
        lvl = _LANGUAGE_LEVEL_ZH.match(body)
        if lvl is not None and w.language_names_zh(lvl["v"]):
            lang, level = lvl["v"], lvl["lvl"]
            return [
                self.fact(
                    st,
                    "language",
                    f"{lang}（{level}）",
                    f"{{who}}的{lang}{level}",
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
        lvl = _LANGUAGE_LEVEL_EN.match(body)
        if lvl is not None and w.language_names_en(lvl["v"]):
            lang, level = lvl["v"], " ".join(lvl["lvl"].split())
            return [
                self.fact(
                    st,
                    "language",
                    f"{lang} ({level})",
                    f"{{who}}会一点{lang}",
                    f"{{who}}: {level} {lang}",
                    category=["个人", "语言"],
                    entities=[lang],
                )
            ]
        m = _LANGUAGE_EN.match(body)
        if m is None or st.negated:
            return []
        langs = w.language_names_en(m["v"] or m["v2"] or m["v3"] or "")
        if not langs:
            return []
        learning = bool(
            re.match(r"^(?:am\s+|is\s+)?(?:learning|studying)|^study", body, re.IGNORECASE)
        )
        native = bool(m["v2"] or m["v3"])
        level = "native" if native else "learning" if learning else "speaks"
        return [
            self.fact(
                st,
                "language",
                f"{lang} ({level})",
                f"{{who}}会说{lang}",
                f"{{who}}: {lang} ({level})",
                category=["个人", "语言"],
                entities=[lang],
            )
            for lang in langs
        ]

    def _vehicle_zh(self, st: Statement, body: str) -> list[Finding]:
        m = _VEHICLE_ZH.match(body)
        if m is None or st.negated:
            return []
        car = m["v"].strip()
        return [
            self.fact(
                st, "vehicle", car, f"{{who}}开{car}", f"{{who}} drive a {car}", entities=[car]
            )
        ]

    def _vehicle_en(self, st: Statement, body: str) -> list[Finding]:
        m = _VEHICLE_EN.match(body)
        if m is None or st.negated:
            return []
        car = m["v"].strip()
        return [
            self.fact(
                st, "vehicle", car, f"{{who}}开{car}", f"{{who}} drive a {car}", entities=[car]
            )
        ]


# --- travel plans ------------------------------------------------------------------------


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
    text = st.body.replace(when.text, " ").strip()
    m = (_TRAVEL_ZH if st.zh else _TRAVEL_EN).match(re.sub(r"\s+", " ", text).strip())
    if m is None:
        return None
    raw = next((m[g] for g in ("v", "v2", "v3") if m.groupdict().get(g)), "")
    place = w.place_at_start(w.clean_zh(raw)) if st.zh else _english_place(w.clean_en(raw))
    if not place:
        return None
    starts = when.starts
    assert starts is not None  # a point or a deadline always has its day
    day = f"{starts.month}月{starts.day}日" if st.zh else f"{starts.strftime('%b')} {starts.day}"
    title = f"{day}去{place}" if st.zh else f"Trip to {place} ({day})"
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
        expires_at=when.ends + timedelta(days=1),
        tags=["出行" if st.zh else "travel"],
        entities=[place],
        importance=0.8,
        reason="a trip the user plans",
    )


# --- helpers -----------------------------------------------------------------------------

# Talk about the talk (上次手滑打错了, autocorrect): nothing about the person.
_META = re.compile(
    r"打错|说错|写错|搞错|记错|手滑|口误|错别字|\b(?:typo|autocorrect|misspel|mistyp|my bad|i meant)\b",
    re.IGNORECASE,
)
# Relation words too vague to keep a person's facts under (老师 in 我问老师…).
_NOBODY_RELATIONS = frozenset({"宠物", "pet", "team", "teammates"})
# Where one lives rather than works for (在上海做产品经理 is a city, not a company).
_PROVINCES = re.compile(
    r"^(?:北京|上海|天津|重庆|广州|深圳|杭州|南京|苏州|成都|武汉|西安|长沙|郑州|青岛|厦门|宁波|合肥|福州|济南|沈阳|大连|"
    r"昆明|哈尔滨|长春|石家庄|太原|南昌|南宁|贵阳|兰州|海口|三亚|香港|澳门|台北|东莞|佛山|无锡|珠海|"
    r"[\u4e00-\u9fff]{1,3}(?:省|市|区|县))"
)
_DOCTOR = re.compile(r"医生|大夫|医院|处方|开的药|疗程|复查|门诊|药房|副作用|剂量")
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
PEOPLE_KEYS = frozenset(
    [
        "family_member",
        "allergy",
        "health_condition",
        "medication",
        "occupation",
        "employer",
        "school",
        "birthday",
        "age",
        "likes",
        "dislikes",
        "diet",
        "city",
        "routine",
        "person_fact",
    ]
)
_VALUE_FIELD = {
    "allergy": "allergen",
    "city": "place",
    "occupation": "job",
    "employer": "workplace",
    "medication": "medicine",
}
_KEY_CATEGORY = {
    "city": PROFILE,
    "hometown": PROFILE,
    "birthday": PROFILE,
    "age": PROFILE,
    "school": PROFILE,
    "relationship_status": PROFILE,
    "vehicle": PROFILE,
    "employer": ["个人", "工作"],
    "occupation": ["个人", "工作"],
    "language": ["个人", "语言"],
    "allergy": ["个人", "健康"],
    "health_condition": ["个人", "健康"],
    "medication": ["个人", "健康"],
}
_FAMILY_ZH = frozenset(
    [
        "儿子",
        "女儿",
        "闺女",
        "孩子",
        "娃",
        "宝宝",
        "小孩",
        "大宝",
        "二宝",
        "老大",
        "老二",
        "大儿子",
        "小儿子",
        "大女儿",
        "小女儿",
        "二儿子",
        "二女儿",
        "娃娃",
    ]
)
_PARTNER_ZH = frozenset(
    [
        "老公",
        "老婆",
        "媳妇",
        "媳妇儿",
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
    ]
)


def _category_of(subject: Subject) -> str:
    """The 人物 branch a person files under: their relation as said (儿子, wife), or their name."""
    return subject.relation or subject.name or "其他"


def _who(subject: Subject, zh: bool) -> str:
    if zh:
        return f"我{subject.relation}{subject.name}" if subject.relation else subject.name
    if subject.relation:
        return f"My {subject.relation}" + (f" {subject.name}" if subject.name else "")
    return subject.name


_COMMON_EN = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "our",
        "his",
        "her",
        "their",
        "this",
        "that",
        "an",
        "apartment",
        "house",
        "flat",
        "home",
        "city",
        "town",
        "village",
        "suburb",
        "suburbs",
        "countryside",
        "area",
        "neighborhood",
        "neighbourhood",
        "building",
        "dorm",
        "dorms",
        "place",
        "room",
        "basement",
        "small",
        "big",
        "same",
        "nice",
        "new",
        "old",
        "quiet",
        "busy",
        "downtown",
        "uptown",
        "here",
        "there",
    ]
)


def _english_place(raw: str) -> str:
    """A place an English clause names (Hangzhou, New York, the Bay Area; a lower-case
    "hangzhou" too), "" for common words (an apartment, the suburbs)."""
    raw = re.split(
        r"\s+(?:with|and|near|since|for|because|but|so|now|right now|at the moment|these days|which|where|who|that)\b|[,;]",
        raw,
        maxsplit=1,
    )[0].strip()
    name = w.capitalized_phrase(raw)
    if name:
        name = re.sub(r"^the\s+", "the ", name)
        return name if name.casefold() not in _COMMON_EN else ""
    words = raw.split()
    if len(words) == 1 and words[0].casefold() not in _COMMON_EN and words[0].isalpha():
        return words[0].capitalize()
    return ""


def _lower_org(raw: str) -> str:
    """An organisation said in lower case (work at google): one word, not a common noun."""
    words = w.clean_en(raw).split()
    if len(words) == 1 and words[0].casefold() not in _COMMON_EN and words[0].isalpha():
        return words[0].capitalize()
    return ""
