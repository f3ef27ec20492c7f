"""Property-based tests: invariants of contexts over random stores, and hostile tool calls."""

from __future__ import annotations

import itertools
import json
import tempfile
from datetime import timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ekko_memory import MemoryService
from ekko_memory.ids import new_id
from ekko_memory.models import MemoryNode
from ekko_memory.schema.normalize import conflict_identity
from ekko_memory.timeutil import utcnow
from tests.backends import Backend

_examples = itertools.count()

KEYS = [
    ("preference", "avoid_ingredient", ["香菜", "葱", "姜"]),
    ("preference", "preferred_ingredient", ["香菜", "牛肉"]),
    (
        "preference",
        "flavor_profile",
        [{"spicy": "low"}, {"spicy": "high"}, {"oil": "low", "spicy": "none"}],
    ),
    ("constraint", "flavor_profile", [{"spicy": "none"}, {"salt": "low"}]),
    ("preference", None, [None]),
]

node_spec = st.tuples(
    st.sampled_from(["session", "workspace", "user"]),
    st.sampled_from(KEYS),
    st.integers(0, 2),
    st.sampled_from(["active", "active", "active", "superseded", "expired", "deleted"]),
    st.sampled_from([None, -2.0, -0.01, 1.0, 48.0]),  # expiry in hours from now
    st.floats(0.0, 1.0),
    st.sampled_from(["user_explicit", "inferred", "user_edit"]),
    st.sampled_from(["s1", "s2"]),
    # Owners in a shared store: mostly the session's own, sometimes another user's or
    # workspace's, or nobody's in particular.
    st.sampled_from([("u1", "w1"), ("u1", "w1"), ("u2", "w1"), ("u1", "w2"), (None, None)]),
)


def build_nodes(specs: list[tuple[Any, ...]]) -> list[MemoryNode]:
    now = utcnow()
    nodes = []
    for i, spec in enumerate(specs):
        scope, (ntype, key, values), vi, status, exp, conf, origin, sid, (uid, wid) = spec
        value = values[vi % len(values)]
        nodes.append(
            MemoryNode(
                id=new_id("mem"),
                scope=scope,
                domain="生活技能",
                category_path=["生活技能", "做饭", "饮食偏好"],
                type=ntype,
                key=key,
                value_json=value,
                title=f"节点{i} {key} {value}",
                content=f"内容{i}",
                status=status,
                confidence=conf,
                importance=0.5,
                origin=origin,
                user_id=uid,
                session_id=sid if scope == "session" else None,
                workspace_id=wid if scope != "user" else None,
                created_at=now - timedelta(minutes=len(specs) - i),
                updated_at=now - timedelta(minutes=len(specs) - i),
                expires_at=None if exp is None else now + timedelta(hours=exp),
            )
        )
    return nodes


# The backend fixture is the same for every example; each example opens fresh stores.
_SETTINGS = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@settings(max_examples=40, deadline=None, suppress_health_check=_SETTINGS)
@given(
    st.lists(node_spec, min_size=1, max_size=14),
    # …and sentences whose keywords match every node (节点 is in each title).
    st.sampled_from(
        ["今晚吃什么", "香菜", "做饭少辣", "hello", "看看节点内容吧", "我不吃香菜和葱"]
    ),
)
def test_context_never_holds_stale_contradicting_or_foreign_nodes(
    backend: Backend, specs: list[tuple[Any, ...]], message: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        mem = backend.open_memory(Path(tmp), key=f"example-{next(_examples)}")
        try:
            nodes = build_nodes(specs)
            for node in nodes:
                mem.upsert_node(node)
            ctx = mem.session("s1", user_id="u1", workspace_id="w1").build_context(message)
            now = mem.now()
            used = [mem.get_node(i) for i in ctx.used_memory_ids]
            assert all(n is not None for n in used)
            for n in used:
                assert n is not None
                assert n.status == "active" and not n.is_expired(now), n
                assert n.scope != "session" or n.session_id == "s1"
                assert n.user_id in (None, "u1"), n
                assert n.scope == "user" or n.workspace_id in (None, "w1"), n
            for a, b in combinations([n for n in used if n is not None], 2):
                same_frame = (a.scope, a.domain, a.type, a.key) == (
                    b.scope,
                    b.domain,
                    b.type,
                    b.key,
                )
                if same_frame and a.key is not None:
                    assert conflict_identity(mem.registry, a) != conflict_identity(
                        mem.registry, b
                    ), (a, b)
            assert len(set(ctx.used_memory_ids)) == len(ctx.used_memory_ids)
        finally:
            mem.close()


# --- hostile tool calls ------------------------------------------------------------------

HOSTILE_TEXT = st.sampled_from(
    [
        "",
        " ",
        '"',
        '"香菜" OR 1=1',
        "'; DROP TABLE memory_nodes; --",
        "NEAR(a b)",
        "*",
        "(((",
        "\\",
        "\ud800",
        "😀" * 50,
        "x" * 100_000,
        "香菜" * 30_000,
        "memory_nodes_fts MATCH '*'",
        "%_%",
        "\x00",
    ]
)
JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | HOSTILE_TEXT
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=10,
)
BAD_IDS = st.sampled_from(
    [
        "mem_nothere",
        "mem_01ZZZZZZZZZZZZZZZZZZZZZZZZ",
        "../../etc/passwd",
        "pnd_x",
        "",
        "0",
        "mem_00000000000000000000000001",
    ]
)

hostile_call = st.one_of(
    st.tuples(st.text(max_size=30).filter(lambda s: not s.startswith("memory_")), JUNK),
    st.tuples(
        st.just("memory_propose_update"),
        st.fixed_dictionaries(
            {
                "operation": st.one_of(
                    st.sampled_from(["approve", "merge", "", "CREATE", "drop"]), JUNK
                ),
                "node": JUNK,
                "reason": JUNK,
            }
        ),
    ),
    st.tuples(
        st.just("memory_propose_update"),
        st.fixed_dictionaries(
            {
                "operation": st.sampled_from(["update", "supersede", "expire", "delete"]),
                "targetId": BAD_IDS,
                "reason": HOSTILE_TEXT,
                "node": st.just({"title": "x"}),
            }
        ),
    ),
    st.tuples(
        st.just("memory_propose_update"),
        st.fixed_dictionaries(
            {
                "operation": st.just("create"),
                "reason": HOSTILE_TEXT,
                "node": st.fixed_dictionaries(
                    {
                        "scope": st.sampled_from(["global", "galaxy", 3]),
                        "type": st.sampled_from(["preference", "x"]),
                        "domain": HOSTILE_TEXT,
                        "title": HOSTILE_TEXT,
                        "confidence": st.sampled_from([1.5, -1, "high", None]),
                    }
                ),
            }
        ),
    ),
    st.tuples(
        st.just("memory_forget"),
        st.fixed_dictionaries(
            {
                "id": BAD_IDS,
                "reason": HOSTILE_TEXT,
                "mode": st.sampled_from(["soft", "hard", "nuke"]),
            }
        ),
    ),
    st.tuples(st.just("memory_forget"), st.fixed_dictionaries({"reason": HOSTILE_TEXT})),
    st.tuples(
        st.just("memory_search"),
        st.fixed_dictionaries(
            {"queryText": HOSTILE_TEXT, "limit": st.sampled_from([1, 0, -5, 10**9, "x"])}
        ),
    ),
    st.tuples(st.just("memory_get"), st.fixed_dictionaries({"id": BAD_IDS})),
    # Descriptions: hostile text and values in every field that reaches a query.
    st.tuples(
        st.sampled_from(["memory_search", "memory_get", "memory_forget"]),
        st.fixed_dictionaries(
            {
                "domain": st.one_of(st.just("生活技能"), HOSTILE_TEXT),
                "key": st.sampled_from(["avoid_ingredient", "flavor_profile", "\ud800", "x"]),
                # Not None: 生活技能 + avoid_ingredient alone names the seeded memory, and
                # forgetting one exact match is a valid call, not a hostile one.
                "valueJson": st.one_of(HOSTILE_TEXT, JUNK).filter(lambda v: v is not None),
                "reason": HOSTILE_TEXT,
            }
        ),
    ),
    st.tuples(
        st.just("memory_search"),
        st.fixed_dictionaries(
            {
                "queryText": HOSTILE_TEXT,
                "tags": st.lists(HOSTILE_TEXT, max_size=2),
                "categoryPathPrefix": st.lists(HOSTILE_TEXT, max_size=2),
            }
        ),
    ),
    st.tuples(
        st.sampled_from(["memory_search", "memory_get", "memory_forget", "memory_propose_update"]),
        st.one_of(JUNK, st.just("{not json"), st.just("[1,2]")),
    ),
)


def table_counts(mem: MemoryService) -> dict[str, int]:
    out = {}
    for name, store in mem.stores():
        with store.read() as r:
            out.update({f"{name}.{k}": v for k, v in r.table_counts().items()})
    return out


_shared: dict[str, Any] = {}


def shared_service(backend: Backend) -> MemoryService:
    if backend.name not in _shared:
        tmp = tempfile.mkdtemp()
        mem = backend.open_memory(Path(tmp), key="shared")
        s = mem.session("s1", user_id="u1")
        s.append_message("user", "记住，我以后做饭不要香菜。")
        s.call_tool(
            "memory_propose_update",
            {
                "operation": "create",
                "reason": "seed",
                "node": {
                    "scope": "user",
                    "domain": "生活技能",
                    "type": "preference",
                    "key": "avoid_ingredient",
                    "valueJson": "香菜",
                    "title": "用户不吃香菜",
                },
            },
        )
        # The seed's vector is written in the background: before the first count.
        assert mem.semantic is None or mem.semantic.indexer.wait_idle(60)
        _shared[backend.name] = mem
    return _shared[backend.name]  # type: ignore[no-any-return]


@settings(max_examples=300, deadline=None, suppress_health_check=_SETTINGS)
@given(hostile_call)
def test_hostile_tool_calls_get_json_errors_and_change_nothing(
    backend: Backend, call: tuple[Any, Any]
) -> None:
    mem = shared_service(backend)
    s = mem.session("s1", user_id="u1")
    before = table_counts(mem)
    name, args = call
    result = s.call_tool(name, args)
    assert isinstance(result, dict)
    json.dumps(result, ensure_ascii=False)
    # Refused for a reason the agent can act on, never by an exception the core missed.
    assert result.get("error", {}).get("code") != "internal_error", result
    if name != "memory_search" and name != "memory_get":
        assert (
            "error" in result or result.get("accepted") is False or result.get("deletedIds") == []
        ), result
        assert result.get("accepted") is not True
    assert table_counts(mem) == before
