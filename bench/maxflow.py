"""Max-flow benchmark: our solver against scipy.sparse.csgraph.maximum_flow, in one process.

Run with `python -m bench.maxflow`. The networks are the ones assembly builds: for each daily
paper of bench.assembly's synthetic 100k pool, and of its starved pool, each subject's shortlist
as `pipeline.assemble.flow.max_flow` receives it. Per network it times

- ours: `max_flow` (building the network, then filling it tier by tier in priority order),
- ours, building only: `selection_network`,
- scipy: `maximum_flow` (Dinic, and Edmonds–Karp) on the same network as a capacity matrix,
  with every question open; its time to build that matrix from our network is shown apart,

and checks what a replacement would have to keep: the same flow value (a paper exactly when
one exists; the same shortfall size) and the same questions (the same papers).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import numpy as np
import polars as pl
from scipy.sparse import csr_array
from scipy.sparse.csgraph import maximum_flow

from bench.assembly import FIRST_DAY, percentile, starved_pool, synthetic_pool
from core.settings import REPO_ROOT
from kb.syllabus import load_syllabus
from pipeline.assemble.assembly import SubjectPool, subject_pool
from pipeline.assemble.blueprint import Blueprint, load_blueprint
from pipeline.assemble.flow import (
    Candidates,
    SelectionNetwork,
    max_flow,
    one_unit_per_group,
    selection_network,
)
from pipeline.assemble.index import index_pool
from pipeline.assemble.request import daily_request
from pipeline.assemble.shortlist import request_plan, shortlisted_rows

T = TypeVar("T")


def subject_pools(pool: pl.DataFrame, blueprint: Blueprint, days: int) -> Iterator[SubjectPool]:
    """Each subject of each day's paper as the flow would get it (no subject has taken any group
    yet: the synthetic pools share none across subjects)."""
    index = index_pool(pool)
    for k in range(days):
        date = FIRST_DAY + dt.timedelta(days=k)
        request = daily_request(blueprint, date, (date - dt.timedelta(days=30)).isoformat())
        plan = request_plan(index, request, blueprint)
        rows = shortlisted_rows(index, request, blueprint)
        none_taken = np.zeros(int(index.group.max()) + 1, dtype=bool)
        no_enemy_taken = np.zeros(int(index.enemy.max()) + 1, dtype=bool)
        for s in request.subjects:
            sp = subject_pool(index, plan, rows, s, none_taken, no_enemy_taken)
            yield dataclasses.replace(sp, candidates=one_unit_per_group(sp.candidates))


@dataclass(frozen=True)
class Matrix:
    """A network as scipy takes it: one capacity per (tail, head) pair, every question open."""

    capacities: csr_array
    source: int
    sink: int
    question_entry: list[tuple[int, int]]  # per question, the entry whose flow says it is in


def capacity_matrix(sn: SelectionNetwork) -> Matrix:
    """Our network's arcs as a sparse matrix. Two arcs between one pair of nodes (two questions
    of one difficulty and unit, say) would add up in one entry and hide which question carries
    the flow, so a repeated question arc goes through a node of its own."""
    net, owned = sn.net, set(sn.owned)
    n_nodes = len(net.adjacency)
    entries: dict[tuple[int, int], int] = {}
    entry_of_arc: dict[int, tuple[int, int]] = {}
    for e in range(0, len(net.head), 2):
        tail, head = net.head[e ^ 1], net.head[e]
        capacity = 1 if e in owned else net.residual[e] + net.residual[e ^ 1]
        if (tail, head) in entries:
            middle, n_nodes = n_nodes, n_nodes + 1
            entries[(tail, middle)] = capacity
            entries[(middle, head)] = capacity
            entry_of_arc[e] = (tail, middle)
        else:
            entries[(tail, head)] = capacity
            entry_of_arc[e] = (tail, head)
    (tails, heads), values = zip(*entries, strict=True), list(entries.values())
    capacities = csr_array(
        (np.array(values, dtype=np.int32), (np.array(tails), np.array(heads))),
        shape=(n_nodes, n_nodes),
    )
    return Matrix(capacities, sn.source, sn.sink, [entry_of_arc[e] for e in sn.owned])


@dataclass
class Comparison:
    label: str
    times: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    networks: int = 0
    questions: int = 0
    same_value: int = 0
    same_questions: int = 0
    full: int = 0  # networks whose maximum flow is the whole subject
    # Over all networks: chosen questions already in a paper, and their mean place in the
    # priority order (0: the best candidate), ours against scipy's.
    used: dict[str, int] = dataclasses.field(default_factory=lambda: {"ours": 0, "scipy": 0})
    place: dict[str, list[int]] = dataclasses.field(
        default_factory=lambda: {"ours": [], "scipy": []}
    )

    def timed(self, method: str, run: Callable[[], T]) -> T:
        started = time.perf_counter()
        out = run()
        self.times.setdefault(method, []).append(time.perf_counter() - started)
        return out

    def lines(self) -> list[str]:
        head = (
            f"{self.label}: {self.networks} networks, {self.questions / self.networks:.0f} "
            f"questions each; maximum = all 45 in {self.full}"
        )
        agree = (
            f"  scipy's value equals ours in {self.same_value} of {self.networks}; "
            f"its questions are ours in {self.same_questions} of {self.networks}"
        )
        rows = [
            f"  {method:34} p50 {1000 * percentile(t, 50):7.2f} ms   "
            f"p95 {1000 * percentile(t, 95):7.2f} ms   total {1000 * sum(t):8.1f} ms"
            for method, t in self.times.items()
        ]
        priority = (
            f"  chosen questions already in a paper: ours {self.used['ours']}, "
            f"scipy {self.used['scipy']}; mean place in priority order: ours "
            f"{np.mean(self.place['ours']):.0f}, scipy {np.mean(self.place['scipy']):.0f}"
        )
        return [head, *rows, agree, priority]


def compare(label: str, pools: list[SubjectPool]) -> Comparison:
    out = Comparison(label)
    # Each method in its own block, so one's garbage is not collected in the other's time.
    ours = [out.timed("ours: max_flow", partial(max_flow, *_args(p))) for p in pools]
    for p in pools:
        out.timed("ours: building the network only", partial(selection_network, *_args(p)))
    matrices = [out.timed("scipy: matrix from our network", partial(_matrix, p)) for p in pools]
    results: dict[str, list[Any]] = {}
    for method in ("dinic", "edmonds_karp"):
        results[method] = [
            out.timed(
                f"scipy: maximum_flow ({method})",
                partial(maximum_flow, m.capacities, m.source, m.sink, method=method),
            )
            for m in matrices
        ]
    for p, choice, m, result in zip(pools, ours, matrices, results["dinic"], strict=True):
        flow = result.flow.tocsr()
        chosen = {i for i, (a, b) in enumerate(m.question_entry) if flow[a, b] > 0}
        value = len(choice.chosen)
        out.networks += 1
        out.questions += len(p.candidates.rows)
        out.full += value == sum(p.targets.values())
        out.same_value += result.flow_value == value
        out.same_questions += chosen == set(choice.chosen)
        for who, picked in (("ours", choice.chosen), ("scipy", sorted(chosen))):
            out.used[who] += sum(p.candidates.tier[i] > 0 for i in picked)
            out.place[who] += picked
    return out


def _args(
    p: SubjectPool,
) -> tuple[Candidates, dict[int, int], dict[tuple[int, int], int], dict[int, tuple[int, int]]]:
    return p.candidates, p.targets, p.caps, p.units


def _matrix(p: SubjectPool) -> Matrix:
    return capacity_matrix(selection_network(*_args(p)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000, help="pool size")
    parser.add_argument("--days", type=int, default=30, help="daily papers per pool")
    args = parser.parse_args(argv)
    syllabus = load_syllabus(REPO_ROOT / "data")
    blueprint = load_blueprint(REPO_ROOT / "data", syllabus)
    pool = synthetic_pool(args.size, syllabus, blueprint)
    for label, frame in (
        (f"pool of {pool.height:,}", pool),
        (f"starved pool of {starved_pool(pool).height:,}", starved_pool(pool)),
    ):
        for line in compare(label, list(subject_pools(frame, blueprint, args.days))).lines():
            print(line)


if __name__ == "__main__":
    main()
