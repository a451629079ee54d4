"""The pool snapshot the worker samples from: servable questions' metadata as Parquet."""

from __future__ import annotations

import io

import polars as pl

from core.pool import SNAPSHOT_SCHEMA

POOL_SNAPSHOT_KEY = "internal/pool/snapshot.parquet"


def pool_snapshot(pool: pl.DataFrame, records: pl.DataFrame) -> bytes:
    """Parquet bytes of every servable (not withdrawn) question, with what sampling needs.

    `records` has question_id and record_json (the canonical Question) of the pool's questions.
    """
    servable = (
        pool.filter(~pl.col("withdrawn"))
        .join(records, on="question_id", how="left")
        .select(SNAPSHOT_SCHEMA.names())
    )
    buffer = io.BytesIO()
    servable.write_parquet(buffer, compression="zstd")
    return buffer.getvalue()


def read_pool_snapshot(data: bytes) -> pl.DataFrame:
    return pl.read_parquet(io.BytesIO(data))
