"""Blueprint-exact paper assembly: daily papers and custom exams, deterministic per seed.

Per subject, choosing the questions is a network flow, not an integer program:

    source ─D_d→ difficulty d ─cap→ (d, class) ─1→ question ─→ group ─1→ unit u
    unit u ─L_u→ sink;   unit u ─(U_u − L_u)→ X ─(n − ΣL)→ sink

Difficulty counts are the arcs out of the source, class caps (figure, format) sit on the
(d, class) arcs, a conflict group (one family, merged with any sharing a stem; see PoolIndex)
passes one unit of flow, and a unit's first
L_u questions reach the sink directly while any beyond go through X, which holds n − ΣL. A flow
of value n saturates every difficulty, and X can carry it only if every unit reaches its
minimum, so a paper exists exactly when the maximum flow is n. A smaller maximum R proves a
shortfall: n − R new questions (each in a group of its own and of an uncapped class), placed
in (unit, difficulty) cells the flow leaves room in, complete the paper, and no fewer can.

Only a shortlist enters the flow: per (subject, unit, difficulty, class) cell, the best question
of each group, and of those the best U_u. The maximum flow is unchanged (exchange argument: a
flow uses at most U_u groups of unit u, so an unused shortlisted group is always there to swap
in). A greedy pass in priority order fills the paper almost always; the flow is run only when
the greedy gets stuck, and it decides exactly. Priority: fewest papers so far, then least
recently used, then a hash of the seed and the question id.

Three rules sit outside the flow, each rarely binding: near-duplicates that cross conflict
groups (the worse is left out and the flow runs again), groups shared across subjects (a later
subject leaves what an earlier one took), and the answer-key range per letter (swaps within a
cell after the flow; `_balanced_keys`). Where they bind, a shortfall may exceed the minimum.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter, deque
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import polars as pl
import pyarrow as pa
from numpy.typing import NDArray

from core.ids import digest
from core.pool import POOL_COLUMNS, UnitCell
from core.records import (
    OPTION_KEYS,
    Difficulty,
    DifficultyTally,
    Paper,
    PaperBlueprint,
    Subject,
    SubjectTally,
    UnitTally,
)
from pipeline.assemble.blueprint import FIGURE_CLASS, Blueprint, class_caps, exam_difficulty_counts

# What assembly reads from a pool frame (core.warehouse.Warehouse.pool gives all of them).
SUBJECTS: tuple[Subject, ...] = tuple(Subject)
DIFFICULTIES: tuple[Difficulty, ...] = tuple(Difficulty)
_USES_BITS, _DATE_BITS = 4, 12  # priority tiers: papers so far (0–15), last-use date rank


@dataclass(frozen=True)
class PaperRequest:
    """One paper to assemble: its identity, subjects, difficulty shares and exposure rules."""

    exam_id: str
    kind: Literal["daily", "custom"]
    title: str
    exam_date: str | None
    subjects: tuple[Subject, ...]
    distribution: Mapping[Difficulty, float]
    seed: str
    # Daily papers: leave out questions last in a daily paper on or after this date, and
    # questions already in max_exposure papers.
    cooldown_since: str | None = None
    max_exposure: int | None = None


@dataclass(frozen=True)
class Shortfall:
    """What the pool lacks: per (subject, difficulty, unit) cell, how many new questions."""

    cells: Mapping[UnitCell, int]

    @property
    def total(self) -> int:
        return sum(self.cells.values())

    def describe(self) -> str:
        return ", ".join(f"{s.value}/{u}/{d.value}: {n}" for (s, d, u), n in self.cells.items())


def stalled_cells(before: Shortfall, after: Shortfall) -> set[UnitCell]:
    """Cells a round of generation did not help: still short of as many questions as before.

    New questions there repeat what the paper already holds (another variant of one template,
    one relation in a format the paper has), so the next shortfall should go around them.
    """
    return {cell for cell, n in after.cells.items() if n >= before.cells.get(cell, n + 1)}


def reassembled(
    before: Shortfall,
    assemble: Callable[[Collection[UnitCell]], Paper | Shortfall],
    closed: set[UnitCell],
) -> Paper | Shortfall:
    """Assemble again after a round of generation that answered `before`.

    Cells the round did not help are added to `closed` (what was made there repeats a family
    the paper already holds) and, if there are any, the shortfall is taken again around them.
    """
    outcome = assemble(closed)
    if isinstance(outcome, Shortfall):
        stalled = stalled_cells(before, outcome) - closed
        if stalled:
            closed |= stalled
            outcome = assemble(closed)
    return outcome


class ShortfallError(RuntimeError):
    """The pool cannot fill a paper; `short` says which cells lack how many questions."""

    def __init__(self, short: Mapping[UnitCell, int]) -> None:
        self.short = dict(short)
        super().__init__(f"pool is short of questions ({Shortfall(self.short).describe()})")


def daily_exam_id(date: dt.date) -> str:
    return f"daily-{date.isoformat()}"


def daily_title(date: dt.date) -> str:
    return f"NEET-UG Daily Mock Test — {date.day} {date:%B %Y}"


def daily_request(
    blueprint: Blueprint, date: dt.date, cooldown_since: str | None = None
) -> PaperRequest:
    """The daily paper's request: every subject, the blueprint's mix, cooldown and exposure cap."""
    exam_id = daily_exam_id(date)
    return PaperRequest(
        exam_id=exam_id,
        kind="daily",
        title=daily_title(date),
        exam_date=date.isoformat(),
        subjects=SUBJECTS,
        distribution=blueprint.distribution,
        seed=exam_id,
        cooldown_since=cooldown_since,
        max_exposure=blueprint.max_exposure,
    )


def custom_request(
    blueprint: Blueprint,
    exam_id: str,
    subjects: Sequence[Subject],
    distribution: Mapping[Difficulty, float],
    title: str | None = None,
) -> PaperRequest:
    """A custom exam's request: chosen subjects (in canonical order), its own difficulty mix."""
    chosen = tuple(s for s in SUBJECTS if s in set(subjects))
    if not chosen:
        raise ValueError("a custom exam needs at least one subject")
    return PaperRequest(
        exam_id=exam_id,
        kind="custom",
        title=title or f"{blueprint.title} — {', '.join(s.value for s in chosen)}",
        exam_date=None,
        subjects=chosen,
        distribution={d: float(distribution.get(d, 0.0)) for d in DIFFICULTIES},
        seed=exam_id,
    )


# ── The pool, prepared once for many assemblies ──────────────────────────────────────────────


@dataclass(frozen=True, eq=False)
class PoolIndex:
    """A pool frame as integer codes, rows grouped in (cell, group) runs, ready for requests.

    A cell is (subject, unit, difficulty, class); a class is `figure` or the format. A paper
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
    withdrawn: NDArray[np.bool_]
    times_used: NDArray[np.int64]
    last_used_rank: NDArray[np.int64]  # 0: never used; else 1 for the oldest date upwards
    last_daily: NDArray[np.int64]  # days since 1970 of the latest daily paper; -1: never
    id_rank: NDArray[np.int64]  # position of the id in sorted order: the final tie-break
    row_of_rank: NDArray[np.int64]
    id_word: NDArray[np.uint64]
    cell: NDArray[np.int64]
    cell_unit: NDArray[np.int64]  # cell code → unit code, difficulty, class
    cell_difficulty: NDArray[np.int64]
    cell_class: NDArray[np.int64]
    run_starts: NDArray[np.int64]
    run_cell_key: NDArray[np.uint64]  # each run's cell, in the priority key's top bits
    base_priority: NDArray[np.uint64]  # the priority key without its seeded hash bits
    index_bits: int
    cell_bits: int
    hash_bits: int

    @property
    def invalid(self) -> np.uint64:
        """The priority of an ineligible row: above every real one (ids never fill their bits)."""
        return np.uint64((1 << (64 - self.cell_bits)) - 1)

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
        pl.when(pl.col("figure"))
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
        .alias("_cell"),
    ).sort("_cell", "_group", "question_id")
    cell = _int64(frame["_cell"].to_numpy())
    n = frame.height
    run_break = np.ones(n, dtype=bool)
    if n:
        group = frame["_group"].to_numpy()
        run_break[1:] = (cell[1:] != cell[:-1]) | (group[1:] != group[:-1])
    id_rank = _int64((frame["question_id"].rank("ordinal").cast(pl.Int64) - 1).to_numpy())
    row_of_rank = np.empty(n, dtype=np.int64)
    row_of_rank[id_rank] = np.arange(n)
    unit_codes = _int64(frame["_unit_code"].to_numpy())
    n_cells = int(cell.max()) + 1 if n else 0
    cell_unit, cell_difficulty, cell_class = (np.zeros(n_cells, dtype=np.int64) for _ in range(3))
    cell_unit[cell] = unit_codes
    cell_difficulty[cell] = frame["_difficulty"].to_numpy()
    cell_class[cell] = frame["_class_code"].to_numpy()
    last_used_rank = _int64(
        frame["last_used"].cast(pl.String).rank("dense").fill_null(0).to_numpy()
    )
    times_used = _int64(frame["times_used"].cast(pl.Int64).to_numpy())
    # One 64-bit priority key per row: [cell | uses | last-use rank | seeded hash | id rank],
    # so one integer sort orders rows by cell and priority, and the low bits name the row.
    # Only the hash depends on the request; the rest is laid down here.
    index_bits = max(1, n.bit_length())
    cell_bits = max(1, (int(cell.max()) if n else 0).bit_length())
    hash_bits = 64 - cell_bits - _USES_BITS - _DATE_BITS - index_bits
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
        cell=cell,
        cell_unit=cell_unit,
        cell_difficulty=cell_difficulty,
        cell_class=cell_class,
        run_starts=np.flatnonzero(run_break),
        run_cell_key=cell[run_break].astype(np.uint64) << np.uint64(64 - cell_bits),
        base_priority=base_priority,
        index_bits=index_bits,
        cell_bits=cell_bits,
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


# ── Eligibility and shortlist (vectorised) ───────────────────────────────────────────────────


@dataclass(frozen=True)
class _Plan:
    """A request resolved against a blueprint and an index."""

    targets: dict[Subject, dict[Difficulty, int]]
    caps: dict[Subject, dict[tuple[Difficulty, str], int]]  # zero caps too: no such question
    unit_bounds: dict[int, tuple[int, int]]  # unit code → (min, max), units of chosen subjects
    unit_names: dict[int, tuple[str, str]]  # unit code → (subject, unit_id)
    eligible: NDArray[np.bool_]
    priority: NDArray[np.uint64]  # smaller is better; unique per row; ineligible: index.invalid


def _plan(index: PoolIndex, request: PaperRequest, blueprint: Blueprint) -> _Plan:
    # The whole exam is apportioned first, then split across subjects (README, "Difficulty").
    split = exam_difficulty_counts(
        request.distribution, len(request.subjects), blueprint.questions_per_subject
    )
    targets = dict(zip(request.subjects, split, strict=True))
    caps = {s: class_caps(blueprint, targets[s]) for s in request.subjects}
    # Every unit of the chosen subjects, also those with no question in the pool (codes past
    # the index's own): their minimums count too.
    codes = {name: code for code, name in enumerate(index.units)}
    unit_bounds: dict[int, tuple[int, int]] = {}
    unit_names: dict[int, tuple[str, str]] = {}
    for s in request.subjects:
        for unit, r in blueprint.units[s].items():
            code = codes.setdefault((s.value, unit), len(codes))
            unit_bounds[code] = (r.min, r.max)
            unit_names[code] = (s.value, unit)
    unit_ok = np.zeros(len(codes), dtype=bool)
    unit_ok[np.array(list(unit_bounds), dtype=np.int64)] = True
    topic_ok = np.fromiter((t in blueprint.live_topics for t in index.topics), bool)
    # A (difficulty, class) no chosen subject can take makes its rows ineligible.
    class_ok = np.zeros((len(DIFFICULTIES), max(1, len(index.classes))), dtype=bool)
    for s in request.subjects:
        for i, d in enumerate(DIFFICULTIES):
            for j, cls in enumerate(index.classes):
                class_ok[i, j] |= targets[s][d] > 0 and caps[s].get((d, cls)) != 0
    # Unit and class rules hold per cell: decide them for the few cells, then look them up.
    cell_ok = unit_ok[index.cell_unit] & class_ok[index.cell_difficulty, index.cell_class]
    eligible = cell_ok[index.cell] & topic_ok[index.topic] & ~index.withdrawn
    if request.cooldown_since is not None:
        since = (dt.date.fromisoformat(request.cooldown_since) - dt.date(1970, 1, 1)).days
        eligible &= index.last_daily < since
    if request.max_exposure is not None:
        eligible &= index.times_used < request.max_exposure
    shuffled = seeded_hash(index.id_word, request.seed) >> np.uint64(64 - index.hash_bits)
    priority = index.base_priority | (shuffled << np.uint64(index.index_bits))
    priority[~eligible] = index.invalid
    return _Plan(targets, caps, unit_bounds, unit_names, eligible, priority)


def eligible_rows(
    index: PoolIndex, request: PaperRequest, blueprint: Blueprint
) -> NDArray[np.int64]:
    """Rows of every question the request may use (withdrawn, deleted, cooling down: out)."""
    return np.flatnonzero(_plan(index, request, blueprint).eligible)


def _shortlisted(index: PoolIndex, plan: _Plan) -> NDArray[np.int64]:
    """Rows of the shortlist: per cell, the best row of each group, the best U_u of them."""
    if not len(index):
        return np.zeros(0, dtype=np.int64)
    best = np.minimum.reduceat(plan.priority, index.run_starts)  # per (cell, group) run
    valid = best != index.invalid
    keys = np.sort(index.run_cell_key[valid] | best[valid])  # by cell, then priority
    cell_shift = np.uint64(64 - index.cell_bits)
    cells = (keys >> cell_shift).astype(np.int64)
    position = np.arange(len(keys))
    is_start = np.ones(len(keys), dtype=bool)
    is_start[1:] = cells[1:] != cells[:-1]
    starts = np.maximum.accumulate(np.where(is_start, position, 0))
    unit_max = np.zeros(len(index.units), dtype=np.int64)
    for code, (_, hi) in plan.unit_bounds.items():
        if code < len(unit_max):
            unit_max[code] = hi
    keep = position - starts < unit_max[index.cell_unit][cells]
    rank_mask = np.uint64((1 << index.index_bits) - 1)
    return index.row_of_rank[(keys[keep] & rank_mask).astype(np.int64)]


def shortlisted_rows(
    index: PoolIndex, request: PaperRequest, blueprint: Blueprint
) -> NDArray[np.int64]:
    """The exact shortlist's rows (see the module docstring), best first."""
    plan = _plan(index, request, blueprint)
    rows = _shortlisted(index, plan)
    return rows[np.argsort(plan.priority[rows])]


# ── Choosing one subject's questions ─────────────────────────────────────────────────────────


@dataclass
class _Network:
    """A residual graph with integer capacities; arc e's reverse is e ^ 1."""

    adjacency: list[list[int]] = field(default_factory=list)
    head: list[int] = field(default_factory=list)
    residual: list[int] = field(default_factory=list)
    cost: list[int] = field(default_factory=list)

    def node(self) -> int:
        self.adjacency.append([])
        return len(self.adjacency) - 1

    def arc(self, tail: int, head: int, capacity: int, cost: int = 0) -> int:
        e = len(self.head)
        self.head += [head, tail]
        self.residual += [capacity, 0]
        self.cost += [cost, -cost]
        self.adjacency[tail].append(e)
        self.adjacency[head].append(e + 1)
        return e

    def flow(self, e: int) -> int:
        return self.residual[e ^ 1]

    def push(self, arcs: Sequence[int]) -> None:
        for e in arcs:
            self.residual[e] -= 1
            self.residual[e ^ 1] += 1

    def augment(self, source: int, sink: int) -> bool:
        """Push one unit along a shortest augmenting path; False when there is none."""
        parent = [-1] * len(self.adjacency)
        parent[source] = -2
        queue = deque([source])
        adjacency, head, residual = self.adjacency, self.head, self.residual
        while queue and parent[sink] == -1:
            v = queue.popleft()
            for e in adjacency[v]:
                w = head[e]
                if residual[e] > 0 and parent[w] == -1:
                    parent[w] = e
                    queue.append(w)
        return self._push_back(parent, source, sink)

    def cheapest_augment(self, source: int, sink: int) -> bool:
        """Push one unit along a cheapest augmenting path (queue-based Bellman–Ford).

        Started from a flow of least cost for its value, each push keeps it so (successive
        shortest paths), and there is no negative cycle to trip on.
        """
        far = len(self.head) + 1
        distance = [far] * len(self.adjacency)
        parent = [-1] * len(self.adjacency)
        queued = [False] * len(self.adjacency)
        distance[source], parent[source] = 0, -2
        queue = deque([source])
        adjacency, head, residual, cost = self.adjacency, self.head, self.residual, self.cost
        while queue:
            v = queue.popleft()
            queued[v] = False
            for e in adjacency[v]:
                if residual[e] > 0:
                    w, d = head[e], distance[v] + cost[e]
                    if d < distance[w]:
                        distance[w], parent[w] = d, e
                        if not queued[w]:
                            queued[w] = True
                            queue.append(w)
        return self._push_back(parent, source, sink)

    def _push_back(self, parent: list[int], source: int, sink: int) -> bool:
        if parent[sink] == -1:
            return False
        path, v = [], sink
        while v != source:
            e = parent[v]
            path.append(e)
            v = self.head[e ^ 1]
        self.push(path)
        return True


@dataclass(frozen=True)
class _Candidates:
    """One subject's shortlisted questions, best first, as plain lists."""

    rows: list[int]
    difficulty: list[int]  # index into DIFFICULTIES
    klass: list[int]  # index into PoolIndex.classes
    group: list[int]
    unit: list[int]
    tier: list[int]  # papers so far (ascending, like the rows)
    enemy: list[int]
    key: list[int]

    def without(self, drop: Collection[int]) -> _Candidates:
        keep = [i for i in range(len(self.rows)) if i not in drop]
        return _Candidates(
            *([getattr(self, f.name)[i] for i in keep] for f in dataclasses.fields(self))
        )


@dataclass(frozen=True)
class _Choice:
    chosen: list[int]  # positions in _Candidates
    by_difficulty: dict[int, int]  # chosen questions (real ones) per difficulty index
    by_unit: dict[int, int]
    # Questions the flow had to invent, per (unit code, difficulty index): only when it was
    # allowed to (`open_cells`).
    invented: dict[tuple[int, int], int] = field(default_factory=dict)


def _greedy(
    c: _Candidates,
    targets: Mapping[int, int],
    caps: Mapping[tuple[int, int], int],
    units: Mapping[int, tuple[int, int]],
    most_per_key: int,
) -> _Choice:
    """Take questions best first while each still fits; a unit's minimum never waits on X."""
    d_left = dict(targets)
    cap_left = dict(caps)
    extra_left = sum(targets.values()) - sum(lo for lo, _ in units.values())
    count = dict.fromkeys(units, 0)
    used: set[int] = set()
    enemies: set[int] = set()
    keys = [0] * len(OPTION_KEYS)
    chosen: list[int] = []
    total = sum(targets.values())
    for i, (d, cls, g, u) in enumerate(zip(c.difficulty, c.klass, c.group, c.unit, strict=True)):
        if len(chosen) == total:
            break
        if d_left[d] == 0 or g in used or cap_left.get((d, cls), 1) == 0:
            continue
        if c.enemy[i] in enemies or keys[c.key[i]] >= most_per_key:
            continue
        lo, hi = units[u]
        if count[u] >= lo:
            if count[u] >= hi or extra_left == 0:
                continue
            extra_left -= 1
        count[u] += 1
        d_left[d] -= 1
        if (d, cls) in cap_left:
            cap_left[(d, cls)] -= 1
        used.add(g)
        enemies.add(c.enemy[i])
        keys[c.key[i]] += 1
        chosen.append(i)
    return _Choice(chosen, {d: targets[d] - d_left[d] for d in targets}, count)


def _flow_without_enemies(
    c: _Candidates,
    targets: Mapping[int, int],
    caps: Mapping[tuple[int, int], int],
    units: Mapping[int, tuple[int, int]],
) -> tuple[_Candidates, _Choice]:
    """The maximum flow, with the worse of any two chosen near-duplicates left out and the flow
    run again (the flow encodes one group per question; a fact's near-duplicates span formats,
    so they cross groups). Rare: most near-duplicate groups sit inside one group."""
    while True:
        choice = _max_flow(c, targets, caps, units)
        seen: set[int] = set()
        clash = set()
        for i in choice.chosen:  # best first: the later of two near-duplicates goes
            if c.enemy[i] in seen:
                clash.add(i)
            seen.add(c.enemy[i])
        if not clash:
            return c, choice
        c = c.without(clash)


def _swap_candidates(index: PoolIndex, spare: NDArray[np.int64], chosen: int) -> NDArray[np.int64]:
    """The rows a key swap can bring in, best first: per (cell, key) the best row of each
    conflict group, and of those the best 2 × chosen + 1 (the chosen questions block at most
    that many groups and near-duplicate groups, so one always stays free if any can)."""
    if not len(spare):
        return spare
    ck = index.cell[spare] * len(OPTION_KEYS) + index.key[spare]
    group = index.group[spare]
    position = np.arange(len(spare))
    order = np.lexsort((position, group, ck))
    first = np.ones(len(order), dtype=bool)
    first[1:] = (ck[order][1:] != ck[order][:-1]) | (group[order][1:] != group[order][:-1])
    best = order[first]
    best = best[np.lexsort((best, ck[best]))]
    starts = np.flatnonzero(np.r_[True, ck[best][1:] != ck[best][:-1]])
    rank = position[: len(best)] - np.repeat(starts, np.diff(np.r_[starts, len(best)]))
    return spare[np.sort(best[rank <= 2 * chosen])]


def _balanced_keys(
    index: PoolIndex,
    chosen: list[int],
    spare: Sequence[int],
    priority: NDArray[np.uint64],
    key_range: tuple[int, int],
) -> list[int] | None:
    """Chosen rows with every key within `key_range`, by swapping a question for one of the
    same cell (unit, difficulty, class: every count and cap holds) whose key is scarcer and
    which clashes with no other chosen question; None when no such swap is left.

    `spare` are the subject's eligible rows, best first. Each swap brings in the best question
    any helpful swap can bring (so a never-used question wins over a used one), and gives up
    the worst chosen question of the commoner key that makes room for it.
    """
    lo, hi = key_range
    chosen = list(chosen)
    keys = Counter(int(index.key[r]) for r in chosen)
    groups = Counter(int(index.group[r]) for r in chosen)
    enemies = Counter(int(index.enemy[r]) for r in chosen)
    by_cell: dict[int, list[int]] = {}
    for r in spare:
        by_cell.setdefault(int(index.cell[r]), []).append(r)

    def off() -> int:
        return sum(max(0, lo - keys[k]) + max(0, keys[k] - hi) for k in range(len(OPTION_KEYS)))

    def helps(give: int, take: int) -> bool:
        return keys[give] - keys[take] >= 2 and (keys[give] > hi or keys[take] < lo)

    while off():
        best: tuple[int, int, int] | None = None  # (priority of the newcomer, position, row)
        taken = set(chosen)
        for j in range(len(chosen) - 1, -1, -1):
            q = chosen[j]
            give = int(index.key[q])
            for r in by_cell.get(int(index.cell[q]), ()):
                if best is not None and int(priority[r]) >= best[0]:
                    break  # rows come best first: nothing later in this cell beats `best`
                g, e, take = int(index.group[r]), int(index.enemy[r]), int(index.key[r])
                if r in taken or not helps(give, take):
                    continue
                if groups[g] - (g == index.group[q]) or enemies[e] - (e == index.enemy[q]):
                    continue
                best = (int(priority[r]), j, r)
                break
        if best is None:
            return None
        _, j, r = best
        q = chosen[j]
        chosen[j] = r
        for counter, old, new in (
            (keys, index.key[q], index.key[r]),
            (groups, index.group[q], index.group[r]),
            (enemies, index.enemy[q], index.enemy[r]),
        ):
            counter[int(old)] -= 1
            counter[int(new)] += 1
    return chosen


def _max_flow(
    c: _Candidates,
    targets: Mapping[int, int],
    caps: Mapping[tuple[int, int], int],
    units: Mapping[int, tuple[int, int]],
    open_cells: Collection[tuple[int, int]] = (),
) -> _Choice:
    """The maximum flow (module docstring): a full selection whenever one exists.

    With `open_cells` ((unit code, difficulty index) pairs), what the pool cannot supply is
    completed with invented questions in those cells only, as few as possible (each costs 1:
    successive cheapest paths from the maximum flow of real questions, which costs nothing).
    """
    total = sum(targets.values())
    net = _Network()
    source, sink, extra = net.node(), net.node(), net.node()
    extra_to_sink = net.arc(extra, sink, total - sum(lo for lo, _ in units.values()))
    d_node = {d: net.node() for d in targets}
    d_arc = {d: net.arc(source, d_node[d], n) for d, n in targets.items()}
    u_node = {u: net.node() for u in units}
    u_min = {u: net.arc(u_node[u], sink, lo) for u, (lo, _) in units.items()}
    u_extra = {u: net.arc(u_node[u], extra, hi - lo) for u, (lo, hi) in units.items()}
    class_node: dict[tuple[int, int], tuple[int, int]] = {}
    group_size = Counter(c.group)
    group_node: dict[int, tuple[int, int]] = {}
    paths: list[list[int]] = []  # each question's arcs from the source to its unit
    owned: list[int] = []  # the one arc only that question owns
    for d, cls, g, u in zip(c.difficulty, c.klass, c.group, c.unit, strict=True):
        path, tail = [d_arc[d]], d_node[d]
        if (d, cls) in caps:
            if (d, cls) not in class_node:
                n = net.node()
                class_node[(d, cls)] = (n, net.arc(d_node[d], n, caps[(d, cls)]))
            tail, cap_arc = class_node[(d, cls)]
            path.append(cap_arc)
        if group_size[g] > 1:
            if g not in group_node:
                n = net.node()
                group_node[g] = (n, net.arc(n, u_node[u], 1))
            g_node, g_arc = group_node[g]
            owned.append(net.arc(tail, g_node, 0))
            path += [owned[-1], g_arc]
        else:
            owned.append(net.arc(tail, u_node[u], 0))
            path.append(owned[-1])
        paths.append(path)
    # Questions join tier by tier (never used first), so a later tier is drawn on only when
    # the earlier ones cannot complete the paper. Each tier: its questions along their own
    # paths in priority order, then augmenting paths.
    value, start = 0, 0
    while start < len(paths) and value < total:
        end = start
        while end < len(paths) and c.tier[end] == c.tier[start]:
            net.residual[owned[end]] = 1
            end += 1
        for path, u in zip(paths[start:end], c.unit[start:end], strict=True):
            if value == total:
                break
            if all(net.residual[e] > 0 for e in path):
                if net.residual[u_min[u]] > 0:
                    net.push([*path, u_min[u]])
                elif net.residual[u_extra[u]] > 0 and net.residual[extra_to_sink] > 0:
                    net.push([*path, u_extra[u], extra_to_sink])
                else:
                    continue
                value += 1
        while value < total and net.augment(source, sink):
            value += 1
        start = end
    invent = {cell: net.arc(d_node[cell[1]], u_node[cell[0]], total, cost=1) for cell in open_cells}
    while value < total and invent and net.cheapest_augment(source, sink):
        value += 1
    invented = {cell: net.flow(e) for cell, e in invent.items() if net.flow(e)}
    return _Choice(
        chosen=[i for i, e in enumerate(owned) if net.flow(e)],
        by_difficulty={
            d: net.flow(e) - sum(n for (_, i), n in invented.items() if i == d)
            for d, e in d_arc.items()
        },
        by_unit={
            u: net.flow(u_min[u])
            + net.flow(u_extra[u])
            - sum(n for (v, _), n in invented.items() if v == u)
            for u in units
        },
        invented=invented,
    )


def _one_unit_per_group(c: _Candidates) -> _Candidates:
    """Keep each group in the unit of its best question (the flow nests groups in units).

    Groups never span units in practice (a template or fact table has one topic); this only
    keeps the flow safe if one ever does.
    """
    home: dict[int, int] = {}
    drop = {
        i
        for i, (g, u) in enumerate(zip(c.group, c.unit, strict=True))
        if home.setdefault(g, u) != u
    }
    return c.without(drop) if drop else c


def _placed_shortfall(
    subject: Subject,
    choice: _Choice,
    targets: Mapping[Difficulty, int],
    units: Mapping[int, tuple[int, int]],
    unit_ids: Mapping[int, str],
    unit_order: Mapping[str, int],
    open_cells: Collection[tuple[int, int]] | None = None,
) -> dict[UnitCell, int]:
    """Where the missing questions go: unit minimums first, then units furthest below mid-range.

    With every cell open the flow's counts always leave room for these (X's capacity bounds the
    unmet minimums), so the real questions plus these make a paper. With some cells closed,
    the flow's own placement is the fallback when this spreading gets stuck.
    """
    need = {i: targets[d] - choice.by_difficulty[i] for i, d in enumerate(DIFFICULTIES)}
    have = dict(choice.by_unit)
    ordered = sorted(
        units, key=lambda u: (unit_order.get(unit_ids[u], len(unit_order)), unit_ids[u])
    )
    placed: Counter[tuple[int, int]] = Counter()

    def fits(u: int) -> list[int]:
        return [i for i in need if need[i] > 0 and (open_cells is None or (u, i) in open_cells)]

    def place(u: int) -> bool:
        if not fits(u):
            return False
        i = max(fits(u), key=lambda x: need[x])  # the first of the largest
        need[i] -= 1
        have[u] += 1
        placed[(u, i)] += 1
        return True

    spread = all(place(u) for u in ordered for _ in range(max(0, units[u][0] - have[u])))
    while spread and sum(need.values()) > 0:
        roomy = [u for u in ordered if have[u] < units[u][1] and fits(u)]
        spread = bool(roomy) and place(
            min(roomy, key=lambda u: have[u] - (units[u][0] + units[u][1]) / 2)
        )
    cells = placed if spread else Counter(choice.invented)
    return {(subject, DIFFICULTIES[i], unit_ids[u]): n for (u, i), n in cells.items()}


# ── The paper ────────────────────────────────────────────────────────────────────────────────


def assemble_paper(
    pool: pl.DataFrame | PoolIndex,
    request: PaperRequest,
    blueprint: Blueprint,
    closed: Collection[UnitCell] = (),
) -> Paper | Shortfall:
    """The paper, or exactly what the pool is short of (per subject, unit and difficulty).

    `closed` names cells no new question can come from (their generators ran dry): the
    shortfall then avoids them, still as small as it can be, unless that leaves no way at all.
    """
    index = pool if isinstance(pool, PoolIndex) else index_pool(pool)
    plan = _plan(index, request, blueprint)
    rows = _shortlisted(index, plan)
    rows = rows[np.argsort(plan.priority[rows])]
    subject_of = index.subject[rows]
    unit_ids = {code: unit for code, (_, unit) in plan.unit_names.items()}
    tier_shift = np.uint64(index.hash_bits + index.index_bits + _DATE_BITS)  # papers so far
    shortfall: dict[UnitCell, int] = {}
    picked: dict[Subject, list[int]] = {}
    # A conflict group can span subjects (two relations of Botany and Zoology asking with one
    # stem): what an earlier subject took, a later one leaves.
    taken = np.zeros(int(index.group.max()) + 1 if len(index) else 0, dtype=bool)
    taken_enemies = np.zeros(int(index.enemy.max()) + 1 if len(index) else 0, dtype=bool)
    for s in request.subjects:
        # The greedy and the flow work on codes: difficulty and class indices.
        targets = {i: plan.targets[s][d] for i, d in enumerate(DIFFICULTIES)}
        caps = {
            (DIFFICULTIES.index(d), index.classes.index(cls)): cap
            for (d, cls), cap in plan.caps[s].items()
            if cls in index.classes
        }
        mine_rows = rows[subject_of == SUBJECTS.index(s)]
        mine = mine_rows[~taken[index.group[mine_rows]] & ~taken_enemies[index.enemy[mine_rows]]]
        mine = mine.tolist()
        c = _Candidates(
            rows=mine,
            difficulty=index.difficulty[mine].tolist(),
            klass=index.klass[mine].tolist(),
            group=index.group[mine].tolist(),
            unit=index.unit[mine].tolist(),
            tier=(plan.priority[mine] >> tier_shift).tolist(),
            enemy=index.enemy[mine].tolist(),
            key=index.key[mine].tolist(),
        )
        units = {
            code: bounds
            for code, bounds in plan.unit_bounds.items()
            if plan.unit_names[code][0] == s.value
        }
        choice = _greedy(c, targets, caps, units, blueprint.answer_keys_per_letter[1])
        # The greedy's paper stands when it is complete and drew only on the least-used tier;
        # otherwise the flow decides, tier by tier, so a paper of never-used questions is found
        # whenever one exists.
        if (
            len(choice.chosen) < blueprint.questions_per_subject
            or c.tier[choice.chosen[-1]] != c.tier[0]
        ):
            c, choice = _flow_without_enemies(_one_unit_per_group(c), targets, caps, units)
        if len(choice.chosen) < blueprint.questions_per_subject:
            open_cells = None
            code = {unit_ids[u]: u for u in units}
            shut = {
                (code[u], DIFFICULTIES.index(d)) for (t, d, u) in closed if t == s and u in code
            }
            if shut:
                cells = {(u, i) for u in units for i in targets if (u, i) not in shut}
                rerouted = _max_flow(c, targets, caps, units, cells)
                if sum(rerouted.invented.values()) + len(rerouted.chosen) == sum(targets.values()):
                    choice, open_cells = rerouted, cells
            shortfall.update(
                _placed_shortfall(
                    s, choice, plan.targets[s], units, unit_ids, blueprint.unit_order, open_cells
                )
            )
            continue
        chosen = [c.rows[i] for i in choice.chosen]
        lo, hi = blueprint.answer_keys_per_letter
        keys = np.bincount(index.key[chosen], minlength=len(OPTION_KEYS))
        balanced: list[int] | None = chosen
        if keys.min() < lo or keys.max() > hi:
            # Swaps stay within the chosen questions' cells: only those rows can come in.
            in_cells = np.flatnonzero(plan.eligible & np.isin(index.cell, index.cell[chosen]))
            spare = in_cells[~taken[index.group[in_cells]] & ~taken_enemies[index.enemy[in_cells]]]
            spare = _swap_candidates(index, spare[np.argsort(plan.priority[spare])], len(chosen))
            balanced = _balanced_keys(
                index, chosen, spare.tolist(), plan.priority, blueprint.answer_keys_per_letter
            )
        if balanced is None:
            shortfall.update(_key_shortfall(index, s, chosen, blueprint.answer_keys_per_letter))
        else:
            picked[s] = balanced
            taken[index.group[balanced]] = True
            taken_enemies[index.enemy[balanced]] = True
    if shortfall:
        return Shortfall(shortfall)
    return _paper(index, plan, request, blueprint, picked)


def _key_shortfall(
    index: PoolIndex, subject: Subject, chosen: Sequence[int], key_range: tuple[int, int]
) -> dict[UnitCell, int]:
    """When no swap balances the keys: new questions in the cells of the commonest key's worst
    questions, as many as the scarcest key lacks (new questions come with any key, so the next
    round of the fill may need another)."""
    keys = Counter(int(index.key[r]) for r in chosen)
    lacking = max(
        max(key_range[0] - keys[k], keys[k] - key_range[1]) for k in range(len(OPTION_KEYS))
    )
    commonest = max(range(len(OPTION_KEYS)), key=lambda k: keys[k])
    cells: Counter[UnitCell] = Counter()
    for r in [r for r in reversed(chosen) if index.key[r] == commonest][:lacking]:
        unit = index.units[int(index.unit[r])][1]
        cells[(subject, DIFFICULTIES[int(index.difficulty[r])], unit)] += 1
    return dict(cells)


def _paper(
    index: PoolIndex,
    plan: _Plan,
    request: PaperRequest,
    blueprint: Blueprint,
    picked: Mapping[Subject, list[int]],
) -> Paper:
    order = blueprint.unit_order
    ids: list[str] = []
    tallies: list[SubjectTally] = []
    key_counts: Counter[str] = Counter()
    for s in request.subjects:
        unit_of = {r: index.units[index.unit[r]][1] for r in picked[s]}
        # Within a subject, syllabus unit order; within a unit, priority order.
        rows = sorted(
            picked[s], key=lambda r: (order.get(unit_of[r], len(order)), int(plan.priority[r]))
        )
        ids += [index.question_ids[r] for r in rows]
        # Every question is shown as its file shows it: the keys are the stored ones.
        key_counts.update(index.correct_key[r] for r in rows)
        by_d = Counter(DIFFICULTIES[int(index.difficulty[r])] for r in rows)
        by_u = Counter(unit_of.values())
        bounds = sorted(blueprint.units[s].items(), key=lambda kv: order.get(kv[0], len(order)))
        tallies.append(
            SubjectTally(
                subject=s,
                difficulty=tuple(
                    DifficultyTally(difficulty=d, target=plan.targets[s][d], achieved=by_d[d])
                    for d in DIFFICULTIES
                ),
                units=tuple(
                    UnitTally(unit_id=u, min=r.min, max=r.max, achieved=by_u[u]) for u, r in bounds
                ),
            )
        )
    return Paper(
        exam_id=request.exam_id,
        kind=request.kind,
        title=request.title,
        exam_date=request.exam_date,
        question_ids=tuple(ids),
        blueprint=blueprint.blueprint_id,
        composition=PaperBlueprint(
            blueprint_id=blueprint.blueprint_id,
            difficulty_distribution=tuple((d, request.distribution[d]) for d in DIFFICULTIES),
            subjects=tuple(tallies),
            answer_keys=tuple((k, key_counts[k]) for k in OPTION_KEYS),
            cooldown_since=request.cooldown_since,
            max_exposure=request.max_exposure,
        ),
    )


def daily_paper(
    pool: pl.DataFrame | PoolIndex,
    date: dt.date,
    blueprint: Blueprint,
    cooldown_since: str | None = None,
) -> Paper:
    """The paper for a date, or ShortfallError naming exactly what is missing."""
    outcome = assemble_paper(pool, daily_request(blueprint, date, cooldown_since), blueprint)
    if isinstance(outcome, Shortfall):
        raise ShortfallError(outcome.cells)
    return outcome


def paper_from_rows(
    index: PoolIndex,
    request: PaperRequest,
    blueprint: Blueprint,
    rows_by_subject: Mapping[Subject, Sequence[int]],
) -> Paper:
    """A paper from rows chosen elsewhere (the benchmark's MIP): order, keys and tallies."""
    plan = _plan(index, request, blueprint)
    return _paper(index, plan, request, blueprint, {s: list(r) for s, r in rows_by_subject.items()})
