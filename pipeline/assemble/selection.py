"""Choosing one subject's questions: the greedy pass, the flow around near-duplicates, where a
shortfall's new questions go, and the answer-key swaps."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from core.pool import UnitCell
from core.records import OPTION_KEYS, Difficulty, Subject
from pipeline.assemble.flow import Candidates, Choice, max_flow
from pipeline.assemble.index import PoolIndex
from pipeline.assemble.request import DIFFICULTIES
from pipeline.difficulty import MEDIUM_STEPS


def greedy(
    c: Candidates,
    targets: Mapping[int, int],
    caps: Mapping[tuple[int, int], int],
    units: Mapping[int, tuple[int, int]],
    most_per_key: int,
) -> Choice:
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
    return Choice(chosen, {d: targets[d] - d_left[d] for d in targets}, count)


def flow_without_enemies(
    c: Candidates,
    targets: Mapping[int, int],
    caps: Mapping[tuple[int, int], int],
    units: Mapping[int, tuple[int, int]],
) -> tuple[Candidates, Choice]:
    """The maximum flow, with the worse of any two chosen near-duplicates left out and the flow
    run again (the flow encodes one group per question; a fact's near-duplicates span formats,
    so they cross groups). Rare: most near-duplicate groups sit inside one group."""
    while True:
        choice = max_flow(c, targets, caps, units)
        seen: set[int] = set()
        clash = set()
        for i in choice.chosen:  # best first: the later of two near-duplicates goes
            if c.enemy[i] in seen:
                clash.add(i)
            seen.add(c.enemy[i])
        if not clash:
            return c, choice
        c = c.without(clash)


def swap_candidates(index: PoolIndex, spare: NDArray[np.int64], chosen: int) -> NDArray[np.int64]:
    """The rows a key swap can bring in, best first: per (bucket, key) the best row of each
    conflict group, and of those the best 2 × chosen + 1 (the chosen questions block at most
    that many groups and near-duplicate groups, so one always stays free if any can)."""
    if not len(spare):
        return spare
    ck = index.bucket[spare] * len(OPTION_KEYS) + index.key[spare]
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


def _count_swap(
    index: PoolIndex,
    out: int,
    into: int,
    keys: Counter[int],
    groups: Counter[int],
    enemies: Counter[int],
) -> None:
    """The chosen questions' key, conflict-group and near-duplicate counts after row `out`
    gives way to row `into`."""
    for counter, old, new in (
        (keys, index.key[out], index.key[into]),
        (groups, index.group[out], index.group[into]),
        (enemies, index.enemy[out], index.enemy[into]),
    ):
        counter[int(old)] -= 1
        counter[int(new)] += 1


def balanced_keys(
    index: PoolIndex,
    chosen: list[int],
    spare: Sequence[int],
    priority: NDArray[np.uint64],
    key_range: tuple[int, int],
) -> list[int] | None:
    """Chosen rows with every key within `key_range`, by swapping a question for one of the
    same bucket (unit, difficulty, class: every count and cap holds) whose key is scarcer and
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
    by_bucket: dict[int, list[int]] = {}
    for r in spare:
        by_bucket.setdefault(int(index.bucket[r]), []).append(r)

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
            for r in by_bucket.get(int(index.bucket[q]), ()):
                if best is not None and int(priority[r]) >= best[0]:
                    break  # rows come best first: nothing later in this bucket beats `best`
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
        _count_swap(index, q, r, keys, groups, enemies)
    return chosen


def placed_shortfall(
    subject: Subject,
    choice: Choice,
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


def key_shortfall(
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


# Steps from which a question counts as multi-step or multi-concept: the rubric's own (a chain
# of two concepts has at least two steps, and its reason names them).
MULTI_STEP = MEDIUM_STEPS


def with_at_least(
    index: PoolIndex,
    chosen: list[int],
    spare: Sequence[int],
    priority: NDArray[np.uint64],
    minimum: int,
    key_range: tuple[int, int],
    caps: Mapping[tuple[int, int], int],
    wanted: NDArray[np.bool_],
    kept: NDArray[np.int64] | None = None,
) -> list[int]:
    """Chosen rows with at least `minimum` `wanted` rows where swaps allow it, else as many as
    they allow.

    A swap gives up an unwanted question for a wanted one (only for one of the same `kept` category,
    so the count of each category never changes: figure, structure, other) of the same unit and
    difficulty (every unit and difficulty count holds) whose class stays within its cap (`caps`:
    (difficulty, class) → at most), whose key keeps every letter within `key_range`, and which
    clashes with no other chosen question. `spare` are the subject's eligible rows, best first; each
    swap brings in the best one any helpful swap can bring, for the worst chosen question that makes
    room for it.
    """
    lo, hi = key_range
    chosen = list(chosen)
    have = sum(bool(wanted[r]) for r in chosen)
    if have >= minimum:
        return chosen
    keys = Counter(int(index.key[r]) for r in chosen)
    groups = Counter(int(index.group[r]) for r in chosen)
    enemies = Counter(int(index.enemy[r]) for r in chosen)
    classes = Counter((int(index.difficulty[r]), int(index.klass[r])) for r in chosen)
    by_cell: dict[tuple[int, int], list[int]] = {}
    rows = np.asarray(spare, dtype=np.int64)
    for r in rows[wanted[rows]].tolist():  # best first, as `spare` is
        by_cell.setdefault((int(index.unit[r]), int(index.difficulty[r])), []).append(r)
    while have < minimum:
        best: tuple[int, int, int] | None = None  # (priority of the newcomer, position, row)
        taken = set(chosen)
        for j in range(len(chosen) - 1, -1, -1):
            q = chosen[j]
            if wanted[q]:
                continue
            d, give = int(index.difficulty[q]), int(index.key[q])
            for r in by_cell.get((int(index.unit[q]), d), ()):
                if best is not None and int(priority[r]) >= best[0]:
                    break  # rows come best first: nothing later in this cell beats `best`
                if r in taken or (kept is not None and kept[q] != kept[r]):
                    continue
                take, cls = int(index.key[r]), (d, int(index.klass[r]))
                if take != give and (keys[give] - 1 < lo or keys[take] + 1 > hi):
                    continue
                if cls != (d, int(index.klass[q])) and classes[cls] + 1 > caps.get(
                    cls, len(chosen)
                ):
                    continue
                g, e = int(index.group[r]), int(index.enemy[r])
                if groups[g] - (g == index.group[q]) or enemies[e] - (e == index.enemy[q]):
                    continue
                best = (int(priority[r]), j, r)
                break
        if best is None:
            return chosen
        _, j, r = best
        q = chosen[j]
        chosen[j] = r
        have += 1
        _count_swap(index, q, r, keys, groups, enemies)
        classes[(int(index.difficulty[q]), int(index.klass[q]))] -= 1
        classes[(int(index.difficulty[r]), int(index.klass[r]))] += 1
    return chosen
