"""Fill the question pool to what the next paper needs, resuming where any earlier run stopped.

The pool's cells and deficits, and `fill_pool`: the fill engine (`pipeline.fill.engine`) over
the configured drafter with the warehouse as its sink.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from core.pool import TopicCell, UnitCell
from core.records import Attempt, Difficulty, Question, Subject
from core.warehouse import Warehouse
from kb.syllabus import Syllabus, Topic
from pipeline.fill.coverage import servable_counts
from pipeline.fill.engine import (
    CellReport,
    CellWork,
    Intake,
    Replayed,
    commit,
    count_verdict,
    run_fill,
)
from pipeline.fill.topup import of_topic
from pipeline.generate.drafter import CallDrafter, Drafter, Seeded
from pipeline.verify.gate import Screen, Solver

Cell = tuple[Subject, Difficulty]
# A full NEET-UG paper: 45 questions per subject in this difficulty mix.
DAILY_MIX: Mapping[Difficulty, int] = {
    Difficulty.EASY: 15,
    Difficulty.MEDIUM: 20,
    Difficulty.HARD: 10,
}
SUBJECTS: tuple[Subject, ...] = tuple(Subject)
BATCH_SIZE = 100
# Drafts a topic cell passes over (held groups, known drafts) before its source counts as dry:
# a numerical template has thousands of variants, all one group.
TOPIC_MAX_SKIPS = 2000


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


def never_used_per_unit_cell(pool: pl.DataFrame) -> dict[UnitCell, int]:
    """How many never-used questions of the frame each (subject, difficulty, unit) cell holds."""
    fresh = pool.filter(pl.col("times_used") == 0).group_by("subject", "unit_id", "difficulty")
    return {
        (Subject(r["subject"]), Difficulty(r["difficulty"]), r["unit_id"]): r["len"]
        for r in fresh.len().iter_rows(named=True)
    }


def unit_deficits(
    pool: pl.DataFrame, units: Mapping[Subject, list[str]], per_cell: int
) -> dict[UnitCell, int]:
    """How many more never-used questions each (subject, unit, difficulty) cell needs."""
    have = never_used_per_unit_cell(pool)
    cells = [(s, d, u) for s, us in units.items() for u in us for d in Difficulty]
    return {c: per_cell - have.get(c, 0) for c in cells if per_cell > have.get(c, 0)}


def topic_deficits(
    pool: pl.DataFrame, topics: Sequence[Topic], per_cell: int
) -> dict[TopicCell, int]:
    """How many more servable questions (distinct near-duplicate groups, not withdrawn) each
    topic × difficulty cell needs to hold `per_cell`: what a practice set can draw on."""
    have = servable_counts(pool)
    deficits: dict[TopicCell, int] = {}
    for t in topics:
        for d in Difficulty:
            short = per_cell - have.get((t.topic_id, d.value), (0, 0))[0]
            if short > 0:
                deficits[t.subject, d, t.unit_id, t.topic_id] = short
    return deficits


# What the figure floor counts per kind of drawing: diagrams, graphs, circuits and ray diagrams
# (the blueprint's figures_per_subject), or structural formulae (its structures_per_subject).
FIGURES = pl.col("figure") & ~pl.col("structure")
STRUCTURES = pl.col("structure")


def figure_deficits(
    pool: pl.DataFrame,
    templates: Sequence[Seeded],
    syllabus: Syllabus,
    per_template: int,
    drawn: pl.Expr = FIGURES,
    per_cell: bool = False,
) -> dict[UnitCell, int]:
    """How many more never-used `drawn` questions each (subject, difficulty, unit) cell needs to
    hold `per_template` for each template of its live topics (`per_cell`: that many in a cell
    with any such template): what papers draw their figure (or structure) questions from, used
    ones replaced nightly."""
    live = {t.topic_id for t in syllabus.live_topics()}
    wanted = Counter(
        (t.subject, t.difficulty, syllabus.topic(t.topic_id).unit_id)
        for t in templates
        if t.topic_id in live
    )
    have = never_used_per_unit_cell(pool.filter(drawn & ~pl.col("withdrawn")))
    short = {
        cell: per_template * (1 if per_cell else n) - have.get(cell, 0)
        for cell, n in wanted.items()
    }
    return {cell: n for cell, n in sorted(short.items()) if n > 0}


@dataclass(frozen=True)
class Resume:
    """Where a fill interrupted earlier tonight picks up: its work so far, replayed in order.

    `starts` (attempts per template: where each template's variants start) and `attempted`
    (draft ids) are as they were when this fill began; `outcomes` are the drafts solved since,
    each with its template, the question it became (or None) and its rejection reason. A draft
    found there is counted as it came out, not solved again, so the resumed fill walks the
    same sequence as one never interrupted.
    Its question is stored already, so `on_accept` is not called for it: screens built from
    the warehouse's questions (as the nightly builds its near-duplicate gate) have it.
    """

    starts: Mapping[str, int]
    attempted: frozenset[str]
    outcomes: Replayed


ProgressFn = Callable[[CellReport], None]


@dataclass
class _WarehouseSink:
    """Verdicts committed to the warehouse in batches of BATCH_SIZE (questions with their
    attempts), and at the end of each cell; `on_accept` sees each question at once (a
    near-duplicate gate remembers it)."""

    wh: Warehouse
    on_accept: Callable[[Question], None] | None
    on_progress: ProgressFn | None
    attempts: list[Attempt] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)

    def record(self, report: CellReport, attempt: Attempt, question: Question | None) -> None:
        count_verdict(report, attempt, question)
        self.attempts.append(attempt)
        if question is not None:
            self.questions.append(question)
            if self.on_accept:
                self.on_accept(question)
        if len(self.attempts) >= BATCH_SIZE:
            self.flush(report)

    def unsolved(self, report: CellReport) -> None:
        """No verdict, so nothing to store: a later run may solve the draft."""

    def flush(self, report: CellReport | None) -> None:
        commit(self.wh, self.attempts, self.questions)
        if report is not None and self.on_progress:
            self.on_progress(report)


def fill_pool(
    wh: Warehouse,
    drafter: Drafter,
    solver: Solver,
    deficits: Mapping[Cell, int] | Mapping[UnitCell, int] | Mapping[TopicCell, int],
    max_attempts_per_question: int = 6,
    on_progress: ProgressFn | None = None,
    screens: Sequence[Screen] = (),
    on_accept: Callable[[Question], None] | None = None,
    concurrency: int = 1,
    resume: Resume | None = None,
    held: Mapping[tuple[str, str], set[str]] | None = None,
) -> list[CellReport]:
    """Generate and verify until each cell's deficit is met or its generators run dry.

    Topic cells (`topic_deficits`) count distinct near-duplicate groups, as a practice set
    does: pass the groups the pool holds per cell as `held` (`cell_groups`), and a draft of a
    group its cell holds is passed over (the offline engine's numerical variants are one
    group, so only the first counts; an Easy and a Medium question about one fact are in
    different cells, as they are in different practice sets). Passing over costs the offline
    engine nothing, so it does not spend the cell's attempt budget there; a model's draft was
    paid for, so it does.

    Work is committed in small batches (questions with their attempts), and drafts already put to
    the solver in any earlier run (or earlier in this one) are skipped, so a killed run never pays
    twice for one solve. With a `CallDrafter` and `concurrency` > 1, up to that many calls run
    at once (`pipeline.fill.engine.run_fill`); a killed run loses at most those calls and one
    uncommitted batch. Otherwise drafts are drafted and solved one by one, in order.
    """
    attempted = set(resume.attempted) if resume else wh.attempted_draft_ids()
    starts = dict(resume.starts) if resume else wh.attempt_counts()
    # A model drafter goes call by call, so each refused draft is counted in its cell.
    caller = drafter if isinstance(drafter, CallDrafter) else None

    def sources(r: CellReport) -> Iterator[Any]:
        if caller:
            return caller.pending(r.subject, r.difficulty, starts, r.unit_id, r.topic_id)
        drafts = drafter.drafts(r.subject, r.difficulty, starts, r.unit_id, r.topic_id)
        return drafts if r.topic_id is None else of_topic(drafts, r.topic_id)

    cells = [
        CellWork(
            CellReport(
                cell[0],
                cell[1],
                needed,
                cell[2] if len(cell) >= 3 else None,
                topic_id=cell[3] if len(cell) == 4 else None,
            ),
            needed * max_attempts_per_question,
            skips_spend_budget=caller is not None or held is None,
            max_skips=None if caller is not None or held is None else TOPIC_MAX_SKIPS,
            groups=set(held.get((cell[3], cell[1].value), ()))
            if held is not None and len(cell) == 4
            else None,
        )
        for cell, needed in deficits.items()
    ]
    return run_fill(
        cells,
        sources,
        solver,
        Intake(attempted),
        _WarehouseSink(wh, on_accept, on_progress),
        screens=screens,
        caller=caller,
        concurrency=concurrency,
        replayed=resume.outcomes if resume else None,
        stopped=lambda: getattr(drafter, "stopped", None),
    )
