"""Frames for the project at hand: technology decisions (数据库用 PostgreSQL, we use
FastAPI, switched to MySQL), technologies dropped, coding rules (提交前必须跑测试), tasks
(TODO, 接下来要…) and work reported done — the decision topics and technology names come
from ``resources/lexicon/tech.json``.
"""

from __future__ import annotations

import re

from ekko_memory.identity import canonical_name
from ekko_memory.models import MemoryNode
from ekko_memory.service.extraction import words as ww
from ekko_memory.service.extraction.findings import Finding, Found, clip, subject_name
from ekko_memory.service.extraction.lexicon import Lexicon
from ekko_memory.service.extraction.statements import Statement

_NEG = re.compile(
    r"别|不要|不想|不吃|不能吃|不能放|忌口|讨厌|不喜欢|不爱吃|不放|不加|去掉|don'?t|do not|no |avoid|without|hate|never"
)
_DECIDE = re.compile(
    r"用|使用|采用|选用|选择|选了|选定|改用|换成|换用|决定|定了|迁移到|锁定?|上\b|\buse\b|\busing\b|decided|\bgo(?:ing)? with|went with|chose|picked|adopt|migrate to"
    r"|settled on|standardi[sz](?:e|ed|ing) on|\bpin(?:ned)? to\b|made the call"
    # switch to, switched the database to: what is switched may stand between.
    r"|\bswitch(?:ed|ing)?(?:\s+[a-z]+){0,2}?\s+to\b"
)
# A technology the project stops using (我们不用 Redis 了, 弃用 MySQL, we stopped using Redis):
# no decision to use it, and the decision that held it expires.
_DROP = re.compile(
    r"不用|不再用|不再使用|弃用|停用|放弃|去掉|移除|拿掉"
    r"|\bstop(?:ped)? using\b|\bno longer (?:use|using)\b|\bnot using\b|\b(?:don'?t|do not) use\b"
    r"|\bdrop(?:ped)?\b|\bremoved?\b|\bget(?:ting)? rid of\b"
)
# What the project moves to after dropping one (不用 PostgreSQL 了，改用 MySQL in one clause).
_SWITCH = re.compile(
    r"改用|换成|换用|改成|转用|迁移到|切换到|换到"
    r"|\b(?:switch(?:ed|ing)?|migrat(?:e|ed|ing)|mov(?:e|ed|ing))(?:\s+[a-z.+#]+){0,3}?\s+to\b"
)
# 是 / is between a decision's topic and a technology: 我们的数据库是 PostgreSQL, our database
# is PostgreSQL — not 不是, 是不是, 是否 or "is not".
_COPULA = re.compile(r"(?<!不)是(?!不是|否)|\b(?:is|are|will be)\b(?!\s+not\b)")
# The role a technology is chosen for: 用 Redis 做缓存, Redis 作为消息队列, Redis as a cache.
_ROLE = re.compile(
    r"(?:做|作为|当作?|用作|用于|来做)\s*([\u4e00-\u9fff]{2,6})"
    r"|\bas (?:an? |the |our )?([a-z]+(?: [a-z]+)?)",
    re.IGNORECASE,
)
_RULE = re.compile(
    r"必须|一定要|不能|不允许|不许|禁止|不要|务必|一律|统一|\bmust\b|\bnever\b|\balways\b|not allowed"
    # every PR needs a linked ticket: what each one requires is a rule too.
    r"|\b(?:every|each|all|any)\b.*\b(?:needs?|requires?|has to|have to|gets?)\b"
)
_CODE = re.compile(
    r"代码|提交|接口|测试|依赖|兼容|版本|类型|注释|日志|API|commit|test|dependenc|compatib|lint|typ|review|merge|PR\b",
    re.IGNORECASE,
)
_TASK = re.compile(
    r"(?:TODO|待办|记一下要|接下来要|下一步要?|需要完成|要做的是|任务[:：]|to-?do:?|next,? i need to)\s*[:：]?\s*(.+)",
    re.IGNORECASE,
)
_DONE = re.compile(
    r"完成了|已完成|已经完成|(?:写|做|改|测|弄|搞|修)(?:完|好)了|finished|done with|completed"
    # Two-character verbs of work (支付模块重构好了, 部署文档整理完了) and 搞定了, 上线了.
    r"|(?:重构|优化|实现|部署|整理|准备|处理|更新|迁移|升级|配置|测试|修复|编写)(?:完|好)了"
    r"|搞定了|上线了|合并了"
    r"|\b(?:is|are|was|were|all) done\b"
)


def work_done(text: str) -> bool:
    """The words report work done (写完了, 支付模块重构好了, finished, all done)."""
    return bool(_DONE.search(text.casefold()))


# The version said right after a technology (Go 1.22, Node 版本锁 20, Python 3.12, Java 21).
_VERSION = re.compile(
    r"\s*(?:(?:版本|version)(?:\s*(?:锁定?|固定|是|为|用|=|is|pinned|locked|set|to|at)\b)*\s*)?"
    r"v?(\d+(?:\.\d+){0,2})(?![\d.]*[%a-z])",
    re.IGNORECASE,
)


def _version_after(clause: str, name: str) -> str:
    """ " 1.22" when the clause gives the technology's version right after its name."""
    at = clause.casefold().find(name.casefold())
    if at < 0:
        return ""
    m = _VERSION.match(clause, at + len(name))
    return f" {m.group(1)}" if m else ""


_KEY_LABEL = {
    "database": ("数据库", "Database"),
    "framework": ("框架", "Framework"),
    "language": ("编程语言", "Language"),
    "deployment": ("部署", "Deployment"),
    "ci": ("CI", "CI"),
    "testing": ("测试框架", "Test framework"),
    "package_manager": ("包管理", "Package manager"),
    "runtime": ("运行时", "Runtime"),
    "design_tool": ("设计工具", "Design tool"),
    "messaging": ("消息队列", "Messaging"),
}


# The topic said before the verb that chooses (缓存统一用 Redis, 搜索这块用 Elasticsearch):
# the role the technology is chosen for, like 用 Redis 做缓存.
_TOPIC_BEFORE_ZH = re.compile(
    r"(?:^|决定|定了|说好|同意|拍板|规定|[，,：:的])\s*(?P<topic>[\u4e00-\u9fff]{2,4}?)"
    r"(?:这块|这边|方面|这层|层)?(?:统一|全部|全都|一律|都|就|也|还是|继续|以后|今后|暂时|先)*"
    r"(?:用|使用|采用|选用|改用|换成|走)\s*$"
)
# use Redis for caching; for search we're going with Elasticsearch.
_FOR_ROLE_EN = re.compile(
    r"^\s+for\s+(?:the\s+|our\s+|all\s+)?(?P<topic>[a-z]+(?:\s+[a-z]+)?)\b", re.I
)
_FOR_TOPIC_EN = re.compile(
    r"\bfor\s+(?:the\s+|our\s+)?(?P<topic>[a-z]+(?:\s+[a-z]+)?),?\s+(?:we(?:'re|'ll|\s+are|\s+will)?\s+)?"
    r"(?:use|using|go with|going with|standardi[sz]e on|standardi[sz]ing on|settled on|picked|chose)\s*$",
    re.I,
)
# What scopes a choice rather than naming a role (下个版本用, 新项目用, 以后都用, for now).
_NO_ROLE = re.compile(
    r"版本|项目|系统|服务|工程|仓库|以后|今后|我们|咱们|大家|团队|组里|公司|这次|下次|接下来|后面|全部|整体|统一|决定|还是|现在|目前|之后"
    r"|\b(?:now|project|projects|everything|all|rest|this|that|it|new|service|services|app|apps|version|versions|release|releases|repo|codebase|module|modules|team)\b",
    re.I,
)


# A name of software no list holds: capitalized or with capitals inside (Zustand, gRPC, UTC).
_NAME = r"(?-i:[A-Z][A-Za-z0-9]*[A-Za-z0-9+#]|[a-z]+[A-Z][A-Za-z0-9]*)(?:[.-][A-Za-z0-9]+)?"
# 状态管理用 Zustand, 时间统一用 UTC 存: the name right after the verb that chooses.
_CHOSEN_ZH = re.compile(
    r"(?:统一|全部|全都|一律|都|就|也|还是|以后|今后|决定|定了)*(?:用|使用|采用|选用|改用|换成|上|走)\s*(?P<name>"
    + _NAME
    + ")"
)
_CHOSEN_EN = re.compile(
    r"\b(?:going with|go with|went with|chose|choose|picked|settled on|standardi[sz]\w*\s+on"
    r"|switch\w*\s+to|migrat\w*\s+to|moving to|adopt\w*|(?:shipping|building|writing)\s+(?:[\w-]+\s+){0,4}?(?:with|in|on))"
    r"\s+(?:the\s+)?(?P<name>"
    + _NAME
    + r")|^\s*(?:and\s+|also\s+)?(?P<name2>"
    + _NAME
    + r")\s+for\s+(?:all|every|the|our)\b",
    re.IGNORECASE,
)
# Capitalized words that name no software.
_NOT_TECH = ww.CALENDAR_EN | ww.LANGUAGES_EN | frozenset({"i", "ok", "okay", "the", "a", "an"})


def _role_said(clause: str, lexicon: Lexicon) -> str | None:
    """The role a clause gives its technology: after it (用 Redis 做缓存, Redis as a cache,
    use Redis for caching) or as the topic before the verb (缓存统一用 Redis)."""
    tech = lexicon.find_tech(clause)
    if len(tech) != 1:
        m = _ROLE.search(clause)
        return (m.group(1) or m.group(2)).strip() if m is not None else None
    return _role_around(clause, tech[0][0])


def _role_around(clause: str, name: str) -> str | None:
    """The role the words around ``name`` give it (缓存统一用 Redis, Redis for caching)."""
    m = _ROLE.search(clause)
    if m is not None:
        return (m.group(1) or m.group(2)).strip()
    at = clause.casefold().find(name.casefold())
    if at < 0:
        return None
    before, after = clause[:at], clause[at + len(name) :]
    for found in (
        _TOPIC_BEFORE_ZH.search(before),
        _FOR_TOPIC_EN.search(before),
        _FOR_ROLE_EN.match(after),
    ):
        if found is not None and not _NO_ROLE.search(found["topic"]):
            return found["topic"].strip()
    return None


class ProjectFrames:
    """Reads a clause for the project's decisions, rules and tasks."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon

    def _other_role(self, clause: str, key: str) -> str | None:
        """The role a clause gives a technology when no decision key names it (用 Redis
        做缓存, 缓存统一用 Redis, use Redis for caching: 缓存 / caching), else None — 用
        PostgreSQL 做数据库 and 用 Python 做后端 stay the technology's own decision."""
        role = _role_said(clause, self.lexicon)
        if role is None:
            return None
        folded = role.casefold()
        # Latin key words as whole words (ci is no part of "specific"), Chinese ones anywhere.
        words = set(folded.split())
        for w in (w.casefold() for ws in self.lexicon.key_words.values() for w in ws):
            if (w in words) if w.isascii() else (w in folded):
                return None
        if any(folded in w.casefold() for w in self.lexicon.key_words.get(key, ())):
            return None
        return role

    def _role_key(self, clause: str, key: str) -> str | None:
        """The other decision key a clause's role names (Redis 作为消息队列: messaging); a
        topic before the verb (后端统一用 Go) scopes the choice, and keeps its key."""
        m = _ROLE.search(clause)
        if m is None:
            return None
        folded = (m.group(1) or m.group(2)).strip().casefold()
        for other, words in self.lexicon.key_words.items():
            if other != key and any(
                (w.casefold() in folded.split()) if w.isascii() else (w in folded) for w in words
            ):
                return other
        return None

    def _dropped(
        self, clause: str, tech: list[tuple[str, str]], known: list[MemoryNode], found: Found
    ) -> list[tuple[str, str]]:
        """The technologies a clause chooses, in the order said. The ones it drops are not
        chosen and their decisions expire: those named between the drop word and a switch
        (我们不用 Redis 了; 不用 PostgreSQL 了改用 MySQL keeps MySQL; 用 PostgreSQL 不用 MySQL
        keeps PostgreSQL), else the ones before it (Redis 弃用了). The ones a clause switches
        away from are not chosen either (从 PostgreSQL 迁移到 MySQL, from Flask to FastAPI):
        the one switched to replaces their decision."""
        folded = clause.casefold()
        at = {name: folded.find(name.casefold()) for name, _ in tech}
        said = sorted(tech, key=lambda t: at[t[0]])
        drop = _DROP.search(folded)
        if drop is None:
            switch = _SWITCH.search(folded)
            after = [t for t in said if switch is not None and at[t[0]] >= switch.end()]
            return after or said
        switch = _SWITCH.search(folded, drop.end())
        cut = switch.start() if switch else len(folded)
        gone = {name for name, _ in tech if drop.end() <= at[name] < cut} or {
            name for name, _ in tech if at[name] < drop.start()
        }
        for name in gone:
            for node in known:
                if (
                    node.type == "decision"
                    and node.status == "active"
                    and subject_name(node) == canonical_name(name)
                ):
                    found.add("expire", f"the project no longer uses {name}", target_id=node.id)
        return [t for t in said if t[0] not in gone]

    def _named_choice(self, clause: str, sentence: str, found: Found, src: list[str]) -> bool:
        """A technology no list names, chosen by a team at work (状态管理用 Zustand, 时间统一用
        UTC 存, we're shipping the app with Flutter instead of native, Terraform for all
        infra): a choice of the project, under the role said before it if any. Only where
        the sentence speaks of a team's software or its decisions, never a thing the user
        owns or uses (我用 iPhone, I use Obsidian)."""
        if not (
            (about_project(sentence, self.lexicon) or _WORK_DECIDERS.search(sentence))
            and (_TEAM_WHO.search(sentence) or _DECIDED.search(sentence))
        ):
            return False
        if _ABOUT_ME.search(clause) or _UNDECIDED.search(sentence):
            return False
        m = _CHOSEN_ZH.search(clause) or _CHOSEN_EN.search(clause)
        if m is None:
            return False
        name = (m["name"] or m.groupdict().get("name2") or "").strip()
        at = m.start("name") if m["name"] else m.start("name2")
        if (
            name.casefold() in _NOT_TECH
            or _NEG.search(clause[: m.start()].casefold())
            or _DROP.search(clause[:at].casefold())
        ):
            return False
        role = _role_around(clause, name)
        label = role or found.t("技术选型", "Tech choice")
        found.add(
            "create",
            "a project decision the user stated",
            domain="项目",
            type="decision",
            key="tech_choice",
            value_json=name,
            title=found.t(f"{label}使用 {name}", f"{label}: {name}"),
            content=clip(clause, 200),
            tags=["技术选型"],
            entities=[name],
            source_message_ids=src,
            confidence=0.85,
            importance=0.8,
        )
        return True

    def _stated(self, folded: str, tech: list[tuple[str, str]]) -> bool:
        """The clause says what a decision is: its topic word, then 是/is, then the name
        (我们的数据库是 PostgreSQL, our database is PostgreSQL; not "PostgreSQL is slow", nor
        the question 数据库是 PostgreSQL 吗)."""
        if re.search(r"[吗么呢]\s*$", folded):
            return False
        for name, key in tech:
            at = folded.find(name.casefold())
            for word in self.lexicon.key_words.get(key, ()):
                w = word.casefold()
                found = (
                    re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", folded)
                    if w.isascii()
                    else re.search(re.escape(w), folded)
                )
                if found and found.end() <= at and _COPULA.search(folded[found.end() : at]):
                    return True
        return False

    def read(
        self,
        clause: str,
        src: list[str],
        known: list[MemoryNode],
        found: Found,
        sentence: str = "",
    ) -> None:
        """The project's decision, rule, task or work done that ``clause`` states;
        ``sentence``, the one it is part of, says whether it speaks of a team's work."""
        folded = clause.casefold()
        tech = self.lexicon.find_tech(clause)
        if not tech and sentence and self._named_choice(clause, sentence, found, src):
            return
        if tech:
            tech = self._dropped(clause, tech, known, found)
            if not tech:
                return
        decided = _DECIDE.search(folded) or _SWITCH.search(folded) or self._stated(folded, tech)
        if tech and decided and not _NEG.search(folded):
            # One decision per key, the first said (我们用 FastAPI 和 PostgreSQL: both).
            chosen: dict[str, str] = {}
            for name, key in tech:
                chosen.setdefault(key, name)
            for key, name in chosen.items():
                # A role (用 Redis 做缓存) belongs to the clause's one technology.
                role = self._other_role(clause, key) if len(chosen) == 1 else None
                serves = self._role_key(clause, key) if len(chosen) == 1 else None
                if role is not None:
                    # Redis as the cache: a choice of its own, beside the database.
                    key, label = "tech_choice", role
                elif serves is not None:
                    # Redis 作为消息队列: the messaging decision, not the database.
                    key = serves
                    label = found.t(*_KEY_LABEL.get(key, (key, key)))
                else:
                    label = found.t(*_KEY_LABEL.get(key, (key, key)))
                shown = name + _version_after(clause, name)
                found.add(
                    "create",
                    "a project decision the user stated",
                    domain="项目",
                    type="decision",
                    key=key,
                    value_json=name,
                    title=found.t(f"{label}使用 {shown}", f"{label}: {shown}"),
                    content=clip(clause, 200),
                    tags=["技术选型"],
                    entities=[name],
                    source_message_ids=src,
                    confidence=0.9,
                    importance=0.8,
                )
            return
        if _RULE.search(folded) and _CODE.search(clause):
            found.add(
                "create",
                "a project rule the user stated",
                domain="项目",
                type="constraint",
                key="coding_rule",
                value_json=clip(clause, 200),
                title=clip(clause),
                content=clause,
                tags=["约束"],
                source_message_ids=src,
                confidence=0.9,
                importance=0.8,
            )
            return
        if _DONE.search(folded):
            for task in known:
                if (
                    task.type == "task"
                    and task.status == "active"
                    and names_same_work(task.title, clause)
                ):
                    found.add("expire", "the user said the task is done", target_id=task.id)
            return
        m = _TASK.search(clause)
        if m and m.group(1).strip():
            what = clip(m.group(1), 60)
            found.add(
                "create",
                "a task the user mentioned",
                domain="项目",
                type="task",
                key="task_status",
                value_json={"task": what, "status": "todo"},
                title=what,
                content=clause,
                tags=["任务"],
                source_message_ids=src,
                confidence=0.85,
                importance=0.7,
            )


_TASK_VERB = re.compile(
    r"^(?:修复|完成|实现|处理|整理|准备|更新|添加|编写|写|做|改|修|搞|弄)(?=[\u4e00-\u9fff]{2})"
)


# Latin words that name no piece of work ("the" is in every sentence).
_STOPWORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "this",
        "that",
        "these",
        "those",
        "are",
        "was",
        "were",
        "our",
        "all",
        "from",
        "into",
        "onto",
        "about",
        "some",
        "any",
        "its",
        "their",
        "your",
        "then",
        "than",
        "also",
        "just",
    ]
)


def _work_words(title: str) -> set[str]:
    """A latin task title's words that name the work: no stop words, and no leading verb
    when more follows (fix the login timeout: login, timeout)."""
    words = [w for w in re.findall(r"[a-z0-9]{3,}", title.casefold()) if w not in _STOPWORDS]
    return set(words[1:] if len(words) > 1 else words)


def names_same_work(title: str, clause: str) -> bool:
    """A task title and a clause share a word of the work (a latin word, whole), or the
    title's object (the title without its leading verb) and the clause share two
    2-character pieces — one when the object is a single word (文档 of 写文档)."""
    words = _work_words(title)
    cjk = re.findall(r"[\u4e00-\u9fff]+", _TASK_VERB.sub("", title.strip()))
    grams = {run[i : i + 2] for run in cjk for i in range(len(run) - 1)}
    folded = clause.casefold()
    need = min(2, len(grams))
    said = set(re.findall(r"[a-z0-9]+", folded))
    return bool(words & said) or (need > 0 and sum(g in clause for g in grams) >= need)


# A rule or decision of a team (团队新规矩：…, 我们组定了个规矩：…, 架构评审的结论：…, new team rule:
# …, we're standardizing on …): what follows is the rule, in the user's words.
_TEAM_LEAD = re.compile(
    r"(?:新)?(?:规矩|规定|规则|约定|章程|纪律)|结论|决定了?|定了|定下来|拍板|统一(?:用|使用|成)|一律|以后都|商量好了?|说好了?|定好了?"
    r"|(?:评审|审批|投票|会议|review)\s*(?:通过|过)了|批(?:准)?了"
    r"|\b(?:rule|rules|policy|decision|decided|agreed|voted|signed off|ruled|standardi[sz]ing|standardi[sz]ed|convention|going forward|from now on|as of today)\b",
    re.IGNORECASE,
)
# Who decides for a team at work: the team, those who lead it, the meeting where it was
# settled (leadership decided…, 领导拍板了…, 架构评审过了…, after the retro we decided…).
_WORK_DECIDERS = re.compile(
    r"团队|组里|组内|我们组|小组|组长|部门|公司|领导|老板|管理层|高层|总监|主管|架构组?|评审|委员会|技术负责人|负责人|会上|组会|周会|例会|站会|晨会|开会|会议|复盘|全员"
    r"|\b(?:team|squad|leadership|management|boss|execs?|executives?|cto|ceo|vp|director|org|engineering|committee|board|retro|retrospective|standup|stand-up|all-hands|meeting"
    r"|tech lead|team lead|product|design|legal|security|qa|ops|infra|platform|review)\b",
    re.IGNORECASE,
)
_TEAM_WHO = re.compile(
    r"团队|我们|咱们|组里|我们组|部门|公司|项目|架构|评审|会上|周会|例会|大家|全员|所有人|所有|店里|店|生意|工作室|家里|\b(?:team|we|we're|our|everyone|everybody|all|company|org|repo|project|meeting|arch|standup|stand-up|business|shop|store|studio|practice|firm|clients?|household)\b"
    rf"|{_WORK_DECIDERS.pattern}",
    re.IGNORECASE,
)


# A decision not made (yet): 还没定, 没商量好, we haven't decided, still deciding.
_UNDECIDED = re.compile(
    r"(?:还|都|也)?(?:没|没有|未)(?:最后|最终)?(?:决定|定|商量好|商量出|定下来|拍板)|未定|待定"
    r"|\b(?:haven'?t|hasn'?t|have\s+not|has\s+not|didn'?t|did\s+not|not|never)\s+(?:\w+\s+)?(?:decided|agreed|settled)\b"
    r"|\b(?:undecided|still\s+deciding|can'?t\s+decide|not\s+sure\s+yet|up\s+in\s+the\s+air)\b",
    re.IGNORECASE,
)
_DECIDED = re.compile(
    r"决定|定了|定下来|拍板|结论|统一|\b(?:decided|decision|standardi[sz]|agreed|going with|chose|picked|signed off|approved|voted)",
    re.IGNORECASE,
)
_RULE_WORDS = re.compile(
    r"规矩|规定|规则|纪律|必须|一律|不允许|不准|不许|禁止|不能|不得|只能|只在|至少|\b(?:rule|must|never|always|no\s+\w+|only|at least|not allowed)\b",
    re.IGNORECASE,
)


# …, remember that for this project: the request is no part of the rule.
_REQUEST_TAIL = re.compile(
    r"[，,;；\s]+(?:请|帮我)?(?:记住|记一下|记下|记得|记着)(?:了|哦|啊|吧|这个|这点)?[。.!！]*$"
    r"|[,;\s]+(?:please\s+)?(?:remember|keep)(?:\s+(?:that|this|it))?(?:\s+in mind)?"
    r"(?:\s+for\s+(?:this|the|our)\s+(?:project|repo|repository|codebase))?[.!]*$",
    re.IGNORECASE,
)


# The user as the one it is about (我老板同意我下周请假, my boss agreed I can leave early):
# a plan of the user's, not a rule of the team.
_ABOUT_ME = re.compile(r"我(?!们)|\b(?:i|i'm|i'd|i'll|me|my)\b", re.IGNORECASE)
# A rule said to hold from now on (以后, 一律, from now on, nobody…): one the team goes by.
_STANDING = re.compile(
    r"以后|今后|往后|从今|一律|所有|全部|每次|任何|都要|必须|不准|禁止|不得"
    r"|\b(?:from now on|going forward|always|never|every|all|any|no one|nobody|must|no\s+\w+)\b",
    re.IGNORECASE,
)


# One who leads the work, telling a rule (组长说了，…; our lead said …).
_TOLD_RULE = re.compile(
    r"(?:组长|老板|领导|主管|总监|负责人|经理|老大)(?:刚|又|特意)?(?:说|讲|通知|宣布|强调|交代)(?:了|过)?"
    r"|\b(?:lead|boss|manager|cto|director|leadership|management)\s+(?:just\s+)?(?:said|announced|told us|made it clear)\b",
    re.IGNORECASE,
)


def decided_by_team(st: Statement, lexicon: Lexicon) -> bool:
    """The clause tells a decision a team at work made (leadership decided no deploys on
    Fridays; 组里商量好了，每周四发版; after the retro we decided to freeze code on
    Wednesdays; 老板说以后合并代码必须有人 review): the project's decision or rule, read
    before anything the same words would say of the user's own week."""
    if st.question or st.hypothetical:
        return False
    if st.subject.kind == "person" and not _WORK_DECIDERS.search(st.subject.person):
        return False  # 我老公的公司…: someone of the user's life, not their team
    sentence = st.sentence
    if _UNDECIDED.search(sentence) or not _WORK_DECIDERS.search(sentence):
        return False
    if _DONE.search(sentence.casefold()) or "搞定" in sentence:
        return False  # 预算那个搞定了，老板也看过了: work reported done
    if st.reported:
        # Words of the one who leads the team: a rule only when it is one for good, of
        # the work (老板说以后代码合并前必须有两个人 review), not the user's errand.
        return (
            bool(_WORK_DECIDERS.search(st.subject.relation or st.subject.name))
            and bool(_RULE_WORDS.search(st.body) and _STANDING.search(st.body))
            and about_project(st.body, lexicon)
            and not _ABOUT_ME.search(st.body)
        )
    verdict = _TEAM_LEAD.search(sentence) or _DECIDED.search(sentence)
    if verdict is None:
        # 组长说了，周五之后不许再合代码: a rule of the work, told by one who leads it.
        told = _TOLD_RULE.search(sentence)
        return (
            told is not None
            and bool(_RULE_WORDS.search(sentence[told.end() :]))
            and about_project(sentence, lexicon)
            and not _ABOUT_ME.search(sentence[told.end() :])
        )
    return not _ABOUT_ME.search(sentence[verdict.end() :])


# A clause about the team's own doing (our code reviews…, 我们组每周…).
_OURS = re.compile(r"^(?:and\s+)?(?:our|we|we're)\b|^(?:我们|咱们|组里|团队|我们组)", re.IGNORECASE)


def team_routine(st: Statement, lexicon: Lexicon) -> Finding | None:
    """A routine of the team's work (our code reviews happen on Tuesdays and Thursdays now;
    我们组每周三下午做 code review): how the project is run, the workspace's — not the
    user's own week (we go hiking every Sunday stays theirs)."""
    if st.question or st.hypothetical or st.reported or st.negated:
        return None
    if not any(t.role == "recurring" for t in st.times):
        return None
    if not (st.subject.kind == "we" or _OURS.match(st.text.strip())):
        return None
    if not about_project(st.text, lexicon) or _ABOUT_ME.search(st.text):
        return None
    said = clip(_REQUEST_TAIL.sub("", st.text.strip()), 200)
    return _team_finding(st, said, rule=True)


def team_rule(
    st: Statement, *, by_team: bool = False, lexicon: Lexicon | None = None
) -> Finding | None:
    """A rule or decision the user's team made (所有 PR 至少两个人 approve 才能合; no direct
    pushes to main): a workspace constraint in the user's words. ``by_team``: the sentence
    tells what a team at work decided (``decided_by_team``), so any clause of it carries
    the decision (组里商量好了，每周四发版: the second clause too), and the words of one who
    leads it (老板说以后…必须…) are its rule."""
    if by_team and st.reported:
        said = clip(_REQUEST_TAIL.sub("", st.sentence.strip()), 200)
        return _team_finding(st, said, rule=True)
    if (
        lexicon is not None
        and not lexicon.find_tech(st.text)
        and lexicon.find_tech(st.sentence.replace(st.text, " ", 1))
    ):
        # 架构评审过了，缓存统一用 Redis: the clause with the technology says the decision;
        # the one that says who decided adds nothing of its own.
        return None
    if not by_team and (
        (
            st.subject.kind == "person"
            # our team voted…, leadership decided…: a decider at work, not a person of the
            # user's life; my boss agreed I can leave early: the user's own plan.
            and (not _WORK_DECIDERS.search(st.subject.person) or _ABOUT_ME.search(st.body))
        )
        or st.question
        or st.hypothetical
        or (st.negated and not _TEAM_LEAD.search(st.sentence))
    ):
        return None
    sentence = _REQUEST_TAIL.sub("", st.sentence.strip())
    lead = _TEAM_LEAD.search(sentence if by_team else st.text)
    if not (lead and _TEAM_WHO.search(sentence)):
        return None
    if _UNDECIDED.search(sentence):
        return None  # we haven't decided yet, 还没定下来: no decision made
    said = clip(sentence, 200)
    if len(said) < 6:
        return None
    # 我们决定用 SQLAlchemy 2: a decision; 周五一律不上线: a rule to follow.
    return _team_finding(
        st, said, rule=not (_DECIDED.search(sentence) and not _RULE_WORDS.search(sentence))
    )


def _team_finding(st: Statement, said: str, *, rule: bool) -> Finding:
    """A team's decision, or the rule it goes by, in the user's words (the workspace's)."""
    if not rule:
        return Finding(
            type="decision",
            domain="项目",
            category=["项目", "决策"],
            key="team_decision",
            value=said,
            title=clip(said, 60),
            content=said,
            statement=st,
            scope="workspace",
            tags=["决策" if st.zh else "decision"],
            entities=[],
            confidence=0.9,
            importance=0.8,
            reason="a decision of the user's team",
        )
    return Finding(
        type="constraint",
        domain="项目",
        category=["项目", "约定"],
        key="team_rule",
        value=said,
        title=clip(said, 60),
        content=said,
        statement=st,
        scope="workspace",
        tags=["约定" if st.zh else "team rule"],
        entities=[],
        confidence=0.9,
        importance=0.85,
        reason="a rule or decision of the user's team",
    )


# A clause that announces decisions, the colon after it opening them (装修方案跟老婆商量定了：…;
# 婚礼的事我们定了：…; We decided on the trip: …; what we agreed: …).
_DECISION_LEAD = re.compile(
    r"(?:商量|讨论|研究|说|敲|确)?(?:定了|好了|定下来了?)$|(?:决定|拍板)了?$"
    r"|\b(?:decided|agreed|settled)(?:\s+on)?(?:\s+[\w' ]{1,30})?$|\bthe plan is$"
    r"|\b(?:made|reached)\s+(?:the|a|our)\s+(?:call|decision)$|\bmade\s+up\s+our\s+minds?$",
    re.IGNORECASE,
)
# Who the decision was made with, and the one who made it (跟老婆, 我们, we): not its topic.
_LEAD_WHO = re.compile(
    r"(?:跟|和|与)[\u4e00-\u9fff]{1,4}?(?=商量|讨论|研究|合计|开会|说|定|决定)|(?:我们|咱们|咱|我)俩?|俩"
    r"|^\s*(?:we|i|my \w+ and i)\s+",
    re.IGNORECASE,
)
# A clause that chooses (用, 做, 只请; an English clause names its choice): not its reason
# (油烟太大 says why the one before it was chosen).
_CHOOSES = re.compile(
    r"用|做|选|买|装|要|改|换|走|去|住|办|请|订|定|留|放|铺|刷|只|全|都|不|没有|别|改成|[a-z]",
    re.IGNORECASE,
)
_DECISION_END = re.compile(
    r"(?:商量|讨论|研究|合计|开会|说|敲|确)?(?:完了|定了|好了|定下来了?)$|(?:决定|拍板)了?$"
)


_AND = re.compile(r"^(?:and|also|then|plus)\s+|^(?:还有|另外|而且|然后|并且)", re.IGNORECASE)


_SOFTWARE = re.compile(
    r"接口|发版|上线|部署|迭代|分支|代码|需求评审"
    r"|\b(?:REST|GraphQL|deploys?|deployments?|releases?|sprints?|branch(?:es)?|repo|codebase|backend|frontend|staging|prod)\b",
    re.IGNORECASE,
)


def about_project(text: str, lexicon: Lexicon) -> bool:
    """The words are about a piece of software (a technology, code, tests, an API)."""
    return bool(lexicon.find_tech(text) or _CODE.search(text) or _SOFTWARE.search(text))


# A clause that only says a decision was made (跟家里商量完了, 最后决定了, we agreed): what
# follows its comma is the decision.
_BARE_LEAD = re.compile(
    r"^(?:(?:跟|和|与)[\u4e00-\u9fff]{1,4}?|我们|咱们|我俩|我)?(?:最后|最终|终于)?"
    r"(?:商量|讨论|合计|研究|开会)(?:完|好|定)?了$"
    r"|^(?:(?:跟|和|与)[\u4e00-\u9fff]{1,4}?|我们|咱们|我俩|我)?(?:最后|最终|终于|总算)?(?:还是)?"
    r"(?:决定|拍板|定|说定|敲定|确定)(?:下来)?了$|^(?:事情|这事儿?|那事儿?)(?:最后|终于|总算)?(?:定|定下来|敲定)了$"
    r"|^(?:(?:we|i|my \w+ and i)\s+)?(?:finally\s+|eventually\s+|just\s+)?(?:decided|agreed|settled\s+it|sorted\s+it\s+out|made\s+(?:the|a|our)\s+(?:call|decision)|made\s+up\s+our\s+minds?)$"
    r"|^(?:ok(?:ay)?\s+|so\s+|well\s+)?(?:it'?s|it\s+is|that'?s|all)\s+(?:finally\s+)?(?:settled|decided|official)(?:\s+then)?$"
    r"|^(?:decision|verdict)\s+(?:is\s+)?(?:made|in)$",
    re.IGNORECASE,
)


def decision_lead(st: Statement) -> bool:
    """The clause announces decisions that follow its colon (装修方案跟老婆商量定了：…), or that
    follow its comma when it says nothing but that (跟家里商量完了，今年春节不回老家了)."""
    after = st.sentence[st.sentence.find(st.text) + len(st.text) :].lstrip()
    said = st.text.strip(" .!。！")
    if after[:1] in (":", "："):
        return bool(_DECISION_LEAD.search(said))
    return after[:1] in (",", "，") and bool(_BARE_LEAD.match(said))


# A clause that says what was decided about a topic (最后客厅定了铺瓷砖, 婚礼决定在老家办): not
# 定了个闹钟 (a thing set), 定了吗 (a question) or 定了一家店 (a booking).
_DECIDED_IN = re.compile(
    r"^(?:最后|最终|终于|还是|已经)?(?P<topic>[\u4e00-\u9fff]{2,8}?)(?:最后|最终|还是)?"
    r"(?:定了|决定了?|拍板了?|选定了)(?P<what>(?![个一了吗没好下])[\u4e00-\u9fffA-Za-z0-9].{1,30})$"
)


def decided_in_clause(
    st: Statement, after: list[Statement], project: bool
) -> tuple[Finding, list[Statement]] | None:
    """The decision one clause states (最后客厅定了铺瓷砖) with the reasons said right after it
    (木地板太难打理了), and the clauses taken as those reasons."""
    if st.question or st.hypothetical or st.reported or st.times:
        return None
    m = _DECIDED_IN.match(st.text.strip(" .!。！"))
    if m is None or _LEAD_WHO.fullmatch(m["topic"]):
        return None
    reasons: list[Statement] = []
    for other in after:
        if other.index != st.index + 1 + len(reasons) or _CHOOSES.search(other.text):
            break
        reasons.append(other)
    topic = _LEAD_WHO.sub("", m["topic"]) or m["topic"]
    words = "，".join([m["what"], *(r.text.strip(" .!。！") for r in reasons)])
    return _decision(f"{topic}：{words}", st.text, st, project), reasons


def listed_decisions(lead: Statement, items: list[Statement], project: bool) -> list[Finding]:
    """The decisions a lead announces, each in the user's words after its topic (装修方案：
    地板全用实木的); a clause choosing nothing (油烟太大) is the reason of the one before."""
    topic = _DECISION_END.sub("", _LEAD_WHO.sub("", lead.text.strip(" .!。！")))
    topic = re.sub(
        r"\b(?:it'?s|that'?s|finally|eventually|just|it)(?![\w'])|\b(?:decided|agreed|settled)(?:\s+on)?\s*"
        r"|\b(?:made|reached)\s+(?:the|a|our)\s+(?:call|decision)|\bmade\s+up\s+our\s+minds?"
        r"|^(?:最后|最终|终于|总算|还是)+|(?:最后|最终|终于|总算)$",
        "",
        topic,
        flags=re.IGNORECASE,
    ).strip(" ,，的事")
    said: list[tuple[Statement, str]] = []
    for st in items:
        if st.question or st.hypothetical or st.reported:
            continue
        words = _AND.sub("", st.text.strip(" .!。！"))
        if said and not _CHOOSES.search(words):
            first, before = said[-1]
            said[-1] = (first, f"{before}，{words}" if lead.zh else f"{before}, {words}")
        elif words:
            said.append((st, words))
    return [
        _decision(
            (f"{topic}：{words}" if lead.zh else f"{topic}: {words}") if topic else words,
            f"{lead.text}：{words}" if lead.zh else f"{lead.text}: {words}",
            st,
            project,
        )
        for st, words in said
    ]


def _decision(value: str, content: str, st: Statement, project: bool) -> Finding:
    """A decision in the user's words: the project's (workspace) or the user's own."""
    return Finding(
        type="decision",
        domain="项目" if project else "个人",
        category=["项目", "决策"] if project else ["个人", "决定"],
        key="team_decision" if project else "personal_decision",
        value=clip(value, 200),
        title=clip(value, 60),
        content=clip(content, 200),
        statement=st,
        scope="workspace" if project else "user",
        tags=["决策" if st.zh else "decision"],
        entities=[],
        confidence=0.9,
        importance=0.75,
        reason="a decision the user announced",
    )
