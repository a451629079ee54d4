"""Topic coverage: how many servable questions each live topic × difficulty holds, and why a cell
falls short.

A practice set asks one question per near-duplicate group, so a cell's servable count is the
number of distinct groups among its questions that are not withdrawn; "fresh" counts those never
used in a paper. A cell short of the floor is explained by what the generators can make for it:
no knowledge at all for the topic, none at that difficulty, or fewer distinct questions than the
floor (`generator_supply`, which drafts, screens and solves as the fill does, without storing).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import polars as pl

from core.ids import question_id
from core.pool import near_duplicate_group
from core.records import Difficulty, Draft, Question
from kb.syllabus import Syllabus, Topic
from pipeline.fill.topup import topic_drafts
from pipeline.generate.drafter import Drafter
from pipeline.verify.gate import Solver, hygiene_problem, judged, solver_view

DEFAULT_TOPIC_FLOOR = 10
# Drafts looked at per cell before a supply count gives up (a cell of one numerical template
# has thousands of variants that are all one group).
SUPPLY_DRAFT_LIMIT = 400

Status = Literal["at_floor", "below_floor", "empty"]
Reason = Literal[
    "", "no_knowledge", "no_generator_for_difficulty", "generators_exhausted", "not_filled_yet"
]


def generator_supply(
    drafter: Drafter,
    solver: Solver,
    topic: Topic,
    difficulty: Difficulty,
    cap: int,
    taken: Iterable[str] = (),
    screens: Iterable[Callable[[Draft], str | None]] = (),
    on_accept: Callable[[Question], None] | None = None,
    known_ids: Iterable[str] = (),
) -> int:
    """Distinct near-duplicate groups the drafter can add to a topic × difficulty, up to `cap`:
    drafts of groups not `taken`, and not questions already `known`, that pass hygiene and the
    screens and that the solver confirms (`on_accept` sees each, as a fill's near-duplicate
    gate would). Nothing is stored; the offline engine makes the same drafts again when it
    fills."""
    groups = set(taken)
    seen = set(known_ids)  # two seeds can make one question: it is stored once
    screens = tuple(screens)
    found = 0
    for n, draft in enumerate(topic_drafts(drafter, topic, difficulty, {})):
        if found >= cap or n >= SUPPLY_DRAFT_LIMIT:
            break
        group, draft_id = near_duplicate_group(draft.provenance, ""), question_id(draft.content)
        if group in groups or draft_id in seen or hygiene_problem(draft) is not None:
            continue
        seen.add(draft_id)
        if any(screen(draft) is not None for screen in screens):
            continue
        _, question = judged(draft, solver.solve(solver_view(draft)))
        if question is not None:
            groups.add(group)
            found += 1
            if on_accept is not None:
                on_accept(question)
    return found


def cell_groups(pool: pl.DataFrame) -> dict[tuple[str, str], set[str]]:
    """(topic_id, difficulty) → the near-duplicate groups the pool holds in that cell
    (withdrawn questions' too: redrafting one would only make the same question)."""
    held: dict[tuple[str, str], set[str]] = {}
    for topic, difficulty, group in pool.select(
        "topic_id", "difficulty", "near_duplicate_group"
    ).iter_rows():
        held.setdefault((topic, difficulty), set()).add(group)
    return held


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
    topics: Sequence[Topic] | None = None,
) -> list[CellCoverage]:
    """Every live topic × difficulty (or those of `topics`) with its counts and status, in
    syllabus order; `explain` names why a cell below the floor is there (blank without it)."""
    cells = []
    for topic in syllabus.live_topics() if topics is None else topics:
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


# Reasons that mean the offline generators can add nothing more to a cell.
SPENT: frozenset[str] = frozenset(
    {"no_knowledge", "no_generator_for_difficulty", "generators_exhausted"}
)


def spent_cells(cells: Iterable[CellCoverage]) -> list[tuple[str, str]]:
    """(topic_id, difficulty) of the cells below the floor that the generators cannot fill."""
    return [(c.topic_id, c.difficulty.value) for c in cells if c.reason in SPENT]


REASONS: Mapping[str, str] = {
    "no_knowledge": "no fact, cause, template or element data is filed under the topic",
    "no_generator_for_difficulty": "the topic's generators make no question at this difficulty",
    "generators_exhausted": "the generators make fewer distinct verified questions than the floor",
    "not_filled_yet": "the generators can fill it: `qforge pool fill --per-topic` (or the nightly)",
}


def shortfall_reasons(
    drafter: Drafter,
    solver: Solver,
    pool: pl.DataFrame,
    floor: int,
    screens: Sequence[Callable[[Draft], str | None]] = (),
    spent: Collection[tuple[str, str]] | None = None,
) -> Callable[[Topic, Difficulty], Reason]:
    """Why a topic × difficulty cell is below the floor, judged from what the (offline) drafter
    can make for it beyond the groups the pool holds: enough (it was not filled yet), nothing
    for the topic at all, nothing at this difficulty, or fewer than the floor.

    With `spent` (the cells the last topic floor found the generators could not fill), a cell
    with drafts is exhausted when it is listed there and not filled yet otherwise: nothing is
    solved, which `qforge stats` needs on a pool far below the floor."""
    have = servable_counts(pool)
    held = cell_groups(pool)
    ids = set(pool.get_column("question_id").to_list()) if len(pool) else set()

    def drafts_any(topic: Topic, difficulty: Difficulty) -> bool:
        return next(iter(topic_drafts(drafter, topic, difficulty, {})), None) is not None

    def explain(topic: Topic, difficulty: Difficulty) -> Reason:
        if not drafts_any(topic, difficulty):
            if any(drafts_any(topic, d) for d in Difficulty if d is not difficulty):
                return "no_generator_for_difficulty"
            return "no_knowledge"
        if spent is not None:
            cell = (topic.topic_id, difficulty.value)
            return "generators_exhausted" if cell in spent else "not_filled_yet"
        short = floor - have.get((topic.topic_id, difficulty.value), (0, 0))[0]
        taken = held.get((topic.topic_id, difficulty.value), set())
        more = generator_supply(
            drafter, solver, topic, difficulty, short, taken, screens, known_ids=ids
        )
        if more >= short:
            return "not_filled_yet"
        return "generators_exhausted"

    return explain


def coverage_counts(cells: Iterable[CellCoverage]) -> dict[Status, int]:
    counts: dict[Status, int] = {"at_floor": 0, "below_floor": 0, "empty": 0}
    for c in cells:
        counts[c.status] += 1
    return counts


def coverage_summary(cells: Sequence[CellCoverage], floor: int) -> str:
    """One line: how many topic × difficulty cells are at the floor, below it, empty."""
    n = coverage_counts(cells)
    topics = len({c.topic_id for c in cells})
    return (
        f"topic coverage (floor {floor} servable per topic × difficulty, {topics} live topics): "
        f"{n['at_floor']} of {len(cells)} cells at the floor, {n['below_floor']} below it, "
        f"{n['empty']} empty"
    )


def coverage_markdown(cells: Sequence[CellCoverage], floor: int) -> str:
    """The topic coverage section of a report: the summary, then every cell short of the floor
    with its counts and reason."""
    out = ["## Topic coverage", "", coverage_summary(cells, floor) + "."]
    short = [c for c in cells if c.status != "at_floor"]
    if short:
        out += [
            "",
            "| topic | unit | difficulty | servable | never used | why |",
            "|---|---|---|---|---|---|",
        ]
        out += [
            f"| {c.topic_id} | {c.unit_id} | {c.difficulty.value} | {c.servable} | {c.fresh} | "
            f"{REASONS.get(c.reason, '–') if c.reason else '–'} |"
            for c in short
        ]
    return "\n".join(out) + "\n"
