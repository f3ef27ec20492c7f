"""A memory as one sentence a person recognizes, in the UI's language.

A structured memory whose key the app knows is rendered from its key and value
(``avoid_ingredient: 香菜`` → "不吃香菜" / "Doesn't eat 香菜", ``flavor_profile: {oil: low,
salt: low}`` → "少油少盐" / "Less oil, less salt", ``reply_language: 中文`` → "用中文回复" /
"Replies in Chinese"); the value's words stay the user's own. Any other memory reads as
its content when that is one short sentence, else as its title (a recipe's content is its
method, not its name).

Also the words around the sentence: built-in category names in the UI's language, who
wrote a memory (you, the agent, built in) and the badges of a row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from ekko_memory import same_names
from ekko_memory_gui.models.labels.values import local
from ekko_memory_gui.models.labels.vocabulary import cached
from ekko_memory_gui.qt import QCoreApplication as _Q

# Content longer than this reads as a paragraph: the title speaks for it in a list.
SENTENCE_CHARS = 80
# Kinds whose content is a method or a body, never the memory's name.
NAMED_KINDS = ("recipe", "skill")
# A memory used in a reply this recently carries the "used recently" badge.
RECENTLY_USED = timedelta(days=14)


def _words() -> dict[str, str]:
    """Amounts and tastes of a flavour profile, and language names (built once per language)."""
    return cached(
        "sentence_words",
        lambda: {
            "spicy": _Q.translate("MemorySentences", "spice"),
            "oil": _Q.translate("MemorySentences", "oil"),
            "salt": _Q.translate("MemorySentences", "salt"),
            "sweet": _Q.translate("MemorySentences", "sugar"),
            "sour": _Q.translate("MemorySentences", "vinegar"),
            "low": _Q.translate("MemorySentences", "less {what}"),
            "none": _Q.translate("MemorySentences", "no {what}"),
            "high": _Q.translate("MemorySentences", "more {what}"),
            "medium": _Q.translate("MemorySentences", "some {what}"),
            "zh": _Q.translate("MemorySentences", "Chinese"),
            "en": _Q.translate("MemorySentences", "English"),
            "ja": _Q.translate("MemorySentences", "Japanese"),
            "joined": _Q.translate("MemorySentences", "{first}, {then}"),
        },
    )


# Spellings of a language a value may hold (the extractor keeps the user's word).
_LANGUAGES = {
    "zh": ("中文", "汉语", "chinese", "zh", "zh-cn", "zh_cn", "简体中文", "普通话"),
    "en": ("英文", "英语", "english", "en", "en-us"),
    "ja": ("日文", "日语", "japanese", "ja"),
}


def _language(value: Any) -> str:
    text = str(value).strip()
    folded = text.casefold()
    for code, names in _LANGUAGES.items():
        if folded in names:
            return _words()[code]
    return text


def _flavor(value: Any) -> str | None:
    """{oil: low, salt: low} → 少油少盐 / Less oil, less salt."""
    if not isinstance(value, dict) or not value:
        return None
    words = _words()
    parts: list[str] = []
    for taste, amount in value.items():
        what = words.get(str(taste))
        how = words.get(str(amount)) if str(amount) in ("low", "none", "high", "medium") else None
        if what is None or how is None:
            return None
        parts.append(how.format(what=what))
    text = parts[0]
    for part in parts[1:]:
        text = words["joined"].format(first=text, then=part)
    return text[:1].upper() + text[1:]


def _text(value: Any) -> str | None:
    """A plain value (a word or a short phrase), or None."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return _Q.translate("MemorySentences", "、").join(value)
    return None


def _field(value: Any, *names: str) -> str | None:
    if isinstance(value, dict):
        for name in names:
            found = value.get(name)
            if isinstance(found, str | int | float) and str(found).strip():
                return str(found).strip()
    return None


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


def _in_words_of(sentence: str, word: str) -> str:
    """``word`` in the sentence's language where the shipped lists know it, the user's own
    word beside it ("Doesn't eat cilantro (香菜)", "不吃香菜（cilantro）"); else as said."""
    if _has_cjk(sentence) == _has_cjk(word):
        return word
    other = next((n for n in same_names(word) if _has_cjk(n) == _has_cjk(sentence)), None)
    if other is None:
        return word
    return f"{other}（{word}）" if _has_cjk(sentence) else f"{other} ({word})"


def _plain(template: Callable[[], str], food: bool = False) -> Callable[[Any], str | None]:
    def render(value: Any) -> str | None:
        text = _text(value) or _field(value, "ingredient", "value", "name")
        if text is None:
            return None
        said = template()
        return said.format(v=_in_words_of(said, text) if food else text)

    return render


# Spellings of "a little" an amount may hold (the extractor keeps the user's word): an
# English UI said "少量 香菜 is fine", half in each language.
_A_LITTLE = ("少量", "一点", "一点点", "少许", "a little", "a bit", "little")


def _limit(value: Any) -> str | None:
    ingredient = _field(value, "ingredient") or _text(value)
    if ingredient is None:
        return None
    ingredient = _in_words_of(
        _Q.translate("MemorySentences", "Only a little {ingredient}"), ingredient
    )
    amount = _field(value, "amount")
    if amount is not None and amount.casefold() in _A_LITTLE:
        return _Q.translate("MemorySentences", "A little {ingredient} is fine").format(
            ingredient=ingredient
        )
    if amount is None:
        return _Q.translate("MemorySentences", "Only a little {ingredient}").format(
            ingredient=ingredient
        )
    return _Q.translate("MemorySentences", "{amount} {ingredient} is fine").format(
        amount=amount, ingredient=ingredient
    )


def _reply_language(value: Any) -> str | None:
    text = _text(value)
    return (
        None
        if text is None
        else _Q.translate("MemorySentences", "Replies in {language}").format(
            language=_language(text)
        )
    )


def _family(value: Any) -> str | None:
    person, called = _field(value, "person"), _field(value, "called", "name")
    if person is None or called is None:
        return None
    return _Q.translate("MemorySentences", "{person} is called {name}").format(
        person=person, name=called
    )


def _task(value: Any) -> str | None:
    task = _field(value, "task")
    if task is None:
        return None
    if _field(value, "status") == "done":
        return _Q.translate("MemorySentences", "{task} (done)").format(task=task)
    return task


_RENDER: dict[str, Callable[[Any], str | None]] = {
    "avoid_ingredient": _plain(
        lambda: _Q.translate("MemorySentences", "Doesn't eat {v}"), food=True
    ),
    "preferred_ingredient": _plain(lambda: _Q.translate("MemorySentences", "Likes {v}"), food=True),
    "limit_ingredient": _limit,
    "flavor_profile": _flavor,
    "dietary_restriction": _plain(lambda: _Q.translate("MemorySentences", "Diet: {v}")),
    "preferred_cuisine": _plain(lambda: _Q.translate("MemorySentences", "Likes {v}")),
    "reply_language": _reply_language,
    "reply_style": _plain(lambda: _Q.translate("MemorySentences", "Replies: {v}")),
    "preferred_name": _plain(lambda: _Q.translate("MemorySentences", "Call me {v}")),
    "timezone": _plain(lambda: _Q.translate("MemorySentences", "Time zone: {v}")),
    "likes": _plain(lambda: _Q.translate("MemorySentences", "Likes {v}")),
    "dislikes": _plain(lambda: _Q.translate("MemorySentences", "Dislikes {v}")),
    "allergy": _plain(lambda: _Q.translate("MemorySentences", "Allergic to {v}"), food=True),
    "family_member": _family,
    "task_status": _task,
}


def keyed_sentence(key: str | None, value: Any) -> str | None:
    """The sentence a known key and its value say, or None."""
    render = _RENDER.get(key or "")
    if render is None or value is None:
        return None
    try:
        return render(value)
    except (KeyError, IndexError, ValueError):  # a value of an unexpected shape
        return None


def memory_sentence(*, type: str, key: str | None, value: Any, title: str, content: str) -> str:
    """One sentence for a memory (see the module's doc)."""
    found = keyed_sentence(key, value)
    if found:
        return found
    text = " ".join(content.split())
    if not text or len(text) > SENTENCE_CHARS or type in NAMED_KINDS:
        return title
    return text


def _built_in() -> dict[str, str]:
    """The memories shipped with the app (resources/global), by id, in the UI's language."""
    return cached(
        "built_in",
        lambda: {
            "mem_00000000000000000000000001": _Q.translate(
                "MemorySentences", "Tomato and egg stir-fry"
            ),
            "mem_00000000000000000000000002": _Q.translate(
                "MemorySentences", "Blanch meat first to take away the smell"
            ),
        },
    )


def _built_in_content() -> dict[str, str]:
    """The shipped memories' content (resources/global), by id, in the UI's language."""
    return cached(
        "built_in_content",
        lambda: {
            "mem_00000000000000000000000001": _Q.translate(
                "MemorySentences",
                "A quick home-style dish of tomatoes and eggs. Can be made with less oil and "
                "without cilantro, as the user prefers.",
            ),
            "mem_00000000000000000000000002": _Q.translate(
                "MemorySentences",
                "Put the meat in cold water before cooking, add ginger slices and cooking "
                "wine, skim off the foam once it boils, then take it out.",
            ),
        },
    )


def node_content(node: Any) -> str:
    """A memory's content; a built-in memory's in the UI's language."""
    content = str(getattr(node, "content", "") or "")
    if getattr(node, "scope", None) == "global":
        return _built_in_content().get(str(getattr(node, "id", "")), content)
    return content


def node_sentence(node: Any) -> str:
    """``memory_sentence`` of a ``MemoryNode`` (or a draft with the same fields); a
    built-in memory in the UI's language."""
    if getattr(node, "scope", None) == "global":
        found = _built_in().get(str(getattr(node, "id", "")))
        if found:
            return found
    return memory_sentence(
        type=str(getattr(node, "type", "") or ""),
        key=getattr(node, "key", None),
        value=getattr(node, "value_json", None),
        title=str(getattr(node, "title", "") or ""),
        content=str(getattr(node, "content", "") or ""),
    )


# --- categories -----------------------------------------------------------------------


def _categories() -> dict[str, str]:
    """The built-in category names (the schema's and the shipped recipes'), translated."""
    return cached(
        "categories",
        lambda: {
            "生活技能": _Q.translate("MemorySentences", "Life skills"),
            "做饭": _Q.translate("MemorySentences", "Cooking"),
            "饮食偏好": _Q.translate("MemorySentences", "Food preferences"),
            "菜谱": _Q.translate("MemorySentences", "Recipes"),
            "烹饪技巧": _Q.translate("MemorySentences", "Cooking tips"),
            "个人": _Q.translate("MemorySentences", "Personal"),
            "沟通": _Q.translate("MemorySentences", "Communication"),
            "喜好": _Q.translate("MemorySentences", "Likes"),
            "状态": _Q.translate("MemorySentences", "Current state"),
            "日程": _Q.translate("MemorySentences", "Schedule"),
            "笔记": _Q.translate("MemorySentences", "Notes"),
            "人物": _Q.translate("MemorySentences", "People"),
            "项目": _Q.translate("MemorySentences", "Project"),
            "任务": _Q.translate("MemorySentences", "Tasks"),
            "架构": _Q.translate("MemorySentences", "Architecture"),
            "部署": _Q.translate("MemorySentences", "Deployment"),
            "协作": _Q.translate("MemorySentences", "Collaboration"),
            "约束": _Q.translate("MemorySentences", "Rules"),
        },
    )


def category_label(name: str) -> str:
    """A category's name in the UI's language (built-in names translated, the user's own
    names as they are)."""
    return _categories().get(name, name)


def category_text(path: Sequence[str]) -> str:
    """The last two levels of a category path, translated: 做饭 › 饮食偏好."""
    return " › ".join(category_label(p) for p in path[-2:])


# --- who wrote it ---------------------------------------------------------------------


def author_text(origin: str) -> str:
    """Who wrote a memory: you, the agent, built in, imported."""
    table = cached(
        "authors",
        lambda: {
            "user_edit": _Q.translate("MemorySentences", "You"),
            # The user asked the agent to remember it: the user's words.
            "user_explicit": _Q.translate("MemorySentences", "You"),
            "inferred": _Q.translate("MemorySentences", "The agent"),
            "seed": _Q.translate("MemorySentences", "Built in"),
            "imported": _Q.translate("MemorySentences", "Imported"),
        },
    )
    return table.get(origin, origin)


# --- badges ---------------------------------------------------------------------------


def until_text(when: datetime, now: datetime) -> str:
    """ "until Fri 18:00" this week, "until 12-24" later."""
    at, today = local(when), local(now)
    if at.date() == today.date():
        return _Q.translate("MemorySentences", "until {time} today").format(
            time=at.strftime("%H:%M")
        )
    if (at.date() - today.date()).days < 7:
        return _Q.translate("MemorySentences", "until {day}").format(day=_weekday(at.weekday()))
    return _Q.translate("MemorySentences", "until {date}").format(date=at.strftime("%m-%d"))


def _weekday(i: int) -> str:
    names = (
        _Q.translate("MemorySentences", "Mon"),
        _Q.translate("MemorySentences", "Tue"),
        _Q.translate("MemorySentences", "Wed"),
        _Q.translate("MemorySentences", "Thu"),
        _Q.translate("MemorySentences", "Fri"),
        _Q.translate("MemorySentences", "Sat"),
        _Q.translate("MemorySentences", "Sun"),
    )
    return names[i]


def badges(
    *,
    expires_at: datetime | None,
    pinned: bool,
    waiting: bool,
    last_used: datetime | None,
    now: datetime,
) -> list[str]:
    """The small words beside a memory: waiting for you, pinned, temporary until…,
    used recently."""
    out: list[str] = []
    if waiting:
        out.append(_Q.translate("MemorySentences", "waiting for you"))
    if pinned:
        out.append(_Q.translate("MemorySentences", "pinned"))
    if expires_at is not None and expires_at > now:
        out.append(until_text(expires_at, now))
    if last_used is not None and now - last_used <= RECENTLY_USED:
        out.append(_Q.translate("MemorySentences", "used recently"))
    return out
