"""Question figures as typed specs: what a picture shows, from which its SVG is drawn.

A spec holds exactly what a student reads off the picture (values, labels, axes), so the solver
answers from the spec what a student answers from the image. Each kind lives in its own module;
`FigureSpec` is their union, told apart by `kind`.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from core.figures.circuit import CircuitSpec
from core.figures.diagram import DiagramSpec
from core.figures.graph import GraphSpec
from core.figures.ray import RaySpec
from core.figures.structure import StructurePanel, StructureSpec

FigureSpec = Annotated[
    CircuitSpec | GraphSpec | RaySpec | DiagramSpec | StructureSpec, Field(discriminator="kind")
]

__all__ = [
    "CircuitSpec",
    "DiagramSpec",
    "FigureSpec",
    "GraphSpec",
    "RaySpec",
    "StructurePanel",
    "StructureSpec",
]
