"""Facts and notes said in passing: a note with another lead (备忘：…, note for later: …, if I
ever ask about X, that's …) kept in the user's words; a condition said without "I'm"; a
trailing "tho" that is no part of a value; and near-misses that store nothing (a question
about a place, a parking spot that is no car, a condition named as a kind of people)."""

from __future__ import annotations

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def test_notes_with_other_leads_are_kept_in_the_users_words(mem: MemoryService) -> None:
    say(mem, "备忘：护照放在书房第二个抽屉", "note for later: bike lock code is 5-1-9")
    say(mem, "If I ever ask about 'the green box', that's the one with old photos in the attic")
    titles = [n.title for n in stored(mem)]
    assert any("护照放在书房第二个抽屉" in t for t in titles), titles
    assert any("bike lock code is 5-1-9" in t for t in titles), titles
    assert any("green box" in t for t in titles), titles
    assert not [n for n in stored(mem) if n.key == "vehicle"]
    assert "5-1-9" in later(mem, "what's my bike lock code?")
    assert "书房" in later(mem, "我护照放哪了")


def test_a_parking_spot_noted_is_no_car(mem: MemoryService) -> None:
    say(mem, "备忘一下：车位号是C3-208")
    nodes = stored(mem)
    assert any("C3-208" in n.title for n in nodes)
    assert not [n for n in nodes if n.key == "vehicle"], [(n.key, n.title) for n in nodes]


def test_a_supposition_about_the_future_is_no_note(mem: MemoryService) -> None:
    say(mem, "if I ever move abroad, I'd want a bigger kitchen")
    assert stored(mem) == []


def test_a_question_about_how_thick_or_far_stores_nothing(mem: MemoryService) -> None:
    say(mem, "哈尔滨一月份要穿多厚的棉袄啊", "从市区到机场有多远啊")
    assert stored(mem) == []


def test_a_condition_said_without_im_is_the_users(mem: MemoryService) -> None:
    say(mem, "no ice cream for me tho, lactose intolerant since forever")
    [cond] = [n for n in stored(mem) if n.key == "health_condition"]
    assert "lactose intolerant" in str(cond.value_json).casefold()
    assert not any("tho" in n.title.split() for n in stored(mem))


def test_a_condition_named_as_people_is_no_fact(mem: MemoryService) -> None:
    say(mem, "celiac kids can still have rice, right", "diabetic friendly snacks please")
    assert not [n for n in stored(mem) if n.key == "health_condition"]


def test_a_trailing_tho_is_no_part_of_a_dislike(mem: MemoryService) -> None:
    say(mem, "I don't like olives tho")
    titles = [n.title for n in stored(mem)]
    assert titles and not any(t.casefold().endswith("tho") for t in titles), titles


def test_something_done_with_a_car_is_no_car_of_ones_own(mem: MemoryService) -> None:
    say(mem, "周末的活儿：洗车，再把阳台的花盆换了")
    say(mem, "今天又堵车了，迟到半小时", session="s2")
    say(mem, "我开一辆白色的卡罗拉", session="s3")
    cars = [str(n.value_json) for n in stored(mem) if n.key == "vehicle"]
    assert cars == ["一辆白色的卡罗拉"]
