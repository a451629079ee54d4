"""Item calibration: per-question statistics and a 2PL IRT fit from students' answers."""

from pipeline.calibrate.calibration import (
    BAND_EDGES,
    ITEM_STATS_SCHEMA,
    LEARNER_SCHEMA,
    Calibration,
    FitSummary,
    band_of,
    calibrate,
    first_answers,
)

__all__ = [
    "BAND_EDGES",
    "ITEM_STATS_SCHEMA",
    "LEARNER_SCHEMA",
    "Calibration",
    "FitSummary",
    "band_of",
    "calibrate",
    "first_answers",
]
