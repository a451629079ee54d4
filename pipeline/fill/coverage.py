"""Topic coverage: how many servable questions each live topic × difficulty holds, and why a cell
falls short.

A practice set asks one question per near-duplicate group, so a cell's servable count is the
number of distinct groups among its questions that are not withdrawn; "fresh" counts those never
used in a paper. A cell short of the floor is explained by what the generators can make for it:
no knowledge at all for the topic, none at that difficulty, or fewer distinct questions than the
floor (`generator_supply`, which drafts, screens and solves as the fill does, without storing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

import polars as pl

from core.pool import near_duplicate_group
from core.records import Difficulty, Draft
from kb.syllabus import Syllabus, Topic
from pipeline.fill.topup import topic_drafts
from pipeline.generate.drafter import Drafter
from pipeline.verify.gate import Solver, hygiene_problem, judged, solver_view

DEFAULT_TOPIC_FLOOR = 10
# Drafts looked at per cell before a supply count gives up (a cell of one numerical template
# has thousands of variants that are all one group).
SUPPLY_DRAFT_LIMIT = 400

Status = Literal["at_floor", "below_floor", "empty"]
Reason = Literal["", "no_knowledge", "no_generator_for_difficulty", "generators_exhausted"]


def generator_supply(
    drafter: Drafter,
    solver: Solver,
    topic: Topic,
    difficulty: Difficulty,
    cap: int,
    taken: Iterable[str] = (),
    screens: Iterable[Callable[[Draft], str | None]] = (),
) -> int:
    """Distinct near-duplicate groups the drafter can add to a topic × difficulty, up to `cap`:
    drafts of groups not `taken` that pass hygiene and the screens and that the solver confirms.
    Nothing is stored; the offline engine makes the same drafts again when it fills."""
    groups = set(taken)
    screens = tuple(screens)
    found = 0
    for n, draft in enumerate(topic_drafts(drafter, topic, difficulty, {})):
        if found >= cap or n >= SUPPLY_DRAFT_LIMIT:
            break
        group = near_duplicate_group(draft.provenance, "")
        if group in groups or hygiene_problem(draft) is not None:
            continue
        if any(screen(draft) is not None for screen in screens):
            continue
        _, question = judged(draft, solver.solve(solver_view(draft)))
        if question is not None:
            groups.add(group)
            found += 1
    return found


@dataclass(frozen=True)
class CellCoverage:
    topic_id: str
    unit_id: str
    difficulty: Difficulty
    servable: int  # distinct near-duplicate groups, not withdrawn
    fresh: int  # of those, groups with a question never used in a paper
    status: Status
    reason: Reason = ""


def servable_counts(frame: pl.DataFrame) -> dict[tuple[str, str], tuple[int, int]]:
    """(topic_id, difficulty) → (servable groups, never-used groups) of a pool snapshot frame."""
    if frame.is_empty():
        return {}
    live = frame.filter(~pl.col("withdrawn"))
    counts = live.group_by("topic_id", "difficulty").agg(
        pl.col("near_duplicate_group").n_unique().alias("servable"),
        pl.col("near_duplicate_group").filter(pl.col("times_used") == 0).n_unique().alias("fresh"),
    )
    return {
        (r["topic_id"], r["difficulty"]): (r["servable"], r["fresh"])
        for r in counts.iter_rows(named=True)
    }


def topic_coverage(
    syllabus: Syllabus,
    counts: Mapping[tuple[str, str], tuple[int, int]],
    floor: int,
    explain: Callable[[Topic, Difficulty], Reason] | None = None,
) -> list[CellCoverage]:
    """Every live topic × difficulty with its counts and status, in syllabus order; `explain`
    names why a cell below the floor is there (left blank without it)."""
    cells = []
    for topic in syllabus.live_topics():
        for difficulty in Difficulty:
            servable, fresh = counts.get((topic.topic_id, difficulty.value), (0, 0))
            status: Status = (
                "at_floor" if servable >= floor else "empty" if servable == 0 else "below_floor"
            )
            reason: Reason = ""
            if status != "at_floor" and explain is not None:
                reason = explain(topic, difficulty)
            cells.append(
                CellCoverage(
                    topic.topic_id, topic.unit_id, difficulty, servable, fresh, status, reason
                )
            )
    return cells
