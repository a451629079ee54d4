"""Paper blueprints as versioned data (`data/blueprints/*.json`): what every paper must contain.

A blueprint fixes, per subject: the question count, the difficulty distribution (turned into counts
by the largest-remainder method), a min–max count per syllabus unit, and caps per difficulty on
question classes. A question's class is `structure` when it shows structural formulae, else `figure`
when it shows a figure, else its format; caps are shares of that difficulty's count, rounded down.
Keeping every question under at most one cap, and caps within one difficulty, is what lets the
assembler solve a paper as a network flow, exactly (see pipeline/assemble/flow.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from pydantic import Field

from core.records import Difficulty, QuestionFormat, Record, Subject
from kb.syllabus import Syllabus

BLUEPRINTS_DIR = Path("blueprints")
DEFAULT_BLUEPRINT = "neet-ug-v1"
FIGURE_CLASS = "figure"
STRUCTURE_CLASS = "structure"
QUESTION_CLASSES = frozenset({FIGURE_CLASS, STRUCTURE_CLASS, *(f.value for f in QuestionFormat)})
DISTRIBUTION_TOLERANCE = 1e-6


class BlueprintError(ValueError):
    """A blueprint file or request that cannot describe a paper."""


class DailyRules(Record):
    cooldown_papers: int = Field(ge=0)
    max_exposure: int = Field(ge=1)


class BlueprintFile(Record):
    blueprint_id: str
    exam_type: str
    title: str
    syllabus_id: str
    source_note: str
    questions_per_subject: int = Field(ge=1)
    difficulty_distribution: dict[str, float]
    class_caps: dict[str, dict[str, float]]
    daily: DailyRules
    units: dict[Subject, dict[str, tuple[int, int]]]
    # Per subject, how many of its questions may have each letter as their key (stored order:
    # a question is shown as its file shows it, so balance comes from choosing questions).
    answer_keys_per_letter: tuple[int, int] = (8, 14)
    # Per subject, how many questions should be multi-step or multi-concept (two or more steps
    # by the difficulty rubric): reached by swaps within a unit and difficulty where the pool
    # allows (pipeline.assemble.selection.with_at_least), never a reason for no paper.
    multi_step_per_subject: int = Field(default=0, ge=0)
    # Per subject, at least and at most this many questions with a figure: reached by swaps
    # within a unit and difficulty, never past a figure cap, where the pool allows
    # (pipeline.assemble.selection.with_at_least), never a reason for no paper.
    figures_per_subject: tuple[int, int] | None = None
    # Per subject, at least and at most this many questions showing structural formulae,
    # reached the same way (and never changing the figure count).
    structures_per_subject: dict[Subject, tuple[int, int]] = Field(default_factory=dict)


@dataclass(frozen=True)
class UnitRange:
    min: int
    max: int


@dataclass(frozen=True)
class Blueprint:
    """A validated blueprint, with the live topics and unit order of its syllabus."""

    blueprint_id: str
    title: str
    questions_per_subject: int
    distribution: Mapping[Difficulty, float]
    units: Mapping[Subject, Mapping[str, UnitRange]]
    class_caps: Mapping[Difficulty, Mapping[str, Fraction]]
    cooldown_papers: int
    max_exposure: int
    live_topics: frozenset[str]
    unit_order: Mapping[str, int]
    answer_keys_per_letter: tuple[int, int] = (8, 14)
    multi_step_per_subject: int = 0
    figures_per_subject: tuple[int, int] | None = None
    structures_per_subject: Mapping[Subject, tuple[int, int]] = field(default_factory=dict)


def parse_distribution(raw: Mapping[str, float]) -> dict[Difficulty, float]:
    """Shares per difficulty from keys in any case; each in [0, 1], summing to 1 (±1e-6)."""
    by_name = {d.value.lower(): d for d in Difficulty}
    out: dict[Difficulty, float] = {}
    for key, share in raw.items():
        d = by_name.get(str(key).lower())
        if d is None or d in out:
            raise BlueprintError(f"difficulty {key!r} is not one of Easy, Medium, Hard (once)")
        if not 0.0 <= float(share) <= 1.0:
            raise BlueprintError(f"share of {d.value} must be between 0 and 1, got {share}")
        out[d] = float(share)
    if abs(sum(out.values()) - 1.0) > DISTRIBUTION_TOLERANCE:
        raise BlueprintError(f"difficulty shares must add up to 1, got {sum(out.values())}")
    return {d: out.get(d, 0.0) for d in Difficulty}


def difficulty_counts(
    distribution: Mapping[Difficulty, float], total: int
) -> dict[Difficulty, int]:
    """Counts summing to total by the largest-remainder method (ties: Easy, Medium, Hard)."""
    shares = {d: Fraction(str(distribution.get(d, 0.0))) for d in Difficulty}
    whole = sum(shares.values())
    quotas = {d: s * total / whole for d, s in shares.items()}
    counts = {d: int(q) for d, q in quotas.items()}
    by_remainder = sorted(Difficulty, key=lambda d: -(quotas[d] - counts[d]))  # stable sort
    for d in by_remainder[: total - sum(counts.values())]:
        counts[d] += 1
    return counts


def exam_difficulty_counts(
    distribution: Mapping[Difficulty, float], subjects: int, per_subject: int
) -> list[dict[Difficulty, int]]:
    """Counts per subject whose totals are the whole exam's largest-remainder counts.

    The exam is apportioned first (90 questions at 0.3/0.5/0.2 are 27/45/18), then split: each
    subject starts from its own largest-remainder counts, and where those add up to more or
    less than the exam's, subjects in order trade one question from an over-counted difficulty
    to an under-counted one until the totals agree. No subject moves more than one question
    away from its own rounding on any difficulty.
    """
    whole = difficulty_counts(distribution, subjects * per_subject)
    split = [difficulty_counts(distribution, per_subject) for _ in range(subjects)]
    over = [d for d in Difficulty for _ in range(sum(c[d] for c in split) - whole[d])]
    under = [d for d in Difficulty for _ in range(whole[d] - sum(c[d] for c in split))]
    for k, (give, take) in enumerate(zip(over, under, strict=True)):
        counts = split[k % subjects]
        counts[give] -= 1
        counts[take] += 1
    return split


def class_caps(
    blueprint: Blueprint, counts: Mapping[Difficulty, int]
) -> dict[tuple[Difficulty, str], int]:
    """Per (difficulty, class): at most this many questions of one subject."""
    return {
        (d, cls): int(share * counts[d])
        for d, caps in blueprint.class_caps.items()
        for cls, share in caps.items()
    }


def question_class(format: str, figure: bool, structure: bool) -> str:
    """The class a question is capped under: `structure` if it shows structural formulae (notation,
    not a diagram: counted apart), else `figure` if it shows a figure, else its format."""
    return STRUCTURE_CLASS if structure else FIGURE_CLASS if figure else format


def _validated(spec: BlueprintFile, syllabus: Syllabus) -> Blueprint:
    if spec.syllabus_id != syllabus.source.syllabus_id:
        raise BlueprintError(
            f"{spec.blueprint_id} is for syllabus {spec.syllabus_id}, "
            f"not {syllabus.source.syllabus_id}"
        )
    distribution = parse_distribution(spec.difficulty_distribution)
    caps: dict[Difficulty, dict[str, Fraction]] = {}
    for name, shares in spec.class_caps.items():
        d = next((x for x in Difficulty if x.value.lower() == name.lower()), None)
        unknown = set(shares) - QUESTION_CLASSES
        if d is None or unknown:
            raise BlueprintError(f"class caps: unknown difficulty or classes {name} {unknown}")
        caps[d] = {cls: Fraction(str(share)) for cls, share in shares.items()}
    units: dict[Subject, dict[str, UnitRange]] = {}
    n = spec.questions_per_subject
    for subject in Subject:
        live = {t.unit_id for t in syllabus.live_topics(subject)}
        given = spec.units.get(subject, {})
        if set(given) != live:
            raise BlueprintError(
                f"{subject.value}: ranges must cover exactly the units with live topics; "
                f"missing {sorted(live - set(given))}, extra {sorted(set(given) - live)}"
            )
        ranges = {u: UnitRange(lo, hi) for u, (lo, hi) in given.items()}
        if any(not 0 <= r.min <= r.max for r in ranges.values()):
            raise BlueprintError(f"{subject.value}: every range needs 0 <= min <= max")
        if not sum(r.min for r in ranges.values()) <= n <= sum(r.max for r in ranges.values()):
            raise BlueprintError(f"{subject.value}: unit ranges cannot add up to {n}")
        units[subject] = ranges
    return Blueprint(
        blueprint_id=spec.blueprint_id,
        title=spec.title,
        questions_per_subject=n,
        distribution=distribution,
        units=units,
        class_caps=caps,
        cooldown_papers=spec.daily.cooldown_papers,
        max_exposure=spec.daily.max_exposure,
        live_topics=frozenset(t.topic_id for t in syllabus.live_topics()),
        unit_order=syllabus.unit_order(),
        answer_keys_per_letter=spec.answer_keys_per_letter,
        multi_step_per_subject=min(spec.multi_step_per_subject, n),
        figures_per_subject=None
        if spec.figures_per_subject is None
        else _count_range("figures_per_subject", spec.figures_per_subject, n),
        structures_per_subject={
            s: _count_range(f"structures_per_subject[{s.value}]", r, n)
            for s, r in spec.structures_per_subject.items()
        },
    )


def _count_range(name: str, given: tuple[int, int], n: int) -> tuple[int, int]:
    lo, hi = given
    if not 0 <= lo <= hi <= n:
        raise BlueprintError(f"{name} needs 0 <= min <= max <= {n}, got {given}")
    return lo, hi


def load_blueprint(
    data_dir: Path, syllabus: Syllabus, blueprint_id: str = DEFAULT_BLUEPRINT
) -> Blueprint:
    """The bundled blueprint, validated against the syllabus."""
    raw = json.loads((data_dir / BLUEPRINTS_DIR / f"{blueprint_id}.json").read_text("utf-8"))
    return _validated(BlueprintFile.model_validate(raw), syllabus)
