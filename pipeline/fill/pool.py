"""Fill the question pool to what the next paper needs, resuming where any earlier run stopped.

With a drafter whose drafts are model calls, up to `concurrency` calls (drafts and solves
together) run at once in a thread pool; everything else (skipping known drafts, screens, the
verdict, commits) happens in the calling thread, one result at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from core.ids import question_id
from core.records import Attempt, Difficulty, Draft, Question, SolverAnswer, Subject
from core.warehouse import Warehouse
from pipeline.generate.drafter import CallDrafter, Drafter
from pipeline.verify.gate import (
    Screen,
    Solver,
    judged,
    rescreened,
    screen_refusal,
    screened_out,
    solver_view,
    unanswered,
)

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
    """What filling one cell did. `reasons` counts rejected attempts by kind, and also drafts
    left unsolved because the solver's reply never came (`solver_unreachable`, in `unsolved`:
    no attempt is recorded for them, so a later run may solve them)."""

    subject: Subject
    difficulty: Difficulty
    needed: int
    unit_id: str | None = None
    accepted: int = 0
    rejected: int = 0
    skipped: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    exhausted: bool = False
    unsolved: int = 0
    # Model drafts refused before any solve (not JSON, HTML, a transport failure, …), by reason.
    refused: Counter[str] = field(default_factory=Counter)
    # Why the drafter stopped giving drafts early (`token_budget`, `provider_unavailable`).
    stopped: str | None = None
    drafts: list[str] = field(default_factory=list)  # drafts taken, in order (not skipped ones)
    made: list[str] = field(default_factory=list)  # the questions it counts as accepted


@dataclass(frozen=True)
class Resume:
    """Where a fill interrupted earlier tonight picks up: its work so far, replayed in order.

    `start` (attempts per template) and `attempted` (draft ids) are as they were when this fill
    began; `outcomes` are the drafts solved since, each with its template, the question it
    became (or None) and its rejection reason. A draft found there is counted as it came out,
    not solved again, so the resumed fill walks the same sequence as one never interrupted.
    Its question is stored already, so `on_accept` is not called for it: screens built from
    the warehouse's questions (as the nightly builds its near-duplicate gate) have it.
    """

    start: Mapping[str, int]
    attempted: frozenset[str]
    outcomes: Mapping[str, tuple[str, str | None, str | None]]


ProgressFn = Callable[[CellReport], None]
UNSOLVED = "solver_unreachable"


@dataclass
class _CellState:
    """A cell being filled: its report, its source of drafts (or calls) and its work under way."""

    report: CellReport
    budget: int
    source: Iterator[Any] | None = None
    in_flight: int = 0
    dry: bool = False
    finished: bool = False

    def wants_work(self) -> bool:
        """Whether one more draft may start: work under way could still fall short of the need,
        and the attempt budget (skips and unsolved drafts count) is not used up."""
        r = self.report
        used = r.accepted + r.rejected + r.skipped + r.unsolved + self.in_flight
        return not self.dry and r.accepted + self.in_flight < r.needed and used < self.budget


class _Inline(Executor):
    """Runs each task at once in the calling thread: the sequential fill (offline, or 1 call)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # raised to the caller when it reads the result
            future.set_exception(exc)
        return future


def fill_pool(
    wh: Warehouse,
    drafter: Drafter,
    solver: Solver,
    deficits: Mapping[Cell, int] | Mapping[UnitCell, int],
    max_attempts_per_question: int = 6,
    on_progress: ProgressFn | None = None,
    screens: Sequence[Screen] = (),
    on_accept: Callable[[Question], None] | None = None,
    concurrency: int = 1,
    resume: Resume | None = None,
) -> list[CellReport]:
    """Generate and verify until each cell's deficit is met or its generators run dry.

    Work is committed in small batches (questions with their attempts), and drafts already put to
    the solver in any earlier run (or earlier in this one) are skipped, so a killed run never pays
    twice for one solve. `on_accept` sees each verified question at once (a near-duplicate gate
    remembers it).

    With a `CallDrafter` and `concurrency` > 1, up to that many calls run at once, drafts and
    solves together, spread over the cells in order. The overshoot is nil: each draft or solve
    under way can add at most one question, and a cell starts no draft once its accepted
    questions plus its work under way cover its need, so no cell stores more than it needs and
    no call is started that a cell could not use. What concurrency does add is bounded by the
    calls under way: a spent token budget stops new drafts at once, but the drafts under way
    (at most `concurrency`) still come back and are solved; a killed run loses at most those
    calls and one uncommitted batch. Otherwise (the offline drafter, or `concurrency` 1) drafts
    are drafted and solved one by one, in order.
    """
    attempted = set(resume.attempted) if resume else wh.attempted_draft_ids()
    progress = dict(resume.start) if resume else wh.attempt_counts()
    outcomes = resume.outcomes if resume else {}
    # A model drafter goes call by call, so each refused draft is counted in its cell.
    caller = drafter if isinstance(drafter, CallDrafter) else None
    width = max(1, concurrency) if caller else 1
    cells = [
        _CellState(
            CellReport(cell[0], cell[1], needed, cell[2] if len(cell) == 3 else None),
            needed * max_attempts_per_question,
        )
        for cell, needed in deficits.items()
    ]
    attempts: list[Attempt] = []
    questions: list[Question] = []
    running: dict[Future[Any], tuple[_CellState, Draft | None]] = {}

    def source(cell: _CellState) -> Iterator[Any]:
        if cell.source is None:
            r = cell.report
            if caller:
                cell.source = caller.pending(r.subject, r.difficulty, progress, r.unit_id)
            else:
                cell.source = drafter.drafts(r.subject, r.difficulty, progress, r.unit_id)
        return cell.source

    def take(cell: _CellState, draft: Draft, pool: Executor) -> None:
        """A new draft: skipped if solved before, refused by a screen, or sent to the solver."""
        draft_id = question_id(draft.content)
        if draft_id in attempted:  # solved in an earlier run: never pay for it twice
            cell.report.skipped += 1
            return
        attempted.add(draft_id)
        cell.report.drafts.append(draft_id)
        if draft_id in outcomes:  # solved earlier in this interrupted fill: count it as it came
            replayed(cell, *outcomes[draft_id][1:])
            return
        refusal = screen_refusal(draft, screens)
        if refusal is not None:
            record(cell, screened_out(draft, refusal), None)
            return
        cell.in_flight += 1
        running[pool.submit(solver.solve, solver_view(draft))] = (cell, draft)

    def replayed(cell: _CellState, made: str | None, reason: str | None) -> None:
        report = cell.report
        if made is not None:  # stored already: screens built from the warehouse know it
            report.accepted += 1
            report.made.append(made)
        else:
            report.rejected += 1
            report.reasons[(reason or "").split(":")[0]] += 1

    def record(cell: _CellState, attempt: Attempt, question: Question | None) -> None:
        report = cell.report
        attempts.append(attempt)
        if question is not None:
            questions.append(question)
            report.accepted += 1
            report.made.append(question.question_id)
            if on_accept:
                on_accept(question)
        else:
            report.rejected += 1
            report.reasons[(attempt.rejection_reason or "").split(":")[0]] += 1
        if len(attempts) >= BATCH_SIZE:
            _commit(wh, attempts, questions)
            if on_progress:
                on_progress(report)

    def solved(cell: _CellState, draft: Draft, answer: SolverAnswer) -> None:
        if unanswered(answer) is not None:  # no verdict: leave no record, a later run may retry
            cell.report.unsolved += 1
            cell.report.reasons[UNSOLVED] += 1
            return
        verdict = judged(draft, answer)
        # With solves under way at once, a twin may have been accepted after this draft passed
        # the screens; one at a time, the screens already saw every earlier acceptance.
        record(cell, *(rescreened(draft, verdict, screens) if width > 1 else verdict))

    def start_work(pool: Executor) -> None:
        """Start drafts, cell by cell in order, while there is room and a cell wants one; close
        each cell that wants nothing more and has nothing under way."""
        for cell in cells:
            while len(running) < width and cell.wants_work():
                item = next(source(cell), None)
                if item is None:
                    cell.dry = True
                elif caller:
                    cell.in_flight += 1
                    running[pool.submit(caller.draft, item)] = (cell, None)
                else:
                    take(cell, item, pool)
            if not cell.finished and cell.in_flight == 0 and not cell.wants_work():
                cell.finished = True
                report = cell.report
                report.exhausted = cell.dry and report.accepted < report.needed
                report.stopped = getattr(drafter, "stopped", None) if report.exhausted else None
                _commit(wh, attempts, questions)
                if on_progress:
                    on_progress(report)
            if len(running) >= width:
                return

    executor: Executor = ThreadPoolExecutor(width, "fill-pool") if width > 1 else _Inline()
    try:
        with executor as pool:
            while True:
                start_work(pool)
                if not running:
                    break
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in [f for f in running if f in done]:  # in the order they started
                    cell, draft = running.pop(future)
                    cell.in_flight -= 1
                    result = future.result()
                    if draft is not None:
                        solved(cell, draft, result)
                    elif isinstance(result, Draft):
                        take(cell, result, pool)
                    else:  # the call gave no draft: the drafter's rejection, named here too
                        cell.report.refused[_refusal(result)] += 1
    finally:  # an unexpected error still keeps the verdicts already paid for
        _commit(wh, attempts, questions)
    return [cell.report for cell in cells]


def _refusal(result: object) -> str:
    """A refused draft's reason, as the drafter names it (a transport failure with its outcome)."""
    reason = getattr(getattr(result, "reason", None), "value", "no_draft")
    detail = getattr(result, "detail", "")
    return f"{reason}: {detail}" if reason == "transport" and detail else str(reason)


def _commit(wh: Warehouse, attempts: list[Attempt], questions: list[Question]) -> None:
    with wh.transaction():
        wh.insert_questions(questions)
        wh.insert_attempts(attempts)
    attempts.clear()
    questions.clear()
