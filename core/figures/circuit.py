"""A DC circuit: its components, their values and how they connect, and where each is drawn.

The spec is a netlist on a drawing grid. `points` are the places parts end at (grid coordinates,
y up), some with a printed terminal label ("A"); `parts` join two points each (the
renderer dots every junction of three or more wires).
A `wire` joins points into one node, as a drawn wire does. Every part prints its name and value
as one label ("R₂ = 4 Ω", "X" for an unknown, "12 V" when unnamed); a cell also prints its
internal resistance ("r = 1 Ω"), and its long plate (positive terminal) is at point `a`.

A metre bridge's wire is a `slide_wire` from `a` (its zero end) to `b`, of printed length
`value` (cm), touched by the jockey at point `tap`; `tap_value` is the printed length from `a` to
the jockey, or None when the picture leaves it as "l" (the length the question asks for). The
picture places the jockey at the tap point whatever its printed length, so geometry never
gives a value away: every value a student needs is printed text, and the solver reads only that.
"""

from __future__ import annotations

from typing import Literal

from core.record import Record

PartKind = Literal[
    "resistor",
    "cell",
    "capacitor",
    "ammeter",
    "voltmeter",
    "galvanometer",
    "wire",
    "slide_wire",
]
LabelSide = Literal["top", "bottom"]
PointSide = Literal["left", "right", "top", "bottom"]


def value_text(value: float, unit: str) -> str:
    """A value as the picture prints it: up to 3 decimals, no trailing zeros ("2.5 Ω")."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return f"{text} {unit}" if unit else text


class CircuitPoint(Record):
    """A place on the grid where parts end; `label` printed beside it."""

    name: str
    x: float
    y: float
    label: str = ""
    side: PointSide = "left"


class CircuitPart(Record):
    """A two-terminal component between points `a` and `b`, drawn from `a` to `b`.

    value: in the printed unit (Ω, V, μF, cm); None for an unknown ("X") or an ideal meter.
    internal: a cell's internal resistance in Ω, printed as `internal_name = … Ω`.
    side: which side of the part its label sits on (schemdraw's top/bottom of the element).
    """

    kind: PartKind
    a: str
    b: str
    name: str = ""
    value: float | None = None
    unit: str = ""
    internal: float | None = None
    internal_name: str = "r"
    side: LabelSide = "top"
    tap: str = ""
    tap_value: float | None = None
    tap_name: str = "l"

    @property
    def shown_value(self) -> str:
        return "" if self.value is None else value_text(self.value, self.unit)

    @property
    def label(self) -> str:
        """The part's printed label: name and value, or whichever it has."""
        if self.kind == "slide_wire":
            return self.shown_value
        if self.name and self.value is not None:
            return f"{self.name} = {self.shown_value}"
        return self.name or self.shown_value

    @property
    def internal_label(self) -> str:
        if self.internal is None:
            return ""
        return f"{self.internal_name} = {value_text(self.internal, 'Ω')}"

    @property
    def tap_label(self) -> str:
        if self.kind != "slide_wire":
            return ""
        if self.tap_value is None:
            return self.tap_name
        return f"{self.tap_name} = {value_text(self.tap_value, self.unit)}"


class CircuitSpec(Record):
    kind: Literal["circuit"] = "circuit"
    points: tuple[CircuitPoint, ...] = ()
    parts: tuple[CircuitPart, ...] = ()
