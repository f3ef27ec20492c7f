"""Frames for work said as what one does rather than what one is (我做前端开发, 我教高中数学,
I work in sales, I do frontend dev, I teach year 9 science) and for where one works from
(我在家办公, 一周去公司两天, I'm fully remote now, I go into the office twice a week).

The job is the field the verb takes (做/搞/从事 + 开发, work in + sales): a field of work,
not any object (我做饭, I do the dishes, I do yoga are no job). How one works is one value
at a time (``work_mode``): a new one supersedes the old.
"""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import ADV_EN, ADV_ZH, FactBuilder
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement

# Fields of work, as the object of 做/搞/从事 (a job said as an activity).
_FIELDS_ZH = (
    r"(?:开发|研发|销售|运营|设计|财务|会计|审计|风控|市场|营销|产品|测试|教研|翻译|咨询|人事|人力|行政|客服|"
    r"采购|物流|外贸|电商|法务|策划|投资|投行|金融|保险|中介|教育|培训|数据分析|数据|算法|前端|后端|全栈|运维|"
    r"网络安全|安全|编程|技术|后勤|质检|品控|招聘|猎头|公关|广告|媒体|新媒体|自媒体|剪辑|文案|插画|建筑|装修|"
    r"施工|土木|医药|医疗|护理|科研|研究|审核|仓储|供应链|贸易|餐饮|房地产|证券|基金|银行|程序|软件|硬件|嵌入式|"
    r"芯片|游戏|UI|UX|ui|ux|IT|it|HR|hr)"
)
_JOB_DONE_ZH = re.compile(
    rf"^{ADV_ZH}(?:是|在)?(?:做|搞|干|从事)(?![一个了这那些点])(?P<v>[\u4e00-\u9fffA-Za-z]{{0,4}}?{_FIELDS_ZH})"
    r"(?:工作|方面的工作|相关的?工作|这块|这一?行|这方面)?(?:的)?(?:了|啦)?$"
)
# 我教高中数学, 在一所小学教英语: teaching a subject (or a level) is a teacher's job.
_SUBJECTS_ZH = (
    r"(?:数学|语文|英语|英文|物理|化学|生物|历史|地理|政治|音乐|美术|体育|钢琴|小提琴|吉他|编程|计算机|书法|"
    r"舞蹈|瑜伽|中文|汉语|日语|法语|德语|韩语|绘画|画画|游泳|科学)"
)
_TEACH_ZH = re.compile(
    rf"^{ADV_ZH}(?:在(?P<at>[\u4e00-\u9fff]{{2,12}}?(?:学校|大学|学院|中学|小学|幼儿园|高中|初中|培训机构|机构)))?"
    rf"教(?P<v>(?:高中|初中|小学|大学|中学|幼儿园|高[一二三]|初[一二三]|[一二三四五六]年级)?{_SUBJECTS_ZH}|书)$"
)

_FIELDS_EN = (
    r"(?:sales|marketing|finance|accounting|accountancy|hr|human\s+resources|it|tech|software|engineering|"
    r"design|product|operations|ops|consulting|law|legal|healthcare|health\s+care|education|retail|"
    r"hospitality|construction|insurance|real\s+estate|banking|publishing|media|advertising|pr|"
    r"public\s+relations|logistics|customer\s+(?:service|support)|support|research|data\s+science|"
    r"data|analytics|recruiting|recruitment|admin|administration|government|procurement|compliance|"
    r"nursing|pharma|biotech|journalism|fintech|e-?commerce|security|cybersecurity|qa|devops|"
    r"payroll|tax|audit|investment\s+banking|private\s+equity|venture\s+capital|management\s+consulting)"
)
_WORK_IN_EN = re.compile(
    rf"^(?:(?:am|is|are)\s+{ADV_EN}(?=in\s+(?:[\w-]+\s+){{0,2}}?{_FIELDS_EN}$)|{ADV_EN}(?:work|works|working)\s+)in\s+(?P<v>(?:[\w-]+\s+){{0,2}}?{_FIELDS_EN})"
    r"(?:\s+(?:industry|sector|department|team|field))?(?:\s+(?:at|for)\s+(?P<org>.+))?$",
    re.IGNORECASE,
)
_WORKS_DONE_EN = (
    r"(?:dev|development|design|marketing|sales|accounting|bookkeeping|consulting|research|"
    r"data\s+analysis|data\s+science|data\s+engineering|analytics|ux|ui|qa|testing|recruiting|pr|"
    r"copywriting|translation|tutoring|payroll|it\s+support|tech\s+support|customer\s+support|"
    r"engineering|programming|coding|illustration|animation|photography|videography|editing|"
    r"web\s+design|graphic\s+design|interior\s+design|admin|devops|security|compliance)"
)
_DO_WORK_EN = re.compile(
    rf"^{ADV_EN}(?:do|does)\s+(?!(?:my|our|your|his|her|their|the|some|a|an|this|that|any|no|more|less)\b)"
    rf"(?P<v>(?:[\w-]+\s+){{0,2}}?{_WORKS_DONE_EN})(?:\s+(?:work|stuff))?"
    r"(?:\s+(?:at|for)\s+(?P<org>.+))?$",
    re.IGNORECASE,
)
_SUBJECTS_EN = (
    r"(?:maths?|english|science|physics|chemistry|biology|history|geography|art|music|pe|french|spanish|"
    r"german|chinese|mandarin|japanese|latin|piano|violin|guitar|yoga|pilates|swimming|dance|ballet|"
    r"coding|programming|computer\s+science|economics|literature|esl|efl|special\s+ed(?:ucation)?|"
    r"kindergarten|preschool|(?:first|second|third|fourth|fifth|sixth|\d+(?:st|nd|rd|th))\s+grade|"
    r"year\s+\d+|reception|nursing|law|engineering|statistics|psychology)"
)
_TEACH_EN = re.compile(
    rf"^{ADV_EN}(?:teach|teaches)\s+(?!(?:my|our|his|her|their|him|them|me|you|myself|kids\s+to|people\s+to)\b)"
    rf"(?P<v>(?:[\w-]+\s+){{0,3}}?{_SUBJECTS_EN}(?:\s+and\s+{_SUBJECTS_EN})?)"
    r"(?:\s+(?:at|in)\s+(?P<org>.+))?$"
    # I teach at a primary school, teaches at Hillside Academy: a teacher there.
    r"|^(?:teach|teaches)\s+at\s+(?P<at>(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(?:school|college|university|academy|"
    r"kindergarten|nursery|preschool)|(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,4})$",
    re.IGNORECASE,
)

# Working from home (在家办公, 远程办公, 居家上班) and going in some days (一周去两天公司).
_WEEK_ZH = r"(?:一周|每周|每个?星期|一个?星期|每个?礼拜)"
_DAYS_ZH = r"(?:[一二两三四五]|\d)天"
_REMOTE_ZH = re.compile(
    rf"^{ADV_ZH}(?:全职|完全|基本|基本上|主要|一直|长期)*(?P<per>{_WEEK_ZH})?(?:有)?(?P<n>{_DAYS_ZH})?"
    rf"(?:在家|居家|远程)(?:办公|工作|上班)(?P<n2>{_DAYS_ZH})?$"
)
_HYBRID_ZH = re.compile(
    r"(?:一周|每周|每个?星期|一个?星期|每个?礼拜)(?:只)?(?:要|需要|得)?(?:去|到|进|回)(?P<a>公司|办公室|单位)?"
    r"(?P<n>[一二两三四五]|\d)天(?P<b>公司|办公室|单位)?(?:班)?"
    r"|(?:一周|每周|每个?星期)(?:只)?坐班(?P<n2>[一二两三四五]|\d)天"
)
_REMOTE_EN = re.compile(
    r"^(?:(?:now|currently|still|also|mostly|fully|completely|basically)\s+)*"
    r"(?:work|works|working)\s+(?:(?:fully|mostly|completely|full[- ]time|100%|entirely)\s+)?(?P<how>remotely|remote|from\s+home)"
    r"(?:\s+(?:now|these\s+days|full[- ]time))?$"
    r"|^(?:am|is|are)\s+(?:(?:now|currently|still|fully|mostly|completely|100%|entirely|basically)\s+)*"
    r"(?P<how2>remote|hybrid)(?:\s+(?:now|these\s+days|full[- ]time))?$",
    re.IGNORECASE,
)
_NUMBER_EN = r"(?:one|two|three|four|five|once|twice|\d)"
_HYBRID_EN = re.compile(
    rf"^(?:(?:now|currently|only|just|usually)\s+)*(?:go|goes|am|is|are)\s+(?:in(?:to)?\s+)?(?:the\s+)?(?:office|in)\s+"
    rf"(?P<n>{_NUMBER_EN})(?:\s+(?:days?|times))?\s+(?:a|per|each|every)\s+week$",
    re.IGNORECASE,
)
# How one works is a lasting way of working, not a day's plan: 今天在家办公 is a state.
_ONE_DAY = ("state", "point", "deadline", "until")


class DoingFrames(FactBuilder):
    """A job said as the work one does, and where one works from."""

    def _job_done_zh(self, st: Statement, body: str) -> list[Finding]:
        """我做前端开发, 我在做销售, 我从事金融: the field of work is the job."""
        if st.negated:
            return []
        m = _JOB_DONE_ZH.match(body)
        if m is not None:
            job = w.clean_zh(m["v"])
            return [self._job(st, job, f"{{who}}做{job}", f"{{who}} work in {job}")]
        t = _TEACH_ZH.match(body)
        if t is None:
            return []
        job = "教书" if t["v"] == "书" else f"教{t['v']}"
        out = [self._job(st, job, f"{{who}}{job}", f"{{who}}: teaches {t['v']}")]
        if t["at"] and not re.match(r"^(?:一|这|那|某)?(?:所|家|个)?(?:学校|机构)$", t["at"]):
            at = w.clean_zh(t["at"])
            out.append(self.employer(st, at))
        return out

    def _job_done_en(self, st: Statement, body: str) -> list[Finding]:
        """I work in sales, I do frontend dev, I teach high school maths: the job."""
        if st.negated:
            return []
        m = _WORK_IN_EN.match(body) or _DO_WORK_EN.match(body)
        teach = _TEACH_EN.match(body) if m is None else None
        if m is None and teach is None:
            return []
        if m is not None:
            job = w.clean_en(m["v"])
            if re.match(r"^(?:am|is|are)\b", body, re.IGNORECASE) and (
                job.casefold() == "it" and "IT" not in st.text
            ):
                return []  # I'm in it: no field of work
            verb = "do" if re.match(rf"^{ADV_EN}(?:do|does)\b", body, re.IGNORECASE) else "work in"
            out = [self._job(st, f"{verb} {job}", f"{{who}}做{job}", f"{{who}} {verb} {job}")]
            org_said = m["org"] or ""
        else:
            assert teach is not None
            if teach["at"]:
                out = [self._job(st, "teacher", "{who}是老师", "{who} work as a teacher")]
                org_said = teach["at"]
            else:
                job = w.clean_en(teach["v"])
                out = [self._job(st, f"teach {job}", f"{{who}}教{job}", f"{{who}} teach {job}")]
                org_said = teach["org"] or ""
        org = w.capitalized_phrase(org_said)
        if not org and org_said:
            unnamed = re.match(
                r"^(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:company|startup|start-up|firm|agency|bank|"
                r"hospital|school|shop|store|studio|clinic|charity|nonprofit|university|college)\b",
                org_said,
                re.IGNORECASE,
            )
            org = unnamed.group() if unnamed else ""
        if not org and teach is not None and teach["at"]:
            org = w.clean_en(teach["at"])
        if org:
            out.append(self.employer(st, org))
        return out

    def _job(self, st: Statement, job: str, zh: str, en: str) -> Finding:
        if st.subject.kind == "person":
            en = en.replace("{who} work in", "{who} works in").replace("{who} do ", "{who} does ")
            en = en.replace("{who} teach ", "{who} teaches ").replace(
                "{who} work as", "{who} works as"
            )
        return self.fact(st, "occupation", job, zh, en, category=["个人", "工作"])

    def _work_mode_zh(self, st: Statement, body: str) -> list[Finding]:
        """我在家办公, 一周在家办公三天, 我们公司一周去两天: how the user works."""
        if st.negated or st.subject.kind == "person" or _for_a_day(st):
            return []
        m = _REMOTE_ZH.match(body)
        if m is not None and bool(m["per"]) == bool(m["n"] or m["n2"]):
            days = m["n"] or m["n2"]
            mode = f"每周在家办公{days}" if days else "远程办公" if "远程" in body else "在家办公"
            return [self._mode(st, mode, f"{{who}}{mode}", f"{{who}}: {mode}")]
        h = _HYBRID_ZH.search(body)
        if h is None:
            return []
        # 一周去两天 says where only with the office named, here or as the subject (我们公司).
        office = h["a"] or h["b"] or h["n2"] or re.search(r"公司|单位|办公室", st.text)
        if not office:
            return []
        n = h["n"] or h["n2"]
        mode = f"每周去公司{n}天"
        return [self._mode(st, mode, f"{{who}}{mode}", f"{{who}}: {mode}")]

    def _work_mode_en(self, st: Statement, body: str) -> list[Finding]:
        """I work remotely, I'm fully remote now, I go into the office twice a week."""
        if st.negated or st.subject.kind == "person" or _for_a_day(st):
            return []
        m = _REMOTE_EN.match(body.strip(" .!"))
        if m is not None:
            how = (m["how"] or m["how2"]).casefold()
            mode = "hybrid" if how == "hybrid" else "works from home" if "home" in how else "remote"
            return [self._mode(st, mode, f"{{who}}的工作方式：{mode}", f"{{who}}: {mode} work")]
        h = _HYBRID_EN.match(body.strip(" .!"))
        if h is None:
            return []
        n = h["n"].casefold()
        times = {"once": "one", "twice": "two"}.get(n, n)
        mode = f"hybrid: in the office {times} day{'s' if times not in ('one', '1') else ''} a week"
        return [self._mode(st, mode, f"{{who}}的工作方式：{mode}", f"{{who}}: {mode}")]

    def _mode(self, st: Statement, mode: str, zh: str, en: str) -> Finding:
        return self.fact(
            st,
            "work_mode",
            mode,
            zh,
            en,
            category=["个人", "工作"],
            importance=0.75,
            entities=[mode],
        )


def _for_a_day(st: Statement) -> bool:
    """The clause names a day or a span (今天在家办公, this week I'm remote): a state."""
    return any(t.role in _ONE_DAY and t.text.casefold() not in _NOWADAYS for t in st.times)


# What holds now and on (these days, 现在): no end said.
_NOWADAYS = frozenset({"these days", "nowadays", "now", "currently", "现在", "目前", "如今"})
