"""Per-question statistics fitted from students' answers: the classical shares and
point-biserials (pipeline.calibrate.classical) and a 2PL IRT fit with each learner's ability
(pipeline.calibrate.irt), as polars frames. Pure: the nightly reads the answers from the
warehouse and stores what comes back as a new versioned `item_stats` record per run."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from core.records import OPTION_KEYS, Difficulty
from pipeline.calibrate.classical import classical_statistics, strong_threshold
from pipeline.calibrate.irt import Responses, fit_2pl

ANSWER_COLUMNS = ("learner_id", "question_id", "chosen_key", "correct_key")


def _per_option(prefix: str) -> dict[str, pl.DataType]:
    return {f"{prefix}_{k.lower()}": pl.Float64() for k in OPTION_KEYS}


ITEM_STATS_SCHEMA: dict[str, pl.DataType] = {
    "question_id": pl.String(),
    "correct_key": pl.String(),
    "answers": pl.Int64(),  # first answers, skipped ones included
    "responses": pl.Int64(),  # first answers not skipped
    "share_correct": pl.Float64(),  # right / responses; null with no responses
    "skip_rate": pl.Float64(),
    **_per_option("pick"),  # share of responses choosing each option
    **_per_option("strong"),  # the same among learners in the top third by θ; null if none
    **_per_option("option_pbis"),  # point-biserial of choosing the option against θ
    "point_biserial": pl.Float64(),  # the key's option_pbis: the item's discrimination
    "irt_a": pl.Float64(),  # 2PL discrimination (logistic metric, no 1.7); null if no responses
    "irt_b": pl.Float64(),  # 2PL difficulty on the θ ~ N(0, 1) scale; null if no responses
    "band": pl.String(),  # band_of(irt_b)
}
LEARNER_SCHEMA: dict[str, pl.DataType] = {
    "learner_id": pl.String(),
    "theta": pl.Float64(),  # EAP ability; 0 (the prior's mean) for one who skipped everything
    "responses": pl.Int64(),
}

# θ ~ N(0, 1) has its terciles at ±0.43: an item with b < -0.5 is one that even the weakest
# third of learners more often gets right than wrong (Easy); b > 0.5, one that only the
# strongest third does (Hard); in between, the middle third's (Medium). Rounded to ±0.5 so the
# edges read as round numbers in reports.
BAND_EDGES: tuple[float, float] = (-0.5, 0.5)


def band_of(b: pl.Expr) -> pl.Expr:
    """ "Easy", "Medium" or "Hard" from an IRT difficulty b (null for null b), by BAND_EDGES."""
    low, high = BAND_EDGES
    return (
        pl.when(b < low)
        .then(pl.lit(Difficulty.EASY.value))
        .when(b > high)
        .then(pl.lit(Difficulty.HARD.value))
        .when(b.is_not_null())
        .then(pl.lit(Difficulty.MEDIUM.value))
        .otherwise(None)
        .alias("band")
    )


@dataclass(frozen=True)
class FitSummary:
    """How big the fit was and how it ended."""

    learners: int
    items: int
    responses: int  # first answers not skipped
    iterations: int
    converged: bool
    log_likelihood: float  # marginal log-likelihood of the responses under the fitted model


@dataclass(frozen=True)
class Calibration:
    """A calibration run's results: per question, per learner, and the fit's summary."""

    items: pl.DataFrame  # ITEM_STATS_SCHEMA, sorted by question_id
    learners: pl.DataFrame  # LEARNER_SCHEMA, sorted by learner_id
    summary: FitSummary


def first_answers(answers: pl.DataFrame) -> pl.DataFrame:
    """The first answer of each learner to each question, in row order (a learner who meets a
    question again has seen it, so later answers say less about ability), each carrying its
    question's key as first given. Raises ValueError on a missing column or a key outside A–D."""
    missing = [c for c in ANSWER_COLUMNS if c not in answers.columns]
    if missing:
        raise ValueError(f"answers lack columns {missing}")
    rows = answers.select(pl.col(c).cast(pl.String) for c in ANSWER_COLUMNS)
    keys = list(OPTION_KEYS)
    bad = rows.filter(
        ~pl.col("correct_key").is_in(keys)
        | (pl.col("chosen_key").is_not_null() & ~pl.col("chosen_key").is_in(keys))
        | pl.col("learner_id").is_null()
        | pl.col("question_id").is_null()
    )
    if bad.height:
        raise ValueError(f"{bad.height} answers with no ids or keys outside A–D, e.g. {bad.row(0)}")
    return rows.unique(
        ["learner_id", "question_id"], keep="first", maintain_order=True
    ).with_columns(pl.col("correct_key").first().over("question_id"))


def _indices(values: pl.Series) -> tuple[list[str], np.ndarray]:
    """The sorted distinct values and each value's position among them."""
    distinct = values.unique().sort()
    codes = values.cast(pl.Enum(distinct)).to_physical().to_numpy().astype(np.int64)
    return distinct.to_list(), codes


def calibrate(answers: pl.DataFrame) -> Calibration:
    """Fit per-question statistics from answers (learner_id, question_id, chosen_key: "A".."D" or
    null for skipped, correct_key: "A".."D"). Only each learner's first answer to a question
    counts; skipped answers are missing to the 2PL fit, never wrong (NEET marks a wrong answer
    -1, so skipping is a strategy, not ignorance). Deterministic: frames sorted by id, the fit
    started from the data alone. No answers: empty frames, zero summary, converged."""
    rows = first_answers(answers)
    if rows.height == 0:
        return Calibration(
            items=pl.DataFrame(schema=ITEM_STATS_SCHEMA),
            learners=pl.DataFrame(schema=LEARNER_SCHEMA),
            summary=FitSummary(0, 0, 0, 0, True, 0.0),
        )
    learner_ids, learner = _indices(rows["learner_id"])
    question_ids, item = _indices(rows["question_id"])
    responded = rows["chosen_key"].is_not_null().to_numpy()
    correct = (rows["chosen_key"] == rows["correct_key"]).fill_null(False).to_numpy()
    fit = fit_2pl(
        Responses(
            learner=learner[responded],
            item=item[responded],
            correct=correct[responded],
            learners=len(learner_ids),
            items=len(question_ids),
        )
    )
    per_learner = np.bincount(learner[responded], minlength=len(learner_ids))
    learners = pl.DataFrame(
        {"learner_id": learner_ids, "theta": fit.theta, "responses": per_learner},
        schema=LEARNER_SCHEMA,
    )
    with_theta = rows.with_columns(theta=pl.Series(fit.theta[learner], dtype=pl.Float64))
    strong_from = strong_threshold(learners.filter(pl.col("responses") > 0)["theta"])
    answered = np.bincount(item[responded], minlength=len(question_ids)) > 0
    irt = pl.DataFrame(
        {
            "question_id": question_ids,
            "irt_a": np.where(answered, fit.a, np.nan),
            "irt_b": np.where(answered, fit.b, np.nan),
        },
        schema={"question_id": pl.String, "irt_a": pl.Float64, "irt_b": pl.Float64},
    ).with_columns(pl.col("irt_a", "irt_b").fill_nan(None))
    items = (
        classical_statistics(with_theta, strong_from)
        .join(irt, on="question_id", how="left")
        .with_columns(band_of(pl.col("irt_b")))
        .select(ITEM_STATS_SCHEMA.keys())
        .cast(ITEM_STATS_SCHEMA)  # type: ignore[arg-type]
        .sort("question_id")
    )
    summary = FitSummary(
        learners=len(learner_ids),
        items=len(question_ids),
        responses=int(responded.sum()),
        iterations=fit.iterations,
        converged=fit.converged,
        log_likelihood=fit.log_likelihood,
    )
    return Calibration(items=items, learners=learners, summary=summary)
