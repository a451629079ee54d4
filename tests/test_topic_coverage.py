"""Topic coverage: the per-topic fill, the floor's reasons, and what the syllabus says is there."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import polars as pl

from core.pool import POOL_SCHEMA
from core.records import Difficulty, Draft, Subject
from core.settings import Settings
from core.warehouse import open_warehouse
from kb.syllabus import Syllabus
from pipeline.compose import build_services
from pipeline.fill.coverage import (
    cell_groups,
    coverage_markdown,
    servable_counts,
    shortfall_reasons,
    spent_cells,
    topic_coverage,
)
from pipeline.fill.pool import fill_pool, topic_deficits
from pipeline.generate.drafter import Drafter
from site_builder.contract import Syllabus as SyllabusModel
from site_builder.documents import syllabus_document

EMPTY = pl.DataFrame(schema=POOL_SCHEMA)
UNIT = "phy-u02"  # kinematics: numerical templates (each one group) beside fact tables


def test_a_topic_fill_counts_distinct_groups_per_cell_and_stops_at_the_floor(
    tmp_path: Path, syllabus: Syllabus
) -> None:
    settings = Settings(home=tmp_path / "home")
    services = build_services(settings)
    topics = [t for t in syllabus.live_topics() if t.unit_id == UNIT]
    with open_warehouse(settings.warehouse_path) as wh:
        deficits = topic_deficits(wh.pool(), topics, 4)
        assert set(deficits.values()) == {4} and len(deficits) == 3 * len(topics)
        reports = fill_pool(
            wh, services.drafter, services.solver, deficits, held=cell_groups(wh.pool())
        )
        pool = wh.pool()
        assert all(r.accepted == 4 for r in reports), [
            (r.topic_id, r.difficulty, r.accepted) for r in reports if r.accepted != 4
        ]
        assert topic_deficits(pool, topics, 4) == {}
        # A second fill to a higher floor adds only new groups to each cell.
        more = topic_deficits(pool, topics, 6)
        fill_pool(wh, services.drafter, services.solver, more, held=cell_groups(pool))
        pool = wh.pool()
    per_cell = pool.group_by("topic_id", "difficulty").agg(
        pl.len().alias("questions"), pl.col("near_duplicate_group").n_unique().alias("groups")
    )
    # Every question of a cell is its own group: a numerical template adds one variant only
    # (kinematics has some), and a fact's Easy and Medium questions are in different cells.
    assert (per_cell["questions"] == per_cell["groups"]).all()
    assert pool.filter(pl.col("template_id") == "phy-eom-final-velocity").height == 1
    assert set(per_cell["groups"].to_list()) == {6}
    counts = servable_counts(pool)
    assert all(counts[t.topic_id, d.value] == (6, 6) for t in topics for d in Difficulty)


class _OnlyEasy:
    """A drafter that drafts for one topic at Easy only (through the real one)."""

    def __init__(self, inner: Drafter, topic_id: str) -> None:
        self.inner, self.topic_id = inner, topic_id

    def drafts(
        self,
        subject: Subject,
        difficulty: Difficulty,
        starts: Mapping[str, int],
        unit_id: str | None = None,
        topic_id: str | None = None,
    ) -> Iterator[Draft]:
        if difficulty is Difficulty.EASY and topic_id == self.topic_id:
            yield from self.inner.drafts(subject, difficulty, starts, unit_id, topic_id)


def test_a_cell_below_the_floor_says_why(tmp_path: Path, syllabus: Syllabus) -> None:
    services = build_services(Settings(home=tmp_path / "home"))
    easy_only = _OnlyEasy(services.drafter, "phy-projectile-motion")
    explain = shortfall_reasons(easy_only, services.solver, EMPTY, 10)
    projectile = syllabus.topic("phy-projectile-motion")
    assert explain(projectile, Difficulty.HARD) == "no_generator_for_difficulty"
    assert explain(syllabus.topic("phy-free-fall"), Difficulty.EASY) == "no_knowledge"
    assert explain(projectile, Difficulty.EASY) == "not_filled_yet"
    exhausted = shortfall_reasons(easy_only, services.solver, EMPTY, 1000)
    assert exhausted(projectile, Difficulty.EASY) == "generators_exhausted"

    cells = topic_coverage(syllabus, {("phy-projectile-motion", "Easy"): (3, 2)}, 10, exhausted)
    assert len(cells) == 3 * len(syllabus.live_topics())
    cell = next(c for c in cells if c.topic_id == "phy-projectile-motion")
    assert (cell.servable, cell.fresh, cell.status) == (3, 2, "below_floor")
    assert cell.reason == "generators_exhausted"
    assert ("phy-projectile-motion", "Easy") in spent_cells(cells)
    report = coverage_markdown(cells, 10)
    assert "0 of 1698 cells at the floor, 1 below it, 1697 empty" in report
    assert "| phy-projectile-motion | phy-u02 | Easy | 3 | 2 | the generators make fewer" in report


def test_the_syllabus_gives_each_live_topic_its_servable_counts(syllabus: Syllabus) -> None:
    counts = {("phy-projectile-motion", "Hard"): (7, 5)}
    document = syllabus_document(syllabus, counts, "2026-11-26")
    SyllabusModel.model_validate(document)
    assert document["servable_as_of"] == "2026-11-26"
    topics = [
        t
        for s in document["subjects"]
        for u in s["units"]
        for c in u["chapters"]
        for t in c["topics"]
    ]
    projectile = next(t for t in topics if t["topic_id"] == "phy-projectile-motion")
    assert projectile["servable"] == {"Easy": 0, "Medium": 0, "Hard": 7}
    assert all((t["servable"] is None) == t["deleted"] for t in topics)
    assert syllabus_document(syllabus)["servable_as_of"] is None
