"""One subject's selection as a maximum flow, with priorities: the network and its solver.

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

The solver is our own, not a library's: it fills the network tier by tier in priority order
and, for a shortfall, at least cost (BENCHMARKS.md, "Max flow: ours vs scipy").
"""

from __future__ import annotations

import dataclasses
from collections import Counter, deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass
class Network:
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
class Candidates:
    """One subject's shortlisted questions, best first, as plain lists."""

    rows: list[int]
    difficulty: list[int]  # index into DIFFICULTIES
    klass: list[int]  # index into PoolIndex.classes
    group: list[int]
    unit: list[int]
    tier: list[int]  # papers so far (ascending, like the rows)
    enemy: list[int]
    key: list[int]

    def without(self, drop: Collection[int]) -> Candidates:
        keep = [i for i in range(len(self.rows)) if i not in drop]
        return Candidates(
            *([getattr(self, f.name)[i] for i in keep] for f in dataclasses.fields(self))
        )


@dataclass(frozen=True)
class Choice:
    chosen: list[int]  # positions in Candidates
    by_difficulty: dict[int, int]  # chosen questions (real ones) per difficulty index
    by_unit: dict[int, int]
    # Questions the flow had to invent, per (unit code, difficulty index): only when it was
    # allowed to (`open_cells`).
    invented: dict[tuple[int, int], int] = field(default_factory=dict)


@dataclass(frozen=True)
class SelectionNetwork:
    """One subject's network (module docstring), every question's own arc still closed."""

    net: Network
    source: int
    sink: int
    extra_to_sink: int
    d_node: dict[int, int]  # difficulty index → node
    d_arc: dict[int, int]  # difficulty index → its arc out of the source
    u_node: dict[int, int]  # unit code → node
    u_min: dict[int, int]  # unit code → its arc to the sink (the minimum)
    u_extra: dict[int, int]  # unit code → its arc to X (beyond the minimum)
    paths: list[list[int]]  # each question's arcs from the source to its unit
    owned: list[int]  # each question's one arc that only it uses (capacity 0 until opened)


def selection_network(
    c: Candidates,
    targets: Mapping[int, int],
    caps: Mapping[tuple[int, int], int],
    units: Mapping[int, tuple[int, int]],
) -> SelectionNetwork:
    total = sum(targets.values())
    net = Network()
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
    paths: list[list[int]] = []
    owned: list[int] = []
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
    return SelectionNetwork(
        net, source, sink, extra_to_sink, d_node, d_arc, u_node, u_min, u_extra, paths, owned
    )


def max_flow(
    c: Candidates,
    targets: Mapping[int, int],
    caps: Mapping[tuple[int, int], int],
    units: Mapping[int, tuple[int, int]],
    open_cells: Collection[tuple[int, int]] = (),
) -> Choice:
    """The maximum flow (module docstring): a full selection whenever one exists.

    With `open_cells` ((unit code, difficulty index) pairs), what the pool cannot supply is
    completed with invented questions in those cells only, as few as possible (each costs 1:
    successive cheapest paths from the maximum flow of real questions, which costs nothing).
    """
    total = sum(targets.values())
    sn = selection_network(c, targets, caps, units)
    net, source, sink, extra_to_sink = sn.net, sn.source, sn.sink, sn.extra_to_sink
    d_node, d_arc, u_node, u_min, u_extra = sn.d_node, sn.d_arc, sn.u_node, sn.u_min, sn.u_extra
    paths, owned = sn.paths, sn.owned
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
    return Choice(
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


def one_unit_per_group(c: Candidates) -> Candidates:
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
