"""Terminal tables: Chinese is two columns wide, ids are never cut."""

from __future__ import annotations

from ekko_memory.interfaces.cli_table import (
    display_width,
    render_fields,
    render_table,
    truncate,
)


def test_display_width_counts_cjk_double_and_marks_zero() -> None:
    assert display_width("abc") == 3
    assert display_width("香菜") == 4
    assert display_width("Ｈｉ") == 4  # full-width latin
    assert display_width("é") == 1  # e + combining acute


def test_truncate_never_splits_a_wide_character() -> None:
    assert truncate("用户不吃香菜", 7) == "用户不…"
    assert display_width(truncate("用户不吃香菜", 7)) <= 7
    assert truncate("short", 10) == "short"


def test_columns_line_up_with_mixed_text() -> None:
    rows = [
        ["mem_1", "用户不吃香菜", "active"],
        ["mem_2", "no cilantro", "deleted"],
        ["mem_3", "少辣 less spicy", "superseded"],
    ]
    text = render_table(("ID", "TITLE", "STATUS"), rows, max_width=200)
    lines = text.splitlines()
    starts = set()
    for line in lines[2:]:
        status = line.split()[-1]
        starts.add(display_width(line[: line.rindex(status)]))
    assert len(starts) == 1


def test_a_narrow_table_cuts_text_but_not_ids() -> None:
    rows = [["mem_01M8VWABJ5EZ4MAC14NPMPNC0E", "用户明确要求以后做饭推荐不要香菜" * 3]]
    text = render_table(("ID", "TITLE"), rows, max_width=60)
    assert "mem_01M8VWABJ5EZ4MAC14NPMPNC0E" in text
    assert all(display_width(line) <= 60 for line in text.splitlines())
    assert "…" in text


def test_fields_align_labels() -> None:
    text = render_fields([("id", "mem_1"), ("标题", "香菜")])
    first, second = text.splitlines()
    assert display_width(first[: first.index("mem_1")]) == display_width(
        second[: second.index("香菜")]
    )
