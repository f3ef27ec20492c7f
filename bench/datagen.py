"""Realistic synthetic memories (Chinese and English) for the benchmarks."""

from __future__ import annotations

import random
from datetime import timedelta

from ekko_memory.ids import new_id
from ekko_memory.models import MemoryNode
from ekko_memory.timeutil import utcnow

FOODS = [
    "香菜",
    "番茄",
    "鸡蛋",
    "五花肉",
    "豆腐",
    "土豆",
    "青椒",
    "牛肉",
    "虾仁",
    "茄子",
    "白菜",
    "蘑菇",
    "葱",
    "姜",
    "蒜",
]
DISHES = [
    "红烧肉",
    "番茄炒蛋",
    "麻婆豆腐",
    "酸辣土豆丝",
    "宫保鸡丁",
    "清蒸鱼",
    "鱼香肉丝",
    "回锅肉",
    "蒜蓉西兰花",
]
TECH = [
    "FastAPI服务",
    "PostgreSQL",
    "Redis缓存",
    "Docker部署",
    "CI流水线",
    "单元测试",
    "接口文档",
    "数据库迁移",
    "鉴权模块",
]
EN = [
    "deploy",
    "latency",
    "budget",
    "refactor",
    "schema",
    "cache",
    "review",
    "release",
    "benchmark",
    "migration",
]
DOMAINS = [
    ("生活技能", ["生活技能", "做饭", "饮食偏好"], "preference", "avoid_ingredient"),
    ("生活技能", ["生活技能", "做饭", "菜谱"], "recipe", None),
    ("生活技能", ["生活技能", "理财"], "fact", None),
    ("项目", ["项目", "架构"], "decision", "tech_choice"),
    ("项目", ["项目", "任务"], "task", "task_status"),
    ("项目", ["项目", "约束"], "constraint", "coding_rule"),
    ("出行", ["出行", "偏好"], "preference", "seat_preference"),
]


def make_nodes(count: int, seed: int = 7) -> list[MemoryNode]:
    """``count`` active nodes spread over domains, scopes, ages and a few expiries."""
    rng = random.Random(seed)
    now = utcnow()
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
        content = f"{title}。记录于会话 {i % 97}，涉及{food}、{dish}和{tech}，关键词 {en} item{i}。"
        updated = now - timedelta(minutes=rng.randint(0, 60 * 24 * 365))
        scope = "user" if domain != "项目" else rng.choice(["workspace", "session"])
        out.append(
            MemoryNode.model_construct(
                id=new_id("mem"),
                parent_id=None,
                supersedes_id=None,
                session_id=f"s{i % 50}" if scope == "session" else None,
                workspace_id="w1" if scope != "user" else None,
                user_id="u1",
                scope=scope,
                domain=domain,
                category_path=path,
                type=ntype,
                key=key,
                value_json=food if key == "avoid_ingredient" else (tech if key else None),
                title=title,
                content=content,
                status="active",
                confidence=round(rng.uniform(0.5, 1.0), 2),
                importance=round(rng.uniform(0.1, 1.0), 2),
                tags=[en, "bench"],
                entities=[food, dish],
                source_message_ids=[],
                origin="inferred",
                created_at=updated,
                updated_at=updated,
                expires_at=(now + timedelta(days=1))
                if i % 23 == 0
                else (now - timedelta(days=1))
                if i % 29 == 0
                else None,
            )
        )
    return out


QUERIES = [
    "香菜",
    "菜",
    "少辣",
    "红烧肉",
    "FastAPI服务",
    "postgresql",
    "番茄炒蛋",
    "预算",
    "deploy",
    "测试",
]
