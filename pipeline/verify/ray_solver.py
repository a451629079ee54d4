"""Placeholder: the ray figures' solver (being written)."""

from __future__ import annotations

from core.figures import RaySpec
from core.records import SolverAnswer, SolverView
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve


def ray_answer(view: SolverView, spec: RaySpec) -> FigureSolve:
    return FigureSolve(SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0), ())
