"""The solver of figure questions: it reads the figure's spec, as a student reads the picture,
and answers by its own method for the kind (nodal analysis, the mirror equation, a graph's
slope or area, a label looked up), never by the template's formula."""

from __future__ import annotations

from core.figures import CircuitSpec, DiagramSpec, GraphSpec, RaySpec, StructureSpec
from core.records import SolverAnswer, SolverView
from pipeline.verify.circuit_solver import circuit_answer
from pipeline.verify.diagram_solver import diagram_answer
from pipeline.verify.figure_solve import FIGURE_SOLVER, FigureSolve
from pipeline.verify.graph_solver import graph_answer
from pipeline.verify.organic import organic_answer
from pipeline.verify.ray_solver import ray_answer


def figure_solve(view: SolverView) -> FigureSolve:
    """The answer to a figure question from its stem, options and the figure's spec."""
    specs = [f.spec for f in view.figures if f.spec is not None]
    if len(specs) != 1:
        note = f"{len(specs)} figure specs; a figure question reads exactly one"
        return FigureSolve(
            SolverAnswer(solver=FIGURE_SOLVER, choice=None, confidence=0.0, note=note), ()
        )
    spec = specs[0]
    if isinstance(spec, CircuitSpec):
        return circuit_answer(view, spec)
    if isinstance(spec, GraphSpec):
        return graph_answer(view, spec)
    if isinstance(spec, RaySpec):
        return ray_answer(view, spec)
    if isinstance(spec, DiagramSpec):
        return diagram_answer(view, spec)
    if isinstance(spec, StructureSpec):
        return FigureSolve(organic_answer(view), ())  # a structure prints no values
    raise TypeError(f"no solver for {type(spec).__name__}")  # pragma: no cover - closed union


def figure_answer(view: SolverView) -> SolverAnswer:
    return figure_solve(view).answer
