"""Forget everything about a word, a selection of memories, or all of it: a plain preview
(memories with their versions, messages, summaries) first, then the purge it describes.

Underneath it is the purge (``service/purge.py``): the same dry run, the same removal in
batches, the same compaction and byte scan of the files afterwards. A word matches as
``service/word_match.py`` says (Chinese as a substring, a Latin word whole, any case);
by default the matching conversation text and the summaries built on it or quoting the
word go too.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from ekko_memory.errors import Conflict, InvalidInput, NotFound
from ekko_memory.models import (
    ForgetPreview,
    ForgetResult,
    PurgeFilter,
    PurgePlan,
    PurgeReport,
)
from ekko_memory.service.progress import CancelToken, ProgressCallback

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ekko_memory.service.memory_service import MemoryService

MAX_TITLES = 20
ALL_SCOPES = ["session", "workspace", "user"]


# The records a preview shows (and its token covers): a new usage row or audit entry of
# the same memories (a reply that used one meanwhile) does not make it outdated.
SHOWN_KINDS = ("node", "message", "summary")


def _token(plan: PurgePlan) -> str:
    """A digest of the memories, messages and summaries the plan names: the same ones,
    the same token."""
    h = hashlib.sha256()
    shown = [t for t in plan.targets if t.kind in SHOWN_KINDS]
    for t in sorted(shown, key=lambda t: (t.store, t.kind, t.id, t.action)):
        h.update(f"{t.store}\0{t.kind}\0{t.id}\0{t.action}\n".encode())
    return h.hexdigest()[:32]


def _filter(preview: ForgetPreview) -> PurgeFilter:
    if preview.kind == "word":
        return PurgeFilter(
            query=preview.word,
            match="words",
            include_messages=preview.include_messages,
        )
    if preview.kind == "selection":
        return PurgeFilter(node_ids=preview.node_ids, include_messages=preview.include_messages)
    return PurgeFilter(scopes=ALL_SCOPES, include_messages=preview.include_messages)  # type: ignore[arg-type]


def _fill(preview: ForgetPreview, plan: PurgePlan) -> ForgetPreview:
    counts = plan.counts()
    nodes = [t for t in plan.targets if t.kind == "node"]
    return preview.model_copy(
        update={
            "memories": plan.memories,
            "versions": counts["node"],
            "messages": counts["message"],
            "summaries": counts["summary"],
            "titles": list(dict.fromkeys(t.text for t in nodes if t.text))[:MAX_TITLES],
            "token": _token(plan),
            "plan": plan,
        }
    )


def preview(
    service: MemoryService,
    *,
    word: str | None = None,
    node_ids: Sequence[str] | None = None,
    everything: bool = False,
    include_messages: bool = True,
) -> ForgetPreview:
    """The preview of forgetting ``word``, the memories ``node_ids``, or ``everything``."""
    named = sum((word is not None, node_ids is not None, everything))
    if named != 1:
        raise InvalidInput("forget about a word or a selection of memories (one of the two)")
    base: ForgetPreview
    if word is not None:
        if not isinstance(word, str) or not word.strip():
            raise InvalidInput("the word to forget about is empty")
        if len(word) > 200:
            raise InvalidInput("the word to forget about is longer than 200 characters")
        base = ForgetPreview(kind="word", word=word.strip(), include_messages=include_messages)
    elif node_ids is not None:
        ids = list(dict.fromkeys(node_ids))
        if not ids or not all(isinstance(i, str) for i in ids):
            raise InvalidInput("select at least one memory (by id) to forget")
        for i in ids:
            node, _ = service.locate(i)  # NotFound for an unknown id
            if node.scope == "global":
                raise InvalidInput("global memories ship with the app and cannot be forgotten")
        base = ForgetPreview(kind="selection", node_ids=ids, include_messages=include_messages)
    else:
        base = ForgetPreview(kind="all", include_messages=include_messages)
    plan = service.purger.plan(_filter(base))
    return _fill(base, plan)


def forget(
    service: MemoryService,
    shown: ForgetPreview,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
) -> ForgetResult:
    """Remove what ``shown`` previewed; refused (``forget.preview_outdated``) when the
    records changed since (preview again and show the new counts)."""
    if not isinstance(shown, ForgetPreview):
        raise InvalidInput("forget_previewed takes the preview that preview_forget_about gave")
    fresh = service.purger.plan(_filter(shown))
    if _token(fresh) != shown.token:
        raise Conflict("what it would forget changed since the preview; preview again").because(
            "forget.preview_outdated"
        )
    report = service.purger.purge(fresh, progress=progress, cancel=cancel)
    counts = report.counts()
    return ForgetResult(
        memories=report.memories,
        versions=counts["node"],
        messages=counts["message"],
        summaries=counts["summary"],
        report=report,
    )


def remove_item_messages(service: MemoryService, pending_id: str) -> PurgeReport:
    """Purge the messages a pending item came from (and the item, which quotes them):
    what "reject and remove it from the conversation log" does for sensitive data."""
    item = next((i for i in service.pending(None) if i.id == pending_id), None)
    if item is None:
        raise NotFound(f"no pending item {pending_id}")
    ids = list(item.source_message_ids)
    if not ids:
        return PurgeReport()
    return service.purger.purge(PurgeFilter(message_ids=ids, include_messages=True))
