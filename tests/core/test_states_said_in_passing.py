"""What holds only for a while, said in passing or beside something else: a visit this week,
a headache tonight that asks for short replies, a state that has lasted "lately". It ends
when its words say; a start ("from today", "as of today") is no end; a sentence ends at an
emoji before a new one, not at the dot of "St." or "Dr."."""

from __future__ import annotations

from datetime import timedelta

from ekko_memory import MemoryService
from ekko_memory.service.extraction.statements import sentences
from tests.core.conftest import Clock
from tests.core.test_statement_kinds import later, say, stored


def test_someone_elses_visit_this_week_ends_with_the_week(mem: MemoryService, clock: Clock) -> None:
    say(mem, "My sister is staying with us this week, so dinners are for four.")
    [visit] = [n for n in stored(mem) if "sister" in n.title.casefold()]
    assert visit.expires_at is not None and visit.expires_at - mem.now() <= timedelta(days=7)
    assert "sister" in later(mem, "Plan dinner for tonight").casefold()
    clock.advance(days=9)
    assert "sister" not in later(mem, "Plan dinner for tonight").casefold()


def test_a_request_tied_to_tonight_is_not_a_lasting_preference(
    mem: MemoryService, clock: Clock
) -> None:
    say(mem, "今晚头疼得厉害，回答简短点。")
    [style] = [n for n in stored(mem) if "简短" in n.title]
    assert style.expires_at is not None and style.expires_at - mem.now() < timedelta(days=1)
    clock.advance(days=2)
    assert "简短" not in later(mem, "解释一下什么是通货膨胀")


def test_a_start_is_not_an_end(mem: MemoryService, clock: Clock) -> None:
    say(mem, "As of today our team deploys only on Tuesdays.")
    say(mem, "从今天开始我戒糖了。", session="s2")
    assert all(n.expires_at is None for n in stored(mem)), [
        (n.title, n.expires_at) for n in stored(mem)
    ]
    clock.advance(days=3)
    context = later(mem, "When can we ship the hotfix, and what dessert should I make?")
    assert "Tuesday" in context


def test_a_state_said_to_have_lasted_a_while_outlasts_a_few_days(
    mem: MemoryService, clock: Clock
) -> None:
    say(mem, "Lately I've been sleeping badly.")
    [state] = [n for n in stored(mem) if "sleeping" in n.title]
    clock.advance(days=5)
    assert "sleeping" in later(mem, "Any tips for my evening routine?")
    clock.advance(days=15)
    assert "sleeping" not in later(mem, "Any tips for my evening routine?")
    assert state.expires_at is not None


def test_sentences_end_at_an_emoji_before_a_new_one_not_at_an_abbreviation() -> None:
    assert sentences("I twisted my knee 🤕 Any stretches that help?") == [
        "I twisted my knee 🤕",
        "Any stretches that help?",
    ]
    assert sentences("I'm a nurse at St. Mary's. Shifts are long.") == [
        "I'm a nurse at St. Mary's.",
        "Shifts are long.",
    ]
    assert sentences("I love it 😂 and so does she.") == ["I love it 😂 and so does she."]


def test_a_state_beside_a_laugh_is_kept_without_it(mem: MemoryService, clock: Clock) -> None:
    say(mem, "这周我在戒咖啡，每天只喝白水，太难熬了哈哈")
    [state] = [n for n in stored(mem) if n.key == "temporary_state"]
    assert "戒咖啡" in state.title and "哈哈" not in state.title
    assert state.expires_at is not None and state.expires_at - mem.now() <= timedelta(days=7)
    assert "戒咖啡" in later(mem, "下午来点咖啡提提神？")
    clock.advance(days=10)
    assert "戒咖啡" not in later(mem, "下午来点咖啡提提神？")


def test_a_ball_game_with_a_doctors_advice_is_no_medicine(mem: MemoryService) -> None:
    say(mem, "上周打球把手腕扭了，医生说两周别用力")
    say(mem, "我在吃布洛芬，医生说疼就吃一片", session="s2")
    medicines = [str(n.value_json) for n in stored(mem) if n.key == "medication"]
    assert medicines == ["布洛芬"]
