"""Corrections, updates of one-valued facts and partial take-backs, in words the rules were
not written for: 不是X，是Y about a name said days before, a mix-up whose old value is a
relative's, a blood type found wrong, an employer typed wrong, a diet made precise, a week's
schedule that changed, and one of two things said taken back. The new value replaces the old
one (same key, same owner), the old value leaves the context, a fragment never becomes a
value, and a take-back writes nothing."""

from __future__ import annotations

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from tests.core.test_statement_kinds import later, say, stored


def values(mem: MemoryService, key: str) -> list[str]:
    return [str(n.value_json) for n in stored(mem) if n.key == key]


def users_own(mem: MemoryService) -> str:
    """Every memory the user holds as their own (not about someone else), as one text."""
    return " ".join(
        f"{n.title} {n.content} {n.value_json}" for n in stored(mem) if n.domain != "人物"
    )


def test_a_name_said_wrong_days_before_is_replaced_by_not_x_but_y(mem: MemoryService) -> None:
    say(mem, "记住，我家兔子叫团团")
    [old] = [n for n in stored(mem) if n.key == "pet"]
    say(mem, "上次兔子名字打错了，不是团团，是圆圆", session="s2")
    [item] = [p for p in mem.pending() if p.node and p.node.get("key") == "pet"]
    assert item.operation == "supersede" and item.current_head_id == old.id
    assert item.node is not None
    assert MemoryNode.model_validate(item.node).value_json == {"called": "圆圆", "species": "兔子"}
    context = later(mem, "兔子最近掉毛厉害怎么办")
    assert "圆圆" in context and "团团" not in context


def test_its_not_x_its_y_renames_the_pet(mem: MemoryService) -> None:
    say(mem, "my dog Rex chewed my shoes again")
    say(mem, "btw I got the dog's name wrong earlier, it's not Rex, it's Max", session="s2")
    assert [v for v in values(mem, "pet")] == [str({"called": "max", "species": "dog"})]
    context = later(mem, "my dog keeps barking at night")
    assert "Max" in context and "Rex" not in context


def test_a_mix_up_keeps_the_new_value_and_never_a_fragment(mem: MemoryService) -> None:
    say(mem, "我对猕猴桃过敏，吃了喉咙痒", "啊不对，我搞混了，是桃子，猕猴桃是我姐过敏")
    own = users_own(mem)
    assert "桃子" in own
    assert "猕猴桃" not in own and "搞混" not in own  # the sister's, and no fragment
    context = later(mem, "买点水果当下午茶")
    assert "桃子" in context


def test_a_blood_type_found_wrong_is_replaced_and_the_parents_is_not_the_users(
    mem: MemoryService,
) -> None:
    say(mem, "我是B型血，献血的时候要注意啥")
    assert values(mem, "blood_type") == ["B型"]
    say(mem, "今天拿到体检单才知道我一直记错了，我其实是AB型血，B型是我妈", session="s2")
    assert values(mem, "blood_type") == ["AB型"]
    assert "记错" not in users_own(mem)  # the correction's own words are no state
    context = later(mem, "献血前要准备什么")
    assert "AB型" in context and "是B型" not in context


def test_an_english_blood_type_is_one_value(mem: MemoryService) -> None:
    say(mem, "I'm type B, any tips before donating blood?")
    say(mem, "turns out I had it wrong all along, I'm actually type AB", session="s2")
    assert values(mem, "blood_type") == ["type ab"]


def test_an_employer_typed_wrong_is_replaced_by_the_one_named(mem: MemoryService) -> None:
    say(
        mem,
        "I'm a nurse at Kaiser and my boss wants me to do nights",
        "oops typo, I'm at Sutter, not sure why I wrote Kaiser",
    )
    assert values(mem, "employer") == ["sutter"]
    context = later(mem, "help me write a short bio")
    assert "Sutter" in context and "Kaiser" not in context


def test_a_new_job_said_later_leaves_no_memory_quoting_the_old_one(mem: MemoryService) -> None:
    say(mem, "我在美团做设计，天天加班到十点")
    say(mem, "跟你说，上个月我辞职了，现在去了一家做教育的小公司，还是做设计", session="s2")
    assert values(mem, "employer") == ["一家做教育的小公司"]
    context = later(mem, "帮我写个自我介绍")
    assert "教育" in context and "美团" not in context


def test_a_diet_made_precise_replaces_the_diet_said_before(mem: MemoryService) -> None:
    say(mem, "I'm vegan, any ideas for a quick breakfast?", "hmm, vegetarian technically")
    assert values(mem, "dietary_restriction") == ["vegetarian"]
    say(mem, "我吃全素，推荐点早餐", "嗯准确说是蛋奶素，鸡蛋牛奶都吃", session="s2")
    assert values(mem, "dietary_restriction") == ["吃蛋奶素"]


def test_one_eating_style_at_a_time_beside_foods_left_out(mem: MemoryService) -> None:
    say(mem, "I'm vegetarian")
    say(mem, "I don't eat dairy either", session="s2")
    say(mem, "I'm pescatarian these days", session="s3")
    assert sorted(values(mem, "dietary_restriction")) == ["don't eat dairy", "pescatarian"]


def test_a_week_said_without_every_is_a_routine_that_a_change_replaces(
    mem: MemoryService,
) -> None:
    say(mem, "I teach Tue, Thu and Sat at the studio, rest of the week I'm freelancing")
    [week] = values(mem, "routine")
    assert "tue, thu and sat" in week and "freelancing" not in week
    say(
        mem,
        "heads up, my schedule changed at work, now I'm only in Mondays and Fridays",
        session="s2",
    )
    [week] = values(mem, "routine")
    assert "mondays and fridays" in week
    context = later(mem, "can we meet Thursday morning?")
    assert "Mondays and Fridays" in context and "Tue, Thu" not in context


def test_one_of_two_money_facts_taken_back(mem: MemoryService) -> None:
    say(mem, "我房租每月2800，工资税后九千，想存点钱", "算了，工资那个别记了")
    assert values(mem, "rent") == ["每月2800"]
    assert values(mem, "income") == []
    context = later(mem, "帮我做个月度预算")
    assert "2800" in context and "九千" not in context


def test_the_part_taken_back_is_matched_by_its_word_forms(mem: MemoryService) -> None:
    say(
        mem,
        "we've got two rabbits, Pip and Clover. also I'm pregnant, 12 weeks!",
        "please forget the pregnancy part, it's early days",
    )
    assert sorted(n.title for n in stored(mem)) == [
        "Has a rabbit named Clover",
        "Has a rabbit named Pip",
    ]
    context = later(mem, "the rabbits keep chewing the cables, ideas?")
    assert "Pip" in context and "pregnan" not in context.casefold()


def test_near_misses_store_nothing_wrong(mem: MemoryService) -> None:
    say(mem, "我是A型人格，做事比较急")
    say(mem, "O型是我爸", session="s2")
    say(mem, "I was sick Monday and Tuesday", session="s3")
    say(mem, "well, actually", session="s4")
    own = users_own(mem)
    assert values(mem, "blood_type") == []
    assert "O型" not in own
    assert values(mem, "routine") == []


def test_the_way_to_work_said_anew_replaces_the_old_one(mem: MemoryService) -> None:
    say(mem, "I cycle to work, about 20 minutes along the river")
    say(mem, "actually I take the bus to work now, my bike got stolen", session="s2")
    assert values(mem, "commute") == ["take the bus"]
    say(mem, "我每天骑电动车上班，二十分钟", session="s3")
    say(mem, "现在改坐地铁上班了", session="s4")
    assert values(mem, "commute") == ["坐地铁"]
    say(mem, "I drove to work today", session="s5")  # one day: no habit
    assert values(mem, "commute") == ["坐地铁"]


def test_a_thing_said_first_then_whose_it_is_is_theirs(mem: MemoryService) -> None:
    say(mem, "芒果是我妹过敏，我没事")
    [sister] = [n for n in stored(mem) if n.domain == "人物"]
    assert sister.value_json == {"person": "妹", "thing": "芒果"}
    assert "芒果" not in users_own(mem)
    say(mem, "饭是我老公做的", "今天是我妈生日", session="s2")  # nothing lasting of them
    assert [n.domain for n in stored(mem)].count("人物") == 1


def test_a_name_denied_then_given_replaces_the_name(mem: MemoryService) -> None:
    say(mem, "我家猫叫年糕")
    say(mem, "我家猫不叫年糕，叫汤圆，之前打错了", session="s2")
    assert values(mem, "pet") == [str({"called": "汤圆", "species": "猫"})]
    assert "年糕" not in users_own(mem)


def test_a_workplace_described_not_named_is_whole_and_replaces_the_old(
    mem: MemoryService,
) -> None:
    say(mem, "我在一家做电商的公司做客服")
    assert values(mem, "employer") == ["一家做电商的公司"]
    assert values(mem, "occupation") == ["客服"]
    say(mem, "I work at Deloitte as an auditor", session="s2")
    say(
        mem,
        "quick update, I left Deloitte last month and now work at a small fintech startup",
        session="s3",
    )
    assert values(mem, "employer") == ["a small fintech startup"]
    assert "Deloitte" not in later(mem, "help me write a short bio")


def test_scratch_that_with_a_new_value_corrects_and_alone_takes_back(mem: MemoryService) -> None:
    say(mem, "I work at Accenture as a consultant.")
    say(mem, "scratch that, it's Capgemini.")
    assert values(mem, "employer") == ["capgemini"]
    assert "Accenture" not in later(mem, "Write my email signature")
    say(mem, "I live in Porto.", session="s2")
    say(mem, "strike that.", session="s2")
    assert values(mem, "city") == []
