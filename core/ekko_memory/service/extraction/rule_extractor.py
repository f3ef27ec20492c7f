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
  decisions, rules and tasks (``project.py``), facts about a person (``facts/``), likes
  and dislikes (``preferences.py``), plans with their deadlines, routines and temporary
  states (``plans.py``), the language replies should be in;
- anything else the user asked to remember (记住…, remember…) is kept in their words as a
  note: the project's when it speaks of the project, else the user's.

docs/extraction.md says kind by kind what is understood and what is not, with the figures
of the evaluation set (``make eval``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from itertools import groupby, pairwise
from typing import Any

from ekko_memory.identity import value_identity
from ekko_memory.models import (
    ExtractedNodeOperation,
    MemoryExtraction,
    MemoryMessage,
    MemoryNode,
)
from ekko_memory.schema import intent
from ekko_memory.schema.registry import SchemaRegistry
from ekko_memory.service.extraction import revisions
from ekko_memory.service.extraction.answers import about_the_asked
from ekko_memory.service.extraction.commute import commute
from ekko_memory.service.extraction.cooking import CookingFrames
from ekko_memory.service.extraction.facts import FactFrames, travel_plan
from ekko_memory.service.extraction.findings import Finding, Found, clip
from ekko_memory.service.extraction.lexicon import Lexicon, load_lexicon
from ekko_memory.service.extraction.plans import (
    continues_tasks,
    course_ends,
    held_until,
    plan,
    reports_done,
    rest_state,
    routine,
    same_work,
    task_overlap,
    task_words,
    temporary_state,
)
from ekko_memory.service.extraction.preferences import (
    preference,
    preferred_name,
    reply_style,
    units,
    uses,
    writing_convention,
)
from ekko_memory.service.extraction.project import (
    ProjectFrames,
    about_project,
    decided_by_team,
    decided_in_clause,
    decision_lead,
    listed_decisions,
    team_routine,
    team_rule,
)
from ekko_memory.service.extraction.protocol import ExtractionInput
from ekko_memory.service.extraction.revising import (
    Revising,
    _same_kind,
    _value_words,
    eating_style,
)
from ekko_memory.service.extraction.statements import (
    NOBODY,
    Statement,
    Subject,
    read_statements,
    with_subject,
    writes_fiction,
)
from ekko_memory.service.extraction.takeback import (
    earlier_in_message,
    keeps_only,
    scratched_for_new,
    takes_back,
    what_is_taken_back,
)
from ekko_memory.service.extraction.task_lists import (
    LIST_NOUNS_EN,
    LIST_NOUNS_ZH,
    chore_parts,
    done_by_its_verb,
    task_time,
)
from ekko_memory.service.extraction.time_expressions import TimeMention
from ekko_memory.service.extraction.weekly import weekly

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
    r"^(请|帮我)?(记住|记一下|记下|记得|帮我记录|备忘一下|备忘|remember( that)?|keep in mind( that)?"
    r"|note (for|to) (later|the future|future me|myself)|note|memo)[，,:：\s]*(?=\S)",
    re.IGNORECASE,
)
# Asked to keep a thing (记住, remember, note to self) — not a standing request (以后少放点)
# whose clauses the other frames read.
_KEEP = re.compile(
    r"记住|记一下|记下|记得|记着|备忘|备注|帮我记录|记录一下|别忘|不要忘"
    r"|\b(?:remember|keep (?:(?:that|this|it) )?in mind|note to self|make a note|note that"
    r"|don'?t forget|do not forget|for the record|for future reference)\b",
    re.IGNORECASE,
)
# A clause that only frames the rest of the sentence as standing (From now on, reply in
# English): nothing of its own to keep.
_FRAMING_ONLY = re.compile(
    r"^(?:from now on|from today on|going forward|in the future|for future reference|"
    r"以后|今后|从今以后|从今往后|从现在起|从现在开始|从今天(?:起|开始)|往后|永远)[\s,.，。!！]*$",
    re.IGNORECASE,
)
_NOTE_TAIL = re.compile(
    r"[，,;；\s]+(?:请|帮我)?(?:记住|记一下|记下|记得|记着)(?:了|哦|啊|吧|这个|这点)?[。.!！]*$"
    r"|[,;\s]+(?:please\s+)?(?:remember|keep)(?:\s+(?:that|this|it))?(?:\s+in mind)?"
    r"(?:\s+for\s+(?:this|the|our)\s+(?:project|repo|repository|codebase))?[.!]*$",
    re.IGNORECASE,
)


# A question of whether what was just said is normal (我家柯基掉毛很厉害，正常吗？ my corgi
# sheds a lot, is that normal?): the clause before it is what is asked about, not a fact told.
_IS_IT_NORMAL = re.compile(
    r"^(?:这|那|这样|这种情况|这个)?(?:样)?(?:是|算)?(?:正常|要紧|严重|常见|有问题|没事|健康)(?:吗|么|嘛|不|的吗)"
    r"|^(?:is|was|isn'?t)\s+(?:that|this|it)\s+(?:normal|ok|okay|bad|serious|common|fine|healthy|weird|a problem|something to worry about)\b"
    r"|^should i (?:be )?worr(?:y|ied)\b",
    re.IGNORECASE,
)


def _asked_of(st: Statement, group: list[Statement]) -> bool:
    """The next clause of ``st``'s sentence asks whether what ``st`` says of a pet or
    someone is normal."""
    after = [q for q in group if q.index == st.index + 1]
    return (
        not st.question
        # Of a pet or someone else: what the user says of themselves (I'm vegetarian, is
        # that ok?) stays theirs whatever they ask about it.
        and st.subject.kind == "person"
        and bool(after)
        and after[0].question
        and bool(_IS_IT_NORMAL.match(after[0].text.strip()))
    )


class RuleBasedExtractor(Revising):
    """Statement extractor for Chinese and English (the default; no network)."""

    name = "rules"

    def __init__(self, registry: SchemaRegistry, lexicon: Lexicon | None = None) -> None:
        self.registry = registry
        self.lexicon = lexicon or load_lexicon()
        self.cooking = CookingFrames(self.lexicon)
        self.project = ProjectFrames(self.lexicon)
        self.facts = FactFrames(self._is_food)
        # While a correction's message is read: the messages it corrects (what it states
        # replaces what they stated under the same key).
        self._correcting: list[str] = []
        self._correcting_topic = ""
        self._correcting_text = ""
        self._sentence_ends: datetime | None = None
        self._course_ends: datetime | None = None
        # The person the conversation last named (for 他/她/he/she in the next message).
        self._last_person: Subject | None = None
        self._others_food: set[str] = set()

    def notable(self, text: str) -> bool:
        """The words change what is remembered whatever is known: a take-back, a
        correction, work reported done or a plan called off (the trigger check of an LLM
        extractor, which must not miss what the rules see)."""
        now = datetime.now().astimezone()
        if (
            revisions.CORRECTION_LEAD.search(text)
            or revisions.old_and_new(text)
            or revisions.UPDATE.search(text)
        ):
            return True
        return any(takes_back(st.text) or reports_done(st) for st in read_statements(text, now))

    def _is_food(self, text: str) -> bool:
        return bool(self.lexicon.find_ingredients(text))

    def extract(self, data: ExtractionInput) -> MemoryExtraction:
        """Operations for every user message in the batch."""
        found = Found()
        known = list(data.known_nodes)
        history = [m for m in data.earlier if m.role == "user"]
        self._last_person = None
        for earlier in history[-2:]:
            people = [
                st.subject
                for st in read_statements(earlier.content, earlier.created_at)
                if st.subject.kind == "person"
            ]
            self._last_person = people[-1] if people else self._last_person
        asked = next((m.content for m in reversed(data.earlier) if m.role == "assistant"), "")
        for msg in data.messages:
            if msg.role == "user":
                before = len(found.ops)
                said = about_the_asked(msg.content, asked, history[-1].content if history else "")
                if said is not None:
                    # 它几岁？ → 叫煤球，三岁了: the answer is of the cat the user spoke of.
                    msg = msg.model_copy(update={"content": said})
                self._message(msg, known, found, history)
                if len(found.ops) == before and asked:
                    self._answer(msg, asked, known, found, history)
                history.append(msg)
            elif msg.role == "assistant":
                asked = msg.content
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
        repaired = revisions.inline_repair(text, msg.created_at)
        if repaired != text:
            # 下周三，哦不，周四上午复查: what is said is the repaired sentence.
            msg = msg.model_copy(update={"content": repaired})
            text = repaired
        before = len(found.ops)
        found.zh = bool(_CJK.search(text))
        src = [msg.id]
        # 他喜欢恐龙 after 我儿子今年上四年级: a pronoun speaks of the person named last.
        statements = [
            _it_as_the_pet(_named_as_known(st, known, found), known, found, msg.created_at)
            for st in read_statements(text, msg.created_at, self._last_person)
        ]
        story = next((st.index for st in statements if writes_fiction(st.text)), None)
        if story is not None:
            # 帮我写个小说开头：主角住在重庆，对花粉过敏 — the story's people, not the user.
            statements = [st for st in statements if st.index < story]
        people = [st.subject for st in statements if st.subject.kind == "person"]
        if people:
            self._last_person = people[-1]
        kept: list[Statement] = []
        refused: str | None = None
        taken_in: set[str] = set()
        order = list(dict.fromkeys(st.sentence for st in statements))
        # Sentences of this message a later one takes back (…。算了，这条别记了).
        unsaid: set[str] = set()
        for st in statements:
            if st.sentence == refused:
                continue  # 别记住这个：我的猫叫咪咪 — what follows the refusal is not kept
            if st.sentence in taken_in and _POINTS_TO_IT.match(st.text):
                continue  # leave out the part about my brother, he'd hate that: why, no fact
            if taken_in and keeps_only(st.text):
                continue  # 当我没说，就记个目标就行: what the take-back keeps, no statement
            if st.sentence in taken_in and _UNSURE.search(st.text):
                continue  # 锦华路那个地址别记了，房子还没签，可能会变: why, no statement
            if st.index == 0 and scratched_for_new(st.sentence):
                continue  # "scratch that, it's KPMG": the correction below reads it
            if takes_back(st.text) or (
                takes_back(st.sentence)
                and st.index == 0
                # 算了，工资那个别记了: a first clause that names nothing leaves it to the clause
                # that takes back (押金我刚转了，那个划掉 names the deposit in the first).
                and (
                    bool(what_is_taken_back(st.text))
                    or not any(
                        takes_back(o.text)
                        for o in statements
                        if o.sentence == st.sentence and o is not st
                    )
                )
            ):
                said_before = order[: order.index(st.sentence)]
                earlier = earlier_in_message(said_before, st.text, st.sentence)
                if earlier:
                    unsaid.update(earlier)
                else:
                    self._take_back(st, msg, known, found, history)
                taken_in.add(st.sentence)
                after = st.sentence[st.sentence.find(st.text) + len(st.text) :].lstrip()
                if after[:1] in (":", "：") and re.search(r"(?:这个|这|this|that|it)\s*$", st.text):
                    refused = st.sentence
            else:
                kept.append(st)
        kept = [st for st in kept if st.sentence not in unsaid]
        consumed, corrected = self._correct(text, msg, known, found, history)
        kept = [st for st in kept if st.index not in consumed]
        self._correcting = corrected
        lead = revisions.CORRECTION_LEAD.search(text)
        self._correcting_topic = revisions.named_topic(lead) if lead and corrected else ""
        self._correcting_text = text if corrected else ""
        try:
            for _, group in groupby(kept, key=lambda s: s.sentence):
                self._sentence(list(group), text, msg, known, found)
        finally:
            self._correcting = []
            self._correcting_topic = ""
            self._correcting_text = ""
        if (
            len(found.ops) == before
            and intent.has_explicit_intent(text)
            and not any(takes_back(st.text) for st in statements)
        ):
            if statements and all(st.request and st.remember for st in statements):
                # "keep that in mind", 记住这个: the thing is what the user said before.
                self._keep_what_was_said(msg, known, found, history)
            else:
                self._note(text, src, found)

    def _keep_what_was_said(
        self,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        history: list[MemoryMessage],
    ) -> None:
        """A bare request to keep "that" names the user's message before it: kept in their
        words when no memory came of it, and never when it was a question or a request (the
        thing to keep would be the assistant's answer, which is no word of the user's)."""
        earlier = history[-1] if history else None
        if earlier is None or any(earlier.id in n.source_message_ids for n in known):
            return
        said = read_statements(earlier.content, earlier.created_at)
        if not said or any(st.question or st.request or st.hypothetical for st in said):
            return
        self._note(earlier.content.strip(), [earlier.id, msg.id], found)

    def _answer(
        self,
        msg: MemoryMessage,
        asked: str,
        known: list[MemoryNode],
        found: Found,
        history: list[MemoryMessage],
    ) -> None:
        """A short answer to the assistant's question (你住哪个城市？ → 成都; what do you take?
        → 氨氯地平，每天早上一片): read as the statement the question asks for, in the user's
        words; never the assistant's."""
        said = msg.content.strip()
        if len(said) > 40 or not asked:
            return
        question = revisions.asked_slot(asked)
        if question is None:
            return
        zh = bool(_CJK.search(said + asked))
        if question == "when" and history:
            # 帮我设计生日派对 … 哪天？ → 4月18号: the time completes what was said before it.
            probe = Found(zh=found.zh)
            self._message(
                msg.model_copy(update={"content": f"{history[-1].content}，{said}"}), [], probe, []
            )
            found.ops += [op for op in probe.ops if op.node.key in _TIMED_KEYS]
            return
        statement = revisions.answer_statement(question, said, zh)
        if statement is None:
            return
        self._message(msg.model_copy(update={"content": statement}), known, found, history)

    def _usable(self, st: Statement) -> bool:
        """Statements and what the user asked to remember; never questions, suppositions,
        requests to the assistant, opinions or someone else's words."""
        if st.hypothetical or st.reported or st.subject.kind == "other":
            return False  # 他们下周搬家: someone else's, and nobody the user named
        if _SAYS_A_WORD.match(st.text.strip()):
            return False  # I just say vegan sometimes: the word one uses, no fact of it
        if st.remember and not st.request:
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
        usable = [st for st in group if self._usable(st) and not _asked_of(st, group)]
        # 今晚头疼，回答简短点: a request made for a state of now ends with it.
        self._sentence_ends = next((e for s in group if (e := held_until(s)) is not None), None)
        # 在吃抗生素，要吃七天: the medicine is taken until the course ends.
        self._course_ends = next((e for s in group if (e := course_ends(s)) is not None), None)
        lead = next(
            (i for i, st in enumerate(group) if _LIST_LEAD.search(st.text) or _leads_a_list(st)),
            None,
        )
        if lead is not None:
            # The items of a to-do list are orders to oneself.
            items = [st for st in group[lead + 1 :] if not (st.question or st.hypothetical)]
            usable = [st for st in group if st in usable or st in items]
        for st in group:
            if st.reported and decided_by_team(st, self.lexicon):
                # 老板说以后代码合并前必须有两个人 review: the rule the team goes by.
                rule = team_rule(st, by_team=True, lexicon=self.lexicon)
                if rule is not None:
                    self._propose(rule, [msg.id], known, found)
                continue
            if (st.reported or st.question) and st not in usable:
                # 我朋友说我这种8月3号生日的人很倔: what is said of the user in their words.
                for f in self.facts.said_of_oneself(st):
                    self._propose(f, [msg.id], known, found)
            if (st.question or _asked_of(st, group)) and st not in usable:
                # 我家柯基掉毛正常吗？: the corgi is the user's, given by the question.
                for f in self.facts.owned_in_question(st):
                    self._propose(f, [msg.id], known, found)
            if (st.request or st.question) and not st.hypothetical and st not in usable:
                # 以后回答我简短点 / use bullet points: a request about replies is a preference
                # (回答能不能短一点 too, asked as a question); grams please, not cups: so is
                # one about the units amounts come in.
                for style in (
                    reply_style(st),
                    units(st) if st.request else None,
                    preferred_name(st) if st.request else None,
                ):
                    if style is not None:
                        self._propose(style, [msg.id], known, found)
        for st in list(group):
            # 医生让我得休息三天, the doctor told me to rest for three days: a state of the
            # user until the span ends, whoever ordered it; never a task.
            rest = rest_state(st, msg.created_at)
            if rest is not None:
                self._propose(rest, [msg.id], known, found)
                usable = [u for u in usable if u is not st]
        stated = False
        # Foods said of someone else in this sentence: a "leave it out" beside them is theirs.
        self._others_food = {
            food
            for st in group
            if st.subject.kind == "person"
            for food in self.lexicon.find_ingredients(st.text)
        }
        # A list of things to do shares the time and the "must" said before it
        # (这周要干三件事：交水电费、给车续保险、周五前交周报).
        listing: list[TimeMention | None] = []
        quiet: list[Statement] = []  # the clauses nothing was read from
        first = len(found.ops)
        # 装修方案跟老婆商量定了：… — the lead is read with what it announces, after the rest.
        announcing = next((st for st in usable if decision_lead(st)), None)
        told = _told(group)
        # The time of the task said last in the sentence: the next piece of work shares it
        # (这周要把报销单交了，另外还得约个体检).
        said_time: TimeMention | None = None
        tasked = False  # a task was said earlier in this sentence
        for st in usable:
            if st is announcing:
                continue
            tasked = tasked or any(op.node.type == "task" for op in found.ops[first:])
            n = len(found.ops)
            if st in told or (
                not listing
                and found.ops[n - 1 :]
                and found.ops[-1].node.type == "task"
                and (_CHORE_START.match(st.body.strip()) or (tasked and continues_tasks(st)))
            ):
                # "buy a present before Sunday and mow the lawn": the "need to" carries on;
                # 老板说了，报告周五前要交: what the boss said is the user's to do.
                task = (
                    plan(with_subject(st, NOBODY), msg.created_at, said_time)
                    if st in told
                    else plan(st, msg.created_at, said_time, listed=True)
                )
                if task is not None:
                    self._propose(task, [msg.id], known, found)
                    said_time = task_time(st) or said_time
                    stated = True
                    continue
            if (
                announcing is not None
                and st.index > announcing.index
                and st.times
                and not _MUST_WORDS.search(st.text)
            ):
                # 终于定下来了，婚礼放在五月: what was decided, with its time — no to-do.
                quiet.append(st)
                continue
            if self._chores(st, msg, known, found, listing, said_time):
                said_time = task_time(st) or (listing[0] if listing else None) or said_time
                stated = True
                continue
            leads = len(listing)
            self._statement(st, text, msg, known, found, listing)
            if found.ops[n:] and found.ops[-1].node.type == "task":
                said_time = task_time(st) or (listing[0] if listing else None) or said_time
            if len(found.ops) == n and len(listing) == leads:
                quiet.append(st)
            if (
                st.remember
                and len(found.ops) == n
                and not st.question
                and not st.request  # keep that in mind (for recipes): the thing is elsewhere
                and _KEEP.search(st.sentence)
                and not _FRAMING_ONLY.match(st.text)
                and (len(st.text) >= 4 if st.zh else len(st.text.split()) >= 2)
            ):
                # 请记住剪刀在微波炉下面的抽屉里: what was asked to be kept and no frame read,
                # kept in the user's words.
                self._note(st.text, [msg.id], found)
            stated |= len(found.ops) > n
        if announcing is not None:
            items = [st for st in quiet if st.index > announcing.index]
            project = intent.mentions_project(announcing.sentence) or about_project(
                announcing.sentence, self.lexicon
            )
            decided = listed_decisions(announcing, items, project) if items else []
            for f in decided:
                self._propose(f, [msg.id], known, found)
            if decided:
                quiet = [st for st in quiet if st not in items]
                stated = True
            else:
                self._statement(announcing, text, msg, known, found, listing)
        for st in list(quiet):
            # 最后客厅定了铺瓷砖，木地板太难打理了: the decision, with its reason.
            said = decided_in_clause(
                st,
                [q for q in quiet if q.index > st.index],
                intent.mentions_project(st.sentence) or about_project(st.sentence, self.lexicon),
            )
            if said is not None and st in quiet:
                decision, reasons = said
                self._propose(decision, [msg.id], known, found)
                quiet = [q for q in quiet if q is not st and q not in reasons]
                stated = True
        # 这周在成都出差，周六才回北京: the clauses nothing else read may still say a state.
        # A state the sentence's other reading already bounds (今天胃不舒服，少辣: less spice
        # until tonight) is not said twice.
        bounded = any(
            op.node.expires_at is not None and op.node.type == "constraint"
            for op in found.ops[first:]
        )
        unread = (
            [st for st in usable if st not in leads_of(group)]
            if not stated
            else []
            if bounded
            else quiet
        )
        # 要吃七天 says how long the course said before lasts: no state of its own; 今天组会
        # 定了，… tells what the team decided today, no state of the user's.
        unread = [
            st for st in unread if course_ends(st) is None and not decided_by_team(st, self.lexicon)
        ]
        if unread and not (stated and _LASTING.search(group[0].sentence)):
            state = temporary_state(
                [st for st in unread if st.subject.kind != "person"] or unread, msg.created_at
            )
            if state is not None:
                self._propose(state, [msg.id], known, found)
                return
        self._task_with_its_details(group, quiet, found.ops, first)

    @staticmethod
    def _task_with_its_details(
        group: list[Statement],
        quiet: list[Statement],
        ops: list[ExtractedNodeOperation],
        first: int,
    ) -> None:
        """The one task a sentence states keeps the clauses around it that nothing else
        read (I'm in charge of Mia's 30th, need to book a venue…, about 25 people; 周末想把
        孩子房间刷一遍，打算刷浅绿色): what the work is for and how, in the user's words."""
        tasks = [op for op in ops[first:] if op.operation == "create" and op.node.type == "task"]
        # A clause some memory of this message was made from is no detail of another.
        made = [f"{op.node.title or ''} {op.node.content or ''}" for op in ops if op not in tasks]
        details = [
            st
            for st in quiet
            if not (st.question or st.request or st.hypothetical or st.subject.kind == "person")
            and (len(st.text) >= 3 if st.zh else len(st.text.split()) >= 2)
            # 下周三，哦不，周四…: a time alone, or one taken back, is no detail of the work.
            and not _only_times(st)
            and not any(st.text in m for m in made)
        ]
        if len(tasks) != 1 or not details or intent.is_correction(group[0].sentence):
            return
        node = tasks[0].node
        said = node.content or ""
        own = next((st for st in group if st.text in said), None)
        if own is not None and _ANOTHER_THING.match(own.text):
            # …，另外下周五组会轮到我汇报: a new thing, apart from the clauses before it.
            details = [st for st in details if st.index > own.index]
        details = [st for st in details if not _ANOTHER_THING.match(st.text)]
        if own is not None:
            # Only a run of details from the sentence's start up to the task, or from the
            # task to its end: one after something else (礼物买了，一个颈椎按摩仪，蛋糕还没订)
            # may be a detail of that.
            ids = {st.index for st in details}
            before = [st for st in group if st.index < own.index]
            after = [st for st in group if st.index > own.index]
            details = [
                st
                for st in details
                if (st.index < own.index and all(b.index in ids for b in before))
                or (st.index > own.index and all(a.index in ids for a in after))
            ]
        if not details:
            return
        kept = [st.text for st in group if st in details or st.text in said]
        joined = ("，" if group[0].zh else ", ").join(kept)
        if len(joined) <= 200 and len(joined) > len(said):
            node.content = joined

    def _chores(
        self,
        st: Statement,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        listing: list[TimeMention | None],
        said_time: TimeMention | None,
    ) -> bool:
        """Several pieces of work in one clause (file my taxes and update my resume): a task
        each, with the time said for them; False when the clause is no such list."""
        if st.subject.kind == "person":
            return False
        parts = chore_parts(st, msg.created_at)
        if len(parts) < 2:
            return False
        shared = task_time(st) or (listing[0] if listing else None) or said_time
        tasks = [
            plan(part, msg.created_at, shared, listed=bool(listing) or i > 0)
            for i, part in enumerate(parts)
        ]
        if tasks[0] is None:
            return False
        for task in tasks:
            if task is not None:
                self._propose(task, [msg.id], known, found)
        return True

    def _statement(
        self,
        st: Statement,
        text: str,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        listing: list[TimeMention | None],
    ) -> None:
        src = [msg.id]
        n = len(found.ops)
        updated = revisions.updated_by(st.text, known)
        if updated:
            # 钢琴课改成周六上午: the memory of the piano lessons, in the user's new words.
            for node in updated:
                self._replace(node, st, src, found)
            return
        if not listing and (_LIST_LEAD.search(st.text) or _leads_a_list(st)):
            # 这周要干三件事：… — what follows are the things to do, with this time.
            listing.append(_list_time(st))
            return
        if decided_by_team(st, self.lexicon):
            # leadership decided no deploys on Fridays; 组里商量好了，每周四发版: the team's
            # decision or rule (a technology chosen keeps its own key), never a routine or a
            # plan of the user's.
            self.project.read(st.text, src, known, found, st.sentence)
            if len(found.ops) > n:
                return
            rule = team_rule(st, by_team=True, lexicon=self.lexicon)
            if rule is not None:
                # Said once for the sentence, whichever of its clauses reads it first.
                self._propose(rule, src, known, found)
                return
        if st.subject.kind != "person" and st.times and not listing:
            # 五一打算回老家, going to Paris in April: a trip with its time, not a bare to-do.
            trip = travel_plan(st, st.times)
            if trip is not None:
                self._propose(trip, src, known, found)
                return
        if st.subject.kind != "person" and (st.times or listing):
            # A time, or an item of a list of things to do: a plan first (周五前要交周报).
            task = plan(st, msg.created_at, listing[0] if listing else None, listed=bool(listing))
            if task is not None:
                self._propose(task, src, known, found)
                # drive my old Outback up north this weekend: the car is the user's, too.
                for car in self.facts.car_in_a_plan(st):
                    self._propose(car, src, known, found)
                return
        if st.subject.kind != "person":
            # A span the clause names (for the next month, 接下来两周) bounds it too.
            until = intent.temporary_expiry(
                st.sentence, msg.created_at, self.registry.temporary_words
            ) or held_until(st)
            if _LASTING.search(st.sentence):
                until = None  # 今天聚餐…，我一点辣都吃不了，从小就这样: no state of today
            # 我喝咖啡不加糖: the sugar is left out of the coffee, not out of every dish;
            # 我俩同事对芒果过敏，订水果捞别放芒果: leaving it out is for them.
            if not _into_a_drink(st) and not self._others_food & set(
                self.lexicon.find_ingredients(st.text)
            ):
                self.cooking.read(st.text, text, until, src, known, found)
            self.project.read(st.text, src, known, found, st.sentence)
            self._reply_language(st.text, text, src, found)
            if len(found.ops) > n:
                return
            if reports_done(st):
                self._done(st, known, found)
                if len(found.ops) == n:
                    # 去年刚搬过来: no task done, and still a fact of the user.
                    for f in self.facts.read(st):
                        self._propose(f, src, known, found)
                return
            if self._done_by_its_verb(st, known, found):
                return
        finding = self._first(st, msg.created_at)
        for f in finding:
            self._propose(f, src, known, found)

    def _done(self, st: Statement, known: list[MemoryNode], found: Found) -> None:
        """Work reported done ("got Dad a new fishing reel, sorted", 报销终于交完了): the open
        task whose work the sentence names most leaves the tasks — one said earlier, or one
        said earlier in this batch ("…oh wait, I just sent the invoice"), which is then not
        written at all."""
        open_tasks = [n for n in known if n.type == "task" and n.status == "active"]
        fresh = [op for op in found.ops if op.operation == "create" and op.node.type == "task"]
        scores: list[tuple[int, str | None, ExtractedNodeOperation | None]] = []
        best = 0
        # The clause names the work (报告交了), or leaves it to its sentence (oil change:
        # done ✅; 搞定了，车险续了一年).
        for said in (st.sentence if len(st.text) < len(st.sentence) / 3 else st.text, st.sentence):
            scores = [(task_overlap(task_words(n), said), n.id, None) for n in open_tasks]
            scores += [
                (task_overlap(_draft_words(op.node.value_json, op.node.title), said), None, op)
                for op in fresh
            ]
            best = max((score for score, _, _ in scores), default=0)
            if best:
                break
        if best == 0:
            return
        for score, node_id, op in scores:
            if score < best:
                continue
            if op is not None:
                found.ops.remove(op)
            elif node_id is not None:
                found.add("expire", "the user said it is done", target_id=node_id)

    def _done_by_its_verb(self, st: Statement, known: list[MemoryNode], found: Found) -> bool:
        """The open tasks (known or proposed in this batch) that ``st`` tells done in the
        past of their own verb ("called the plumber") leave the tasks; False when none."""
        closed = False
        for n in known:
            if n.type == "task" and n.status == "active" and done_by_its_verb(st, task_words(n)):
                found.add("expire", "the user said it is done", target_id=n.id)
                closed = True
        for op in list(found.ops):
            if (
                op.operation == "create"
                and op.node.type == "task"
                and done_by_its_verb(st, _draft_words(op.node.value_json, op.node.title))
            ):
                found.ops.remove(op)
                closed = True
        return closed

    def _first(self, st: Statement, now: datetime) -> list[Finding]:
        """What the first frame that reads the statement finds; with the pet the user calls
        theirs while saying something of it (我家柯基最近掉毛, our corgi hates the rain)."""
        found = self._first_frame(st, now)
        if any(f.key == "pet" for f in found):
            return found
        return self.facts.own_pet(st) + found

    def _first_frame(self, st: Statement, now: datetime) -> list[Finding]:
        """What the first frame that reads the statement finds."""
        way = commute(st)
        if way is not None:
            return [way]  # 每天骑电动车上班: the way to work, not a vehicle owned
        facts = self.facts.read(st)
        if (
            st.subject.kind == "person"
            and (st.negated or "过敏" in st.text)
            and self._is_food(st.text)
        ):
            # 同事小王不吃牛肉: the person (and their name), and what they do not eat.
            facts = [f for f in facts if f.key == "family_member"] + [self._person_food(st)]
        if facts:
            return facts
        frames: list[Callable[[], Finding | None]] = [
            lambda: team_routine(st, self.lexicon),
            lambda: travel_plan(st, st.times),
            lambda: preference(st),
            lambda: uses(st),
            lambda: preferred_name(st),
            lambda: writing_convention(st),
            lambda: reply_style(st),
            lambda: units(st),
            lambda: plan(st, now) if st.subject.kind != "person" else None,
            lambda: weekly(st),
            lambda: routine(st),
        ]
        for frame in frames:
            f = frame()
            if f is not None:
                return [f]
        rule = team_rule(st, lexicon=self.lexicon)
        if rule is not None:
            return [rule]
        about = self.facts.about_person(st)
        return [about] if about is not None else []

    def _person_food(self, st: Statement) -> Finding:
        """我老婆不吃香菜: someone else's food, theirs (the user's cooking memories are the user's)."""
        who = st.subject.person
        foods = [self.lexicon.canonical(i) for i in self.lexicon.find_ingredients(st.text)]
        return Finding(
            type="fact",
            domain="人物",
            category=["人物", st.subject.relation or st.subject.name or "其他"],
            key="dislikes",
            value={"person": who, "thing": "、".join(foods)},
            title=clip(st.text, 60),
            content=st.text,
            statement=st,
            scope="user",
            tags=["人物", "饮食"],
            entities=[who, *foods],
            importance=0.8,
            person=who,
            reason="what someone in the user's life does not eat",
        )

    def _propose(self, f: Finding, src: list[str], known: list[MemoryNode], found: Found) -> None:
        """Propose ``f``; a one-value fact of someone else (their age, school) replaces the
        one known for the same person. What is said to hold until a time (my parents are
        visiting this week) ends then, and replaces nothing lasting."""
        target = None
        bounded = False
        if f.expires_at is None and f.type != "task":
            f.expires_at = (
                self._sentence_ends
                if f.key == "reply_style"
                else held_until(f.statement, until_only=f.domain == "项目" or f.type == "decision")
            )
            if f.expires_at is None and f.key in _COURSES:
                f.expires_at = self._course_ends
            bounded = f.expires_at is not None
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
        if target is None and f.key == "pet" and isinstance(f.value, dict):
            # 纠正一下，我家狗名字其实是来福: the dog known by another name is this one; 叫煤球
            # after 我家猫掉毛: the cat known without a name is the one now named.
            target = next(
                (
                    n
                    for n in reversed(known)
                    if n.status == "active"
                    and n.key == "pet"
                    and isinstance(n.value_json, dict)
                    and n.value_json.get("species") == f.value.get("species")
                    and (
                        self._correcting
                        or ("called" in f.value and "called" not in n.value_json)
                        or ("weight" in f.value and "called" not in f.value)
                    )
                ),
                None,
            )
            if target is not None and "weight" in f.value and "called" not in f.value:
                # 我家兔子6斤 of the rabbit known as 团子: the same pet, now with its weight.
                assert isinstance(target.value_json, dict)
                f.value = {**target.value_json, "weight": f.value["weight"]}
                if "called" in f.value:
                    # The name kept; a weight said before gives way to this one.
                    base = re.sub(r"\s*[（(][^（()）]*[）)]$", "", target.title)
                    weight = f.value["weight"]
                    f.title = f"{base}（{weight}）" if f.statement.zh else f"{base} ({weight})"
        if target is None and self._correcting and f.key is not None:
            # 我说错了，是菠萝过敏: replaces what the corrected message said under this key.
            target = next(
                (
                    n
                    for n in reversed(known)
                    if n.status == "active"
                    and (
                        _same_kind(n, f)
                        # 上次说的茶我说错了，我最爱的是普洱: the memory of what the lead names.
                        or (
                            bool(self._correcting_topic)
                            and self._correcting_topic in f"{n.title} {n.content}"
                        )
                    )
                    and (set(self._correcting) & set(n.source_message_ids))
                ),
                None,
            )
        if target is None and self._correcting_text and f.key is not None:
            # I'm not fully vegan, I'm pescatarian; 是头孢 青霉素我没事的: a correction that
            # names the old value replaces the memory of the same kind that holds it,
            # whenever it was said.
            target = next(
                (
                    n
                    for n in reversed(known)
                    if n.status == "active"
                    and _same_kind(n, f)
                    and n.value_identity() != value_identity(f.value)
                    and revisions.mentions(self._correcting_text, _value_words(n))
                ),
                None,
            )
        style = f.key == "dietary_restriction" and eating_style(f.value)
        if (
            target is None
            and not bounded
            and f.key is not None
            and not f.person
            and (style or self.registry.single_valued(f.domain, f.type, f.key))
        ):
            # A one-value fact said anew (我上周搬去佛山了): it replaces the old value, and the
            # memories said with the old one stop quoting it. One eating style at a time too
            # (pescatarian after vegetarian), beside any number of foods one does not eat.
            old = next(
                (
                    n
                    for n in reversed(known)
                    if n.status == "active"
                    and (n.domain, n.type, n.key) == (f.domain, f.type, f.key)
                    and n.value_identity() != value_identity(f.value)
                    and (not style or eating_style(n.value_json))
                ),
                None,
            )
            if old is not None:
                target = old
                self._scrub([_value_words(old)], [old], known, found)
        if target is None and f.type == "task" and isinstance(f.value, dict) and f.value.get("due"):
            # "paint the fence sometime this month", then "fence painting is on the 14th":
            # the task now has its date.
            target = next(
                (
                    n
                    for n in reversed(known)
                    if n.type == "task"
                    and n.status == "active"
                    and isinstance(n.value_json, dict)
                    and n.value_json.get("due") != f.value.get("due")
                    and not set(src) & set(n.source_message_ids)
                    and same_work(task_words(n), str(f.value.get("task", "")))
                ),
                None,
            )
        draft = {**f.draft(), "source_message_ids": src}
        if any(op.node.key == f.key and op.node.value_json == f.value for op in found.ops):
            return  # one sentence, one rule (团队新规矩：…，…，…)
        if target is not None:
            found.add("supersede", f.reason, target_id=target.id, **draft)
        else:
            found.add("create", f.reason, **draft)

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


# What the user calls themselves or says to others (I just say vegan sometimes lol; 我跟人
# 一般说我吃素): the word used, not what holds.
_SAYS_A_WORD = re.compile(
    r"^(?:and\s+|but\s+)?i\s+(?:just\s+|usually\s+|sometimes\s+|always\s+|often\s+|only\s+|tend\s+to\s+)*"
    r"(?:say|tell\s+people|call\s+myself|put\s+down|describe\s+myself\s+as)\s+(?!(?:that|so|no|yes|hi|hello|thanks|thank)\b)"
    r"|^(?:我)?(?:一般|有时候?|平时|通常|就|只是|都)*(?:跟人|对外|跟别人|对别人|和别人)(?:一般|都|就)?(?:说|讲)",
    re.IGNORECASE,
)
# A clause after a take-back that says the thing is not settled or is private (房子还没签,
# 可能会变, 隐私, might change, it's private): the reason for taking it back.
_UNSURE = re.compile(
    r"还没(?:定|签|确定|决定|落实)|没定|可能会?变|说不定|不一定|不确定|隐私|私密|不想让人知道"
    r"|\b(?:might|may) (?:change|fall through)|\bnot (?:sure|final|settled|confirmed)\b|\bprivate\b|\bpersonal\b",
    re.IGNORECASE,
)
# A clause that speaks of what was just taken back by a pronoun (he'd hate that, 她不想让人
# 知道, it's private): the reason for the take-back, nothing to keep.
_POINTS_TO_IT = re.compile(
    r"^\s*(?:(?:and|because|cause|since|as)\s+)?(?:he|she|they|it|that|this)(?:'d|'s|'ll|'re)?\b"
    r"|^\s*(?:因为)?(?:他|她|它|他们|她们|这|那)",
    re.IGNORECASE,
)


# A sentence that says its taste has always been so (从小就这样, ever since I was a kid):
# today's word in it times the occasion, not the taste.
_LASTING = re.compile(
    r"从小|打小|向来|一向|天生|从来都|一直都这样|一辈子"
    r"|\b(?:always have|always been|ever since|since i was (?:a kid|little|young|a child|\d+)|my whole life|all my life)\b",
    re.IGNORECASE,
)
# The memories a time completes (a task's deadline, a trip, a birthday).
_TIMED_KEYS = frozenset({"task_status", "travel_plan", "birthday"})
# Words that open a list of things to do (这周要干三件事：, things to do this week:).
_LIST_LEAD = re.compile(
    r"(?:要|得|需要)(?:干|做|办|弄|搞|处理)(?:(?:[几两三四五六\d]|好几)件事|的事情?|的事儿)$|事项$|待办(?:事项)?$|(?:任务|清单)$|^to-?dos?(?: list)?(?: for| this| today|$)|things to do|my list|\b(?:backlog|errands|chores)(?: for| this| today)?[\w ]{0,12}$",
    re.IGNORECASE,
)


# A clause that opens with a verb of a chore (mow the lawn, 给车续保险).
# What goes into a drink (喝咖啡不加糖, 奶茶要少糖, I take my coffee black, no sugar): how the
# user has that drink, no rule for the dishes recommended to them (我不喝牛奶 still is one).
_INTO_A_DRINK = re.compile(
    r"(?:咖啡|茶|奶茶|豆浆|拿铁|美式|果汁)[^，,。；;！!？?]{0,6}?(?:加|放|要|少|多|去|无|半|[一二三四五七\d]分)(?:点)?(?:糖|奶|冰|蜂蜜|奶精|伴侣|植脂末)"
    r"|\b(?:coffee|tea|latte|cappuccino|chai)s?\b[^,.;!?]{0,20}?\b(?:sugar|milk|cream|honey|sweetener|oat milk|black)\b",
    re.IGNORECASE,
)
_DRINK = re.compile(
    r"咖啡|奶茶|茶|豆浆|拿铁|美式|果汁|\b(?:coffee|tea|latte|cappuccino|chai)s?\b", re.IGNORECASE
)
# What is put in or how sweet (no sugar, 加奶就行, 太甜受不了): said after the drink, of it.
_ADDITIVE = re.compile(
    r"糖|奶|冰|甜|蜂蜜|\b(?:sugar|milk|cream|honey|sweet|sweetener|black)\b", re.IGNORECASE
)
_EATING_WORDS = re.compile(r"吃|\b(?:eat|eating|food)\b", re.IGNORECASE)


def _into_a_drink(st: Statement) -> bool:
    """The clause says what goes into a drink (喝咖啡不加糖; I take my coffee black, no
    sugar; 奶茶要三分糖，太甜受不了): nothing of the dishes to recommend."""
    if _COOKING_WORDS.search(st.text) or _EATING_WORDS.search(st.text):
        return False
    if _INTO_A_DRINK.search(st.text):
        return True
    said = st.sentence[: st.sentence.find(st.text)] if st.text in st.sentence else ""
    return bool(_DRINK.search(said) and _ADDITIVE.search(st.text) and not _DRINK.search(st.text))


_COOKING_WORDS = re.compile(
    r"做菜|炒|炖|煮|烧|菜谱|做饭|菜里|饭菜|甜品|甜点|蛋糕|点心|汤|\b(?:cook|cooking|recipe|recipes|dish|dishes|meal|meals|bake|baking|dessert|soup)\b",
    re.IGNORECASE,
)
# A must said in a clause (要, 得, have to): work to do, even after "we decided".
_MUST_WORDS = re.compile(
    r"要|得|必须|需要|记得|别忘|\b(?:have to|has to|need to|needs to|must|gotta|got to|should)\b",
    re.IGNORECASE,
)
_CHORE_START = re.compile(
    r"^(?:also\s+|then\s+)?(?:buy|mow|call|ring|pay|book|send|finish|clean|pick|drop|get|fix|email|text|write|do|go|make|take|submit|renew|cancel|order|return|check|update|prepare|print|sign|file|visit|see|meet|bring|wash|cook|sort|tidy|pack|collect|post|reply|review|schedule|arrange|move|sell|apply|register|charge|water|feed|walk)\b"
    # 还 of returning a thing, not of "still" (还没开始写 is how the work stands).
    r"|^(?:再|还要|还得|然后)?(?:去|给|把|买|交|订|约|办|换|取|寄|还(?![没未不是在有挺很行好算可要得])|退|修|洗|打电话|预约|报名|续)",
    re.IGNORECASE,
)


# A clause that opens another thing (另外…, also…): no detail of the one before.
_ANOTHER_THING = re.compile(
    r"^(?:另外|还有|再就是|而且|并且|此外|顺便|对了|also|and also|plus|besides|oh and|btw|by the way)\b|^(?:另外|还有|再就是|此外|顺便|对了)",
    re.IGNORECASE,
)


def _only_times(st: Statement) -> bool:
    """The clause says a time and nothing else (下周三, on Friday)."""
    rest = st.text
    for t in st.times:
        rest = rest.replace(t.text, "")
    return not re.search(
        r"[\u4e00-\u9fff]{2,}|[A-Za-z]{3,}", re.sub(r"\b(?:on|at|by|in|the)\b", "", rest)
    )


def _told(group: list[Statement]) -> list[Statement]:
    """The clauses that say what someone told the user, with no subject of their own
    (老板刚说了，季度报告下周五之前要交; my landlord said, rent's due on the 1st): the
    speaker carried into them is no subject of theirs."""
    out = []
    for before, st in pairwise(group):
        if (
            st.subject.kind == "person"
            and not st.explicit_subject
            and before.subject.kind == "person"
            and _TELLS.search(before.text)
        ):
            out.append(st)
    return out


_TELLS = re.compile(
    r"(?:说|讲|通知|交代|吩咐|提醒)(?:了|过|一声)?$|\b(?:said|says|told me|reminded me)$",
    re.IGNORECASE,
)


def leads_of(group: list[Statement]) -> list[Statement]:
    """The clauses that open a list of things to do (two big things this month:)."""
    return [st for st in group if _LIST_LEAD.search(st.text) or _leads_a_list(st)]


def _draft_words(value: object, title: str | None) -> str:
    if isinstance(value, dict) and value.get("task"):
        return str(value["task"])
    return title or ""


def _leads_a_list(st: Statement) -> bool:
    """A clause that a colon ends and that says there are things to do (这礼拜我得：…; To-do
    before the move on the 21st: …; Tasks for this sprint: …)."""
    after = st.sentence[st.sentence.find(st.text) + len(st.text) :].lstrip()
    if after[:1] not in (":", "："):
        return False
    return bool(
        re.search(r"得|要|需要|要做|要办|待办|任务|清单|安排", st.text)
        or LIST_NOUNS_ZH.search(st.text)
        or LIST_NOUNS_EN.search(st.text)
        or re.search(
            r"\b(?:to-?dos?|tasks?|things|need to|have to|errands|chores|list|plan)\b",
            st.text,
            re.IGNORECASE,
        )
    )


def _list_time(st: Statement) -> TimeMention | None:
    """The time a list's lead gives its items (这周), if any."""
    return next((t for t in st.times if not t.past and t.starts is not None), None)


# One value per person: a new one replaces the old (their age, their school).
_PERSON_SINGLE = frozenset({"age", "school", "occupation", "employer", "birthday", "city"})
# What a course of treatment bounds (在吃抗生素，要吃七天).
_COURSES = frozenset({"medication", "health_condition"})


def _it_as_the_pet(
    st: Statement, known: list[MemoryNode], found: Found, now: datetime
) -> Statement:
    """它叫豆包 when the user has one kind of pet: 它 is that pet (我家狗叫豆包), so what is
    said of it is read as said of the pet — its name said again replaces the old one."""
    if not st.zh or not _IT_ZH.match(st.text):
        return st
    said = [(n.key, n.value_json) for n in known] + [
        (op.node.key, op.node.value_json) for op in found.ops
    ]
    kinds = {
        str(v["species"])
        for key, v in said
        if key == "pet" and isinstance(v, dict) and v.get("species")
    }
    if len(kinds) != 1:
        return st  # no pet, or two kinds: which one 它 is is not said
    text = _IT_ZH.sub(f"我家{kinds.pop()}", st.text, count=1)
    read = read_statements(
        text, st.times[0].starts if st.times and st.times[0].starts else datetime.now().astimezone()
    )
    if len(read) != 1:
        return st
    return replace(read[0], sentence=st.sentence, index=st.index, times=st.times)


_IT_ZH = re.compile(r"^(?:其实|真名|大名|本名)?它(?!们)(?=(?:其实|真名)?叫)")


def _named_as_known(st: Statement, known: list[MemoryNode], found: Found) -> Statement:
    """Maya's turning 7 after "my daughter Maya…": a name alone speaks of the one person the
    user named so before (their daughter Maya); a name nobody was given stays a name."""
    subject = st.subject
    said: list[tuple[str | None, Any]] = [(n.key, n.value_json) for n in known]
    said += [(op.node.key, op.node.value_json) for op in found.ops]
    pets = {
        str(v["called"]): str(v.get("species") or "pet")
        for key, v in said
        if key == "pet" and isinstance(v, dict) and v.get("called")
    }
    lead = st.text.lstrip()
    for called, species in pets.items():
        # 团子对鸡肉过敏, Mochi is allergic to chicken, after the pet was named so: said of the
        # pet (kept as its own, as "my cat Mochi…" is), never of the user nor of a person.
        named = (subject.kind == "person" and subject.name.casefold() == called.casefold()) or (
            st.zh and subject.kind in ("self", "none") and lead.startswith(called)
        )
        if named:
            body = st.body if subject.kind == "person" else lead[len(called) :].lstrip("，, ")
            return replace(
                st, subject=Subject("person", species, called), body=body, explicit_subject=True
            )
    if subject.kind != "person" or subject.relation or not subject.name:
        return st
    name = subject.name.casefold()
    relations = {
        str(v.get("person"))
        for key, v in said
        if key == "family_member"
        and isinstance(v, dict)
        and str(v.get("called", "")).casefold() == name
        and v.get("person")
        and str(v.get("person")).casefold() != name
    }
    if len(relations) != 1:
        return st  # none, or two people of that name: which one is not said
    return with_subject(st, Subject("person", relations.pop(), subject.name))
