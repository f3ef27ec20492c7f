"""Things said in passing that change or shape what is remembered: a bare number or date
that corrects what was just said, a weekday with its day of the month, an errand reported
ordered, a list of chores, a dislike said by how one reacts, the units one wants amounts in,
a decision told as how things ended up, a take-back said along the way, and brackets that
belong to their clause. Each with near-misses that must change nothing."""

from __future__ import annotations

from datetime import datetime

from ekko_memory import MemoryService
from ekko_memory.models import MemoryNode
from ekko_memory.service.extraction.statements import read_statements
from tests.core.test_statement_kinds import later, say, stored


def keyed(mem: MemoryService, key: str) -> list[MemoryNode]:
    return [n for n in stored(mem) if n.key == key]


def said_anywhere(mem: MemoryService, word: str) -> bool:
    return any(word in f"{n.title} {n.content} {n.value_json}" for n in stored(mem))


def due(node: MemoryNode) -> datetime:
    assert isinstance(node.value_json, dict)
    return datetime.fromisoformat(str(node.value_json["due"]).upper())


# --- a bare number or date corrects what was just said ---------------------------------


def test_a_bare_weight_corrects_the_weight_just_said(mem: MemoryService) -> None:
    say(mem, "我家猫11斤", "其实是12斤")
    assert said_anywhere(mem, "12斤") and not said_anywhere(mem, "11斤")
    assert "12斤" in later(mem, "猫粮一天喂多少克合适？")


def test_a_bare_number_corrects_the_one_number_said(mem: MemoryService) -> None:
    say(mem, "my dog weighs 30 pounds", "sorry, 34 pounds")
    assert said_anywhere(mem, "34 pounds") and not said_anywhere(mem, "30 pounds")
    say(mem, "my cat weighs 9 pounds", "actually it's 10", session="s2")
    assert said_anywhere(mem, "10 pounds") and not said_anywhere(mem, "9 pounds")


def test_a_number_that_fits_two_values_changes_nothing(mem: MemoryService) -> None:
    say(mem, "我家狗20斤，猫9斤", "其实是22斤")
    assert said_anywhere(mem, "20斤") and not said_anywhere(mem, "22")
    # Said a turn later, a bare number is read against the words just before only.
    say(mem, "我家狗20斤，猫9斤", "今天好热", "不对，是22斤", session="s2")
    assert not said_anywhere(mem, "22")


def test_a_date_that_fits_two_plans_changes_neither(mem: MemoryService) -> None:
    say(mem, "周三去体检，周五交材料", "不对，是周四")
    titles = " ".join(n.title for n in keyed(mem, "task_status"))
    assert "周三" in titles and "周五" in titles and "周四" not in titles


def test_a_date_corrected_a_turn_later_replaces_the_dated_plan(mem: MemoryService) -> None:
    say(mem, "need to take the cat to the vet on the 12th", "It's been raining all day")
    [old] = keyed(mem, "task_status")
    say(mem, "oh wait, it's the 19th")
    [task] = keyed(mem, "task_status")
    assert due(task).day == 19 and task.supersedes_id == old.id
    assert mem.get_node(old.id).status == "superseded"  # type: ignore[union-attr]


def test_a_chinese_date_corrected_after_small_talk_replaces_it(mem: MemoryService) -> None:
    say(mem, "12号要去续签护照", "今天好热啊", "哦不对，是19号")
    [task] = keyed(mem, "task_status")
    assert due(task).day == 19 and "19号" in task.title and "12号" not in task.title


def test_an_aside_after_a_correction_word_is_no_correction(mem: MemoryService) -> None:
    say(mem, "我每天早上跑步", "其实是为了减肥")
    say(
        mem, "I have a dentist appointment on the 14th", "oh wait, my sister's birthday is the 16th"
    )
    [task] = keyed(mem, "task_status")
    assert due(task).day == 14


# --- dates, errands and lists ---------------------------------------------------------


def test_a_weekday_with_its_day_of_the_month_is_one_date(mem: MemoryService) -> None:
    say(mem, "Need to take the car in for its service on Saturday the 14th")
    say(mem, "周日21号要带猫去打疫苗", session="s2")
    days = sorted(due(n) for n in keyed(mem, "task_status"))
    assert [(d.day, d.weekday()) for d in days] in ([(14, 5), (21, 6)], [(21, 6), (14, 5)])


def test_an_errand_reported_ordered_leaves_the_tasks(mem: MemoryService) -> None:
    say(mem, "得买个新电饭煲", "电饭煲已经下单了")
    say(mem, "need to get a new toaster", "toaster's ordered, arrives Friday", session="s2")
    assert keyed(mem, "task_status") == []


def test_not_ordered_yet_keeps_the_task(mem: MemoryService) -> None:
    say(mem, "得买个新电饭煲", "电饭煲还没下单")
    assert any("电饭煲" in n.title for n in keyed(mem, "task_status"))


def test_a_list_of_chores_is_a_task_each(mem: MemoryService) -> None:
    say(mem, "这周末的家务：擦窗户，洗床单")
    say(mem, "errands for Saturday: return the library books, get a haircut", session="s2")
    tasks = {str(n.value_json["task"]) for n in keyed(mem, "task_status")}  # type: ignore[index]
    assert {"擦窗户", "洗床单", "return the library books", "get a haircut"} <= tasks


def test_a_feeling_after_a_list_lead_is_no_chore(mem: MemoryService) -> None:
    say(mem, "周末的活儿太多了：累死", "weekend jobs: ugh, so tired")
    assert keyed(mem, "task_status") == []


# --- likes and dislikes by reaction, units ----------------------------------------------


def test_a_reaction_each_time_is_a_dislike(mem: MemoryService) -> None:
    say(mem, "羊肉我一闻就恶心")
    [avoid] = keyed(mem, "avoid_ingredient")
    assert "羊肉" in avoid.title
    say(mem, "一看到报表就头大", "just looking at spreadsheets gives me a headache")
    disliked = {str(n.value_json) for n in keyed(mem, "dislikes")}
    assert {"报表", "spreadsheets"} <= disliked


def test_a_reaction_once_is_no_dislike(mem: MemoryService) -> None:
    say(mem, "今天闻到烟味就想吐")
    assert keyed(mem, "dislikes") == [] and keyed(mem, "avoid_ingredient") == []


def test_the_spicier_the_better_is_a_taste_for_heat(mem: MemoryService) -> None:
    say(mem, "buffalo wings for me, the hotter the better")
    [taste] = keyed(mem, "flavor_profile")
    assert taste.value_json == {"spicy": "high"}
    say(mem, "I like my baths hot, the hotter the better", session="s2")
    assert len(keyed(mem, "flavor_profile")) == 1


def test_the_units_wanted_are_a_preference(mem: MemoryService) -> None:
    say(mem, "metric please, not imperial")
    say(mem, "菜谱用毫升，别用杯", session="s2")
    liked = {n.title for n in keyed(mem, "likes")}
    assert {"Use metric, not imperial", "用毫升，不用杯"} <= liked
    assert "毫升" in later(mem, "给我一个松饼的配方")


def test_a_drink_ordered_is_no_unit_preference(mem: MemoryService) -> None:
    say(mem, "a cup of coffee please, not tea", "two cups please, not three")
    assert keyed(mem, "likes") == []


# --- decisions told as an outcome -------------------------------------------------------


def test_a_decision_told_as_how_it_ended_up(mem: MemoryService) -> None:
    say(mem, "we made the call, Grandma moves in with us in May")
    say(mem, "终于定下来了，婚礼放在五月", session="s2")
    decided = {n.title for n in keyed(mem, "personal_decision")}
    assert decided == {"Grandma moves in with us in May", "婚礼放在五月"}
    assert all(n.scope == "user" for n in keyed(mem, "personal_decision"))


def test_a_decision_not_made_yet_is_none(mem: MemoryService) -> None:
    say(mem, "we haven't decided yet, maybe a new car", "我们还没定下来要不要换房")
    assert [n for n in stored(mem) if n.type == "decision"] == []


# --- take-backs said in passing ---------------------------------------------------------


def test_leave_out_the_part_about_someone_stops_it(mem: MemoryService) -> None:
    say(mem, "My brother Tom is a chef in Lyon", "leave out the part about my brother")
    assert stored(mem) == []
    say(mem, "我住在苏州", "住址别留着", session="s2")
    assert stored(mem) == []


def test_why_a_take_back_was_said_is_no_fact(mem: MemoryService) -> None:
    say(
        mem,
        "My brother Tom is a chef in Lyon",
        "leave out the part about my brother, he'd hate that",
    )
    say(mem, "我妹妹叫小雅", "我妹妹的事别记了，她不想让人知道", session="s2")
    assert stored(mem) == []
    say(mem, "forget my old address, I moved to Leeds", session="s3")
    assert [n.key for n in stored(mem)] == ["city"]


def test_a_date_corrected_after_a_passing_state_replaces_the_plan(mem: MemoryService) -> None:
    say(mem, "15号要去社保局办手续", "今天外面风好大", "哦不对，是17号")
    [task] = keyed(mem, "task_status")
    assert due(task).day == 17
    assert [n.title for n in stored(mem) if n.key == "temporary_state"] == ["今天外面风好大"]


def test_a_take_back_of_a_short_word_names_no_word_inside_another(mem: MemoryService) -> None:
    say(mem, "I'm seeing the dentist next Tuesday", "don't keep the bit about my ex")
    [task] = keyed(mem, "task_status")
    assert "dentist" in task.title


# --- brackets stay with their clause ----------------------------------------------------


def test_brackets_stay_with_the_clause_they_belong_to() -> None:
    now = datetime.now().astimezone()
    english = [st.text for st in read_statements("I speak German (native), Italian (basic)", now)]
    assert english == ["I speak German (native)", "Italian (basic)"]
    chinese = [st.text for st in read_statements("我女儿（今年4岁，上中班）怕黑", now)]
    assert chinese == ["我女儿（今年4岁，上中班）怕黑"]
    # A bracket never closed does not swallow the rest of the sentence.
    assert len(read_statements("I moved (sort of, anyway", now)) == 2
