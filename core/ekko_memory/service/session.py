"""A handle bound to one session: the agent's day-to-day entry point."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ekko_memory.errors import EkkoMemoryError, InvalidInput
from ekko_memory.ids import is_valid_id, new_id
from ekko_memory.models import (
    REPORTED_BY_AGENT,
    MemoryContext,
    MemoryMessage,
    MemoryNode,
    MemoryQuery,
    Role,
    clean_text,
)
from ekko_memory.service.forget import Forgetter
from ekko_memory.service.governance import Governor
from ekko_memory.service.pending import proposal_of, why_no_memory
from ekko_memory.service.retrieval import visible
from ekko_memory.service.tool_calls import (
    ForgetArgs,
    GetArgs,
    ProposeArgs,
    SearchArgs,
    dispatch,
)
from ekko_memory.service.write_plan import WriteContext

if TYPE_CHECKING:
    from ekko_memory.service.extraction.pipeline import AfterReplyReport
    from ekko_memory.service.memory_service import MemoryService


class MemorySession:
    """One conversation: its log, its context, its tools. Create with ``mem.session(...)``."""

    def __init__(
        self,
        service: MemoryService,
        session_id: str,
        *,
        user_id: str | None,
        workspace_id: str | None,
    ) -> None:
        self.service = service
        self.session_id = session_id
        self.user_id = user_id
        self.workspace_id = workspace_id
        # The newest user message as last read, with the store's change count then.
        self._latest: tuple[int, MemoryMessage | None] | None = None

    # --- the log --------------------------------------------------------------------

    def append_message(
        self,
        role: Role,
        content: str,
        *,
        metadata: dict[str, Any] | None = None,
        parent_id: str | None = None,
        used_memory_ids: Sequence[str] | None = None,
    ) -> MemoryMessage:
        """Append a message to the raw log; an assistant reply records the memories it used.

        Without ``parent_id`` it follows the session's newest message as the store holds it
        when it is written: another process (the agent's host, a second agent) may have
        appended since, or the app removed the one this handle appended last.

        While memory is paused nothing is logged: PermissionDenied with reason code
        ``memory.paused`` (``AgentRuntime`` and the Hermes provider carry on without it).
        """
        self.service.controls.require_running()
        meta = dict(metadata or {})
        if used_memory_ids is not None:
            meta["usedMemoryIds"] = list(dict.fromkeys(used_memory_ids))
        try:
            msg = MemoryMessage(
                id=new_id("msg"),
                session_id=self.session_id,
                parent_id=parent_id,
                role=role,
                content=content,
                metadata=meta or None,
                created_at=self.service.now(),
            )
        except ValidationError as e:
            raise InvalidInput.of("invalid message", e) from e
        msg = self.service.append_message(msg, after_latest=parent_id is None)
        if used_memory_ids:
            self.service.record_usage(msg, used_memory_ids, workspace_id=self.workspace_id)
        return msg

    def record_reply(
        self,
        content: str,
        context: MemoryContext | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> MemoryMessage:
        """Append the assistant's reply with the memories that reached its prompt."""
        used = context.rendered_memory_ids if context is not None else []
        return self.append_message("assistant", content, metadata=metadata, used_memory_ids=used)

    def latest_user_message(self) -> MemoryMessage | None:
        """The session's newest user message, read from the store: another process (the
        agent's host logging the conversation, a second agent, the app purging it) may
        have appended or removed messages of this session since this one last did.
        Kept while nothing commits to the store, which costs ~1 µs to ask (a read ~30)."""
        store = self.service.workspace_store
        count = store.change_count()
        if count is not None and self._latest is not None and self._latest[0] == count:
            return self._latest[1]
        with store.snapshot() as r:
            latest = r.latest_user_message(self.session_id)
        # Counted before the read: a commit in between makes the next call read again.
        self._latest = None if count is None else (count, latest)
        return latest

    # --- reading --------------------------------------------------------------------

    def build_context(self, user_message: str) -> MemoryContext:
        """The memory context for replying to ``user_message`` (never raises)."""
        return self.service.build_context(
            self.session_id, user_message, user_id=self.user_id, workspace_id=self.workspace_id
        )

    def after_reply(self, *, final: bool = False) -> AfterReplyReport:
        """Extraction and the summary chain for what is new, now (the runtime runs it in the
        background). ``final``: the conversation ends — extract from and summarize what is
        new even when no trigger fired, so its summary holds its last turns."""
        return self.service.after_reply_runner.run(
            self.session_id, user_id=self.user_id, workspace_id=self.workspace_id, force=final
        )

    # --- tools ----------------------------------------------------------------------

    def call_tool(self, name: str, args: Any) -> dict[str, Any]:
        """Run one of the four memory tools: JSON dict in, JSON dict out, never raises."""
        return dispatch(self, name, args)

    def write_context(self, source_ids: Sequence[str] | None, reported: str | None) -> WriteContext:
        """The provenance of an agent's write: the user's message(s) it rests on — the
        session's newest user message unless ``source_ids`` name others — and the words
        the agent reports the user said (``reported``, a tool call's ``userMessage``),
        kept beside them as its report. Intent is judged from the logged user messages
        alone: an agent's report of "记住…" is no request of the user's."""
        if source_ids:
            bad = [i for i in source_ids if not is_valid_id(i, "msg")]
            if bad:
                raise InvalidInput(
                    f"sourceMessageIds: {bad[:3]} are not message ids "
                    "(msg_ and 26 letters and digits, as append_message returned them)"
                )
            with self.service.workspace_store.read() as r:
                msgs = [m for m in r.get_messages(source_ids) if m.session_id == self.session_id]
            missing = set(source_ids) - {m.id for m in msgs}
            if missing:
                raise InvalidInput(
                    f"unknown source messages in this session: {sorted(missing)[:3]}"
                )
        else:
            latest = self.latest_user_message()
            msgs = [latest] if latest is not None else []
        users = [m for m in msgs if m.role == "user"]
        report = self._keep_report(reported, users)
        if report is not None and report.id not in {m.id for m in msgs}:
            msgs.append(report)
        return WriteContext(
            actor="agent",
            session_id=self.session_id,
            user_id=self.user_id,
            workspace_id=self.workspace_id,
            source_message_ids=[m.id for m in msgs],
            source_text="\n".join(m.content for m in users),
        )

    def _keep_report(
        self, reported: str | None, users: Sequence[MemoryMessage]
    ) -> MemoryMessage | None:
        """The message that keeps the agent's report of the user's words (role "tool",
        ``REPORTED_BY_AGENT``), so the user sees what the write rests on; none when the
        user's own logged message says the same."""
        if not reported or any(m.content == clean_text(reported) for m in users):
            return None
        return self._append_once("tool", reported, REPORTED_BY_AGENT)

    def log_user_words(self, text: str | None, *, required: bool = True) -> MemoryMessage | None:
        """Append, as the user's own message, words a host vouches for: a tool call's
        ``userMessage`` when the MCP server was started with ``--trust-user-message``
        (its client keeps no log of its own). Once, when several calls of one turn pass
        the same words; the message that holds them. A read (``required=False``) answers
        even when the log cannot take them."""
        if not text:
            return None
        if not required:
            try:
                return self.log_user_words(text)
            except EkkoMemoryError:
                return None
        return self._append_once("user", text, None)

    def _append_once(self, role: Role, text: str, metadata: dict[str, Any] | None) -> MemoryMessage:
        """Append ``text``, unless the session's newest message is the same one."""
        recent = self.service.list_recent_messages(session_id=self.session_id, limit=1)
        last = recent[-1] if recent else None
        if (
            last is not None
            and last.role == role
            and last.content == clean_text(text)
            and (last.metadata or None) == (metadata or None)
        ):
            return last
        return self.append_message(role, text, metadata=metadata)

    def search(self, args: SearchArgs) -> dict[str, Any]:
        """memory_search (a read keeps no report of ``userMessage``)."""
        q = MemoryQuery.model_validate(
            {
                **args.model_dump(exclude_unset=True, exclude={"user_message"}),
                "session_id": self.session_id,
                "user_id": self.user_id,
                "workspace_id": self.workspace_id,
            }
        )
        return self.service.retrieve(q).to_json()

    def get(self, args: GetArgs) -> dict[str, Any]:
        """memory_get: by id, or the best current node for type/key/value (a read keeps no
        report of ``userMessage``)."""
        node: MemoryNode | None = None
        warnings: list[str] | None = None
        if args.id is not None:
            node = self.service.get_node(args.id)
            if node is not None and not self._visible(node):
                node = None
            warnings = self.service.unread_warnings(None) or None
        else:
            if args.key is None and args.value_json is None and args.type is None:
                raise InvalidInput("give an id, or a type / key / valueJson to look up")
            result = self.service.retrieve(
                MemoryQuery(
                    session_id=self.session_id,
                    user_id=self.user_id,
                    workspace_id=self.workspace_id,
                    scopes=[args.scope] if args.scope else None,
                    domain=args.domain,
                    types=[args.type] if args.type else None,
                    key=args.key,
                    value_json=args.value_json,
                    limit=1,
                )
            )
            node = result.exact[0] if result.exact else None
            warnings = result.warnings
        if node is None:
            if warnings:
                # Not "no such memory": it may be in the store that could not be read.
                return {
                    "found": False,
                    "reason": "not found in the stores that could be read",
                    "warnings": warnings,
                }
            if args.id is not None:
                told = self._proposal_fate(args.id)
                if told is not None:
                    return told
            return {"found": False, "reason": "no such memory"}
        # By id it may be past its expiry: it says expired, as the context treats it.
        return {"found": True, **node.seen_at(self.service.now()).to_json()}

    def _proposal_fate(self, node_id: str) -> dict[str, Any] | None:
        """An id no memory holds may be one a proposal showed while it waited (the agent's
        own, or the inbox's): what became of it, and the memory it became."""
        item = proposal_of(self.service, node_id)
        if item is None or item.node is None:
            return None
        if not self._visible(MemoryNode.model_validate(item.node)):
            return None
        reason, became = why_no_memory(item, node_id)
        out: dict[str, Any] = {"found": False, "reason": reason, "pendingId": item.id}
        if became is not None:
            out["approvedAs"] = became
        return out

    def _visible(self, node: MemoryNode) -> bool:
        return visible(
            node,
            MemoryQuery(
                session_id=self.session_id, user_id=self.user_id, workspace_id=self.workspace_id
            ),
        )

    def propose(self, args: ProposeArgs) -> dict[str, Any]:
        """memory_propose_update through the governed write path."""
        ctx = self.write_context(args.source_message_ids, args.user_message)
        outcome = Governor(self.service).propose(
            args.operation, args.node, ctx, target_id=args.target_id, reason=args.reason
        )
        return outcome.to_json()

    def forget(self, args: ForgetArgs) -> dict[str, Any]:
        """memory_forget through the governed delete path."""
        ctx = self.write_context(None, args.user_message)
        return Forgetter(self.service).forget(args.request(), ctx).to_json()
