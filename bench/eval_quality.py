"""Memory quality: conversations replayed through the public API, then a later question (`make eval`).

Each case (bench/eval/cases/*.json, format in bench/eval/README.md) is one user's past
sessions and a question asked later in a new session. The past sessions are replayed
in a fresh workspace — every message appended with the service clock set to its time,
``after_reply()`` after each assistant reply — then the memory context for the question
is built and rendered. A case passes when the rendered context holds every expected word
and none of the rejected ones, and no memory the user holds as their own states what
they retracted, only supposed, asked about, or said of someone else (``forbid_memory``;
memories waiting for approval count too).

The same cases are scored against two baselines: the full history (every message of
every session, as an agent without memory would re-read it) and a keyword search over
the user's past messages (the three that share most words with the question).

Run:  .venv/bin/python bench/eval_quality.py [--cases DIR] [--kind KIND] [--id ID] [-v]
LLM:  .venv/bin/python bench/eval_quality.py --llm-base-url URL --llm-model MODEL [--llm-api-key KEY]
Writes bench/results/quality.json (another path with --output; none with --no-output).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

# Cases give local times in Asia/Shanghai; the service renders expiries in local time.
os.environ["TZ"] = "Asia/Shanghai"
time.tzset()

from ekko_memory import open_memory  # noqa: E402
from ekko_memory.models import BrowseFilter, MemoryNode  # noqa: E402
from ekko_memory.models.context_render import estimate_tokens  # noqa: E402
from ekko_memory.service.config import EmbedderConfig, LlmConfig, MemoryConfig  # noqa: E402

HERE = Path(__file__).parent
CASES = HERE / "eval" / "cases"
RESULTS = HERE / "results" / "quality.json"
ZONE = ZoneInfo("Asia/Shanghai")
# Day 0 of every case: Monday 2 March 2026.
DAY0 = datetime(2026, 3, 2, tzinfo=ZONE)
RENDER_TOKENS = 800
KINDS = (
    "fact",
    "preference",
    "temporary",
    "task",
    "task_done",
    "decision",
    "correction",
    "retraction",
    "other_person",
    "question",
    "hypothetical",
    "smalltalk",
    "note",
)


# --- cases ------------------------------------------------------------------------------


@dataclass
class Case:
    """One conversation history and its later question (see bench/eval/README.md)."""

    id: str
    lang: str
    kind: str
    sessions: list[dict[str, Any]]
    question: dict[str, Any]
    expect: list[str | list[str]]
    reject: list[str]
    forbid_memory: list[str]
    note: str = ""

    @classmethod
    def of(cls, raw: dict[str, Any]) -> Case:
        """A case from its JSON, checked: a malformed case stops the run with its id."""
        cid = raw.get("id", "?")
        try:
            case = cls(
                id=raw["id"],
                lang=raw["lang"],
                kind=raw["kind"],
                sessions=raw["sessions"],
                question=raw["question"],
                expect=raw.get("expect", []),
                reject=raw.get("reject", []),
                forbid_memory=raw.get("forbid_memory", []),
                note=raw.get("note", ""),
            )
        except KeyError as e:
            raise SystemExit(f"case {cid}: missing {e}") from e
        if case.kind not in KINDS:
            raise SystemExit(f"case {cid}: unknown kind {case.kind!r}")
        for s in case.sessions:
            roles = [m["role"] for m in s["messages"]]
            if roles[:1] != ["user"] or any(r not in ("user", "assistant") for r in roles):
                raise SystemExit(f"case {cid}: a session must start with the user")
        return case


def load_cases(folder: Path) -> list[Case]:
    """Every case of every ``*.json`` file in ``folder`` (ids must be unique)."""
    cases: list[Case] = []
    for path in sorted(folder.glob("*.json")):
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise SystemExit(f"{path}: not JSON: {e}") from e
        cases += [Case.of(c) for c in raw]
    seen: set[str] = set()
    for c in cases:
        if c.id in seen:
            raise SystemExit(f"case id {c.id} appears twice")
        seen.add(c.id)
    return cases


def at(day: int, clock: str | None) -> datetime:
    """The instant of ``day`` (after day 0) at local ``HH:MM`` (10:00 when not given)."""
    hour, minute = (int(x) for x in (clock or "10:00").split(":"))
    return DAY0 + timedelta(days=day, hours=hour, minutes=minute)


# --- matching ---------------------------------------------------------------------------


def contains(text: str, word: str) -> bool:
    """``word`` in ``text``, case-insensitive; a latin word only as a whole word ("flight"
    does not hold "light")."""
    folded, w = text.casefold(), word.casefold().strip()
    if not w:
        return True
    if re.fullmatch(r"[a-z0-9][a-z0-9 .'&+-]*", w):
        return re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", folded) is not None
    return w in folded


def satisfied(text: str, item: str | list[str]) -> bool:
    """An expected item is found (a list: any of its alternatives)."""
    return any(contains(text, w) for w in ([item] if isinstance(item, str) else item))


def about_someone_else(node: dict[str, Any] | MemoryNode) -> bool:
    """A memory about another person (their own subject), not about the user."""
    if isinstance(node, MemoryNode):
        node = node.model_dump(by_alias=True)
    value = node.get("valueJson")
    path = node.get("categoryPath") or []
    return (isinstance(value, dict) and bool(value.get("person"))) or (
        bool(path) and path[0] in ("人物", "People")
    )


def node_text(node: dict[str, Any] | MemoryNode) -> str:
    if isinstance(node, MemoryNode):
        node = node.model_dump(by_alias=True)
    return " ".join(
        [
            str(node.get("title", "")),
            str(node.get("content", "")),
            json.dumps(node.get("valueJson"), ensure_ascii=False),
        ]
    )


# --- baselines --------------------------------------------------------------------------

_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "is",
        "are",
        "was",
        "were",
        "be",
        "i",
        "me",
        "my",
        "you",
        "your",
        "it",
        "this",
        "that",
        "what",
        "how",
        "do",
        "does",
        "did",
        "can",
        "could",
        "should",
        "would",
        "will",
        "with",
        "any",
        "some",
        "there",
    ]
)


def terms(text: str) -> set[str]:
    """Latin words (no stop words) and CJK bigrams: what a keyword search would match."""
    folded = text.casefold()
    words = {w for w in re.findall(r"[a-z0-9]+", folded) if w not in _STOP and len(w) > 1}
    for run in re.findall(r"[\u4e00-\u9fff]+", folded):
        words |= {run[i : i + 2] for i in range(len(run) - 1)}
    return words


def keyword_baseline(case: Case, top: int = 3) -> str:
    """The user's past messages sharing most terms with the question (top three)."""
    wanted = terms(case.question["text"])
    said = [m["content"] for s in case.sessions for m in s["messages"] if m["role"] == "user"]
    scored = [(len(wanted & terms(t)), -i, t) for i, t in enumerate(said)]
    best = sorted((s for s in scored if s[0] > 0), reverse=True)[:top]
    return "\n".join(t for _, _, t in best)


def full_history(case: Case) -> str:
    return "\n".join(f"{m['role']}: {m['content']}" for s in case.sessions for m in s["messages"])


# --- one run ----------------------------------------------------------------------------


@dataclass
class Verdict:
    """How one context did on one case."""

    passed: bool
    missing: list[Any] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    tokens: int = 0


def judge(case: Case, text: str) -> Verdict:
    missing = [e for e in case.expect if not satisfied(text, e)]
    found = [r for r in case.reject if contains(text, r)]
    return Verdict(not missing and not found, missing, found, estimate_tokens(text))


@dataclass
class Outcome:
    case: Case
    ekko: Verdict
    history: Verdict
    keywords: Verdict
    invented: list[str]
    context: str
    memories: list[str]
    turn_ms: list[float]
    # Decisions, facts and relevant memories in the rendered context that hold none of the
    # expected words (what the relevance floor is for; the profile, preferences, tasks and
    # constraints keep their own rules and are not counted).
    unrelated: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.ekko.passed and not self.invented


class Clock:
    """The service clock, moved by the replay."""

    def __init__(self) -> None:
        self.now = DAY0

    def __call__(self) -> datetime:
        return self.now


def run_case(case: Case, config: MemoryConfig | None) -> Outcome:
    """Replay ``case`` in a fresh workspace and judge the context for its question."""
    clock = Clock()
    turn_ms: list[float] = []
    with tempfile.TemporaryDirectory(prefix="ekko-eval-") as tmp:
        mem = open_memory(Path(tmp) / "ws", user_home=Path(tmp) / "home", config=config)
        mem.clock = clock
        try:
            for n, sess in enumerate(case.sessions):
                s = mem.session(f"{case.id}-s{n}", user_id="u1", workspace_id="w1")
                start = at(sess.get("day", 0), sess.get("time"))
                for i, msg in enumerate(sess["messages"]):
                    clock.now = start + timedelta(minutes=i)
                    s.append_message(msg["role"], msg["content"])
                    if msg["role"] == "assistant":
                        t0 = time.perf_counter()
                        s.after_reply()
                        turn_ms.append((time.perf_counter() - t0) * 1000)
                if sess["messages"][-1]["role"] == "user":
                    t0 = time.perf_counter()
                    s.after_reply()
                    turn_ms.append((time.perf_counter() - t0) * 1000)
            q = case.question
            clock.now = at(q.get("day", 0), q.get("time"))
            if mem.semantic is not None:
                # Every memory embedded, as in an agent that has been running a while
                # (the indexer embeds in the background, seconds after each write).
                mem.reindex()
            s = mem.session(f"{case.id}-q", user_id="u1", workspace_id="w1")
            s.append_message("user", q["text"])
            ctx = s.build_context(q["text"])
            text = ctx.render(max_tokens=RENDER_TOKENS)
            rendered = set(ctx.rendered_memory_ids)
            unrelated = [
                node_text(n)
                for n in (*ctx.facts, *ctx.relevant_nodes)
                if n.id in rendered and not any(satisfied(node_text(n), e) for e in case.expect)
            ]
            mine = held_as_own(mem)
        finally:
            mem.close()
    invented = [w for w in case.forbid_memory if any(contains(t, w) for t in mine)]
    return Outcome(
        case=case,
        ekko=judge(case, text),
        history=judge(case, full_history(case)),
        keywords=judge(case, keyword_baseline(case)),
        invented=invented,
        context=text,
        memories=mine,
        turn_ms=turn_ms,
        unrelated=unrelated,
    )


def held_as_own(mem: Any) -> list[str]:
    """The text of every memory the user holds as their own: active ones and those that wait
    for approval (both reach the agent)."""
    nodes = mem.browse.list_nodes(
        BrowseFilter(scopes=["session", "workspace", "user"]), limit=1000
    ).nodes
    out = [node_text(n) for n in nodes if not about_someone_else(n)]
    for item in mem.pending():
        if item.node is not None and not about_someone_else(item.node):
            out.append(node_text(item.node))
    return out


# --- report -----------------------------------------------------------------------------


def rate(outcomes: Sequence[Outcome], pick: Any) -> float:
    return round(100 * sum(1 for o in outcomes if pick(o)) / len(outcomes), 1) if outcomes else 0.0


def pct(samples: Iterable[float], q: float) -> float:
    s = sorted(samples)
    if not s:
        return 0.0
    return round(s[min(len(s) - 1, int(q * len(s)))], 2)


def summarize(outcomes: list[Outcome]) -> dict[str, Any]:
    """Scores overall, per kind and per language, with the baselines beside them."""

    def scores(group: Sequence[Outcome]) -> dict[str, Any]:
        return {
            "cases": len(group),
            "ekko": rate(group, lambda o: o.passed),
            "full_history": rate(group, lambda o: o.history.passed),
            "keyword_search": rate(group, lambda o: o.keywords.passed),
            "ekko_tokens": round(statistics.mean(o.ekko.tokens for o in group), 1),
            "history_tokens": round(statistics.mean(o.history.tokens for o in group), 1),
            "keyword_tokens": round(statistics.mean(o.keywords.tokens for o in group), 1),
        }

    by_kind: dict[str, list[Outcome]] = defaultdict(list)
    by_lang: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_kind[o.case.kind].append(o)
        by_lang[o.case.lang].append(o)
    turns = [t for o in outcomes for t in o.turn_ms]
    overall = scores(outcomes)
    overall["context_share_of_history"] = round(
        sum(o.ekko.tokens for o in outcomes) / max(1, sum(o.history.tokens for o in outcomes)), 3
    )
    return {
        "overall": overall,
        "invented_memories": sum(len(o.invented) for o in outcomes),
        "cases_with_invented_memories": [o.case.id for o in outcomes if o.invented],
        "by_kind": {k: scores(v) for k, v in sorted(by_kind.items())},
        "by_language": {k: scores(v) for k, v in sorted(by_lang.items())},
        "after_reply_ms": {"p50": pct(turns, 0.5), "p99": pct(turns, 0.99), "turns": len(turns)},
        "failed": [
            {
                "id": o.case.id,
                "missing": o.ekko.missing,
                "rejected_found": o.ekko.rejected,
                "invented": o.invented,
            }
            for o in outcomes
            if not o.passed
        ],
    }


def print_report(report: dict[str, Any]) -> None:
    o = report["overall"]
    print(
        f"\n{'':14}{'cases':>6}{'ekko':>8}{'history':>9}{'keywords':>10}"
        f"{'ekko tok':>10}{'hist tok':>10}"
    )

    def row(name: str, s: dict[str, Any]) -> None:
        print(
            f"{name:14}{s['cases']:>6}{s['ekko']:>7.1f}%{s['full_history']:>8.1f}%"
            f"{s['keyword_search']:>9.1f}%{s['ekko_tokens']:>10.0f}{s['history_tokens']:>10.0f}"
        )

    for kind, s in report["by_kind"].items():
        row(kind, s)
    print("-" * 67)
    for lang, s in report["by_language"].items():
        row(lang, s)
    row("overall", o)
    print(
        f"\ncontext / full history: {o['context_share_of_history']:.3f} of the tokens; "
        f"invented memories: {report['invented_memories']}; "
        f"after_reply p50 {report['after_reply_ms']['p50']} ms, "
        f"p99 {report['after_reply_ms']['p99']} ms"
    )


def compare_semantic(on: list[Outcome], off: list[Outcome]) -> dict[str, Any]:
    """Semantic recall on against off, case by case: scores per kind and language, and the
    unrelated memories each let into the contexts (on should keep out what off lets in)."""

    def rates(group: list[tuple[Outcome, Outcome]]) -> dict[str, Any]:
        return {
            "cases": len(group),
            "on": rate([a for a, _ in group], lambda o: o.passed),
            "off": rate([b for _, b in group], lambda o: o.passed),
            "unrelated_on": sum(len(a.unrelated) for a, _ in group),
            "unrelated_off": sum(len(b.unrelated) for _, b in group),
        }

    pairs = list(zip(on, off, strict=True))
    by_kind: dict[str, list[tuple[Outcome, Outcome]]] = defaultdict(list)
    by_lang: dict[str, list[tuple[Outcome, Outcome]]] = defaultdict(list)
    for a, b in pairs:
        by_kind[a.case.kind].append((a, b))
        by_lang[a.case.lang].append((a, b))
    # Unrelated memories off let in that on let in too (the same text in the same case).
    kept = [f"{a.case.id}: {t}" for a, b in pairs for t in a.unrelated if t in set(b.unrelated)]
    return {
        "overall": rates(pairs),
        "by_kind": {k: rates(v) for k, v in sorted(by_kind.items())},
        "by_language": {k: rates(v) for k, v in sorted(by_lang.items())},
        "unrelated_off_lets_in_that_on_keeps": kept,
        "passed_only_on": [a.case.id for a, b in pairs if a.passed and not b.passed],
        "passed_only_off": [a.case.id for a, b in pairs if b.passed and not a.passed],
    }


def print_comparison(c: dict[str, Any]) -> None:
    print(f"\nsemantic recall  {'cases':>6}{'on':>8}{'off':>8}{'unrel on':>10}{'unrel off':>11}")

    def row(name: str, r: dict[str, Any]) -> None:
        print(
            f"{name:16} {r['cases']:>6}{r['on']:>7.1f}%{r['off']:>7.1f}%"
            f"{r['unrelated_on']:>10}{r['unrelated_off']:>11}"
        )

    for kind, r in c["by_kind"].items():
        row(kind, r)
    for lang, r in c["by_language"].items():
        row(lang, r)
    row("overall", c["overall"])
    print(
        f"unrelated memories off let in that on kept: {len(c['unrelated_off_lets_in_that_on_keeps'])}; "
        f"passed only with semantic recall: {len(c['passed_only_on'])}, "
        f"only without: {len(c['passed_only_off'])}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the cases and print (and write) the scores."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--cases", type=Path, default=CASES, help="folder of case files")
    p.add_argument("--kind", action="append", help="only cases of this kind (repeatable)")
    p.add_argument("--id", action="append", help="only this case (repeatable)")
    p.add_argument("--output", type=Path, default=RESULTS)
    p.add_argument("--no-output", action="store_true")
    p.add_argument("-v", "--verbose", action="store_true", help="print each failed case")
    p.add_argument("--llm-base-url", default=os.environ.get("LLM_BASE_URL") or None)
    p.add_argument("--llm-model", default=os.environ.get("LLM_MODEL") or None)
    p.add_argument("--llm-api-key", default=os.environ.get("LLM_API_KEY") or None)
    p.add_argument(
        "--semantic",
        choices=("both", "on", "off"),
        default="both",
        help="semantic recall on, off, or both side by side (default: both; the report's "
        "scores are semantic on, the product's default)",
    )
    args = p.parse_args(argv)

    cases = load_cases(args.cases)
    if args.kind:
        cases = [c for c in cases if c.kind in args.kind]
    if args.id:
        cases = [c for c in cases if c.id in args.id]
    if not cases:
        print("no cases")
        return 1
    llm: LlmConfig | None = None
    extractor = "rules"
    if args.llm_base_url:
        if not args.llm_model:
            p.error("--llm-model is needed with --llm-base-url")
        llm = LlmConfig(base_url=args.llm_base_url, model=args.llm_model, api_key=args.llm_api_key)
        extractor = f"llm:{args.llm_model}"
    started = time.perf_counter()
    sides = ("on", "off") if args.semantic == "both" else (args.semantic,)
    by_side: dict[str, list[Outcome]] = {}
    for side in sides:
        config = MemoryConfig(
            llm=llm, embedder=EmbedderConfig(provider="local" if side == "on" else "none")
        )
        by_side[side] = [run_case(case, config) for case in cases]
    outcomes = by_side[sides[0]]
    for outcome in outcomes:
        case = outcome.case
        if args.verbose and not outcome.passed:
            print(f"\n✗ {case.id} ({case.kind}) {case.note}")
            print(f"  ask: {case.question['text']}")
            if outcome.ekko.missing:
                print(f"  missing: {outcome.ekko.missing}")
            if outcome.ekko.rejected:
                print(f"  should not hold: {outcome.ekko.rejected}")
            if outcome.invented:
                print(f"  invented memory: {outcome.invented}")
            print("  context: " + (outcome.context.replace("\n", "\n           ") or "(empty)"))
            print("  memories: " + ("\n            ".join(outcome.memories) or "(none)"))
    report = summarize(outcomes)
    report["extractor"] = extractor
    report["semantic"] = sides[0]
    if len(sides) == 2:
        report["semantic_comparison"] = compare_semantic(by_side["on"], by_side["off"])
    report["seconds"] = round(time.perf_counter() - started, 1)
    print_report(report)
    if "semantic_comparison" in report:
        print_comparison(report["semantic_comparison"])
    if not args.no_output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(
            json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
