"""Figure templates: seeded question makers whose every question shows a figure drawn from a spec.

A template draws, for a seed, a `FigureQuestion`: the spec (what the picture shows), its caption
and alt text, and the question asked about it. `figure_draft` turns that into a Draft whose
figure is the SVG drawn from the spec, addressed by its hash. Templates are kept per kind
(pipeline.figures.circuit, graph, ray, diagram); `FIGURE_TEMPLATES` is all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from core.figures import FigureSpec
from core.records import (
    Difficulty,
    Draft,
    FigureRef,
    Provenance,
    QuestionFormat,
    Subject,
    SyllabusTag,
    choice_draft,
)
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, rated
from pipeline.figures.render import svg_of
from pipeline.figures.svg import figure_id_of, svg_size

FIGURE_GENERATOR = "figure"
TEMPLATE_PREFIX = "fig-"
# A template whose draws keep failing or repeating is exhausted, not an endless loop.
EXHAUSTED_AFTER = 300


@dataclass(frozen=True)
class FigureQuestion:
    """One drawn question: its figure and what it asks about it.

    `group` names what the question is about, so questions about one thing (one part of one
    diagram) are near-duplicates of each other; parametric templates leave it empty (all of a
    template's questions are then one group, like a numerical template's).
    """

    spec: FigureSpec
    caption: str
    alt: str
    format: QuestionFormat
    stem: str
    options: tuple[str, str, str, str]
    correct: str
    explanation: str
    group: str = ""
    params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class FigureTemplate:
    template_id: str  # starts with TEMPLATE_PREFIX
    subject: Subject
    topic_id: str
    demand: Demand
    draw: Callable[[int], FigureQuestion | None] = field(compare=False)

    @property
    def difficulty(self) -> Difficulty:
        return rated(self.demand)[0]


def drawn_figure(spec: FigureSpec, caption: str, alt: str) -> FigureRef:
    """A question's figure: drawn from its spec and addressed by the drawing's hash."""
    svg = svg_of(spec)
    width, height = svg_size(svg)
    return FigureRef(
        figure_id=figure_id_of(svg),
        caption=caption,
        alt=alt,
        spec=spec,
        width=width,
        height=height,
    )


def figure_ref(question: FigureQuestion) -> FigureRef:
    """The question's figure: drawn from its spec and addressed by the drawing's hash."""
    return drawn_figure(question.spec, question.caption, question.alt)


def figure_draft(template: FigureTemplate, seed: int, syllabus: Syllabus) -> Draft | None:
    """The template's draft for a seed, or None when that seed makes no question."""
    question = template.draw(seed)
    if question is None:
        return None
    return seeded_draft(
        FIGURE_GENERATOR,
        template.template_id,
        syllabus.topic(template.topic_id).tag,
        rated(template.demand),
        question,
        question.group or "all",
        seed,
        (figure_ref(question),),
    )


class Asked(Protocol):
    """What a seeded template's question asks: the fields a draft is made of."""

    @property
    def format(self) -> QuestionFormat: ...
    @property
    def stem(self) -> str: ...
    @property
    def options(self) -> tuple[str, str, str, str]: ...
    @property
    def correct(self) -> str: ...
    @property
    def explanation(self) -> str: ...
    @property
    def params(self) -> tuple[tuple[str, str], ...]: ...


def seeded_draft(
    generator: str,
    template_id: str,
    tag: SyllabusTag,
    rating: tuple[Difficulty, str],
    question: Asked,
    group: str,
    seed: int,
    figures: tuple[FigureRef, ...],
) -> Draft:
    """A seeded template's draft: the question with its difficulty and reason, its figures, and
    a provenance naming the template, the seed and what the question is about (`group`: its
    near-duplicate key)."""
    difficulty, reason = rating
    draft = choice_draft(
        tag,
        difficulty,
        reason,
        question.format,
        question.stem,
        question.options,
        question.correct,
        question.explanation,
        Provenance(
            generator=generator,
            template_id=template_id,
            params=(("key", f"{template_id}|{group}"), ("seed", str(seed)), *question.params),
        ),
    )
    if not figures:
        return draft
    content = draft.content.model_copy(update={"figures": figures})
    return draft.model_copy(update={"content": content})


def figure_drafts(template: FigureTemplate, syllabus: Syllabus, start: int = 0) -> Iterator[Draft]:
    """Drafts for seeds start, start+1, … (draws that make no question, or repeat one, skipped)."""
    return seeded_drafts(lambda seed: figure_draft(template, seed, syllabus), start)


def seeded_drafts(draft_at: Callable[[int], Draft | None], start: int = 0) -> Iterator[Draft]:
    """A seeded template's drafts for seeds start, start+1, …: a seed that makes no question, or
    repeats one already made (same stem, figures, options and key), is skipped, and
    EXHAUSTED_AFTER such seeds in a row end the stream."""
    seen: set[str] = set()
    seed, misses = start, 0
    while misses < EXHAUSTED_AFTER:
        draft = draft_at(seed)
        seed += 1
        if draft is None:
            misses += 1
            continue
        c = draft.content
        face = "\n".join(
            [c.stem_markdown, *(f.figure_id for f in c.figures), *(o.text for o in c.options)]
        )
        if face in seen:
            misses += 1
            continue
        misses = 0
        seen.add(face)
        yield draft
