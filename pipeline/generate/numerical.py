"""Parametric numerical templates (Physics, physical Chemistry) and the drafts they produce.

Each template states its quantities with units, samples them from realistic ranges, computes the
answer by its own formula, and builds every distractor from a named mistake a student makes at
some step. It also declares the physical relations as equations: a chain of steps (each finding
one intermediate quantity, each from a concept it names) and the final relation. The solver
answers from those relations and the numbers it reads in the stem, never from the generator's
computation.

A template declares its demand (`pipeline.difficulty.Demand`); the rubric, not the template,
names its difficulty.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from core.ids import canonical_json
from core.records import (
    OPTION_KEYS,
    Difficulty,
    Draft,
    Provenance,
    QuestionContent,
    QuestionFormat,
    Subject,
    keyed_options,
)
from kb.syllabus import Syllabus
from pipeline.difficulty import Demand, difficulty_reason, rated
from pipeline.quantities.numbers import round_sig, tex_given, tex_number

GENERATOR = "offline.numerical"
ANSWER_SIG_FIGS = 3
# Options closer than this to each other could be confused after rounding, so they are dropped.
MIN_SEPARATION = 0.05
# Consecutive failed or repeated draws after which a template counts as used up.
EXHAUSTED_AFTER = 300

Params = Mapping[str, float]


@dataclass(frozen=True)
class Quantity:
    """A named quantity: TeX label, unit, factor from the shown unit to SI, and how to sample it."""

    symbol: str
    label: str
    unit: str = ""
    si: float = 1.0
    choices: tuple[float, ...] = ()
    # The physically possible range of the quantity in its shown unit (an efficiency: 0 to 100
    # per cent): an option outside it is a giveaway (pipeline.verify.giveaway).
    bounds: tuple[float, float] | None = None

    def tex(self, shown: float, *, given: bool) -> str:
        number = tex_given(shown) if given else tex_number(shown, ANSWER_SIG_FIGS)
        unit = self.unit if self.unit.startswith("^") else f"\\ {self.unit}" if self.unit else ""
        return f"${self.label} = {number}{unit}$" if given else f"${number}{unit}$"


def span(low: float, high: float, step: float) -> tuple[float, ...]:
    """Evenly spaced sample values low, low+step, …, high (rounded to dodge float noise)."""
    n = round((high - low) / step)
    return tuple(round(low + i * step, 10) for i in range(n + 1))


class Mistake(NamedTuple):
    """A slip a student makes at some step, and the value it leads to (from SI givens, in SI).

    `unit_slip`: the mistake is a unit slip inside one step (centimetres left as metres), the
    only kind of distractor allowed more than a factor of 10 from the key.
    """

    name: str
    compute: Callable[[Params], float]
    unit_slip: bool = False


def unit_slip(name: str, compute: Callable[[Params], float]) -> Mistake:
    return Mistake(name, compute, unit_slip=True)


@dataclass(frozen=True)
class Step:
    """One step of a chain: the relation (a sympy equation) that gives the quantity `finds` from
    the givens and earlier steps, and the concept it applies. `compute` is the generator's own
    value of it (from SI givens), shown in the explanation only."""

    finds: Quantity
    relation: str
    concept: str
    compute: Callable[[Params], float] | None = None


@dataclass(frozen=True)
class NumericalTemplate:
    template_id: str
    subject: Subject
    topic_id: str
    demand: Demand
    reason: str
    givens: tuple[Quantity, ...]
    unknown: Quantity
    relation: str
    compute: Callable[[Params], float]
    mistakes: tuple[Mistake | tuple[str, Callable[[Params], float]], ...]
    stem: str
    method: str
    accept: Callable[[Params], bool] = lambda p: True
    # Steps before the final relation, in order; each finds one intermediate quantity.
    chain: tuple[Step, ...] = ()
    # The concept the final relation applies (chain templates name one per step).
    concept: str = ""
    # Givens drawn together, one row at a time (a nuclide's Z, A and mass): their names, and
    # the rows; each row's values must be among the givens' own choices.
    joint: tuple[tuple[str, ...], tuple[tuple[float, ...], ...]] = ((), ())

    @property
    def difficulty(self) -> Difficulty:
        return rated(self.demand)[0]

    @property
    def difficulty_reason(self) -> str:
        return difficulty_reason(self.demand, self.reason)

    @property
    def named_mistakes(self) -> tuple[Mistake, ...]:
        return tuple(m if isinstance(m, Mistake) else Mistake(*m) for m in self.mistakes)

    @property
    def concepts(self) -> tuple[str, ...]:
        """The distinct concepts the steps apply, in order (empty for a one-relation template)."""
        named = [s.concept for s in self.chain] + ([self.concept] if self.concept else [])
        return tuple(dict.fromkeys(named))

    def sample(self, rng: random.Random) -> dict[str, float] | None:
        """Shown values of every given (None when the draw is physically meaningless)."""
        names, rows = self.joint
        for _ in range(200):  # rejection sampling; `accept` may keep only a few combinations
            shown = {q.symbol: rng.choice(q.choices) for q in self.givens if q.symbol not in names}
            if names:
                shown |= dict(zip(names, rng.choice(rows), strict=True))
            if self.accept(self.si(shown)):
                return shown
        return None

    def si(self, shown: Mapping[str, float]) -> dict[str, float]:
        return {q.symbol: shown[q.symbol] * q.si for q in self.givens}


# Demands most one-relation templates declare.
ONE_STEP = Demand()
REVERSED = Demand(reversed=True)
TWO_STEPS = Demand(steps=2)


# The provenance entry naming each distractor's mistake: the giveaway screen reads it.
DISTRACTORS_PARAM = "~distractors"
BOUNDS_PARAM = "~bounds"


def distractors_param(unknown: Quantity, chosen: list[tuple[Mistake, float]]) -> str:
    """Each distractor's option text, its mistake and whether that mistake is a unit slip."""
    return canonical_json([[unknown.tex(v, given=False), m.name, m.unit_slip] for m, v in chosen])


def _distinct(values: list[float], x: float) -> bool:
    return all(abs(x - v) > MIN_SEPARATION * max(abs(x), abs(v)) for v in values)


def numerical_draft(template: NumericalTemplate, seed: int, syllabus: Syllabus) -> Draft | None:
    """The draft for one seed, or None when no sound question comes from that draw."""
    rng = random.Random(f"{template.template_id}:{seed}")
    shown = template.sample(rng)
    if shown is None:
        return None
    si = template.si(shown)
    try:
        answer = round_sig(template.compute(si) / template.unknown.si, ANSWER_SIG_FIGS)
        steps_tex = {
            s.finds.symbol: tex_number(s.compute(si) / s.finds.si, ANSWER_SIG_FIGS)
            for s in template.chain
            if s.compute is not None
        }
    except (ArithmeticError, ValueError):
        return None
    if not math.isfinite(answer) or answer == 0:
        return None
    # Every distractor is a named mistake (no filler): a draw whose mistakes do not give three
    # distinct values makes no question.
    chosen: list[tuple[Mistake, float]] = []
    values = [answer]
    for mistake in template.named_mistakes:
        try:
            v = round_sig(mistake.compute(si) / template.unknown.si, ANSWER_SIG_FIGS)
        except (ZeroDivisionError, ValueError, OverflowError):
            continue
        if math.isfinite(v) and v != 0 and (v > 0) == (answer > 0) and _distinct(values, v):
            chosen.append((mistake, v))
            values.append(v)
    if len(chosen) < 3:
        return None
    chosen = chosen[:3]
    option_values = [answer] + [v for _, v in chosen]
    rng.shuffle(option_values)
    options = keyed_options([template.unknown.tex(v, given=False) for v in option_values])
    correct_key = OPTION_KEYS[option_values.index(answer)]
    stem = template.stem.format(
        **{q.symbol: q.tex(shown[q.symbol], given=True) for q in template.givens}
    )
    answer_tex = template.unknown.tex(answer, given=False)
    values_tex = {q.symbol: tex_given(shown[q.symbol]) for q in template.givens}
    explanation = (
        template.method.format(**values_tex, **steps_tex, answer=answer_tex)
        + "\n\nCommon slips behind the other options: "
        + "; ".join(f"{m.name} gives {template.unknown.tex(v, given=False)}" for m, v in chosen)
        + "."
    )
    content = QuestionContent(
        tag=syllabus.topic(template.topic_id).tag,
        difficulty=template.difficulty,
        difficulty_reason=template.difficulty_reason,
        format=QuestionFormat.NUMERICAL,
        stem_markdown=stem,
        options=options,
        correct_key=correct_key,
        explanation_markdown=explanation,
    )
    provenance = Provenance(
        generator=GENERATOR,
        template_id=template.template_id,
        params=tuple(sorted((k, repr(v)) for k, v in shown.items()))
        + ((DISTRACTORS_PARAM, distractors_param(template.unknown, chosen)),)
        + (
            ((BOUNDS_PARAM, canonical_json(list(template.unknown.bounds))),)
            if template.unknown.bounds
            else ()
        ),
    )
    return Draft(content=content, provenance=provenance)


def numerical_drafts(
    template: NumericalTemplate, syllabus: Syllabus, start: int = 0
) -> Iterator[Draft]:
    """Drafts for seeds start, start+1, … (draws that make no sound question are skipped)."""
    seen: set[str] = set()
    seed, misses = start, 0
    # A template whose draws keep failing or repeating is exhausted, not an endless loop.
    while misses < EXHAUSTED_AFTER:
        draft = numerical_draft(template, seed, syllabus)
        seed += 1
        if draft is None or draft.content.stem_markdown in seen:
            misses += 1
            continue
        misses = 0
        seen.add(draft.content.stem_markdown)
        yield draft
