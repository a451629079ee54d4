"""The ray figures' renderer: a mirror, lens(es) or prism drawn as SVG text, straight from the spec.

The picture is built as strings (no plotting library), every coordinate rounded to one decimal,
so one spec always gives the same bytes. Distances along the axis are drawn to scale from the
first element's pole; heights are not (an object arrow is always a readable size). What a
student needs is printed in <text> elements, each value in the one form `core.figures.ray`
prints it: the object's distance and height, f or R, the separation of two lenses, and a
prism's angles and index. The image is never drawn, nor any ray past the element that would
show where it forms: only the incident rays from the object's tip.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from core.figures.ray import RayElement, RayPrism, RaySpec, cm, deg, num

FONT = "DejaVu Sans, sans-serif"
WIDTH, HEIGHT = 520, 290
AXIS_Y = 130.0
MARGIN = 36.0
LEFT_MARGIN = 84.0  # room for an object's height printed beside it
ARROW_PX = 52.0  # drawn height of an object arrow
HALF_APERTURE = 78.0  # half the drawn height of a mirror or lens
INK = "#1a1a1a"
GLASS = "#d8ecf7"
RAY = "#c0392b"
MIRROR_SAG = 12.0  # a mirror arc's depth, pole to ends
HATCHES = 11  # ticks on a mirror's back
DEVIATION_ARC = 112.0  # radius of the arc marking a prism's deviation, about where the rays meet
OUTLINE_CLEAR = 20.0  # how near a label may come to an element's x: its widest outline and a gap


def _f(x: float) -> str:
    text = f"{x:.1f}"
    return "0.0" if text == "-0.0" else text


class _Svg:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []

    def line(self, x1: float, y1: float, x2: float, y2: float, **style: str) -> None:
        attrs = {"stroke": INK, "stroke-width": "1.5"} | style
        self.parts.append(
            f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}"{_attrs(attrs)}/>'
        )

    def path(self, d: str, **style: str) -> None:
        attrs = {"stroke": INK, "stroke-width": "1.5", "fill": "none"} | style
        self.parts.append(f'<path d="{d}"{_attrs(attrs)}/>')

    def polygon(self, points: list[tuple[float, float]], **style: str) -> None:
        pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in points)
        attrs = {"stroke": INK, "stroke-width": "1.5", "fill": "none"} | style
        self.parts.append(f'<polygon points="{pts}"{_attrs(attrs)}/>')

    def text(
        self, x: float, y: float, content: str, anchor: str = "middle", size: int = 13
    ) -> None:
        self.parts.append(
            f'<text x="{_f(x)}" y="{_f(y)}" font-family="{FONT}" font-size="{size}" '
            f'text-anchor="{anchor}" fill="{INK}">{escape(content)}</text>'
        )

    def head(self, x: float, y: float, dx: float, dy: float, colour: str = INK) -> None:
        """A filled arrowhead with its tip at (x, y), pointing along (dx, dy)."""
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dx / n, dy / n
        size, half = 9.0, 4.0
        bx, by = x - ux * size, y - uy * size
        self.polygon(
            [(x, y), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)],
            fill=colour,
            stroke=colour,
            **{"stroke-width": "1"},
        )

    def dimension(
        self, x1: float, x2: float, y: float, label: str, keep: tuple[float, ...] = ()
    ) -> None:
        """A dimension line between x1 and x2 at height y, arrowheads both ends, label above it,
        or beside it when the line is too short; the label stays clear of the outline of each
        element drawn at an x in `keep` (its text never touches a lens or mirror)."""
        lo, hi = min(x1, x2), max(x1, x2)
        self.line(lo, y, hi, y, **{"stroke-width": "1"})
        self.line(lo, y - 5, lo, y + 5, **{"stroke-width": "1"})
        self.line(hi, y - 5, hi, y + 5, **{"stroke-width": "1"})
        if hi - lo > 20:
            self.head(lo, y, -1, 0)
            self.head(hi, y, 1, 0)
        width = _text_width(label, 12)
        blocked = [(k - OUTLINE_CLEAR, k + OUTLINE_CLEAR) for k in keep]

        def clear(start: float) -> bool:
            return all(start + width <= b0 or start >= b1 for b0, b1 in blocked)

        # above the line, centred; else slid along it off the outline; else beside an end
        mid = (lo + hi) / 2 - width / 2
        slid = [b1 for _, b1 in blocked] + [b0 - width for b0, _ in blocked]
        above = [mid, *sorted(slid, key=lambda v: abs(v - mid))]
        for start in above:
            if lo - 2 <= start and start + width <= hi + 2 and clear(start):
                self.text(start, y - 5, label, anchor="start", size=12)
                return
        for start in (lo - 6 - width, hi + 6):
            if clear(start):
                self.text(start, y + 4, label, anchor="start", size=12)
                return
        self.text(lo - 6 - width, y + 4, label, anchor="start", size=12)  # pragma: no cover

    def document(self) -> str:
        body = "\n".join(self.parts)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
            f'height="{self.height}" viewBox="0 0 {self.width} {self.height}">\n'
            f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="white"/>\n'
            f"{body}\n</svg>\n"
        )


def _text_width(text: str, size: int) -> float:
    """A generous estimate of a line of DejaVu Sans text's width in pixels."""
    return 0.64 * size * len(text)


def _attrs(attrs: dict[str, str]) -> str:
    return "".join(f' {k}="{escape(v, {chr(34): "&quot;"})}"' for k, v in attrs.items())


def _focal(element: RayElement) -> float:
    if element.focal is not None:
        return element.focal
    return (element.radius or 0.0) / 2


def _marks(element: RayElement, lone: bool) -> list[tuple[float, str]]:
    """The labelled points on the axis around an element, in cm from the first element."""
    f = _focal(element)
    if element.is_mirror:
        side = -1.0 if element.kind == "concave_mirror" else 1.0
        return [(element.at + side * f, "F"), (element.at + side * 2 * f, "C")]
    if not lone:
        return []
    return [(element.at + s * k * f, name) for s in (-1, 1) for k, name in ((1, "F"), (2, "2F"))]


def _bend(kind: str) -> float:
    """Where a mirror's drawn arc ends, in x from its pole: towards the object if concave."""
    return -MIRROR_SAG if kind == "concave_mirror" else MIRROR_SAG


def _mirror(svg: _Svg, x: float, concave: bool) -> None:
    """The mirror's arc through its pole at x (a quadratic Bézier, its ends bent towards the
    object for a concave mirror, away for a convex one: `_bend`), hatched on its back: the
    right, the side that does not reflect, whichever way it curves."""
    a, bend = HALF_APERTURE, _bend("concave_mirror" if concave else "convex_mirror")
    ends, ctrl = x + bend, x - bend
    top, bottom = AXIS_Y - a, AXIS_Y + a
    svg.path(
        f"M {_f(ends)} {_f(top)} Q {_f(ctrl)} {_f(AXIS_Y)} {_f(ends)} {_f(bottom)}",
        **{"stroke-width": "2.5"},
    )
    # On that Bézier y is linear in its parameter and x = pole + bend·t², t = (y − axis)/a, so
    # each tick starts on the back edge of the stroke and runs back and up, away from the light.
    for k in range(HATCHES):
        t = -0.92 + 1.84 * k / (HATCHES - 1)
        y = AXIS_Y + t * a
        xb = x + bend * t * t + 1.2
        svg.line(xb, y, xb + 8, y - 8, **{"stroke-width": "1"})


def _lens(svg: _Svg, x: float, convex: bool, dx: float = 0.0) -> None:
    a = HALF_APERTURE
    x += dx
    top, bottom = AXIS_Y - a, AXIS_Y + a
    if convex:
        w = 13.0
        d = (
            f"M {_f(x)} {_f(top)} Q {_f(x + 2 * w)} {_f(AXIS_Y)} {_f(x)} {_f(bottom)} "
            f"Q {_f(x - 2 * w)} {_f(AXIS_Y)} {_f(x)} {_f(top)} Z"
        )
    else:
        w, c = 9.0, 2.0
        d = (
            f"M {_f(x - w)} {_f(top)} L {_f(x + w)} {_f(top)} "
            f"Q {_f(x + c - w)} {_f(AXIS_Y)} {_f(x + w)} {_f(bottom)} L {_f(x - w)} {_f(bottom)} "
            f"Q {_f(x - c + w)} {_f(AXIS_Y)} {_f(x - w)} {_f(top)} Z"
        )
    svg.path(d, fill=GLASS, **{"stroke-width": "1.8"})


def _axis_figure(spec: RaySpec) -> str:
    svg = _Svg(WIDTH, HEIGHT)
    elements = spec.elements
    lone = len(elements) == 1
    first, last = elements[0], elements[-1]
    marks = [m for e in elements for m in _marks(e, lone)]
    left = max([o.distance for o in spec.objects] + [-p for p, _ in marks] + [0.0])
    right = max([p for p, _ in marks] + [last.at, 0.0])
    if not lone:
        right = max(right, last.at + 0.6 * max(_focal(e) for e in elements))
    if first.is_mirror and right == 0:
        right = 0.12 * left  # room for the mirror's back
    if not spec.objects and not first.is_mirror:
        left = max(left, right)  # a lens alone sits in the middle
    scale = (WIDTH - LEFT_MARGIN - MARGIN) / ((left + right) or 1.0)

    def x_of(cm_from_first: float) -> float:
        return LEFT_MARGIN + (cm_from_first + left) * scale

    svg.line(LEFT_MARGIN - 50, AXIS_Y, WIDTH - MARGIN + 20, AXIS_Y, **{"stroke-width": "1"})
    contact = len(elements) == 2 and spec.separation() == 0
    shift = (-10.0, 10.0) if contact else (0.0, 0.0)  # two lenses in contact drawn side by side
    keep = tuple(x_of(e.at) + shift[i] for i, e in enumerate(elements))  # outlines labels avoid
    for i, e in enumerate(elements):
        x = x_of(e.at)
        if e.is_mirror:
            _mirror(svg, x, e.kind == "concave_mirror")
        else:
            dx = shift[i]
            _lens(svg, x, e.kind == "convex_lens", dx)
            if e.label:
                svg.text(x + dx, AXIS_Y - HALF_APERTURE - 8, e.label)
    # A mirror's pole is P; a lens's optical centre O, as in NCERT's figures (the object is AB).
    if first.is_mirror:  # in front of the pole, below the axis: clear of the hatched back
        svg.text(x_of(first.at) - 6, AXIS_Y + 16, "P", anchor="end")
    elif not contact:
        svg.text(x_of(first.at) + 18, AXIS_Y + 16, "O", anchor="start")
    for pos, name in marks:
        x = x_of(pos)
        svg.line(x, AXIS_Y - 4, x, AXIS_Y + 4)
        svg.text(x, AXIS_Y + 18, name)

    # The objects: upright arrows, with their distances from the (first) element below the axis.
    dim_y = AXIS_Y + 44.0
    for k, obj in enumerate(spec.objects):
        x = x_of(-obj.distance)
        svg.line(x, AXIS_Y, x, AXIS_Y - ARROW_PX + 4, **{"stroke-width": "2.5"})
        svg.head(x, AXIS_Y - ARROW_PX, 0, -1)
        svg.text(x, AXIS_Y - ARROW_PX - 8, obj.label)
        if obj.height is not None:
            svg.text(x - 6, AXIS_Y - ARROW_PX / 2, obj.height_label(), anchor="end", size=12)
        svg.dimension(x, x_of(first.at), dim_y + 24 * k, obj.distance_label(), keep)
    dim_y += 24 * max(len(spec.objects) - 1, 0) + 30

    if spec.incident_rays and spec.objects:
        obj = spec.objects[0]
        x0, tip = x_of(-obj.distance), AXIS_Y - ARROW_PX
        xe = x_of(first.at)
        # the ray along the axis ends at the pole; the one parallel to it, on the mirror's arc
        xt = xe + (_bend(first.kind) * (ARROW_PX / HALF_APERTURE) ** 2 if first.is_mirror else 0)
        svg.line(x0, tip, xt, tip, stroke=RAY, **{"stroke-width": "1.2"})
        svg.line(x0, tip, xe, AXIS_Y, stroke=RAY, **{"stroke-width": "1.2"})
        if xe - x0 > 60:
            svg.head((x0 + xe) / 2 + 5, tip, 1, 0, RAY)
            mx, my = (x0 + xe) / 2, (tip + AXIS_Y) / 2
            svg.head(mx + 5, my + 5 * ARROW_PX / (xe - x0), xe - x0, ARROW_PX, RAY)

    # f or R of each element, as a dimension line from its pole to its F or C.
    for i, e in enumerate(elements):
        x = x_of(e.at)
        side = -1.0 if e.kind == "concave_mirror" else 1.0
        if e.radius is not None:
            svg.dimension(x, x_of(e.at + side * e.radius), dim_y, e.radius_label(), keep)
        elif e.focal is not None:
            if lone:
                svg.dimension(x, x_of(e.at + side * e.focal), dim_y, e.focal_label(), keep)
            else:
                svg.text(
                    x + (-14 if contact and i == 0 else 14 if contact else 0),
                    dim_y + 24,
                    e.focal_label(),
                    anchor="end" if contact and i == 0 else "start" if contact else "middle",
                    size=12,
                )
    if len(elements) == 2 and not contact:
        svg.dimension(
            x_of(first.at), x_of(last.at), AXIS_Y - HALF_APERTURE - 26, spec.separation_label()
        )
    svg.height = round(max(AXIS_Y + HALF_APERTURE + 24, dim_y + 40))
    return svg.document()


def _prism_figure(prism: RayPrism) -> str:
    width, height = 460, 300
    svg = _Svg(width, height)
    half = math.radians(min(max(prism.angle, 26.0), 76.0) / 2)  # drawn angle, readable
    side = 190.0
    cx, top = width / 2, 44.0
    left = (cx - side * math.sin(half), top + side * math.cos(half))
    right = (cx + side * math.sin(half), top + side * math.cos(half))
    svg.polygon([(cx, top), left, right], fill=GLASS, **{"stroke-width": "2"})
    svg.text(cx, top - 10, prism.angle_label())
    r = 26.0
    svg.path(
        f"M {_f(cx - r * math.sin(half))} {_f(top + r * math.cos(half))} "
        f"A {_f(r)} {_f(r)} 0 0 0 {_f(cx + r * math.sin(half))} {_f(top + r * math.cos(half))}",
        **{"stroke-width": "1"},
    )
    if prism.index is not None:
        svg.text(cx, top + side * math.cos(half) - 18, prism.index_label())

    # The ray: inside parallel to the base, entering the left face and leaving the right one.
    frac = 0.5
    p = (cx + (left[0] - cx) * frac, top + (left[1] - top) * frac)
    q = (2 * cx - p[0], p[1])
    n_in = (math.cos(half), math.sin(half))  # into the prism through the left face
    if prism.incidence is not None:
        i = math.radians(prism.incidence)
    elif prism.min_deviation is not None:
        i = math.radians((prism.angle + prism.min_deviation) / 2)
    else:
        i = half + math.radians(8.0)  # near-normal incidence, as for a thin prism
    e = math.radians(prism.emergence) if prism.emergence is not None else i
    d_in = (math.cos(half - i), math.sin(half - i))
    d_out = (math.cos(e - half), math.sin(e - half))
    start = (p[0] - 120 * d_in[0], p[1] - 120 * d_in[1])
    end = (q[0] + 120 * d_out[0], q[1] + 120 * d_out[1])
    for a, b in ((start, p), (p, q), (q, end)):
        svg.line(a[0], a[1], b[0], b[1], stroke=RAY, **{"stroke-width": "1.6"})
    svg.head((start[0] + p[0]) / 2, (start[1] + p[1]) / 2, *d_in, colour=RAY)
    # the emergent ray's arrowhead well out, past the arc that marks a deviation
    svg.head(q[0] + 0.8 * (end[0] - q[0]), q[1] + 0.8 * (end[1] - q[1]), *d_out, colour=RAY)
    dash = {"stroke-dasharray": "4 3", "stroke-width": "1"}
    for point, (nx, ny) in ((p, n_in), (q, (-n_in[0], n_in[1]))):
        svg.line(
            point[0] - 40 * nx, point[1] - 40 * ny, point[0] + 28 * nx, point[1] + 28 * ny, **dash
        )
    # Each angle's value sits between the ray and the normal it is measured from.
    for point, ray, normal, label, anchor in (
        (p, (-d_in[0], -d_in[1]), (-n_in[0], -n_in[1]), prism.incidence, "end"),
        (q, d_out, (n_in[0], -n_in[1]), prism.emergence, "start"),
    ):
        if label is None:
            continue
        bx, by = ray[0] + normal[0], ray[1] + normal[1]
        norm = math.hypot(bx, by) or 1.0
        text = prism.incidence_label() if anchor == "end" else prism.emergence_label()
        svg.text(point[0] + 50 * bx / norm, point[1] + 50 * by / norm + 5, text, anchor=anchor)
    if prism.min_deviation is not None:
        _deviation(svg, p, q, d_in, d_out, prism.min_deviation_label())
    return svg.document()


def _deviation(
    svg: _Svg,
    p: tuple[float, float],
    q: tuple[float, float],
    d_in: tuple[float, float],
    d_out: tuple[float, float],
    label: str,
) -> None:
    """The deviation as NCERT draws it: the incident ray produced and the emergent ray traced
    back (dashed) meet at X inside the prism, and an arc about X, outside the prism, spans the
    angle between the incident ray produced and the emergent ray, its value printed beside it.
    (The stem says when the ray is at minimum deviation: no caption repeats it.)"""
    # X = p + s·d_in = q − u·d_out, solved by Cramer's rule
    det = d_in[0] * (-d_out[1]) + d_out[0] * d_in[1]
    if abs(det) < 1e-9:  # pragma: no cover - parallel rays: no deviation to mark
        return
    rx, ry = q[0] - p[0], q[1] - p[1]
    s = (rx * (-d_out[1]) + d_out[0] * ry) / det
    x, y = p[0] + s * d_in[0], p[1] + s * d_in[1]
    r = DEVIATION_ARC
    dash = {"stroke-dasharray": "5 3", "stroke-width": "1", "stroke": RAY}
    svg.line(p[0], p[1], x + (r + 8) * d_in[0], y + (r + 8) * d_in[1], **dash)
    svg.line(q[0], q[1], x, y, **dash)
    a = (x + r * d_in[0], y + r * d_in[1])
    b = (x + r * d_out[0], y + r * d_out[1])
    sweep = 1 if d_in[0] * d_out[1] - d_in[1] * d_out[0] > 0 else 0
    svg.path(
        f"M {_f(a[0])} {_f(a[1])} A {_f(r)} {_f(r)} 0 0 {sweep} {_f(b[0])} {_f(b[1])}",
        **{"stroke-width": "1.2"},
    )
    mx, my = d_in[0] + d_out[0], d_in[1] + d_out[1]
    n = math.hypot(mx, my) or 1.0
    svg.text(x + (r + 6) * mx / n, y + (r + 6) * my / n + 4, label, anchor="start")


def ray_svg(spec: RaySpec) -> str:
    """The SVG of a ray figure: a prism alone, or elements on a principal axis with objects."""
    if spec.prism is not None:
        return _prism_figure(spec.prism)
    if not spec.elements:
        raise ValueError("a ray figure needs a prism or at least one mirror or lens")
    return _axis_figure(spec)


def ray_alt(spec: RaySpec) -> str:
    """The picture in words, for a screen reader: what is drawn and printed, never the image."""
    if spec.prism is not None:
        p = spec.prism
        parts = [f"A triangular glass prism of refracting angle {deg(p.angle)}"]
        if p.index is not None:
            parts.append(f"and refractive index {num(p.index)}")
        if p.incidence is not None and p.emergence is not None:
            parts.append(
                f"; a ray strikes the left face at an angle of incidence {deg(p.incidence)} and "
                f"leaves the right face at an angle of emergence {deg(p.emergence)}"
            )
        elif p.minimum:
            parts.append("; a ray passes through it symmetrically, at minimum deviation")
        else:
            parts.append("; a ray enters one face close to the normal and leaves the other")
        if p.min_deviation is not None:
            parts.append(f", the angle of minimum deviation {deg(p.min_deviation)} marked")
        return " ".join(parts).replace(" ;", ";").replace(" ,", ",") + "."
    elements = spec.elements
    if len(elements) == 2:
        first, second = (e.kind.replace("_", " ") for e in elements)
        where = "in contact" if not spec.separation() else f"{cm(spec.separation())} apart"
        text = (
            f"Two thin lenses on a common axis, {where}: a {first} L₁ of focal length "
            f"{cm(elements[0].focal or 0)} and a {second} L₂ of focal length "
            f"{cm(elements[1].focal or 0)}."
        )
    else:
        e = elements[0]
        marks = (
            "its pole P, focus F and centre of curvature C"
            if e.is_mirror
            else "its optical centre O and the points F and 2F on either side"
        )
        value = (
            f"radius of curvature {cm(e.radius)}"
            if e.radius
            else f"focal length {cm(e.focal or 0)}"
        )
        name = e.kind.replace("_", " ")
        text = f"A {name} on a horizontal principal axis, with {marks} marked; {value}."
    for k, o in enumerate(spec.objects):
        height = f", {cm(o.height)} tall," if o.height else ""
        if k == 0:
            text += f" An upright object {o.label}{height} stands {cm(o.distance)} to its left."
        else:
            text += f" It is then moved to {o.label}, {cm(o.distance)} to the left."
    return text
