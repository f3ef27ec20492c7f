"""What the user changes of what they said, in words the rules were not written for: a new
job or city said in passing, a count or a name corrected, a topic whose value changes in the
next clause, a bare weekday after a plan, and take-backs of "that last bit" or "what I just
said". The old value never stays in a later context; what was not changed stays."""

from __future__ import annotations

from ekko_memory import MemoryService
from tests.core.test_statement_kinds import later, say, stored


def values(mem: MemoryService, key: str) -> list[str]:
    return [str(n.value_json) for n in stored(mem) if n.key == key]


def test_a_job_joined_is_the_new_employer_and_the_old_one_leaves(mem: MemoryService) -> None:
    say(mem, "我在百度做算法工程师。")
    say(mem, "跟你说下，我上个月跳槽到了京东，还是做算法。", session="s2")
    assert values(mem, "employer") == ["京东"]
    context = later(mem, "帮我写一段新公司的自我介绍")
    assert "京东" in context and "百度" not in context


def test_a_move_said_with_when_it_happened_is_where_the_user_lives(mem: MemoryService) -> None:
    say(mem, "Two years ago I moved to Boston for grad school.")
    say(mem, "我去年搬到了成都。", session="s2")
    assert values(mem, "city") == ["成都"]
    say(mem, "I live in Leeds.", session="s3")
    say(mem, "Update: we sold the house and moved to York last month!", session="s4")
    assert values(mem, "city") == ["york"]


def test_we_are_read_as_we_are(mem: MemoryService) -> None:
    """We're flying to…: the contraction was read as "we" + "'re flying", which no frame read."""
    say(mem, "We're flying to Osaka on the 20th, any food tips?")
    [trip] = [n for n in stored(mem) if n.key == "travel_plan"]
    assert trip.value_json["destination"].casefold() == "osaka"


def test_a_count_corrected_mid_sentence_keeps_the_rest_of_the_message(mem: MemoryService) -> None:
    say(mem, "我女儿今年5岁……哦不对，6岁了，时间真快。她特别喜欢画画。")
    assert values(mem, "age") == [str({"person": "女儿", "value": "6岁"})]
    context = later(mem, "给孩子报个兴趣班")
    assert "6岁" in context and "5岁" not in context
    assert "画画" in context  # what followed the correction is read as said


def test_a_name_corrected_in_a_later_conversation_replaces_the_name(mem: MemoryService) -> None:
    say(mem, "我老公叫张伟，下周是他生日。")
    say(mem, "上次我老公名字写错了，是张玮，玉字旁的玮。", session="s2")
    context = later(mem, "帮我写张生日贺卡")
    assert "张玮" in context and "张伟" not in context


def test_a_topic_changed_with_its_value_in_the_next_clause(mem: MemoryService) -> None:
    say(mem, "我儿子幼儿园下午四点半放学，我得早退去接。")
    say(mem, "幼儿园改时间了，下午五点才放，好多了。", session="s2")
    context = later(mem, "明天下午三点开会开到四点，来得及接孩子吗")
    assert "五点" in context and "四点半" not in context


def test_a_bare_weekday_moves_the_plan_just_said(mem: MemoryService) -> None:
    say(mem, "帮我记一下，每周三晚上八点去打羽毛球", "周五")
    context = later(mem, "这周哪天晚上有空约饭？")
    assert "每周五晚上八点" in context and "周三" not in context


def test_that_last_bit_takes_back_only_the_end_of_the_message_before(mem: MemoryService) -> None:
    say(
        mem,
        "I'm allergic to peanuts. Also I think I might be gluten intolerant?",
        "ignore that last bit, I haven't been tested, don't save it",
    )
    context = later(mem, "Plan a dinner menu for me this weekend.")
    assert "peanut" in context.casefold() and "gluten" not in context.casefold()


def test_what_i_just_said_takes_back_the_one_thing_said(mem: MemoryService) -> None:
    say(mem, "最近在吃布洛芬，医生让吃一周。晚上睡不好怎么办", "刚才说的吃药那个你别记了")
    assert not [n for n in stored(mem) if "布洛芬" in n.title + n.content]
    assert "布洛芬" not in later(mem, "最近压力大，有啥放松的办法")


def test_words_that_only_frame_or_ask_are_no_note(mem: MemoryService) -> None:
    """记得提醒我 and "from now on" clauses keep nothing of their own; the note is what
    was asked to be kept."""
    say(mem, "我生日5月12……不对，是5月21，记得提醒我")
    assert [n.key for n in stored(mem)] == ["birthday"]
    say(mem, "We're out of coffee, I always forget it.", session="s2")
    assert not [n for n in stored(mem) if n.key == "routine"]


def test_a_correction_that_names_its_topic_replaces_that_memory(mem: MemoryService) -> None:
    """之前说的X我说错了: what the lead names, said in another conversation, is what changes,
    though the new statement shares no word with it."""
    say(mem, "我周末一般都去爬山。")
    say(mem, "之前说的爬山我说错了，我周末一般是去游泳。", session="s2")
    context = later(mem, "这周末有什么安排建议")
    assert "游泳" in context and "爬山" not in context


def test_leaving_a_job_makes_where_one_is_now_the_workplace(mem: MemoryService) -> None:
    say(mem, "我在美团做产品经理，最近需求评审开得我怀疑人生。")
    say(mem, "我从美团离职了，现在在拼多多，还是做产品，节奏比之前还快。", session="s2")
    assert values(mem, "employer") == ["拼多多"]
    context = later(mem, "帮我写条朋友圈，介绍下我现在的工作")
    assert "拼多多" in context and "美团" not in context


def test_a_move_said_with_finally_replaces_the_old_city(mem: MemoryService) -> None:
    say(mem, "I live in Austin and the pollen right now is killing me.")
    say(mem, "We finally moved to Denver last weekend! Boxes everywhere", session="s2")
    assert values(mem, "city") == ["denver"]
    context = later(mem, "What's the weather usually like where I live this time of year?")
    assert "Denver" in context and "Austin" not in context


def test_a_name_typed_wrong_before_is_corrected_by_its_new_spelling(mem: MemoryService) -> None:
    say(mem, "我家狗叫豆豆，柯基，特别能吃，最近胖了。")
    say(mem, "诶跟你说下，我家狗其实叫逗逗，逗比的逗，之前打错字了", session="s2")
    names = [n.value_json["called"] for n in stored(mem) if n.key == "pet"]
    assert names == ["逗逗"], names


def test_a_correction_that_names_the_old_value_again_replaces_it(mem: MemoryService) -> None:
    """是头孢 青霉素我没事的; I'm not fully vegan, I'm pescatarian: the old value, named in the
    correction, is what it corrects — in the same conversation or days later."""
    say(mem, "我对青霉素过敏，上次输液起了一身疹子", "啊不对不对 我说错了 是头孢 青霉素我没事的")
    assert [n.title for n in stored(mem) if "过敏" in n.title] == ["我对头孢过敏"]
    say(mem, "I'm vegan, any quick high-protein lunches?", session="s2")
    say(
        mem,
        "Actually I should clarify, I'm not fully vegan, I'm pescatarian. I eat fish and eggs,"
        " just no meat",
        session="s3",
    )
    diets = [n.title for n in stored(mem) if n.key == "dietary_restriction"]
    assert diets == ["Diet: pescatarian"], diets
    context = later(mem, "Plan my dinners for this week")
    assert "pescatarian" in context and "vegan" not in context.replace("not fully vegan", "")


def test_that_one_deleted_after_the_reply_is_what_the_user_said_before(
    mem: MemoryService,
) -> None:
    """那条删掉吧 comes after the assistant's reply: "that one" is the user's message before
    it, not the reply."""
    say(mem, "记一下我现在体重78公斤，三月开始减肥", "哎 那条删掉吧 不想天天看到这个数")
    assert not [n for n in stored(mem) if "78" in n.title + n.content]
    assert "78" not in later(mem, "帮我算算我每天该喝多少水")


def test_scratch_the_thing_drops_a_plan_said_days_before(mem: MemoryService) -> None:
    say(mem, "I'm going to start keto next week, cutting out bread and pasta completely")
    say(mem, "Scratch the keto thing, my doctor said no because of my kidneys", session="s2")
    assert not [n for n in stored(mem) if "keto" in n.title.casefold()]
    assert "keto" not in later(mem, "What should I make for lunch today?").casefold()
