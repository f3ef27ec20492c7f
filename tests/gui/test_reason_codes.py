"""The app words every reason code the core can give, in English and in Chinese; a code it
has no words for shows a generic label; and it reads no meaning out of the core's English
(no regular expression anywhere in the app)."""

from __future__ import annotations

import ast
from pathlib import Path

import ekko_memory
from ekko_memory import Conflict
from ekko_memory.models.reasons import ERROR_REASONS, reason_codes
from ekko_memory_gui.models import labels
from tests.gui.test_store_problems_language import english_left, language

__all__ = ["language"]  # the fixture: each test runs in English and in Chinese

APP = Path(__file__).resolve().parents[2] / "ekko_memory_gui"
PARAMS = {
    "id": "pnd_1",
    "head": "mem_2",
    "status": "approved",
    "path": "/p",
    "detail": "",
    "when": "2026-01-02 03:04",
    "said": "算了",
}


def test_every_reason_code_the_core_gives_has_words(language: str) -> None:
    table = labels.reason_table()
    assert sorted(reason_codes() - table.keys()) == []
    for code in reason_codes():
        said = labels.reason_words(code, PARAMS)
        assert said, code
        if language == "zh_CN":
            # Chinese through and through: no English word left but the ids and paths.
            names = ("Ekko", "Memory", "JSON")
            left = [w for w in english_left(said, "/p", "pnd_1", "mem_2") if w not in names]
            assert not left, (code, said)


def test_a_code_without_words_shows_a_generic_label(language: str) -> None:
    said = labels.reason_label("brand.new_reason", {}, "a reason from a newer core")
    assert "a reason from a newer core" in said and "brand.new_reason" in said
    if language == "zh_CN":
        assert "原因代码" in said
    # No code (a note someone typed): the text as written.
    assert labels.reason_label(None, {}, "用户更正") == "用户更正"


def test_an_error_is_worded_from_its_code_not_its_message(language: str) -> None:
    """The English is irrelevant to the app: a message the core rewords reads the same, and
    whether the refusal wrote nothing (or may work when tried again) is read from the
    error's flags, never from how its message ends."""
    error = (
        Conflict("any English at all")
        .unwritten()
        .because("pending.already_decided", id="pnd_1", status="approved")
    )
    text = labels.error_text(error)
    if language == "en":
        assert "pending item pnd_1 is already approved; nothing was written" in text
    else:
        assert "pnd_1" in text and "已批准" in text and "any English" not in text
    # The same words at the end of a message that did not set the flag say nothing.
    worded = Conflict("x; nothing was written, try again").because(
        "pending.already_decided", id="pnd_1", status="approved"
    )
    assert "nothing was written" not in labels.error_text(worded)
    again = Conflict("x").unwritten(retry=True).because("pending.decided_meanwhile", id="pnd_1")
    said = labels.error_text(again)
    if language == "en":
        assert said.endswith("; nothing was written, try again")
    else:
        assert "x" not in said and said.endswith("，请重试")


def test_every_error_code_is_raised_by_the_core() -> None:
    """``ERROR_REASONS`` lists what the core raises: each code is given at a raise site,
    and no raise site gives a code the list (and so the app) does not know."""
    core = Path(ekko_memory.__file__).parent
    given: set[str] = set()
    for path in core.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "because"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                given.add(str(node.args[0].value))
    assert given == set(ERROR_REASONS)


def test_the_app_holds_no_regular_expression() -> None:
    """Meaning comes from codes: no module of the app imports ``re``."""
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert "re" not in names and "regex" not in names, path
