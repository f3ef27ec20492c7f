"""quote_line: remembered text on one line, with nothing hidden and no markup to obey."""

from __future__ import annotations

import re

import pytest

from ekko_memory.models.quoted_text import _HIDDEN_CLASS, QuotedLine, quote_line, quote_lines


@pytest.mark.parametrize(
    "text",
    [
        "用户不吃香菜",
        "Prefers less spicy food (少辣), 2 servings — not 3.",
        "数据库用 PostgreSQL 16；部署在周五 18:00",
        "a < b and c > d, x<3, 价格 > 100",
        "emoji 🍜🌶 and ideographic　space",
        "[link](https://example.com) [note] [1]",
    ],
)
def test_ordinary_text_is_left_as_it_is(text: str) -> None:
    assert quote_line(text) == QuotedLine(text)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("<|im_start|>system", "‹|im_start|›system"),
        ("<|eot_id|><|start_header_id|>", "‹|eot_id|›‹|start_header_id|›"),
        ("<｜User｜>hi", "‹｜User｜›hi"),
        ("[INST] x [/INST]", "［INST］ x ［/INST］"),
        ("<<SYS>> x <</SYS>>", "<‹SYS›> x <‹/SYS›>"),
        ("</s><s>", "‹/s›‹s›"),
        ("[gMASK]sop", "［gMASK］sop"),
        ("</memory-context> done", "‹/memory-context› done"),
        ('<tool_call name="x">', '‹tool_call name="x"›'),
        # Code keeps its meaning to a reader, though no tag can be spelled.
        ("Vec<u8>", "Vec‹u8›"),
    ],
)
def test_template_tokens_and_tags_are_spelled_with_look_alikes(text: str, shown: str) -> None:
    assert quote_line(text) == QuotedLine(shown, markup=True)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a\u202eb\u202cc", "abc"),
        ("zero\u200bwidth\u200d\ufeff", "zerowidth"),
        ("\u2066iso\u2069 \u200fmark\u200e", "iso mark"),
        ("tag" + "".join(chr(0xE0000 + ord(c)) for c in "hidden order"), "tag"),
        ("soft\u00adhyphen", "softhyphen"),
        ("vs\ufe0f\U000e0100", "vs"),
    ],
)
def test_invisible_characters_are_left_out_and_flagged(text: str, shown: str) -> None:
    assert quote_line(text) == QuotedLine(shown, hidden=True)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("one\ntwo", "one two"),
        ("one \r\n\n two", "one two"),
        ("a\u2028b\u2029c\x85d", "a b c d"),
        ("tab\there\x0bvt\x0cff", "tab here vt ff"),
        ("nul\x00bell\x07esc\x1b[0m", "nul bell esc [0m"),
        ("\n\nleading and trailing\n", "leading and trailing"),
    ],
)
def test_line_breaks_and_controls_become_one_space(text: str, shown: str) -> None:
    assert quote_line(text) == QuotedLine(shown)


def test_multi_line_text_is_quoted_line_by_line() -> None:
    lines, hidden, markup = quote_lines("Goal: x\n\n用户：a\u200bb\r\n助手：<|im_end|>\n")
    assert lines == ["Goal: x", "用户：ab", "助手：‹|im_end|›"]
    assert hidden and markup
    assert quote_lines("plain\ntext") == (["plain", "text"], False, False)


def test_each_character_is_shown_or_left_out_as_it_should() -> None:
    """Every character, between two letters: a hidden one is left out (flagged), a
    control or line break becomes a space, and every other is shown as it is — the
    fast path (``str.isprintable``) lets none of the first two through."""
    removed = re.compile(f"[{_HIDDEN_CLASS}]")
    spaced = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
    # The planes that hold characters (the others are unassigned or private use).
    for c in (*range(0x30000), *range(0xE0000, 0xE1000)):
        ch = chr(c)
        if 0xD800 <= c <= 0xDFFF or ch in "<[":
            continue
        q = quote_line(f"a{ch}b")
        if removed.match(ch):
            assert q == QuotedLine("ab", hidden=True), hex(c)
        elif spaced.match(ch):
            assert q == QuotedLine("a b"), hex(c)
        else:
            assert q == QuotedLine(f"a{ch}b"), hex(c)
