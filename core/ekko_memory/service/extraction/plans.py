"""Frames for time: plans and tasks with their deadlines, tasks done, states that hold for
a while (今天有点累, this week I'm off sugar), and routines (每周二打羽毛球).

What decides is the time the statement carries and how it carries it (time_expressions):
a deadline or a future point with something to do is a plan; 今天/最近/this week/until
Friday on a state is a temporary state that ends then; 每天/every Tuesday is a routine.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ekko_memory.models import MemoryNode
from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement
from ekko_memory.service.extraction.time_expressions import TimeMention, end_of_day

_WEEKDAY_ZH = "一二三四五六日"
_WEEKDAY_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

# Something to do: obligation, intention or an appointment.
_TODO_ZH = re.compile(
    r"要|得|需要|必须|应该|打算|准备|计划|约了|预约|安排了?|定了|报名了?|记得|别忘了|不能忘|截止|到期|过期|交|提交|完成|(?:还)?有(?:个|一个|一场|场|节|门)|展示|答辩|演讲|比赛|复诊|考|搞定|弄完|做完|写完|考试|面试|开会|会议|见面|体检|复查|看牙|看医生|复诊|挂号|聚会|聚餐|婚礼|生日会|家长会|出差|航班|飞机|高铁|火车|搬家|答辩|汇报|上线|发布|续费|还款|缴费|交费|报税|接送|去接|去送|参加|deadline|DDL|ddl"
)
_TODO_EN = re.compile(
    r"\b(?:have to|has to|need to|needs to|needs|must|gotta|got to|should|plan to|planning to|am going to|going to|gonna|will|'ll|supposed to|promised to|agreed to|committed to|said i'?d|due|deadline|expires?|send|submit|hand in|turn in|finish|appointment|meeting|interview|exam|test|(?<!on )(?<!on-)call|flight|trip|party|wedding|dinner with|lunch with|checkup|check-up|dentist|doctor|presentation|demo|review|renew|pay|pick up|drop off|move|moving|booked|scheduled|signed up|is happening|is on for|is set for|planned for)\b",
    re.IGNORECASE,
)
# Work reported done: the verb with 完/好/了, or the English past of finishing.
_DONE_VERBS_ZH = (
    r"完成|做完|写完|弄完|搞完|改完|交上去|交上|提交|发出去|搞定|弄好|做好|写好|改好|修好|看完|考完|面完|开完|去过|去完|"
    r"办完|办好|交完|还完|缴完|处理完|处理好|结束|上线|发布|买好|买到|订好|订完|约好|约上|卖掉|卖|收走|寄出|寄走|退掉|"
    r"退|还|付|付完|续上|续好|续完|交|发|修|做|办|搞掂|换|装|洗|打扫|清理|搬|剪|扔|收拾|打印|签|填|报|缴|充|取|拿|进|买|订|约|"
    # 水壶已经下单了: bought online, the errand is done.
    r"下单|下好单|下过单|"
    # 房租转过去了, 学费打过去了: the money is sent.
    r"转过去|转账|转给|打过去|汇过去|汇款|转|"
    # 护照续过了: renewed.
    r"(?<!继)续"
)
# Work reported done: the verb with 了 after it, or 已经/终于 before it (交上去 alone is still
# to do: 周五前要交上去).
_DONE_ZH = re.compile(
    rf"(?:已经|终于|刚刚?|总算|都)(?:{_DONE_VERBS_ZH})|(?:{_DONE_VERBS_ZH})(?:过|上|下来|出去|回去|好[\u4e00-\u9fff]{{1,2}}|完[\u4e00-\u9fff]{{1,2}})?(?:了|啦|咯|喽)|搞定|(?:完|好|掉|走)了(?:[，,。！!~～]|$)"
)
_DONE_EN = re.compile(
    r"\b(?:finished|done with|done|completed|submitted|handed in|turned in|sent (?:off|out|in)|sent|wrapped up|got (?:it|that|the \w+) done|took care of|dealt with|handled|sorted|paid|renewed|passed|went to|bought|booked|picked up|returned|mowed|fixed|already (?:did|went|sent|paid|finished)|is done|are done|was done|all done|no longer need to|ticked off|crossed off"
    r"|filed|fixed|cleaned|installed|repaired|painted|delivered|signed|posted|mailed|shipped|washed|replaced|printed"
    r"|dropped off|out of the way|checked off|taken care of|ordered|purchased|placed (?:an|the) order"
    r"|(?:is|are|'s)\s+out\s+the\s+door|(?:is|are|'s)\s+(?:sorted|squared\s+away)(?=\s*[.!✅]*$)"
    # got the dry cleaning, picked up: the errand of fetching it is done.
    r"|got the|transferred|wired)\b",
    re.IGNORECASE,
)
# Plans called off (出差取消了, the trip fell through): like work done, they leave the tasks.
_CANCELLED = re.compile(
    r"取消了|不去了|泡汤了|黄了|吹了|改期了|推迟了|延期了|不用去了|不办了|不弄了|作废了"
    r"|\b(?:cancelled|canceled|called off|fell through|postponed|not (?:going|happening) (?:anymore|any more)|off now|scrapped)\b",
    re.IGNORECASE,
)
# How one feels, said after a list's lead (…太多了：累死; so much to do: ugh, exhausted).
_FEELING = re.compile(
    r"^(?:好|太|真|快|要)?(?:累|烦|困|忙|崩溃|头大|头疼|心累|无语|受不了|吐了|疯了|晕)(?:死|炸|坏|爆)?(?:了|啊|呀|哦)*$"
    r"|^(?:(?:i'?m|am)\s+)?(?:so\s+|really\s+|very\s+|totally\s+)?(?:tired|exhausted|knackered|dead|stressed|overwhelmed)\b"
    r"|^(?:ugh|argh|sigh|meh|help|kill me|send help)\b",
    re.IGNORECASE,
)
# A state (tired, busy, sick, on a diet): words that describe how someone is.
_ILL_ZH = re.compile(
    r"感冒|发烧|咳嗽|头疼|头痛|嗓子疼|喉咙痛|拉肚子|胃疼|胃不舒服|肚子疼|不舒服|生病|牙疼|过敏了|扭伤|扭了|崴了|骨折|受伤|拉伤"
)
# Talk of the weather or of the moment's mood, and thanks: no state of the user worth keeping.
_PASSING_TALK = re.compile(
    r"天气|天儿|天真好|天不错|这天|忽冷忽热|降温|升温|阳光|太阳|下雨|下雪|刮风|好热|好冷|晚安|早安|早啊|早上好|谢谢|辛苦|哈哈|心情|"
    r"\b(?:weather|sunny|sunshine|raining|rainy|snowing|windy|lovely day|good morning|good night|thanks|thank you|cheers|haha|lol)\b",
    re.IGNORECASE,
)
# The user crowning themself in an exclamation (我可真是个天才, I'm such a great driver, I'm
# basically a world-class chef): said of a mishap beside it, mostly in irony — no state
# (unless the label carries its own time).
_SELF_CROWNED = re.compile(
    r"^(?:(?:哎|唉|哈+|呵+|好吧|行吧)[，,\s]*)?(?:我|俺)(?:可|也|还|就|简直|果然|真|真的)*是(?:个|一个|位)"
    r"|^(?:(?:yeah|yep|oh|wow|well|ok|okay|lol|haha|great|welp)[,!.\s]+)*(?:i'?m|i\s+am)\s+"
    r"(?:(?:such|basically|totally|literally|officially|clearly|obviously|truly|really)\s+)+(?:a|an|the)\b",
    re.IGNORECASE,
)
# An English clause about a thing, not the speaker (the sunset…, it's pouring, this place…).
_OF_A_THING_EN = re.compile(
    r"^(?:(?:oh|wow|omg|ugh|man|so|and|but|also|honestly|lol|haha)[,!\s]+)*"
    r"(?:the|this|that|these|those|it|it's|its|there|there's|here|such|what\s+a|how)\b",
    re.IGNORECASE,
)
_ILL_EN = re.compile(
    r"\b(?:have|got|caught|am fighting)\s+(?:a|the)\s+(?:cold|flu|fever|cough|sore throat|stomach bug|headache|migraine)\b|\bam (?:sick|ill|unwell|under the weather)\b"
    r"|\b(?:sprained|twisted|broke|broken|pulled|strained|injured|hurt|fractured|tore|torn)\s+(?:my\s+)?(?:ankle|knee|wrist|back|shoulder|hamstring|calf|arm|leg|finger|toe|neck|foot|hand)\b",
    re.IGNORECASE,
)


def _day_zh(when: datetime) -> str:
    return f"{when.month}月{when.day}日（周{_WEEKDAY_ZH[when.weekday()]}）"


def _day_en(when: datetime) -> str:
    return f"{_WEEKDAY_EN[when.weekday()]} {when.strftime('%b')} {when.day}"


def due_words(mention: TimeMention, zh: bool) -> str:
    """How a due time reads in a memory: 3月6日（周五）前, 3月11日（周三）15:00, due Fri Mar 6."""
    assert mention.starts is not None
    when = mention.starts
    day = _day_zh(when) if zh else _day_en(when)
    if mention.has_clock:
        day += f" {when.strftime('%H:%M')}"
    span = mention.ends is not None and (mention.ends - when) > timedelta(days=1, hours=1)
    if span and mention.ends is not None:
        # 下周, 下个月, this weekend: a span, said from its first to its last day.
        day += f"—{_day_zh(mention.ends) if zh else _day_en(mention.ends)}"
    if mention.role == "deadline":
        return f"{day}前" if zh else f"due {day}"
    return day


# An obligation strong enough to be a to-do without a date (旧冰箱得在搬家前卖掉, remind me
# to call the plumber): must, have to, remind me, before an event.
_MUST_WORDS_ZH = re.compile(
    r"(?<![想只主重需不])要(?![是不么求紧命])(?=[\u4e00-\u9fff])|必须|需要|务必|记得|别忘了|别忘记|不能忘了?|提醒我"
    # 得 as must after a deadline or the one who must (周五前得…, 我得…, 还得…).
    r"|(?:(?<=前)|(?<=我)|(?<=俺)|(?<=还)|(?<=也)|^)得(?=去|把|先|再|赶紧|抓紧|尽快|[\u4e00-\u9fff]{2})(?!很|太|好|多|不)"
)


class _MustZh:
    """要/必须/记得…, and 得 where it means must (我得去银行, 旧冰箱得在搬家前卖掉) — not
    the 得 after a verb or an adjective (嗓子哑得说不出话, 跑得很快)."""

    @staticmethod
    def search(text: str) -> bool:
        if _MUST_WORDS_ZH.search(text):
            return True
        before = ("", "")
        for word, pos in w.tag(text):
            if word == "得" and pos == "ud" and before[1][:1] not in ("a", "v"):
                return True
            before = (word, pos)
        return False


_MUST_ZH = _MustZh()
_MUST_EN = re.compile(
    r"^(?:still\s+|also\s+)?(?:have to|has to|need to|needs to|must|gotta|(?:have\s+|has\s+)?got to)\b|\bremind me to\b|^(?:don'?t|do not) (?:let me )?forget to\b",
    re.IGNORECASE,
)
_BEFORE_SOMETHING = re.compile(
    r"[\u4e00-\u9fff]{1,8}(?:之前|以前|前)|\b(?:before|by)\s+\w+", re.IGNORECASE
)
# What would happen otherwise (不然过期了还得补手续): no task of its own.
_CONSEQUENCE = re.compile(r"^(?:不然|否则|要不然|要不|otherwise|or else)\b", re.IGNORECASE)
_REMIND = re.compile(
    r"^(?:please\s+)?remind me (?:to|that|about)\s+|^(?:请|麻烦)?提醒我(?:一下)?", re.IGNORECASE
)


# Saying something need not be done (不用交了, no need to call): no to-do.
_NO_NEED = re.compile(
    r"不用|不需要|不必|没必要|用不着|无需|犯不着"
    r"|\b(?:don'?t|do not|doesn'?t|does not|no|won'?t) (?:need|have) to\b|\bno need to\b|\bneedn'?t\b",
    re.IGNORECASE,
)
# Urgency in place of a date (renew it asap, 得尽快把护照续了): a to-do now.
_URGENT = re.compile(
    r"\b(?:asap|as soon as (?:possible|i can)|right away|straight away|first thing tomorrow)\b"
    r"|\b(?:expires?|expiring|runs?\s+out|running\s+out)\s+(?:soon|next\s+\w+|this\s+\w+)\b|\bis\s+about\s+to\s+(?:expire|run\s+out)\b"
    r"|尽快|赶紧|抓紧|尽早|越快越好|马上"
    # 驾照快到期了得去换证: what is about to run out makes the must a to-do now.
    r"|(?:快|要|即将|马上)(?:到期|过期|截止|用完|没了)",
    re.IGNORECASE,
)
# A must or a should whose verb takes the thing to do as its object: 把报销单交了, 约个体检,
# 办张卡; book the vet, renew it, call my insurance. 晚饭得早点吃, 这周要少吃糖, I need to
# relax more name no piece of work.
_OBJECT_ZH = re.compile(
    r"(?:要|得|需要|必须|应该|该|记得|别忘了|还得|也得)(?:去|先|再|赶紧|抓紧|尽快|马上)?"
    r"(?:把|给[\u4e00-\u9fff]{1,4}[\u4e00-\u9fff]|[\u4e00-\u9fff]{1,2}(?:一)?[个张份台件本封趟只]"
    # 这周要订机票, 得交物业费: an errand's verb with its thing (not 要少吃糖, 得早点睡).
    r"|(?:订|预订|买|交|缴|续|办|寄|取|退|付|报|填|签|打印|预约|提交|联系|修|换|搬|收拾|整理|写|改|发|回复|准备)"
    r"(?:好|完|掉)?(?:一下)?[\u4e00-\u9fffA-Za-z]{2,})"
)
_OBJECT_EN = re.compile(
    r"^(?:still\s+|also\s+|really\s+|definitely\s+|probably\s+|finally\s+)*"
    r"(?:have to|has to|need to|needs to|must|gotta|(?:have\s+|has\s+)?got to|should|ought to|am going to|'m going to|plan to|remember to)\s+"
    r"(?:go\s+(?:and\s+)?|get\s+(?=around)|finally\s+|also\s+)?"
    r"(?!(?:say|admit|agree|confess|be|feel|think|wonder|accept|tell you|hand it)\b)[a-z]+(?:\s+(?:up|in|off|out|back|down))?"
    r"\s+(?:the|my|a|an|our|his|her|their|this|that|these|those|it|him|them|(?-i:[A-Z][a-z]+))\b"
    # need to book flights, have to buy groceries: a thing named without "the" (not "eat
    # vegetables", "take vitamins": what one consumes is no errand).
    r"|^(?:still\s+|also\s+|really\s+|definitely\s+|probably\s+|finally\s+)*"
    r"(?:have to|has to|need to|needs to|must|gotta|got to|should|ought to|am going to|'m going to|plan to|remember to)\s+"
    r"(?!(?:eat|drink|take|have|be|get more|do more|sleep)\b)[a-z]+\s+(?:[a-z]+\s+)?[a-z]{3,}s\b(?!\s+(?:more|less)\b)",
    re.IGNORECASE,
)
# A time that names a span the work falls in (这周, this month, 这个月): the work's deadline
# when a must or a should with its object goes with it (这周要把报销单交了).
_SPAN_NOW = re.compile(
    r"这周|这个?星期|这礼拜|本周|这个?月|本月|今年|今天|今晚|今儿|this (?:week|month|year)|all week"
    r"|\b(?:today|tonight|this evening)\b",
    re.IGNORECASE,
)
# Arranged for a date (报了4月18号的雅思, booked the dentist for the 25th): an event to
# come, though its verb is past.
# Booked (约了, 预约了, 订好了, 挂了号, 报了名): with a time to come, what is booked is ahead.
_BOOKED_ZH = re.compile(r"(?:预约|约|预订|预定|订|挂|报名|报)(?:了|好了)")
_ARRANGED = re.compile(
    r"(?:报|报名|约|预约|订|预订|预定|挂|抢到|买)(?:了|好了)[^，,。]{0,3}?"
    r"(?:[\d一二三四五六七八九十]+[号日]|周[一二三四五六日天]|明天|后天|下周|下个?月)"
    r"|(?:[\d一二三四五六七八九十]+[号日]|周[一二三四五六日天])的[\u4e00-\u9fffA-Za-z]{1,8}"
    r"(?:已经)?(?:报|报名|约|预约|订|挂)(?:了|好了)"
    r"|\b(?:booked|scheduled|signed up for|registered for|enrolled in|got (?:tickets|a slot|an appointment))\b",
    re.IGNORECASE,
)
# Not done yet (宽带还没装, 窗帘也还没买, haven't booked the hotel yet): still to do — of a
# thing the user works on, not what others do to them (快递还没到).
_NOT_YET_ZH = re.compile(
    r"^(?P<thing>[\u4e00-\u9fffA-Za-z0-9]{1,12}?)(?:也|都)?还(?:没|未)(?:有)?(?:开始)?(?:去)?"
    r"(?:装|买|订|约|交|办|写|做|弄|搞|修|洗|收拾|处理|准备|预约|联系|安排|填|签|报名|打印|整理|打扫|清理|换|续|缴|还|退|寄|取|剪|搬|改|背|复习|看)"
    r"(?:完|好)?[呢啊呀哦]*$"
)
_NOT_YET_EN = re.compile(
    r"^(?:still\s+)?(?:have(?:n'?t| not)|hasn'?t)\s+(?:even\s+)?(?:started\s+(?:on\s+)?)?"
    r"(?:booked|bought|sent|paid|done|finished|filed|fixed|called|ordered|renewed|submitted|cleaned|packed|written|started|scheduled|replied to|returned|signed)"
    r"\s+(?:the|my|our|a|an|his|her|their)\s+\w+",
    re.IGNORECASE,
)


def _not_yet(st: Statement) -> bool:
    """The clause says a piece of the user's work is not done yet (窗帘还没买)."""
    body = st.body.strip()
    if st.zh:
        m = _NOT_YET_ZH.match(body)
        if m is None or re.match(r"[我你他她它]|人家", m["thing"]):
            return False
        return any(pos[:1] in ("n", "v") or pos == "eng" for _, pos in w.tag(m["thing"]))
    return bool(_NOT_YET_EN.match(body))


# A thing and what is due for it now (房租也该交了, 头发该剪了, 车该保养了): the thing named
# first, then 该 and the work. Not 我该睡了 (no thing) nor 该吃饭了.
_DUE_NOW_ZH = re.compile(
    r"^(?:还有|另外|而且|再就是)?[，,\s]*(?P<thing>[\u4e00-\u9fffA-Za-z0-9]{1,8}?)"
    r"(?:也|又|都|早就|早)?(?:应该|该)(?P<work>[\u4e00-\u9fff]{1,4}?)了[吧啊呀哦啦]*$"
)


def due_now(st: Statement) -> bool:
    """The clause says a thing's work is due now (房租也该交了, 护照该续了)."""
    if not st.zh:
        return False
    m = _DUE_NOW_ZH.match(st.text.strip())
    if m is None:
        return False
    thing = w.tag(m.group("thing"))
    work = w.tag(m.group("work"))
    return bool(
        thing
        and thing[-1][1][:1] == "n"
        and thing[-1][1] != "nr"
        and work
        and work[0][1][:1] == "v"
    )


_NOT_WORK_VERBS = frozenset(
    {
        "肯定",
        "一定",
        "会",
        "能",
        "可以",
        "应该",
        "可能",
        "就",
        "都",
        "是",
        "有",
        "没",
        "睡",
        "起",
        "起床",
    }
)
_HABIT_ZH = re.compile(r"一般|通常|平时|平常|每天|天天|每周|每晚|每早|作息|习惯|总是|向来|从来")


def _work_by(st: Statement, when: TimeMention, bare: bool = False) -> bool:
    """The clause opens with a deadline and the work to do by it (周四前发给财务, 月底前搬完):
    the user's to-do, though no "must" is said. ``bare``: and the work's verb names no thing
    after it (发给财务, 弄完 — the thing was said before; not 交周报)."""
    if not st.zh or when.role != "deadline" or not st.about_user:
        return False
    at = st.text.find(when.text)
    if at != 0:
        return False
    after = re.sub(r"^(?:之前|以前|前)?\s*(?:就|先|再|要|得)?", "", st.text[len(when.text) :])
    tagged = w.tag(after)
    if tagged and tagged[0][0] in ("把", "将") and len(after) >= 4:
        return not bare  # 月底前把发票寄给会计: the thing is named after 把
    if not (tagged and tagged[0][1][:1] == "v" and len(after) >= 2):
        return False
    if tagged[0][0] in _NOT_WORK_VERBS or _HABIT_ZH.search(st.sentence):
        return False  # 晚上十一点前肯定睡, of a day as it usually goes: a habit, no to-do
    if not bare:
        return True
    rest = after[len(tagged[0][0]) :]
    return not rest or bool(re.match(r"[给到完好掉走了]", rest)) or tagged[0][0].endswith("给")


def continues_tasks(st: Statement) -> bool:
    """A clause that adds another thing to do to the one said before it in the sentence
    (…，另外体检也得约一下; …，还有房租也该交了): a join or 也/还 with a must."""
    if not st.zh:
        return False
    return bool(
        re.match(
            r"^(?:另外|还有|再就是|而且|然后)?[，,\s]*[\u4e00-\u9fffA-Za-z0-9]{0,8}?(?:也|还)(?:得|要|需要|该)",
            st.text,
        )
        or re.match(
            r"^(?:另外|还有|再就是)[，,\s]*[\u4e00-\u9fffA-Za-z0-9]{1,10}?(?:得|要|需要|该)",
            st.text,
        )
    )


def span_now(st: Statement) -> TimeMention | None:
    """The span a task falls in when only such a span is said (这周, this month)."""
    return next(
        (
            t
            for t in st.times
            if t.role == "state"
            and not t.past
            and t.starts is not None
            and t.ends is not None
            and _SPAN_NOW.search(t.text)
        ),
        None,
    )


_TURNING_AN_AGE = re.compile(
    r"^(?:am|is|are)?\s*(?:turning|turns|going\s+to\s+be|gonna\s+be)\s+\d{1,3}\b(?!\s*(?:am|pm|:|mins?|minutes|km|miles))",
    re.IGNORECASE,
)


def plan(
    st: Statement, now: datetime, sentence_time: TimeMention | None = None, listed: bool = False
) -> Finding | None:
    """A plan or task the statement states (周五前要交季度报告, dentist next Wednesday at 3,
    旧冰箱得在搬家前卖掉): something to do, with its time when one is said. The task keeps the
    user's words; its due time is spelled out beside them.

    ``sentence_time``: a time said earlier in the sentence for a list of things to do
    (这周要干三件事：交水电费、给车续保险), which each item without its own time takes;
    ``listed``: the statement is such an item."""
    if st.subject.kind == "person" and not any(
        t.role in ("point", "deadline") and not t.past for t in st.times
    ):
        return None  # my daughter's recital is Saturday at 2pm: a dated event the user goes to
    if _a_step_of_the_routine(st):
        return None  # 每天六点去游泳，所以十点前就得睡: a step of the routine, no task of today
    body = _REMIND.sub("", st.body.strip()) if st.subject.kind != "person" else st.text
    when = (
        next(
            (
                t
                for t in st.times
                if t.role in ("deadline", "point", "until") and not t.past and t.starts is not None
            ),
            None,
        )
        or sentence_time
    )
    if when is not None and _holds_until(st, when):
        return None  # 下周之前都在出差, 到月底都要值夜班: how it is until then — a state
    done = (_DONE_ZH if st.zh else _DONE_EN).search(body)
    due_already = due_now(st)
    must = bool(
        (_MUST_ZH if st.zh else _MUST_EN).search(body)
        or _REMIND.search(st.body)
        or listed
        or due_already
    )
    todo = (_TODO_ZH if st.zh else _TODO_EN).search(body)
    if _NO_NEED.search(body):
        return None  # 不用交了, no need to call: nothing to do
    if course_ends(st) is not None:
        return None  # 在吃抗生素，要吃七天: how long the course lasts, no task
    if any(t.role == "recurring" for t in st.times) and not any(
        t.role in ("deadline", "point") for t in st.times
    ):
        return None  # 每次回家都得飞五个多小时, I have to take meds every morning: how it goes
    if _TURNING_AN_AGE.match(body.strip()):
        return None  # I'm gonna be 50 on 2 May: a birthday, no plan
    if listed and (_FEELING.search(body) or _FEELING.search(st.text)):
        return None  # 周末的活儿太多了：累死 — how it feels, no item to do
    if st.zh and re.search(r"的[吧啊呀哦呢]*$", st.text.strip()) and not st.times:
        if listed and not _MUST_ZH.search(body):
            return None  # …约个体检，公司报销的: how the item before is paid for, no item
        if not listed:
            return None  # 我们组代码要开源的: how a thing is, said with 要…的, no to-do
    # The work named as its object (把报销单交了, book the vet): a to-do said plainly.
    worded = bool(_OBJECT_ZH.search(body) if st.zh else _OBJECT_EN.match(body.strip()))
    arranged = when is not None and when.role == "point" and bool(_ARRANGED.search(body))
    if when is not None and when.role == "point" and when.starts is not None and when.starts > now:
        # 下周二上午十点约了体检: booked for a time to come — the appointment is ahead.
        arranged = arranged or bool(_BOOKED_ZH.search(body) if st.zh else None)
    not_yet = _not_yet(st)
    if when is None and (worded or listed):
        when = span_now(st)  # 这周要把报销单交了: due at the week's end
    if arranged or not_yet:
        todo = todo or _ARRANGED.search(body) or re.search(r".+", body)
        must = True
        done = None  # 报了雅思: the exam is to come; 还没装: not done
    if (done is not None and not must) or (st.negated and not must):
        return None
    if _CONSEQUENCE.match(body):
        return None
    if when is not None:
        if (
            todo is None
            and not listed
            and not worded
            and not (must and when.role == "deadline")
            and not _work_by(st, when)
        ):
            # A deadline with a must (月底前得去把合同续签了) is a to-do whatever the work.
            return None
        if when.ends is None or when.ends < now:
            return None
    elif (
        st.zh
        and worded
        and not re.search(r"把|给|得|必须|需要|务必|记得|别忘|还要|也要", body)
        and not _URGENT.search(body)
    ):
        return None  # 我要吃个饭: 要 of wanting, no work to do
    elif not (
        listed
        or not_yet
        or _REMIND.search(st.body)
        or (must and (st.remember or _BEFORE_SOMETHING.search(body)))
        or (must and worded)
        or (must and _URGENT.search(body))
        or due_already
    ):
        # A "must" with no time is a task only with what it must come before (旧冰箱得在
        # 搬家前卖掉) or when asked to be reminded: 晚饭得早点吃 is no to-do.
        return None
    words = _LEAD_JOIN.sub("", _REMIND.sub("", st.text))
    words = w.clean_zh(words) if st.zh else w.clean_en(words)
    if len(words) < 2:
        return None
    personal = not _project_words(st.text)
    value: dict[str, object] = {"task": words, "status": "todo"}
    expires = None
    title = words
    if when is not None and when.starts is not None and when.ends is not None:
        due = due_words(when, st.zh)
        title = f"{words}（{due}）" if st.zh else f"{words} ({due})"
        value["due"] = when.ends.isoformat(timespec="minutes")
        # A dated task stays in the context a day past its time; then it is history.
        expires = max(when.ends, end_of_day(when.ends)) + timedelta(days=1)
    return Finding(
        type="task",
        domain="个人" if personal else "项目",
        category=["个人", "日程"] if personal else ["项目", "任务"],
        key="task_status",
        value=value,
        title=title,
        content=_with_antecedent(st, elliptic=when is not None and _work_by(st, when, bare=True)),
        statement=st,
        scope="workspace",
        expires_at=expires,
        tags=["任务" if st.zh else "task"],
        entities=sorted(_work_words(words, st.zh))[:4],
        # Below the high-confidence line: the user reporting it done closes it unasked.
        confidence=0.85,
        importance=0.8,
        reason="a plan or task the user mentioned" + (", with its time" if when else ""),
    )


# The task names its thing by a pronoun (renew it asap, 得把它退了): what it is was said before.
_PRONOUN_OBJECT = re.compile(
    r"\b(?:it|them|that|this one)\b|它|这个|那个|这事|那事|这件事|那件事", re.IGNORECASE
)


def _no_object_zh(st: Statement) -> bool:
    """A Chinese must whose verb names no thing at all (护照快过期了，得赶紧去续): the thing
    was said before it."""
    if not st.zh:
        return False
    tagged = w.tag(w.clean_zh(st.body.strip()))
    return (
        bool(tagged)
        and tagged[-1][1][:1] == "v"
        and (
            len(tagged[-1][0]) == 1
            or re.fullmatch(r"[去来再][\u4e00-\u9fff]", tagged[-1][0]) is not None
        )
        and not any(pos[:1] in ("n", "r", "q", "m") or pos in ("eng", "vn") for _, pos in tagged)
    )


def _with_antecedent(st: Statement, elliptic: bool = False) -> str:
    """The task's words, with the clauses before it in its sentence when it names its thing
    by a pronoun (my passport expires in June…, so I need to renew it asap) or not at all
    (``elliptic``: 预算表做完 周四前发给财务): the user's own words, so a later question
    about the thing finds the task."""
    if not (elliptic or _PRONOUN_OBJECT.search(st.body) or _no_object_zh(st)):
        return st.text
    at = st.sentence.find(st.text)
    if at <= 0:
        return st.text
    said = st.sentence[: at + len(st.text)].strip()
    return said if len(said) <= 160 else "…" + said[-159:]


_PROJECT_WORDS = re.compile(
    r"项目|代码|接口|上线|发布|需求|版本|测试|部署|重构"
    r"|\b(?:PR|bug|repo|release|deploy|sprint|ticket|feature|refactor|codebase|merge|migration|staging)s?\b",
    re.IGNORECASE,
)
# Words that join a clause to the one before (另外, and also): no part of the task.
_LEAD_JOIN = re.compile(
    r"^(?:(?:另外|还有|而且|然后|再就是|并且|还|也|哎|唉|嗯|(?:and also|and|also|plus|then|but|ugh|argh|sigh|um|uh|oh|ok|okay|so)\b)[，,\s]*)+",
    re.IGNORECASE,
)


def _project_words(text: str) -> bool:
    return bool(_PROJECT_WORDS.search(text))


def reports_done(st: Statement) -> bool:
    """The statement reports work done (报告交了, finished the slides)."""
    if st.question or st.hypothetical or st.subject.kind == "person":
        return False
    if st.zh and re.search(
        r"(?:没|未|还没|还未|没有)(?:完成|做完|写完|交|弄完|搞定|办完|考完)", st.body
    ):
        return False
    if not st.zh and re.search(
        r"\b(?:not|n't|never|haven'?t|hasn'?t|yet)\b", st.body, re.IGNORECASE
    ):
        return False
    if (_MUST_ZH if st.zh else _MUST_EN).search(st.body) or _REMIND.search(st.body) or due_now(st):
        return False  # 得卖掉, 房租该交了 are still to do
    return bool((_DONE_ZH if st.zh else _DONE_EN).search(st.body) or _CANCELLED.search(st.body))


# The user set against someone just spoken of (我自己五音不全, as for me…).
_MYSELF_AFTER = re.compile(
    r"^(?:但是?|可是?|而)?(?:我自己|我本人|我倒是|我反而|我呢)(?![都也])|^(?:but\s+)?(?:as for me|i myself|me,? i)\b",
    re.I,
)
# The weather as the clause's subject (今天风好大, 外面雨下得好大, it's so windy today).
_WEATHER = re.compile(
    r"^(?:今天|今晚|明天|昨天|这两天|这几天|最近|早上|晚上|外面|这边|我们这儿?)?(?:的)?"
    r"(?:风|雨|雪|雾|霾|雾霾|天气|太阳|气温|温度|天儿?)(?:也|又|都|还|真|好|太|超|特别|挺|有点|下得|刮得)"
    r"|^(?:it'?s|it\s+is|it\s+was|the\s+weather\s+is)\s+(?:so\s+|really\s+|super\s+|freezing\s+)?"
    r"(?:windy|rainy|raining|snowing|snowy|stormy|foggy|hot|cold|freezing|humid|chilly|sunny|pouring)\b",
    re.IGNORECASE,
)


# 最近, lately: an open start, no end — what is done every day lately may be a new habit.
_OPEN_ENDED = re.compile(
    r"最近|近来|近期|这阵子|这段时间|lately|recently|these days", re.IGNORECASE
)


def bounds_a_routine(bound: TimeMention | None) -> bool:
    """A time that closes what is done again and again inside it (这周天天加班, every night
    this week, 下周五之前每天): a state for that while, not a habit."""
    return bound is not None and bound.ends is not None and not _OPEN_ENDED.search(bound.text)


# A would or could (I could sleep for a week; 恨不得睡三天): the span is a figure of speech.
_WOULD_BE = re.compile(r"\b(?:could|would|might|i'd)\b|恨不得|巴不得", re.IGNORECASE)


def temporary_state(statements: list[Statement], now: datetime) -> Finding | None:
    """A state of the user that holds for a while (今天有点累，晚饭想简单点; this week I'm
    off sugar; 我感冒了): the sentence in their words, until the time it names ends (a cold:
    three days). ``statements``: the claims of one sentence, the first carrying the time."""
    first = statements[0]
    if first.subject.kind not in ("self", "we", "none") or (
        first.subject.kind == "none" and first.explicit_subject
    ):
        return None
    if (
        first.subject.kind == "none"
        and not first.zh
        and _OF_A_THING_EN.match(first.text)
        and not any(st.explicit_subject and st.subject.kind in ("self", "we") for st in statements)
    ):
        return None  # the sunset tonight is unreal: of the sky, no state of the user
    if any(_WEATHER.match(st.text) for st in statements) and not any(
        (_ILL_ZH if st.zh else _ILL_EN).search(st.body) for st in statements
    ):
        return None  # 今天风好大，出门差点被吹跑: the weather, no state of the user
    if not first.explicit_subject and any(_MYSELF_AFTER.match(st.text) for st in statements[1:]):
        return None  # 最近练琴老是磨蹭，我自己五音不全: the first clause is someone else's
    if not any((_ILL_ZH if st.zh else _ILL_EN).search(st.body) for st in statements):
        # 这个月我在戒糖…，好想死哈哈: the passing words go, the state said beside them stays.
        statements = [
            st
            for st in statements
            # I'm such a mess this week: a label with its own time is how the user is now.
            if not (
                _PASSING_TALK.search(st.text) or (_SELF_CROWNED.match(st.text) and not st.times)
            )
        ]
        if not statements or statements[0] is not first:
            return None
    times = [t for st in statements for t in st.times]
    bound = next(
        (
            t
            for st in statements
            for t in st.times
            if t.role in ("state", "until")
            and not t.past
            and t.ends is not None
            and not starts_then(st, t)
        ),
        None,
    )
    ill = any((_ILL_ZH if st.zh else _ILL_EN).search(st.body) for st in statements)
    if bound is None and not ill:
        return None
    if not ill and _WOULD_BE.search(first.text):
        return None  # I could sleep for a week, 恨不得睡三天: how it feels, no span it holds
    if (
        not ill
        and bound is not None
        and bound.ends is not None
        and bound.ends <= end_of_day(now)
        and all(one_off_event(st) for st in statements)
    ):
        return None  # 今晚点了外卖, I ordered a pizza tonight: done once, no state of the user
    if any(t.role == "recurring" for t in times) and not bounds_a_routine(bound):
        return None
    if bound is not None and bound.ends is not None:
        until = bound.ends
        if _before_a_span(statements, bound) and bound.starts is not None:
            until = bound.starts - timedelta(seconds=1)
        if bound.role == "until" or until - now < timedelta(hours=6):
            until = max(until, end_of_day(now))
    else:
        until = end_of_day(now) + timedelta(days=3)
    text = (
        "，".join(st.text for st in statements)
        if first.zh
        else ", ".join(st.text for st in statements)
    )
    if len(text) < 4:
        return None
    zh = first.zh
    return Finding(
        type="constraint",
        domain="个人",
        category=["个人", "状态"],
        key="temporary_state",
        value=text,
        title=text if len(text) <= 60 else text[:59] + "…",
        content=(f"用户说：{text}" if zh else f"The user said: {text}"),
        statement=first,
        scope="workspace",
        expires_at=until,
        tags=["临时" if zh else "temporary"],
        confidence=0.85,
        importance=0.85,
        reason="how the user is for now, until it ends",
    )


# A thing done once, told as done: the verb with 了 and what it took (点了外卖, 去了趟超市) —
# not 了 closing the clause (累坏了, 来例假了: how the user is now).
_DONE_ONCE_ZH = re.compile(r"(?<![没不别])(?P<verb>[\u4e00-\u9fff]{1,2})了(?=[\u4e00-\u9fff\d])")
# The English past of doing (ordered, went, cooked) opening what the user says, once the
# time and the subject are set aside; not be/feel/get/have, which say how someone is.
_DONE_ONCE_EN = re.compile(
    r"^(?:(?:i|we)\s+)?(?:just\s+|already\s+|finally\s+)?"
    r"(?!(?:was|were|felt|got|had|seemed|looked|became|needed|wanted|used|tried|started|decided|planned|hoped)\b)"
    r"(?:[a-z]{2,}(?<!ee)ed|went|ate|drank|bought|took|made|saw|met|ran|came|left|gave|sent|paid|found|brought|wrote|did|spent|sold|won|lost|caught|threw|flew|drove|rode|swam|sang|built|grabbed|picked|dropped)\b",
    re.IGNORECASE,
)


def one_off_event(st: Statement) -> bool:
    """The clause tells a thing the user did once, as done (今晚点了外卖, I ordered a pizza
    tonight, went for a run this morning): an event, no state that holds for a while."""
    body = st.text if st.subject.kind != "self" or not st.zh else st.body
    for t in st.times:
        body = body.replace(t.text, " ")
    body = body.strip(" ，,。.!！")
    if st.zh:
        m = _DONE_ONCE_ZH.search(body)
        if m is None:
            return False
        # 累了一天, 忙了一天: how the day was, a state; not a doing.
        tags = w.tag(body[: m.end("verb")])
        return bool(tags) and tags[-1][1][:1] not in ("a",) and not _MUST_ZH.search(body)
    return bool(_DONE_ONCE_EN.match(re.sub(r"\s+", " ", body)))


# Times that say "for now" without saying until when: a job held "currently" is no state.
# 这几天/这两天 are a few days (这几天喉咙发炎 is over by next week), not "for now".
_VAGUE_NOW = re.compile(
    r"最近|近来|近期|这阵|这段时间|目前|眼下|暂时|临时|现在|这些天|近日"
    r"|currently|right now|at the moment|for now|lately|recently|these days|nowadays"
    r"|for the time being|for the moment|for a while|temporarily",
    re.IGNORECASE,
)

_FROM_ON = re.compile(
    r"(?:\b(?:from|as of|starting|since|beginning)\s+|从|自|打|由)$", re.IGNORECASE
)
_ON_FROM = re.compile(r"'s\b|’s\b|\s*(?:起|开始|以后|之后|往后|的)|\s+on\b", re.IGNORECASE)


def held_until(st: Statement, until_only: bool = False) -> datetime | None:
    """When what ``st`` says stops holding, where it names it (my parents are visiting this
    week: the week's end; 今晚头疼，回答短点: midnight); None when it names no end or only a
    vague one (最近, currently). ``until_only``: only an end said as one (until Friday, 到周五)
    counts — a decision made today holds past today."""
    for t in st.times:
        if t.role not in (("until",) if until_only else ("state", "until")) or t.past:
            continue
        if t.ends is not None and not _VAGUE_NOW.search(t.text) and not starts_then(st, t):
            return t.ends
    return None


# How long a course lasts, said as a clause of its own (药要吃七天, have to take them for 10
# days): the span of what the clause before names, no work to do.
_COURSE_ZH = re.compile(
    r"(?:(?:医生|大夫)?(?:说|讲|交代|嘱咐|让我?|叫我?))?(?:药|这药|这个药)?(?:还|也|都)?(?:要|得|需要|还要|还得|必须)(?:连着|连续)?"
    r"(?:吃|打|用|涂|喝|敷|休息|休养|请假|住院|静养|卧床|隔离|禁食|戒|停)药?"
)
_COURSE_EN = re.compile(
    r"(?:(?:the\s+|my\s+)?doc(?:tor)?\s+(?:says?|said|told me)\s+)?(?:i\s+)?(?:have to|need to|must|gotta|got to|should|'ll|will)\s+"
    r"(?:take|keep taking|be on|stay on|use|keep using|rest)\s*(?:it|them|these|those|this|that)?",
    re.IGNORECASE,
)


# Rest for a span, said by the user or ordered by a doctor (医生让我得休息三天, 我得卧床一周,
# the doctor told me to rest for three days): how the user must be until it ends — a state,
# not a piece of work done by a date.
_REST_ZH = re.compile(
    r"(?:(?:医生|大夫|医院)?(?:说|让|叫|要求|建议|嘱咐|交代|要)(?:我)?)?(?:还|也|都)?"
    r"(?:得|要|需要|必须|应该|最好)?(?:在家|在床上|好好|多|先)?"
    r"(?:休息|休养|静养|卧床|养着|歇着|躺着|隔离|住院|请假|卧床休息|在家休息)(?:一下)?"
)
_REST_EN = re.compile(
    r"(?:(?:the\s+|my\s+)?(?:doctor|doc|gp|physio|nurse|surgeon)\s+"
    r"(?:told me|says?|said|wants me|advised me|ordered me|has me)\s+)?"
    r"(?:to\s+)?(?:i\s+)?(?:have to|need to|must|should|gotta|got to|am to|'ll|will)?\s*"
    r"(?:rest|be on bed rest|stay (?:in bed|home|at home|off work|off my feet)|take it easy|stay off (?:work|my feet|it))",
    re.IGNORECASE,
)


def rest_until(st: Statement) -> datetime | None:
    """When rest said for a span ends (医生让我得休息三天, I need to rest for a week: three
    days, a week from now); None when the clause says anything more than that rest."""
    span = next((t for t in st.times if t.role == "until" and not t.past and t.ends), None)
    if span is None or span.text not in st.text:
        return None
    at = st.text.find(span.text)
    rest = (st.text[:at] + " " + st.text[at + len(span.text) :]).strip(" ，,。.!！的了")
    rest = re.sub(r"\s+", " ", _LEAD_JOIN.sub("", rest))
    # stay home until Friday, 在家休息到周五: the word that opens the span goes with it.
    rest = re.sub(r"\s*(?:\b(?:until|till|til|through)|直到|一直到|到)$", "", rest, flags=re.I)
    rest = re.sub(r"^(?:我|俺)", "", rest) if st.zh else rest
    return span.ends if (_REST_ZH if st.zh else _REST_EN).fullmatch(rest) else None


def rest_state(st: Statement, now: datetime) -> Finding | None:
    """The rest the user must take for a span (医生让我得休息三天, the doctor told me to rest
    for three days), as a state of the user until that span ends; never a task."""
    if st.question or st.hypothetical or st.subject.kind not in ("self", "none", "person"):
        return None
    if st.subject.kind == "person" and not (st.reported or st.subject.relation in _CARERS):
        return None  # 我老婆得休息三天: hers, not the user's
    until = rest_until(st)
    if until is None or until < now:
        return None
    until = max(until, end_of_day(until))
    text = st.text
    return Finding(
        type="constraint",
        domain="个人",
        category=["个人", "状态"],
        key="temporary_state",
        value=text,
        title=text if len(text) <= 60 else text[:59] + "…",
        content=(f"用户说：{text}" if st.zh else f"The user said: {text}"),
        statement=st,
        scope="workspace",
        expires_at=until,
        tags=["临时" if st.zh else "temporary"],
        confidence=0.85,
        importance=0.85,
        reason="rest the user must take, until the span said ends",
    )


_CARERS = frozenset({"doctor", "doc", "gp", "physio", "nurse", "surgeon", "医生", "大夫"})


def course_ends(st: Statement) -> datetime | None:
    """The end of a course said as a clause of its own (要吃七天, need to take them for a
    week): None when the clause says anything more than the span."""
    span = next((t for t in st.times if t.role == "until" and not t.past and t.ends), None)
    if span is None:
        return None
    rest = (
        st.body[: st.body.find(span.text)] + st.body[st.body.find(span.text) + len(span.text) :]
        if span.text in st.body
        else st.body
    )
    rest = rest.strip(" ，,。.!！的了")
    course = _COURSE_ZH if st.zh else _COURSE_EN
    if rest_until(st) is not None:
        return None  # 得休息三天: the rest is the state itself, of no course said before
    return span.ends if rest and course.fullmatch(rest) else None


def starts_then(st: Statement, t: TimeMention) -> bool:
    """``t`` is when something starts, not how long it holds (从今天起吃素, as of today,
    today's meeting)."""
    at = st.text.find(t.text)
    if at < 0:
        return False
    return bool(_FROM_ON.search(st.text[:at]) or _ON_FROM.match(st.text[at + len(t.text) :]))


# A time gone by opening the clause (我以前每天喝三杯咖啡, 小时候天天游泳, I used to run every
# morning): a habit the user had, not one they have.
_HABIT_GONE = re.compile(
    r"^(?:我|俺)?(?:以前|之前|过去|曾经|原来|本来|那时候?|那会儿?|当年|早年|小时候|[上读念]书(?:的)?时候"
    r"|[上读念]?大学(?:的)?时候|年轻(?:的)?时候)"
    r"|\bused\s+to\b|\bback\s+(?:then|in\s+(?:the\s+day|college|school|\d{4}))\b"
    r"|\b(?:when|while)\s+i\s+was\s+(?:a\s+kid|a\s+child|young|little|a\s+student|in\s+(?:school|college|uni))\b",
    re.IGNORECASE,
)


# A day yet to come the sentence opens with (等我退休了，每天钓鱼; once I retire I'll fish
# every day): the habit waits for it — none the user has now.
_ONCE_IT_COMES_ZH = re.compile(r"^(?:等|等到)(?:我|俺)?[^，,。]{1,12}?(?:了|以后|之后|的时候)")
_ONCE_IT_COMES_EN = re.compile(
    r"^(?:once|when|after|as\s+soon\s+as|by\s+the\s+time)\s+(?:i|we)\b(?!\s+(?:was|were|used)\b)"
    r"(?=.*\b(?:i'll|we'll|i\s+will|we\s+will|i'm\s+gonna|i'm\s+going\s+to|i\s+am\s+going\s+to)\b)",
    re.IGNORECASE,
)


# What a routine clause may not hold: the assistant (我每天都在等你这句话: chat, no habit) or
# a would (like I'd ever wake up at 5 every day, I'd run every morning if…): none the user has.
_NO_ROUTINE_OF_NOW = re.compile(
    r"[你您](?!知道|懂|看|说)|\byou(?:r|'re|'ve|'ll)?\b(?!\s+(?:know|see)\b)|\b(?:i'd|we'd|would|could|might)\b",
    re.IGNORECASE,
)


def routine(st: Statement) -> Finding | None:
    """A routine or habit (每周二晚上打羽毛球, I run every morning): kept in the user's words."""
    if st.subject.kind not in ("self", "we", "none") or st.negated:
        return None
    if _HABIT_GONE.search(st.body.strip() if st.zh else st.text):
        return None
    if (_ONCE_IT_COMES_ZH if st.zh else _ONCE_IT_COMES_EN).match(st.sentence.strip()):
        return None
    if _NO_ROUTINE_OF_NOW.search(st.body if st.zh else st.text):
        return None
    if not any(t.role == "recurring" for t in st.times) and not _in_a_day_as_it_goes(st):
        return None
    if any(t.role in ("state", "until") and not t.past and bounds_a_routine(t) for t in st.times):
        return None  # 这周天天加班, every night this week: a state for the week, read as one
    if st.subject.kind == "none" and not st.zh and _OF_A_THING_EN.match(st.text):
        return None  # the neighbours' dog barks every night: its doer is named, not the user
    text = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
    body = st.body.strip()
    if _only_how_often(st, body):
        # 主要练力量，一周三次: how often, of what the clause before says.
        before = _clause_before(st)
        if not before or not re.search(
            r"\d|[一二两三四五六七八九十几半]|\b(?:once|twice|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|couple|every other)\b",
            body,
            re.IGNORECASE,
        ):
            return None  # "I like docstrings in English, always": no count, nothing to add
        text = w.clean_zh(f"{before}，{st.text}") if st.zh else w.clean_en(f"{before}, {st.text}")
        body = f"{before} {body}"
    # A routine does something: not a bare state (我每天都很忙) or a question.
    if len(body) < 3 or re.fullmatch(
        r"(?:每天|平时|一般|通常|总是|经常)?都?(?:很|挺|比较|特别)?(?:忙|累|开心|无聊|困)[了啊的]*",
        body,
    ):
        return None
    if re.search(
        r"\b(?:it|that|this|them|those|these)(?:\s+(?:up|out|over|again|wrong))?[.!]*$"
        r"|(?:这个|那个|它|这事|那事)[了啊的呢]*$",
        body,
        re.IGNORECASE,
    ):
        return None  # I always mix it up: of something said before, nothing on its own
    return Finding(
        type="fact",
        domain="个人",
        category=["个人", "习惯"],
        key="routine",
        value=text,
        title=text if len(text) <= 60 else text[:59] + "…",
        content=st.text,
        statement=st,
        scope="user",
        tags=["习惯" if st.zh else "routine"],
        importance=0.7,
        reason="a routine the user described",
    )


# After "until": what goes on the whole while (都在, 一直, 每天, 都要值班), not a thing to do by then
# (周五之前都要交: all handed in by Friday, a deadline).
_ALL_THE_WHILE_ZH = re.compile(
    r"^(?:之前|以前|前|为止)?(?:我)?(?:都在|全在|一直|天天|每天|每晚|都是|都得?轮到|轮到我|都(?:要|得)(?:值|上|加|早起|出差|住|待|呆|在))"
)


def _before_a_span(statements: list[Statement], bound: TimeMention) -> bool:
    """下周之前都在出差, 下个月以前: until a span of days begins (the day before it), not its
    end; 15号之前 is one day, read as said."""
    if bound.role != "until" or bound.starts is None or bound.ends is None:
        return False
    if bound.ends - bound.starts < timedelta(days=1):
        return False
    for st in statements:
        at = st.text.find(bound.text)
        if at >= 0 and re.match(r"(?:之前|以前|前)", st.text[at + len(bound.text) :]):
            return True
    return False


def _holds_until(st: Statement, when: TimeMention) -> bool:
    """The clause says how things are until ``when`` (下周之前都在出差), not what to do by it."""
    if not st.zh or when.role != "until":
        return False
    at = st.text.find(when.text)
    return at >= 0 and bool(_ALL_THE_WHILE_ZH.match(st.text[at + len(when.text) :]))


# 所以, 因此: what follows is the consequence of what the sentence said before it.
_SO_ZH = re.compile(r"^(?:所以|因此|于是|那)(?:我)?")
# A day named in a time (今晚, 周五, 明天, 3号): not a bare clock time.
_DATED_ZH = re.compile(r"[今明后昨前号日月周]|星期|礼拜")


def _a_step_of_the_routine(st: Statement) -> bool:
    """A consequence said after the user's routine, at a bare clock time (我每天早上六点游泳，
    所以晚上十点前就得睡): part of how their days go, not a task of today."""
    return (
        st.zh
        and bool(_SO_ZH.match(st.text))
        and _in_a_day_as_it_goes(st)
        and all(not _DATED_ZH.search(t.text) for t in st.times)
    )


def _in_a_day_as_it_goes(st: Statement) -> bool:
    """A clock time in a sentence that said before it how the user's days go (我现在作息挺
    规律的 早上6点半出门跑步): a step of the routine, though no "every" is said."""
    before = st.sentence[: max(st.sentence.find(st.text), 0)]
    return (
        st.zh
        and any(t.has_clock and not t.past for t in st.times)
        and bool(_HABIT_ZH.search(before))
    )


def _only_how_often(st: Statement, body: str) -> bool:
    """The clause says how often and nothing of what (一周三次, twice a week)."""
    rest = body
    for t in st.times:
        rest = rest.replace(t.text, " ")
    rest = re.sub(
        r"(?:左右|上下|的样子|大概|差不多|基本上?|都|吧|啊|呢|了)|\b(?:times?|or so|about|roughly)\b",
        " ",
        rest,
    )
    return not re.search(r"[\u4e00-\u9fffA-Za-z]{2,}", rest)


def _clause_before(st: Statement) -> str:
    """The clause before ``st`` in its sentence (主要练力量 of 主要练力量，一周三次), if any."""
    at = st.sentence.find(st.text)
    if at <= 0:
        return ""
    pieces = [p.strip() for p in re.split(r"[，,；;、]", st.sentence[:at]) if p.strip()]
    return pieces[-1] if pieces else ""


# Words that name no piece of work: time, doing and finishing ("the report is done" and
# "finish the report" share only "report").
_NOT_WORK_ZH = frozenset(
    [
        "要",
        "得",
        "需要",
        "必须",
        "应该",
        "打算",
        "准备",
        "计划",
        "完成",
        "做完",
        "写完",
        "交",
        "交了",
        "提交",
        "搞定",
        "弄完",
        "已经",
        "终于",
        "今天",
        "明天",
        "后天",
        "周五",
        "周末",
        "下周",
        "这周",
        "之前",
        "以前",
        "前",
        "号",
        "点",
        "上午",
        "下午",
        "晚上",
        "早上",
        "我",
        "我们",
        "一下",
        "一个",
        "这个",
        "那个",
        "事情",
        "东西",
        "其实",
        "实际上",
    ]
)
_NOT_WORK_EN = frozenset(
    [
        "have",
        "need",
        "must",
        "should",
        "will",
        "going",
        "gonna",
        "finish",
        "finished",
        "done",
        "submit",
        "submitted",
        "completed",
        "book",
        "booked",
        "call",
        "called",
        "cancel",
        "cancelled",
        "canceled",
        "pay",
        "paid",
        "send",
        "sent",
        "buy",
        "bought",
        "make",
        "made",
        "take",
        "took",
        "return",
        "returned",
        "pick",
        "picked",
        "renew",
        "renewed",
        "file",
        "filed",
        "sort",
        "sorted",
        "get",
        "got",
        "before",
        "today",
        "tomorrow",
        "friday",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "saturday",
        "sunday",
        "week",
        "month",
        "the",
        "and",
        "for",
        "with",
        "that",
        "this",
        "just",
        "already",
        "finally",
        # A correction's own words (the dentist is actually on the 16th): no part of the work.
        "actually",
        "really",
        "instead",
        "wait",
        "sorry",
    ]
)


def _work_words(text: str, zh: bool) -> set[str]:
    text = re.sub(r"^(?:please\s+)?remind me to\s+", "", text, flags=re.IGNORECASE)
    if zh:
        return {
            word
            for word, pos in w.tag(text)
            if len(word) >= 2
            and pos[:1] in ("n", "v", "e", "x")
            and pos != "t"
            and word not in _NOT_WORK_ZH
        } | {m.casefold() for m in re.findall(r"[A-Za-z]{3,}", text)}
    return {
        word[:5] for word in re.findall(r"[a-z]{3,}", text.casefold()) if word not in _NOT_WORK_EN
    }


def task_words(task: MemoryNode) -> str:
    """The words a task was said in (its ``task`` value, else its title)."""
    value = task.value_json
    said = str(value.get("task") if isinstance(value, dict) and value.get("task") else task.title)
    content = task.content or ""
    if len(content) > len(said) and w.clean_zh(content).casefold().endswith(said[-4:].casefold()):
        # …so I need to renew it: the thing is named in the clauses kept before the task.
        return content
    return said


def task_overlap(said: str, clause: str) -> int:
    """How many words of the work ``said`` (a task) and ``clause`` share: 报告 of 季度报告周五前
    要交 and 报告交了; slides of "finished the slides". A short Chinese report names its thing
    in one character (卡办好了 after 明天得去银行办张卡); a Chinese word inside the task's word
    counts (预算 of 部门预算表)."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", said + clause))
    mine, theirs = _work_words(said, zh), _work_words(clause, zh)
    shared = len(mine & theirs)
    if zh:
        shared += sum(
            1
            for a in mine - theirs
            if any(a in b or b in a for b in theirs - mine if min(len(a), len(b)) >= 2)
        )
        if not shared and len(re.split(r"[，,。！!]", clause)[0]) <= 8:
            single = {word for word, pos in w.tag(said) if len(word) == 1 and pos == "n"}
            # The thing said first, as the topic (卡办下来了: jieba reads 卡办 as one verb).
            named = {word for word, pos in w.tag(clause) if len(word) == 1 and pos == "n"}
            if single & (named | {clause.lstrip()[:1]}):
                return 1
    return shared


def task_matches(task: MemoryNode, clause: str) -> bool:
    """``clause`` (reporting work done) names ``task``: they share a word of the work."""
    return task_overlap(task_words(task), clause) > 0


def same_work(old: str, new: str) -> bool:
    """``new`` (a task with its date) is the same piece of work as ``old`` (said vaguer
    before): "I should paint the fence sometime this month", then "fence painting is on
    Saturday the 14th" — two words of the work in common, or the one word ``new`` has."""
    zh = bool(re.search(r"[\u4e00-\u9fff]", old + new))
    shared = task_overlap(old, new)
    return shared >= 2 or (shared >= 1 and len(_work_words(new, zh)) <= 1)
