"""The pool snapshot the worker samples from: servable questions' metadata as Parquet."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable

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


# The last topic floor's spent cells: topic × difficulty cells the offline generators can add
# nothing to (pipeline.fill.coverage.spent_cells). The worker refuses a practice set the pool
# cannot fill from one of them at POST time (409 insufficient_pool).
TOPIC_COVERAGE_KEY = "internal/pool/topic-coverage.json"


def topic_coverage_bytes(floor: int, spent: Iterable[tuple[str, str]]) -> bytes:
    cells = sorted(spent)
    return json.dumps({"floor": floor, "spent": [list(c) for c in cells]}).encode()


def read_spent_cells(data: bytes) -> frozenset[tuple[str, str]]:
    return frozenset((t, d) for t, d in json.loads(data)["spent"])
