"""Organic-chemistry templates: seeded question makers over the compound table and its rules.

A template draws, for a seed, an `OrganicQuestion`: what it asks, its four options and key, and
(when the question shows structures) the structure figure. `organic_draft` turns it into a Draft
the gate verifies like any other; the solver (pipeline.verify.organic) reads the stem, options
and structures, never the key. Template ids start with `organic.<kind>.` so the solver can tell
which of its methods applies.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from core.figures import StructureSpec
from core.records import Difficulty, Draft, QuestionFormat, Subject
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, rated
from pipeline.figures.templates import drawn_figure, seeded_draft, seeded_drafts

ORGANIC_GENERATOR = "offline.organic"
ORGANIC_PREFIX = "organic."


def four_options(
    rng: random.Random, key: str, distractors: Sequence[str]
) -> tuple[str, str, str, str]:
    """The key and its three distractors in the seeded random order the options are shown in."""
    texts = [key, *distractors]
    if len(texts) != 4:
        raise ValueError(f"{key!r} needs three distractors, has {list(distractors)}")
    rng.shuffle(texts)
    return (texts[0], texts[1], texts[2], texts[3])


@dataclass(frozen=True)
class OrganicQuestion:
    """One drawn organic question. `group` names what it is about (one compound, one reaction,
    one ranking), so questions about one thing are near-duplicates of each other."""

    format: QuestionFormat
    stem: str
    options: tuple[str, str, str, str]
    correct: str
    explanation: str
    group: str
    # The structures the question shows, with the figure's caption and alt text (the alt never
    # gives the answer away: it describes, it does not name).
    structures: StructureSpec | None = None
    caption: str = ""
    alt: str = ""
    # Overrides the template's demand for this draw (a longer chain, a closer distractor).
    demand: Demand | None = None
    params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class OrganicTemplate:
    template_id: str  # starts with ORGANIC_PREFIX
    topic_id: str
    demand: Demand
    draw: Callable[[int], OrganicQuestion | None]
    subject: Subject = Subject.CHEMISTRY

    @property
    def difficulty(self) -> Difficulty:
        return rated(self.demand)[0]


def organic_draft(template: OrganicTemplate, seed: int, syllabus: Syllabus) -> Draft | None:
    """The template's draft for a seed, or None when that seed makes no question."""
    question = template.draw(seed)
    if question is None:
        return None
    rating = rated(question.demand or template.demand)
    if rating[0] != template.difficulty:
        return None  # a draw rated apart from its template belongs to another cell
    figures = (
        (drawn_figure(question.structures, question.caption, question.alt),)
        if question.structures is not None
        else ()
    )
    tag = syllabus.topic(template.topic_id).tag
    return seeded_draft(
        ORGANIC_GENERATOR,
        template.template_id,
        tag,
        rating,
        question,
        question.group,
        seed,
        figures,
    )


def organic_drafts(
    template: OrganicTemplate, syllabus: Syllabus, start: int = 0
) -> Iterator[Draft]:
    """Drafts for seeds start, start+1, … (see seeded_drafts)."""
    return seeded_drafts(lambda seed: organic_draft(template, seed, syllabus), start)
