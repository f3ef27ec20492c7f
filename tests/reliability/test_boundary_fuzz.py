"""Fuzzing the two ways data comes in from outside: bundle fields and agent tool
arguments, with dates at and beyond the edges of what the stores hold. Whatever comes
in, it is refused with Ekko's own error or stored, and afterwards the whole command line
(``export``, ``history``, ``search --all``, ``stats``, ``pending``, ``approve``) still
runs without a traceback.

Bounded in time: a few dozen examples, each on a copy of one seeded workspace, every
command an in-process ``main()`` call."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ekko_memory.ids import new_id
from tests.reliability.intact import Workspace, seeded_bundle

# A deeper hunt: EKKO_FUZZ_EXAMPLES=500 (the suite runs a few dozen).
EXAMPLES = int(os.environ.get("EKKO_FUZZ_EXAMPLES", "20"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=30),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Dates at, just inside and beyond the edges; without a time zone; not dates at all.
EDGE_DATES = [
    "0001-01-01T00:00:00Z",
    "0001-01-01T00:00:00+14:00",
    "0999-12-31T23:59:59.999999Z",
    "1000-01-01T00:00:00Z",
    "1000-01-01T00:00:00+01:00",
    "9998-12-31T23:59:59.999999Z",
    "9998-12-31T23:59:59-14:00",
    "9999-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999Z",
    "9999-12-31T23:00:00-05:00",
    "2026-05-01T08:00:00",
    "2026-05-01",
    "2026-02-30T00:00:00Z",
    "",
    "soon",
    253402300800,
    -62135596800,
    1e30,
]
dates = st.one_of(
    st.sampled_from(EDGE_DATES),
    st.datetimes(timezones=st.timezones()).map(lambda d: d.isoformat()),
)
texts = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "user", "import", "mem_x", "\u202e\u200b", "<|im_start|>system"]),
    st.integers(100, 300_000).map(lambda n: "长" * n),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), texts)
values = st.one_of(
    dates,
    scalars,
    st.lists(scalars, max_size=4),
    st.dictionaries(st.text(max_size=8), scalars, max_size=3),
)


@pytest.fixture(scope="module")
def template() -> Iterator[tuple[Workspace, dict[str, Any]]]:
    """One seeded workspace (copied for every example) and its exported bundle."""
    root = Path(tempfile.mkdtemp(prefix="ekko-fuzz-"))
    try:
        yield seeded_bundle(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


_copies = itertools.count()


def fresh_copy(template: Workspace) -> Workspace:
    """A copy of the template workspace to attack (a new folder every example)."""
    root = template.root.parent / f"copy-{next(_copies)}"
    shutil.copytree(template.root, root)
    return Workspace(root)


def empty(template: Workspace) -> Workspace:
    """A new workspace with nothing in it yet."""
    w = Workspace(template.root.parent / f"empty-{next(_copies)}")
    w.ws.mkdir(parents=True)
    return w


def ids_in(bundle: dict[str, Any]) -> list[str]:
    return [
        r["id"]
        for part in bundle["stores"].values()
        for rs in part.values()
        for r in rs
        if "id" in r
    ]


def assert_commands_run(w: Workspace, out: Path) -> None:
    """Every reading command, an export of each format, and approving what waits: exit
    codes only, never an exception out of ``main`` (the test fails on one)."""
    for args in (("search", "--all", "--limit", "1000"), ("stats",), ("pending", "--all")):
        code, _, err = w.cli(*args)
        assert code == 0 and "Traceback" not in err, (args, code, err)
    for fmt in ("json", "md"):
        code, _, err = w.cli("export", "--format", fmt, "--output", str(out.with_suffix(f".{fmt}")))
        assert code == 0, (fmt, err)
    bundle = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    # The newest versions: the ones an attack added or changed.
    nodes = [n for part in bundle["stores"].values() for n in part["nodes"]]
    for node in nodes[-4:]:
        code, _, err = w.cli("history", node["id"])
        assert code == 0, (node["id"], err)
    for item in [p for part in bundle["stores"].values() for p in part["pending"]]:
        if item["status"] == "pending":
            code, _, err = w.cli("approve", item["id"])
            assert code in (0, 1, 2, 4) and err.count("\n") <= 2, (item["id"], code, err)


@FUZZ
@given(data=st.data())
def test_any_bundle_leaves_every_command_working(
    template: tuple[Workspace, dict[str, Any]], data: st.DataObject
) -> None:
    base, bundle = template
    # Mostly into an empty workspace (every record new: what it brings is stored), else
    # into a copy of the one it came from (present records: state moved on, conflicts).
    w = fresh_copy(base) if data.draw(st.integers(0, 2)) == 0 else empty(base)
    attacked = json.loads(json.dumps(bundle))
    records = [
        (store, kind, i)
        for store, part in attacked["stores"].items()
        for kind, rs in part.items()
        for i in range(len(rs))
    ]
    known = ids_in(attacked)
    for store, kind, i in data.draw(st.lists(st.sampled_from(records), min_size=1, max_size=3)):
        record = attacked["stores"][store][kind][i]
        when = [name for name in record if name.endswith("At")]
        # Dates most of the time (what poisoned stores), any field else.
        if when and data.draw(st.integers(0, 4)) > 0:
            record[data.draw(st.sampled_from(when))] = data.draw(dates)
            continue
        name = data.draw(st.sampled_from([*record, "unknownField"]))
        if name.endswith(("Id", "Ids", "id")):
            record[name] = data.draw(
                st.one_of(st.sampled_from(known), st.just(new_id("mem")), values)
            )
        else:
            record[name] = data.draw(values)
    path = w.root / "attack.json"
    path.write_text(json.dumps(attacked, ensure_ascii=False), encoding="utf-8")
    code, _, err = w.cli("import", str(path))
    assert code in (0, 2) and "Traceback" not in err, (code, err)
    if code == 2:
        assert err.startswith("ekko-memory: error: ") and err.count("\n") == 1, err
    assert_commands_run(w, w.root / "after")


node_fields = st.fixed_dictionaries(
    {},
    optional={
        "scope": st.sampled_from(["session", "workspace", "user", "global", "galaxy"]),
        "domain": st.one_of(st.sampled_from(["生活技能", "项目"]), texts),
        "categoryPath": st.lists(texts, max_size=3),
        "type": st.sampled_from(["preference", "fact", "constraint", "nonsense"]),
        "key": st.one_of(
            st.sampled_from(["avoid_ingredient", "flavor_profile", "database"]), texts
        ),
        "valueJson": values,
        "title": texts,
        "content": texts,
        "confidence": scalars,
        "importance": scalars,
        "tags": st.lists(texts, max_size=3),
        "expiresAt": dates,
    },
)


@FUZZ
@given(
    operation=st.sampled_from(["create", "update", "supersede", "expire", "delete", "approve"]),
    node=node_fields,
    target=st.one_of(st.none(), st.just("TARGET"), texts),
    said=st.sampled_from(["记住，我今天胃不舒服，三天内别推荐辣的。", "我挺喜欢吃鱼的", "hello"]),
)
def test_any_tool_call_leaves_every_command_working(
    template: tuple[Workspace, dict[str, Any]],
    operation: str,
    node: dict[str, Any],
    target: str | None,
    said: str,
) -> None:
    base, bundle = template
    w = fresh_copy(base)
    (cilantro,) = [
        n["id"]
        for n in bundle["stores"]["user"]["nodes"]
        if n.get("key") == "avoid_ingredient" and n["status"] == "active"
    ][:1]
    args: dict[str, Any] = {"operation": operation, "reason": "fuzz", "node": node}
    if target is not None:
        args["targetId"] = cilantro if target == "TARGET" else target
    mem = w.open()
    try:
        s = mem.session("s1", user_id="u1", workspace_id="w1")
        s.append_message("user", said)
        result = s.call_tool("memory_propose_update", args)
        assert isinstance(result, dict) and "accepted" in result, result
        if "error" in result:
            assert result["accepted"] is False, result
        found = s.call_tool("memory_search", {"queryText": "香菜", "includeExpired": True})
        assert "error" not in found, found
    finally:
        mem.close()
    assert_commands_run(w, w.root / "after")
