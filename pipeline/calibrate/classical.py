"""Classical per-question statistics: shares right, skipped and picked per option, the picks of
strong learners, and each option's point-biserial against ability.

Ability is the learner's EAP θ from the 2PL fit (pipeline.calibrate.irt), not a total score: in
a sparse design (each learner answers a few hundred of tens of thousands of questions, each from
different papers and practice sets) two learners share almost no questions, so their total
scores are on different tests and cannot be compared; θ puts them on one scale. θ includes the
item's own answer, one of a learner's hundreds: the inflation that causes is negligible, and a
wrong key still shows as a negative point-biserial (the test plants one).
"""

from __future__ import annotations

import polars as pl

from core.records import OPTION_KEYS

STRONG_PART = 3  # "strong learners": the top 1/3 by ability
# Below this variance of θ among an item's respondents a correlation with it means nothing.
MIN_THETA_VARIANCE = 1e-12


def strong_threshold(theta: pl.Series) -> float | None:
    """The θ at or above which a learner is in the top third (ties at the edge all count); None
    when there is no learner. At least one learner is strong whenever there is one."""
    if theta.len() == 0:
        return None
    ranked = theta.sort(descending=True)
    top = -(-theta.len() // STRONG_PART)  # ceil(n / 3)
    return float(ranked[top - 1])


def _option_columns(prefix: str, exprs: dict[str, pl.Expr]) -> list[pl.Expr]:
    return [exprs[k].alias(f"{prefix}_{k.lower()}") for k in OPTION_KEYS]


def classical_statistics(answers: pl.DataFrame, strong_from: float | None) -> pl.DataFrame:
    """One row per question of `answers` (question_id, correct_key, chosen_key, theta: one
    first answer a row, chosen_key null when skipped) with answers, responses, share_correct,
    skip_rate, pick_*, strong_*, option_pbis_* and point_biserial, sorted by question_id.
    Shares over no responses are null; so is a point-biserial whose option everyone or no one
    picked, or whose respondents all have one θ."""
    counts = answers.group_by("question_id").agg(
        pl.col("correct_key").first(),
        pl.len().cast(pl.Int64).alias("answers"),
        pl.col("chosen_key").is_not_null().sum().cast(pl.Int64).alias("responses"),
    )
    responded = answers.filter(pl.col("chosen_key").is_not_null()).with_columns(
        (pl.col("theta") - pl.col("theta").mean().over("question_id")).alias("dtheta")
    )
    chose = {k: (pl.col("chosen_key") == k).cast(pl.Float64) for k in OPTION_KEYS}
    shares = responded.group_by("question_id").agg(
        (pl.col("chosen_key") == pl.col("correct_key")).mean().alias("share_correct"),
        *_option_columns("pick", {k: e.mean() for k, e in chose.items()}),
        *_option_columns("cov", {k: (e * pl.col("dtheta")).mean() for k, e in chose.items()}),
        (pl.col("dtheta") ** 2).mean().alias("var_theta"),
    )
    strong = (
        responded.filter(pl.col("theta") >= strong_from)
        if strong_from is not None
        else responded.clear()
    )
    strong_shares = strong.group_by("question_id").agg(
        *_option_columns("strong", {k: e.mean() for k, e in chose.items()})
    )

    def pbis(k: str) -> pl.Expr:
        p, cov = pl.col(f"pick_{k.lower()}"), pl.col(f"cov_{k.lower()}")
        defined = (p > 0) & (p < 1) & (pl.col("var_theta") > MIN_THETA_VARIANCE)
        value = (cov / (p * (1 - p) * pl.col("var_theta")).sqrt()).clip(-1.0, 1.0)  # rounding
        return pl.when(defined).then(value).otherwise(None).alias(f"option_pbis_{k.lower()}")

    pbis_by_key = {k: pl.col(f"option_pbis_{k.lower()}") for k in OPTION_KEYS}
    key_pbis = pl.coalesce(
        pl.when(pl.col("correct_key") == k).then(e) for k, e in pbis_by_key.items()
    ).alias("point_biserial")
    return (
        counts.join(shares, on="question_id", how="left")
        .join(strong_shares, on="question_id", how="left")
        .with_columns(
            (1 - pl.col("responses") / pl.col("answers")).alias("skip_rate"),
            *[pbis(k) for k in OPTION_KEYS],
        )
        .with_columns(key_pbis)
        .drop([f"cov_{k.lower()}" for k in OPTION_KEYS] + ["var_theta"])
        .sort("question_id")
    )
