"""What a night learned from students, as the run report shows it: what was taken from the
outbox, how the calibration compares with the generators' labels, and the triage."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import polars as pl

from pipeline.serve.outbox import OutboxProblem


@dataclass(frozen=True)
class FeedbackSummary:
    batches: int
    answers: int
    reports: int
    refused: tuple[OutboxProblem, ...]


@dataclass(frozen=True)
class CalibrationSummary:
    run_id: str
    new_run: bool  # False: the answers had not changed since the last run
    learners: int
    items: int
    responses: int
    converged: bool
    calibrated: int  # questions with enough responses for their band to count
    # (generator label, calibrated band) → questions, over the calibrated ones
    agreement: dict[tuple[str, str], int]
    # Calibrated questions whose band is not their label, most answered first
    disagreements: tuple[dict[str, Any], ...]


def calibration_summary(
    run: dict[str, Any], stats: pl.DataFrame, new_run: bool
) -> CalibrationSummary:
    """A run's summary row and item statistics (with each question's `label` and whether its
    band counts, `calibrated`), compared."""
    counted = stats.filter(pl.col("calibrated"))
    agreement = Counter(zip(counted["label"].to_list(), counted["band"].to_list(), strict=True))
    differ = (
        counted.filter(pl.col("label") != pl.col("band"))
        .sort("responses", descending=True)
        .select("question_id", "subject", "unit_id", "template_id", "label", "band", "irt_b")
    )
    return CalibrationSummary(
        str(run["run_id"]),
        new_run,
        int(run["learners"]),
        int(run["items"]),
        int(run["responses"]),
        bool(run["converged"]),
        counted.height,
        dict(agreement),
        tuple(differ.to_dicts()),
    )
