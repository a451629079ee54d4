"""Daily paper assembly: 45 per subject in a fixed difficulty mix, deterministic per date."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

import polars as pl

from core.ids import digest
from core.records import Difficulty, Paper, Subject
from pipeline.pool import DAILY_MIX, SUBJECTS, Cell, paper_needs

BLUEPRINT_NAME = "daily-v1: 45 per subject, Easy 15 / Medium 20 / Hard 10"


class ShortfallError(RuntimeError):
    """The pool cannot fill a paper; `short` says which cells lack how many questions."""

    def __init__(self, short: Mapping[Cell, int]) -> None:
        self.short = dict(short)
        cells = ", ".join(f"{s.value}/{d.value}: {n}" for (s, d), n in self.short.items())
        super().__init__(f"pool is short of questions ({cells})")


def daily_exam_id(date: dt.date) -> str:
    return f"daily-{date.isoformat()}"


def daily_title(date: dt.date) -> str:
    return f"NEET-UG Daily Mock Test — {date.day} {date:%B %Y}"


def _ranked(cell: pl.DataFrame, seed: str) -> pl.DataFrame:
    """Never-used first, then least recently used; within that, templates take turns."""
    keyed = cell.with_columns(
        pl.col("question_id")
        .map_elements(lambda q: digest([seed, q]), return_dtype=pl.String)
        .alias("_h"),
        pl.col("last_used").fill_null(""),
    ).sort("_h")
    keyed = keyed.with_columns(
        pl.col("_h").cum_count().over("template_id", "times_used").alias("_turn")
    )
    return keyed.sort("times_used", "last_used", "_turn", "_h")


def daily_paper(
    pool: pl.DataFrame,
    date: dt.date,
    unit_order: Mapping[str, int],
    mix: Mapping[Difficulty, int] = DAILY_MIX,
) -> Paper:
    """The paper for a date, or ShortfallError naming exactly what is missing."""
    seed = daily_exam_id(date)
    needs = paper_needs(mix)
    short = {}
    chosen: dict[Subject, pl.DataFrame] = {}
    for subject in SUBJECTS:
        parts = []
        for difficulty in mix:
            cell = pool.filter(
                (pl.col("subject") == subject.value) & (pl.col("difficulty") == difficulty.value)
            )
            need = needs[(subject, difficulty)]
            if cell.height < need:
                short[(subject, difficulty)] = need - cell.height
                continue
            parts.append(_ranked(cell, seed).head(need))
        if parts:
            chosen[subject] = pl.concat(parts)
    if short:
        raise ShortfallError(short)
    ordered: list[str] = []
    for subject in SUBJECTS:
        picked = chosen[subject].with_columns(
            pl.col("unit_id").replace_strict(unit_order, default=len(unit_order)).alias("_unit")
        )
        ordered += picked.sort("_unit", "_h")["question_id"].to_list()
    return Paper(
        exam_id=seed,
        kind="daily",
        title=daily_title(date),
        exam_date=date.isoformat(),
        question_ids=tuple(ordered),
        blueprint=BLUEPRINT_NAME,
    )
