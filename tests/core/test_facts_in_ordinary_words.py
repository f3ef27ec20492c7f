"""Personal facts said in ordinary words, often beside something else: a job said as the work
one does (我做数据分析, I work in logistics, I teach year 9 science), pay said plainly (目前
月薪一万八, I make around 70k), working from home or some days in the office, a child's class
said without "my", a colleague's job under their own name, a car or a pet named in passing.
A clause that goes on to suppose or ask keeps its first part; the supposition, the question
and someone else's fact never become the user's."""

from __future__ import annotations

from typing import Any

import pytest

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def _keyed(mem: MemoryService, key: str) -> list[Any]:
    return [n for n in stored(mem) if n.key == key]


@pytest.mark.parametrize(
    ("said", "value", "question", "word"),
    [
        ("我做数据分析的，平时天天跟表格打交道", "数据分析", "帮我改改简历", "数据分析"),
        ("我目前在搞运维，要是转开发会不会太晚？", "运维", "推荐几本书", "运维"),
        ("我在一所中学教物理", "教物理", "周末去哪放松", "物理"),
        (
            "I work in logistics at a freight company",
            "work in logistics",
            "Tips for my CV?",
            "logistics",
        ),
        (
            "I do UX design, but what if I switched to product?",
            "do UX design",
            "Any podcasts?",
            "UX design",
        ),
        ("I teach year 9 science", "teach year 9 science", "Any weekend ideas?", "science"),
        (
            "I'm in insurance, is an MBA worth it?",
            "work in insurance",
            "Tips for my CV?",
            "insurance",
        ),
    ],
)
def test_a_job_said_as_the_work_one_does_is_the_occupation(
    mem: MemoryService, said: str, value: str, question: str, word: str
) -> None:
    say(mem, said)
    [job] = _keyed(mem, "occupation")
    assert (job.domain, job.scope, job.type) == ("个人", "user", "fact")
    assert str(job.value_json).casefold() == value.casefold()
    # The supposition after the fact stores nothing of its own.
    assert not [n for n in stored(mem) if "开发" in n.title or "product" in n.title]
    assert word.casefold() in later(mem, question).casefold()


def test_things_one_does_that_are_no_job_store_no_occupation(mem: MemoryService) -> None:
    say(
        mem,
        "我做了个测试，结果挺好",
        "我最近在做一个设计",
        "I do the dishes after dinner",
        "I teach my nephew chess on Sundays",
        "I work in London",
        "I'm in it for the long haul",
    )
    assert not _keyed(mem, "occupation"), [(n.key, n.title) for n in stored(mem)]


def test_a_new_job_said_in_other_words_replaces_the_old(mem: MemoryService) -> None:
    say(mem, "我是做销售的")
    say(mem, "我现在做产品了", session="s2")
    jobs = [n for n in _keyed(mem, "occupation")]
    assert [n.value_json for n in jobs if n.status in ("active", "pending")][-1:] == ["产品"]
    assert "产品" in later(mem, "帮我写个自我介绍")


@pytest.mark.parametrize(
    ("said", "amount"),
    [
        ("我目前月薪一万八", "一万八"),
        ("一个月到手九千左右吧", "九千左右"),
        ("我每个月能挣一万多", "一万多"),
        ("I make around 70k", "70k"),
        ("I make about $4,000 a month after tax", "$4,000"),
    ],
)
def test_pay_said_plainly_is_one_income_waiting_for_the_user(
    mem: MemoryService, said: str, amount: str
) -> None:
    say(mem, said)
    [income] = _keyed(mem, "income")
    assert amount in str(income.value_json)
    assert income.domain == "个人"
    # Sensitive: it waits for the user rather than being active.
    assert not [
        n for _, st in mem.stores() for n in st.list_active_nodes(limit=100) if n.key == "income"
    ]


def test_spending_supposing_or_someone_elses_pay_is_no_income(mem: MemoryService) -> None:
    say(
        mem,
        "我一个月花八千",
        "要是我月薪两万，够不够在深圳买房？",
        "What if I made 120k?",
        "I make pasta on Sundays",
        "我表哥月薪三万",
    )
    mine = [n for n in _keyed(mem, "income") if n.domain == "个人"]
    assert not mine, [(n.key, n.title) for n in mine]


@pytest.mark.parametrize(
    ("said", "mode"),
    [
        ("我现在居家办公", "在家办公"),
        ("我们公司每周要去三天", "每周去公司三天"),
        ("我每周有两天在家办公", "每周在家办公两天"),
        ("I work remotely these days", "remote"),
        ("I'm hybrid now", "hybrid"),
        ("I go into the office three days a week", "hybrid: in the office three days a week"),
    ],
)
def test_where_one_works_from_is_one_work_mode(mem: MemoryService, said: str, mode: str) -> None:
    say(mem, said)
    [node] = _keyed(mem, "work_mode")
    assert node.value_json == mode
    assert node.category_path[:2] == ["个人", "工作"]


def test_a_day_at_home_or_a_supposition_is_no_work_mode(mem: MemoryService) -> None:
    say(
        mem,
        "我今天在家办公",
        "I'm working from home tomorrow",
        "如果能远程办公就好了",
        "What if I went fully remote?",
        "我一周去两天健身房",
        "我老公在家办公",
    )
    assert not [n for n in _keyed(mem, "work_mode") if n.domain == "个人"]


def test_a_new_work_mode_replaces_the_old(mem: MemoryService) -> None:
    say(mem, "I work remotely")
    say(
        mem,
        "Our company now wants us in the office twice a week",
        "I go in twice a week",
        session="s2",
    )
    modes = [n.value_json for n in _keyed(mem, "work_mode") if n.status in ("active", "pending")]
    assert modes[-1:] == ["hybrid: in the office two days a week"], modes


@pytest.mark.parametrize(
    ("said", "person", "word"),
    [
        ("闺女念大一了", "闺女", "大一"),
        ("儿子今年上初中二年级", "儿子", "初中二年级"),
        ("Leo's turning 5 in June", "Leo", "turning 5"),
        ("Dana on our team handles the invoices", "Dana", "invoices"),
    ],
)
def test_someone_named_without_my_keeps_their_own_fact(
    mem: MemoryService, said: str, person: str, word: str
) -> None:
    say(mem, said)
    theirs = [
        n
        for n in stored(mem)
        if isinstance(n.value_json, dict)
        and str(n.value_json.get("person")).casefold() == person.casefold()
    ]
    assert theirs and all(n.domain == "人物" for n in theirs), [
        (n.domain, n.key, n.value_json) for n in stored(mem)
    ]
    said = str([n.value_json for n in theirs] + [n.title for n in theirs]).casefold()
    assert word.casefold() in said
    assert not [n for n in stored(mem) if n.domain != "人物"], [
        (n.domain, n.key, n.title) for n in stored(mem)
    ]


@pytest.mark.parametrize(
    ("said", "car"),
    [
        ("my 2009 Forester needs new brakes", "2009 Forester"),
        ("btw my old Corolla won't start again", "Corolla"),
        ("我那辆老本田又该换机油了", "本田"),
        ("我家那辆旧朗逸冬天老是打不着火", "朗逸"),
    ],
)
def test_a_car_named_in_passing_is_the_users(mem: MemoryService, said: str, car: str) -> None:
    say(mem, said)
    [vehicle] = _keyed(mem, "vehicle")
    assert car.casefold() in str(vehicle.value_json).casefold()
    assert vehicle.domain == "个人"


def test_a_name_or_someone_elses_car_is_no_car_of_ones_own(mem: MemoryService) -> None:
    say(mem, "my Bruno needs a bath", "my brother's 2012 Jetta needs new tires")
    assert not [n for n in _keyed(mem, "vehicle") if n.domain == "个人"]


@pytest.mark.parametrize(
    ("said", "species"),
    [
        ("我家金毛最近老是掉毛", "金毛"),
        ("家里那只狸花猫特别黏人", "狸花猫"),
        ("our beagle howls whenever we leave", "beagle"),
    ],
)
def test_a_pet_called_ours_is_the_users_pet(mem: MemoryService, said: str, species: str) -> None:
    say(mem, said)
    [pet] = _keyed(mem, "pet")
    assert pet.value_json == {"species": species}
    assert pet.domain == "个人"
    assert species in later(mem, "周末有什么好玩的？" if species != "beagle" else "Weekend plans?")


def test_a_pet_that_is_gone_or_not_ours_or_supposed_is_no_pet(mem: MemoryService) -> None:
    say(
        mem,
        "my neighbour's husky howls all night",
        "我家猫去年走了",
        "如果我养一只柯基会不会很累？",
        "邻居家的狗天天叫",
    )
    assert not _keyed(mem, "pet"), [(n.key, n.title) for n in stored(mem)]


def test_a_town_said_before_a_supposition_is_the_users(mem: MemoryService) -> None:
    say(mem, "I'm in Glasgow, but what if I took the job in Bristol?")
    [city] = _keyed(mem, "city")
    assert str(city.value_json).casefold() == "glasgow"
    assert "Bristol" not in str([n.title for n in stored(mem)])


def test_a_town_with_a_reason_or_time_is_no_home(mem: MemoryService) -> None:
    say(mem, "I'm in Lisbon for a conference", "I'm in Marketing", "I'm in Rome this week")
    assert not _keyed(mem, "city"), [(n.key, n.title) for n in stored(mem)]


def test_a_name_alone_is_the_person_named_so_before(mem: MemoryService) -> None:
    say(mem, "my son Theo just started swimming lessons")
    say(mem, "Theo's turning 9 in August, any party ideas?", session="s2")
    [fact] = [n for n in stored(mem) if "turning 9" in n.title.casefold()]
    assert fact.domain == "人物" and fact.category_path[:2] == ["人物", "son"]
    assert str(fact.value_json["person"]).casefold() == "son theo"
    # Still one son called Theo, named once.
    assert len(_keyed(mem, "family_member")) == 1


def test_a_name_nobody_was_given_stays_that_persons_own(mem: MemoryService) -> None:
    say(mem, "Rosa's moving to Lisbon in May")
    [fact] = [n for n in stored(mem) if "lisbon" in str(n.value_json).casefold()]
    assert fact.domain == "人物" and str(fact.value_json["person"]).casefold() == "rosa"
    assert not [n for n in stored(mem) if n.domain == "个人"]
