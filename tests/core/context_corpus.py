"""A deterministic store for comparing whole contexts across implementations: fixed ids,
fixed times, a fixed clock, and turns that reach every part of ``build_context``'s reads
(recent messages, the summary, session nodes, the workspace's sections, hinted topics,
the profile rules, the topicless preferences, keyword search with its count fallback and
its window of newest matches, waiting proposals of both stores).

``tests/core/data/context_answers.json`` holds the contexts the implementation before the
PostgreSQL batched read gave (per backend: the full-text ranks differ between FTS5 and
tsvector); ``test_context_answers.py`` asserts today's are the same. Regenerate only on
purpose:

    PYTHONPATH=core:. .venv/bin/python -m tests.core.context_corpus [--pg-url URL]
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ekko_memory import MemoryService
from ekko_memory.models import MemoryMessage, MemoryNode, MemorySummary, PendingItem

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
ANSWERS = Path(__file__).parent / "data" / "context_answers.json"

FOODS = ["香菜", "番茄", "鸡蛋", "五花肉", "豆腐", "土豆", "青椒", "牛肉", "葱", "姜"]
DISHES = ["红烧肉", "番茄炒蛋", "麻婆豆腐", "酸辣土豆丝", "宫保鸡丁", "清蒸鱼"]
TECH = ["FastAPI服务", "PostgreSQL", "Redis缓存", "Docker部署", "数据库迁移", "鉴权模块"]
EN = ["deploy", "latency", "budget", "refactor", "schema", "cache", "release"]
DOMAINS = [
    ("生活技能", ["生活技能", "做饭", "饮食偏好"], "preference", "avoid_ingredient"),
    ("生活技能", ["生活技能", "做饭", "菜谱"], "recipe", None),
    ("生活技能", ["生活技能", "理财"], "fact", None),
    ("项目", ["项目", "架构"], "decision", "tech_choice"),
    ("项目", ["项目", "任务"], "task", "task_status"),
    ("项目", ["项目", "约束"], "constraint", "coding_rule"),
    ("出行", ["出行", "偏好"], "preference", "seat_preference"),
    ("人物", ["人物"], "fact", None),
    ("个人", ["个人", "沟通"], "preference", "reply_language"),
]

# Turns: topics (cooking, project), English, a word in every memory ("corpus": the window
# of newest matches), one only other users' memories hold (the count fallback), empty.
MESSAGES = [
    "今晚吃什么？",
    "帮我做一道红烧肉，不要香菜",
    "FastAPI服务怎么部署？",
    "what is the deploy budget",
    "帮我看看数据库迁移的任务",
    "corpus",
    "Kafka 消息队列怎么配置",
    "少辣的菜有哪些",
    "继续",
    "",
]


def nodes(count: int = 1500) -> list[MemoryNode]:
    """``count`` memories over domains, scopes, users, statuses, ages and expiries."""
    rng = random.Random(25)
    out = []
    for i in range(count):
        domain, path, ntype, key = DOMAINS[i % len(DOMAINS)]
        food, dish, tech, en = (
            rng.choice(FOODS),
            rng.choice(DISHES),
            rng.choice(TECH),
            rng.choice(EN),
        )
        title = {
            "preference": f"用户不吃{food}" if i % 2 else f"Prefers {en} {i}",
            "recipe": f"{dish}做法 {i}",
            "fact": f"每月{food}预算 {i}",
            "decision": f"后端使用{tech} #{i}",
            "task": f"完成{tech}的{en} 任务{i}",
            "constraint": f"{tech}必须有测试 {i}",
        }[ntype]
        # Kafka mostly in other users' and other workspaces' memories, in their titles: the
        # few of this user's (below) rank past the capped search.
        if i % 3 == 0 and i % 2 == 1:
            title += " Kafka 消息队列"
        content = f"{title}。记录于会话 {i % 7}，涉及{food}、{dish}和{tech}，关键词 {en} corpus。"
        updated = NOW - timedelta(minutes=rng.randint(0, 60 * 24 * 365))
        scope = "user" if domain != "项目" else rng.choice(["workspace", "session"])
        user = "u2" if i % 2 == 1 and i % 3 == 0 else "u1"
        out.append(
            MemoryNode.model_validate(
                {
                    "id": f"mem_corpus_{i:05d}",
                    "session_id": f"s{i % 4}" if scope == "session" else None,
                    "workspace_id": ("w2" if user == "u2" else "w1") if scope != "user" else None,
                    "user_id": user,
                    "scope": scope,
                    "domain": domain,
                    "category_path": path,
                    "type": ntype,
                    "key": key,
                    "value_json": food if key == "avoid_ingredient" else (tech if key else None),
                    "title": title,
                    "content": content,
                    "status": "superseded" if i % 31 == 0 else "active",
                    "confidence": round(rng.uniform(0.3, 1.0), 2),
                    "importance": round(rng.uniform(0.1, 1.0), 2),
                    "tags": [en, "corpus"],
                    "entities": [food, dish],
                    "created_at": updated,
                    "updated_at": updated,
                    "expires_at": (NOW + timedelta(days=1))
                    if i % 23 == 0
                    else (NOW - timedelta(days=1))
                    if i % 29 == 0
                    else None,
                }
            )
        )
    filler = "这是一段很长的记录，" * 30
    for j in range(12):
        scope = "user" if j % 2 else "workspace"
        at = NOW - timedelta(days=j + 1)
        out.append(
            MemoryNode.model_validate(
                {
                    "id": f"mem_corpus_kafka_{j:02d}",
                    "workspace_id": "w1" if scope == "workspace" else None,
                    "user_id": "u1",
                    "scope": scope,
                    "domain": "项目",
                    "category_path": ["项目", "架构"],
                    "type": "fact",
                    "title": f"服务之间的通信 {j}",
                    "content": f"{filler}服务之间用 Kafka 消息队列通信（{j}）。{filler}",
                    "status": "active",
                    "confidence": 0.9,
                    "importance": 0.5,
                    "created_at": at,
                    "updated_at": at,
                }
            )
        )
    return out


def pending(i: int, scope: str, title: str, key: str, value: str) -> PendingItem:
    node = MemoryNode.model_validate(
        {
            "id": f"mem_waiting_{i}",
            "scope": scope,
            "domain": "生活技能",
            "category_path": ["生活技能", "做饭", "饮食偏好"],
            "type": "preference",
            "key": key,
            "value_json": value,
            "title": title,
            "content": title,
            "status": "active",
            "confidence": 0.7,
            "importance": 0.6,
            "user_id": "u1",
            "workspace_id": "w1" if scope != "user" else None,
            "created_at": NOW - timedelta(hours=i),
            "updated_at": NOW - timedelta(hours=i),
        }
    )
    return PendingItem(
        id=f"pend_corpus_{i}",
        kind="write",
        operation="create",
        node=node.model_dump(mode="json"),
        rule="user_scope_without_intent",
        reason="waiting for the user",
        requester="extractor",
        session_id="s1",
        workspace_id="w1",
        user_id="u1",
        created_at=NOW - timedelta(hours=i),
    )


def seed(mem: MemoryService, count: int = 1500) -> None:
    """Write the corpus, a session log with its summary and waiting proposals."""
    mem.clock = lambda: NOW
    batch = nodes(count)
    for store, part in (
        (mem.user_store, [n for n in batch if n.scope == "user"]),
        (mem.workspace_store, [n for n in batch if n.scope != "user"]),
    ):
        with store.write() as w:
            w.insert_nodes(part)
    msgs = [
        MemoryMessage(
            id=f"msg_corpus_{i:03d}",
            session_id="s1",
            role="user" if i % 2 == 0 else "assistant",
            content=f"第{i}条消息：今天讨论做饭和项目的事情。",
            created_at=NOW - timedelta(minutes=60 - i),
        )
        for i in range(30)
    ]
    with mem.workspace_store.write() as w:
        for m in msgs:
            w.insert_message(m)
        w.insert_summary(
            MemorySummary(
                id="sum_corpus_1",
                session_id="s1",
                from_message_id=msgs[0].id,
                to_message_id=msgs[-1].id,
                summary="用户在准备晚饭，也在推进项目的数据库迁移。",
                current_goal="推荐晚餐",
                created_at=NOW - timedelta(minutes=5),
            )
        )
        w.insert_pending(pending(1, "workspace", "用户喜欢红烧肉", "preferred_ingredient", "猪肉"))
    with mem.user_store.write() as w:
        w.insert_pending(pending(2, "user", "用户不吃香菜了", "avoid_ingredient", "香菜"))
        w.insert_pending(pending(3, "user", "用户喜欢番茄", "preferred_ingredient", "番茄"))
    for _, store in mem.stores():
        if store.health.writable:
            store.analyze()


def contexts(mem: MemoryService) -> dict[str, Any]:
    """Every turn's context as JSON, asked twice (the second with the caches warm)."""
    out: dict[str, Any] = {}
    for text in MESSAGES:
        first = mem.build_context("s1", text, user_id="u1", workspace_id="w1")
        again = mem.build_context("s1", text, user_id="u1", workspace_id="w1")
        assert first == again, text
        out[text] = first.model_dump(mode="json")
    return out


def _generate(argv: list[str]) -> None:
    import secrets
    import tempfile

    from ekko_memory import open_memory
    from ekko_memory.service.config import EmbedderConfig, MemoryConfig

    config = MemoryConfig(embedder=EmbedderConfig(provider="none"))
    answers: dict[str, Any] = json.loads(ANSWERS.read_text()) if ANSWERS.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        mem = open_memory(Path(tmp) / "ws", user_home=Path(tmp) / "home", config=config)
        seed(mem)
        answers["sqlite"] = contexts(mem)
        mem.close()
    cluster = None
    url = argv[argv.index("--pg-url") + 1] if "--pg-url" in argv else None
    if url is None:
        from tests.pg_cluster import start_cluster

        cluster = start_cluster()
        url = cluster.url
    try:
        namespace = f"corpus_{secrets.token_hex(4)}"
        mem = open_memory(url=url, namespace=namespace, config=config)
        seed(mem)
        answers["postgres"] = contexts(mem)
        mem.close()
    finally:
        if cluster is not None:
            cluster.stop()
    ANSWERS.parent.mkdir(exist_ok=True)
    ANSWERS.write_text(json.dumps(answers, ensure_ascii=False, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    _generate(sys.argv[1:])
