"""The default extractor: reads each user message as statements, in Chinese and English,
with no network.

A message is cut into clauses; each clause gets its subject (the user, someone in their life,
a team's "we") and its kind (statement, question, supposition, request, take-back, someone
else's words) before anything is extracted (``statements.py``). Then:

- a take-back (别记我喜欢鸭血了, 刚才说的不算, forget that…) stops the memory it names, or the
  one stated just before it, and writes nothing (``takeback.py``);
- a correction that only gives the new value (不对，是周四; I meant Thursday) re-reads the
  statement it corrects with that value, and the result replaces what that statement left;
- questions, suppositions (如果…, what if…), requests and reported words write nothing;
- a statement goes through the frames: food and cooking (``cooking.py``), the project's
  decisions, rules and tasks (``project.py``), facts about a person (``facts.py``), likes
  and dislikes (``preferences.py``), plans with their deadlines, routines and temporary
  states (``plans.py``), the language replies should be in;
- anything else the user asked to remember (记住…, remember…) is kept in their words as a
  note: the project's when it speaks of the project, else the user's.

docs/extraction.md says kind by kind what is understood and what is not, with the figures
of the evaluation set (``make eval``).
"""

from __future__ import annotations

import re
from datetime import datetime
from itertools import groupby

from ekko_memory.models import MemoryExtraction, MemoryMessage, MemoryNode
from ekko_memory.schema import intent
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.service.extraction.cooking import CookingFrames
from ekko_memory.service.extraction.facts import FactFrames, travel_plan
from ekko_memory.service.extraction.findings import Finding, Found, clip
from ekko_memory.service.extraction.lexicon import Lexicon, load_lexicon
from ekko_memory.service.extraction.plans import plan, reports_done, routine, task_matches, temporary_state
from ekko_memory.service.extraction.preferences import preference, reply_style
from ekko_memory.service.extraction.project import ProjectFrames
from ekko_memory.service.extraction.protocol import ExtractionInput
from ekko_memory.service.extraction.statements import Statement, read_statements
from ekko_memory.service.extraction.takeback import takes_back, what_is_taken_back
from ekko_memory.service.extraction.time_expressions import find_times
from ekko_memory.service.permissions import mentions

_CJK = re.compile(r"[\u4e00-\u9fff]")
# Reply languages: the words for each, and its name (Chinese, English).
_LANGUAGES = {
    ("中文", "汉语", "普通话", "chinese", "mandarin"): ("中文", "Chinese"),
    ("英文", "英语", "english"): ("英文", "English"),
    ("日文", "日语", "japanese"): ("日文", "Japanese"),
}
_LANGUAGE_WORDS = "|".join(w for words in _LANGUAGES for w in words)
# 回答我都用中文 / 用英文回复我 / reply in English / answer me in Chinese.
_REPLY_LANG = re.compile(
    rf"(?:回答|回复|答复|回我|说话)[^，。！？,.!?]{{0,6}}?(?:用|使用)\s*({_LANGUAGE_WORDS})"
    rf"|(?:用|使用)\s*({_LANGUAGE_WORDS})\s*(?:来)?(?:回答|回复|答复|回我|和我说|跟我说)"
    rf"|\b(?:reply|respond|answer|talk|write back)\b[^,.!?]{{0,12}}?\bin ({_LANGUAGE_WORDS})\b",
    re.IGNORECASE,
)
# The request around a note, which is no part of what to remember: 记住，… before it, and
# …，记住 / …, remember that for this project after it (the title is what was said).
_NOTE_LEAD = re.compile(
    r"^(请|帮我)?(记住|记一下|记下|记得|帮我记录|remember( that)?|keep in mind( that)?)[，,:：\s]*",
    re.IGNORECASE,
)
_NOTE_TAIL = re.compile(
    r"[，,;；\s]+(?:请|帮我)?(?:记住|记一下|记下|记得|记着)(?:了|哦|啊|吧|这个|这点)?[。.!！]*$"
    r"|[,;\s]+(?:please\s+)?(?:remember|keep)(?:\s+(?:that|this|it))?(?:\s+in mind)?"
    r"(?:\s+for\s+(?:this|the|our)\s+(?:project|repo|repository|codebase))?[.!]*$",
    re.IGNORECASE,
)
# A correction that gives only the new value: 不对，是周四 / 我说错了，是 26 号 / I meant Thursday.
_CORRECTION_LEAD = re.compile(
    r"^(?:不对|不是|错了|说错了|我说错了|搞错了|我搞错了|更正一下|纠正一下|更正|纠正|口误|等等|哦不|啊不)[，,。！!\s]*(?:应该)?(?:是|改成|改为)?"
    r"|^(?:sorry|oops|wait|no|correction|actually)[,:!\s]+(?:i\s+meant|it'?s|make\s+that|that\s+should\s+be|i\s+mean)?\s*"
    r"|^i\s+meant\s+",
    re.IGNORECASE,
)
# 不是X，是Y / not X but Y / Y, not X: both values said.
_NOT_BUT = re.compile(
    r"不是(?P<old>[^，,。是]{1,12})[，,]?(?:而)?是(?P<new>[^，,。！!]{1,12})"
    r"|(?P<new2>[^，,。]{1,12})[，,]\s*不是(?P<old2>[^，,。！!]{1,12})"
    r"|\bnot\s+(?P<old3>[\w' -]{1,30}?),?\s+(?:but\s+)?(?P<new3>[\w' -]{1,30})$"
    r"|^(?P<new4>[\w' -]{1,30}?),?\s+not\s+(?P<old4>[\w' -]{1,30})$",
    re.IGNORECASE,
)


class RuleBasedExtractor:
    """Statement extractor for Chinese and English (the default; no network)."""

    name = "rules"

    def __init__(self, registry: SchemaRegistry, lexicon: Lexicon | None = None) -> None:
        self.registry = registry
        self.lexicon = lexicon or load_lexicon()
        self.cooking = CookingFrames(self.lexicon)
        self.project = ProjectFrames(self.lexicon)
        self.facts = FactFrames(self._is_food)

    def _is_food(self, text: str) -> bool:
        return bool(self.lexicon.find_ingredients(text))

    def extract(self, data: ExtractionInput) -> MemoryExtraction:
        """Operations for every user message in the batch."""
        found = Found()
        known = list(data.known_nodes)
        history = [m for m in data.earlier if m.role == "user"]
        for msg in data.messages:
            if msg.role == "user":
                self._message(msg, known, found, history)
                history.append(msg)
        return MemoryExtraction(nodes=found.ops)

    # --- one message ----------------------------------------------------------------

    def _message(
        self,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        history: list[MemoryMessage],
    ) -> None:
        text = msg.content.strip()
        if not text:
            return
        before = len(found.ops)
        found.zh = bool(_CJK.search(text))
        src = [msg.id]
        statements = read_statements(text, msg.created_at)
        kept: list[Statement] = []
        for st in statements:
            if takes_back(st.text) or takes_back(st.sentence) and st.index == 0:
                self._take_back(st, msg, known, found, history)
            else:
                kept.append(st)
        if kept and kept[0].index == 0 and self._correct(text, msg, known, found, history):
            return
        for _, group in groupby(kept, key=lambda s: s.sentence):
            self._sentence(list(group), text, msg, known, found)
        if len(found.ops) == before and intent.has_explicit_intent(text) and not any(
            takes_back(st.text) for st in statements
        ):
            self._note(text, src, found)

    def _usable(self, st: Statement) -> bool:
        """Statements and what the user asked to remember; never questions, suppositions,
        requests to the assistant, opinions or someone else's words."""
        if st.hypothetical or st.reported:
            return False
        if st.remember:
            return not st.question
        return st.is_claim

    def _sentence(
        self,
        group: list[Statement],
        text: str,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
    ) -> None:
        usable = [st for st in group if self._usable(st)]
        stated = False
        for st in usable:
            n = len(found.ops)
            self._statement(st, text, msg, known, found)
            stated |= len(found.ops) > n
        if not stated and usable:
            state = temporary_state([st for st in usable if st.subject.kind != "person"] or usable, msg.created_at)
            if state is not None:
                self._propose(state, [msg.id], known, found)

    def _statement(
        self, st: Statement, text: str, msg: MemoryMessage, known: list[MemoryNode], found: Found
    ) -> None:
        src = [msg.id]
        n = len(found.ops)
        if st.subject.kind != "person":
            until = intent.temporary_expiry(st.sentence, msg.created_at, self.registry.temporary_words)
            self.cooking.read(st.text, text, until, src, known, found)
            self.project.read(st.text, src, known, found)
            self._reply_language(st.text, text, src, found)
            if len(found.ops) > n:
                return
            if reports_done(st):
                for task in known:
                    if task.type == "task" and task.status == "active" and task_matches(task, st.text):
                        found.add("expire", "the user said it is done", target_id=task.id)
                return
        finding = self._first(st, msg.created_at)
        for f in finding:
            self._propose(f, src, known, found)

    def _first(self, st: Statement, now: datetime) -> list[Finding]:
        """What the first frame that reads the statement finds."""
        facts = self.facts.read(st)
        if facts:
            return facts
        for frame in (
            lambda: travel_plan(st, st.times),
            lambda: preference(st),
            lambda: reply_style(st),
            lambda: plan(st, now),
            lambda: routine(st),
        ):
            f = frame()
            if f is not None:
                return [f]
        if st.subject.kind == "person" and (st.negated or "过敏" in st.text) and self._is_food(st.text):
            return [self._person_food(st)]
        return []

    def _person_food(self, st: Statement) -> Finding:
        """我老婆不吃香菜: someone else's food, theirs (the user's cooking memories are the user's)."""
        who = st.subject.person
        foods = [self.lexicon.canonical(i) for i in self.lexicon.find_ingredients(st.text)]
        return Finding(
            type="fact", domain="人物", category=["人物", st.subject.relation or st.subject.name or "其他"],
            key="dislikes", value={"person": who, "thing": "、".join(foods)},
            title=clip(st.text, 60), content=st.text, statement=st, scope="user",
            tags=["人物", "饮食"], entities=[who, *foods], importance=0.8, person=who,
            reason="what someone in the user's life does not eat",
        )

    def _propose(self, f: Finding, src: list[str], known: list[MemoryNode], found: Found) -> None:
        """Propose ``f``; a one-value fact of someone else (their age, school) replaces the
        one known for the same person."""
        target = None
        if f.person and f.key in _PERSON_SINGLE:
            target = next(
                (
                    n
                    for n in known
                    if n.status == "active"
                    and n.domain == "人物"
                    and n.key == f.key
                    and isinstance(n.value_json, dict)
                    and n.value_json.get("person") == f.person
                ),
                None,
            )
        draft = {**f.draft(), "source_message_ids": src}
        if target is not None:
            found.add("supersede", f.reason, target_id=target.id, **draft)
        else:
            found.add("create", f.reason, **draft)

    # --- take-backs and corrections -------------------------------------------------

    def _take_back(
        self,
        st: Statement,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        history: list[MemoryMessage],
    ) -> None:
        """Stop what the take-back names — or what the message before it stated — and write
        nothing for it."""
        named = what_is_taken_back(st.text)
        previous = next((m for m in reversed(history) if m.id != msg.id), None)
        targets: list[MemoryNode] = []
        if named:
            targets = [n for n in known if n.status == "active" and mentions(n, named)]
            # Proposed earlier in this batch and not written yet: dropped.
            found.ops[:] = [op for op in found.ops if not (op.operation == "create" and _op_mentions(op, named))]
        elif previous is not None:
            targets = [n for n in known if n.status == "active" and previous.id in n.source_message_ids]
            found.ops[:] = [op for op in found.ops if previous.id not in (op.node.source_message_ids or [])]
        for node in targets:
            found.add("expire", "the user took it back", target_id=node.id)

    def _correct(
        self,
        text: str,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        history: list[MemoryMessage],
    ) -> bool:
        """不对，是周四: the statement before, read again with the new value; what it states
        replaces what it stated before. True when the message was such a correction."""
        lead = _CORRECTION_LEAD.match(text)
        previous = next((m for m in reversed(history) if m.id != msg.id), None)
        if lead is None or previous is None:
            return False
        rest = text[lead.end() :].strip(" ，,。.!！")
        if not rest or len(rest) > 40:
            return False
        old_new = _NOT_BUT.search(text)
        fixed = self._substitute(previous, rest, old_new)
        if fixed is None or fixed == previous.content:
            return False
        probe = Found(zh=found.zh)
        corrected = previous.model_copy(update={"content": fixed, "id": msg.id, "created_at": msg.created_at})
        self._message(corrected, [], probe, [])
        if not probe.ops:
            return False
        before_ops = {id(op) for op in found.ops}
        for op in probe.ops:
            old = next(
                (
                    n
                    for n in known
                    if n.status == "active" and previous.id in n.source_message_ids and n.key == op.node.key
                ),
                None,
            )
            draft = op.node.model_dump(exclude_none=True)
            if old is not None:
                found.add("supersede", "the user corrected what they had said", target_id=old.id, **draft)
            else:
                found.ops.append(op)
        # What the batch proposed from the corrected message, not written yet: replaced.
        found.ops[:] = [
            op for op in found.ops if id(op) not in before_ops or previous.id not in (op.node.source_message_ids or [])
        ]
        return True

    def _substitute(self, previous: MemoryMessage, rest: str, old_new: re.Match[str] | None) -> str | None:
        """The earlier message with the corrected value in place of the one it replaces."""
        said = previous.content
        if old_new is not None:
            old = next((old_new[g] for g in ("old", "old2", "old3", "old4") if old_new.group(g)), "")
            new = next((old_new[g] for g in ("new", "new2", "new3", "new4") if old_new.group(g)), "")
            old, new = old.strip(), new.strip()
            if old and new and old in said:
                return said.replace(old, new)
        new_times = find_times(rest, previous.created_at)
        if new_times and len(new_times[0].text) >= len(rest) - 3:
            old_times = find_times(said, previous.created_at)
            if old_times:
                t = old_times[0]
                return said[: t.start] + new_times[0].text + said[t.end :]
        return None

    # --- notes and reply language ---------------------------------------------------

    def _note(self, text: str, src: list[str], found: Found) -> None:
        note = _NOTE_TAIL.sub("", _NOTE_LEAD.sub("", text))
        if not note:
            return
        # 这个项目的… / this repo…: the project's note, kept in the workspace
        # (design doc: 项目技术约束默认 workspace，不默认 user).
        project = intent.mentions_project(text)
        found.add(
            "create",
            "the user asked to remember this",
            scope="workspace" if project else "user",
            domain="项目" if project else "个人",
            category_path=["项目", "约定"] if project else ["个人", "笔记"],
            type="fact",
            title=clip(note),
            content=text,
            source_message_ids=src,
            confidence=0.9,
            importance=0.7,
        )

    def _reply_language(self, clause: str, text: str, src: list[str], found: Found) -> None:
        """以后回答我都用中文 / from now on, reply in English: the reply_language preference
        (its rule puts it in every context). Only as a standing request: 用中文回答我 alone
        asks for this one reply."""
        m = _REPLY_LANG.search(clause)
        if m is None or not intent.has_explicit_intent(text):
            return
        said = next(g for g in m.groups() if g).casefold()
        zh, en = next(names for words, names in _LANGUAGES.items() if said in words)
        found.add(
            "create",
            "the language the user wants replies in",
            scope="user",
            domain="个人",
            category_path=["个人", "沟通"],
            type="preference",
            key="reply_language",
            value_json=found.t(zh, en),
            title=found.t(f"回复用{zh}", f"Reply in {en}"),
            content=found.t(f"以后回答用户都用{zh}。", f"Always reply to the user in {en}."),
            tags=["沟通"],
            source_message_ids=src,
            confidence=0.95,
            importance=0.9,
        )


# One value per person: a new one replaces the old (their age, their school).
_PERSON_SINGLE = frozenset({"age", "school", "occupation", "employer", "birthday", "city"})


def _op_mentions(op: object, named: str) -> bool:
    node = getattr(op, "node", None)
    if node is None:
        return False
    folded = named.casefold()
    words = [*(node.entities or []), str(node.value_json or "")]
    return any(w and str(w).casefold() in folded for w in words if len(str(w)) >= 2)
