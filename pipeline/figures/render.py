"""One spec, one picture: the SVG of any question figure, by its kind's renderer."""

from __future__ import annotations

from core.figures import CircuitSpec, DiagramSpec, FigureSpec, GraphSpec, RaySpec, StructureSpec
from pipeline.figures.circuit import circuit_svg
from pipeline.figures.diagram import diagram_svg
from pipeline.figures.graph import graph_svg
from pipeline.figures.ray import ray_svg
from pipeline.figures.structure import structure_svg
from pipeline.figures.svg import checked_svg


def svg_of(spec: FigureSpec) -> str:
    """The figure's SVG, drawn deterministically from its spec and checked safe to publish."""
    if isinstance(spec, CircuitSpec):
        svg = circuit_svg(spec)
    elif isinstance(spec, GraphSpec):
        svg = graph_svg(spec)
    elif isinstance(spec, RaySpec):
        svg = ray_svg(spec)
    elif isinstance(spec, DiagramSpec):
        svg = diagram_svg(spec)
    elif isinstance(spec, StructureSpec):
        svg = structure_svg(spec)
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"no renderer for {type(spec).__name__}")
    return checked_svg(svg)
