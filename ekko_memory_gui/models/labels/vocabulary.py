"""The app's words for the core's codes: memory types, scopes, statuses, pending rules and
why they wait, sensitive-data kinds, error kinds, audit events, pending kinds, roles,
actors, origins, record kinds and stores.

The tables are built once per language (``reset()`` after a language switch), because
the memory table asks for them for every row."""

from __future__ import annotations

from collections.abc import Callable

from ekko_memory import MemoryMessage
from ekko_memory_gui.qt import QCoreApplication as _Q

_cache: dict[str, dict[str, str]] = {}


def reset() -> None:
    """Forget the built tables (after the UI language changed)."""
    _cache.clear()


def cached(name: str, build: Callable[[], dict[str, str]]) -> dict[str, str]:
    """The table ``name``, built by ``build`` once per language."""
    found = _cache.get(name)
    if found is None:
        found = _cache[name] = build()
    return found


def table(name: str) -> dict[str, str]:
    """The words for one kind of code (``type``, ``scope``, ``rule``…), by code."""
    table = _cache.get(name)
    if table is not None:
        return table
    if name == "type":
        table = {
            "preference": _Q.translate("MemoryLabels", "preference"),
            "fact": _Q.translate("MemoryLabels", "fact"),
            "decision": _Q.translate("MemoryLabels", "decision"),
            "task": _Q.translate("MemoryLabels", "task"),
            "recipe": _Q.translate("MemoryLabels", "recipe"),
            "skill": _Q.translate("MemoryLabels", "skill"),
            "constraint": _Q.translate("MemoryLabels", "constraint"),
            "correction": _Q.translate("MemoryLabels", "correction"),
        }
    elif name == "scope":
        table = {
            "session": _Q.translate("MemoryLabels", "session"),
            "workspace": _Q.translate("MemoryLabels", "workspace"),
            "user": _Q.translate("MemoryLabels", "user"),
            "global": _Q.translate("MemoryLabels", "global"),
        }
    elif name == "status":
        table = {
            "active": _Q.translate("MemoryLabels", "active"),
            "superseded": _Q.translate("MemoryLabels", "superseded"),
            "expired": _Q.translate("MemoryLabels", "expired"),
            "deleted": _Q.translate("MemoryLabels", "deleted"),
            "pending": _Q.translate("MemoryLabels", "pending"),
            "approved": _Q.translate("MemoryLabels", "approved"),
            "rejected": _Q.translate("MemoryLabels", "rejected"),
        }
    elif name == "rule":
        table = {
            "user_scope_without_intent": _Q.translate(
                "MemoryLabels", "long-term (user scope) without “remember”"
            ),
            "sensitive_data": _Q.translate("MemoryLabels", "sensitive personal data"),
            "overwrite_high_confidence": _Q.translate(
                "MemoryLabels", "would overwrite a high-confidence memory"
            ),
            "hard_delete": _Q.translate("MemoryLabels", "hard delete"),
            "forget_many": _Q.translate("MemoryLabels", "forget request matched several memories"),
            "scope_promotion": _Q.translate(
                "MemoryLabels", "moves a memory into your long-term scope"
            ),
            "sensitive_delete": _Q.translate("MemoryLabels", "deletes sensitive personal data"),
            "unverified_value": _Q.translate("MemoryLabels", "not in your own words"),
        }
    elif name == "reason":
        # Why an item waits, as a sentence (the core's RULE_TEXT, translated).
        table = {
            "user_scope_without_intent": _Q.translate(
                "MemoryLabels", "a long-term (user scope) memory you did not ask to remember"
            ),
            "sensitive_data": _Q.translate("MemoryLabels", "it holds sensitive personal data"),
            "overwrite_high_confidence": _Q.translate(
                "MemoryLabels",
                "it would overwrite a high-confidence memory without a clear request",
            ),
            "hard_delete": _Q.translate(
                "MemoryLabels", "a hard delete removes the memory for good"
            ),
            "forget_many": _Q.translate(
                "MemoryLabels", "the forget request matched several memories"
            ),
            "scope_promotion": _Q.translate(
                "MemoryLabels", "it would move a memory into your long-term (user) scope"
            ),
            "sensitive_delete": _Q.translate("MemoryLabels", "it deletes sensitive personal data"),
            "unverified_value": _Q.translate(
                "MemoryLabels", "the value is not in your own words; the model may have guessed it"
            ),
            "global_scope": _Q.translate(
                "MemoryLabels", "global memories ship with the app and are read-only"
            ),
        }
    elif name == "sensitive":
        # Kinds of sensitive data the core names (identifiers found in the text, sensitive
        # keys of the schema with "_" as spaces, health).
        table = {
            "phone number": _Q.translate("MemoryLabels", "phone number"),
            "ID number": _Q.translate("MemoryLabels", "ID number"),
            "bank card number": _Q.translate("MemoryLabels", "bank card number"),
            "email address": _Q.translate("MemoryLabels", "email address"),
            "street address": _Q.translate("MemoryLabels", "street address"),
            "health": _Q.translate("MemoryLabels", "health"),
            "phone": _Q.translate("MemoryLabels", "phone"),
            "address": _Q.translate("MemoryLabels", "address"),
            "id number": _Q.translate("MemoryLabels", "ID number"),
            "email": _Q.translate("MemoryLabels", "email"),
            "birthday": _Q.translate("MemoryLabels", "birthday"),
            "health condition": _Q.translate("MemoryLabels", "health condition"),
        }
    elif name == "error":
        # What kind of refusal an error is (EkkoMemoryError.code).
        table = {
            "invalid_input": _Q.translate("MemoryLabels", "Not valid"),
            "not_found": _Q.translate("MemoryLabels", "Not found"),
            "permission_denied": _Q.translate("MemoryLabels", "Not allowed"),
            "store_unavailable": _Q.translate("MemoryLabels", "The store is unavailable"),
            "conflict": _Q.translate("MemoryLabels", "Changed meanwhile"),
        }
    elif name == "event":
        table = {
            "create": _Q.translate("MemoryLabels", "created"),
            "update": _Q.translate("MemoryLabels", "updated"),
            "supersede": _Q.translate("MemoryLabels", "superseded"),
            "expire": _Q.translate("MemoryLabels", "expired"),
            "delete": _Q.translate("MemoryLabels", "deleted"),
            "hard_delete": _Q.translate("MemoryLabels", "deleted permanently"),
            "restore": _Q.translate("MemoryLabels", "restored"),
            "pending": _Q.translate("MemoryLabels", "sent to the inbox"),
            "approve": _Q.translate("MemoryLabels", "approved"),
            "reject": _Q.translate("MemoryLabels", "rejected"),
            "import": _Q.translate("MemoryLabels", "imported"),
            "purge": _Q.translate("MemoryLabels", "purged"),
            "revert": _Q.translate("MemoryLabels", "reverted"),
            "pin": _Q.translate("MemoryLabels", "pinned"),
            "unpin": _Q.translate("MemoryLabels", "unpinned"),
            "pause": _Q.translate("MemoryLabels", "memory paused"),
            "resume": _Q.translate("MemoryLabels", "memory resumed"),
            "merge": _Q.translate("MemoryLabels", "merged"),
            "unmerge": _Q.translate("MemoryLabels", "merge undone"),
            "dismiss": _Q.translate("MemoryLabels", "marked as no duplicate"),
            # A reject the user made by taking the item back in the conversation.
            "withdraw": _Q.translate("MemoryLabels", "withdrawn"),
        }
    elif name == "kind":
        table = {
            "write": _Q.translate("MemoryLabels", "Write waiting"),
            "hard_delete": _Q.translate("MemoryLabels", "Hard delete waiting"),
            "forget_many": _Q.translate("MemoryLabels", "Forget waiting"),
            "scope_promotion": _Q.translate("MemoryLabels", "Scope change waiting"),
        }
    elif name == "role":
        table = {
            # Who speaks in a conversation, as a person says it: you and your agent.
            "user": _Q.translate("MemoryLabels", "You"),
            "assistant": _Q.translate("MemoryLabels", "Agent"),
            "system": _Q.translate("MemoryLabels", "System"),
            "tool": _Q.translate("MemoryLabels", "Tool"),
            # A tool call's userMessage nobody vouched for: the agent's words, not the user's.
            "reported": _Q.translate("MemoryLabels", "the agent, reporting the user's words"),
        }
    elif name == "actor":
        table = {
            "user": _Q.translate("MemoryLabels", "you"),
            "agent": _Q.translate("MemoryLabels", "agent"),
            "extractor": _Q.translate("MemoryLabels", "extractor"),
            "system": _Q.translate("MemoryLabels", "system"),
            "import": _Q.translate("MemoryLabels", "import"),
        }
    elif name == "origin":
        table = {
            "user_explicit": _Q.translate("MemoryLabels", "the user asked to remember"),
            "user_edit": _Q.translate("MemoryLabels", "written or edited by you"),
            "inferred": _Q.translate("MemoryLabels", "inferred by the agent"),
            "imported": _Q.translate("MemoryLabels", "imported"),
            "seed": _Q.translate("MemoryLabels", "shipped with the app"),
        }
    elif name == "record":  # one record of a kind a purge or an export counts
        table = {
            "node": _Q.translate("MemoryLabels", "memory version"),
            "audit": _Q.translate("MemoryLabels", "audit entry"),
            "pending": _Q.translate("MemoryLabels", "inbox item"),
            "usage": _Q.translate("MemoryLabels", "usage record"),
            "message": _Q.translate("MemoryLabels", "message"),
            "summary": _Q.translate("MemoryLabels", "summary"),
            "job": _Q.translate("MemoryLabels", "background job"),
            "cursor": _Q.translate("MemoryLabels", "session cursor"),
        }
    elif name == "records":  # how many records of a kind ({n} stays for the number)
        table = {
            "node": _Q.translate("MemoryLabels", "{n} memory versions"),
            "audit": _Q.translate("MemoryLabels", "{n} audit entries"),
            "pending": _Q.translate("MemoryLabels", "{n} inbox items"),
            "usage": _Q.translate("MemoryLabels", "{n} usage records"),
            "message": _Q.translate("MemoryLabels", "{n} messages"),
            "summary": _Q.translate("MemoryLabels", "{n} summaries"),
            "job": _Q.translate("MemoryLabels", "{n} background jobs"),
            "cursor": _Q.translate("MemoryLabels", "{n} session cursors"),
        }
    elif name == "store":
        table = {
            "workspace": _Q.translate("MemoryLabels", "workspace"),
            "user": _Q.translate("MemoryLabels", "user"),
            "global": _Q.translate("MemoryLabels", "global"),
        }
    else:
        table = {}
    _cache[name] = table
    return table


def type_label(value: str) -> str:
    return table("type").get(value, value)


def scope_label(value: str) -> str:
    return table("scope").get(value, value)


def status_label(value: str) -> str:
    return table("status").get(value, value)


def rule_label(value: str) -> str:
    return table("rule").get(value, value.replace("_", " "))


def reason_sentence(rule: str) -> str | None:
    """Why a pending item waits, as a translated sentence; None for a rule the app does not know."""
    return table("reason").get(rule)


def sensitive_label(kind: str) -> str:
    """A kind of sensitive data (phone number, health…), translated when known."""
    return table("sensitive").get(kind.strip(), kind.strip())


def event_label(value: str) -> str:
    return table("event").get(value, value)


def origin_label(value: str) -> str:
    return table("origin").get(value, value)


def store_label(value: str) -> str:
    return table("store").get(value, value)


def kind_label(value: str) -> str:
    return table("kind").get(value, value)


def role_label(value: str) -> str:
    return table("role").get(value, value)


def author_label(m: MemoryMessage) -> str:
    """Who wrote a message: its role, or the agent when it reports the user's words."""
    return role_label("reported" if m.reported_by_agent else m.role)


def actor_label(value: str) -> str:
    return table("actor").get(value, value)


# The kinds of records in an export bundle, as the purge names them.
BUNDLE_KINDS = {
    "nodes": "node",
    "audit": "audit",
    "messages": "message",
    "summaries": "summary",
    "pending": "pending",
    "usage": "usage",
    "cursors": "cursor",
}


def record_label(kind: str) -> str:
    """What one record of a kind is called (a purge's list)."""
    return table("record").get(kind, kind)


def record_count(kind: str, n: int) -> str:
    """``n`` records of a kind (``12 memory versions``); bundle kinds (``nodes``) too."""
    kind = BUNDLE_KINDS.get(kind, kind)
    template = table("records").get(kind)
    return template.format(n=n) if template else f"{n} {kind}"
