"""A labelled biology diagram: a line drawing, and which part each letter points at.

The drawing is a list of simple shapes (a schematic of an NCERT figure). Each label is a letter
printed beside the drawing with a leader line to the part it names. The picture prints only the
title, the letters and a few neutral marks (such as 5′ and 3′ on a DNA strand); the part names
are never printed. A label's `part` is what a student recognises the pointed-at part to be, so
it is in the spec (the solver reads it as a student reads the drawing) but not in the SVG.
"""

from __future__ import annotations

from typing import Literal

from core.record import Record

ShapeKind = Literal["path", "ellipse", "rect", "line", "polyline", "polygon", "circle"]


class DiagramShape(Record):
    """One shape of the drawing, in the 480 × 360 drawing space.

    geometry by kind: path: none (its `d`); ellipse: cx, cy, rx, ry[, rotation°];
    circle: cx, cy, r; rect: x, y, width, height[, corner radius]; line: x1, y1, x2, y2;
    polyline / polygon: x1, y1, x2, y2, ….
    """

    shape: ShapeKind
    geometry: tuple[float, ...] = ()
    d: str = ""
    fill: str = "none"
    stroke: str = "#333333"
    stroke_width: float = 1.5
    dash: str = ""


class DiagramNote(Record):
    """A neutral mark printed on the drawing (5′, 3′, an arrow's sense): never a part's name."""

    text: str
    x: float
    y: float
    size: float = 12.0


class DiagramLabel(Record):
    """A letter, the part it points at, where the leader line touches it, where the letter sits."""

    letter: str
    part: str
    anchor: tuple[float, float]
    at: tuple[float, float]


class DiagramSpec(Record):
    kind: Literal["diagram"] = "diagram"
    diagram_id: str = ""
    title: str = ""
    shapes: tuple[DiagramShape, ...] = ()
    notes: tuple[DiagramNote, ...] = ()
    labels: tuple[DiagramLabel, ...] = ()
