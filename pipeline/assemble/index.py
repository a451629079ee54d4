"""The pool prepared once for many assemblies (PoolIndex: integer codes and each row's priority
key but for its seeded bits), and the seeded hash that varies papers between requests."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa
from numpy.typing import NDArray

from core.ids import digest
from core.pool import POOL_COLUMNS
from core.records import OPTION_KEYS
from pipeline.assemble.blueprint import FIGURE_CLASS, STRUCTURE_CLASS
from pipeline.assemble.request import DIFFICULTIES, SUBJECTS

# What assembly reads from a pool frame (core.warehouse.Warehouse.pool gives all of them).
_USES_BITS, _DATE_BITS = 4, 12  # priority tiers: papers so far (0–15), last-use date rank


@dataclass(frozen=True, eq=False)
class PoolIndex:
    """A pool frame as integer codes, rows grouped in (bucket, group) runs, ready for requests.

    A bucket is (subject, unit, difficulty, class); a class is `figure` or the format
    (blueprint.question_class). A paper
    takes at most one question of each conflict group (`group`: one template or fact relation
    in one format, merged with any other whose stem is the same text) and of each
    near-duplicate group (`enemy`). Building one costs about as much as reading the pool; the
    worker keeps it beside its snapshot.
    """

    question_ids: list[str]
    correct_key: list[str]
    subject: NDArray[np.int64]
    unit: NDArray[np.int64]
    units: tuple[tuple[str, str], ...]  # code → (subject, unit_id)
    difficulty: NDArray[np.int64]
    klass: NDArray[np.int64]
    classes: tuple[str, ...]
    topic: NDArray[np.int64]
    topics: tuple[str, ...]
    group: NDArray[np.int64]  # conflict group: one (family, format) or a shared stem
    enemy: NDArray[np.int64]  # near-duplicate group
    key: NDArray[np.int64]  # stored correct key, 0–3 for A–D
    steps: NDArray[np.int64]  # steps the difficulty rubric counted (core.pool.steps_in_reason)
    structure: NDArray[np.bool_]  # shows structural formulae (core.pool.shows_structures)
    withdrawn: NDArray[np.bool_]
    times_used: NDArray[np.int64]
    last_used_rank: NDArray[np.int64]  # 0: never used; else 1 for the oldest date upwards
    last_daily: NDArray[np.int64]  # days since 1970 of the latest daily paper; -1: never
    id_rank: NDArray[np.int64]  # position of the id in sorted order: the final tie-break
    row_of_rank: NDArray[np.int64]
    id_word: NDArray[np.uint64]
    bucket: NDArray[np.int64]
    bucket_unit: NDArray[np.int64]  # bucket code → unit code, difficulty, class
    bucket_difficulty: NDArray[np.int64]
    bucket_class: NDArray[np.int64]
    run_starts: NDArray[np.int64]
    run_bucket_key: NDArray[np.uint64]  # each run's bucket, in the priority key's top bits
    base_priority: NDArray[np.uint64]  # the priority key without its seeded hash bits
    index_bits: int
    bucket_bits: int
    hash_bits: int

    @property
    def tier_shift(self) -> np.uint64:
        """How far to shift a priority key right to leave its papers-so-far tier."""
        return np.uint64(self.hash_bits + self.index_bits + _DATE_BITS)

    @property
    def invalid(self) -> np.uint64:
        """The priority of an ineligible row: above every real one (ids never fill their bits)."""
        return np.uint64((1 << (64 - self.bucket_bits)) - 1)

    def __len__(self) -> int:
        return len(self.question_ids)


def _codes(values: pl.Series) -> tuple[NDArray[np.int64], tuple[str, ...]]:
    names = values.unique().sort()
    lookup = {v: i for i, v in enumerate(names.to_list())}
    codes = values.replace_strict(lookup, return_dtype=pl.Int64).to_numpy()
    return _int64(codes), tuple(names.to_list())


def _int64(values: NDArray[np.generic]) -> NDArray[np.int64]:
    return np.asarray(values, dtype=np.int64)


def index_pool(pool: pl.DataFrame) -> PoolIndex:
    """Prepare a pool frame (the columns of POOL_COLUMNS) for fast assembly."""
    missing = set(POOL_COLUMNS) - set(pool.columns)
    if missing:
        raise ValueError(f"pool frame lacks columns {sorted(missing)}")
    frame = pool.select(POOL_COLUMNS).with_columns(
        pl.when(pl.col("structure"))
        .then(pl.lit(STRUCTURE_CLASS))
        .when(pl.col("figure"))
        .then(pl.lit(FIGURE_CLASS))
        .otherwise(pl.col("format"))
        .alias("class"),
        (pl.col("subject") + "|" + pl.col("unit_id")).alias("_unit"),
        pl.col("subject")
        .replace_strict({s.value: i for i, s in enumerate(SUBJECTS)}, return_dtype=pl.Int64)
        .alias("_subject"),
        pl.col("difficulty")
        .replace_strict({d.value: i for i, d in enumerate(DIFFICULTIES)}, return_dtype=pl.Int64)
        .alias("_difficulty"),
        pl.col("family").alias("_family"),
        pl.col("stem").str.to_lowercase().str.replace_all(r"\s+", " ").str.strip_chars(),
    )
    # A family inside one near-duplicate group is held by the group (the group's rule implies
    # the family's); a family spanning groups (a fact relation in one format) stands as itself.
    nested = frame.group_by("_family").agg(
        pl.col("near_duplicate_group").n_unique().alias("_groups"),
        pl.col("near_duplicate_group").first().alias("_first"),
    )
    frame = frame.join(nested, on="_family", how="left").with_columns(
        pl.when(pl.col("_groups") == 1)
        .then("g:" + pl.col("_first"))
        .otherwise("f:" + pl.col("_family"))
        .alias("_family")
    )
    frame = frame.with_columns(_conflict_keys(frame["_family"], frame["stem"]).alias("_conflict"))
    frame = frame.with_columns(
        pl.col("_unit").rank("dense").cast(pl.Int64).sub(1).alias("_unit_code"),
        pl.col("class").rank("dense").cast(pl.Int64).sub(1).alias("_class_code"),
        pl.col("_conflict").rank("dense").cast(pl.Int64).sub(1).alias("_group"),
        pl.col("near_duplicate_group").rank("dense").cast(pl.Int64).sub(1).alias("_enemy"),
    )
    n_classes = frame["class"].n_unique()
    frame = frame.with_columns(
        ((pl.col("_unit_code") * 3 + pl.col("_difficulty")) * n_classes + pl.col("_class_code"))
        .rank("dense")
        .cast(pl.Int64)
        .sub(1)
        .alias("_bucket"),
    ).sort("_bucket", "_group", "question_id")
    bucket = _int64(frame["_bucket"].to_numpy())
    n = frame.height
    run_break = np.ones(n, dtype=bool)
    if n:
        group = frame["_group"].to_numpy()
        run_break[1:] = (bucket[1:] != bucket[:-1]) | (group[1:] != group[:-1])
    id_rank = _int64((frame["question_id"].rank("ordinal").cast(pl.Int64) - 1).to_numpy())
    row_of_rank = np.empty(n, dtype=np.int64)
    row_of_rank[id_rank] = np.arange(n)
    unit_codes = _int64(frame["_unit_code"].to_numpy())
    n_buckets = int(bucket.max()) + 1 if n else 0
    zeros = (np.zeros(n_buckets, dtype=np.int64) for _ in range(3))
    bucket_unit, bucket_difficulty, bucket_class = zeros
    bucket_unit[bucket] = unit_codes
    bucket_difficulty[bucket] = frame["_difficulty"].to_numpy()
    bucket_class[bucket] = frame["_class_code"].to_numpy()
    last_used_rank = _int64(
        frame["last_used"].cast(pl.String).rank("dense").fill_null(0).to_numpy()
    )
    times_used = _int64(frame["times_used"].cast(pl.Int64).to_numpy())
    # One 64-bit priority key per row: [bucket | uses | last-use rank | seeded hash | id rank],
    # so one integer sort orders rows by bucket and priority, and the low bits name the row.
    # Only the hash depends on the request; the rest is laid down here.
    index_bits = max(1, n.bit_length())
    bucket_bits = max(1, (int(bucket.max()) if n else 0).bit_length())
    hash_bits = 64 - bucket_bits - _USES_BITS - _DATE_BITS - index_bits
    if hash_bits < 8:
        raise ValueError(f"pool of {n} rows is too large for one 64-bit priority key")
    uses = np.minimum(times_used, (1 << _USES_BITS) - 1).astype(np.uint64)
    dated = np.minimum(last_used_rank, (1 << _DATE_BITS) - 1).astype(np.uint64)
    base_priority = (
        ((uses << np.uint64(_DATE_BITS)) | dated) << np.uint64(hash_bits + index_bits)
    ) | id_rank.astype(np.uint64)
    topic, topics = _codes(frame["topic_id"])
    return PoolIndex(
        question_ids=frame["question_id"].to_list(),
        correct_key=frame["correct_key"].to_list(),
        subject=_int64(frame["_subject"].to_numpy()),
        unit=unit_codes,
        units=tuple(
            (u.split("|", 1)[0], u.split("|", 1)[1]) for u in frame["_unit"].unique().sort()
        ),
        difficulty=_int64(frame["_difficulty"].to_numpy()),
        klass=_int64(frame["_class_code"].to_numpy()),
        classes=tuple(frame["class"].unique().sort().to_list()),
        topic=topic,
        topics=topics,
        group=_int64(frame["_group"].to_numpy()),
        enemy=_int64(frame["_enemy"].to_numpy()),
        key=_int64(
            frame["correct_key"]
            .replace_strict({k: i for i, k in enumerate(OPTION_KEYS)}, return_dtype=pl.Int64)
            .to_numpy()
        ),
        steps=_int64(frame["steps"].cast(pl.Int64).fill_null(1).to_numpy()),
        structure=frame["structure"].fill_null(False).to_numpy(),
        withdrawn=frame["withdrawn"].fill_null(False).to_numpy(),
        times_used=times_used,
        last_used_rank=last_used_rank,
        last_daily=frame["last_daily"]
        .cast(pl.String)
        .str.to_date()
        .cast(pl.Int64)
        .fill_null(-1)
        .to_numpy(),
        id_rank=id_rank,
        row_of_rank=row_of_rank,
        id_word=_id_words(frame["question_id"]),
        bucket=bucket,
        bucket_unit=bucket_unit,
        bucket_difficulty=bucket_difficulty,
        bucket_class=bucket_class,
        run_starts=np.flatnonzero(run_break),
        run_bucket_key=bucket[run_break].astype(np.uint64) << np.uint64(64 - bucket_bits),
        base_priority=base_priority,
        index_bits=index_bits,
        bucket_bits=bucket_bits,
        hash_bits=hash_bits,
    )


def _conflict_keys(family: pl.Series, stem: pl.Series) -> pl.Series:
    """Each row's family, merged with every other family that shares one of its stems.

    A family is a template or fact relation in one format; two questions of one family, or with
    the same stem text, never share a paper. Merging the families that share a stem keeps both
    rules one "at most one per group" rule, which the flow encodes exactly (it is stricter only
    for families that share a stem, which almost never happens).
    """
    pairs = pl.DataFrame({"family": family, "stem": stem}).unique()
    shared = pairs.filter(pl.col("stem").is_duplicated())
    if shared.is_empty():
        return family
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for _, families in shared.group_by("stem").agg("family").sort("stem").iter_rows():
        roots = sorted({root(f) for f in families})
        for other in roots[1:]:
            parent[other] = roots[0]  # the smallest name wins: the same merge in any row order
    return family.replace({f: root(f) for f in parent})


def _splitmix64(x: NDArray[np.uint64]) -> NDArray[np.uint64]:
    with np.errstate(over="ignore"):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _id_words(ids: pl.Series) -> NDArray[np.uint64]:
    """64 stable bits per id: its UTF-8 bytes, 8 at a time, folded by splitmix64."""
    arr = ids.to_arrow()
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    arr = arr.cast(pa.large_string())
    n = len(arr)
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    offsets = np.frombuffer(arr.buffers()[1], dtype=np.int64)[arr.offset : arr.offset + n + 1]
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8)
    lengths = np.diff(offsets)
    width = max(8, -(-int(lengths.max()) // 8) * 8)
    padded = np.zeros((n, width), dtype=np.uint8)
    row = np.repeat(np.arange(n), lengths)
    column = np.arange(int(lengths.sum())) - np.repeat(offsets[:-1] - offsets[0], lengths)
    padded[row, column] = data[offsets[0] : offsets[-1]]
    words = padded.view("<u8")
    out = lengths.astype(np.uint64)
    for j in range(words.shape[1]):  # only an id's own words: the padding must not count
        out = np.where(lengths > 8 * j, _splitmix64(out ^ words[:, j]), out)
    return out


def seeded_hash(id_words: NDArray[np.uint64], seed: str) -> NDArray[np.uint64]:
    """A stable pseudo-random 64-bit value per (seed, id): the tie-break that varies papers."""
    return _splitmix64(id_words ^ np.uint64(int(digest(["assembly", seed], 16), 16)))
