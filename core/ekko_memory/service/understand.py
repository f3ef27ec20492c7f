"""Read a sentence as the after-reply extraction would, without storing anything.

The app's "New memory" box: the user types "我不吃香菜" or "Reply in English from now on",
sees what Ekko understood (category, kind, key and value, until when) and confirms it.
The configured extractor reads the sentence as one user message (the rules when it
fails: a model that does not answer must not refuse the sentence); each proposal is
normalized under the controlled schema as a conversation's would be. A sentence nothing
understands is kept as a note in the user's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ekko_memory.errors import InvalidInput
from ekko_memory.ids import new_id
from ekko_memory.models import (
    MAX_CONTENT_CHARS,
    MemoryExtraction,
    MemoryMessage,
    MemoryNodeDraft,
    Understanding,
)
from ekko_memory.service.extraction.protocol import ExtractionInput
from ekko_memory.service.extraction.rule_extractor import RuleBasedExtractor
from ekko_memory.service.write_plan import WriteContext, plan_node

if TYPE_CHECKING:
    from ekko_memory.service.memory_service import MemoryService

# Where a sentence nothing understands is kept: the user's own notes.
NOTE_DOMAIN = "个人"
NOTE_PATH = ("个人", "笔记")
NOTE_TITLE_CHARS = 60
# The draft fields a stored memory takes from its plan (the rest the write fills).
_FIELDS = (
    "scope",
    "domain",
    "category_path",
    "type",
    "key",
    "value_json",
    "title",
    "content",
    "tags",
    "entities",
    "expires_at",
)
_WRITES = ("create", "update", "supersede")


def note_for(text: str) -> MemoryNodeDraft:
    """The sentence kept as a note, in the user's words."""
    title = text if len(text) <= NOTE_TITLE_CHARS else text[: NOTE_TITLE_CHARS - 1] + "…"
    return MemoryNodeDraft(
        scope="user",
        domain=NOTE_DOMAIN,
        category_path=list(NOTE_PATH),
        type="fact",
        title=title,
        content=text,
    )


def understand(service: MemoryService, text: str) -> Understanding:
    """The memories ``text`` proposes, normalized as they would be stored; nothing is written."""
    text = text.strip()
    if not text:
        raise InvalidInput("type a sentence to remember")
    if len(text) > MAX_CONTENT_CHARS:
        raise InvalidInput(f"a memory's sentence holds at most {MAX_CONTENT_CHARS} characters")
    now = service.now()
    message = MemoryMessage(
        id=new_id("msg"), session_id="understand", role="user", content=text, created_at=now
    )
    data = ExtractionInput(
        session_id=message.session_id,
        messages=[message],
        previous_summary=None,
        known_nodes=[],
        now=now,
    )
    extraction = _extract(service, data)
    ctx = WriteContext(actor="extractor", session_id=message.session_id, source_text=text)
    drafts: list[MemoryNodeDraft] = []
    for op in extraction.nodes:
        if op.operation not in _WRITES:
            continue
        try:
            planned = plan_node(service.registry, op.node, ctx, now).node
        except InvalidInput:
            continue  # a proposal the schema refuses is not what the sentence says
        if planned.scope == "session":
            # No conversation to keep it to: the user typed it for later.
            planned = planned.model_copy(
                update={"scope": "user" if not planned.expires_at else "workspace"}
            )
        draft = MemoryNodeDraft.model_validate({name: getattr(planned, name) for name in _FIELDS})
        if all(_differs(draft, d) for d in drafts):
            drafts.append(draft)
    if not drafts:
        return Understanding(text=text, understood=False, memories=[note_for(text)])
    return Understanding(text=text, understood=True, memories=drafts)


def _extract(service: MemoryService, data: ExtractionInput) -> MemoryExtraction:
    try:
        return service.extractor.extract(data)
    except Exception:  # a model that does not answer (ExtractionFailed…): the rules read it
        if isinstance(service.extractor, RuleBasedExtractor):
            raise
        return RuleBasedExtractor(service.registry).extract(data)


def _differs(a: MemoryNodeDraft, b: MemoryNodeDraft) -> bool:
    return (a.domain, a.type, a.key, a.value_json, a.title) != (
        b.domain,
        b.type,
        b.key,
        b.value_json,
        b.title,
    )
