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
    r"要|得|需要|必须|应该|打算|准备|计划|约了|预约|安排了?|定了|报名了?|记得|别忘了|不能忘|截止|交|提交|完成|搞定|弄完|做完|写完|考试|面试|开会|会议|见面|体检|复查|看牙|看医生|复诊|挂号|聚会|聚餐|婚礼|生日会|家长会|出差|航班|飞机|高铁|火车|搬家|答辩|汇报|上线|发布|续费|还款|缴费|交费|报税|接送|去接|去送|参加|deadline|DDL|ddl"
)
_TODO_EN = re.compile(
    r"\b(?:have to|has to|need to|needs to|must|gotta|got to|should|plan to|planning to|am going to|going to|gonna|will|'ll|supposed to|due|deadline|submit|hand in|turn in|finish|appointment|meeting|interview|exam|test|call|flight|trip|party|wedding|dinner with|lunch with|checkup|check-up|dentist|doctor|presentation|demo|review|renew|pay|pick up|drop off|move|moving|booked|scheduled|signed up)\b",
    re.IGNORECASE,
)
# Work reported done: the verb with 完/好/了, or the English past of finishing.
_DONE_ZH = re.compile(
    r"(?:已经|终于|刚刚?|总算)?(?:完成|做完|写完|弄完|搞完|改完|交了|交上去了?|提交了|发了|发出去了?|搞定|弄好|做好|写好|改好|修好|看完|考完|面完|开完|去过|去完|办完|办好|交完|还完|缴完|处理完|处理好|结束|上线|发布|取消)了?"
    r"|(?:完|好)了$"
)
_DONE_EN = re.compile(
    r"\b(?:finished|done with|completed|submitted|handed in|turned in|sent (?:off|out|in)|wrapped up|got (?:it|that|the \w+) done|took care of|paid|renewed|cancelled|canceled|passed|went to|already (?:did|went|sent|paid|finished)|is done|are done|was done|all done|no longer need to|don'?t (?:need|have) to .* anymore)\b",
    re.IGNORECASE,
)
# A state (tired, busy, sick, on a diet): words that describe how someone is.
_ILL_ZH = re.compile(r"感冒|发烧|咳嗽|头疼|头痛|嗓子疼|喉咙痛|拉肚子|胃疼|胃不舒服|肚子疼|不舒服|生病|牙疼|过敏了|扭伤|骨折|受伤")
_ILL_EN = re.compile(r"\b(?:have|got|caught|am fighting)\s+(?:a|the)\s+(?:cold|flu|fever|cough|sore throat|stomach bug|headache|migraine)\b|\bam (?:sick|ill|unwell|under the weather)\b", re.IGNORECASE)


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


def plan(st: Statement, now: datetime) -> Finding | None:
    """A plan or task the statement states (周五前要交季度报告, dentist next Wednesday at 3):
    a future time and something to do. The task keeps the user's words; its due time is
    spelled out beside them."""
    if st.subject.kind not in ("self", "we", "none") or not st.times:
        return None
    when = next(
        (t for t in st.times if t.role in ("deadline", "point", "until") and not t.past and t.starts is not None),
        None,
    )
    if when is None or when.starts is None or when.ends is None:
        return None
    todo = (_TODO_ZH if st.zh else _TODO_EN).search(st.body)
    if todo is None or (_DONE_ZH if st.zh else _DONE_EN).search(st.body):
        return None
    if when.ends < now:
        return None
    words = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
    due = due_words(when, st.zh)
    title = f"{words}（{due}）" if st.zh else f"{words} ({due})"
    personal = not _project_words(st.text)
    return Finding(
        type="task",
        domain="个人" if personal else "项目",
        category=["个人", "日程"] if personal else ["项目", "任务"],
        key="task_status",
        value={"task": words, "status": "todo", "due": when.ends.isoformat(timespec="minutes")},
        title=title,
        content=st.sentence if len(st.sentence) <= 200 else st.text,
        statement=st,
        scope="workspace",
        # A task stays in the context a day past its time; then it is history.
        expires_at=max(when.ends, end_of_day(when.ends)) + timedelta(days=1),
        tags=["任务" if st.zh else "task"],
        entities=[],
        confidence=0.9,
        importance=0.8,
        reason="a plan or task the user mentioned, with its time",
    )


_PROJECT_WORDS = re.compile(
    r"项目|代码|接口|上线|发布|需求|版本|测试|部署|重构|PR|bug|repo|release|deploy|sprint|ticket|feature|refactor|codebase|merge",
    re.IGNORECASE,
)


def _project_words(text: str) -> bool:
    return bool(_PROJECT_WORDS.search(text))


def reports_done(st: Statement) -> bool:
    """The statement reports work done (报告交了, finished the slides)."""
    if st.question or st.hypothetical or st.subject.kind == "person":
        return False
    if st.zh and re.search(r"(?:没|未|还没|还未|没有)(?:完成|做完|写完|交|弄完|搞定|办完|考完)", st.body):
        return False
    return bool((_DONE_ZH if st.zh else _DONE_EN).search(st.body))


def temporary_state(statements: list[Statement], now: datetime) -> Finding | None:
    """A state of the user that holds for a while (今天有点累，晚饭想简单点; this week I'm
    off sugar; 我感冒了): the sentence in their words, until the time it names ends (a cold:
    three days). ``statements``: the claims of one sentence, the first carrying the time."""
    first = statements[0]
    if first.subject.kind not in ("self", "we", "none"):
        return None
    times = [t for st in statements for t in st.times]
    bound = next((t for t in times if t.role in ("state", "until") and not t.past and t.ends is not None), None)
    ill = any((_ILL_ZH if st.zh else _ILL_EN).search(st.body) for st in statements)
    if bound is None and not ill:
        return None
    if any(t.role == "recurring" for t in times):
        return None
    if bound is not None and bound.ends is not None:
        until = bound.ends
        if bound.role == "until" or until - now < timedelta(hours=6):
            until = max(until, end_of_day(now))
    else:
        until = end_of_day(now) + timedelta(days=3)
    text = "，".join(st.text for st in statements) if first.zh else ", ".join(st.text for st in statements)
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
        confidence=0.9,
        importance=0.85,
        reason="how the user is for now, until it ends",
    )


def routine(st: Statement) -> Finding | None:
    """A routine or habit (每周二晚上打羽毛球, I run every morning): kept in the user's words."""
    if st.subject.kind not in ("self", "we", "none") or st.negated:
        return None
    if not any(t.role == "recurring" for t in st.times):
        return None
    text = w.clean_zh(st.text) if st.zh else w.clean_en(st.text)
    body = st.body.strip()
    # A routine does something: not a bare state (我每天都很忙) or a question.
    if len(body) < 3 or re.fullmatch(r"(?:每天|平时|一般|通常|总是|经常)?都?(?:很|挺|比较|特别)?(?:忙|累|开心|无聊|困)[了啊的]*", body):
        return None
    return Finding(
        type="fact",
        domain="个人",
        category=["个人", "习惯"],
        key="routine",
        value=text,
        title=text if len(text) <= 60 else text[:59] + "…",
        content=st.sentence if len(st.sentence) <= 200 else text,
        statement=st,
        scope="user",
        tags=["习惯" if st.zh else "routine"],
        importance=0.7,
        reason="a routine the user described",
    )


# Words that name no piece of work: time, doing and finishing ("the report is done" and
# "finish the report" share only "report").
_NOT_WORK_ZH = frozenset(
    "要 得 需要 必须 应该 打算 准备 计划 完成 做完 写完 交 交了 提交 搞定 弄完 已经 终于 今天 明天 后天 "
    "周五 周末 下周 这周 之前 以前 前 号 点 上午 下午 晚上 早上 我 我们 一下 一个 这个 那个 事情 东西".split()
)
_NOT_WORK_EN = frozenset(
    "have need must should will going gonna finish finished done submit submitted completed "
    "before today tomorrow friday monday tuesday wednesday thursday saturday sunday week month "
    "the and for with that this just already finally".split()
)


def _work_words(text: str, zh: bool) -> set[str]:
    if zh:
        return {
            word
            for word, pos in w.tag(text)
            if len(word) >= 2 and pos[:1] in ("n", "v", "e", "x") and pos != "t" and word not in _NOT_WORK_ZH
        } | {m.casefold() for m in re.findall(r"[A-Za-z]{3,}", text)}
    return {
        word[:5]
        for word in re.findall(r"[a-z]{3,}", text.casefold())
        if word not in _NOT_WORK_EN
    }


def task_matches(task: MemoryNode, clause: str) -> bool:
    """``clause`` (reporting work done) names ``task``: they share a word of the work (报告 of
    季度报告周五前要交 and 报告交了; slides of "finished the slides")."""
    value = task.value_json
    said = value.get("task") if isinstance(value, dict) and value.get("task") else task.title
    zh = bool(re.search(r"[\u4e00-\u9fff]", str(said) + clause))
    return bool(_work_words(str(said), zh) & _work_words(clause, zh))
