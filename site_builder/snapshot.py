"""The pool snapshot the worker samples from: servable questions' metadata as Parquet."""

from __future__ import annotations

import io

import polars as pl

from pipeline.assemble.index import POOL_COLUMNS

POOL_SNAPSHOT_KEY = "internal/pool/snapshot.parquet"
# What the worker's assembler reads (it runs the same assembly on the snapshot), the template
# (where a top-up's numericals start) and each question's record (what a job's result shows).
SNAPSHOT_COLUMNS = (*POOL_COLUMNS, "record_json")


def pool_snapshot(pool: pl.DataFrame, records: pl.DataFrame) -> bytes:
    """Parquet bytes of every servable (not withdrawn) question, with what sampling needs.

    `records` has question_id and record_json (the canonical Question) of the pool's questions.
    """
    servable = (
        pool.filter(~pl.col("withdrawn"))
        .join(records, on="question_id", how="left")
        .select(SNAPSHOT_COLUMNS)
    )
    buffer = io.BytesIO()
    servable.write_parquet(buffer, compression="zstd")
    return buffer.getvalue()


def read_pool_snapshot(data: bytes) -> pl.DataFrame:
    return pl.read_parquet(io.BytesIO(data))
