"""The pool snapshot the worker samples from: servable questions' metadata as Parquet."""

from __future__ import annotations

import io

import polars as pl

POOL_SNAPSHOT_KEY = "internal/pool/snapshot.parquet"
SNAPSHOT_COLUMNS = (
    "question_id",
    "subject",
    "unit_id",
    "topic_id",
    "difficulty",
    "format",
    "template_id",
    "figure",
    "near_duplicate_group",
    "times_used",
    "last_used",
    "last_daily",
    "correct_key",
)


def pool_snapshot(pool: pl.DataFrame) -> bytes:
    """Parquet bytes of every servable (not withdrawn) question, with what sampling needs."""
    servable = pool.filter(~pl.col("withdrawn")).select(SNAPSHOT_COLUMNS)
    buffer = io.BytesIO()
    servable.write_parquet(buffer, compression="zstd")
    return buffer.getvalue()


def read_pool_snapshot(data: bytes) -> pl.DataFrame:
    return pl.read_parquet(io.BytesIO(data))
