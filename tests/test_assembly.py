from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from core.pool import POOL_SCHEMA
from core.records import OPTION_KEYS, Difficulty, Paper, Subject
from kb.syllabus import Syllabus
from pipeline.assemble.assembly import assemble_paper, daily_paper
from pipeline.assemble.blueprint import (
    Blueprint,
    BlueprintError,
    difficulty_counts,
    load_blueprint,
    parse_distribution,
)
from pipeline.assemble.index import index_pool
from pipeline.assemble.paper_check import violations
from pipeline.assemble.request import (
    PaperRequest,
    Shortfall,
    ShortfallError,
    custom_request,
    daily_request,
)
from tests.conftest import DATA_DIR

DAY = dt.date(2026, 1, 15)


@pytest.fixture(scope="module")
def blueprint(syllabus: Syllabus) -> Blueprint:
    return load_blueprint(DATA_DIR, syllabus)


def live_topic(syllabus: Syllabus, subject: Subject, unit: str) -> str:
    return next(t.topic_id for t in syllabus.live_topics(subject) if t.unit_id == unit)


def row(
    syllabus: Syllabus, subject: Subject, unit: str, d: Difficulty, i: int, **kw: Any
) -> dict[str, Any]:
    base = {
        "question_id": f"q-{subject.value[:3]}-{unit}-{d.value}-{i:03d}",
        "subject": subject.value,
        "unit_id": unit,
        "topic_id": live_topic(syllabus, subject, unit),
        "difficulty": d.value,
        "format": "single_correct",
        "template_id": f"t-{subject.value}-{unit}-{d.value}-{i}",
        "family": f"t-{subject.value}-{unit}-{d.value}-{i}|single_correct",
        "stem": f"stem {subject.value} {unit} {d.value} {i}",
        # Keys spread over A–D across cells, as the pool's are (the paper must stay within 8–14).
        "correct_key": OPTION_KEYS[(i + sum(map(ord, unit + d.value))) % 4],
        "figure": False,
        "structure": False,
        "steps": 1,
        "near_duplicate_group": f"g-{subject.value}-{unit}-{d.value}-{i}",
        "withdrawn": False,
        "times_used": 0,
        "last_used": None,
        "last_daily": None,
    }
    return {**base, **kw}


def synthetic_pool(
    syllabus: Syllabus, blueprint: Blueprint, per_cell: int, used: int = 0
) -> pl.DataFrame:
    """per_cell questions in every (subject, unit, difficulty) cell; the first `used` used once."""
    rows = []
    for s in Subject:
        for unit in blueprint.units[s]:
            for d in Difficulty:
                for i in range(per_cell):
                    past = {"times_used": 1, "last_used": "2025-06-01", "last_daily": "2025-06-01"}
                    rows.append(row(syllabus, s, unit, d, i, **(past if i < used else {})))
    return pl.DataFrame(rows)


def test_a_daily_paper_meets_every_constraint_of_the_blueprint(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    pool = synthetic_pool(syllabus, blueprint, 4)
    paper = daily_paper(pool, DAY, blueprint)
    assert violations(paper, pool, blueprint) == []
    assert paper.exam_id == "daily-2026-01-15" and paper.exam_date == "2026-01-15"
    assert len(paper.question_ids) == 180 == len(set(paper.question_ids))
    for i, s in enumerate(Subject):
        block = paper.question_ids[45 * i : 45 * (i + 1)]
        assert all(q.startswith(f"q-{s.value[:3]}") for q in block)
        mix = Counter(q.split("-")[4] for q in block)
        assert mix == {"Easy": 15, "Medium": 20, "Hard": 10}
    assert paper.composition is not None
    keys = dict(paper.composition.answer_keys)
    assert sum(keys.values()) == 180 and all(32 <= keys[k] <= 56 for k in OPTION_KEYS)


def test_swaps_bring_each_subject_up_to_its_multi_step_questions(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    """Every seventh question is multi-step (two or three steps, a different format, and used
    before, so the flow never prefers it): swaps within a unit and difficulty still bring each
    subject to the blueprint's ten, and every other constraint holds."""
    pool = synthetic_pool(syllabus, blueprint, 6).with_columns(
        steps=pl.when(pl.int_range(pl.len()) % 7 == 3).then(2).otherwise(1).cast(pl.Int8),
    )
    multi = pl.col("steps") >= 2
    pool = pool.with_columns(
        format=pl.when(multi).then(pl.lit("numerical")).otherwise(pl.col("format")),
        times_used=pl.when(multi).then(1).otherwise(pl.col("times_used")),
    )
    assert blueprint.multi_step_per_subject == 10
    plain = daily_paper(pool, DAY, replace(blueprint, multi_step_per_subject=0))
    paper = daily_paper(pool, DAY, blueprint)
    assert violations(paper, pool, blueprint) == []
    steps = dict(zip(pool["question_id"], pool["steps"], strict=True))
    for i in range(len(Subject)):
        before = plain.question_ids[45 * i : 45 * (i + 1)]
        block = paper.question_ids[45 * i : 45 * (i + 1)]
        assert sum(steps[q] >= 2 for q in before) < 10 <= sum(steps[q] >= 2 for q in block)


def test_swaps_bring_each_subject_into_its_figure_range(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    """Figure questions scarce (every eleventh, used before, so the flow avoids them) are swapped
    in up to the blueprint's minimum; plentiful (every other one, never used) they are swapped
    out down to its maximum. Neither costs a multi-step question or breaks a constraint."""
    assert blueprint.figures_per_subject == (2, 3)
    lo, hi = blueprint.figures_per_subject
    # The blueprint's figure caps (1 a difficulty) already keep a subject to 3; under caps of
    # a fifth the flow takes more, and the swaps must bring them down.
    wide = {d: {**caps, "figure": Fraction(1, 5)} for d, caps in blueprint.class_caps.items()}
    for every, used in ((11, 1), (2, 0)):
        if every == 2:
            blueprint = replace(blueprint, class_caps=wide)
        shows = pl.int_range(pl.len()) % every == 1
        pool = synthetic_pool(syllabus, blueprint, 10).with_columns(
            figure=shows,
            steps=pl.when((pl.int_range(pl.len()) % 7 == 3) & ~shows)
            .then(2)
            .otherwise(1)
            .cast(pl.Int8),
        )
        pool = pool.with_columns(
            times_used=pl.when(pl.col("figure")).then(used).otherwise(pl.col("times_used"))
        )
        plain = daily_paper(pool, DAY, replace(blueprint, figures_per_subject=None))
        paper = daily_paper(pool, DAY, blueprint)
        assert violations(paper, pool, blueprint) == []
        figure = dict(zip(pool["question_id"], pool["figure"], strict=True))
        steps = dict(zip(pool["question_id"], pool["steps"], strict=True))
        for i in range(len(Subject)):
            before = plain.question_ids[45 * i : 45 * (i + 1)]
            block = paper.question_ids[45 * i : 45 * (i + 1)]
            had = sum(figure[q] for q in before)
            assert not lo <= had <= hi  # the swaps had work to do
            assert lo <= sum(figure[q] for q in block) <= hi
            assert sum(steps[q] >= 2 for q in block) >= min(10, sum(steps[q] >= 2 for q in before))


def test_swaps_bring_chemistry_into_its_structure_range_and_keep_its_figures(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    """Structure questions scarce in Chemistry (every ninth, used before) are swapped in up to
    the blueprint's minimum; plentiful (every other one), the structure caps keep them to its
    maximum. The figure count and the other subjects are what they were without a structure
    range."""
    chem = Subject.CHEMISTRY
    lo, hi = blueprint.structures_per_subject[chem]
    assert (lo, hi) == (4, 12) and set(blueprint.structures_per_subject) == {chem}
    for every, used in ((9, 1), (2, 0)):
        n = pl.int_range(pl.len())
        shows = (pl.col("subject") == chem.value) & (n % every == 1)
        pool = synthetic_pool(syllabus, blueprint, 10).with_columns(
            structure=shows, figure=shows | (n % 13 == 5)
        )
        pool = pool.with_columns(
            times_used=pl.when(pl.col("structure")).then(used).otherwise(pl.col("times_used"))
        )
        plain = daily_paper(pool, DAY, replace(blueprint, structures_per_subject={}))
        paper = daily_paper(pool, DAY, blueprint)
        assert violations(paper, pool, blueprint) == []
        flags = {
            r["question_id"]: (r["structure"], r["figure"] and not r["structure"])
            for r in pool.iter_rows(named=True)
        }
        for i, s in enumerate(Subject):
            before = plain.question_ids[45 * i : 45 * (i + 1)]
            block = paper.question_ids[45 * i : 45 * (i + 1)]
            structures = sum(flags[q][0] for q in block)
            figures = sum(flags[q][1] for q in block)
            assert figures == sum(flags[q][1] for q in before)
            if s is chem:
                had = sum(flags[q][0] for q in before)
                assert had < lo if every == 9 else had == hi  # swaps to do; caps that bind
                assert lo <= structures <= hi
            else:
                assert block == before


def test_assembly_is_deterministic_for_a_date_and_varies_across_dates(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    pool = synthetic_pool(syllabus, blueprint, 5)
    paper = daily_paper(pool, DAY, blueprint)
    assert paper == daily_paper(pool.sample(fraction=1.0, shuffle=True, seed=1), DAY, blueprint)
    assert (
        paper.question_ids != daily_paper(pool, DAY + dt.timedelta(days=1), blueprint).question_ids
    )


def test_never_used_questions_come_first(syllabus: Syllabus, blueprint: Blueprint) -> None:
    pool = synthetic_pool(syllabus, blueprint, 8, used=4)
    paper = daily_paper(pool, DAY, blueprint)
    used_ids = set(pool.filter(pl.col("times_used") > 0)["question_id"])
    assert not used_ids & set(paper.question_ids)


def test_cooldown_exposure_withdrawn_and_deleted_topics_are_never_chosen(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    pool = synthetic_pool(syllabus, blueprint, 10)
    deleted = next(t for t in syllabus.topics.values() if t.deleted and t.subject == Subject.BOTANY)
    n = pool.height
    pool = pool.with_columns(
        # Spread over every cell: recent daily use, exposure at the cap, withdrawal.
        last_daily=pl.when(pl.int_range(n) % 10 == 0).then(pl.lit("2026-01-10")).otherwise(None),
        times_used=pl.when(pl.int_range(n) % 10 == 1).then(5).otherwise(0),
        withdrawn=pl.int_range(n) % 10 == 2,
    )
    on_deleted = (
        pool.filter(pl.col("subject") == "Botany")
        .head(30)
        .with_columns(
            question_id=pl.col("question_id") + "-deleted",
            topic_id=pl.lit(deleted.topic_id),
            unit_id=pl.lit(deleted.unit_id),
            near_duplicate_group=pl.col("near_duplicate_group") + "-deleted",
            withdrawn=pl.lit(False),
        )
    )
    pool = pl.concat([pool, on_deleted])
    paper = daily_paper(pool, DAY, blueprint, cooldown_since="2026-01-01")
    assert violations(paper, pool, blueprint) == []
    chosen = pool.filter(pl.col("question_id").is_in(paper.question_ids))
    assert chosen["last_daily"].null_count() == 180
    assert chosen["times_used"].max() == 0
    assert not chosen["withdrawn"].any()
    assert deleted.topic_id not in set(chosen["topic_id"])


def test_enemies_never_share_a_paper(syllabus: Syllabus, blueprint: Blueprint) -> None:
    # Like forward (Easy), reverse (Medium) and statement (Hard) questions about one fact: the
    # i-th question of a unit at each difficulty share a group, so at most one may be chosen.
    pool = synthetic_pool(syllabus, blueprint, 12).with_columns(
        near_duplicate_group=pl.col("subject")
        + pl.col("unit_id")
        + pl.col("question_id").str.slice(-3)
    )
    paper = daily_paper(pool, DAY, blueprint)
    assert violations(paper, pool, blueprint) == []
    groups = pool.filter(pl.col("question_id").is_in(paper.question_ids))["near_duplicate_group"]
    assert groups.n_unique() == 180


def test_figure_and_format_caps_hold(syllabus: Syllabus, blueprint: Blueprint) -> None:
    # A fifth of the questions show a figure, half the Hard ones are match-list ones.
    last_digit = pl.col("question_id").str.slice(-1).cast(pl.Int64)
    pool = synthetic_pool(syllabus, blueprint, 10).with_columns(
        figure=last_digit < 2,
        format=pl.when((pl.col("difficulty") == "Hard") & (last_digit % 2 == 0))
        .then(pl.lit("match_list"))
        .otherwise(pl.col("format")),
    )
    caps_bind = 0
    for k in range(5):
        paper = daily_paper(pool, DAY + dt.timedelta(days=k), blueprint)
        assert violations(paper, pool, blueprint) == []
        chosen = pool.filter(pl.col("question_id").is_in(paper.question_ids))
        for s in Subject:
            mine = chosen.filter(pl.col("subject") == s.value)
            match = mine.filter(~pl.col("figure") & (pl.col("format") == "match_list")).height
            assert match <= 3 and mine.filter(pl.col("figure")).height <= 9
            caps_bind += match == 3
    assert caps_bind  # the cap was reached, not merely left alone


def test_a_shortfall_names_exactly_the_missing_cells_and_filling_them_completes_the_paper(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    pool = synthetic_pool(syllabus, blueprint, 3)
    pool = pool.filter(pl.col("unit_id") != "phy-u12")  # Current Electricity: at least 3
    pool = pool.filter(~((pl.col("subject") == "Zoology") & (pl.col("difficulty") == "Hard")))
    with pytest.raises(ShortfallError) as err:
        daily_paper(pool, DAY, blueprint)
    short = err.value.short
    physics = {cell: n for cell, n in short.items() if cell[0] == Subject.PHYSICS}
    zoology = {cell: n for cell, n in short.items() if cell[0] == Subject.ZOOLOGY}
    assert set(short) == set(physics) | set(zoology)
    assert sum(physics.values()) == 3 and {u for _, _, u in physics} == {"phy-u12"}
    assert sum(zoology.values()) == 10 and {d for _, d, _ in zoology} == {Difficulty.HARD}
    assert "Physics/phy-u12/" in str(err.value)
    fresh = [
        row(syllabus, s, u, d, 900 + i, question_id=f"q-new-{s.value}-{u}-{d.value}-{i}")
        for (s, d, u), n in short.items()
        for i in range(n)
    ]
    filled = pl.concat([pool, pl.DataFrame(fresh)])
    assert violations(daily_paper(filled, DAY, blueprint), filled, blueprint) == []


def custom_paper(
    syllabus: Syllabus,
    blueprint: Blueprint,
    subjects: list[Subject],
    shares: dict[str, float],
) -> Paper:
    """A custom exam over a synthetic pool, checked against every rule of the blueprint."""
    pool = synthetic_pool(syllabus, blueprint, 5)
    request = custom_request(blueprint, "exam-abcdefgh", subjects, parse_distribution(shares))
    paper = assemble_paper(index_pool(pool), request, blueprint)
    assert isinstance(paper, Paper) and paper.kind == "custom"
    assert violations(paper, pool, blueprint) == []
    return paper


def test_a_custom_exam_takes_its_subjects_and_difficulty_mix(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    shares = {"EASY": 0.2, "medium": 0.3, "Hard": 0.5}
    paper = custom_paper(syllabus, blueprint, [Subject.BOTANY, Subject.PHYSICS], shares)
    assert [t.subject for t in paper.composition.subjects] == [Subject.PHYSICS, Subject.BOTANY]  # type: ignore[union-attr]
    # 90 questions at 0.2/0.3/0.5 are 18/27/45; each subject alone would round to 9/14/22.
    targets = [
        {t.difficulty: t.target for t in tally.difficulty}
        for tally in paper.composition.subjects  # type: ignore[union-attr]
    ]
    E, M, H = Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD
    assert targets == [{E: 9, M: 13, H: 23}, {E: 9, M: 14, H: 22}]


def test_a_custom_exam_gets_the_whole_split_it_asked_for(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    shares = {"easy": 0.3, "medium": 0.5, "hard": 0.2}
    paper = custom_paper(syllabus, blueprint, [Subject.PHYSICS, Subject.CHEMISTRY], shares)
    mix = Counter(q.split("-")[4] for q in paper.question_ids)
    assert mix == {"Easy": 27, "Medium": 45, "Hard": 18}  # not 28 / 44 / 18


def test_an_empty_pool_is_short_of_every_question(blueprint: Blueprint) -> None:
    empty = pl.DataFrame(schema=POOL_SCHEMA)
    outcome = assemble_paper(empty, daily_request(blueprint, DAY), blueprint)
    assert isinstance(outcome, Shortfall) and outcome.total == 180
    for s in Subject:
        per_unit: Counter[str] = Counter()
        for (subject, _, unit), n in outcome.cells.items():
            if subject == s:
                per_unit[unit] += n
        assert all(r.min <= per_unit[u] <= r.max for u, r in blueprint.units[s].items())


def test_the_bundled_blueprint_covers_exactly_the_live_units_of_each_subject(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    assert difficulty_counts(blueprint.distribution, 45) == {
        Difficulty.EASY: 15,
        Difficulty.MEDIUM: 20,
        Difficulty.HARD: 10,
    }
    for s in Subject:
        assert set(blueprint.units[s]) == {t.unit_id for t in syllabus.live_topics(s)}
        assert sum(r.min for r in blueprint.units[s].values()) <= 45
        assert sum(r.max for r in blueprint.units[s].values()) >= 45
    assert "bio-u05" in blueprint.units[Subject.ZOOLOGY]  # Human Physiology
    assert "bio-u05" not in blueprint.units[Subject.BOTANY]


def test_largest_remainder_counts() -> None:
    assert difficulty_counts({Difficulty.EASY: 0.5, Difficulty.MEDIUM: 0.5}, 45) == {
        Difficulty.EASY: 23,  # 22.5 and 22.5: the tie goes to the first
        Difficulty.MEDIUM: 22,
        Difficulty.HARD: 0,
    }
    assert difficulty_counts(
        {Difficulty.EASY: 0.3, Difficulty.MEDIUM: 0.3, Difficulty.HARD: 0.4}, 45
    ) == {Difficulty.EASY: 14, Difficulty.MEDIUM: 13, Difficulty.HARD: 18}  # 13.5, 13.5, 18
    assert (
        sum(
            difficulty_counts(
                parse_distribution({"easy": 0.1, "medium": 0.7, "hard": 0.2}), 7
            ).values()
        )
        == 7
    )
    with pytest.raises(BlueprintError, match="add up to 1"):
        parse_distribution({"easy": 0.5, "medium": 0.6, "hard": 0.0})
    with pytest.raises(BlueprintError, match="not one of"):
        parse_distribution({"tricky": 1.0})


def test_a_blueprint_must_cover_the_live_units(tmp_path: Path, syllabus: Syllabus) -> None:
    raw = json.loads((DATA_DIR / "blueprints" / "neet-ug-v1.json").read_text())
    del raw["units"]["Physics"]["phy-u12"]
    (tmp_path / "blueprints").mkdir()
    (tmp_path / "blueprints" / "broken.json").write_text(json.dumps(raw))
    with pytest.raises(BlueprintError, match="phy-u12"):
        load_blueprint(tmp_path, syllabus, "broken")
    raw = json.loads((DATA_DIR / "blueprints" / "neet-ug-v1.json").read_text())
    raw["units"]["Zoology"]["bio-u05"] = [40, 44]
    (tmp_path / "blueprints" / "broken.json").write_text(json.dumps(raw))
    with pytest.raises(BlueprintError, match="cannot add up"):
        load_blueprint(tmp_path, syllabus, "broken")


def test_a_request_for_a_daily_paper_carries_the_blueprints_rules(blueprint: Blueprint) -> None:
    request: PaperRequest = daily_request(blueprint, DAY, "2025-12-16")
    assert request.seed == request.exam_id == "daily-2026-01-15"
    assert request.max_exposure == blueprint.max_exposure == 5
    assert request.cooldown_since == "2025-12-16"


def test_a_questions_seeded_place_depends_only_on_its_id(
    syllabus: Syllabus, blueprint: Blueprint
) -> None:
    pool = synthetic_pool(syllabus, blueprint, 2)
    longer_ids = pool.with_columns(question_id=pl.col("question_id") + "-and-a-longer-tail")
    both = index_pool(pl.concat([pool, longer_ids]))
    alone = index_pool(pool)
    word = dict(zip(alone.question_ids, alone.id_word.tolist(), strict=True))
    assert all(
        word[q] == w
        for q, w in zip(both.question_ids, both.id_word.tolist(), strict=True)
        if q in word
    )


def test_a_cell_a_round_did_not_help_is_stalled() -> None:
    from pipeline.assemble.request import stalled_cells

    a = (Subject.BOTANY, Difficulty.EASY, "bio-u07")
    b = (Subject.BOTANY, Difficulty.EASY, "bio-u01")
    c = (Subject.ZOOLOGY, Difficulty.HARD, "bio-u05")
    before = Shortfall({a: 2, b: 3})
    after = Shortfall({a: 2, b: 1, c: 4})  # a no better, b helped, c newly short
    assert stalled_cells(before, after) == {a}


@pytest.mark.parametrize(
    ("shares", "subjects", "whole"),
    [
        ((0.3, 0.5, 0.2), 2, (27, 45, 18)),
        ((0.2, 0.3, 0.5), 2, (18, 27, 45)),
        ((0.1, 0.1, 0.8), 3, (14, 13, 108)),
        ((1 / 3, 4 / 9, 2 / 9), 4, (60, 80, 40)),
        ((0.5, 0.5, 0.0), 3, (68, 67, 0)),
    ],
)
def test_an_exam_is_apportioned_whole_then_split_across_subjects(
    shares: tuple[float, float, float], subjects: int, whole: tuple[int, int, int]
) -> None:
    from pipeline.assemble.blueprint import exam_difficulty_counts

    distribution = dict(zip(Difficulty, shares, strict=True))
    split = exam_difficulty_counts(distribution, subjects, 45)
    solo = difficulty_counts(distribution, 45)
    assert tuple(sum(s[d] for s in split) for d in Difficulty) == whole
    assert all(sum(s.values()) == 45 for s in split)
    assert all(abs(s[d] - solo[d]) <= 1 for s in split for d in Difficulty)
