"""The four agent tools as the service runs them: argument models and one dispatcher that
never raises into the agent (``MemorySession.call_tool``). Their JSON schemas, what a
model is shown, are in ``ekko_memory.interfaces.tools``."""

from __future__ import annotations

import difflib
import json
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.alias_generators import to_camel

from ekko_memory.errors import EkkoMemoryError
from ekko_memory.models import (
    MemoryNode,
    MemoryNodeDraft,
    MemoryQuery,
    NodeType,
    Scope,
    clean_text,
)
from ekko_memory.service.controls import paused_error
from ekko_memory.service.forget import ForgetRequest

if TYPE_CHECKING:
    from ekko_memory.service.session import MemorySession


class _Args(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class GetArgs(_Args):
    """memory_get arguments."""

    id: str | None = None
    type: NodeType | None = None
    key: str | None = None
    value_json: Any = None
    scope: Scope | None = None
    domain: str | None = None
    user_message: str | None = Field(default=None, max_length=100_000)


class ProposeArgs(_Args):
    """memory_propose_update arguments."""

    operation: Literal["create", "update", "supersede", "expire", "delete"]
    target_id: str | None = None
    node: MemoryNodeDraft = Field(default_factory=MemoryNodeDraft)
    reason: str = Field(max_length=2000)
    source_message_ids: list[str] | None = Field(default=None, max_length=50)
    user_message: str | None = Field(default=None, max_length=100_000)

    @field_validator("node", mode="before")
    @classmethod
    def _known_node_fields(cls, value: Any) -> Any:
        # The draft takes Partial<MemoryNode> and ignores the fields the service fills
        # (id, createdAt…); a name that is no MemoryNode field is a mistake to report,
        # not to drop (a misspelt title would otherwise vanish).
        if isinstance(value, dict):
            accepted = _node_field_names()
            for name in value:
                if name not in accepted:
                    raise ValueError(_unknown_field(str(name), _field_names(MemoryNode)))
        return value


class ForgetArgs(_Args):
    """memory_forget arguments."""

    id: str | None = None
    scope: Scope | None = None
    domain: str | None = None
    category_path_prefix: list[str] | None = None
    type: NodeType | None = None
    key: str | None = None
    value_json: Any = None
    mode: Literal["soft", "hard"] = "soft"
    reason: str = Field(max_length=2000)
    user_message: str | None = Field(default=None, max_length=100_000)

    def request(self) -> ForgetRequest:
        """As a service request."""
        return ForgetRequest(
            reason=self.reason,
            id=self.id,
            scope=self.scope,
            domain=self.domain,
            category_path_prefix=self.category_path_prefix,
            type=self.type,
            key=self.key,
            value_json=self.value_json,
            mode=self.mode,
        )


class SearchArgs(MemoryQuery):
    """memory_search arguments (a MemoryQuery; the session fills user/workspace/session ids)."""

    user_message: str | None = Field(default=None, max_length=100_000)


def error_result(code: str, message: str, **shape: Any) -> dict[str, Any]:
    """A tool error the agent can read; ``shape`` adds the tool's negative result fields."""
    return {**shape, "reason": message, "error": {"code": code, "message": message}}


_ARGS: dict[str, type[BaseModel]] = {
    "memory_search": SearchArgs,
    "memory_get": GetArgs,
    "memory_propose_update": ProposeArgs,
    "memory_forget": ForgetArgs,
}
# The tools' names, in the order of their schemas (``interfaces.tools.TOOL_SCHEMAS``).
TOOL_NAMES = tuple(_ARGS)

_NEGATIVE: dict[str, dict[str, Any]] = {
    "memory_propose_update": {"accepted": False, "status": "rejected"},
    "memory_forget": {"deletedIds": [], "mode": "soft"},
    "memory_search": {"exact": [], "relevant": [], "omitted": []},
    "memory_get": {"found": False},
}


# The error code of a refused proposal, by the rule that refused it: the core's error
# codes name themselves (a missing field, an unknown or old target); changing a shipped
# global memory is invalid input, as creating one or forgetting one is.
_REFUSAL_CODES = {"global_scope": "invalid_input"}
_ERROR_CLASSES: list[type[EkkoMemoryError]] = [EkkoMemoryError, *EkkoMemoryError.__subclasses__()]
_ERROR_CODES = frozenset(error.code for error in _ERROR_CLASSES)


def refusal_as_error(result: dict[str, Any]) -> dict[str, Any]:
    """A proposal the service refused (``status: rejected``: nothing was written) as an
    error result, as malformed arguments are, so the model (and an MCP client, through
    ``isError``) sees that the call failed and why — ``key 'avoid_ingredient' needs a
    value``. Held (``pending``) and duplicate proposals are answers, not errors."""
    if result.get("status") != "rejected" or "error" in result:
        return result
    rule = result.get("rule")
    code = _REFUSAL_CODES.get(str(rule), rule if rule in _ERROR_CODES else "rejected")
    error = {"code": code, "message": result["reason"]}
    if "reasonCode" in result:
        error |= {"reasonCode": result["reasonCode"], "reasonParams": result["reasonParams"]}
    return {**result, "error": error}


def _validation_text(e: ValidationError, model: type[BaseModel]) -> str:
    parts = []
    for err in e.errors()[:6]:
        loc = ".".join(str(x) for x in err["loc"]) or "arguments"
        if err["type"] == "extra_forbidden" and len(err["loc"]) == 1:
            parts.append(_unknown_field(loc, _field_names(model)))
        else:
            parts.append(f"{loc}: {err['msg'].removeprefix('Value error, ')}")
    return "; ".join(parts)


def _field_names(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


@cache
def _node_field_names() -> frozenset[str]:
    """Every name a draft's field goes by, alias or attribute (every proposal checks its
    fields against them: built once, not a list per call)."""
    return frozenset(_field_names(MemoryNode)) | frozenset(MemoryNode.model_fields)


def _unknown_field(name: str, known: list[str]) -> str:
    """Names the fields a call takes, so a model can correct it (query → queryText)."""
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    hint = f"did you mean {close[0]}? " if close else ""
    return f"{name}: unknown field; {hint}fields: {', '.join(known)}"


def _clean_strings(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if depth > 64:  # deeper than any argument model reads; the models refuse it
        return value
    if isinstance(value, list | tuple):
        return [_clean_strings(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {
            clean_text(k) if isinstance(k, str) else k: _clean_strings(v, depth + 1)
            for k, v in value.items()
        }
    return value


# The identity a session is bound to, as a tool call might spell it (memory_search's
# arguments are a MemoryQuery, which has these fields; the others refuse them as unknown).
_IDENTITY_ARGS = {
    "userId": "user_id",
    "user_id": "user_id",
    "workspaceId": "workspace_id",
    "workspace_id": "workspace_id",
    "sessionId": "session_id",
    "session_id": "session_id",
}
_READS = frozenset({"memory_search", "memory_get"})


def tool_error(name: str, code: str, message: str) -> dict[str, Any]:
    """An error result of tool ``name``, with that tool's negative result fields."""
    return error_result(code, message, **_NEGATIVE.get(name, {}))


def foreign_identity(session: MemorySession, args: dict[str, Any]) -> str | None:
    """Why a call naming another user, workspace or session than ``session``'s is
    refused (None when it names none, or the session's own, which is dropped from
    ``args``): the host binds the identity when it opens the session; an agent's
    arguments never change whose memories it reads or writes."""
    for key in [k for k in args if k in _IDENTITY_ARGS]:
        field = _IDENTITY_ARGS[key]
        bound = getattr(session, field)
        if args[key] != bound:
            return (
                f"{key}: this session answers for {field.removesuffix('_id')} {bound!r} only "
                "(set by the host when it opened the session); nothing was read or written"
            )
        del args[key]
    return None


def dispatch(
    session: MemorySession, name: object, args: object, *, trust_user_message: bool = False
) -> dict[str, Any]:
    """Run one tool call; always returns a JSON dict, never raises.

    ``userMessage`` is the agent's report of the user's words: kept as the source of a
    write, never read for the user's intent — unless ``trust_user_message`` (a host that
    vouches for it: ``ekko-memory mcp --trust-user-message``) logs it as the user's own
    message first."""
    if not isinstance(name, str) or name not in TOOL_NAMES:
        hint = (
            " (approvals belong to the user, not to agents)"
            if isinstance(name, str) and "approv" in name
            else ""
        )
        return error_result(
            "unknown_tool", f"unknown tool {name!r}{hint}; tools: {', '.join(TOOL_NAMES)}"
        )
    negative = _NEGATIVE[name]
    try:
        paused = session.service.controls.is_paused()
    except Exception:  # a store that cannot say: the call meets it and says why
        paused = False
    if paused:
        # The user paused memory: nothing is read or written until it is resumed.
        error = paused_error()
        out = error_result(error.code, str(error), **negative)
        out["error"] |= {"reasonCode": error.reason_code, "reasonParams": {}}
        return out
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except (ValueError, RecursionError) as e:  # RecursionError: nested too deeply
            return error_result(
                "invalid_arguments", f"arguments are not valid JSON: {e}", **negative
            )
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return error_result("invalid_arguments", "arguments must be a JSON object", **negative)
    if name == "memory_forget" and args.get("mode") == "hard":
        # The design doc's result always says which mode it was (nothing was deleted).
        negative = {**negative, "mode": "hard"}
    # JSON may spell lone surrogates ("\ud800"), which no store can hold: U+FFFD, as
    # everywhere else. Values of other types are left to the argument models.
    cleaned: dict[str, Any] = _clean_strings(args)
    if any(k in cleaned for k in ("approve", "approved", "pendingId", "decision")):
        return error_result(
            "permission_denied",
            "agents cannot approve or decide pending items; the user decides in the app",
            **negative,
        )
    refused = foreign_identity(session, cleaned)
    if refused is not None:
        return error_result("permission_denied", refused, **negative)
    try:
        parsed = _ARGS[name].model_validate(cleaned)
        words = getattr(parsed, "user_message", None)
        if trust_user_message and words:
            session.log_user_words(words, required=name not in _READS)
            parsed = parsed.model_copy(update={"user_message": None})
        if isinstance(parsed, SearchArgs):
            return session.search(parsed)
        if isinstance(parsed, GetArgs):
            return session.get(parsed)
        if isinstance(parsed, ProposeArgs):
            return refusal_as_error(session.propose(parsed))
        assert isinstance(parsed, ForgetArgs)
        return session.forget(parsed)
    except ValidationError as e:
        return error_result("invalid_arguments", _validation_text(e, _ARGS[name]), **negative)
    except EkkoMemoryError as e:
        message = str(e)
        if name in ("memory_propose_update", "memory_forget") and "nothing was" not in message:
            message += (
                "; nothing was written"
                if name == "memory_propose_update"
                else "; nothing was deleted"
            )
        out = error_result(e.code, message, **negative)
        if e.reason_code is not None:
            # Why, as a code with its specifics (models/reasons.py, store/problem.py).
            out["error"]["reasonCode"] = e.reason_code
            out["error"]["reasonParams"] = dict(e.reason_args or {})
        return out
    except Exception as e:  # the agent must never see a traceback
        return error_result("internal_error", f"{type(e).__name__}: {e}", **negative)
