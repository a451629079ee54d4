"""Placeholder: the circuit figures' solver (being written)."""

from __future__ import annotations

from core.figures import CircuitSpec
from core.records import SolverAnswer, SolverView
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve


def circuit_answer(view: SolverView, spec: CircuitSpec) -> FigureSolve:
    return FigureSolve(SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0), ())
