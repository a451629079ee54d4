"""Practice sets from the pool snapshot: the topic and difficulty asked, one per group, seeded."""

from __future__ import annotations

import polars as pl
import pytest

from core.records import Difficulty
from pipeline.serve.practice import practice_pick


def _snapshot(rows: list[tuple[str, str, str, str, int, bool]]) -> pl.DataFrame:
    names = ("question_id", "topic_id", "difficulty", "near_duplicate_group", "times_used")
    return pl.DataFrame(
        [dict(zip((*names, "withdrawn"), r, strict=True)) for r in rows],
    )


POOL = _snapshot(
    [(f"q-{i:02d}", "phy-lens-formula", "Hard", f"g{i}", i % 3, False) for i in range(12)]
    + [
        ("q-dup-a", "phy-lens-formula", "Hard", "g0", 0, False),  # same group as q-00
        ("q-gone", "phy-lens-formula", "Hard", "gx", 0, True),  # withdrawn
        ("q-easy", "phy-lens-formula", "Easy", "ge", 0, False),
        ("q-other", "phy-prism", "Hard", "go", 0, False),
    ]
)


def test_a_request_the_pool_can_serve_is_served_whole() -> None:
    pick = practice_pick(POOL, "phy-lens-formula", Difficulty.HARD, 10, seed="job-1")
    assert pick.short == 0 and len(pick.question_ids) == 10
    chosen = POOL.filter(pl.col("question_id").is_in(pick.question_ids))
    assert chosen["near_duplicate_group"].n_unique() == 10
    assert set(chosen["topic_id"]) == {"phy-lens-formula"} and set(chosen["difficulty"]) == {"Hard"}
    assert "q-gone" not in pick.question_ids
    # The least used come first: all eight with times_used 0 or 1 before any with 2.
    assert sorted(chosen["times_used"].to_list())[:8] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_what_the_pool_lacks_is_reported_exactly() -> None:
    pick = practice_pick(POOL, "phy-prism", Difficulty.HARD, 4, seed="job-2")
    assert pick.question_ids == ("q-other",) and pick.short == 3
    empty = practice_pick(POOL, "phy-prism", Difficulty.EASY, 2, seed="job-2")
    assert empty.question_ids == () and empty.short == 2


def test_the_same_job_picks_the_same_set_and_another_job_may_differ() -> None:
    first = practice_pick(POOL, "phy-lens-formula", Difficulty.HARD, 3, seed="job-3")
    assert first == practice_pick(POOL, "phy-lens-formula", Difficulty.HARD, 3, seed="job-3")
    others = {
        practice_pick(POOL, "phy-lens-formula", Difficulty.HARD, 3, seed=f"job-{i}").question_ids
        for i in range(10)
    }
    assert len(others) > 1


@pytest.mark.parametrize("count", [0, 11, -1])
def test_question_count_outside_1_to_10_is_refused(count: int) -> None:
    with pytest.raises(ValueError, match="question_count must be 1 to 10"):
        practice_pick(POOL, "phy-lens-formula", Difficulty.HARD, count, seed="job-4")
