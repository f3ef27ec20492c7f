"""A demo workspace with realistic memories, written through the public API only
(``ekko_memory``'s exports; the import-linter contracts in pyproject.toml hold it to that).

Used by ``ekko-memory-gui --demo`` (and usable from the CLI or a notebook): two sessions
with messages, replies and summaries; Chinese and English memories under
生活技能/做饭/饮食偏好, 个人/沟通 and 项目/…; supersede chains; an expired and a deleted
memory; and items that wait for the user (a user-scope write without "记住", sensitive
data, an overwrite of a high-confidence memory, a hard delete).

The service clock is moved back while filling, so the memories carry dates spread over
the past weeks, as a real workspace would.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ekko_memory import MemoryService, MemorySession, MemorySummary, open_memory

# Record ids have one format across the stores; the demo's summaries are spelled in it.
from ekko_memory.ids import new_id

DEMO_USER = "u-demo"
DEMO_WORKSPACE = "w-demo"
COOKING_SESSION = "s-cooking"
PROJECT_SESSION = "s-project"


@dataclass
class DemoReport:
    """What the demo wrote: ids of interest for tests and a screenshot script."""

    workspace: Path
    user_home: Path
    node_ids: dict[str, str] = field(default_factory=dict)
    pending_ids: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class _Clock:
    """A movable service clock (``mem.clock`` is the service's public time source)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        # Each call moves on a little, so events written in one go keep their order.
        self.now += timedelta(seconds=1)
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@contextmanager
def _clock(mem: MemoryService, start: datetime) -> Iterator[_Clock]:
    saved = mem.clock
    clock = _Clock(start)
    mem.clock = clock
    try:
        yield clock
    finally:
        mem.clock = saved


def _propose(
    s: MemorySession,
    report: DemoReport,
    name: str,
    node: dict[str, Any],
    reason: str,
    *,
    operation: str = "create",
    target: str | None = None,
) -> dict[str, Any]:
    args: dict[str, Any] = {"operation": operation, "node": node, "reason": reason}
    if target is not None:
        args["targetId"] = report.node_ids[target]
    result = s.call_tool("memory_propose_update", args)
    if result.get("nodeId") and result.get("accepted"):
        report.node_ids[name] = result["nodeId"]
    elif result.get("pendingId"):
        report.pending_ids.append(result["pendingId"])
    else:
        report.warnings.append(f"{name}: {result.get('reason')}")
    return result


def _turn(
    s: MemorySession, user_text: str, reply: str, clock: _Clock, *, minutes: float = 2
) -> None:
    """A user message, the context the agent got, and its reply (usage is recorded)."""
    clock.advance(minutes=minutes)
    s.append_message("user", user_text)
    ctx = s.build_context(user_text)
    clock.advance(seconds=20)
    s.record_reply(reply, ctx)


def _summary(mem: MemoryService, session_id: str, **fields: Any) -> None:
    messages = mem.browse.messages(session_id, limit=1000)
    if not messages:
        return
    previous = mem.get_latest_summary(session_id=session_id)
    start = 0
    if previous is not None:
        ids = [m.id for m in messages]
        start = ids.index(previous.to_message_id) + 1 if previous.to_message_id in ids else 0
    if start >= len(messages):
        return
    mem.append_summary(
        MemorySummary(
            id=new_id("sum"),
            session_id=session_id,
            parent_summary_id=previous.id if previous else None,
            from_message_id=messages[start].id,
            to_message_id=messages[-1].id,
            created_at=mem.now(),
            **fields,
        )
    )


def _cooking(mem: MemoryService, report: DemoReport, clock: _Clock) -> None:
    s = mem.session(COOKING_SESSION, user_id=DEMO_USER, workspace_id=DEMO_WORKSPACE)
    food = ["生活技能", "做饭", "饮食偏好"]

    s.append_message("user", "记住，我以后做饭不要香菜。")
    _propose(
        s,
        report,
        "no_coriander",
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": food,
            "type": "preference",
            "key": "avoid_ingredient",
            "valueJson": "香菜",
            "title": "用户不吃香菜",
            "content": "做饭时不要放香菜。",
            "confidence": 0.95,
            "importance": 0.9,
            "tags": ["饮食", "忌口"],
            "entities": ["香菜"],
        },
        "用户明确要求记住：做饭不要香菜",
    )
    clock.advance(seconds=30)
    s.record_reply("好的，我记住了：以后给你做饭不放香菜。", s.build_context("做饭不要香菜"))

    s.append_message("user", "记住，我也不吃葱。口味偏清淡，少油少盐。")
    _propose(
        s,
        report,
        "no_scallion",
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": food,
            "type": "preference",
            "key": "avoid_ingredient",
            "valueJson": "葱",
            "title": "用户不吃葱",
            "content": "做饭时不放葱。",
            "confidence": 0.9,
            "importance": 0.8,
            "tags": ["饮食", "忌口"],
            "entities": ["葱"],
        },
        "用户明确要求记住：不吃葱",
    )
    _propose(
        s,
        report,
        "light_taste",
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": food,
            "type": "preference",
            "key": "flavor_profile",
            "valueJson": {"oil": "low", "salt": "low"},
            "title": "用户口味偏清淡（少油少盐）",
            "content": "菜要少油少盐，偏清淡。",
            "confidence": 0.9,
            "importance": 0.85,
            "tags": ["口味"],
        },
        "用户明确说明口味",
    )
    clock.advance(seconds=30)
    s.record_reply("记下了：不放葱，少油少盐。", s.build_context("口味偏清淡，少油少盐"))

    _turn(
        s,
        "今晚吃什么？冰箱里有番茄、鸡蛋和豆腐。",
        "可以做番茄炒蛋和一道家常豆腐，都不放香菜和葱，少油少盐。",
        clock,
    )

    s.append_message("user", "帮我记录一下番茄炒蛋的做法：先炒蛋盛出，再炒番茄出汁，合炒，少盐。")
    _propose(
        s,
        report,
        "recipe_eggs",
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": ["生活技能", "做饭", "菜谱"],
            "type": "recipe",
            "title": "番茄炒蛋",
            "content": "先炒蛋盛出，再炒番茄出汁，倒回鸡蛋合炒，少盐，不放葱。",
            "valueJson": {"ingredients": ["番茄", "鸡蛋"], "minutes": 15},
            "confidence": 0.9,
            "importance": 0.6,
            "tags": ["菜谱", "家常菜"],
            "entities": ["番茄", "鸡蛋"],
        },
        "用户要求记录菜谱",
    )

    # Tonight only: a session constraint that expires (an expired node by the end).
    clock.advance(minutes=5)
    s.append_message("user", "今晚少辣一点，嗓子不太舒服。")
    _propose(
        s,
        report,
        "tonight_mild",
        {
            "scope": "session",
            "domain": "生活技能",
            "categoryPath": food,
            "type": "constraint",
            "key": "flavor_profile",
            "valueJson": "少辣",
            "title": "今晚少辣",
            "content": "今晚的菜少放辣。",
            "confidence": 0.8,
            "importance": 0.5,
            "expiresAt": (clock.now + timedelta(hours=6)).isoformat(),
        },
        "临时口味约束（今晚）",
    )
    s.record_reply("好的，今晚的菜少放辣。", s.build_context("今晚少辣"))

    # Not asked to remember: waits for the user (user scope without intent).
    clock.advance(minutes=10)
    s.append_message("user", "我昨天做了红烧肉，挺好吃的。")
    _propose(
        s,
        report,
        "likes_pork",
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": food,
            "type": "preference",
            "key": "preferred_ingredient",
            "valueJson": "猪肉",
            "title": "用户喜欢红烧肉",
            "content": "用户喜欢吃红烧肉（猪肉）。",
            "confidence": 0.6,
            "importance": 0.5,
            "entities": ["猪肉", "红烧肉"],
        },
        "从对话推断：用户喜欢红烧肉",
    )
    s.record_reply("听起来不错！下次可以试试少油版的红烧肉。")

    # Sensitive data: waits for the user even with "记住".
    clock.advance(minutes=3)
    s.append_message("user", "记住我的手机号 13812345678，外卖要用。")
    _propose(
        s,
        report,
        "phone",
        {
            "scope": "user",
            "domain": "个人",
            "categoryPath": ["个人", "资料"],
            "type": "fact",
            "key": "phone",
            "valueJson": "13812345678",
            "title": "用户手机号",
            "content": "点外卖时使用的手机号。",
            "confidence": 0.95,
            "importance": 0.7,
        },
        "用户要求记住手机号",
    )
    s.record_reply("手机号属于敏感信息，需要你在 Ekko Memory 里确认后我才会记住。")

    _summary(
        mem,
        COOKING_SESSION,
        summary="用户设定了饮食偏好：不吃香菜和葱，口味清淡（少油少盐）；记录了番茄炒蛋的做法；今晚临时少辣。",
        current_goal="安排今晚的晚饭",
        constraints=["不放香菜", "不放葱", "今晚少辣"],
        preferences=["少油少盐"],
        completed_work=["记录番茄炒蛋菜谱"],
        pending_work=["确认是否记住手机号"],
    )

    # Two weeks later the user changes their mind: a supersede chain (avoid → limit).
    clock.advance(days=14)
    s.append_message("user", "香菜现在可以接受一点了，少放一点没关系，记住。")
    _propose(
        s,
        report,
        "some_coriander",
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": food,
            "type": "preference",
            "key": "limit_ingredient",
            "valueJson": {"ingredient": "香菜", "amount": "少量"},
            "title": "用户可接受少量香菜",
            "content": "香菜可以少放一点。",
            "confidence": 0.95,
            "importance": 0.9,
            "tags": ["饮食"],
            "entities": ["香菜"],
        },
        "用户更正：香菜可以接受少量",
    )
    s.record_reply("好的，以后香菜可以少放一点。", s.build_context("香菜可以少放"))
    _turn(
        s,
        "周末想做点简单的，有什么推荐？",
        "可以做番茄炒蛋（你记下的做法）或清蒸鱼，少油少盐，香菜只放一点点。",
        clock,
    )
    _summary(
        mem,
        COOKING_SESSION,
        summary="用户更正了香菜偏好：现在可以接受少量香菜。周末想做简单的菜。",
        current_goal="周末菜单",
        constraints=["不放葱"],
        preferences=["香菜少量", "少油少盐"],
        decisions=["香菜从“不吃”改为“少量”"],
    )


def _project(mem: MemoryService, report: DemoReport, clock: _Clock) -> None:
    s = mem.session(PROJECT_SESSION, user_id=DEMO_USER, workspace_id=DEMO_WORKSPACE)
    arch = ["项目", "架构"]

    s.append_message("user", "以后都用中文回答我，代码注释用英文。")
    _propose(
        s,
        report,
        "reply_zh",
        {
            "scope": "user",
            "domain": "个人",
            "categoryPath": ["个人", "沟通"],
            "type": "preference",
            "key": "reply_language",
            "valueJson": "中文",
            "title": "用中文回答",
            "content": "回答用中文；代码注释用英文。",
            "confidence": 0.95,
            "importance": 0.9,
        },
        "用户明确要求：以后用中文回答",
    )
    s.record_reply("好的，以后用中文回答你，代码注释用英文。")

    clock.advance(minutes=4)
    s.append_message(
        "user", "We decided: the backend uses PostgreSQL, with FastAPI as the web framework."
    )
    _propose(
        s,
        report,
        "db_postgres",
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": arch,
            "type": "decision",
            "key": "database",
            "valueJson": "PostgreSQL",
            "title": "Backend database: PostgreSQL",
            "content": "The team chose PostgreSQL for the backend.",
            "confidence": 0.85,
            "importance": 0.8,
            "tags": ["database"],
            "entities": ["PostgreSQL"],
        },
        "decision stated by the user",
    )
    _propose(
        s,
        report,
        "framework",
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": arch,
            "type": "decision",
            "key": "framework",
            "valueJson": "FastAPI",
            "title": "Web framework: FastAPI",
            "content": "HTTP API written with FastAPI.",
            "confidence": 0.85,
            "importance": 0.7,
            "entities": ["FastAPI"],
        },
        "decision stated by the user",
    )
    s.record_reply("Noted: PostgreSQL + FastAPI.")

    clock.advance(minutes=6)
    s.append_message("user", "项目约束：所有公共函数都要有类型注解，CI 必须跑 ruff 和 mypy。")
    _propose(
        s,
        report,
        "typed",
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": ["项目", "约束"],
            "type": "constraint",
            "key": "coding_rule",
            "valueJson": "所有公共函数都要有类型注解",
            "title": "公共函数必须有类型注解",
            "content": "所有公共函数都要有类型注解；CI 跑 ruff 和 mypy。",
            "confidence": 0.9,
            "importance": 0.75,
            "tags": ["代码规范", "CI"],
        },
        "项目约束",
    )
    _propose(
        s,
        report,
        "deploy",
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": ["项目", "部署"],
            "type": "fact",
            "key": "deployment",
            "valueJson": "Docker on one VPS",
            "title": "Deployed with Docker on a single VPS",
            "content": "Production runs as Docker containers on one VPS; deploys go through CI.",
            "confidence": 0.8,
            "importance": 0.6,
            "entities": ["Docker"],
        },
        "project fact",
    )
    _propose(
        s,
        report,
        "old_repo",
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": ["项目", "协作"],
            "type": "fact",
            "key": "repository",
            "valueJson": "git.example.com/acme/ekko-old",
            "title": "Repository: git.example.com/acme/ekko-old",
            "content": "The old repository, before the move.",
            "confidence": 0.7,
            "importance": 0.4,
        },
        "project fact",
    )
    s.append_message("user", "任务：写数据库迁移脚本，我现在开始做。")
    _propose(
        s,
        report,
        "task_migration",
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": ["项目", "任务"],
            "type": "task",
            "key": "task_status",
            "valueJson": {"task": "写数据库迁移脚本", "status": "in_progress"},
            "title": "写数据库迁移脚本",
            "content": "为新表写迁移脚本并在 CI 里跑一遍。",
            "confidence": 0.8,
            "importance": 0.7,
            "tags": ["任务"],
        },
        "任务开始",
    )
    _propose(
        s,
        report,
        "task_docs",
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": ["项目", "任务"],
            "type": "task",
            "key": "task_status",
            "valueJson": {"task": "Write the API docs", "status": "todo"},
            "title": "Write the API docs",
            "content": "Document every endpoint with examples.",
            "confidence": 0.7,
            "importance": 0.5,
        },
        "task noted",
    )
    s.record_reply("好的，我记下了约束和任务。")
    _summary(
        mem,
        PROJECT_SESSION,
        summary="项目决定：PostgreSQL + FastAPI，Docker 部署在一台 VPS；约束：公共函数要有类型注解。开始写迁移脚本。",
        current_goal="搭建后端",
        constraints=["公共函数要有类型注解", "CI 跑 ruff 和 mypy"],
        decisions=["PostgreSQL", "FastAPI"],
        pending_work=["写数据库迁移脚本", "Write the API docs"],
    )

    # A week later: the database decision changes and the task is done (two chains).
    clock.advance(days=7)
    s.append_message(
        "user", "From now on the desktop build uses SQLite instead of PostgreSQL; remember that."
    )
    _propose(
        s,
        report,
        "db_sqlite",
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": arch,
            "type": "decision",
            "key": "database",
            "valueJson": "SQLite",
            "title": "Database: SQLite (desktop build)",
            "content": "The desktop build stores everything in SQLite; PostgreSQL is dropped.",
            "confidence": 0.95,
            "importance": 0.85,
            "tags": ["database"],
            "entities": ["SQLite"],
        },
        "the user changed the database decision",
        operation="supersede",
        target="db_postgres",
    )
    s.record_reply("Understood: SQLite for the desktop build.")
    s.append_message("user", "迁移脚本写完了，记一下。")
    _propose(
        s,
        report,
        "task_migration_done",
        {
            "valueJson": {"task": "写数据库迁移脚本", "status": "done"},
            "title": "写数据库迁移脚本（已完成）",
        },
        "任务完成",
        operation="update",
        target="task_migration",
    )
    s.record_reply("太好了，任务标记为已完成。")

    # The agent tries to overwrite a high-confidence memory on a guess: it waits.
    clock.advance(hours=2)
    s.append_message("user", "Tests are slow today.")
    _propose(
        s,
        report,
        "db_guess",
        {
            "valueJson": "PostgreSQL",
            "title": "Database: PostgreSQL again?",
            "content": "Guessing the team went back to PostgreSQL.",
            "confidence": 0.5,
        },
        "inferred from a remark about slow tests",
        operation="update",
        target="db_sqlite",
    )
    s.record_reply("Slow tests can come from the database fixtures; let us profile them.")

    # The user asks to forget the old repository for good: a hard delete waits.
    clock.advance(minutes=20)
    s.append_message("user", "Delete the old repository address permanently.")
    s.call_tool(
        "memory_forget",
        {"id": report.node_ids["old_repo"], "mode": "hard", "reason": "the user asked"},
    )
    _summary(
        mem,
        PROJECT_SESSION,
        summary="桌面版改用 SQLite；迁移脚本已完成。用户要求彻底删除旧仓库地址（等待确认）。",
        current_goal="桌面版发布",
        decisions=["SQLite（桌面版）"],
        completed_work=["写数据库迁移脚本"],
        pending_work=["Write the API docs", "确认删除旧仓库地址"],
    )


def _user_actions(mem: MemoryService, report: DemoReport, clock: _Clock) -> None:
    """What the user did in the app: a memory by hand, a soft delete, an expiry."""
    clock.advance(hours=3)
    out = mem.actions.create(
        {
            "scope": "user",
            "domain": "生活技能",
            "categoryPath": ["生活技能", "做饭", "饮食偏好"],
            "type": "preference",
            "key": "preferred_cuisine",
            "valueJson": "粤菜",
            "title": "喜欢粤菜",
            "content": "口味清淡的粤菜最合适。",
            "confidence": 1.0,
            "importance": 0.6,
        },
        user_id=DEMO_USER,
        workspace_id=DEMO_WORKSPACE,
    )
    if out.node_id:
        report.node_ids["cantonese"] = out.node_id
    out = mem.actions.create(
        {
            "scope": "workspace",
            "domain": "项目",
            "categoryPath": ["项目", "约定"],
            "type": "fact",
            "key": "convention",
            "valueJson": "Conventional Commits",
            "title": "Commit messages follow Conventional Commits",
            "content": "feat:, fix:, docs: … in every commit title.",
            "confidence": 0.9,
            "importance": 0.4,
        },
        user_id=DEMO_USER,
        workspace_id=DEMO_WORKSPACE,
    )
    if out.node_id:
        report.node_ids["commits"] = out.node_id
        clock.advance(minutes=30)
        mem.actions.delete(out.node_id, "soft", reason="no longer true")
    if "task_docs" in report.node_ids:
        clock.advance(minutes=5)
        mem.actions.expire(report.node_ids["task_docs"], reason="postponed to the next release")


def create_demo_workspace(
    folder: str | os.PathLike[str], *, user_home: str | os.PathLike[str] | None = None
) -> DemoReport:
    """Fill ``folder/workspace`` (and ``folder/user-home`` unless given) with demo memories.

    Returns where they are and the ids written; a folder that already holds a demo is
    reused as it is.
    """
    root = Path(folder)
    workspace = root / "workspace"
    home = Path(user_home) if user_home is not None else root / "user-home"
    workspace.mkdir(parents=True, exist_ok=True)
    home.mkdir(parents=True, exist_ok=True)
    report = DemoReport(workspace=workspace, user_home=home)
    marker = workspace / ".ekko" / "demo-filled"
    if marker.exists():
        return report
    mem = open_memory(workspace, user_home=home)
    try:
        start = datetime.now(UTC) - timedelta(days=24)
        with _clock(mem, start) as clock:
            _cooking(mem, report, clock)
            clock.now = start + timedelta(days=2, hours=3)
            _project(mem, report, clock)
            _user_actions(mem, report, clock)
        marker.write_text("filled by ekko_memory.demo\n", encoding="utf-8")
    finally:
        mem.close()
    return report
