"""What a worker job's pool lacks, generated: drafts of a topic or cell, verified as nightly.

The gate is the one the nightly fill uses (`pipeline.verify.gate`). Drafts whose question
already sits in the pool are passed over before the solver (they cost nothing), and a budget of
attempts per wanted question stops a generator that only refuses.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field

import polars as pl

from core.ids import question_id
from core.records import Attempt, Difficulty, Draft, Provenance, Question
from kb.syllabus import Syllabus, Topic
from pipeline.generate.drafter import Drafter
from pipeline.verify.gate import (
    Screen,
    Solver,
    judged,
    screen_refusal,
    screened_out,
    solver_view,
    unanswered,
)

NUMERICAL_GENERATOR = "offline.numerical"


def near_duplicate_group(p: Provenance, question_id: str) -> str:
    """The group a question shares with its near-duplicates (core.warehouse's SQL, in Python).

    Every variant of a numerical template is one group; a fact question's group is its relation
    plus the fact; other parametric questions group by template plus parameters. It depends on
    provenance only, so a draft's group is known before the solver is paid.
    """
    key = next((v for k, v in p.params if k == "key"), "")
    if "|" in key:
        return f"{p.template_id}#{key}"
    if p.generator == NUMERICAL_GENERATOR:
        return p.template_id
    if p.params:
        return f"{p.template_id}#" + "&".join(f"{k}={v}" for k, v in p.params)
    return question_id


def question_family(p: Provenance, question_format: str) -> str:
    """The family a paper takes one question of (core.warehouse's SQL, in Python): the template
    or fact relation with the form it asks in. A fact relation's forms are the generator's own
    (`forward`, `reverse`, `two_statements`, …: forward and reverse are both single-correct
    but ask opposite ways); any other question's form is its format."""
    form = next((v for k, v in p.params if k == "format"), question_format)
    return f"{p.template_id}|{form}"


def pool_rows(questions: Collection[Question], syllabus: Syllabus) -> pl.DataFrame:
    """Snapshot rows (site_builder.snapshot's columns) for questions not yet used anywhere."""
    rows = []
    for q in questions:
        c = q.content
        rows.append(
            {
                "question_id": q.question_id,
                "subject": c.tag.subject.value,
                "unit_id": syllabus.topic(c.tag.topic_id).unit_id,
                "topic_id": c.tag.topic_id,
                "difficulty": c.difficulty.value,
                "format": c.format.value,
                "family": question_family(q.provenance, c.format.value),
                "stem": c.stem_markdown,
                "correct_key": c.correct_key,
                "figure": bool(c.figures),
                "near_duplicate_group": near_duplicate_group(q.provenance, q.question_id),
                "withdrawn": False,
                "times_used": 0,
                "last_used": None,
                "last_daily": None,
                "template_id": q.provenance.template_id,
                "record_json": q.model_dump_json(),
            }
        )
    return pl.DataFrame(rows, schema=SNAPSHOT_SCHEMA)


SNAPSHOT_SCHEMA = pl.Schema(
    {
        "question_id": pl.String,
        "subject": pl.String,
        "unit_id": pl.String,
        "topic_id": pl.String,
        "difficulty": pl.String,
        "format": pl.String,
        "family": pl.String,
        "stem": pl.String,
        "correct_key": pl.String,
        "figure": pl.Boolean,
        "near_duplicate_group": pl.String,
        "withdrawn": pl.Boolean,
        "times_used": pl.Int32,
        "last_used": pl.String,
        "last_daily": pl.String,
        "template_id": pl.String,
        "record_json": pl.String,
    }
)


class StartAt(Mapping[str, int]):
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
    drafter: Drafter, topic: Topic, difficulty: Difficulty, start: Mapping[str, int]
) -> Iterator[Draft]:
    """The drafter's drafts for one topic at a difficulty (only that topic is drafted)."""
    stream = drafter.drafts(topic.subject, difficulty, start, topic.unit_id, topic.topic_id)
    return (d for d in stream if d.content.tag.topic_id == topic.topic_id)


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


def top_up(
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
    """Verify drafts until `wanted` new questions of new near-duplicate groups are accepted.

    `on_accept` sees each question with its attempts at once (the worker writes it to the
    outbox before it counts); `taken_groups` grows with every accepted question's group.
    """
    out = TopUp(wanted)
    seen: set[str] = set(known_ids)
    pending: list[Attempt] = []
    budget = wanted * max_attempts_per_question
    while len(out.accepted) < wanted and len(out.accepted) + out.rejected + out.unsolved < budget:
        draft = next(drafts, None)
        if draft is None:
            out.exhausted = True
            break
        draft_id = question_id(draft.content)
        if draft_id in seen:  # in the pool already, or drafted twice: no solver call
            out.passed_over += 1
            if out.passed_over > 50 * budget:  # a stream of nothing but known drafts
                out.exhausted = True
                break
            continue
        seen.add(draft_id)
        group = near_duplicate_group(draft.provenance, draft_id)
        if group in taken_groups:  # the set has this fact or template already
            out.passed_over += 1
            continue
        # The nightly's gate (`verified`), except that a solve with no reply is no attempt.
        refusal = screen_refusal(draft, screens)
        if refusal is not None:
            attempt, question = screened_out(draft, refusal), None
        else:
            answer = solver.solve(solver_view(draft))
            if unanswered(answer) is not None:
                out.unsolved += 1  # counted against the budget: a provider that is down ends it
                if on_attempt:
                    on_attempt()  # the job's heartbeat: a solve that timed out took time too
                continue
            attempt, question = judged(draft, answer)
        pending.append(attempt)
        if on_attempt:
            on_attempt()
        if question is None:
            out.rejected += 1
            continue
        taken_groups.add(group)
        attempts = tuple(pending)
        pending.clear()
        out.accepted.append((question, attempts))
        if on_accept:
            on_accept(question, attempts)
    return out
