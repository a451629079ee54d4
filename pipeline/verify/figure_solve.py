"""What a figure solver returns: its answer, and the values and labels it read off the figure."""

from __future__ import annotations

from dataclasses import dataclass

from core.records import SolverAnswer

FIGURE_SOLVER = "offline-figure-v1"


@dataclass(frozen=True)
class FigureSolve:
    """A figure solver's answer and `used`: every value and label it read off the spec, written
    as the picture prints it ("4 Ω", "R2", "C"), so a test can check a student sees each one."""

    answer: SolverAnswer
    used: tuple[str, ...]
