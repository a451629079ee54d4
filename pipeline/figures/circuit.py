"""The circuit figures' renderer: a netlist on a grid drawn as a schematic with schemdraw.

Each part is drawn from its point `a` to its point `b` (one grid step is `GRID` schemdraw
units), labelled with its printed name and value; wires are plain lines; terminal labels and
junction dots sit at their points. Text stays text (schemdraw's SVG backend in 'text' mode,
one font family), numbers in attributes are rounded to two decimals, and nothing varies between
runs, so one spec always gives the same bytes.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import schemdraw
import schemdraw.elements as elm
from schemdraw.segments import SegmentText

from core.figures.circuit import CircuitPart, CircuitPoint, CircuitSpec

GRID = 2.5  # schemdraw units per grid step
FONT = "DejaVu Sans, sans-serif"
FONT_SIZE = 13
LINE_WIDTH = 1.5
DIMENSION_DROP = (0.35, 0.8)  # a slide wire's tap and total dimension lines, grid steps below it
PAD = (28.0, 10.0)  # extra room left/right and above/below: schemdraw's box clips some labels
# Where the alphabetic baseline sits below the anchor schemdraw aligns a line of text by, in
# font sizes (DejaVu Sans): renderers such as librsvg ignore dominant-baseline, so labels are
# written with plain baselines that every renderer places alike.
BASELINE = {"central": 0.36, "hanging": 0.76, "ideographic": -0.24, "auto": 0.0}
_TEXT = re.compile(
    r'<text x="([^"]+)" y="([^"]+)" dominant-baseline="(\w+)" ([^>]*?)font-size="([^"]+)"'
    r'([^>]*)><tspan x="[^"]+" dy="([^"]+)">([^<]*)</tspan></text>'
)
_ROOT = re.compile(r'height="([\d.]+)pt" width="([\d.]+)pt" viewBox="([^"]+)"')
_ATTR = re.compile(r'(\s[\w:-]+)="([^"]*)"')
_NUMBER = re.compile(r"-?\d+\.\d+(?:e-?\d+)?|-?\d+e-?\d+")
# schemdraw keeps its backend and svg text mode in module globals: one drawing at a time.
_LOCK = threading.Lock()


class _Meter(elm.Source):
    """A circle with its meter's letter (A, V or G) inside, upright whatever the direction."""

    def __init__(self, letter: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.segments.append(SegmentText((0.5, 0), letter, fontsize=FONT_SIZE + 1))


def _xy(point: CircuitPoint) -> tuple[float, float]:
    return (point.x * GRID, point.y * GRID)


def _element(part: CircuitPart) -> Any:
    if part.kind == "resistor":
        return elm.Resistor()
    if part.kind == "capacitor":
        return elm.Capacitor()
    if part.kind == "cell":
        return elm.BatteryCell()
    if part.kind in ("ammeter", "voltmeter", "galvanometer"):
        return _Meter({"ammeter": "A", "voltmeter": "V", "galvanometer": "G"}[part.kind])
    return elm.Line()


def _other(side: str) -> str:
    return "bottom" if side == "top" else "top"


def _round_attributes(svg: str) -> str:
    """Numbers in attributes to two decimals (schemdraw writes float noise like 5.5e-15)."""

    def number(m: re.Match[str]) -> str:
        text = f"{float(m.group(0)):.2f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    return _ATTR.sub(lambda m: f'{m.group(1)}="{_NUMBER.sub(number, m.group(2))}"', svg)


def _plain_text(svg: str) -> str:
    """Each one-line label as a <text> on an explicit alphabetic baseline."""

    def line(m: re.Match[str]) -> str:
        x, y, base, before, size, after, dy, content = m.groups()
        baseline = float(y) + float(dy) + BASELINE.get(base, 0.0) * float(size)
        return (
            f'<text x="{x}" y="{baseline:.2f}" {before}font-size="{size}"{after}>{content}</text>'
        )

    return _TEXT.sub(line, svg)


def _padded(svg: str) -> str:
    """Room around the drawing, and its size in CSS pixels (one user unit each)."""

    def root(m: re.Match[str]) -> str:
        x, y, w, h = (float(v) for v in m.group(3).split())
        px, py = PAD
        w, h = w + 2 * px, h + 2 * py
        return (
            f'height="{h:.0f}" width="{w:.0f}" viewBox="{x - px:.2f} {y - py:.2f} {w:.2f} {h:.2f}"'
        )

    return _ROOT.sub(root, svg, count=1)


def _slide_wire(d: schemdraw.Drawing, part: CircuitPart, at: dict[str, CircuitPoint]) -> None:
    a, b, tap = at[part.a], at[part.b], at[part.tap]
    d += elm.Line(lw=LINE_WIDTH * 2.2).endpoints(_xy(a), _xy(b))
    d += elm.Dot().at(_xy(tap))
    for (x0, x1), drop, text in (
        ((a.x, tap.x), DIMENSION_DROP[0], part.tap_label),
        ((a.x, b.x), DIMENSION_DROP[1], part.label),
    ):
        y = (a.y - drop) * GRID
        d += elm.Line(arrow="<->", lw=LINE_WIDTH * 0.7).endpoints((x0 * GRID, y), (x1 * GRID, y))
        d += elm.Label().at(((x0 + x1) / 2 * GRID, y - 0.5)).label(text)


def circuit_svg(spec: CircuitSpec) -> str:
    """The circuit's schematic as SVG text (deterministic: same spec, same bytes)."""
    at = {p.name: p for p in spec.points}
    with _LOCK:
        schemdraw.svgconfig.text = "text"
        d = schemdraw.Drawing(
            canvas="svg", show=False, font=FONT, fontsize=FONT_SIZE, lw=LINE_WIDTH, unit=GRID
        )
        for part in spec.parts:
            if part.kind == "slide_wire":
                _slide_wire(d, part, at)
                continue
            element = _element(part).endpoints(_xy(at[part.a]), _xy(at[part.b]))
            meter = part.kind in ("ammeter", "voltmeter", "galvanometer")
            if part.label and (not meter or part.value is not None):
                element.label(part.label, loc=part.side)
            if part.internal_label:
                element.label(part.internal_label, loc=_other(part.side))
            d += element
        for point in spec.points:
            if point.dot:
                d += elm.Dot().at(_xy(point))
            if point.label:
                d += elm.Dot(open=not point.dot).at(_xy(point)).label(point.label, loc=point.side)
        svg = d.get_imagedata("svg").decode("utf-8")
    return _padded(_plain_text(_round_attributes(svg)))
