"""Frames for facts about a person: where they live and come from, their work, languages,
family, pets, health, birthday, age, school, car, routines and travel plans.

A frame reads a statement's *body* — the clause after its subject — so one frame serves the
user (我对花生过敏, I'm allergic to peanuts) and anyone in their life (我儿子对花生过敏, my son
is allergic to peanuts): the subject decides whose fact it is. A fact about someone else is
filed under 人物/<who> with the person in its value, never as the user's.

Each frame looks for the structure of the clause (the verb and what follows it), not for a
list of sentences: 住在/搬到/live in/moved to + a place; 是/am a + a job; 对…过敏/allergic
to + anything. What fills the slot is kept in the user's words.

The frames live by topic: ``health``, ``people``, ``work``, ``places``; ``building`` makes
the finding; ``frames`` orders them; ``travel`` reads trips.
"""

from ekko_memory.service.extraction.facts.frames import FactFrames
from ekko_memory.service.extraction.facts.travel import travel_plan

__all__ = ["FactFrames", "travel_plan"]
