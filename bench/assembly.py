"""Assembly benchmark: our flow assembler against a HiGHS MIP of the same constraints.

Run with `make bench` (or `python -m bench.assembly`). For synthetic pools of 2k, 20k and 100k
questions shaped like ours (numerical templates whose variants are one near-duplicate group,
fact relations whose forward and reverse questions share a group, seeded NEET formats, figures,
withdrawn questions, deleted topics, past use), it builds daily papers to the bundled blueprint
`neet-ug-v1` for a run of dates and reports p50/p95 latency and constraint violations (checked
by pipeline.assemble.paper_check, which shares no code with the assembler). Baselines in the
same run:
scipy.optimize.milp (HiGHS) over the whole eligible pool ("full MIP", with a time limit) and over
the shortlist ("shortlisted MIP", shortlisting included in its time). Both start, like ours,
from the prepared pool index (its build time is reported on its own).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

from core.pool import UnitCell
from core.records import Paper, Subject
from core.settings import REPO_ROOT
from kb.syllabus import Syllabus, load_syllabus
from pipeline.assemble.assembly import assemble_paper, paper_from_rows
from pipeline.assemble.blueprint import (
    Blueprint,
    class_caps,
    exam_difficulty_counts,
    load_blueprint,
)
from pipeline.assemble.index import PoolIndex, index_pool, seeded_hash
from pipeline.assemble.paper_check import violations
from pipeline.assemble.request import DIFFICULTIES, SUBJECTS, PaperRequest, Shortfall, daily_request
from pipeline.assemble.shortlist import eligible_rows, shortlisted_rows

FIRST_DAY = dt.date(2026, 3, 1)
NUMERICAL_SHARE = {"Physics": 0.7, "Chemistry": 0.4, "Botany": 0.0, "Zoology": 0.0}
HARD_FORMATS = ("incorrect_pair", "match_list", "how_many_correct")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def synthetic_pool(n: int, syllabus: Syllabus, blueprint: Blueprint, seed: int = 7) -> pl.DataFrame:
    """n questions shaped like the generators' output, with past use up to the first bench day."""
    rng = np.random.default_rng(seed)
    subject = rng.integers(0, 4, n)
    rows_subject, rows_unit, rows_topic = [], [], []
    units: dict[int, list[str]] = {}
    weights: dict[int, np.ndarray] = {}
    topics: dict[tuple[str, str], list[str]] = {}
    for t in syllabus.topics.values():  # deleted topics too: the assembler must skip them
        topics.setdefault((t.subject.value, t.unit_id), []).append(t.topic_id)
    for i, s in enumerate(SUBJECTS):
        units[i] = sorted(blueprint.units[s])
        mid = np.array([(r.min + r.max) / 2 for r in (blueprint.units[s][u] for u in units[i])])
        weights[i] = mid / mid.sum()
    unit_pick = np.array(
        [rng.choice(len(units[s]), p=weights[s]) for s in subject.tolist()], dtype=np.int64
    )
    for s, u in zip(subject.tolist(), unit_pick.tolist(), strict=True):
        name = SUBJECTS[s].value
        unit = units[s][u]
        rows_subject.append(name)
        rows_unit.append(unit)
        options = topics[(name, unit)]
        rows_topic.append(options[int(rng.integers(len(options)))])
    numerical = rng.random(n) < np.array([NUMERICAL_SHARE[s] for s in rows_subject])
    difficulty = rng.choice(3, n, p=[0.36, 0.4, 0.24])
    # Numericals: 6 templates per unit and difficulty, all variants of one template one group.
    template = rng.integers(0, 6, n)
    # Facts: Easy asks forward, Medium reverse or two statements, Hard one of three formats.
    fact = rng.integers(0, 400, n)
    medium_kind = rng.random(n) < 0.5
    hard_kind = rng.integers(0, 3, n)
    # Families: a numerical template, or one of 8 fact relations per unit in one form (forward,
    # reverse, two statements, a Hard format). Stems: a numerical's or a forward/reverse
    # question's own; a statements or Hard question's stem is its relation's fixed wording.
    fmt, group, family, stem = [], [], [], []
    for i in range(n):
        unit, d = rows_unit[i], int(difficulty[i])
        relation = f"{rows_subject[i]}-{unit}-rel{fact[i] % 8}"
        if numerical[i]:
            fmt.append("numerical")
            group.append(f"{rows_subject[i]}-{unit}-t{d}{template[i]}")
            family.append(f"{group[-1]}|numerical")
            stem.append(f"numerical {i}")
        elif d == 0 or (d == 1 and medium_kind[i]):
            fmt.append("single_correct")
            group.append(f"{rows_subject[i]}-{unit}-rel#{fact[i]}")
            family.append(f"{relation}|{'forward' if d == 0 else 'reverse'}")
            stem.append(f"fact {i}")
        elif d == 1:
            fmt.append("two_statements")
            group.append(f"q{i}")
            family.append(f"{relation}|two_statements")
            stem.append(f"statements {i}")
        else:
            fmt.append(HARD_FORMATS[hard_kind[i]])
            group.append(f"q{i}")
            family.append(f"{relation}|{fmt[-1]}")
            stem.append(f"Which of the pairs of {relation} is incorrectly matched? ({fmt[-1]})")
    used = rng.random(n) < 0.3
    times_used = np.where(used, rng.integers(1, 7, n), 0)
    days_ago = rng.integers(1, 120, n)
    last = [
        (FIRST_DAY - dt.timedelta(days=int(a))).isoformat() if u else None
        for u, a in zip(used.tolist(), days_ago.tolist(), strict=True)
    ]
    return pl.DataFrame(
        {
            "question_id": [
                "q-" + hashlib.sha256(f"{seed}/{i}".encode()).hexdigest()[:20] for i in range(n)
            ],
            "subject": rows_subject,
            "unit_id": rows_unit,
            "topic_id": rows_topic,
            "difficulty": [DIFFICULTIES[d].value for d in difficulty.tolist()],
            "format": fmt,
            "template_id": [f.split("|")[0] for f in family],
            "family": family,
            "stem": stem,
            "correct_key": rng.choice(list("ABCD"), n).tolist(),
            "figure": (rng.random(n) < 0.05).tolist(),
            "structure": [False] * n,
            "steps": rng.choice([1, 1, 1, 2, 3], n).tolist(),
            "near_duplicate_group": group,
            "withdrawn": (rng.random(n) < 0.005).tolist(),
            "times_used": times_used.tolist(),
            "last_used": last,
            "last_daily": last,
        }
    )


@dataclass(frozen=True)
class MipResult:
    rows_by_subject: dict[Subject, list[int]] | None  # None: infeasible or out of time
    virtual: int  # questions the MIP had to invent (with_virtual only)
    status: str


def mip_selection(
    index: PoolIndex,
    request: PaperRequest,
    blueprint: Blueprint,
    rows: np.ndarray,
    time_limit: float = 60.0,
    with_virtual: bool = False,
    closed: Collection[UnitCell] = (),
) -> MipResult:
    """The straightforward MIP: x_i ∈ {0,1} per candidate row, HiGHS via scipy.optimize.milp.

    Rows per (subject, difficulty) = target; per unit within its range; per (subject,
    difficulty, class) at most the cap; per conflict group (one template or relation in one
    format, or one stem) and per near-duplicate group at most one; per (subject, key) within
    the blueprint's range (real questions only: invented ones have no key). Objective: fewest
    past uses, then the seeded order. With `with_virtual`, integer v per (subject, unit,
    difficulty) count as invented questions and the objective is their number: the minimal
    shortfall.
    """
    n_per = blueprint.questions_per_subject
    split = exam_difficulty_counts(request.distribution, len(request.subjects), n_per)
    targets = {SUBJECTS.index(s): t for s, t in zip(request.subjects, split, strict=True)}
    caps = {s: class_caps(blueprint, t) for s, t in targets.items()}
    chosen = [SUBJECTS.index(s) for s in request.subjects]
    subj = index.subject[rows]
    keep = np.isin(subj, chosen)
    rows = rows[keep]
    subj, diff = subj[keep], index.difficulty[rows]
    unit, klass, group = index.unit[rows], index.klass[rows], index.group[rows]
    nx = len(rows)
    # Every unit of the chosen subjects gets its range, also units with no row in the pool
    # (codes past the index's own).
    code_of = {name: code for code, name in enumerate(index.units)}
    unit_codes = {}
    unit_subject = {}
    unit_name: dict[int, tuple[str, str]] = {}
    for s in request.subjects:
        for unit_id, r in blueprint.units[s].items():
            code = code_of.setdefault((s.value, unit_id), len(code_of))
            unit_codes[code] = r
            unit_subject[code] = SUBJECTS.index(s)
            unit_name[code] = (s.value, unit_id)
    shut = {(s.value, u, DIFFICULTIES.index(d)) for s, d, u in closed}
    virtual_cells = [
        (unit_subject[c], c, d)
        for c in unit_codes
        for d in range(3)
        if with_virtual and (*unit_name[c], d) not in shut
    ]
    all_units = sorted(unit_codes)
    r_i: list[np.ndarray] = []
    r_j: list[np.ndarray] = []
    lb: list[float] = []
    ub: list[float] = []
    nrow = 0

    def family(
        keys: np.ndarray, bounds: Callable[[int], tuple[float, float]], key_list: list[int]
    ) -> None:
        nonlocal nrow
        position = {k: nrow + i for i, k in enumerate(key_list)}
        mask = np.isin(keys, key_list)
        r_i.append(np.array([position[k] for k in keys[mask].tolist()], dtype=np.int64))
        r_j.append(np.flatnonzero(mask))
        for k in key_list:
            lo, hi = bounds(k)
            lb.append(lo)
            ub.append(hi)
        nrow += len(key_list)

    sd_keys = subj * 3 + diff
    sd_list = [s * 3 + d for s in chosen for d in range(3)]
    sd_start = nrow
    family(sd_keys, lambda k: (targets[k // 3][DIFFICULTIES[k % 3]],) * 2, sd_list)
    unit_start = nrow
    family(unit, lambda k: (unit_codes[k].min, unit_codes[k].max), all_units)
    n_classes = len(index.classes)
    cap_of = {
        (s * 3 + DIFFICULTIES.index(d)) * n_classes + index.classes.index(cls): cap
        for s in chosen
        for (d, cls), cap in caps[s].items()
        if cls in index.classes
    }
    capped = list(cap_of)
    family((subj * 3 + diff) * n_classes + klass, lambda k: (0, cap_of[k]), capped)
    sizes = np.bincount(group, minlength=int(group.max()) + 1 if nx else 0) if nx else np.zeros(0)
    shared = np.flatnonzero(sizes > 1).tolist()
    family(group, lambda k: (0, 1), shared)
    enemy = index.enemy[rows]
    sizes = np.bincount(enemy, minlength=int(enemy.max()) + 1 if nx else 0) if nx else np.zeros(0)
    family(enemy, lambda k: (0, 1), np.flatnonzero(sizes > 1).tolist())
    if not with_virtual:
        lo, hi = blueprint.answer_keys_per_letter
        keyed = subj * 4 + index.key[rows]
        family(keyed, lambda k: (lo, hi), [s * 4 + k for s in chosen for k in range(4)])
    i_all = np.concatenate(r_i) if r_i else np.zeros(0, dtype=np.int64)
    j_all = np.concatenate(r_j) if r_j else np.zeros(0, dtype=np.int64)
    # Virtual columns after the x columns: one per (subject, unit, difficulty).
    vi, vj = [], []
    unit_pos = {u: unit_start + i for i, u in enumerate(all_units)}
    for k, (subject_code, u, d) in enumerate(virtual_cells):
        vi += [sd_start + chosen.index(subject_code) * 3 + d, unit_pos[u]]
        vj += [nx + k, nx + k]
    nv = len(virtual_cells)
    a = coo_matrix(
        (np.ones(len(i_all) + len(vi)), (np.concatenate([i_all, vi]), np.concatenate([j_all, vj]))),
        shape=(nrow, nx + nv),
    ).tocsr()
    if with_virtual:
        c = np.concatenate([np.zeros(nx), np.ones(nv)])
    else:
        shuffled = seeded_hash(index.id_word[rows], request.seed).astype(np.float64) / 2.0**64
        c = index.times_used[rows].astype(np.float64) + shuffled
    result = milp(
        c,
        integrality=np.ones(nx + nv),
        bounds=Bounds(np.zeros(nx + nv), np.concatenate([np.ones(nx), np.full(nv, n_per)])),
        constraints=LinearConstraint(a, np.array(lb), np.array(ub)),
        options={"time_limit": time_limit, "disp": False},
    )
    if result.x is None:
        return MipResult(None, -1, result.message)
    x = result.x[:nx] > 0.5
    picked = {s: rows[x & (subj == SUBJECTS.index(s))].tolist() for s in request.subjects}
    virtual = round(float(result.x[nx:].sum())) if nv else 0
    status = "optimal" if result.status == 0 else result.message
    return MipResult(picked, virtual, status)


@dataclass
class Tally:
    times: list[float]
    violations: int = 0
    failures: int = 0

    def line(self, label: str, papers: bool = True) -> str:
        if not self.times:
            return f"  {label:24} no runs"
        return (
            f"  {label:24} p50 {1000 * percentile(self.times, 50):9.1f} ms   "
            f"p95 {1000 * percentile(self.times, 95):9.1f} ms   runs {len(self.times):3}"
        ) + (f"   violations {self.violations}   no paper {self.failures}" if papers else "")


def _checked(tally: Tally, paper: Paper | None, pool: pl.DataFrame, blueprint: Blueprint) -> None:
    if paper is None:
        tally.failures += 1
    else:
        tally.violations += len(violations(paper, pool, blueprint))


def _mip_paper(
    index: PoolIndex, request: PaperRequest, blueprint: Blueprint, result: MipResult
) -> Paper | None:
    if result.rows_by_subject is None:
        return None
    return paper_from_rows(index, request, blueprint, result.rows_by_subject)


def bench_size(
    n: int,
    syllabus: Syllabus,
    blueprint: Blueprint,
    days: int,
    mip_days: int,
    full_mip_days: int,
    time_limit: float,
) -> dict[str, Tally]:
    pool = synthetic_pool(n, syllabus, blueprint)
    started = time.perf_counter()
    index = index_pool(pool)
    print(f"pool {n:>7,}: index built in {1000 * (time.perf_counter() - started):.0f} ms")
    ours, short_mip, full_mip = Tally([]), Tally([]), Tally([])
    shortlist_sizes, eligible_sizes = [], []
    requests = [
        daily_request(blueprint, date, (date - dt.timedelta(days=30)).isoformat())
        for date in (FIRST_DAY + dt.timedelta(days=k) for k in range(days))
    ]
    # Each method in its own block, so one's garbage is not collected in the other's time.
    for request in requests:
        started = time.perf_counter()
        outcome = assemble_paper(index, request, blueprint)
        ours.times.append(time.perf_counter() - started)
        _checked(ours, outcome if isinstance(outcome, Paper) else None, pool, blueprint)
        if isinstance(outcome, Shortfall):
            print(f"    shortfall on {request.exam_date}: {outcome.describe()}")
    for request in requests[:mip_days]:
        started = time.perf_counter()
        rows = shortlisted_rows(index, request, blueprint)
        result = mip_selection(index, request, blueprint, rows, time_limit)
        short_mip.times.append(time.perf_counter() - started)
        shortlist_sizes.append(len(rows))
        _checked(short_mip, _mip_paper(index, request, blueprint, result), pool, blueprint)
    for request in requests[:full_mip_days]:
        started = time.perf_counter()
        rows = eligible_rows(index, request, blueprint)
        result = mip_selection(index, request, blueprint, rows, time_limit)
        elapsed = time.perf_counter() - started
        full_mip.times.append(elapsed)
        eligible_sizes.append(len(rows))
        _checked(full_mip, _mip_paper(index, request, blueprint, result), pool, blueprint)
        if result.rows_by_subject is None or result.status != "optimal":
            print(f"    full MIP on {request.exam_date}: {result.status} after {elapsed:.1f} s")
    print(
        f"  eligible {int(np.mean(eligible_sizes)) if eligible_sizes else 'not measured'}, "
        f"shortlist {int(np.mean(shortlist_sizes)) if shortlist_sizes else 'not measured'}"
    )
    tallies = {"ours (flow)": ours, "shortlisted MIP": short_mip, "full MIP": full_mip}
    for label, tally in tallies.items():
        print(tally.line(label))
    if short_mip.times:
        speedup = percentile(short_mip.times, 95) / percentile(ours.times, 95)
        print(f"  p95 speed-up over the shortlisted MIP: {speedup:.0f}×")
    return tallies


def starved_pool(pool: pl.DataFrame) -> pl.DataFrame:
    """Human Physiology (Zoology, at least 10 a paper) down to 6 questions, Physics Hard left in
    three units: a pool that cannot fill a paper."""
    physiology = pl.col("unit_id") == "bio-u05"
    pool = pl.concat([pool.filter(~physiology), pool.filter(physiology).head(6)])
    return pool.filter(
        (pl.col("subject") != "Physics")
        | (pl.col("difficulty") != "Hard")
        | (pl.col("unit_id") <= "phy-u03")
    )


def bench_shortfall(n: int, syllabus: Syllabus, blueprint: Blueprint, runs: int) -> None:
    """On a starved pool (`starved_pool`) ours reports the exact shortfall; the MIP, given one
    invented question per (unit, difficulty) it likes, minimises their number on the same
    shortlist."""
    pool = starved_pool(synthetic_pool(n, syllabus, blueprint))
    index = index_pool(pool)
    ours, mip = Tally([]), Tally([])
    agree = 0
    for k in range(runs):
        date = FIRST_DAY + dt.timedelta(days=k)
        request = daily_request(blueprint, date, (date - dt.timedelta(days=30)).isoformat())
        started = time.perf_counter()
        outcome = assemble_paper(index, request, blueprint)
        ours.times.append(time.perf_counter() - started)
        started = time.perf_counter()
        rows = shortlisted_rows(index, request, blueprint)
        fewest = mip_selection(index, request, blueprint, rows, with_virtual=True)
        mip.times.append(time.perf_counter() - started)
        agree += isinstance(outcome, Shortfall) and outcome.total == fewest.virtual
        if k == 0 and isinstance(outcome, Shortfall):
            print(f"  shortfall: {outcome.total} questions ({outcome.describe()})")
    print(
        f"starved pool of {pool.height:,}: shortfall total equals the MIP's minimum "
        f"in {agree} of {runs} runs"
    )
    print(ours.line("ours: exact shortfall", papers=False))
    print(mip.line("MIP: fewest invented", papers=False))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="2000,20000,100000", help="pool sizes")
    parser.add_argument("--days", type=int, default=60, help="daily papers per size (ours)")
    parser.add_argument("--mip-days", type=int, default=10, help="shortlisted MIP runs per size")
    parser.add_argument("--full-mip-days", type=int, default=3, help="full MIP runs per size")
    parser.add_argument("--time-limit", type=float, default=120.0, help="MIP time limit, s")
    args = parser.parse_args(argv)
    syllabus = load_syllabus(REPO_ROOT / "data")
    blueprint = load_blueprint(REPO_ROOT / "data", syllabus)
    sizes = [int(s) for s in args.sizes.split(",")]
    for n in sizes:
        bench_size(
            n,
            syllabus,
            blueprint,
            args.days,
            args.mip_days,
            args.full_mip_days if n <= 20_000 else min(1, args.full_mip_days),
            args.time_limit,
        )
    bench_shortfall(max(sizes), syllabus, blueprint, args.mip_days)


if __name__ == "__main__":
    main()
