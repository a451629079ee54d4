"""Placeholder: the graph figures' solver (being written)."""

from __future__ import annotations

from core.figures import GraphSpec
from core.records import SolverAnswer, SolverView
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve


def graph_answer(view: SolverView, spec: GraphSpec) -> FigureSolve:
    return FigureSolve(SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0), ())
