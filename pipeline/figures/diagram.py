"""The labelled diagrams' renderer: the spec's shapes as SVG, letters with leader lines, a title.

Plain string building, no plotting library: every number is written by one formatter, so the
same spec always gives the same bytes. Only the title, the letters and the spec's neutral notes
are printed; the part names stay in the spec.
"""

from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

from core.figures.diagram import DiagramShape, DiagramSpec

# Inside a double-quoted attribute a quote must be escaped too, or a value could add attributes.
QUOTE = {'"': "&quot;"}

WIDTH, HEIGHT = 480, 360
FONT = "DejaVu Sans, sans-serif"
INK = "#222222"
LEADER = "#444444"


def _n(value: float) -> str:
    """A coordinate as the SVG writes it: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _style(shape: DiagramShape) -> str:
    attrs = (
        f'fill="{escape(shape.fill, QUOTE)}" stroke="{escape(shape.stroke, QUOTE)}" '
        f'stroke-width="{_n(shape.stroke_width)}" stroke-linejoin="round" stroke-linecap="round"'
    )
    if shape.dash:
        attrs += f' stroke-dasharray="{escape(shape.dash, QUOTE)}"'
    return attrs


def _points(values: tuple[float, ...]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in zip(values[::2], values[1::2], strict=True))


def _shape(shape: DiagramShape) -> str:
    g, style = shape.geometry, _style(shape)
    if shape.shape == "path":
        return f"<path d={quoteattr(shape.d)} {style}/>"
    if shape.shape == "ellipse":
        cx, cy, rx, ry = g[:4]
        turn = f' transform="rotate({_n(g[4])} {_n(cx)} {_n(cy)})"' if len(g) > 4 and g[4] else ""
        return f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(rx)}" ry="{_n(ry)}"{turn} {style}/>'
    if shape.shape == "circle":
        return f'<circle cx="{_n(g[0])}" cy="{_n(g[1])}" r="{_n(g[2])}" {style}/>'
    if shape.shape == "rect":
        corner = f' rx="{_n(g[4])}"' if len(g) > 4 else ""
        return (
            f'<rect x="{_n(g[0])}" y="{_n(g[1])}" width="{_n(g[2])}" height="{_n(g[3])}"'
            f"{corner} {style}/>"
        )
    if shape.shape == "line":
        return f'<line x1="{_n(g[0])}" y1="{_n(g[1])}" x2="{_n(g[2])}" y2="{_n(g[3])}" {style}/>'
    return f'<{shape.shape} points="{_points(g)}" {style}/>'


def _leader(anchor: tuple[float, float], at: tuple[float, float]) -> str:
    """A leader line from just short of the letter to the anchor, with a dot on the part."""
    (ax, ay), (lx, ly) = anchor, at
    dx, dy = ax - lx, ay - ly
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    gap = min(9.0, length / 2)
    sx, sy = lx + dx * gap / length, ly + dy * gap / length
    return (
        f'<line x1="{_n(sx)}" y1="{_n(sy)}" x2="{_n(ax)}" y2="{_n(ay)}" stroke="{LEADER}" '
        f'stroke-width="1"/><circle cx="{_n(ax)}" cy="{_n(ay)}" r="2" fill="{LEADER}"/>'
    )


@lru_cache(maxsize=64)
def _drawing(shapes: tuple[DiagramShape, ...]) -> str:
    """The drawing's shapes as one group (a diagram's drawing is the same in all its questions)."""
    return "\n".join(("<g>", *(_shape(s) for s in shapes), "</g>"))


def diagram_svg(spec: DiagramSpec) -> str:
    """The diagram's SVG: shapes, notes, leader lines, bold letters and the title."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        _drawing(spec.shapes),
        *(
            f'<text x="{_n(n.x)}" y="{_n(n.y)}" font-size="{_n(n.size)}" fill="{INK}" '
            f'text-anchor="middle">{escape(n.text)}</text>'
            for n in spec.notes
        ),
        *(_leader(label.anchor, label.at) for label in spec.labels),
        *(
            f'<text x="{_n(label.at[0])}" y="{_n(label.at[1] + 5)}" font-size="15" '
            f'font-weight="bold" fill="{INK}" stroke="#ffffff" stroke-width="3" '
            f'paint-order="stroke" text-anchor="middle">{escape(label.letter)}</text>'
            for label in spec.labels
        ),
        f'<text x="{WIDTH // 2}" y="{HEIGHT - 10}" font-size="14" fill="{INK}" '
        f'text-anchor="middle">{escape(spec.title)}</text>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"
