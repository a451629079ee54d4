"""Fill the question pool to what the next paper needs, resuming where any earlier run stopped."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import polars as pl

from core.ids import question_id
from core.records import Attempt, Difficulty, Question, Subject
from core.warehouse import Warehouse
from pipeline.generation import Drafter, Screen, Solver, verified

Cell = tuple[Subject, Difficulty]
# A finer cell: one syllabus unit's questions of a subject at a difficulty.
UnitCell = tuple[Subject, Difficulty, str]
# A full NEET-UG paper: 45 questions per subject in this difficulty mix.
DAILY_MIX: Mapping[Difficulty, int] = {
    Difficulty.EASY: 15,
    Difficulty.MEDIUM: 20,
    Difficulty.HARD: 10,
}
SUBJECTS: tuple[Subject, ...] = tuple(Subject)
BATCH_SIZE = 100


def paper_needs(mix: Mapping[Difficulty, int] = DAILY_MIX) -> dict[Cell, int]:
    return {(s, d): n for s in SUBJECTS for d, n in mix.items()}


def pool_deficits(pool: pl.DataFrame, needs: Mapping[Cell, int]) -> dict[Cell, int]:
    """How many more never-used questions each cell needs (cells already full are left out)."""
    fresh = pool.filter(pl.col("times_used") == 0).group_by("subject", "difficulty").len()
    have = {
        (Subject(r["subject"]), Difficulty(r["difficulty"])): r["len"]
        for r in fresh.iter_rows(named=True)
    }
    return {cell: n - have.get(cell, 0) for cell, n in needs.items() if n > have.get(cell, 0)}


def unit_deficits(
    pool: pl.DataFrame, units: Mapping[Subject, list[str]], per_cell: int
) -> dict[UnitCell, int]:
    """How many more never-used questions each (subject, unit, difficulty) cell needs."""
    fresh = pool.filter(pl.col("times_used") == 0).group_by("subject", "unit_id", "difficulty")
    have = {
        (Subject(r["subject"]), Difficulty(r["difficulty"]), r["unit_id"]): r["len"]
        for r in fresh.len().iter_rows(named=True)
    }
    cells = [(s, d, u) for s, us in units.items() for u in us for d in Difficulty]
    return {c: per_cell - have.get(c, 0) for c in cells if per_cell > have.get(c, 0)}


@dataclass
class CellReport:
    subject: Subject
    difficulty: Difficulty
    needed: int
    unit_id: str | None = None
    accepted: int = 0
    rejected: int = 0
    skipped: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    exhausted: bool = False


ProgressFn = Callable[[CellReport], None]


def fill_pool(
    wh: Warehouse,
    drafter: Drafter,
    solver: Solver,
    deficits: Mapping[Cell, int] | Mapping[UnitCell, int],
    max_attempts_per_question: int = 6,
    on_progress: ProgressFn | None = None,
    screens: Sequence[Screen] = (),
    on_accept: Callable[[Question], None] | None = None,
) -> list[CellReport]:
    """Generate and verify until each cell's deficit is met or its generators run dry.

    Work is committed in small batches (questions with their attempts), and drafts already put to
    the solver in any earlier run are skipped, so a killed run never pays twice for one solve.
    `on_accept` sees each verified question at once (a near-duplicate gate remembers it).
    """
    attempted = wh.attempted_draft_ids()
    progress = wh.attempt_counts()
    reports = []
    for cell, needed in deficits.items():
        subject, difficulty = cell[0], cell[1]
        unit_id = cell[2] if len(cell) == 3 else None
        report = CellReport(subject, difficulty, needed, unit_id)
        budget = needed * max_attempts_per_question
        attempts: list[Attempt] = []
        questions: list[Question] = []
        drafts = drafter.drafts(subject, difficulty, progress, unit_id)
        # Skips count toward the budget too: a generator that only repeats itself must stop.
        while (
            report.accepted < needed and report.accepted + report.rejected + report.skipped < budget
        ):
            draft = next(drafts, None)
            if draft is None:
                report.exhausted = True
                break
            draft_id = question_id(draft.content)
            if draft_id in attempted:  # solved in an earlier run: never pay for it twice
                report.skipped += 1
                continue
            attempted.add(draft_id)
            attempt, question = verified(draft, solver, screens)
            attempts.append(attempt)
            if question is not None:
                questions.append(question)
                report.accepted += 1
                if on_accept:
                    on_accept(question)
            else:
                report.rejected += 1
                report.reasons[(attempt.rejection_reason or "").split(":")[0]] += 1
            if len(attempts) >= BATCH_SIZE:
                _commit(wh, attempts, questions)
                if on_progress:
                    on_progress(report)
        _commit(wh, attempts, questions)
        if on_progress:
            on_progress(report)
        reports.append(report)
    return reports


def _commit(wh: Warehouse, attempts: list[Attempt], questions: list[Question]) -> None:
    with wh.transaction():
        wh.insert_questions(questions)
        wh.insert_attempts(attempts)
    attempts.clear()
    questions.clear()
