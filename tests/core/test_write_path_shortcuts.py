"""Quick forms of what every governed write asks of its text answer exactly as their plain
patterns do: the sensitive-data tests (``intent.sensitive_identifiers``,
``intent.mentions_health``), which test quick hints first and split the health words by
script; ``clean_text``, which tells clean text without the pattern's scan; and ``to_db``,
which keeps the text of the last UTC time it formatted."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from ekko_memory.models.base import _SURROGATES, clean_text
from ekko_memory.schema import intent
from ekko_memory.timeutil import to_db, to_utc

FRAGMENTS = [
    *intent._HEALTH_CJK.split("|"),
    "diagnosis",
    "Allergy",
    "MEDICATION",
    "pregnant",
    "sick",
    "Sick.",
    "homesick",
    "HIV",
    "hive",
    "ADHD",
    "blood pressure",
    "Blood Sugar",
    "therapy",
    "therapist",
    "heart attack",
    "broke my",
    "mental health",
    "Psychiatrist",
    "ſick",
    "ſurgery",
    "KANCER",
    "İnsulin",
    "ınsulin",
    "hoſpital",
    "chemo",
    "injury",
    "epilepsy",
    "13812345678",
    "+86 138 1234 5678",
    "010-12345678",
    "(0755) 1234567",
    "415-555-2671",
    "(415) 555-2671",
    "11010519491231002X",
    "123-45-6789",
    "6222021234567890123",
    "１３８１２３４５６７８",
    "١٢٣٤٥٦٧",
    "12",
    "123",
    "1 ",
    "7号",
    "3号楼",
    "2单元",
    "501室",
    "住在浦东新区张江镇",
    "家住海淀区",
    "地址是朝阳区",
    "搬到了某小区",
    "南京路100号",
    "12 Baker Street",
    "221b baker st",
    "5  Main Road",
    "a@b.co",
    "user@example.com",
    "@",
    "me at example dot com",
    "用户",
    "不吃",
    "香菜",
    "推荐菜谱",
    "食材",
    "的",
    "，",
    "。",
    " ",
    "\n",
    "tabs",
    "spaces",
    "commit",
    "项目",
    "数据库",
    "PostgreSQL",
    "x",
    "Z",
    "-",
    ".",
    "+",
]


def _old_identifiers(text: str) -> list[str]:
    return [name for name, pattern in intent._IDENTIFIERS if pattern.search(text)]


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = list(FRAGMENTS)
    for _ in range(count):
        parts = rng.choices(FRAGMENTS, k=rng.randint(1, 8))
        out.append(rng.choice(["", " ", "，"]).join(parts))
    return out


def test_the_quick_tests_answer_as_the_plain_patterns() -> None:
    for text in _texts(20_000, seed=5):
        assert intent.sensitive_identifiers(text) == _old_identifiers(text), text
        assert intent.mentions_health(text) == bool(intent._HEALTH.search(text)), text


def test_every_latin_health_word_starts_with_a_letter_the_hint_finds() -> None:
    # Every alternative (a group's own ones included, a superset) after an optional \b.
    for word in intent._HEALTH_LATIN.split("|"):
        first = word.removeprefix("\\b").removeprefix("(?:")[0]
        assert first in intent.HEALTH_LATIN_STARTS, word
    # Whatever a case-blind letter matches, the case-blind hint finds too (ſ for s,
    # K for k, İ and ı for i…).
    for letter in intent.HEALTH_LATIN_STARTS:
        pattern = re.compile(letter, re.IGNORECASE)
        for code in range(0x30000):
            c = chr(code)
            if pattern.match(c):
                assert intent._HEALTH_LATIN_START.match(c), (letter, hex(code))


def test_clean_text_answers_as_the_plain_pattern() -> None:
    rng = random.Random(11)
    pieces = [
        "a",
        "Z",
        "\x00",
        "\ud800",
        "\udfff",
        "\udc00x",
        "\ud83d\ude00",
        "😀",
        "用户",
        "é",
        "\ufffd",
        "\uffff",
        "\U0010ffff",
        " ",
        "\n",
        "\ud7ff",
        "\ue000",
        "x" * 300,
    ]
    texts = ["", *pieces]
    for _ in range(5_000):
        texts.append("".join(rng.choices(pieces, k=rng.randint(1, 6))))
    for text in texts:
        assert clean_text(text) == _SURROGATES.sub("\ufffd", text), ascii(text)


def test_to_db_answers_as_formatting_each_time() -> None:
    def plain(value: datetime) -> str:
        return to_utc(value).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"

    rng = random.Random(3)
    new_york = ZoneInfo("America/New_York")
    zones = [UTC, timezone(timedelta(hours=8)), timezone(timedelta(0)), new_york, None]
    times = [
        # The same local time twice at the end of summer time: two instants.
        datetime(2026, 11, 1, 1, 30, tzinfo=new_york),
        datetime(2026, 11, 1, 1, 30, tzinfo=new_york, fold=1),
    ]
    for _ in range(5_000):
        t = datetime(
            rng.randint(2, 9998),
            rng.randint(1, 12),
            rng.randint(1, 28),
            rng.randint(0, 23),
            rng.randint(0, 59),
            rng.randint(0, 59),
            rng.choice([0, rng.randint(0, 999_999)]),
            tzinfo=rng.choice(zones),
            fold=rng.randint(0, 1),
        )
        times.append(t)
        # The same instant again, in UTC and elsewhere, and the same wall time unzoned.
        times.append(to_utc(t))
        times.append(to_utc(t).astimezone(timezone(timedelta(hours=-3))))
        times.append(t.replace(tzinfo=None))
    for t in times:
        assert to_db(t) == plain(t), repr(t)
