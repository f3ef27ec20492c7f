"""How the default extractor revises what was said: take-backs (别记…了, scratch that last
bit), corrections (不对，是周四; I meant Birmingham; 上次说的茶我说错了) and updates of a
topic (钢琴课改成周六上午). A mixin of ``RuleBasedExtractor``: it re-reads corrected words
through the extractor's own frames."""

from __future__ import annotations

import re
from datetime import timedelta

from ekko_memory.models import MemoryMessage, MemoryNode, MemoryNodeDraft
from ekko_memory.service.extraction import revisions
from ekko_memory.service.extraction.findings import Finding, Found, clip
from ekko_memory.service.extraction.statements import Statement, Subject, read_statements
from ekko_memory.service.extraction.takeback import (
    KEY_NAMES,
    LAST_BIT,
    POINTS_BACK,
    kept_by,
    names,
    pointed_at,
    what_is_taken_back,
)

# A take-back that points at one thing said (那条删掉, delete that one).
_THAT_ONE = re.compile(
    r"^\W*(?:哎|唉|嗯|啊|呃)?\W*(?:那条|这条|那句|这句)|\b(?:that|this) one\b", re.IGNORECASE
)


# A take-back that names a person only by a pronoun (关于他的都删了吧, forget about her).
_BY_PRONOUN = re.compile(
    r"(?:关于)?(?:他们|她们|他|她)(?:的)?(?:事|事情|东西|那些|这些)?|him|her|them", re.I
)


class Revising:
    """Take-backs, corrections and updates; the extractor supplies ``_message``."""

    _correcting: list[str]
    # The person the message (or the one before it) spoke of last: 他 of a take-back.
    _last_person: Subject | None

    def _message(
        self,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        history: list[MemoryMessage],
    ) -> None:
        raise NotImplementedError

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
        named = what_is_taken_back(st.text) or pointed_at(st.sentence, st.text)
        person = self._last_person
        if person is not None and (
            _BY_PRONOUN.fullmatch(named.strip())
            or (not named and re.search(r"关于(?:他|她)", st.text))
        ):
            # 关于他的都删了吧: all that names the person spoken of.
            named = person.name or person.relation
        # What the user said last (the assistant's reply between states nothing of theirs).
        previous = next((m for m in reversed(history) if m.id != msg.id and m.role == "user"), None)
        if LAST_BIT.search(st.sentence):
            named = ""  # "that last bit" names no memory: the end of the message before
        said: list[MemoryNode] = []
        if previous is not None:
            said = [
                n for n in known if n.status == "active" and previous.id in n.source_message_ids
            ]
            if LAST_BIT.search(st.sentence):
                # ignore that last bit: only what the message's last sentence stated.
                parts = [p for p in re.split(r"(?<=[.!?。！？])\s*", previous.content) if p.strip()]
                last = revisions.topic_words(parts[-1]) if parts else set()
                said = [n for n in said if last & revisions.topic_words(f"{n.title} {n.content}")]
        targets: list[MemoryNode] = []
        proposed = list(found.ops)
        if named:
            targets = [
                n
                for n in known
                if n.status == "active" and (names(n, named) or _holds_detail(n, named))
            ]
            # Proposed earlier in this batch and not written yet: dropped.
            found.ops[:] = [
                op for op in found.ops if not (op.operation == "create" and _op_mentions(op, named))
            ]
            if not targets and POINTS_BACK.search(st.text) and len(said) == 1:
                # 刚才说的吃药那个你别记了: the one thing the message before it stated.
                targets = said
            elif not targets and _THAT_ONE.search(st.text):
                # 那条删掉吧 不想天天看到这个数: "that one" and why, naming no memory — what
                # the user's message before it stated.
                targets = said
        elif previous is not None:
            targets = said
            found.ops[:] = [
                op for op in found.ops if previous.id not in (op.node.source_message_ids or [])
            ]
        if named:
            # 小区名字删了吧 of 我住在苏州工业园区星湖小区: the detail goes, the city stays.
            sources = {m.id: m.content for m in history if m.role == "user"}
            whole = []
            for node in targets:
                where = " ".join(sources.get(i, "") for i in node.source_message_ids)
                cut = detail_cut(node, named, where or node.content)
                if cut is None:
                    whole.append(node)
                elif isinstance(cut, dict):
                    found.add(
                        "update", "the user took back a detail of it", target_id=node.id, **cut
                    )
            targets = whole
        kept = kept_by(msg.content)
        if kept:
            # 当我没说，就记个目标就行: what the take-back keeps stays, proposed or stored.
            targets = [n for n in targets if not names(n, kept)]
            found.ops += [
                op
                for op in proposed
                if not any(op is o for o in found.ops)
                and op.operation == "create"
                and names(op.node, kept)  # type: ignore[arg-type]
            ]
        reason = "asked to forget it" if named else "took back what they had just said"
        for node in targets:
            found.add("expire", reason, target_id=node.id)
        if named:
            self._scrub([_value_words(n) for n in targets], targets, known, found)

    def _scrub(
        self, values: list[str], gone: list[MemoryNode], known: list[MemoryNode], found: Found
    ) -> None:
        """Memories said in the same breath as what was taken back or corrected keep their
        own words, not the old value (我在阿里做产品经理's occupation, once the company is
        corrected, no longer quotes 阿里)."""
        sources = {i for n in gone for i in n.source_message_ids}
        dropped = {n.id for n in gone} | {
            op.target_id for op in found.ops if op.operation in ("supersede", "expire")
        }
        for node in known:
            if (
                node.id in dropped
                or node.status != "active"
                or not sources & set(node.source_message_ids)
            ):
                continue
            hit = [v for v in values if v and v in node.content and v not in node.title]
            if hit:
                found.add(
                    "update",
                    "what it was said with was taken back",
                    target_id=node.id,
                    content=node.title,
                )
                continue
            # 我在字节做运营，天天996: the routine's title quotes the old employer, its own
            # clause (天天996) does not — it keeps its own words only.
            quoted = [v for v in values if v and v in node.title and v not in node.content]
            if quoted and len(node.content) >= 2:
                changed: dict[str, object] = {"title": clip(node.content, 60)}
                if isinstance(node.value_json, str) and any(v in node.value_json for v in quoted):
                    changed["value_json"] = clip(node.content, 120)
                found.add(
                    "update", "what it was said with was taken back", target_id=node.id, **changed
                )

    def _correct(
        self,
        text: str,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        history: list[MemoryMessage],
    ) -> tuple[set[int], list[str]]:
        """A correction (不对，是周四; 是无锡不是苏州; sorry, I meant Birmingham): the statement it
        corrects, read again with the new value, replaces what that statement left.

        Returns the clauses it consumed (their words were the correction) and the messages it
        corrects (what the rest of the message states under a key replaces theirs)."""
        pair = revisions.old_and_new(text)
        lead = revisions.CORRECTION_LEAD.search(text)
        # well, pescatarian technically; 准确说是蛋奶素: a value, hedged as the precise one.
        hedged = revisions.hedged_value(text) if pair is None and lead is None else ""
        if (
            pair is None
            and lead is None
            and not hedged
            and not revisions.bare_value(text, msg.created_at)
        ):
            return set(), []
        previous = [m for m in reversed(history) if m.id != msg.id][:3]
        corrected_ids = [m.id for m in previous[:1]]
        correction = text[lead.end() :] if lead is not None else text
        if hedged:
            correction = text[text.find(hedged) :]
        while lead is not None:
            # 哦不对，我打错了，是无锡: one lead after another, then the value.
            more = revisions.CORRECTION_LEAD.match(correction)
            if more is None or more.end() == 0:
                break
            correction = correction[more.end() :]
        value_at = len(text) - len(correction.lstrip())
        correction = re.split(r"[，,。.!！;；]", correction.strip(), maxsplit=1)[0]
        if hedged:
            correction = hedged  # without its hedge (technically)
        if re.match(r"[\u4e00-\u9fff]", correction):
            # Chat puts a space where a comma goes (是头孢 青霉素我没事的).
            correction = re.split(r"\s+", correction, maxsplit=1)[0]
        candidates: list[tuple[str, str]] = []
        said_before = text[: lead.start()] if lead is not None else ""  # 我生日5月12……不对
        span = revisions.both_values_at(text)
        # 我家猫不叫年糕，叫汤圆，之前打错了: the old value said only as the one denied is no
        # statement of it.
        stated = said_before[: span[0]] + said_before[span[1] :] if span else said_before
        if stated and (pair is None or pair[0] in stated):
            candidates.append((said_before, msg.id))
        candidates += [(m.content, m.id) for m in previous]
        after = text[value_at + len(correction) :]
        if (
            pair is None
            and lead is not None
            and any(revisions.ambiguous(said, correction) for said, said_id in candidates[:2])
        ):
            # 狗20斤，猫9斤 → 其实是22斤: the value fits two things just said; nothing changes.
            return self._clauses_of(text, lead, msg), []
        for said, said_id in candidates:
            # 是头孢 青霉素我没事的; I'm at X, no idea why I wrote Y: the word the correction
            # names again is the old one (first in English, where a name says it best).
            again = revisions.named_again(said, after, correction) if pair is None else ""
            english = not re.search(r"[\u4e00-\u9fff]", correction)
            fixed = None
            if again and english:
                fixed = said.replace(again, revisions.value_of(correction), 1)
            if fixed is None:
                fixed = revisions.substituted(said, correction, pair)
            if fixed is None and again:
                fixed = said.replace(again, revisions.value_of(correction), 1)
            if fixed is None and pair is None:
                fixed = self._in_place_of_value(said, said_id, correction, msg, known)
            if fixed is None or fixed == said:
                continue
            if said_id != msg.id and not self._states_something(fixed, msg):
                # 今天好热 → 16号好热: the value fits its words, but they state nothing to
                # keep; the correction is of something else.
                continue
            self._restate(fixed, said_id, msg, known, found)
            if pair is not None and said_id != msg.id:
                gone = [
                    n
                    for n in known
                    if n.status == "active"
                    and said_id in n.source_message_ids
                    and pair[0] in f"{n.title}"
                ]
                self._scrub([pair[0]], gone, known, found)
            if said_id == msg.id:
                # 上三年级……哦不对，四年级了，…他不爱看书: the clauses up to the new value
                # were restated; what follows is read as said.
                end, at = value_at + len(correction), 0
                taken: set[int] = set()
                for st in read_statements(text, msg.created_at):
                    found_at = text.find(st.text, at)
                    at = found_at + len(st.text) if found_at >= 0 else at
                    if found_at < end:
                        taken.add(st.index)
                return taken, []
            return self._clauses_of(text, lead, msg), [said_id]
        if (
            lead is not None
            and lead.start() == 0
            and pair is None
            and previous
            and revisions.is_time(correction, msg.created_at)
        ):
            # 哦不对，是16号 a few turns after 14号看牙: the value replaces the same kind of
            # value in the memory stated last — only when exactly one memory of that message
            # holds one (two: which one is meant is unknown, and nothing changes), and only
            # with the conversation at hand (the words before it were read for ambiguity).
            # Only a date or time: a memory keeps each dated thing, but not every number
            # said beside the one it keeps (狗20斤，猫9斤 keeps the dog's).
            just = self._just_stated(known, msg)
            fits = [
                (node, fixed)
                for node in just
                if revisions.dated(node.content, msg.created_at)
                and (fixed := revisions.substituted(node.content, correction, None)) is not None
                and fixed != node.content
            ]
            if len(fits) == 1:
                node, fixed = fits[0]
                self._restate(fixed, None, msg, [node], found, target=node)
                return self._clauses_of(text, lead, msg), []
        if pair is not None:
            # Said in an earlier conversation: the memory that holds the old value.
            for node in known:
                if node.status == "active" and pair[0] in f"{node.title} {node.content}":
                    fixed = node.content.replace(pair[0], pair[1]) or node.title.replace(
                        pair[0], pair[1]
                    )
                    self._restate(fixed, None, msg, [node], found, target=node)
                    return self._clauses_of(text, lead, msg), []
        if lead is not None and lead.start() > 0:
            # 上回我媳妇名字打错了，是王莉: the memory of what the words before the lead name,
            # said in an earlier conversation, with the new value in place of the old.
            topic = revisions.topic_words(text[: lead.start()])
            for node in reversed(known):
                if node.status != "active" or not topic & revisions.topic_words(
                    f"{node.title} {node.content}"
                ):
                    continue
                fixed = revisions.substituted(node.title, correction, None)
                if fixed is not None and fixed != node.title:
                    self._restate(fixed, None, msg, [node], found, target=node)
                    return self._clauses_of(text, lead, msg), []
        # A correction whose new value is a statement of its own (纠正一下，我家狗名字其实是
        # 来福): what it states replaces what the corrected messages stated under its key.
        named_topic = revisions.named_topic(lead) if lead is not None else ""
        named = [
            n
            for n in known
            if named_topic
            and n.status == "active"
            and msg.id not in n.source_message_ids
            and named_topic in f"{n.title} {n.content}"
        ]
        if named:
            # 上次说的茶我说错了: what the lead names was said in an earlier conversation.
            corrected_ids = list(named[-1].source_message_ids)
        if lead is None:
            return set(), []
        # 才发现我一直记错了: the clause the lead ends is talk about the talk, no statement.
        said = lead.group().strip(" ，,。.！!？?…")
        meta = {
            st.index
            for st in read_statements(text, msg.created_at)
            if said and st.text.endswith(said)
        }
        return meta, corrected_ids or ["*"]

    def _states_something(self, fixed: str, msg: MemoryMessage) -> bool:
        """Read as said now, ``fixed`` states something to keep."""
        probe = Found(zh=bool(re.search(r"[\u4e00-\u9fff]", fixed)))
        self._message(msg.model_copy(update={"content": fixed}), [], probe, [])
        return bool(probe.ops)

    @staticmethod
    def _just_stated(known: list[MemoryNode], msg: MemoryMessage) -> list[MemoryNode]:
        """The memories stated within the hour before ``msg`` (a bare value corrects what
        was just said, not something of last week)."""
        recent = [
            n
            for n in known
            if n.status == "active"
            and n.source_message_ids
            and msg.id not in n.source_message_ids
            and timedelta(0) <= msg.created_at - n.created_at <= timedelta(hours=1)
        ]
        return recent

    def _in_place_of_value(
        self,
        said: str,
        said_id: str,
        correction: str,
        msg: MemoryMessage,
        known: list[MemoryNode],
    ) -> str | None:
        """``said`` with the value one of its memories holds replaced by the correction's
        (I'm vegetarian … → pescatarian technically: I'm pescatarian …; 我吃全素 → 准确说是蛋
        奶素: 我吃蛋奶素), when read again it states the new value under the same key; else
        None."""
        new = revisions.value_of(correction)
        if not new or len(new) > 30:
            return None
        for node in known:
            if node.status != "active" or said_id not in node.source_message_ids:
                continue
            old = _value_words(node)
            if not old or old.casefold() == new.casefold() or not revisions.mentions(said, old):
                continue
            at = said.casefold().find(old.casefold())
            # 吃全素 → 蛋奶素: the verb the old value opens with may be the new one's too.
            heads = [""] + [old[:k] for k in (1, 2) if len(old) > k and not old[:k].isascii()]
            for head in heads:
                fixed = said[:at] + head + new + said[at + len(old) :]
                probe = Found(zh=bool(re.search(r"[\u4e00-\u9fff]", fixed)))
                self._message(msg.model_copy(update={"content": fixed}), [], probe, [])
                if any(
                    op.node.key == node.key and revisions.mentions(str(op.node.value_json), new)
                    for op in probe.ops
                ):
                    return fixed
        return None

    def _clauses_of(self, text: str, lead: re.Match[str] | None, msg: MemoryMessage) -> set[int]:
        """The clauses a correction's own words take (the lead and the value after it)."""
        end = lead.end() if lead is not None else 0
        out = set()
        for st in read_statements(text, msg.created_at):
            out.add(st.index)
            if text.find(st.text) + len(st.text) >= end:
                break
        return out

    def _restate(
        self,
        fixed: str,
        said_id: str | None,
        msg: MemoryMessage,
        known: list[MemoryNode],
        found: Found,
        target: MemoryNode | None = None,
    ) -> None:
        """Read ``fixed`` (a corrected statement) as said now; what it states replaces what
        the corrected one left under the same key."""
        probe = Found(zh=found.zh)
        self._message(msg.model_copy(update={"content": fixed}), [], probe, [])
        if said_id == msg.id:
            # Corrected within the message: nothing of its first reading is kept.
            found.ops[:] = [
                op for op in found.ops if msg.id not in (op.node.source_message_ids or [])
            ]
        elif said_id is not None:
            found.ops[:] = [
                op for op in found.ops if said_id not in (op.node.source_message_ids or [])
            ]
        for op in probe.ops:
            old = target or next(
                (
                    n
                    for n in reversed(known)
                    if n.status == "active"
                    and _same_key(n, op.node)
                    and said_id is not None
                    and said_id in n.source_message_ids
                ),
                None,
            )
            draft = op.node.model_dump(exclude_none=True)
            if old is not None and op.operation == "create":
                found.add("supersede", "corrected what they had said", target_id=old.id, **draft)
            else:
                found.ops.append(op)

    def _replace(self, node: MemoryNode, st: Statement, src: list[str], found: Found) -> None:
        """Replace ``node`` by the statement that updates it, in the user's words."""
        said = st.text
        rest = st.sentence[st.sentence.find(st.text) + len(st.text) :]
        if not st.times and not re.search(r"\d", said) and rest.strip(" ，,"):
            # 学校改作息了，下午三点半就放了: the topic, then its new value in the next clause.
            said += rest[: len(rest) - len(rest.lstrip(" ，,"))]
            said += re.split(r"[，,。.!！？?;；]", rest.lstrip(" ，,"), maxsplit=1)[0]
        said = clip(said, 120)
        value: object = said
        if isinstance(node.value_json, dict):
            field = next((f for f in ("task", "said") if f in node.value_json), "value")
            value = {**node.value_json, field: said}
        found.add(
            "supersede",
            "the user updated it",
            target_id=node.id,
            domain=node.domain,
            category_path=node.category_path,
            type=node.type,
            key=node.key,
            value_json=value,
            title=said,
            content=st.sentence if len(st.sentence) <= 200 else said,
            tags=node.tags,
            entities=node.entities,
            source_message_ids=src,
            confidence=node.confidence,
            importance=node.importance,
        )

    # --- notes and reply language ---------------------------------------------------


# Memories whose value is one thing that the user's words may tell more finely (a city said
# with the street, an employer with the team): a take-back of that detail leaves the thing.
_WITH_DETAILS = frozenset({"city", "hometown", "employer", "school", "occupation"})
# Where an English detail starts (at 12 Elm Street, on Baker Road) and where it ends.
_PREPOSITION_EN = re.compile(r"\s*\b(?:at|on|in|off|near|by|from|with)\b", re.IGNORECASE)


def detail_cut(node: MemoryNode, named: str, said: str) -> dict[str, str] | bool | None:
    """What a take-back naming ``named`` leaves of ``node``: None when it names the memory
    itself (its value, or the topic of its key: 住的地方, 生日), False when it names a detail
    said beside it that the memory does not hold (锦华路 of 我在成都，新家在锦华路 — nothing of
    the city goes), or the memory's title and content without the detail (小区 of 我住在苏州
    工业园区星湖小区: 我住在苏州工业园区; the street of "I live at 12 Elm Street in Leeds")."""
    if node.key not in _WITH_DETAILS:
        return None
    value = _value_words(node) or str(node.value_json or "")
    if not value:
        return None
    topic = {t for t in revisions.topic_words(named)}
    key_words = {k.casefold() for k in KEY_NAMES.get(node.key, ())}
    if any(revisions.mentions(value, t) or revisions.mentions(t, value) for t in topic):
        return None  # the value itself is named
    details = [
        t
        for t in topic
        if t.casefold() not in key_words
        and not any(k in t.casefold() for k in key_words if not k.isascii())
        and revisions.mentions(said, t)
    ]
    if not details:
        return None
    held = [d for d in details if revisions.mentions(f"{node.title} {node.content}", d)]
    if not held:
        return False
    title = _without(node.title, value, held[0])
    content = _without(node.content, value, held[0])
    if title is None or content is None:
        return None
    return {"title": title, "content": content}


def _holds_detail(node: MemoryNode, named: str) -> bool:
    """``node`` (a city, an employer) holds in its words a Chinese word the take-back names
    (小区 of 我住在苏州工业园区星湖小区): a detail of it may be what is taken back."""
    if node.key not in _WITH_DETAILS:
        return False
    return any(
        len(t) >= 2 and re.search(r"[\u4e00-\u9fff]", t) and t in f"{node.title}{node.content}"
        for t in revisions.topic_words(named)
    )


def _without(text: str, value: str, detail: str) -> str | None:
    """``text`` without the words of ``detail``, ``value`` kept; None when they cannot be
    told apart (the detail inside the value)."""
    folded = text.casefold()
    at = folded.find(detail.casefold())
    if at < 0:
        return text
    vat = folded.find(value.casefold())
    if vat >= 0 and vat <= at < vat + len(value):
        return None
    if re.search(r"[\u4e00-\u9fff]", detail):
        # 我住在苏州工业园区星湖小区3栋: from after the value to the clause's end; a clause
        # without the value goes whole.
        start = text.rfind("，", 0, at) + 1
        start = max(start, text.rfind(",", 0, at) + 1)
        end = min(
            (i for i in (text.find(p, at) for p in "，,。；;！!") if i >= 0), default=len(text)
        )
        if 0 <= vat < at and vat >= start:
            start = vat + len(value)
        elif start > 0:
            start -= 1  # the comma before the clause goes with it
        cut = text[:start] + text[end:]
    else:
        # I live at 12 Elm Street in Leeds: the phrase of the detail, from its preposition.
        starts = [m.start() for m in _PREPOSITION_EN.finditer(text, 0, at)]
        if not starts:
            return None
        start = starts[-1]
        after = _PREPOSITION_EN.search(text, at)
        stop = re.search(r"[,.;!?]", text[at:])
        end = min(
            after.start() if after else len(text),
            at + stop.start() if stop else len(text),
        )
        if 0 <= vat < end and vat >= start:
            return None
        cut = text[:start] + text[end:]
    cut = re.sub(r"\s{2,}", " ", cut).strip(" ，,")
    return cut if cut and revisions.mentions(cut, value) else None


def _value_words(node: MemoryNode) -> str:
    """The text a memory's value says (Bristol of a city, 阿里 of an employer)."""
    value = node.value_json
    if isinstance(value, str):
        return (
            value
            if not value.isascii()
            else next((e for e in node.entities if e.casefold() == value.casefold()), value)
        )
    return ""


def _same_kind(node: MemoryNode, f: Finding) -> bool:
    """A correction's statement and an earlier memory say the same kind of thing: the same
    key, or both an allergy (菠萝过敏 corrects 对芒果过敏, a food one's key is the cooking
    avoid_ingredient)."""
    if node.key == f.key:
        return True
    allergy = {"allergy"}
    return (node.key in allergy or "过敏" in node.tags) and (f.key in allergy or "过敏" in f.tags)


# A way of eating as a whole (one at a time), not a food left out (不吃猪肉, no dairy).
_EATING_STYLE = re.compile(
    r"^(?:吃)?(?:全素|素食(?:主义)?者?|吃素|蛋奶素|吃斋|生酮(?:饮食)?|清真)$|^(?:是)?素食"
    r"|^(?:(?:fully|strictly|mostly)\s+)?(?:vegetarian|vegan|veggie|pescatarian|pescetarian|"
    r"plant-based|keto|paleo|flexitarian|carnivore|halal|kosher)$",
    re.IGNORECASE,
)


def eating_style(value: object) -> bool:
    """``value`` names a way of eating as a whole (vegetarian, 蛋奶素)."""
    return isinstance(value, str) and bool(_EATING_STYLE.match(value.strip()))


def _same_key(node: MemoryNode, draft: MemoryNodeDraft) -> bool:
    """A corrected statement's memory and the old one hold the same thing: the same key, or
    both an allergy (菠萝过敏 for 芒果过敏, whichever key a food's allergy took)."""
    if node.key == draft.key:
        return True
    return _allergy(node.key, node.tags) and _allergy(draft.key, draft.tags or [])


def _allergy(key: str | None, tags: list[str]) -> bool:
    return key == "allergy" or "过敏" in tags


def _op_mentions(op: object, named: str) -> bool:
    node = getattr(op, "node", None)
    if node is None:
        return False
    folded = named.casefold()
    words = [*(node.entities or []), str(node.value_json or "")]
    return any(w and str(w).casefold() in folded for w in words if len(str(w)) >= 2)
