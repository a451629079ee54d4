"""The canonical, immutable records: questions, drafts, attempts and papers."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from core.figures import FigureSpec
from core.record import Record

OptionKey = Literal["A", "B", "C", "D"]
OPTION_KEYS: tuple[OptionKey, ...] = ("A", "B", "C", "D")


class Subject(StrEnum):
    PHYSICS = "Physics"
    CHEMISTRY = "Chemistry"
    BOTANY = "Botany"
    ZOOLOGY = "Zoology"


class Difficulty(StrEnum):
    EASY = "Easy"
    MEDIUM = "Medium"
    HARD = "Hard"


class QuestionFormat(StrEnum):
    SINGLE_CORRECT = "single_correct"
    NUMERICAL = "numerical"
    INCORRECT_PAIR = "incorrect_pair"
    TWO_STATEMENTS = "two_statements"
    MATCH_LIST = "match_list"
    HOW_MANY_CORRECT = "how_many_correct"
    ASSERTION_REASON = "assertion_reason"
    # Several lettered statements; options are the NTA's codes ("A, B and D only").
    MULTI_STATEMENT = "multi_statement"
    # Items to arrange in order; options are orderings ("B, A, D, C").
    ORDERING = "ordering"


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class Option(Record):
    key: OptionKey
    text: str = Field(min_length=1, description="Markdown with LaTeX math")


def keyed_options(texts: Sequence[str]) -> tuple[Option, Option, Option, Option]:
    """Four option texts keyed A–D in the order given."""
    a, b, c, d = (Option(key=k, text=t) for k, t in zip(OPTION_KEYS, texts, strict=True))
    return a, b, c, d


class FigureRef(Record):
    """A figure a question shows.

    A knowledge-store figure a model's draft cites has an id and a caption only. A question
    figure drawn from data also has its `spec` (everything a student reads off the picture, and
    all the solver may read of it) and its `alt` text for screen readers; its id is the content
    hash of the SVG drawn from the spec (pipeline.figures.render).
    """

    figure_id: str
    caption: str
    alt: str = ""
    spec: FigureSpec | None = None
    # The drawing's size in CSS pixels, so a page reserves its space before the image loads.
    width: int = Field(default=0, ge=0)
    height: int = Field(default=0, ge=0)


class SyllabusTag(Record):
    subject: Subject
    unit_id: str
    chapter_id: str
    topic_id: str
    topic_name: str


class QuestionContent(Record):
    """What a question says: the part its id is derived from."""

    tag: SyllabusTag
    difficulty: Difficulty
    difficulty_reason: str
    format: QuestionFormat
    stem_markdown: str = Field(min_length=1)
    options: tuple[Option, Option, Option, Option]
    correct_key: OptionKey
    explanation_markdown: str = Field(min_length=1)
    figures: tuple[FigureRef, ...] = ()

    @model_validator(mode="after")
    def _options_well_formed(self) -> QuestionContent:
        keys = tuple(o.key for o in self.options)
        if keys != OPTION_KEYS:
            raise ValueError(f"options must be keyed A, B, C, D in order, got {keys}")
        texts = [o.text.strip() for o in self.options]
        if len(set(texts)) != len(texts):
            raise ValueError("options must be four distinct texts")
        return self

    def option(self, key: str) -> Option:
        return next(o for o in self.options if o.key == key)

    def comparable_text(self) -> str:
        """What near-duplicate checks compare: the stem and the options."""
        return self.stem_markdown + "\n" + "\n".join(o.text for o in self.options)


class Provenance(Record):
    """Where a draft came from: never shown to the solver."""

    generator: str
    template_id: str
    context_ids: tuple[str, ...] = ()
    params: tuple[tuple[str, str], ...] = ()


class Draft(Record):
    """A candidate question before the adversarial solver has seen it."""

    content: QuestionContent
    provenance: Provenance


class SolverView(Record):
    """All the solver may see: no key, no explanation, no generator reasoning."""

    subject: Subject
    topic_id: str
    format: QuestionFormat
    template_id: str
    stem_markdown: str
    options: tuple[Option, Option, Option, Option]
    # The figures the stem refers to, with their specs: what a student reads off the picture.
    figures: tuple[FigureRef, ...] = ()


class SolverAnswer(Record):
    solver: str
    choice: OptionKey | None
    confidence: float = Field(ge=0.0, le=1.0)
    note: str = ""


class SolverVerdict(Record):
    solver: str
    choice: OptionKey
    confidence: float


class Question(Record):
    """A stored question: immutable, addressed by the hash of its content."""

    question_id: str
    content: QuestionContent
    provenance: Provenance
    verdict: SolverVerdict


class Attempt(Record):
    """One draft put to the solver, with the outcome (accepted or a named rejection reason)."""

    attempt_id: str
    draft_id: str
    subject: Subject
    topic_id: str
    difficulty: Difficulty
    format: QuestionFormat
    generator: str
    template_id: str
    solver: str
    solver_choice: OptionKey | None
    solver_confidence: float
    verdict: Verdict
    rejection_reason: str | None
    question_id: str | None


class DifficultyTally(Record):
    difficulty: Difficulty
    target: int
    achieved: int


class UnitTally(Record):
    unit_id: str
    min: int
    max: int
    achieved: int


class SubjectTally(Record):
    subject: Subject
    difficulty: tuple[DifficultyTally, ...]
    units: tuple[UnitTally, ...]


class PaperBlueprint(Record):
    """What a paper was assembled to, and what it achieved, per subject."""

    blueprint_id: str
    difficulty_distribution: tuple[tuple[Difficulty, float], ...]
    subjects: tuple[SubjectTally, ...]
    answer_keys: tuple[tuple[OptionKey, int], ...]
    # Daily papers only: questions last in a daily paper on or after this date were left out,
    # and so were questions already in `max_exposure` papers.
    cooldown_since: str | None = None
    max_exposure: int | None = None


IDENTITY_ORDER = "ABCD"


class Paper(Record):
    """An ordered selection of stored questions."""

    exam_id: str
    kind: Literal["daily", "custom"]
    title: str
    exam_date: str | None
    question_ids: tuple[str, ...]
    blueprint: str = Field(description="Id of the blueprint (or name of the mix) it was built to")
    # Per item, the stored option keys in the order the paper shows them ("CBAD": the paper's
    # option A is the stored option C). Papers built from 2026-11-26 on leave it empty: every
    # question is shown as its file shows it. Papers published before keep the orders they
    # were published with (they are immutable too); papers from before option orders: empty.
    option_orders: tuple[str, ...] = ()
    composition: PaperBlueprint | None = None

    @model_validator(mode="after")
    def _orders_well_formed(self) -> Paper:
        if self.option_orders and len(self.option_orders) != len(self.question_ids):
            raise ValueError("option_orders must have one entry per question")
        bad = [o for o in self.option_orders if sorted(o) != list(IDENTITY_ORDER)]
        if bad:
            raise ValueError(f"option orders must be permutations of ABCD, got {bad[:3]}")
        return self

    def option_order(self, position: int) -> str:
        """The option order of the item at a 0-based position (as stored when none recorded)."""
        return self.option_orders[position] if self.option_orders else IDENTITY_ORDER


OUTBOX_PREFIX = "internal/outbox/"


class OutboxEntry(Record):
    """A question the worker verified between nightly runs, with the attempts that led to it."""

    question: Question
    attempts: tuple[Attempt, ...] = ()


def outbox_key(question_id: str) -> str:
    return f"{OUTBOX_PREFIX}{question_id}"


def choice_draft(
    tag: SyllabusTag,
    difficulty: Difficulty,
    difficulty_reason: str,
    question_format: QuestionFormat,
    stem: str,
    options: Sequence[str],
    correct: str,
    explanation: str,
    provenance: Provenance,
) -> Draft:
    """A draft whose four option texts are keyed A–D in the order given, `correct` among them."""
    content = QuestionContent(
        tag=tag,
        difficulty=difficulty,
        difficulty_reason=difficulty_reason,
        format=question_format,
        stem_markdown=stem,
        options=keyed_options(options),
        correct_key=OPTION_KEYS[list(options).index(correct)],
        explanation_markdown=explanation,
    )
    return Draft(content=content, provenance=provenance)
