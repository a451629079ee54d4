"""What a worker job's pool lacks, generated: drafts of a topic or cell, through the fill engine.

The engine and gate are the nightly's (`pipeline.fill.engine`). Drafts whose question already
sits in the pool, or whose near-duplicate group the set holds, are passed over before the solver
(they cost nothing), and a budget of attempts per wanted question stops a generator that only
refuses. Each accepted question goes out at once with the attempts that led to it (the worker
writes it to the outbox before it counts).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field

import polars as pl

from core.records import Attempt, Difficulty, Draft, Question, Subject
from kb.syllabus import Topic
from pipeline.fill.engine import CellReport, CellWork, Intake, count_verdict, run_fill
from pipeline.generate.drafter import Drafter
from pipeline.verify.gate import Screen, Solver

# How many known drafts per budgeted attempt a top-up looks at before it calls a stream dry.
MIN_BUDGETED = 3
SKIPS_PER_ATTEMPT = 50


class VariantStarts(Mapping[str, int]):
    """Where each generator starts: a parametric template past the variants the pool has."""

    def __init__(self, counts: Mapping[str, int]) -> None:
        self._counts = dict(counts)

    def __getitem__(self, template_id: str) -> int:
        return self._counts.get(template_id, 0)

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)


def template_counts(pool: pl.DataFrame) -> dict[str, int]:
    """Questions per template in the pool: where a top-up's numericals start."""
    counts = pool.group_by("template_id").len()
    return dict(zip(counts["template_id"].to_list(), counts["len"].to_list(), strict=True))


def topic_drafts(
    drafter: Drafter, topic: Topic, difficulty: Difficulty, starts: Mapping[str, int]
) -> Iterator[Draft]:
    """The drafter's drafts for one topic at a difficulty (only that topic is drafted)."""
    stream = drafter.drafts(topic.subject, difficulty, starts, topic.unit_id, topic.topic_id)
    return of_topic(stream, topic.topic_id)


def of_topic(drafts: Iterator[Draft], topic_id: str) -> Iterator[Draft]:
    """The drafts filed under the topic (a model drafter may stray from the one asked for)."""
    return (d for d in drafts if d.content.tag.topic_id == topic_id)


@dataclass
class TopUp:
    """What one top-up produced: each accepted question with the attempts that led to it."""

    wanted: int
    accepted: list[tuple[Question, tuple[Attempt, ...]]] = field(default_factory=list)
    rejected: int = 0
    unsolved: int = 0  # no solver reply (a transport failure): no attempt, no verdict
    passed_over: int = 0
    exhausted: bool = False

    @property
    def questions(self) -> list[Question]:
        return [q for q, _ in self.accepted]


@dataclass
class _OutboxSink:
    """Verdicts bundled per accepted question: its attempts (rejected drafts included) go out
    with it. Every attempt, answered or not, is a heartbeat (a slow provider is alive)."""

    out: TopUp
    on_accept: Callable[[Question, tuple[Attempt, ...]], None] | None
    on_attempt: Callable[[], None] | None
    pending: list[Attempt] = field(default_factory=list)

    def record(self, report: CellReport, attempt: Attempt, question: Question | None) -> None:
        count_verdict(report, attempt, question)
        self.pending.append(attempt)
        if self.on_attempt:
            self.on_attempt()
        if question is not None:
            attempts = tuple(self.pending)
            self.pending.clear()
            self.out.accepted.append((question, attempts))
            if self.on_accept:
                self.on_accept(question, attempts)

    def unsolved(self, report: CellReport) -> None:
        if self.on_attempt:
            self.on_attempt()  # the job's heartbeat: a solve that timed out took time too

    def flush(self, report: CellReport | None) -> None:
        """Nothing to write: each question went out when it was accepted."""


def top_up(
    cell: tuple[Subject, Difficulty, str | None],
    drafts: Iterator[Draft],
    solver: Solver,
    wanted: int,
    known_ids: Collection[str],
    taken_groups: set[str],
    max_attempts_per_question: int,
    screens: tuple[Screen, ...] = (),
    on_accept: Callable[[Question, tuple[Attempt, ...]], None] | None = None,
    on_attempt: Callable[[], None] | None = None,
) -> TopUp:
    """Verify drafts of one cell (subject, difficulty, unit if any) until `wanted` new questions
    of new near-duplicate groups are accepted.

    `on_accept` sees each question with its attempts at once; `taken_groups` grows with every
    accepted question's group. A solve with no reply counts against the budget (a provider that
    is down ends the top-up) but records nothing.
    """
    out = TopUp(wanted)
    # A job does not double its ask as the nightly does, so a small ask gets the attempts of
    # MIN_BUDGETED: one Hard question on six attempts fell short a few times in a hundred.
    budget = max(wanted, MIN_BUDGETED) * max_attempts_per_question
    work = CellWork(
        CellReport(*cell[:2], wanted, cell[2]),
        budget,
        skips_spend_budget=False,
        max_skips=SKIPS_PER_ATTEMPT * budget,
    )
    (report,) = run_fill(
        [work],
        lambda _: drafts,
        solver,
        Intake(set(known_ids), taken_groups),
        _OutboxSink(out, on_accept, on_attempt),
        screens=screens,
    )
    out.rejected = report.rejected
    out.unsolved = report.unsolved
    out.passed_over = report.skipped
    out.exhausted = report.exhausted
    return out
