"""Child process for the crash test: governed writes until killed, reporting each commit.

Usage: python -m tests.reliability.crash_child WORKSPACE HOME START COUNT
Prints "ok <n> <nodeId> [<supersededId>]" after each accepted write (after its commit).
"""

from __future__ import annotations

import sys

from ekko_memory import open_memory


def main() -> None:
    workspace, home, start, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    mem = open_memory(workspace, user_home=home)
    s = mem.session("crash", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，以后这些都按我说的来。")
    last: str | None = None
    for n in range(start, start + count):
        if n % 3 == 2 and last is not None:
            # A supersede: two rows and two audit events in one transaction.
            res = s.call_tool(
                "memory_propose_update",
                {
                    "operation": "update",
                    "targetId": last,
                    "reason": "crash test update",
                    "node": {"title": f"更新后的记忆 {n}", "content": f"第{n}次写入，更新。"},
                },
            )
        else:
            res = s.call_tool(
                "memory_propose_update",
                {
                    "operation": "create",
                    "reason": "crash test",
                    "node": {
                        "scope": "workspace",
                        "domain": "项目",
                        "type": "constraint",
                        "key": "coding_rule",
                        "valueJson": f"规则{n}",
                        "title": f"规则 {n}",
                        "content": f"第{n}次写入。",
                        "confidence": 0.8,
                    },
                },
            )
        if not res.get("accepted"):
            print(f"refused {n} {res}", flush=True)
            continue
        last = res["nodeId"]
        print(f"ok {n} {res['nodeId']} {res.get('supersededId', '')}".rstrip(), flush=True)
    mem.close()


if __name__ == "__main__":
    main()
