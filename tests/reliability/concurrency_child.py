"""Child processes for the concurrency test.

agent: governed proposals (creates and supersedes) through call_tool, as fast as it can.
app:   what the app does: pages, searches, contexts, history, and user edits; after every
       read it checks (in one snapshot) that no superseded node is shown as active.

Usage: python -m tests.reliability.concurrency_child ROLE WORKSPACE HOME SECONDS
Prints one JSON line: {"writes": n, "reads": n, "lockErrors": n, "staleActive": n, "errors": [...]}
"""

from __future__ import annotations

import json
import sys
import time

from ekko_memory import BrowseFilter, StoreUnavailable, open_memory


def agent(mem, seconds: float) -> dict:  # type: ignore[no-untyped-def]
    s = mem.session("agent", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，以后这些规则都要遵守。")
    out = {"writes": 0, "reads": 0, "lockErrors": 0, "staleActive": 0, "errors": [], "ids": []}
    end = time.monotonic() + seconds
    last = None
    n = 0
    while time.monotonic() < end:
        n += 1
        if last and n % 4 == 0:
            res = s.call_tool(
                "memory_propose_update",
                {
                    "operation": "update",
                    "targetId": last,
                    "reason": "agent update",
                    "node": {"content": f"第{n}版"},
                },
            )
        else:
            res = s.call_tool(
                "memory_propose_update",
                {
                    "operation": "create",
                    "reason": "agent",
                    "node": {
                        "scope": "workspace",
                        "domain": "项目",
                        "type": "constraint",
                        "key": "coding_rule",
                        "valueJson": f"agent规则{n}",
                        "title": f"agent 规则 {n}",
                        "confidence": 0.8,
                    },
                },
            )
        if res.get("accepted"):
            out["writes"] += 1
            out["ids"].append(res["nodeId"])
            last = res["nodeId"]
        else:
            message = json.dumps(res, ensure_ascii=False)
            if "locked" in message:
                out["lockErrors"] += 1
            elif "changed meanwhile" in message or "old version" in message:
                # The app edited it first: a conflict reported to the agent, not an error.
                out["conflicts"] = out.get("conflicts", 0) + 1
            else:
                out["errors"].append(message[:300])
        ctx = s.build_context("项目有哪些规则？")
        out["reads"] += 1
        if ctx.diagnostics.store_status != "ok":
            out["errors"].append("context degraded: " + "; ".join(ctx.diagnostics.warnings))
    return out


def app(mem, seconds: float) -> dict:  # type: ignore[no-untyped-def]
    out = {"writes": 0, "reads": 0, "lockErrors": 0, "staleActive": 0, "errors": [], "ids": []}
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        try:
            page = mem.browse.list_nodes(
                BrowseFilter(scopes=["workspace", "session", "user"]), limit=50
            )
            mem.browse.list_nodes(BrowseFilter(text="规则"), limit=20)
            mem.browse.category_counts(BrowseFilter())
            out["reads"] += 3
            with mem.workspace_store.read() as r:
                stale = r.conn.exec_driver_sql(
                    "SELECT count(*) FROM memory_nodes a JOIN memory_nodes b ON b.supersedes_id = a.id "
                    "WHERE a.status = 'active'"
                ).scalar()
            out["staleActive"] += int(stale or 0)
            if page.nodes and n % 3 == 0:
                target = page.nodes[n % len(page.nodes)]
                if target.status == "active":
                    res = mem.actions.edit(target.id, {"title": f"用户改过的 {n}"})
                    if res.accepted:
                        out["writes"] += 1
                        out["ids"].append(res.node_id)
                    elif "changed meanwhile" not in res.reason and "old version" not in res.reason:
                        out["errors"].append(res.reason[:300])
        except StoreUnavailable as e:
            if "locked" in str(e):
                out["lockErrors"] += 1
            else:
                out["errors"].append(str(e)[:300])
        except Exception as e:  # anything else is a failure the test reports
            text = f"{type(e).__name__}: {e}"
            if "changed meanwhile" in text or "old version" in text:
                continue
            out["errors"].append(text[:300])
    return out


def main() -> None:
    role, workspace, home, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    mem = open_memory(workspace, user_home=home)
    result = (agent if role == "agent" else app)(mem, seconds)
    mem.close()
    print(json.dumps(result, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
