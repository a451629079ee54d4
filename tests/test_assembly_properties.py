"""Property tests over random pools and blueprints: every paper meets every constraint, every
shortfall is exact (the reported questions complete the paper, and a MIP finds no smaller one)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.assembly import mip_selection
from core.pool import POOL_SCHEMA
from core.records import Difficulty, Paper, Subject
from pipeline.assemble.assembly import assemble_paper
from pipeline.assemble.blueprint import Blueprint, UnitRange
from pipeline.assemble.index import index_pool
from pipeline.assemble.paper_check import violations
from pipeline.assemble.request import PaperRequest, Shortfall
from pipeline.assemble.shortlist import eligible_rows
from tests.conftest import examples

CAPPABLE = ("single_correct", "match_list", "figure")  # "numerical" is never capped here
FORMATS = ("single_correct", "match_list", "numerical")
DATES = (None, "2026-01-02", "2026-01-09", "2026-01-14")


@dataclass(frozen=True)
class World:
    blueprint: Blueprint
    request: PaperRequest
    pool: pl.DataFrame


def topic(s: Subject, unit: str, live: bool = True) -> str:
    return f"t-{s.value}-{unit}-{'live' if live else 'old'}"


@st.composite
def worlds(draw: st.DrawFn, rules: bool = False) -> World:
    """A random pool, blueprint and request. With `rules`, questions share families and stems
    and the keys have a range per letter (rules the flow does not claim exactness for)."""
    subjects = tuple(Subject)[: draw(st.integers(1, 2))]
    n = draw(st.integers(2, 7))
    units: dict[Subject, dict[str, UnitRange]] = {}
    for s in subjects:
        k = draw(st.integers(1, 4))
        lows = [draw(st.integers(0, 2)) for _ in range(k)]
        highs = [lo + draw(st.integers(0, 4)) for lo in lows]
        while sum(lows) > n:  # keep the ranges able to add up to n
            lows[lows.index(max(lows))] -= 1
        highs[-1] = max(highs[-1], n - sum(highs[:-1]))
        units[s] = {
            f"u{i}": UnitRange(lo, hi) for i, (lo, hi) in enumerate(zip(lows, highs, strict=True))
        }
    weights = draw(st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(any))
    distribution = {d: w / sum(weights) for d, w in zip(Difficulty, weights, strict=True)}
    caps = {
        d: {cls: Fraction(draw(st.sampled_from(["0", "1/3", "1/2", "1", "1"]))) for cls in CAPPABLE}
        for d in Difficulty
        if draw(st.booleans())
    }
    blueprint = Blueprint(
        blueprint_id="random",
        title="random",
        questions_per_subject=n,
        distribution=distribution,
        units=units,
        class_caps=caps,
        cooldown_papers=30,
        max_exposure=draw(st.integers(1, 3)),
        live_topics=frozenset(topic(s, u) for s in subjects for u in units[s]),
        unit_order={u: i for i, u in enumerate(["u0", "u1", "u2", "u3"])},
        # Keys unconstrained unless `rules`: the exactness tests check the flow, which the key
        # rule (a repair after it) does not claim exactness for.
        answer_keys_per_letter=(max(0, n // 4 - 1), n // 4 + 2) if rules else (0, n),
    )
    daily = draw(st.booleans())
    request = PaperRequest(
        exam_id="x",
        kind="daily" if daily else "custom",
        title="t",
        exam_date="2026-01-15" if daily else None,
        subjects=subjects,
        distribution=distribution,
        seed=draw(st.sampled_from(["a", "b", "c"])),
        cooldown_since=draw(st.sampled_from(DATES[1:])) if daily else None,
        max_exposure=blueprint.max_exposure if daily else None,
    )
    rows = []
    for i in range(draw(st.integers(0, 80))):
        s = draw(st.sampled_from(subjects))
        unit = draw(st.sampled_from(sorted(units[s])))
        rows.append(
            {
                "question_id": f"q-{i:04d}",
                "subject": s.value,
                "unit_id": unit,
                "topic_id": topic(s, unit, live=draw(st.integers(0, 14)) > 0),
                "difficulty": draw(st.sampled_from(list(Difficulty))).value,
                "format": draw(st.sampled_from(FORMATS)),
                "template_id": f"t-{i:04d}",
                "family": f"f{draw(st.integers(0, 40))}" if rules else f"t-{i:04d}",
                "stem": f"stem {draw(st.integers(0, 120)) if rules else i}",
                "correct_key": draw(st.sampled_from("ABCD")),
                "figure": draw(st.integers(0, 4)) == 0,
                "structure": False,
                "steps": draw(st.sampled_from([1, 1, 1, 2, 3])),
                # Groups nest in units, as the warehouse's rule guarantees.
                "near_duplicate_group": f"{s.value}-{unit}-g{draw(st.integers(0, 9))}",
                "withdrawn": draw(st.integers(0, 14)) == 0,
                "times_used": draw(st.sampled_from([0, 0, 0, 1, 2, 3])),
                "last_used": None,
                "last_daily": draw(st.sampled_from([None, None, None, *DATES[1:]])),
            }
        )
    pool = pl.DataFrame(rows, schema=POOL_SCHEMA).with_columns(last_used=pl.col("last_daily"))
    return World(blueprint, request, pool)


def with_new_questions(world: World, short: Shortfall) -> pl.DataFrame:
    """The pool plus exactly the reported questions: fresh, uncapped format, own groups."""
    fresh = [
        {
            "question_id": f"q-new-{s.value}-{u}-{d.value}-{i}",
            "subject": s.value,
            "unit_id": u,
            "topic_id": topic(s, u),
            "difficulty": d.value,
            "format": "numerical",
            "template_id": f"new-{s.value}-{u}-{d.value}-{i}",
            "family": f"new-{s.value}-{u}-{d.value}-{i}",
            "stem": f"new {s.value} {u} {d.value} {i}",
            "correct_key": "A",
            "figure": False,
            "structure": False,
            "steps": 1,
            "near_duplicate_group": f"new-{s.value}-{u}-{d.value}-{i}",
            "withdrawn": False,
            "times_used": 0,
            "last_used": None,
            "last_daily": None,
        }
        for (s, d, u), n in short.cells.items()
        for i in range(n)
    ]
    return pl.concat([world.pool, pl.DataFrame(fresh, schema=world.pool.schema)])


FAST = settings(
    max_examples=examples(70), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@FAST
@given(worlds())
def test_every_paper_meets_every_constraint_and_every_shortfall_is_enough(world: World) -> None:
    outcome = assemble_paper(world.pool, world.request, world.blueprint)
    if isinstance(outcome, Paper):
        assert violations(outcome, world.pool, world.blueprint) == []
    else:
        assert outcome.total > 0 and all(n > 0 for n in outcome.cells.values())
        filled = with_new_questions(world, outcome)
        paper = assemble_paper(filled, world.request, world.blueprint)
        assert isinstance(paper, Paper), paper
        assert violations(paper, filled, world.blueprint) == []


@FAST
@given(worlds(rules=True))
def test_no_paper_repeats_a_family_or_a_stem_and_every_paper_balances_its_keys(
    world: World,
) -> None:
    # Families (f0–f5) and stems are shared across units and subjects here; the checker, which
    # shares no code with the assembler, finds no violation in any paper made.
    outcome = assemble_paper(world.pool, world.request, world.blueprint)
    if isinstance(outcome, Paper):
        assert violations(outcome, world.pool, world.blueprint) == []
    else:
        assert outcome.total > 0 and all(n > 0 for n in outcome.cells.values())


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds())
def test_never_used_questions_suffice_whenever_they_can(world: World) -> None:
    fresh = world.pool.filter(pl.col("times_used") == 0)
    if not isinstance(assemble_paper(fresh, world.request, world.blueprint), Paper):
        return
    paper = assemble_paper(world.pool, world.request, world.blueprint)
    assert isinstance(paper, Paper)
    assert set(paper.question_ids) <= set(fresh["question_id"])


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds())
def test_a_shortfall_is_the_smallest_possible_and_a_paper_is_found_whenever_one_exists(
    world: World,
) -> None:
    index = index_pool(world.pool)
    outcome = assemble_paper(index, world.request, world.blueprint)
    rows = eligible_rows(index, world.request, world.blueprint)
    fewest = mip_selection(index, world.request, world.blueprint, rows, with_virtual=True)
    assert fewest.status == "optimal"
    assert (outcome.total if isinstance(outcome, Shortfall) else 0) == fewest.virtual


@settings(max_examples=examples(20), deadline=None)
@given(worlds(), st.randoms(use_true_random=False))
def test_the_outcome_does_not_depend_on_row_order(world: World, rng: Any) -> None:
    order = list(range(world.pool.height))
    rng.shuffle(order)
    shuffled = world.pool[order] if order else world.pool
    assert assemble_paper(shuffled, world.request, world.blueprint) == assemble_paper(
        world.pool, world.request, world.blueprint
    )


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.data())
def test_a_shortfall_avoids_closed_cells_and_stays_the_smallest(world: World, data: Any) -> None:
    # Cells whose generators ran dry: the shortfall goes around them when it can.
    cells = [
        (s, d, u)
        for s in world.request.subjects
        for u in world.blueprint.units[s]
        for d in Difficulty
    ]
    closed = data.draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 2))
    index = index_pool(world.pool)
    outcome = assemble_paper(index, world.request, world.blueprint, closed)
    if isinstance(outcome, Paper):
        return
    rows = eligible_rows(index, world.request, world.blueprint)
    around = mip_selection(
        index, world.request, world.blueprint, rows, with_virtual=True, closed=closed
    )
    if around.status == "optimal":
        assert not set(outcome.cells) & closed
        assert outcome.total == around.virtual
    filled = with_new_questions(world, outcome)
    assert isinstance(assemble_paper(filled, world.request, world.blueprint), Paper)
