"""The circuit figures' renderer: a netlist on a grid drawn as a schematic with schemdraw.

Each part is drawn from its point `a` to its point `b` (one grid step is `GRID` schemdraw
units), labelled with its printed name and value; wires are plain lines; terminal labels sit
at their points. A cell prints "+" by its long plate and "−" by its short one, so its polarity
never rests on plate lengths alone. Junction dots are drawn where three or more wires meet (a
spec's `dot` flag is not what decides: a dot where two wires meet reads as a branch). Text
stays text (schemdraw's SVG backend in 'text' mode, one font family), numbers in attributes are
rounded to two decimals, and nothing varies between runs, so one spec always gives the same
bytes.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from typing import Any

import schemdraw
import schemdraw.elements as elm
from schemdraw.segments import Segment, SegmentText

from core.figures.circuit import CircuitPart, CircuitPoint, CircuitSpec

GRID = 2.5  # schemdraw units per grid step
FONT = "DejaVu Sans, sans-serif"
FONT_SIZE = 13
LINE_WIDTH = 1.5
CELL_PLATES = (0.55, 0.28, 0.3)  # a cell's long and short plates' half-lengths, and their gap
CELL_SIGN = (0.24, 0.3)  # where a plate's + or − sits: outside it along the wire, and aside
SIGN_SIZE = 15
CELL_LABEL_GAP = 0.22  # a cell's labels off its plates, in schemdraw units
JUNCTION = 3  # wires meeting at a point that make it a junction, drawn with a dot
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


class _Cell(elm.Element2Term):
    """A cell drawn larger than schemdraw's: a long plate (+, at the start) and a short one (−),
    each with its sign printed beside it, upright whatever the direction. `aside` (±1) picks
    the side of the wire the signs sit on, in the element's own frame."""

    def __init__(self, aside: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        long, short, gap = CELL_PLATES
        self.segments.append(Segment([(0, 0), elm.elements.gap, (gap, 0)]))
        self.segments.append(Segment([(0, long), (0, -long)]))
        self.segments.append(Segment([(gap, short), (gap, -short)], lw=LINE_WIDTH * 2))
        x, y = CELL_SIGN[0], CELL_SIGN[1] * aside
        self.segments.append(SegmentText((-x, y), "+", fontsize=SIGN_SIZE))
        self.segments.append(SegmentText((gap + x, y), "−", fontsize=SIGN_SIZE))


def _xy(point: CircuitPoint) -> tuple[float, float]:
    return (point.x * GRID, point.y * GRID)


def _element(part: CircuitPart, a: CircuitPoint, b: CircuitPoint) -> Any:
    if part.kind == "resistor":
        return elm.Resistor()
    if part.kind == "capacitor":
        return elm.Capacitor()
    if part.kind == "cell":
        # signs on the right of an upright cell and above a level one, whichever way it points
        return _Cell(aside=1.0 if (b.x - a.x) - (b.y - a.y) > 0 else -1.0)
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
    d += elm.Line(lw=LINE_WIDTH * 2.2).endpoints(_xy(a), _xy(b))  # the jockey's dot: a junction
    for (x0, x1), drop, text in (
        ((a.x, tap.x), DIMENSION_DROP[0], part.tap_label),
        ((a.x, b.x), DIMENSION_DROP[1], part.label),
    ):
        y = (a.y - drop) * GRID
        d += elm.Line(arrow="<->", lw=LINE_WIDTH * 0.7).endpoints((x0 * GRID, y), (x1 * GRID, y))
        d += elm.Label().at(((x0 + x1) / 2 * GRID, y - 0.5)).label(text)


def _passes(point: CircuitPoint, a: CircuitPoint, b: CircuitPoint) -> bool:
    """Whether the straight run from a to b passes through the point (not ending there)."""
    cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
    inside = min(a.x, b.x) <= point.x <= max(a.x, b.x) and min(a.y, b.y) <= point.y <= max(a.y, b.y)
    ends = (point.x, point.y) in ((a.x, a.y), (b.x, b.y))
    return abs(cross) < 1e-9 and inside and not ends


def _junctions(spec: CircuitSpec) -> set[str]:
    """The points where three or more wires meet: only they get a junction dot (a dot where two
    wires meet, as between two cells in series, would suggest a branch that is not there). A
    part ending at a point brings one wire to it; a wire (or slide wire) running on through it
    brings two."""
    at = {p.name: p for p in spec.points}
    ends = Counter(end for p in spec.parts for end in (p.a, p.b))
    for part in spec.parts:
        if part.kind in ("wire", "slide_wire"):
            for point in spec.points:
                if _passes(point, at[part.a], at[part.b]):
                    ends[point.name] += 2
    return {p.name for p in spec.points if ends[p.name] >= JUNCTION}


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
            a, b = at[part.a], at[part.b]
            element = _element(part, a, b).endpoints(_xy(a), _xy(b))
            meter = part.kind in ("ammeter", "voltmeter", "galvanometer")
            # a cell's labels stand a little off its plates (schemdraw's 0.1 all but touches)
            ofst = CELL_LABEL_GAP if part.kind == "cell" else None
            if part.label and (not meter or part.value is not None):
                element.label(part.label, loc=part.side, ofst=ofst)
            if part.internal_label:
                element.label(part.internal_label, loc=_other(part.side), ofst=ofst)
            d += element
        joins = _junctions(spec)
        for point in spec.points:
            if point.name in joins:
                d += elm.Dot().at(_xy(point))
            if point.label:
                d += (
                    elm.Dot(open=point.name not in joins)
                    .at(_xy(point))
                    .label(point.label, loc=point.side)
                )
        svg = d.get_imagedata("svg").decode("utf-8")
    return _padded(_plain_text(_round_attributes(svg)))
