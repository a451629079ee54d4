"""The one fill engine: cells → drafts → intake → screens → solve → judge → sink.

Every fill in qforge runs these steps: the nightly's pool fill and `qforge pool fill`
(`pipeline.fill.pool`, a warehouse sink), the worker's top-up of a practice set or exam
(`pipeline.fill.topup`, an outbox sink), and the Batch API fill (`pipeline.fill.batch`, which
runs the same intake and verdict over two batches instead of one call at a time).

How the steps run is the executor's business: one draft at a time in the calling thread (the
offline engine, or one model call), or up to `concurrency` model calls at once in a thread pool.
Everything but the calls (intake, screens, verdicts, the sink) happens in the calling thread,
one result at a time, so a sink needs no lock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.ids import question_id
from core.pool import near_duplicate_group
from core.records import Attempt, Difficulty, Draft, Question, SolverAnswer, Subject
from core.warehouse import Warehouse
from pipeline.generate.drafter import CallDrafter
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

# A draft left unsolved because the solver's reply never came: no attempt is recorded, so a
# later run may solve it.
UNSOLVED = "solver_unreachable"


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
    topic_id: str | None = None
    rejected: int = 0
    # Drafts passed over before any solve: solved in an earlier run, or (the worker) of a
    # near-duplicate group the set already holds.
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


@dataclass
class Intake:
    """Which drafts go on to the screens: never one solved before, nor (when `groups` is kept)
    one of a near-duplicate group already taken. Both sets grow as the fill goes."""

    known: set[str]
    groups: set[str] | None = None

    def passed_over(self, draft: Draft, draft_id: str) -> bool:
        """Whether to pass the draft over; a draft not passed over is known from now on."""
        if draft_id in self.known:  # solved before (or already a question): never paid twice
            return True
        self.known.add(draft_id)
        if self.groups is None:
            return False
        return near_duplicate_group(draft.provenance, draft_id) in self.groups

    def accepted(self, question: Question) -> None:
        if self.groups is not None:
            self.groups.add(near_duplicate_group(question.provenance, question.question_id))


def verdict(
    draft: Draft, answer: SolverAnswer, screens: Sequence[Screen], rescreen: bool
) -> tuple[Attempt, Question | None] | None:
    """The attempt a solve makes of a draft, with its question when confirmed; None when the
    solver's reply never came (no verdict, so nothing is recorded). With solves under way at
    once (`rescreen`), a twin may have been accepted after this draft passed the screens, so
    a confirmed draft is screened again."""
    if unanswered(answer) is not None:
        return None
    outcome = judged(draft, answer)
    return rescreened(draft, outcome, screens) if rescreen else outcome


class Sink(Protocol):
    """Where a fill's verdicts go: the warehouse in batches, or the worker's outbox."""

    def record(self, report: CellReport, attempt: Attempt, question: Question | None) -> None: ...

    def unsolved(self, report: CellReport) -> None: ...

    def flush(self, report: CellReport | None) -> None: ...


def commit(wh: Warehouse, attempts: list[Attempt], questions: list[Question]) -> None:
    """Questions with their attempts in one transaction; the lists are emptied."""
    with wh.transaction():
        wh.insert_questions(questions)
        wh.insert_attempts(attempts)
    attempts.clear()
    questions.clear()


@dataclass
class CellWork:
    """A cell being filled: its report, its attempt budget and its work under way."""

    report: CellReport
    budget: int
    # Whether drafts passed over spend the budget (the nightly: a model draft passed over was
    # still paid for), or only up to `max_skips` of them are looked at (the worker).
    skips_spend_budget: bool = True
    max_skips: int | None = None
    # The near-duplicate groups the cell holds, when it counts distinct groups (a topic cell,
    # as a practice set counts): a draft of one of them is passed over.
    groups: set[str] | None = None
    source: Iterator[Any] | None = None
    in_flight: int = 0
    dry: bool = False
    finished: bool = False

    def wants_work(self) -> bool:
        """Whether one more draft may start: work under way could still fall short of the need,
        and the attempt budget is not used up. Past `max_skips` drafts passed over (known, or
        of a group taken), the cell's source counts as dry."""
        r = self.report
        used = r.accepted + r.rejected + r.unsolved + self.in_flight
        used += r.skipped if self.skips_spend_budget else 0
        if self.max_skips is not None and r.skipped > self.max_skips:
            self.dry = True  # a stream of nothing but known drafts
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


# Drafts an interrupted fill solved already: draft id → (template, question made or None,
# rejection reason or None).
Replayed = Mapping[str, tuple[str, str | None, str | None]]


def run_fill(
    cells: Sequence[CellWork],
    sources: Callable[[CellReport], Iterator[Any]],
    solver: Solver,
    intake: Intake,
    sink: Sink,
    *,
    screens: Sequence[Screen] = (),
    caller: CallDrafter | None = None,
    concurrency: int = 1,
    replayed: Replayed | None = None,
    stopped: Callable[[], str | None] = lambda: None,
) -> list[CellReport]:
    """Take drafts cell by cell, in order, until each cell's need is met or its drafts or
    budget run out; every verdict goes to the sink.

    `sources` gives a cell's drafts (or, with a `caller`, the calls that make them).
    `replayed` holds drafts an interrupted run of this fill already solved (template, question
    made or None, rejection reason): they are counted as they came out, never solved again.

    With a `caller` and `concurrency` > 1, up to that many calls run at once, drafts and solves
    together. The overshoot is nil: each draft or solve under way can add at most one question,
    and a cell starts no draft once its accepted questions plus its work under way cover its
    need, so no cell stores more than it needs and no call is started that a cell could not
    use. A spent token budget stops new drafts at once, but the calls under way (at most
    `concurrency`) still come back and are solved.
    """
    width = max(1, concurrency) if caller else 1
    running: dict[Future[Any], tuple[CellWork, Draft | None]] = {}
    outcomes = replayed or {}

    def take(cell: CellWork, draft: Draft, pool: Executor) -> None:
        """A new draft: passed over, replayed, refused by a screen, or sent to the solver."""
        draft_id = question_id(draft.content)
        group = near_duplicate_group(draft.provenance, draft_id)
        if intake.passed_over(draft, draft_id) or (
            cell.groups is not None and group in cell.groups
        ):
            cell.report.skipped += 1
            return
        cell.report.drafts.append(draft_id)
        if draft_id in outcomes:  # solved earlier in this interrupted fill: count it as it came
            _, made, reason = outcomes[draft_id]
            _count(cell.report, made, reason)
            if made is not None and cell.groups is not None:
                cell.groups.add(group)
            return
        refusal = screen_refusal(draft, screens)
        if refusal is not None:
            sink.record(cell.report, screened_out(draft, refusal), None)
            return
        cell.in_flight += 1
        running[pool.submit(solver.solve, solver_view(draft))] = (cell, draft)

    def solved(cell: CellWork, draft: Draft, answer: SolverAnswer) -> None:
        outcome = verdict(draft, answer, screens, rescreen=width > 1)
        if outcome is None:  # no verdict: leave no record, a later run may retry
            cell.report.unsolved += 1
            cell.report.reasons[UNSOLVED] += 1
            sink.unsolved(cell.report)
            return
        attempt, question = outcome
        if question is not None:
            intake.accepted(question)
            if cell.groups is not None:
                cell.groups.add(near_duplicate_group(question.provenance, question.question_id))
        sink.record(cell.report, attempt, question)

    def start_work(pool: Executor) -> None:
        """Start drafts, cell by cell in order, while there is room and a cell wants one; close
        each cell that wants nothing more and has nothing under way."""
        for cell in cells:
            while len(running) < width and cell.wants_work():
                if cell.source is None:
                    cell.source = sources(cell.report)
                item = next(cell.source, None)
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
                report.stopped = stopped() if report.exhausted else None
                sink.flush(report)
            if len(running) >= width:
                return

    executor: Executor = ThreadPoolExecutor(width, "fill") if width > 1 else _Inline()
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
                        cell.report.refused[refusal_name(result)] += 1
    finally:  # an unexpected error still keeps the verdicts already paid for
        sink.flush(None)
    return [cell.report for cell in cells]


def _count(report: CellReport, made: str | None, reason: str | None) -> None:
    if made is not None:  # stored already: screens built from the warehouse know it
        report.accepted += 1
        report.made.append(made)
    else:
        report.rejected += 1
        report.reasons[rejection_kind(reason)] += 1


def rejection_kind(reason: str | None) -> str:
    """A rejection's kind: its reason before the colon (`hygiene`, `near_duplicate_own`, …)."""
    return (reason or "").split(":")[0]


def count_verdict(report: CellReport, attempt: Attempt, question: Question | None) -> None:
    """A verdict in its cell's report."""
    _count(report, question.question_id if question else None, attempt.rejection_reason)


def refusal_name(result: object) -> str:
    """A refused draft's reason, as the drafter names it (a transport failure with its outcome)."""
    reason = getattr(getattr(result, "reason", None), "value", "no_draft")
    detail = getattr(result, "detail", "")
    return f"{reason}: {detail}" if reason == "transport" and detail else str(reason)
