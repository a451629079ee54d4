"""Calibration benchmark: our 2PL fit against girth's `twopl_mml`, in one process.

Run with `python -m bench.calibration` (`--quick`: the small size only). Both fit the same
simulated answers (pipeline.calibrate.simulate: a ~ U(0.5, 2.5), b ~ U(-2, 2), θ ~ N(0, 1),
every learner meets every item and skips 5 % at random). girth takes a dense items × learners
matrix of 0/1 with skips marked `girth.utilities.INVALID_RESPONSE` (missing, as ours treats
them). Per size it prints wall seconds and recovery (b's RMSE, a's Spearman rank correlation
with the true values) of

- ours, fit only: `pipeline.calibrate.irt.fit_2pl` on the first answers as index arrays,
- ours, whole: `pipeline.calibrate.calibrate` (the fit plus every classical statistic),
- girth: `twopl_mml` with its defaults (41 nodes, ±4.5, at most 25 cycles),

then, ours only, the same 2,000 learners answering a random half of the items, and a sparse
bank shaped like production (learners answering a few hundred of many thousand questions),
which girth's dense matrix cannot hold.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import polars as pl
from scipy.stats import spearmanr

from pipeline.calibrate import calibrate, first_answers
from pipeline.calibrate.irt import Responses, fit_2pl
from pipeline.calibrate.simulate import SimulatedBank, simulated_answers, simulated_bank

T = TypeVar("T")
SKIP_RATE = 0.05
FULL_SIZES = ((60, 500), (300, 2000))  # items, learners
QUICK_SIZES = ((30, 300),)
# Production-shaped: many questions, each learner answering a few hundred of them.
SPARSE_ITEMS, SPARSE_LEARNERS, SPARSE_PER_LEARNER = 10_000, 20_000, 300


@dataclass(frozen=True)
class Row:
    method: str
    seconds: float
    rmse_b: float
    spearman_a: float


def timed(run: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    out = run()
    return out, time.perf_counter() - start


def recovery(method: str, seconds: float, bank: SimulatedBank, a: np.ndarray, b: np.ndarray) -> Row:
    return Row(
        method,
        seconds,
        float(np.sqrt(np.mean((b - bank.b) ** 2))),
        float(spearmanr(a, bank.a).statistic),
    )


def responses_of(answers: pl.DataFrame, bank: SimulatedBank) -> Responses:
    """The answers as fit_2pl takes them, items and learners in the bank's order."""
    rows = first_answers(answers).filter(pl.col("chosen_key").is_not_null())
    item = rows["question_id"].cast(pl.Enum(bank.question_ids)).to_physical().to_numpy()
    learner = rows["learner_id"].cast(pl.Enum(bank.learner_ids)).to_physical().to_numpy()
    return Responses(
        learner=learner.astype(np.int64),
        item=item.astype(np.int64),
        correct=(rows["chosen_key"] == rows["correct_key"]).to_numpy(),
        learners=len(bank.learner_ids),
        items=len(bank.question_ids),
    )


def girth_matrix(rs: Responses) -> np.ndarray:
    """Items × learners, 1 right, 0 wrong, girth's INVALID_RESPONSE where not answered."""
    from girth.utilities import INVALID_RESPONSE

    dense = np.full((rs.items, rs.learners), INVALID_RESPONSE, dtype=int)
    dense[rs.item, rs.learner] = rs.correct.astype(int)
    return dense


def compare(items: int, learners: int, with_girth: bool = True) -> list[Row]:
    """Ours (fit only, and whole) and girth on one dense simulated bank with 5 % skips."""
    bank = simulated_bank(items, learners, seed=items)
    answers = simulated_answers(bank, seed=learners, skip_rate=SKIP_RATE)
    rs = responses_of(answers, bank)
    fit, fit_seconds = timed(lambda: fit_2pl(rs))
    whole, whole_seconds = timed(lambda: calibrate(answers))
    by_id = whole.items.join(
        pl.DataFrame({"question_id": bank.question_ids}), on="question_id", how="right"
    )
    rows = [
        recovery(f"ours, fit only ({fit.iterations} EM cycles)", fit_seconds, bank, fit.a, fit.b),
        recovery(
            "ours, calibrate()",
            whole_seconds,
            bank,
            by_id["irt_a"].to_numpy(),
            by_id["irt_b"].to_numpy(),
        ),
    ]
    if with_girth:
        from girth import twopl_mml

        dense = girth_matrix(rs)
        theirs, girth_seconds = timed(lambda: twopl_mml(dense))
        rows.append(
            recovery(
                "girth twopl_mml",
                girth_seconds,
                bank,
                np.asarray(theirs["Discrimination"]),
                np.asarray(theirs["Difficulty"]),
            )
        )
    return rows


def half_answered(items: int, learners: int) -> list[Row]:
    """Ours on the same shape of bank with each learner meeting a random half of the items."""
    bank = simulated_bank(items, learners, seed=items + 1)
    answers = simulated_answers(bank, seed=learners + 1, answered_share=0.5, skip_rate=SKIP_RATE)
    fit, seconds = timed(lambda: fit_2pl(responses_of(answers, bank)))
    return [recovery(f"ours, fit only ({fit.iterations} EM cycles)", seconds, bank, fit.a, fit.b)]


def production_shaped(seed: int = 23) -> tuple[Row, int]:
    """Ours on SPARSE_LEARNERS learners each answering SPARSE_PER_LEARNER random items of
    SPARSE_ITEMS (simulated straight into index arrays: a dense matrix would not fit)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.5, 2.5, SPARSE_ITEMS)
    b = rng.uniform(-2.0, 2.0, SPARSE_ITEMS)
    theta = rng.standard_normal(SPARSE_LEARNERS)
    learner = np.repeat(np.arange(SPARSE_LEARNERS), SPARSE_PER_LEARNER)
    # Distinct items per learner: the first picks of a random permutation, drawn in chunks.
    item = np.concatenate(
        [
            np.argsort(rng.random((1000, SPARSE_ITEMS)), axis=1)[:, :SPARSE_PER_LEARNER].ravel()
            for _ in range(SPARSE_LEARNERS // 1000)
        ]
    )
    p = 1.0 / (1.0 + np.exp(-a[item] * (theta[learner] - b[item])))
    rs = Responses(learner, item, rng.random(item.size) < p, SPARSE_LEARNERS, SPARSE_ITEMS)
    fit, seconds = timed(lambda: fit_2pl(rs))
    row = Row(
        f"ours, fit only ({fit.iterations} EM cycles)",
        seconds,
        float(np.sqrt(np.mean((fit.b - b) ** 2))),
        float(spearmanr(fit.a, a).statistic),
    )
    return row, int(item.size)


def show(title: str, rows: list[Row]) -> None:
    print(title)
    for r in rows:
        print(
            f"  {r.method:34s} {r.seconds:8.2f} s   b RMSE {r.rmse_b:.3f}"
            f"   a Spearman {r.spearman_a:.3f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the small size only")
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    for items, learners in sizes:
        show(
            f"{items} items × {learners} learners, dense, {SKIP_RATE:.0%} skipped",
            compare(items, learners),
        )
    if args.quick:
        return
    items, learners = FULL_SIZES[-1]
    show(
        f"{items} items × {learners} learners, each answering half, {SKIP_RATE:.0%} skipped",
        half_answered(items, learners),
    )
    row, responses = production_shaped()
    show(
        f"{SPARSE_ITEMS:,} items × {SPARSE_LEARNERS:,} learners, {SPARSE_PER_LEARNER} answers each "
        f"({responses:,} responses; girth's dense matrix would hold "
        f"{SPARSE_ITEMS * SPARSE_LEARNERS:,} cells)",
        [row],
    )


if __name__ == "__main__":
    main()
