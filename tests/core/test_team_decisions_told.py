"""Decisions a team at work made, told by the user in passing: by leadership, a meeting, a
review, the boss — with a weekday or a time in them, or a technology no list names. They
are the workspace's decisions or rules (never a routine, a plan or a state of the user's
own), a topic said before the chosen technology is its role (缓存统一用 Redis is no database
choice), and a question or a supposition with the same words stores nothing."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from tests.core.test_statement_kinds import later, say, stored


def workspace(mem: MemoryService) -> list[MemoryNode]:
    return [n for n in stored(mem) if n.scope == "workspace"]


def users_own(mem: MemoryService) -> list[MemoryNode]:
    return [n for n in stored(mem) if n.scope != "workspace"]


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("leadership decided no deploys on Fridays", "no deploys on Fridays"),
        ("our team voted to move standups to 10am", "standups to 10am"),
        ("after the retro we decided to do code freeze every Wednesday", "code freeze"),
        ("组里商量好了，每周四发版", "每周四发版"),
        ("领导拍板了，以后周五不上线", "周五不上线"),
        ("老板说以后代码合并前必须有两个人 review", "两个人 review"),
        ("组长说了，周五之后不许再合代码", "不许再合代码"),
        ("product signed off on launching the beta on May 1st", "launching the beta"),
        ("our code reviews happen on Tuesdays and Thursdays now", "code reviews"),
        ("我们组每周三下午做 code review", "code review"),
    ],
)
def test_a_teams_decision_is_the_workspaces_not_the_users_routine(
    mem: MemoryService, said: str, words: str
) -> None:
    say(mem, said)
    decided = workspace(mem)
    assert decided and all(n.type in ("decision", "constraint") for n in decided)
    assert any(words.casefold() in n.content.casefold() for n in decided)
    assert users_own(mem) == []  # no routine, plan or state of the user's own


def test_a_topic_before_the_choice_is_its_role_not_the_database(mem: MemoryService) -> None:
    say(mem, "架构评审过了，缓存统一用 Redis")
    [node] = workspace(mem)
    assert node.key == "tech_choice" and node.value_json == "redis" and "缓存" in node.title
    say(mem, "数据库用 MySQL")
    # The database decision stands beside the cache: one does not replace the other.
    assert {n.key: n.value_json for n in workspace(mem)} == {
        "tech_choice": "redis",
        "database": "mysql",
    }


def test_a_scope_before_the_choice_keeps_the_technologys_key(mem: MemoryService) -> None:
    say(mem, "我们组定了下个版本用 Postgres")
    [node] = workspace(mem)
    assert node.key == "database" and node.value_json == "postgres"


def test_english_role_after_the_technology(mem: MemoryService) -> None:
    say(mem, "we use Redis for caching across services")
    [node] = workspace(mem)
    assert node.key == "tech_choice" and "caching" in node.title


@pytest.mark.parametrize(
    ("said", "name", "question"),
    [
        ("我们组定了，表单校验统一用 Zod", "Zod", "表单怎么校验比较好"),
        (
            "the platform team settled on Pulumi for all our infra code",
            "Pulumi",
            "how should I write the infra code for a new bucket?",
        ),
        (
            "after the design review we're building the admin panel with Refine",
            "Refine",
            "start on the admin panel",
        ),
        ("后端 review 过了，鉴权走 Keycloak", "Keycloak", "登录鉴权怎么接"),
    ],
)
def test_a_technology_no_list_names_is_the_teams_choice(
    mem: MemoryService, said: str, name: str, question: str
) -> None:
    say(mem, said)
    assert any(n.value_json == name.casefold() and n.type == "decision" for n in workspace(mem))
    assert name in later(mem, question)


@pytest.mark.parametrize(
    "said",
    [
        "Has leadership decided about Friday deploys yet?",
        "if the team decided to use Pulumi, what would change?",
        "如果领导决定周五不上线，我们怎么办",
        "要不要缓存统一用 Redis？",
        "我们组还没定每周几发版",
        "we haven't agreed on Pulumi yet",
        "I use Obsidian for my notes at work",
        "我用 iPhone 拍照",
        "预算那个搞定了，老板也看过了",
    ],
)
def test_asked_supposed_undecided_or_the_users_own_is_no_team_decision(
    mem: MemoryService, said: str
) -> None:
    say(mem, said)
    assert [n for n in workspace(mem) if n.type in ("decision", "constraint")] == []


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("going forward, every PR needs a linked ticket", "linked ticket"),
        ("以后接口统一返回驼峰命名", "驼峰"),
    ],
)
def test_a_standing_rule_of_the_code_is_the_workspaces(
    mem: MemoryService, said: str, words: str
) -> None:
    say(mem, said)
    assert any(words in n.content and n.type == "constraint" for n in workspace(mem))


def test_the_users_own_plan_approved_by_the_boss_is_no_team_rule(mem: MemoryService) -> None:
    say(mem, "my boss agreed I can leave early on Fridays")
    assert [n for n in workspace(mem) if n.type in ("decision", "constraint")] == []
