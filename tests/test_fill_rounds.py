"""The one "assemble until it fits" loop (pipeline.fill.rounds), with a scripted generator and
assembler: what each round asks for, which cells it closes, and when it stops."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from core.pool import UnitCell
from core.records import Difficulty, Paper, Subject
from pipeline.assemble.request import Shortfall
from pipeline.fill.engine import CellReport
from pipeline.fill.rounds import fill_until_assembled

A: UnitCell = (Subject.PHYSICS, Difficulty.HARD, "phy-u01")
B: UnitCell = (Subject.ZOOLOGY, Difficulty.MEDIUM, "zoo-u03")
PAPER = Paper(
    exam_id="daily-2026-12-01",
    kind="daily",
    title="t",
    exam_date="2026-12-01",
    question_ids=("q1",),
    blueprint="b",
)


class Script:
    """Generates `made[cell]` per round (and says which cells ran dry); assembles a paper once
    `needed` questions were made, else names what is short, around the closed cells."""

    def __init__(self, made: Mapping[UnitCell, list[int]], dry: set[UnitCell], needed: int):
        self.made, self.dry, self.needed = made, dry, needed
        self.asked: list[dict[UnitCell, int]] = []
        self.closed_seen: list[set[UnitCell]] = []
        self.total = 0

    def generate(self, cells: Mapping[UnitCell, int]) -> list[CellReport]:
        self.asked.append(dict(cells))
        reports = []
        for cell, n in cells.items():
            made = self.made.get(cell, [])
            got = made[len(self.asked) - 1] if len(self.asked) <= len(made) else 0
            self.total += got
            subject, difficulty, unit = cell
            reports.append(
                CellReport(subject, difficulty, n, unit, got, exhausted=cell in self.dry)
            )
        return reports

    def assemble(self, closed: Collection[UnitCell]) -> Paper | Shortfall:
        self.closed_seen.append(set(closed))
        if self.total >= self.needed:
            return PAPER
        open_cells = [c for c in (A, B) if c not in closed] or [A, B]
        return Shortfall({open_cells[0]: self.needed - self.total})


def test_the_nightly_doubles_its_ask_and_stops_once_the_paper_fits() -> None:
    script = Script({A: [1, 1, 5]}, set(), needed=7)
    outcome = fill_until_assembled(
        Shortfall({A: 7}), script.generate, script.assemble, 6, doubling=True
    )
    assert outcome == PAPER
    assert script.asked == [{A: 7}, {A: 12}, {A: 20}]  # 7, then (7-1) << 1, then (7-2) << 2


def test_a_job_asks_only_what_it_lacks() -> None:
    script = Script({A: [1, 1, 5]}, set(), needed=7)
    fill_until_assembled(Shortfall({A: 7}), script.generate, script.assemble, 3, doubling=False)
    assert script.asked == [{A: 7}, {A: 6}, {A: 5}]


def test_a_dry_cell_is_closed_and_the_next_shortfall_goes_around_it() -> None:
    script = Script({A: [0], B: [0, 3]}, {A}, needed=3)
    outcome = fill_until_assembled(
        Shortfall({A: 3}), script.generate, script.assemble, 3, doubling=False
    )
    assert outcome == PAPER
    assert script.asked == [{A: 3}, {B: 3}]
    assert A in script.closed_seen[0]


def test_a_round_that_makes_nothing_and_finds_no_new_dry_cell_ends_the_loop() -> None:
    # A runs dry at once and the shortfall can only name A: nothing more can come of it.
    script = Script({A: [0]}, {A}, needed=5)

    def only_a(closed: Collection[UnitCell]) -> Paper | Shortfall:
        script.closed_seen.append(set(closed))
        return Shortfall({A: 5})

    outcome = fill_until_assembled(Shortfall({A: 5}), script.generate, only_a, 6, doubling=True)
    assert isinstance(outcome, Shortfall)
    assert len(script.asked) == 2  # the first round closes A; the second finds nothing new
    assert script.closed_seen[0] == {A}
