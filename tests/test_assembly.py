from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from core.records import Difficulty, Subject
from pipeline.assembly import ShortfallError, daily_paper
from pipeline.pool import DAILY_MIX, paper_needs, pool_deficits

DAY = dt.date(2026, 1, 15)


def synthetic_pool(per_cell: int, used: int = 0) -> pl.DataFrame:
    rows = []
    for s in Subject:
        for d in Difficulty:
            for i in range(per_cell):
                rows.append(
                    {
                        "question_id": f"q-{s.value[:3]}-{d.value}-{i:03d}",
                        "subject": s.value,
                        "unit_id": f"u{i % 5}",
                        "topic_id": "t",
                        "difficulty": d.value,
                        "format": "numerical",
                        "template_id": f"tpl{i % 4}",
                        "times_used": 1 if i < used else 0,
                        "last_used": "2026-01-01" if i < used else None,
                    }
                )
    return pl.DataFrame(rows)


def test_a_full_paper_has_45_per_subject_in_the_mix() -> None:
    paper = daily_paper(synthetic_pool(30), DAY, {})
    assert paper.exam_id == "daily-2026-01-15" and paper.exam_date == "2026-01-15"
    assert len(paper.question_ids) == 180 == len(set(paper.question_ids))
    for i, s in enumerate(Subject):
        block = paper.question_ids[45 * i : 45 * (i + 1)]
        assert all(q.startswith(f"q-{s.value[:3]}") for q in block)
        for d, n in DAILY_MIX.items():
            assert sum(f"-{d.value}-" in q for q in block) == n


def test_assembly_is_deterministic_for_a_date_and_varies_across_dates() -> None:
    pool = synthetic_pool(40)
    assert daily_paper(pool, DAY, {}) == daily_paper(
        pool.sample(fraction=1.0, shuffle=True, seed=1), DAY, {}
    )
    assert (
        daily_paper(pool, DAY, {}).question_ids
        != daily_paper(pool, DAY + dt.timedelta(days=1), {}).question_ids
    )


def test_never_used_questions_come_first() -> None:
    paper = daily_paper(synthetic_pool(40, used=20), DAY, {})
    used_ids = set(synthetic_pool(40, used=20).filter(pl.col("times_used") > 0)["question_id"])
    assert not used_ids & set(paper.question_ids)


def test_shortfall_names_each_short_cell_exactly() -> None:
    pool = synthetic_pool(30)
    botany_hard = (pl.col("subject") == "Botany") & (pl.col("difficulty") == "Hard")
    zoology_easy = (pl.col("subject") == "Zoology") & (pl.col("difficulty") == "Easy")
    short_pool = pool.filter(~botany_hard | (pl.col("question_id") < "q-Bot-Hard-007"))
    short_pool = short_pool.filter(~zoology_easy | (pl.col("question_id") < "q-Zoo-Easy-004"))
    with pytest.raises(ShortfallError) as err:
        daily_paper(short_pool, DAY, {})
    assert err.value.short == {
        (Subject.BOTANY, Difficulty.HARD): 3,
        (Subject.ZOOLOGY, Difficulty.EASY): 11,
    }
    assert "Botany/Hard: 3" in str(err.value)


def test_pool_deficits_count_only_unused_questions() -> None:
    deficits = pool_deficits(synthetic_pool(20, used=10), paper_needs())
    assert deficits[(Subject.PHYSICS, Difficulty.EASY)] == 15 - 10
    assert deficits[(Subject.PHYSICS, Difficulty.MEDIUM)] == 20 - 10
    assert (Subject.PHYSICS, Difficulty.HARD) not in deficits
