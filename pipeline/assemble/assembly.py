"""Blueprint-exact paper assembly: daily papers and custom exams, deterministic per seed.

Per subject, choosing the questions is a network flow, not an integer program (the network
and why its maximum decides exactly: pipeline.assemble.flow). A paper exists exactly when the
maximum flow is n; a smaller maximum R proves a shortfall of n − R new questions.

Only a shortlist enters the flow: per (subject, unit, difficulty, class) bucket, the best question
of each group, and of those the best U_u. The maximum flow is unchanged (exchange argument: a
flow uses at most U_u groups of unit u, so an unused shortlisted group is always there to swap
in). A greedy pass in priority order fills the paper almost always; the flow is run only when
the greedy gets stuck, and it decides exactly. Priority: fewest papers so far, then least
recently used, then a hash of the seed and the question id.

Three rules sit outside the flow, each rarely binding: near-duplicates that cross conflict
groups (the worse is left out and the flow runs again), groups shared across subjects (a later
subject leaves what an earlier one took), and the answer-key range per letter (swaps within a
bucket after the flow; `balanced_keys`). Where they bind, a shortfall may exceed the minimum.
Last, swaps within a unit and difficulty bring the subject's multi-step questions up to the
blueprint's `multi_step_per_subject`, and its figure questions into `figures_per_subject`, where
the pool allows (`with_blueprint_counts`).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from numpy.typing import NDArray

from core.pool import UnitCell
from core.records import (
    OPTION_KEYS,
    DifficultyTally,
    Paper,
    PaperBlueprint,
    Subject,
    SubjectTally,
    UnitTally,
)
from pipeline.assemble.blueprint import FIGURE_CLASS, Blueprint
from pipeline.assemble.flow import Candidates, max_flow, one_unit_per_group
from pipeline.assemble.index import PoolIndex, index_pool
from pipeline.assemble.request import (
    DIFFICULTIES,
    SUBJECTS,
    PaperRequest,
    Shortfall,
    ShortfallError,
    daily_request,
)
from pipeline.assemble.selection import (
    MULTI_STEP,
    balanced_keys,
    flow_without_enemies,
    greedy,
    key_shortfall,
    placed_shortfall,
    swap_candidates,
    with_at_least,
)
from pipeline.assemble.shortlist import Plan, request_plan, shortlist_by_bucket


@dataclass(frozen=True)
class SubjectPool:
    """One subject's shortlisted questions, best first, and the counts its paper must meet, in
    codes (difficulty index, class code, unit code): what the greedy and the flow work on."""

    candidates: Candidates
    targets: dict[int, int]  # difficulty index → questions
    caps: dict[tuple[int, int], int]  # (difficulty index, class code) → at most
    units: dict[int, tuple[int, int]]  # unit code → (min, max)


def subject_pool(
    index: PoolIndex,
    plan: Plan,
    rows: NDArray[np.int64],
    subject: Subject,
    taken: NDArray[np.bool_],
    taken_enemies: NDArray[np.bool_],
) -> SubjectPool:
    """`subject`'s share of the shortlist `rows` (best first), without the conflict groups
    (`taken`) and near-duplicate groups (`taken_enemies`) an earlier subject took."""
    targets = {i: plan.targets[subject][d] for i, d in enumerate(DIFFICULTIES)}
    caps = {
        (DIFFICULTIES.index(d), index.classes.index(cls)): cap
        for (d, cls), cap in plan.caps[subject].items()
        if cls in index.classes
    }
    mine_rows = rows[index.subject[rows] == SUBJECTS.index(subject)]
    mine = mine_rows[~taken[index.group[mine_rows]] & ~taken_enemies[index.enemy[mine_rows]]]
    mine = mine.tolist()
    c = Candidates(
        rows=mine,
        difficulty=index.difficulty[mine].tolist(),
        klass=index.klass[mine].tolist(),
        group=index.group[mine].tolist(),
        unit=index.unit[mine].tolist(),
        tier=(plan.priority[mine] >> index.tier_shift).tolist(),
        enemy=index.enemy[mine].tolist(),
        key=index.key[mine].tolist(),
    )
    units = {
        code: bounds
        for code, bounds in plan.unit_bounds.items()
        if plan.unit_names[code][0] == subject.value
    }
    return SubjectPool(c, targets, caps, units)


def assemble_paper(
    pool: pl.DataFrame | PoolIndex,
    request: PaperRequest,
    blueprint: Blueprint,
    closed: Collection[UnitCell] = (),
) -> Paper | Shortfall:
    """The paper, or exactly what the pool is short of (per subject, unit and difficulty).

    `closed` names cells no new question can come from (their generators ran dry): the
    shortfall then avoids them, still as small as it can be, unless that leaves no way at all.
    """
    index = pool if isinstance(pool, PoolIndex) else index_pool(pool)
    plan = request_plan(index, request, blueprint)
    rows = shortlist_by_bucket(index, plan)
    rows = rows[np.argsort(plan.priority[rows])]
    unit_ids = {code: unit for code, (_, unit) in plan.unit_names.items()}
    shortfall: dict[UnitCell, int] = {}
    picked: dict[Subject, list[int]] = {}
    # A conflict group can span subjects (two relations of Botany and Zoology asking with one
    # stem): what an earlier subject took, a later one leaves.
    taken = np.zeros(int(index.group.max()) + 1 if len(index) else 0, dtype=bool)
    taken_enemies = np.zeros(int(index.enemy.max()) + 1 if len(index) else 0, dtype=bool)
    for s in request.subjects:
        sp = subject_pool(index, plan, rows, s, taken, taken_enemies)
        c, targets, caps, units = sp.candidates, sp.targets, sp.caps, sp.units
        choice = greedy(c, targets, caps, units, blueprint.answer_keys_per_letter[1])
        # The greedy's paper stands when it is complete and drew only on the least-used tier;
        # otherwise the flow decides, tier by tier, so a paper of never-used questions is found
        # whenever one exists.
        if (
            len(choice.chosen) < blueprint.questions_per_subject
            or c.tier[choice.chosen[-1]] != c.tier[0]
        ):
            c, choice = flow_without_enemies(one_unit_per_group(c), targets, caps, units)
        if len(choice.chosen) < blueprint.questions_per_subject:
            open_cells = None
            code = {unit_ids[u]: u for u in units}
            shut = {
                (code[u], DIFFICULTIES.index(d)) for (t, d, u) in closed if t == s and u in code
            }
            if shut:
                cells = {(u, i) for u in units for i in targets if (u, i) not in shut}
                rerouted = max_flow(c, targets, caps, units, cells)
                if sum(rerouted.invented.values()) + len(rerouted.chosen) == sum(targets.values()):
                    choice, open_cells = rerouted, cells
            shortfall.update(
                placed_shortfall(
                    s, choice, plan.targets[s], units, unit_ids, blueprint.unit_order, open_cells
                )
            )
            continue
        chosen = [c.rows[i] for i in choice.chosen]
        lo, hi = blueprint.answer_keys_per_letter
        keys = np.bincount(index.key[chosen], minlength=len(OPTION_KEYS))
        balanced: list[int] | None = chosen
        if keys.min() < lo or keys.max() > hi:
            # Swaps stay within the chosen questions' buckets: only those rows can come in.
            in_buckets = np.flatnonzero(plan.eligible & np.isin(index.bucket, index.bucket[chosen]))
            free = ~taken[index.group[in_buckets]] & ~taken_enemies[index.enemy[in_buckets]]
            spare = in_buckets[free]
            spare = swap_candidates(index, spare[np.argsort(plan.priority[spare])], len(chosen))
            balanced = balanced_keys(
                index, chosen, spare.tolist(), plan.priority, blueprint.answer_keys_per_letter
            )
        if balanced is not None and (
            blueprint.multi_step_per_subject
            or blueprint.figures_per_subject
            or s in blueprint.structures_per_subject
        ):
            # Swaps within the chosen questions' units and difficulties, never past a cap.
            unit_level = index.unit * len(DIFFICULTIES) + index.difficulty
            near = np.flatnonzero(plan.eligible & np.isin(unit_level, unit_level[balanced]))
            free = ~taken[index.group[near]] & ~taken_enemies[index.enemy[near]]
            spare = near[free]
            spare = spare[np.argsort(plan.priority[spare])].tolist()
            balanced = with_blueprint_counts(
                index, balanced, spare, plan.priority, blueprint, caps, s
            )
        if balanced is None:
            shortfall.update(key_shortfall(index, s, chosen, blueprint.answer_keys_per_letter))
        else:
            picked[s] = balanced
            taken[index.group[balanced]] = True
            taken_enemies[index.enemy[balanced]] = True
    if shortfall:
        return Shortfall(shortfall)
    return _paper(index, plan, request, blueprint, picked)


def with_blueprint_counts(
    index: PoolIndex,
    chosen: list[int],
    spare: list[int],
    priority: NDArray[np.uint64],
    blueprint: Blueprint,
    caps: Mapping[tuple[int, int], int],
    subject: Subject,
) -> list[int]:
    """A subject's chosen rows swapped into the blueprint's figure range, then its structure
    range, then towards its multi-step minimum, as far as the pool allows.

    Each later swap keeps the counts the earlier ones set (a figure question only for a figure
    question, a structure for a structure), so a diagram question, often of two steps, never
    crowds a paper past its figures."""
    keys = blueprint.answer_keys_per_letter
    figure = (
        index.klass == index.classes.index(FIGURE_CLASS)
        if FIGURE_CLASS in index.classes
        else np.zeros(len(index), dtype=bool)
    )
    # What a later swap must keep: 1 a figure, 2 a structure, 0 any other question.
    kept = figure.astype(np.int64) + 2 * index.structure.astype(np.int64)
    if blueprint.figures_per_subject is not None:
        lo, hi = blueprint.figures_per_subject
        chosen = with_at_least(index, chosen, spare, priority, lo, keys, caps, figure)
        plain = ~figure
        chosen = with_at_least(index, chosen, spare, priority, len(chosen) - hi, keys, caps, plain)
    if (structures := blueprint.structures_per_subject.get(subject)) is not None:
        lo, hi = structures
        fixed = figure.astype(np.int64)
        drawn, plain = index.structure, ~index.structure
        chosen = with_at_least(index, chosen, spare, priority, lo, keys, caps, drawn, fixed)
        left = len(chosen) - hi
        chosen = with_at_least(index, chosen, spare, priority, left, keys, caps, plain, fixed)
    if blueprint.multi_step_per_subject:
        need = blueprint.multi_step_per_subject
        multi = index.steps >= MULTI_STEP
        chosen = with_at_least(index, chosen, spare, priority, need, keys, caps, multi, kept)
    return chosen


def _paper(
    index: PoolIndex,
    plan: Plan,
    request: PaperRequest,
    blueprint: Blueprint,
    picked: Mapping[Subject, list[int]],
) -> Paper:
    order = blueprint.unit_order
    ids: list[str] = []
    tallies: list[SubjectTally] = []
    key_counts: Counter[str] = Counter()
    for s in request.subjects:
        unit_of = {r: index.units[index.unit[r]][1] for r in picked[s]}
        # Within a subject, syllabus unit order; within a unit, priority order.
        rows = sorted(
            picked[s], key=lambda r: (order.get(unit_of[r], len(order)), int(plan.priority[r]))
        )
        ids += [index.question_ids[r] for r in rows]
        # Every question is shown as its file shows it: the keys are the stored ones.
        key_counts.update(index.correct_key[r] for r in rows)
        by_d = Counter(DIFFICULTIES[int(index.difficulty[r])] for r in rows)
        by_u = Counter(unit_of.values())
        bounds = sorted(blueprint.units[s].items(), key=lambda kv: order.get(kv[0], len(order)))
        tallies.append(
            SubjectTally(
                subject=s,
                difficulty=tuple(
                    DifficultyTally(difficulty=d, target=plan.targets[s][d], achieved=by_d[d])
                    for d in DIFFICULTIES
                ),
                units=tuple(
                    UnitTally(unit_id=u, min=r.min, max=r.max, achieved=by_u[u]) for u, r in bounds
                ),
            )
        )
    return Paper(
        exam_id=request.exam_id,
        kind=request.kind,
        title=request.title,
        exam_date=request.exam_date,
        question_ids=tuple(ids),
        blueprint=blueprint.blueprint_id,
        composition=PaperBlueprint(
            blueprint_id=blueprint.blueprint_id,
            difficulty_distribution=tuple((d, request.distribution[d]) for d in DIFFICULTIES),
            subjects=tuple(tallies),
            answer_keys=tuple((k, key_counts[k]) for k in OPTION_KEYS),
            cooldown_since=request.cooldown_since,
            max_exposure=request.max_exposure,
        ),
    )


def daily_paper(
    pool: pl.DataFrame | PoolIndex,
    date: dt.date,
    blueprint: Blueprint,
    cooldown_since: str | None = None,
) -> Paper:
    """The paper for a date, or ShortfallError naming exactly what is missing."""
    outcome = assemble_paper(pool, daily_request(blueprint, date, cooldown_since), blueprint)
    if isinstance(outcome, Shortfall):
        raise ShortfallError(outcome.cells)
    return outcome


def paper_from_rows(
    index: PoolIndex,
    request: PaperRequest,
    blueprint: Blueprint,
    rows_by_subject: Mapping[Subject, Sequence[int]],
) -> Paper:
    """A paper from rows chosen elsewhere (the benchmark's MIP): order, keys and tallies."""
    plan = request_plan(index, request, blueprint)
    return _paper(index, plan, request, blueprint, {s: list(r) for s, r in rows_by_subject.items()})
