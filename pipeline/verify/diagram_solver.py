"""Placeholder: the diagram figures' solver (being written)."""

from __future__ import annotations

from core.figures import DiagramSpec
from core.records import SolverAnswer, SolverView
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve


def diagram_answer(view: SolverView, spec: DiagramSpec) -> FigureSolve:
    return FigureSolve(SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0), ())
