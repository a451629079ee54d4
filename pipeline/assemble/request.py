"""What a paper is asked for (PaperRequest: daily or custom) and what a pool too small for it
lacks (Shortfall), with the round of assembling again after new questions arrive."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from core.pool import UnitCell
from core.records import Difficulty, Paper, Subject
from pipeline.assemble.blueprint import Blueprint

SUBJECTS: tuple[Subject, ...] = tuple(Subject)
DIFFICULTIES: tuple[Difficulty, ...] = tuple(Difficulty)


@dataclass(frozen=True)
class PaperRequest:
    """One paper to assemble: its identity, subjects, difficulty shares and exposure rules."""

    exam_id: str
    kind: Literal["daily", "custom"]
    title: str
    exam_date: str | None
    subjects: tuple[Subject, ...]
    distribution: Mapping[Difficulty, float]
    seed: str
    # Daily papers: leave out questions last in a daily paper on or after this date, and
    # questions already in max_exposure papers.
    cooldown_since: str | None = None
    max_exposure: int | None = None


@dataclass(frozen=True)
class Shortfall:
    """What the pool lacks: per (subject, difficulty, unit) cell, how many new questions."""

    cells: Mapping[UnitCell, int]

    @property
    def total(self) -> int:
        return sum(self.cells.values())

    def describe(self) -> str:
        return ", ".join(f"{s.value}/{u}/{d.value}: {n}" for (s, d, u), n in self.cells.items())


def stalled_cells(before: Shortfall, after: Shortfall) -> set[UnitCell]:
    """Cells a round of generation did not help: still short of as many questions as before.

    New questions there repeat what the paper already holds (another variant of one template,
    one relation in a format the paper has), so the next shortfall should go around them.
    """
    return {cell for cell, n in after.cells.items() if n >= before.cells.get(cell, n + 1)}


def reassembled(
    before: Shortfall,
    assemble: Callable[[Collection[UnitCell]], Paper | Shortfall],
    closed: set[UnitCell],
) -> Paper | Shortfall:
    """Assemble again after a round of generation that answered `before`.

    Cells the round did not help are added to `closed` (what was made there repeats a family
    the paper already holds) and, if there are any, the shortfall is taken again around them.
    """
    outcome = assemble(closed)
    if isinstance(outcome, Shortfall):
        stalled = stalled_cells(before, outcome) - closed
        if stalled:
            closed |= stalled
            outcome = assemble(closed)
    return outcome


class ShortfallError(RuntimeError):
    """The pool cannot fill a paper; `short` says which cells lack how many questions."""

    def __init__(self, short: Mapping[UnitCell, int]) -> None:
        self.short = dict(short)
        super().__init__(f"pool is short of questions ({Shortfall(self.short).describe()})")


def daily_exam_id(date: dt.date) -> str:
    return f"daily-{date.isoformat()}"


def daily_title(date: dt.date) -> str:
    return f"NEET-UG Daily Mock Test — {date.day} {date:%B %Y}"


def daily_request(
    blueprint: Blueprint, date: dt.date, cooldown_since: str | None = None
) -> PaperRequest:
    """The daily paper's request: every subject, the blueprint's mix, cooldown and exposure cap."""
    exam_id = daily_exam_id(date)
    return PaperRequest(
        exam_id=exam_id,
        kind="daily",
        title=daily_title(date),
        exam_date=date.isoformat(),
        subjects=SUBJECTS,
        distribution=blueprint.distribution,
        seed=exam_id,
        cooldown_since=cooldown_since,
        max_exposure=blueprint.max_exposure,
    )


def custom_request(
    blueprint: Blueprint,
    exam_id: str,
    subjects: Sequence[Subject],
    distribution: Mapping[Difficulty, float],
    title: str | None = None,
) -> PaperRequest:
    """A custom exam's request: chosen subjects (in canonical order), its own difficulty mix."""
    chosen = tuple(s for s in SUBJECTS if s in set(subjects))
    if not chosen:
        raise ValueError("a custom exam needs at least one subject")
    return PaperRequest(
        exam_id=exam_id,
        kind="custom",
        title=title or f"{blueprint.title} — {', '.join(s.value for s in chosen)}",
        exam_date=None,
        subjects=chosen,
        distribution={d: float(distribution.get(d, 0.0)) for d in DIFFICULTIES},
        seed=exam_id,
    )
