"""Decisions said the way people say them: a tool chosen over another, a version pinned, and
a list of decisions announced after a colon (装修方案定了：…) — each kept in the user's words,
in the project's workspace or the user's own life, and found by the next conversation."""

from __future__ import annotations

from ekko_memory import MemoryService
from ekko_memory.service.extraction.lexicon import load_lexicon
from tests.core.test_statement_kinds import later, say, stored


def decisions(mem: MemoryService) -> dict[str | None, list[str]]:
    out: dict[str | None, list[str]] = {}
    for n in stored(mem):
        if n.type == "decision":
            out.setdefault(n.key, []).append(str(n.value_json))
    return out


def test_tools_chosen_keep_the_one_chosen_and_its_version(mem: MemoryService) -> None:
    say(mem, "前端这边统一了，包管理全部用pnpm，Node 版本锁 20")
    say(mem, "we're going with Figma over Sketch, the design lead made the call", session="s2")
    found = decisions(mem)
    assert found["package_manager"] == ["pnpm"]
    assert found["runtime"] == ["node"]
    assert found["design_tool"] == ["figma"]  # Sketch was passed over
    [node] = [n for n in stored(mem) if n.key == "runtime"]
    assert node.scope == "workspace" and "Node 20" in node.title
    assert "Figma" in later(mem, "Which tool should I mock the onboarding screen in?")


def test_an_everyday_word_is_no_technology(mem: MemoryService) -> None:
    lexicon = load_lexicon()
    assert lexicon.find_tech("let's go with Notion for the docs") == []
    assert lexicon.find_tech("We write it in Go") == [("Go", "language")]
    assert lexicon.find_tech("后端用go写") == [("Go", "language")]
    say(mem, "let's go with the blue one for the invitations")
    assert "language" not in decisions(mem)


def test_decisions_announced_after_a_colon_each_kept_with_their_reason(
    mem: MemoryService,
) -> None:
    say(mem, "客厅的方案跟我妈商量定了：墙面刷奶白色，沙发不买布艺的，猫会抓")
    found = decisions(mem)["personal_decision"]
    assert sorted(found) == ["客厅的方案:墙面刷奶白色", "客厅的方案:沙发不买布艺的,猫会抓"]
    nodes = [n for n in stored(mem) if n.key == "personal_decision"]
    assert all(n.scope == "user" and n.category_path[:1] == ["个人"] for n in nodes)
    context = later(mem, "客厅的沙发和墙面怎么配？")
    assert "奶白色" in context and "布艺" in context


def test_a_projects_announced_decisions_stay_in_the_workspace(mem: MemoryService) -> None:
    say(mem, "Release process agreed: tags are cut from main, and no deploys after 4pm.")
    nodes = [n for n in stored(mem) if n.key == "team_decision"]
    assert sorted(str(n.value_json) for n in nodes) == [
        "release process: no deploys after 4pm",
        "release process: tags are cut from main",
    ]
    assert all(n.scope == "workspace" for n in nodes)


def test_a_colon_after_no_decision_announces_nothing(mem: MemoryService) -> None:
    say(mem, "我定了个闹钟：明早六点")
    say(mem, "不知道定了没有：你觉得呢？", session="s2")
    assert decisions(mem) == {}


def test_a_decision_said_after_a_bare_lead_or_inside_a_clause(mem: MemoryService) -> None:
    say(mem, "跟我爸妈合计好了，国庆不出去玩了，人太多")
    say(mem, "纠结了一周，最后书房定了刷浅灰色，白色太容易脏", session="s2")
    found = sorted(decisions(mem)["personal_decision"])
    assert found == ["书房:刷浅灰色,白色太容易脏", "国庆不出去玩了,人太多"]
    assert "浅灰色" in later(mem, "书房的墙面漆买多少合适？")


def test_a_clause_that_sets_books_or_asks_decides_nothing(mem: MemoryService) -> None:
    say(mem, "晚上定了一家火锅店，七点到")
    say(mem, "你那边方案定了吗？", session="s2")
    say(mem, "我们商量了一下，还没结果", session="s3")
    assert "personal_decision" not in decisions(mem)
