"""What the user says about "this project" stays in its workspace (design doc: 项目技术约束
默认 workspace，不默认 user): the extractor's notes and the agent's user-scope proposals."""

from __future__ import annotations

import pytest

from ekko_memory import MemoryService
from tests.core.helpers import every_node, propose


@pytest.mark.parametrize(
    "says",
    [
        "记住，这个项目的代码缩进用 4 个空格。",
        "记住：本仓库的分支名都用小写。",
        "记住，代码库里的注释写中文。",
        "remember: in this repo we indent with tabs",
    ],
)
def test_a_project_note_stays_in_its_workspace(mem: MemoryService, says: str) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", says)
    report = s.after_reply()
    assert [o["status"] for o in report.outcomes] == ["created"], report
    [node] = every_node(mem)
    assert (node.scope, node.workspace_id, node.domain) == ("workspace", "w1", "项目")
    assert mem.user_store.list_active_nodes(limit=5) == []
    other = mem.session("t1", user_id="u1", workspace_id="w2")
    assert node.id not in other.build_context(says).used_memory_ids


def test_an_agents_project_note_in_user_scope_is_kept_in_the_workspace(
    mem: MemoryService,
) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    result = propose(
        s,
        "记住，这个项目的提交信息都用英文写。",
        scope="user",
        domain="个人",
        type="fact",
        title="这个项目的提交信息用英文",
    )
    assert result["accepted"], result
    node = mem.get_node(result["nodeId"])
    assert node is not None and (node.scope, node.workspace_id) == ("workspace", "w1")
    assert any("workspace" in note for note in result.get("notes", []))


def test_a_personal_note_stays_with_the_user(mem: MemoryService) -> None:
    s = mem.session("s1", user_id="u1", workspace_id="w1")
    s.append_message("user", "记住，我的猫叫咪咪。")
    s.after_reply()
    [node] = every_node(mem)
    assert (node.scope, node.category_path) == ("user", ["个人", "宠物"])
