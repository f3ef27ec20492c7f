"""Frames for what the user is working towards: a goal with its horizon or said as a goal
(想三年内攒够首付, 今年的小目标是减掉十斤, my goal this year is to run a half marathon, I'm
saving up for a house). Kept in the user's words; several may stand at once."""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import FactBuilder
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement

# Said as a goal: 目标/小目标/心愿/梦想 是 …
_NAMED_GOAL_ZH = re.compile(
    r"^(?:的)?(?:今年|明年|这辈子|人生)?(?:的)?(?:小目标|目标|心愿|梦想|愿望|flag)(?:就)?是(?P<v>.{2,30})$"
    # 攒钱买车是我今年最大的目标: the goal first.
    r"|^(?P<v2>[\u4e00-\u9fffA-Za-z0-9]{2,20}?)(?:就)?是(?:我)?(?:今年|明年|这辈子)?(?:的)?(?:最大的|唯一的)?(?:小目标|目标|心愿|梦想)$"
)
# A wish with its horizon and a verb of reaching (想三年内攒够首付, 打算明年考研, 争取年底前还清).
_HORIZON_ZH = (
    r"(?:在)?(?:[一二三四五六七八九十两几\d]+年(?:内|之内|以内)?|今年(?:内|之内)?|明年|后年|年底前|年内|"
    r"[一二三四五六七八九十两几\d]+岁(?:前|之前|以前)|退休前|毕业前|三十岁前)"
)
_REACH_ZH = (
    r"(?:攒够|攒到|存够|存到|攒|存|考上|考过|考到|考研|考公|考证|考下|考个|考一个|拿个|减掉|减到|瘦到|瘦|学会|学完|跑完|跑进|"
    r"买上|买到|买房|买车|还清|还完|拿到|升到|转行|出国|移民|创业|戒掉|写完|读完)"
)
_WISH_ZH = re.compile(
    rf"^(?:我)?(?:想|打算|计划|准备|争取|希望|决心|立志|目标是)(?P<h>{_HORIZON_ZH})"
    rf"(?P<v>(?:把[\u4e00-\u9fffA-Za-z0-9]{{1,8}}?)?{_REACH_ZH}.{{0,20}})$"
)
_GOAL_EN = re.compile(
    r"^(?:'s\s+|my\s+|our\s+)?(?:(?:big|main|biggest|new\s+year'?s?)\s+)?(?:goal|dream|resolution)(?:\s+(?:this|for\s+(?:this|next)|next)\s+year)?\s+is\s+to\s+(?P<v>.{3,60})$"
    r"|^(?:(?:am|'m|are|'re)\s+)?(?:saving|saving\s+up|putting\s+money\s+aside|training)\s+for\s+(?P<v2>.{3,40})$"
    r"|^(?:want|hope|plan|aim|am\s+trying|am\s+aiming)\s+to\s+(?P<v3>.{3,50}?)\s+(?:by|within|before)\s+"
    r"(?:the\s+end\s+of\s+(?:the|this|next)\s+year|next\s+year|\d{4}|(?:a|one|two|three|four|five|\d+)\s+years?|i'?m\s+\d{2}|(?:age\s+)?\d{2})$",
    re.IGNORECASE,
)


class GoalFrames(FactBuilder):
    """A goal of the statement's subject."""

    def _goal_zh(self, st: Statement, body: str) -> list[Finding]:
        if st.negated or st.question or st.hypothetical or st.subject.kind == "person":
            return []
        said = body.strip(" 。.!！~")
        m = _NAMED_GOAL_ZH.match(said) or _WISH_ZH.match(said)
        if m is None:
            return []
        goal = w.clean_zh(f"{m.groupdict().get('h') or ''}{m.groupdict().get('v') or m['v2']}")
        return [self._goal(st, goal, f"{{who}}的目标：{goal}")]

    def _goal_en(self, st: Statement, body: str) -> list[Finding]:
        if st.negated or st.question or st.hypothetical or st.subject.kind == "person":
            return []
        m = _GOAL_EN.match(body.strip(" .!~"))
        if m is None:
            return []
        raw = m["v"] or m["v2"] or st.text
        goal = w.clean_en(st.text if m["v3"] else raw)
        if m["v2"]:
            goal = (
                f"saving for {goal}" if "train" not in body.casefold() else f"training for {goal}"
            )
        return [self._goal(st, goal, f"{{who}}: goal — {goal}")]

    def _goal(self, st: Statement, goal: str, title: str) -> Finding:
        return self.fact(
            st,
            "goal",
            goal,
            title,
            title,
            category=["个人", "目标"],
            importance=0.8,
            tags=["目标" if st.zh else "goal"],
            entities=[],
        )
