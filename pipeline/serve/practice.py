"""Custom topic practice: the questions a practice set takes from the pool snapshot.

The worker samples the latest pool snapshot (site_builder.snapshot) and generates only what the
topic lacks. This is the sampling half: which servable questions of the topic and difficulty a
request gets, and how many more it would need.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from core.ids import digest
from core.records import Difficulty
from pipeline.serve.requests import MAX_PRACTICE_QUESTIONS


@dataclass(frozen=True)
class PracticePick:
    question_ids: tuple[str, ...]
    short: int  # how many more questions the topic × difficulty needs (0: served from the pool)


def practice_pick(
    snapshot: pl.DataFrame, topic_id: str, difficulty: Difficulty, count: int, seed: str
) -> PracticePick:
    """Up to `count` servable questions of the topic at the difficulty, and what is short.

    One question per near-duplicate group (a set never asks one fact twice), the least used
    first, then in an order fixed by the seed (the job id), so a retried job picks the same set.
    """
    if not 1 <= count <= MAX_PRACTICE_QUESTIONS:
        raise ValueError(f"question_count must be 1 to {MAX_PRACTICE_QUESTIONS}, got {count}")
    rows = snapshot.filter(
        (pl.col("topic_id") == topic_id)
        & (pl.col("difficulty") == difficulty.value)
        & ~pl.col("withdrawn")
    ).select("question_id", "times_used", "near_duplicate_group")
    # A topic has tens of rows: plain Python orders it faster than a polars plan is built.
    ranked = sorted(rows.iter_rows(), key=lambda r: (r[1], digest([seed, r[0]])))
    picked: list[str] = []
    groups: set[str] = set()
    for question_id, _, group in ranked:
        if group not in groups:
            groups.add(group)
            picked.append(question_id)
            if len(picked) == count:
                break
    return PracticePick(tuple(picked), count - len(picked))


def best_served_topic(snapshot: pl.DataFrame) -> tuple[str, Difficulty, int]:
    """The topic and difficulty with the most distinct questions, and how many (for examples)."""
    if snapshot.is_empty():
        return "phy-ohms-law", Difficulty.EASY, 0
    counts = (
        snapshot.filter(~pl.col("withdrawn"))
        .group_by("topic_id", "difficulty")
        .agg(pl.col("near_duplicate_group").n_unique().alias("groups"))
        .sort("groups", "topic_id", "difficulty", descending=[True, False, False])
    )
    row = counts.row(0, named=True)
    return row["topic_id"], Difficulty(row["difficulty"]), row["groups"]
