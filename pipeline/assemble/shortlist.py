"""A request resolved against the pool index: which rows it may use, in what priority, and the
shortlist that enters the flow (per bucket, the best question of each group, the best U_u)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.records import Difficulty, Subject
from pipeline.assemble.blueprint import Blueprint, class_caps, exam_difficulty_counts
from pipeline.assemble.index import PoolIndex, seeded_hash
from pipeline.assemble.request import DIFFICULTIES, PaperRequest


@dataclass(frozen=True)
class Plan:
    """A request resolved against a blueprint and an index."""

    targets: dict[Subject, dict[Difficulty, int]]
    caps: dict[Subject, dict[tuple[Difficulty, str], int]]  # zero caps too: no such question
    unit_bounds: dict[int, tuple[int, int]]  # unit code → (min, max), units of chosen subjects
    unit_names: dict[int, tuple[str, str]]  # unit code → (subject, unit_id)
    eligible: NDArray[np.bool_]
    priority: NDArray[np.uint64]  # smaller is better; unique per row; ineligible: index.invalid


def request_plan(index: PoolIndex, request: PaperRequest, blueprint: Blueprint) -> Plan:
    # The whole exam is apportioned first, then split across subjects (README, "Difficulty").
    split = exam_difficulty_counts(
        request.distribution, len(request.subjects), blueprint.questions_per_subject
    )
    targets = dict(zip(request.subjects, split, strict=True))
    caps = {s: class_caps(blueprint, targets[s]) for s in request.subjects}
    # Every unit of the chosen subjects, also those with no question in the pool (codes past
    # the index's own): their minimums count too.
    codes = {name: code for code, name in enumerate(index.units)}
    unit_bounds: dict[int, tuple[int, int]] = {}
    unit_names: dict[int, tuple[str, str]] = {}
    for s in request.subjects:
        for unit, r in blueprint.units[s].items():
            code = codes.setdefault((s.value, unit), len(codes))
            unit_bounds[code] = (r.min, r.max)
            unit_names[code] = (s.value, unit)
    unit_ok = np.zeros(len(codes), dtype=bool)
    unit_ok[np.array(list(unit_bounds), dtype=np.int64)] = True
    topic_ok = np.fromiter((t in blueprint.live_topics for t in index.topics), bool)
    # A (difficulty, class) no chosen subject can take makes its rows ineligible.
    class_ok = np.zeros((len(DIFFICULTIES), max(1, len(index.classes))), dtype=bool)
    for s in request.subjects:
        for i, d in enumerate(DIFFICULTIES):
            for j, cls in enumerate(index.classes):
                class_ok[i, j] |= targets[s][d] > 0 and caps[s].get((d, cls)) != 0
    # Unit and class rules hold per bucket: decide them for the few buckets, then look them up.
    bucket_ok = unit_ok[index.bucket_unit] & class_ok[index.bucket_difficulty, index.bucket_class]
    eligible = bucket_ok[index.bucket] & topic_ok[index.topic] & ~index.withdrawn
    if request.cooldown_since is not None:
        since = (dt.date.fromisoformat(request.cooldown_since) - dt.date(1970, 1, 1)).days
        eligible &= index.last_daily < since
    if request.max_exposure is not None:
        eligible &= index.times_used < request.max_exposure
    shuffled = seeded_hash(index.id_word, request.seed) >> np.uint64(64 - index.hash_bits)
    priority = index.base_priority | (shuffled << np.uint64(index.index_bits))
    priority[~eligible] = index.invalid
    return Plan(targets, caps, unit_bounds, unit_names, eligible, priority)


def eligible_rows(
    index: PoolIndex, request: PaperRequest, blueprint: Blueprint
) -> NDArray[np.int64]:
    """Rows of every question the request may use (withdrawn, deleted, cooling down: out)."""
    return np.flatnonzero(request_plan(index, request, blueprint).eligible)


def shortlist_by_bucket(index: PoolIndex, plan: Plan) -> NDArray[np.int64]:
    """Rows of the shortlist: per bucket, the best row of each group, the best U_u of them."""
    if not len(index):
        return np.zeros(0, dtype=np.int64)
    best = np.minimum.reduceat(plan.priority, index.run_starts)  # per (bucket, group) run
    valid = best != index.invalid
    keys = np.sort(index.run_bucket_key[valid] | best[valid])  # by bucket, then priority
    bucket_shift = np.uint64(64 - index.bucket_bits)
    buckets = (keys >> bucket_shift).astype(np.int64)
    position = np.arange(len(keys))
    is_start = np.ones(len(keys), dtype=bool)
    is_start[1:] = buckets[1:] != buckets[:-1]
    starts = np.maximum.accumulate(np.where(is_start, position, 0))
    unit_max = np.zeros(len(index.units), dtype=np.int64)
    for code, (_, hi) in plan.unit_bounds.items():
        if code < len(unit_max):
            unit_max[code] = hi
    keep = position - starts < unit_max[index.bucket_unit][buckets]
    rank_mask = np.uint64((1 << index.index_bits) - 1)
    return index.row_of_rank[(keys[keep] & rank_mask).astype(np.int64)]


def shortlisted_rows(
    index: PoolIndex, request: PaperRequest, blueprint: Blueprint
) -> NDArray[np.int64]:
    """The exact shortlist's rows (see the module docstring), best first."""
    plan = request_plan(index, request, blueprint)
    rows = shortlist_by_bucket(index, plan)
    return rows[np.argsort(plan.priority[rows])]
