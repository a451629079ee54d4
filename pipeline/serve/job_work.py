"""What a practice or exam job makes: questions from one state of the pool, and what the pool
lacks generated through the fill engine (`pipeline.fill.topup`).

The worker (`api_stub.runner`) owns the job's lifecycle, leases and files; this module decides
which questions a job gets.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from core.pool import SNAPSHOT_SCHEMA, UnitCell, near_duplicate_group, pool_rows
from core.records import Attempt, Difficulty, Paper, Question
from pipeline.assemble.assembly import assemble_paper
from pipeline.assemble.blueprint import Blueprint
from pipeline.assemble.index import PoolIndex, index_pool
from pipeline.assemble.request import PaperRequest, Shortfall
from pipeline.fill.coverage import servable_counts
from pipeline.fill.engine import CellReport
from pipeline.fill.rounds import fill_until_assembled
from pipeline.fill.topup import VariantStarts, template_counts, top_up, topic_drafts
from pipeline.generate.drafter import Drafter
from pipeline.serve.practice import practice_pick
from pipeline.serve.requests import PracticeOrder
from pipeline.verify.gate import Solver

EXAM_ROUNDS = 3  # generate the shortfall, reassemble; a cell that runs dry is closed
# Questions made beyond a cell's shortfall: a new question whose family (relation and form) the
# paper already holds cannot serve it, and without a choice the same families came back round
# after round (an exam failed one time in ten on a cell short of one).
EXAM_SPARE = 2


class PoolView:
    """One state of the servable pool, never changed: requests read it without a lock.

    Per-topic frames, the assembler's index and parsed records are built on first use and kept.
    """

    def __init__(
        self, frame: pl.DataFrame, spent: Collection[tuple[str, str]] = frozenset()
    ) -> None:
        self.frame = frame
        # (topic_id, difficulty) cells whose generators made all they can, as the last nightly
        # found (`pipeline.fill.coverage.spent_cells`): the pool is all a set of them can have.
        self.spent = frozenset(spent)
        self.ids = frozenset(frame["question_id"].to_list())
        self._topics: dict[tuple[str, str], pl.DataFrame] = {}
        self._index: list[PoolIndex] = []
        self._records: dict[str, Question] = {}

    def topic_rows(self, topic_id: str, difficulty: Difficulty) -> pl.DataFrame:
        """The pool's questions of one topic at one difficulty."""
        key = (topic_id, difficulty.value)
        if key not in self._topics:
            self._topics[key] = self.frame.filter(
                (pl.col("topic_id") == topic_id) & (pl.col("difficulty") == difficulty.value)
            )
        return self._topics[key]

    def servable(self, topic_id: str, difficulty: Difficulty) -> int:
        """Distinct questions (near-duplicate groups) a set of the topic can draw from here."""
        counts = servable_counts(self.topic_rows(topic_id, difficulty))
        return counts.get((topic_id, difficulty.value), (0, 0))[0]

    def index(self) -> PoolIndex:
        """The assembler's index of the whole pool (23 ms to build for 5,000 questions)."""
        if not self._index:
            self._index.append(index_pool(self.frame))
        return self._index[0]

    def questions(self, ids: Sequence[str]) -> list[Question]:
        """The records of pool questions, in the order asked."""
        missing = [i for i in ids if i not in self._records]
        if missing:
            found = self.frame.filter(pl.col("question_id").is_in(missing))
            for i, record in found.select("question_id", "record_json").iter_rows():
                self._records[i] = Question.model_validate_json(record)
        return [self._records[i] for i in ids]


EMPTY_POOL = pl.DataFrame(schema=SNAPSHOT_SCHEMA)


def snapshot_frame(raw: pl.DataFrame) -> pl.DataFrame:
    """A snapshot in today's columns; one written before stems were a column gets them from
    its records (the nightly's next snapshot carries them)."""
    if "stem" not in raw.columns:
        stem = pl.col("record_json").str.json_path_match("$.content.stem_markdown")
        raw = raw.with_columns(stem.alias("stem"))
    # Snapshots written before the family was a column: template and format, the family of
    # every question but a fact's (whose form the next nightly's snapshot carries).
    if "family" not in raw.columns:
        raw = raw.with_columns((pl.col("template_id") + "|" + pl.col("format")).alias("family"))
    # Snapshots written before the rubric's steps were a column: counted as single-step (the
    # next nightly's snapshot carries them).
    if "steps" not in raw.columns:
        raw = raw.with_columns(pl.lit(1, dtype=pl.Int8).alias("steps"))
    return raw.select(list(SNAPSHOT_SCHEMA)).cast(SNAPSHOT_SCHEMA)


@dataclass(frozen=True)
class Generation:
    """What a job generates with: the providers, the attempt budget, and the job's callbacks
    (each accepted question with its attempts, stored before it counts; a heartbeat per
    attempt)."""

    drafter: Drafter
    solver: Solver
    max_attempts_per_question: int
    on_accept: Callable[[Question, tuple[Attempt, ...]], None]
    on_attempt: Callable[[], None]


def practice_picked(
    view: PoolView, order: PracticeOrder, job_id: str, generated: Collection[str], earlier: int
) -> tuple[list[Question], int]:
    """The set's questions from the pool, and how many more it needs. `generated` names what
    an interrupted run of this job verified already, of which `earlier` are still to be had."""
    pool = view.frame.filter(~pl.col("question_id").is_in(list(generated)))
    topic, difficulty = order.topic, order.difficulty
    pick = practice_pick(pool, topic.topic_id, difficulty, order.count - earlier, job_id)
    return view.questions(pick.question_ids), pick.short


def practice_fresh(
    view: PoolView,
    order: PracticeOrder,
    have: Sequence[Question],
    generated: Collection[str],
    short: int,
    make: Generation,
) -> list[Question]:
    """`short` new questions of the set's topic and difficulty, none of a near-duplicate group
    the set `have`s, and none the pool or this job holds already."""
    if not short:
        return []
    groups = {near_duplicate_group(q.provenance, q.question_id) for q in have}
    starts = VariantStarts(template_counts(view.frame))
    topic = order.topic
    return top_up(
        (topic.subject, order.difficulty, topic.unit_id),
        topic_drafts(make.drafter, topic, order.difficulty, starts),
        make.solver,
        short,
        view.ids | set(generated),
        groups,
        make.max_attempts_per_question,
        on_accept=make.on_accept,
        on_attempt=make.on_attempt,
    ).questions


def exam_outcome(
    view: PoolView,
    request: PaperRequest,
    blueprint: Blueprint,
    earlier: Sequence[Question],
    make: Generation,
) -> tuple[Paper | Shortfall, list[Question]]:
    """The exam from the pool and the job's earlier questions, generating what they lack
    (`fill_until_assembled`), and the questions this run made."""
    pool = _with(view.frame, earlier)
    fresh: list[Question] = []

    def generate(cells: Mapping[UnitCell, int]) -> list[CellReport]:
        nonlocal pool
        starts = VariantStarts(template_counts(pool))
        known = set(pool["question_id"].to_list())
        # New groups within this job only: a pool question's group-mate at another difficulty
        # can still serve, since a paper takes one question per group.
        groups = {near_duplicate_group(q.provenance, q.question_id) for q in fresh}
        reports = []
        for (subject, difficulty, unit_id), n in cells.items():
            made = top_up(
                (subject, difficulty, unit_id),
                make.drafter.drafts(subject, difficulty, starts, unit_id),
                make.solver,
                n + EXAM_SPARE,
                known,
                groups,
                make.max_attempts_per_question,
                on_accept=make.on_accept,
                on_attempt=make.on_attempt,
            )
            fresh.extend(made.questions)
            # Closed to this job when it fell short, whether its drafts ran dry or its attempt
            # budget ran out: a job does not double its ask as the nightly does.
            short = made.exhausted or len(made.accepted) < n
            reports.append(
                CellReport(subject, difficulty, n, unit_id, len(made.accepted), exhausted=short)
            )
        pool = _with(pool, fresh)
        return reports

    def assemble(closed: Collection[UnitCell]) -> Paper | Shortfall:
        return assemble_paper(pool, request, blueprint, closed)

    outcome = fill_until_assembled(
        assemble_paper(pool, request, blueprint), generate, assemble, EXAM_ROUNDS, doubling=False
    )
    return outcome, fresh


def _with(pool: pl.DataFrame, questions: Sequence[Question]) -> pl.DataFrame:
    """The pool with these questions added (those it holds already are kept as they are)."""
    return pl.concat([pool, pool_rows(questions)]).unique(
        "question_id", keep="first", maintain_order=True
    )
