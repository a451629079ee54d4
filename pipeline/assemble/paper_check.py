"""An independent check of a paper against its blueprint and the pool it was assembled from.

It shares no code with the assembler (its own largest-remainder counts, caps and eligibility),
so the tests and the assembly benchmark can trust a clean result.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import polars as pl

from core.records import OPTION_KEYS, Difficulty, Paper, Subject
from pipeline.assemble.blueprint import Blueprint, question_class


def _counts(shares: dict[Difficulty, float], total: int) -> dict[Difficulty, int]:
    exact = {d: Fraction(str(shares.get(d, 0.0))) for d in Difficulty}
    whole = sum(exact.values())
    quota = {d: exact[d] * total / whole for d in Difficulty}
    floors = {d: int(q) for d, q in quota.items()}
    left = total - sum(floors.values())
    for d in sorted(Difficulty, key=lambda x: (-(quota[x] - floors[x]), list(Difficulty).index(x)))[
        :left
    ]:
        floors[d] += 1
    return floors


def violations(paper: Paper, pool: pl.DataFrame, blueprint: Blueprint) -> list[str]:
    """Every way the paper breaks its blueprint or the pool's rules; empty when it breaks none.

    `pool` is the pool as it was when the paper was assembled (before the paper was stored).
    """
    c = paper.composition
    if c is None:
        return ["the paper records no blueprint composition"]
    out: list[str] = []
    if c.blueprint_id != blueprint.blueprint_id or paper.blueprint != blueprint.blueprint_id:
        out.append(f"built to {c.blueprint_id}, checked against {blueprint.blueprint_id}")
    n = blueprint.questions_per_subject
    subjects = [t.subject for t in c.subjects]
    shares = dict(c.difficulty_distribution)
    solo = _counts(shares, n)
    # The whole exam is apportioned, then split: each subject's recorded targets add up to n,
    # stay within one of its own rounding, and together give the whole exam's counts.
    recorded = {t.subject: {d.difficulty: d.target for d in t.difficulty} for t in c.subjects}
    whole = _counts(shares, n * len(subjects))
    for subject, counts in recorded.items():
        if sum(counts.values()) != n or any(abs(counts[d] - solo[d]) > 1 for d in Difficulty):
            out.append(f"{subject.value}: difficulty targets {counts} are not a split of {solo}")
    if {d: sum(t[d] for t in recorded.values()) for d in Difficulty} != whole:
        out.append(f"difficulty targets do not add up to the exam's {whole}")
    ids = list(paper.question_ids)
    if len(ids) != n * len(subjects):
        out.append(f"{len(ids)} questions, expected {n} × {len(subjects)} subjects")
    if len(set(ids)) != len(ids):
        out.append("a question appears twice")
    rows = {r["question_id"]: r for r in pool.filter(pl.col("question_id").is_in(ids)).to_dicts()}
    if set(ids) - set(rows):
        return [*out, f"questions not in the pool: {sorted(set(ids) - set(rows))[:3]}"]
    items = [rows[i] for i in ids]

    for q in items:
        qid = q["question_id"]
        if q["withdrawn"]:
            out.append(f"{qid} is withdrawn")
        if q["topic_id"] not in blueprint.live_topics:
            out.append(f"{qid} is on a deleted or unknown topic {q['topic_id']}")
        if paper.kind == "daily":
            if c.max_exposure != blueprint.max_exposure:
                out.append("a daily paper must apply the blueprint's exposure cap")
            elif q["times_used"] >= blueprint.max_exposure:
                out.append(f"{qid} is already in {q['times_used']} papers")
            if c.cooldown_since and q["last_daily"] and str(q["last_daily"]) >= c.cooldown_since:
                out.append(f"{qid} was in a daily paper on {q['last_daily']}, within the cooldown")
    for group, k in Counter(q["near_duplicate_group"] for q in items).items():
        if k > 1:
            out.append(f"{k} questions of near-duplicate group {group}")
    for family, k in Counter(q["family"] for q in items).items():
        if k > 1:
            out.append(f"{k} questions of one template or relation in one form: {family}")
    for stem, k in Counter(" ".join(q["stem"].lower().split()) for q in items).items():
        if k > 1:
            out.append(f"{k} questions with the same stem {stem[:60]!r}")

    lo, hi = blueprint.answer_keys_per_letter
    for k, tally in enumerate(c.subjects):
        s: Subject = tally.subject
        block = items[k * n : (k + 1) * n]
        if any(q["subject"] != s.value for q in block):
            out.append(f"the {s.value} block holds other subjects")
        # Keys are the stored ones (a paper shows each question as its file does).
        letters = Counter(q["correct_key"] for q in block)
        if any(not lo <= letters[key] <= hi for key in OPTION_KEYS):
            out.append(f"{s.value}: keys {dict(letters)} outside {lo}–{hi} per letter")
        by_d = Counter(Difficulty(q["difficulty"]) for q in block)
        targets = recorded[s]
        for d in Difficulty:
            if by_d[d] != targets[d]:
                out.append(f"{s.value} {d.value}: {by_d[d]}, target {targets[d]}")
        by_u = Counter(q["unit_id"] for q in block)
        ranges = blueprint.units[s]
        for u in set(by_u) - set(ranges):
            out.append(f"{s.value}: unit {u} is not in the blueprint")
        for u, r in ranges.items():
            if not r.min <= by_u[u] <= r.max:
                out.append(f"{s.value} {u}: {by_u[u]} outside {r.min}–{r.max}")
        by_class = Counter(
            (Difficulty(q["difficulty"]), question_class(q["format"], q["figure"], q["structure"]))
            for q in block
        )
        for d, caps in blueprint.class_caps.items():
            for cls, share in caps.items():
                cap = int(Fraction(share) * targets[d])
                if by_class[(d, cls)] > cap:
                    out.append(f"{s.value} {d.value} {cls}: {by_class[(d, cls)]} over cap {cap}")
        recorded_d = {t.difficulty: (t.target, t.achieved) for t in tally.difficulty}
        if recorded_d != {d: (targets[d], by_d[d]) for d in Difficulty}:
            out.append(f"{s.value}: recorded difficulty tallies do not match the paper")
        recorded_u = {u.unit_id: (u.min, u.max, u.achieved) for u in tally.units}
        if recorded_u != {u: (r.min, r.max, by_u[u]) for u, r in ranges.items()}:
            out.append(f"{s.value}: recorded unit tallies do not match the paper")

    orders = list(paper.option_orders) or ["ABCD"] * len(ids)
    if len(orders) != len(ids) or any(sorted(o) != list("ABCD") for o in orders):
        out.append("option orders are not one permutation of ABCD per question")
        return out
    if any(o != "ABCD" for o in orders):
        out.append("a question is shown in another order than its file's")
    shown = Counter(
        OPTION_KEYS[o.index(q["correct_key"])] for o, q in zip(orders, items, strict=True)
    )
    if dict(c.answer_keys) != {k: shown[k] for k in OPTION_KEYS}:
        out.append("recorded answer-key counts do not match the paper")
    return out
