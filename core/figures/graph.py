"""A plotted graph: axes with names and units, the data series drawn on them, labelled points.

What a student reads off such a picture is only what is printed on it: the tick numbers (each
with a faint grid line, so a vertex on two grid lines is read from its two tick labels), the
points labelled with their coordinates ("(4, 20)"), the axis names and units, and which way a
cycle runs. The spec holds exactly those, and the series' vertices; how a label or tick prints
is fixed here (`tick_text`, `Axis.label`), so the renderer draws it and the solver names it the
same way.
"""

from __future__ import annotations

import re
from typing import Literal

from core.record import Record

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_POWER = re.compile(r"\^\{?(-?\d+)\}?")


def unit_text(tex: str) -> str:
    """A TeX unit as printed on an axis: `\\mathrm{m\\,s^{-1}}` → `m s⁻¹`, `\\Omega` → `Ω`."""
    text = re.sub(r"\\mathrm\{(.*)\}", r"\1", tex.strip())
    text = text.replace(r"\Omega", "Ω").replace(r"\mu", "μ").replace(r"\,", " ")
    text = _POWER.sub(lambda m: m.group(1).translate(_SUPERSCRIPT), text)
    return " ".join(text.replace("{", "").replace("}", "").split())


def tick_text(value: float) -> str:
    """A number as a tick label or a labelled point prints it: 2.5, 20, -10, 0.35."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def point_text(x: float, y: float) -> str:
    """A labelled point's printed coordinates: `(4, 20)`."""
    return f"({tick_text(x)}, {tick_text(y)})"


class Axis(Record):
    """One axis: the quantity's printed name, its unit (TeX, printed as `unit_text`), the power
    of ten its tick numbers are in (1/T in 10⁻³ K⁻¹ prints 3.2 for 0.0032 K⁻¹), the printed
    ticks and the plotted range."""

    name: str
    unit: str = ""
    power: int = 0
    ticks: tuple[float, ...]
    low: float
    high: float

    @property
    def label(self) -> str:
        """The axis title as printed: `v (m s⁻¹)`, `1/T (10⁻³ K⁻¹)`, `pH`."""
        scale = f"10{str(self.power).translate(_SUPERSCRIPT)}" if self.power else ""
        unit = " ".join(p for p in (scale, unit_text(self.unit)) if p)
        return f"{self.name} ({unit})" if unit else self.name


class Series(Record):
    """A plotted line through its vertices, in order: straight segments, or (`smooth`) a curve
    sampled at them (an exponential decay). `label` is printed beside it ("A"); `arrows` puts a
    direction arrow on each segment (a P–V cycle's sense)."""

    points: tuple[tuple[float, float], ...]
    label: str = ""
    smooth: bool = False
    arrows: bool = False


class Mark(Record):
    """A point printed with a label (its coordinates as `point_text`, or a letter), with dashed
    lines down to both axes when `guides`."""

    x: float
    y: float
    text: str
    guides: bool = True


class GraphSpec(Record):
    kind: Literal["graph"] = "graph"
    x: Axis
    y: Axis
    series: tuple[Series, ...]
    marks: tuple[Mark, ...] = ()
    title: str = ""
