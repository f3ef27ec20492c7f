"""What the user has to cook with (只有一个电磁炉，连烤箱都没有; I only have an air fryer and a
microwave; we don't have an oven): what a recipe can ask of them, kept in their words."""

from __future__ import annotations

import re

from ekko_memory.service.extraction import words as w
from ekko_memory.service.extraction.facts.building import FactBuilder
from ekko_memory.service.extraction.findings import Finding
from ekko_memory.service.extraction.statements import Statement

_APPLIANCES_ZH = (
    "电磁炉|烤箱|微波炉|空气炸锅|电饭煲|电饭锅|平底锅|不粘锅|汤锅|小汤锅|高压锅|电压力锅|蒸锅|燃气灶|煤气灶|"
    "炒锅|砂锅|铸铁锅|破壁机|料理机|电炖锅|电煮锅|小电锅|多功能锅|蒸烤箱|冰箱|灶台|明火"
)
_APPLIANCES_EN = (
    r"oven|microwave|air\s*fryer|rice\s+cooker|slow\s+cooker|crock\s*pot|instant\s*pot|pressure\s+cooker"
    r"|hob|stove|stovetop|induction\s+(?:hob|cooktop|plate|hotplate)|hot\s*plate|hotplate|wok"
    r"|frying\s+pan|skillet|saucepan|blender|grill|toaster\s+oven|freezer|kettle"
)
# 只有一个电磁炉, 就一口锅, 没有烤箱 (said of the user's kitchen, with no other subject).
_HAVE_ONLY_ZH = re.compile(
    r"^(?:家里|厨房|家|宿舍|出租屋)?(?:里|里面)?(?:也|都)?"
    r"(?P<how>只有|就只有|就有|只剩|就一|只买了|没有|没)(?:一个|一口|一台|一只|个|台|口|只)?"
    rf"(?:[\u4e00-\u9fff]{{0,3}}?)(?P<a>{_APPLIANCES_ZH})"
)
_HAVE_ONLY_EN = re.compile(
    r"^(?:only\s+|just\s+)?(?:have|has|got|own)\s+(?:got\s+)?(?:only\s+|just\s+)?(?:a|an|one|two)\s+"
    rf"(?:[\w-]+\s+)?(?P<a>{_APPLIANCES_EN})\b"
    rf"|^(?:do\s+not|don'?t|does\s+not|doesn'?t)\s+(?:have|own)\s+(?:a|an)\s+(?:[\w-]+\s+)?(?P<no>{_APPLIANCES_EN})\b",
    re.IGNORECASE,
)
# 连烤箱都没有, no oven either: what follows in the same breath about the kitchen.
_MORE_ZH = re.compile(
    rf"(?:连|也)?(?:{_APPLIANCES_ZH})(?:都|也)?(?:没有|没)|(?:没有|没)(?:{_APPLIANCES_ZH})"
)
_MORE_EN = re.compile(rf"\bno\s+(?:{_APPLIANCES_EN})\b|\b(?:{_APPLIANCES_EN})\b", re.IGNORECASE)


class KitchenFrames(FactBuilder):
    """What the user cooks with."""

    def _kitchen(self, st: Statement, body: str) -> list[Finding]:
        if st.subject.kind not in ("self", "none", "we") or st.question or st.hypothetical:
            return []
        m = (_HAVE_ONLY_ZH if st.zh else _HAVE_ONLY_EN).match(body)
        if m is None:
            return []
        if st.zh and m["how"] in ("没有", "没") and m["a"] in ("冰箱",):
            return []
        if not st.zh and st.negated and not m["no"]:
            return []  # I don't only have an oven: nothing plain to keep
        said = [w.clean_zh(st.text) if st.zh else w.clean_en(st.text)]
        at = st.sentence.find(st.text)
        for clause in re.split(r"[，,;；]", st.sentence[at + len(st.text) :] if at >= 0 else ""):
            if not clause.strip():
                continue
            if (_MORE_ZH if st.zh else _MORE_EN).search(clause) and len(clause) <= 30:
                said.append(clause.strip())
            else:
                break
        text = ("，" if st.zh else ", ").join(said)
        return [
            self.fact(
                st,
                "personal_fact",
                text,
                f"{{who}}的厨房：{text}",
                f"Kitchen: {text}",
                importance=0.75,
                tags=["厨房" if st.zh else "kitchen"],
            )
        ]
