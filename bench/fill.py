"""Fill a workspace + user store with synthetic memories, messages and a summary (bench only)."""

from __future__ import annotations

from pathlib import Path

from datagen import make_nodes

from ekko_memory import MemoryService, open_memory
from ekko_memory.ids import new_id
from ekko_memory.models import MemoryMessage, MemorySummary
from ekko_memory.service.config import EmbedderConfig, MemoryConfig
from ekko_memory.timeutil import utcnow

# Semantic recall off: the keyword path, and no indexer embedding the bulk load meanwhile.
KEYWORD_ONLY = MemoryConfig(embedder=EmbedderConfig(provider="none"))


def filled_service(
    folder: Path, count: int, *, seed: int = 7, config: MemoryConfig | None = KEYWORD_ONLY
) -> MemoryService:
    """A service whose stores hold ``count`` nodes in all (user scope in the user store)."""
    mem = open_memory(folder / "ws", user_home=folder / "home", config=config)
    nodes = make_nodes(count, seed=seed)
    user = [n for n in nodes if n.scope == "user"]
    other = [n for n in nodes if n.scope != "user"]
    for store, batch in ((mem.user_store, user), (mem.workspace_store, other)):
        for i in range(0, len(batch), 2000):
            with store.write() as w:
                w.insert_nodes(batch[i : i + 2000])
        # As the importer does after a bulk load.
        store.optimize_search_index()
        store.analyze()
    msgs = []
    for i in range(40):
        msgs.append(
            MemoryMessage(
                id=new_id("msg"),
                session_id="s1",
                role="user" if i % 2 == 0 else "assistant",
                content=f"第{i}条消息：今天讨论做饭和项目的事情。",
                created_at=utcnow(),
            )
        )
    with mem.workspace_store.write() as w:
        for m in msgs:
            w.insert_message(m)
        w.insert_summary(
            MemorySummary(
                id=new_id("sum"),
                session_id="s1",
                from_message_id=msgs[0].id,
                to_message_id=msgs[-1].id,
                summary="用户在准备晚饭，也在推进项目的数据库迁移。",
                current_goal="推荐晚餐",
                created_at=utcnow(),
            )
        )
    # Fold the bulk load's write-ahead log into the file, so its checkpoint does not land
    # inside whatever is measured next.
    for store in (mem.user_store, mem.workspace_store):
        with store.raw() as raw:
            store.dialect.checkpoint(raw)
    return mem
