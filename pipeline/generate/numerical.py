"""Parametric numerical templates (Physics, physical Chemistry) and the drafts they produce.

Each template states its quantities with units, samples them from realistic ranges, computes the
answer by its own formula, and builds distractors from named mistakes. It also declares the
physical relation as an equation: the solver answers from that relation and the numbers it reads
in the stem, never from the generator's computation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

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

    def tex(self, shown: float, *, given: bool) -> str:
        number = tex_given(shown) if given else tex_number(shown, ANSWER_SIG_FIGS)
        unit = self.unit if self.unit.startswith("^") else f"\\ {self.unit}" if self.unit else ""
        return f"${self.label} = {number}{unit}$" if given else f"${number}{unit}$"


def span(low: float, high: float, step: float) -> tuple[float, ...]:
    """Evenly spaced sample values low, low+step, …, high (rounded to dodge float noise)."""
    n = round((high - low) / step)
    return tuple(round(low + i * step, 10) for i in range(n + 1))


@dataclass(frozen=True)
class NumericalTemplate:
    template_id: str
    subject: Subject
    topic_id: str
    difficulty: Difficulty
    difficulty_reason: str
    givens: tuple[Quantity, ...]
    unknown: Quantity
    relation: str
    compute: Callable[[Params], float]
    mistakes: tuple[tuple[str, Callable[[Params], float]], ...]
    stem: str
    method: str
    accept: Callable[[Params], bool] = lambda p: True

    def sample(self, rng: random.Random) -> dict[str, float] | None:
        """Shown values of every given (None when the draw is physically meaningless)."""
        for _ in range(200):  # rejection sampling; `accept` may keep only a few combinations
            shown = {q.symbol: rng.choice(q.choices) for q in self.givens}
            if self.accept(self.si(shown)):
                return shown
        return None

    def si(self, shown: Mapping[str, float]) -> dict[str, float]:
        return {q.symbol: shown[q.symbol] * q.si for q in self.givens}


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
    except (ZeroDivisionError, ValueError):
        return None
    if not math.isfinite(answer) or answer == 0:
        return None
    chosen: list[tuple[str, float]] = []
    values = [answer]
    for name, mistake in template.mistakes:
        try:
            v = round_sig(mistake(si) / template.unknown.si, ANSWER_SIG_FIGS)
        except (ZeroDivisionError, ValueError):
            continue
        if math.isfinite(v) and v != 0 and (v > 0) == (answer > 0) and _distinct(values, v):
            chosen.append((name, v))
            values.append(v)
    for factor in (2.0, 0.5, 10.0, 0.1, 4.0, 0.25, 1.5):
        if len(chosen) >= 3:
            break
        v = round_sig(answer * factor, ANSWER_SIG_FIGS)
        if _distinct(values, v):
            chosen.append((f"scale slip ×{factor:g}", v))
            values.append(v)
    if len(chosen) < 3:
        return None
    option_values = [answer] + [v for _, v in chosen[:3]]
    rng.shuffle(option_values)
    options = keyed_options([template.unknown.tex(v, given=False) for v in option_values])
    correct_key = OPTION_KEYS[option_values.index(answer)]
    stem = template.stem.format(
        **{q.symbol: q.tex(shown[q.symbol], given=True) for q in template.givens}
    )
    answer_tex = template.unknown.tex(answer, given=False)
    values_tex = {q.symbol: tex_given(shown[q.symbol]) for q in template.givens}
    explanation = (
        template.method.format(**values_tex, answer=answer_tex)
        + "\n\nCommon slips behind the other options: "
        + "; ".join(
            f"{name} gives {template.unknown.tex(v, given=False)}" for name, v in chosen[:3]
        )
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
        params=tuple(sorted((k, repr(v)) for k, v in shown.items())),
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
