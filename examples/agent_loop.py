"""A small agent loop on Ekko Memory: watch a conversation become memories.

    python examples/agent_loop.py                 # scripted demo conversation, echo model
    python examples/agent_loop.py --interactive   # type your own messages
    EKKO_LLM_BASE_URL=http://localhost:11434/v1 EKKO_LLM_MODEL=qwen2.5 python examples/agent_loop.py

With an LLM endpoint (any OpenAI-compatible chat-completions API: OpenAI, Ollama, vLLM)
the model gets the memory context as its system prompt and the four memory tools; the
same endpoint then also extracts memories after each reply. Without one, an echo model
answers and the rule-based extractor does the remembering.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from ekko_memory import TOOL_SCHEMAS, MemoryService, open_memory
from ekko_memory.service.runtime import AgentRuntime, Turn

SCRIPT = [
    "以后做饭别给我推荐香菜，我喜欢少油少辣。",
    "香菜现在可以接受一点，但不要太多。",
    "最近胃不舒服，先别推荐辣的。",
    "今晚吃什么？",
]

SYSTEM = "You are a helpful assistant. Use the memory below; never claim to remember something unless a memory tool accepted it.\n\n"


def echo_model(user: str, turn: Turn) -> str:
    """Stands in for a model: shows what memory it was given."""
    used = len(turn.context.rendered_memory_ids)
    return f"（echo）收到：{user}  ·  这一轮用了 {used} 条记忆。"


def llm_model(user: str, turn: Turn, rt: AgentRuntime) -> str:
    """One chat-completions round trip, handling memory tool calls."""
    base, model = os.environ["EKKO_LLM_BASE_URL"].rstrip("/"), os.environ["EKKO_LLM_MODEL"]
    headers = {"Content-Type": "application/json"}
    if os.environ.get("EKKO_LLM_API_KEY"):
        headers["Authorization"] = f"Bearer {os.environ['EKKO_LLM_API_KEY']}"
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM + turn.prompt},
        {"role": "user", "content": user},
    ]
    for _ in range(4):
        body = json.dumps({"model": model, "messages": messages, "tools": TOOL_SCHEMAS}).encode()
        req = urllib.request.Request(f"{base}/chat/completions", data=body, headers=headers)
        with urllib.request.urlopen(req, timeout=120) as resp:
            choice = json.loads(resp.read())["choices"][0]["message"]
        calls = choice.get("tool_calls") or []
        if not calls:
            return str(choice.get("content") or "")
        messages.append(choice)
        for call in calls:
            result = rt.session.call_tool(
                call["function"]["name"], call["function"].get("arguments") or "{}"
            )
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call["id"],
                    "content": json.dumps(result, ensure_ascii=False),
                }
            )
    return "(the model kept calling tools)"


def show_memories(mem: MemoryService) -> None:
    """Print the active memories (workspace and user stores) and what waits for approval."""
    for name, store in mem.stores():
        for node in store.list_active_nodes(limit=50):
            value = (
                json.dumps(node.value_json, ensure_ascii=False)
                if node.value_json is not None
                else ""
            )
            until = f"  (until {node.expires_at:%m-%d %H:%M})" if node.expires_at else ""
            print(f"    [{name}/{node.scope}] {node.title}  {node.key or ''} {value}{until}")
    for item in mem.pending():
        print(f"    [waits for you] {(item.node or {}).get('title', item.kind)} — {item.reason}")


def main(argv: list[str] | None = None) -> int:
    """Run the loop; returns an exit code."""
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--workspace",
        type=Path,
        default=None,
        help="workspace folder (default: a new temporary one)",
    )
    ap.add_argument(
        "--user-home",
        type=Path,
        default=None,
        help="user store folder (default: inside the workspace)",
    )
    ap.add_argument("--interactive", action="store_true", help="read messages from the terminal")
    args = ap.parse_args(argv)
    workspace = args.workspace or Path(tempfile.mkdtemp(prefix="ekko-example-"))
    mem = open_memory(workspace, user_home=args.user_home or workspace / ".ekko-user")
    use_llm = bool(os.environ.get("EKKO_LLM_BASE_URL") and os.environ.get("EKKO_LLM_MODEL"))
    print(
        f"workspace: {workspace}  ·  model: {'LLM ' + os.environ.get('EKKO_LLM_MODEL', '') if use_llm else 'echo'}"
    )
    rt = AgentRuntime(mem, "example", user_id="me", workspace_id=workspace.name, background=False)
    lines = (line.strip() for line in sys.stdin) if args.interactive else iter(SCRIPT)
    for user in lines:
        if not user:
            continue
        print(f"\n用户> {user}")
        turn = rt.before_model(user)
        if turn.prompt:
            print("  memory given to the model:\n    " + turn.prompt.replace("\n", "\n    "))
        reply = llm_model(user, turn, rt) if use_llm else echo_model(user, turn)
        print(f"助手> {reply}")
        rt.after_model(reply, turn)
        print("  memories now:")
        show_memories(mem)
    mem.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
