"""A small real pool for worker tests: verified offline questions, published as a pool snapshot."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable

import polars as pl

from core.pool import pool_rows
from core.records import Difficulty, Question, Subject
from pipeline.compose import Services
from pipeline.verify.gate import verified
from site_builder.snapshot import POOL_SNAPSHOT_KEY


def verified_questions(
    services: Services, cells: Iterable[tuple[Subject, Difficulty]], per_cell: int
) -> list[Question]:
    """Up to per_cell verified questions from each (subject, difficulty) cell's drafts."""
    out: list[Question] = []
    for subject, difficulty in cells:
        taken = 0
        for draft in services.drafter.drafts(subject, difficulty, {}):
            question = verified(draft, services.solver)[1]
            if question is not None:
                out.append(question)
                taken += 1
            if taken == per_cell:
                break
    return out


def publish_pool(services: Services, questions: list[Question]) -> pl.DataFrame:
    """Write questions as the pool snapshot the worker reads; returns the rows."""
    rows = pool_rows(questions)
    buffer = io.BytesIO()
    rows.write_parquet(buffer)
    services.store.put(POOL_SNAPSHOT_KEY, buffer.getvalue())
    return rows


def richest_topic(rows: pl.DataFrame, difficulty: Difficulty) -> tuple[str, int]:
    """The topic with the most near-duplicate groups at a difficulty, and how many."""
    counts = (
        rows.filter(pl.col("difficulty") == difficulty.value)
        .group_by("topic_id")
        .agg(pl.col("near_duplicate_group").n_unique().alias("groups"))
        .sort("groups", "topic_id", descending=[True, False])
    )
    return counts["topic_id"][0], counts["groups"][0]


class Clock:
    """Wall and monotonic time a test moves by hand (`seconds` after `start`)."""

    def __init__(self, start: dt.datetime) -> None:
        self.start = start
        self.seconds = 0.0

    def now(self) -> dt.datetime:
        return self.start + dt.timedelta(seconds=self.seconds)

    def monotonic(self) -> float:
        return self.seconds
